"""Benchmark: milliseconds per ``world.update(1/60)`` with real arcade sprites.

Every scenario builds its agents as ``arcade.Sprite`` objects in a ``SpriteList`` (no spatial
hash), runs warm-up updates, then times ``world.update(1/60)`` including the write-back to the
sprites. Prints a table; ``--json PATH`` writes
``{"results": [{"scenario", "agents", "median_ms", "p95_ms", ...}, ...]}``.

Usage::

    python benchmarks/run.py                 # full run, checks the budgets
    python benchmarks/run.py --quick         # smoke run with tiny N (CI)
    python benchmarks/run.py --json out.json --only arrive-own
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import numpy as np

import arcade_steering as steer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

WARMUP_UPDATES = 60
TIMED_UPDATES = 300
DT = 1 / 60


from scenarios import all_budgets, all_checks, all_scenarios  # noqa: E402


def time_updates(world: steer.SteeringWorld, warmup: int, timed: int) -> np.ndarray:
    """Milliseconds of each of ``timed`` updates, after ``warmup`` untimed ones."""
    for _ in range(warmup):
        world.update(DT)
    samples = np.empty(timed)
    gc.disable()
    try:
        for index in range(timed):
            start = time.perf_counter()
            world.update(DT)
            samples[index] = (time.perf_counter() - start) * 1e3
    finally:
        gc.enable()
    return samples


def check_budgets(results: list[dict]) -> list[str]:
    """Human-readable budget failures (empty when every budget holds)."""
    median = {(r["scenario"], r["agents"]): r["median_ms"] for r in results}
    failures = [
        f"{name} N={n}: median {median[name, n]:.2f} ms > {budget} ms"
        for (name, n), budget in all_budgets().items()
        if (name, n) in median and median[name, n] > budget
    ]
    for check in all_checks():
        failures.extend(check(median))
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON")
    parser.add_argument("--quick", action="store_true", help="smoke run with tiny N, no budgets")
    parser.add_argument("--only", action="append", help="run only this scenario (repeatable)")
    args = parser.parse_args(argv)

    results = []
    print(f"{'scenario':<16}{'agents':>8}{'median ms':>12}{'p95 ms':>10}")
    for scenario in all_scenarios():
        if args.only and scenario.name not in args.only:
            continue
        sizes = (20,) if args.quick else scenario.sizes
        for count in sizes:
            world = scenario.build(count)
            warmup, timed = (5, 10) if args.quick else (WARMUP_UPDATES, TIMED_UPDATES)
            samples = time_updates(world, warmup, timed)
            row = {
                "scenario": scenario.name,
                "agents": count,
                "median_ms": round(float(np.median(samples)), 4),
                "p95_ms": round(float(np.percentile(samples, 95)), 4),
                **(scenario.extra(world) if scenario.extra else {}),
            }
            results.append(row)
            print(f"{row['scenario']:<16}{count:>8}{row['median_ms']:>12.3f}{row['p95_ms']:>10.3f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump({"results": results}, file, indent=2)
    if args.quick:
        return 0
    failures = check_budgets(results)
    for failure in failures:
        print("OVER BUDGET:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
