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
from collections.abc import Callable
from dataclasses import dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade  # noqa: E402
import numpy as np  # noqa: E402

import arcade_steering as steer  # noqa: E402

WARMUP_UPDATES = 60
TIMED_UPDATES = 300
DT = 1 / 60


@dataclass
class Scenario:
    """A named way to fill a world with ``n`` agents."""

    name: str
    sizes: tuple[int, ...]
    build: Callable[[int], steer.SteeringWorld]


def _sprites(count: int, rng: np.random.Generator, low, high) -> list[arcade.Sprite]:
    sprite_list = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
    sprites = []
    for x, y in rng.uniform(low, high, (count, 2)).tolist():
        sprite = arcade.Sprite(texture, center_x=x, center_y=y)
        sprite_list.append(sprite)
        sprites.append(sprite)
    _sprites.keep = sprite_list  # the list stays alive as in a game
    return sprites


def build_arrive_shared(count: int) -> steer.SteeringWorld:
    """Every agent shares one Arrive at a point across the field: all keep moving."""
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    arrive = steer.Arrive((1900.0, 1000.0), slowing_radius=150.0)
    for sprite in _sprites(count, rng, (0, 0), (400, 2000)):
        world.attach(sprite, arrive, max_speed=60.0, max_force=300.0)
    return world


def build_arrive_own(count: int) -> steer.SteeringWorld:
    """Every agent has its own Arrive target across the field."""
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    targets = rng.uniform((1500, 0), (2000, 2000), (count, 2)).tolist()
    for sprite, target in zip(_sprites(count, rng, (0, 0), (400, 2000)), targets, strict=True):
        world.attach(sprite, steer.Arrive(tuple(target), slowing_radius=150.0), max_speed=60.0)
    return world


SCENARIOS = [
    Scenario("arrive-shared", (100, 1000, 5000), build_arrive_shared),
    Scenario("arrive-own", (100, 1000, 5000), build_arrive_own),
]

#: (scenario, agents) -> budget in ms for the median.
BUDGETS_MS = {
    ("arrive-shared", 1000): 1.0,
    ("arrive-own", 1000): 1.0,
    ("arrive-shared", 5000): 5.0,
    ("arrive-own", 5000): 5.0,
}
#: Per-agent targets may cost at most this much more than one shared target.
OWN_VS_SHARED_RATIO = 1.5


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
        for (name, n), budget in BUDGETS_MS.items()
        if (name, n) in median and median[name, n] > budget
    ]
    for n in (1000, 5000):
        own, shared = median.get(("arrive-own", n)), median.get(("arrive-shared", n))
        if own is not None and shared is not None and own > OWN_VS_SHARED_RATIO * shared:
            failures.append(f"arrive-own N={n} is {own / shared:.2f}x arrive-shared")
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON")
    parser.add_argument("--quick", action="store_true", help="smoke run with tiny N, no budgets")
    parser.add_argument("--only", action="append", help="run only this scenario (repeatable)")
    args = parser.parse_args(argv)

    results = []
    print(f"{'scenario':<16}{'agents':>8}{'median ms':>12}{'p95 ms':>10}")
    for scenario in SCENARIOS:
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
