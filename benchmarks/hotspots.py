"""Profile one benchmark scenario: where ``world.update`` spends its time.

Builds the scenario's world (as ``run.py`` does), runs ``--skip`` updates unprofiled (to reach,
say, the crowded middle of the crossing), then ``--updates`` updates under cProfile, and prints
the functions with the most cumulative and own time. Building the world is not profiled.

Usage::

    python benchmarks/hotspots.py crowd 1000
    python benchmarks/hotspots.py crossing 1000 --skip 700 --sort tottime --top 30
    python benchmarks/hotspots.py squads 1000 --out /tmp/squads.prof   # for snakeviz etc.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys

os.environ.setdefault("ARCADE_HEADLESS", "1")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenarios import all_scenarios

DT = 1 / 60


def main(argv: list[str] | None = None) -> int:
    scenarios = {scenario.name: scenario for scenario in all_scenarios()}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=sorted(scenarios))
    parser.add_argument("agents", type=int)
    parser.add_argument("--updates", type=int, default=200, help="profiled updates (200)")
    parser.add_argument("--skip", type=int, default=0, help="unprofiled updates first (0)")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (cumulative)")
    parser.add_argument("--top", type=int, default=25, help="functions to print (25)")
    parser.add_argument("--out", help="also write the raw profile here")
    args = parser.parse_args(argv)

    world = scenarios[args.scenario].build(args.agents)
    for _ in range(args.skip):
        world.update(DT)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.updates):
        world.update(DT)
    profile.disable()
    if args.out:
        profile.dump_stats(args.out)
    stats = pstats.Stats(profile).strip_dirs().sort_stats(args.sort)
    print(f"{args.scenario} N={args.agents}: {args.updates} updates after {args.skip}")
    stats.print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
