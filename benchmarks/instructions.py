"""Instructions per ``world.update(1/60)`` of one scenario, counted by valgrind's callgrind.

Milliseconds on a shared machine move by 1.5x from one minute to the next; instruction counts
do not: the same code on the same inputs gives the same count to a fraction of a percent,
whatever else the machine is doing. So two versions of a change can be compared by running
this on each. A count misses what memory and branches cost (a binary search's mispredicted
branches, say), so confirm a win in milliseconds with ``run.py`` when the machine is quiet.

The scenario is run twice under callgrind, for ``--skip`` updates and for ``--skip`` plus
``--updates``, and the difference is divided by ``--updates``: building the world and importing
everything cancel out. Takes a few minutes (callgrind is ~50x slower).

Usage::

    python benchmarks/instructions.py squads 1000
    python benchmarks/instructions.py walls 1000 --updates 20
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

os.environ.setdefault("ARCADE_HEADLESS", "1")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenarios import Scenario, all_scenarios

DT = 1 / 60


def _run(scenario: Scenario, agents: int, updates: int) -> None:
    """Build the scenario and update it ``updates`` times (what callgrind counts)."""
    world = scenario.build(agents)
    for _ in range(updates):
        world.update(DT)


def _count(scenario: str, agents: int, updates: int) -> int:
    """Instructions of a whole run of ``updates`` updates, under callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        os.path.abspath(__file__),
        "--inner",
        scenario,
        str(agents),
        "--updates",
        str(updates),
    ]
    # A fixed hash seed: set and dict orders, and so the work done, repeat from run to run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in callgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    scenarios = {scenario.name: scenario for scenario in all_scenarios()}
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", choices=sorted(scenarios))
    parser.add_argument("agents", type=int)
    parser.add_argument("--updates", type=int, default=200, help="updates counted (200)")
    parser.add_argument("--skip", type=int, default=10, help="updates left out first (10)")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        _run(scenarios[args.scenario], args.agents, args.updates)
        return 0
    if shutil.which("valgrind") is None:
        parser.error("needs valgrind (Debian: apt install valgrind)")
    if args.updates < 1 or args.skip < 0:
        parser.error("--updates must be >= 1 and --skip >= 0")
    before = _count(args.scenario, args.agents, args.skip)
    after = _count(args.scenario, args.agents, args.skip + args.updates)
    per_update = (after - before) / args.updates
    print(f"{args.scenario} N={args.agents}: {per_update:,.0f} instructions per update")
    return 0


if __name__ == "__main__":
    sys.exit(main())
