"""Interpose, Wander, FollowWaypoints and Containment on the native step against numpy: µs
per ``update(1/60)``.

One composition per behaviour, each agent's tree the behaviour alone, each world built twice
from the same seed, once as it runs by default (the native step) and once with
``ARCADE_STEERING_NATIVE=0``:

- ``interpose``: ``Interpose(a, b)`` between two of 20 walkers (agents seeking points of
  their own) for every other agent.
- ``wander``: ``Wander()``.
- ``waypoints``: ``FollowWaypoints`` round one of three lists of 6 points, a third of the
  agents in each mode.
- ``containment``: ``PriorityBlend(Containment(pen), Wander())`` in a square pen, a tenth of
  the agents starting outside it.

Real ``arcade.Sprite``s in a ``SpriteList``; the garbage collector off while timing; the two
worlds of a case are timed in interleaved rounds (native, numpy, native, ...), and a figure
is the median over rounds of each round's median. Compare ratios within one run: the machine
may be shared.

Usage::

    python benchmarks/native_builtins.py                  # 13, 100 and 1,000 agents
    python benchmarks/native_builtins.py --sizes 1000 --rounds 3 --frames 20
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer

SIZE = 1200.0
MODES = ("loop", "pingpong", "once")


def interpose(world: steer.SteeringWorld, sprites: list, rng: np.random.Generator) -> None:
    walkers, guards = sprites[:20], sprites[20:]
    for walker in walkers:
        world.attach(walker, steer.Seek(tuple(rng.uniform(0, SIZE, 2))), max_speed=60.0)
    for guard in guards:
        a, b = rng.choice(len(walkers), 2, replace=False)
        world.attach(guard, steer.Interpose(walkers[a], walkers[b]), max_speed=120.0)


def wander(world: steer.SteeringWorld, sprites: list, rng: np.random.Generator) -> None:
    tree = steer.Wander()
    for sprite in sprites:
        world.attach(sprite, tree, max_speed=80.0)


def waypoints(world: steer.SteeringWorld, sprites: list, rng: np.random.Generator) -> None:
    lists = [rng.uniform(0, SIZE, (6, 2)) for _ in range(3)]
    trees = [steer.FollowWaypoints(p, mode=mode) for p, mode in zip(lists, MODES, strict=True)]
    for index, sprite in enumerate(sprites):
        world.attach(sprite, trees[index % 3], max_speed=100.0)


def containment(world: steer.SteeringWorld, sprites: list, rng: np.random.Generator) -> None:
    pen = steer.Containment(arcade.LRBT(0.1 * SIZE, 0.9 * SIZE, 0.1 * SIZE, 0.9 * SIZE))
    tree = steer.PriorityBlend(pen, steer.Wander())
    for sprite in sprites:
        world.attach(sprite, tree, max_speed=100.0)


COMPOSITIONS: dict[str, Callable[[steer.SteeringWorld, list, np.random.Generator], None]] = {
    "interpose": interpose,
    "wander": wander,
    "waypoints": waypoints,
    "containment": containment,
}


def build(composition: str, n: int, native: bool) -> tuple[steer.SteeringWorld, list]:
    """A world of ``n`` agents of ``composition``, on the native step or on numpy, and its
    sprites (the world holds them weakly)."""
    if native:
        os.environ.pop("ARCADE_STEERING_NATIVE", None)
    else:
        os.environ["ARCADE_STEERING_NATIVE"] = "0"
    rng = np.random.default_rng(7)
    world = steer.SteeringWorld(seed=7)
    sprites = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-builtins")
    for x, y in rng.uniform(0, SIZE, (max(n, 21), 2)).tolist():
        sprites.append(arcade.Sprite(texture, center_x=x, center_y=y))
    COMPOSITIONS[composition](world, list(sprites), rng)
    report = world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return world, sprites


def timed(world: steer.SteeringWorld, frames: int) -> float:
    """Median µs of ``frames`` updates."""
    times = []
    for _ in range(frames):
        start = time.perf_counter()
        world.update(1 / 60)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[13, 100, 1000])
    parser.add_argument("--only", nargs="+", choices=list(COMPOSITIONS), default=None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args()
    cases = [(c, n) for c in args.only or COMPOSITIONS for n in args.sizes]
    built = {(c, n): [build(c, n, True), build(c, n, False)] for c, n in cases}
    worlds = {case: [world for world, _ in pair] for case, pair in built.items()}
    for pair in worlds.values():
        for world in pair:
            for _ in range(30):  # warmed up, under way
                world.update(1 / 60)
    medians: dict[tuple[str, int], list[list[float]]] = {case: [[], []] for case in cases}
    gc.disable()
    for _ in range(args.rounds):
        for case in cases:
            for side, world in enumerate(worlds[case]):
                medians[case][side].append(timed(world, args.frames))
    gc.enable()
    print("| composition | N | native µs | numpy µs | native / numpy |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for (composition, n), (native, numpy) in medians.items():
        a, b = statistics.median(native), statistics.median(numpy)
        print(f"| {composition} | {n:,} | {a:,.1f} | {b:,.1f} | {a / b:.2f}x |")


if __name__ == "__main__":
    main()
