"""AvoidWalls in the native step: CPU time per update, native against numpy, among walls.

Every agent steers with ``PriorityBlend(AvoidWalls(), AvoidObstacles(), Seek(goal))`` in the
demo's level (its walls and obstacles, read through the Tiled loader as
``small_worlds.py`` reads them): up to 13 agents one copy of the level, beyond that
``ceil(N / 13)`` copies side by side, so every N is as crowded as the demo. Agents start
round the squad's spawn and seek a point of the patrol route of their copy, so they meet
walls on the way. The same world is built twice from one seed: once as it runs by default
(native where the extension is built) and once with ``ARCADE_STEERING_NATIVE=0``.

Timing: CPU time of one ``update(1/60)`` (sprite write-back included), garbage collector off,
in interleaved rounds (every case native then numpy, round after round), so a busy spell of a
shared machine falls on different cases; a figure is the median over rounds of each round's
median, in microseconds. Compare the ratio within one run.

Usage::

    python benchmarks/native_walls.py                      # N = 13, 100, 1000
    python benchmarks/native_walls.py --sizes 13 100 --solid --rounds 7
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import numpy as np

import arcade_steering as steer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from small_worlds import DT, NATIVE_SWITCH, SQUAD, demo_level, sprites_at, squad_sizes

SIZES = (13, 100, 1000)


def build(n: int, solid: bool, native: bool) -> tuple[Callable[[float], None], list[Any]]:
    """The world of ``n`` agents (see the module's docstring): its update and what to keep
    alive; on numpy only unless ``native``."""
    if native:
        os.environ.pop(NATIVE_SWITCH, None)
    else:
        os.environ[NATIVE_SWITCH] = "0"
    try:
        world = steer.SteeringWorld(seed=0)
    finally:
        os.environ.pop(NATIVE_SWITCH, None)
    level = demo_level()
    sizes = squad_sizes(n, SQUAD)
    columns = int(np.ceil(np.sqrt(len(sizes))))
    rng = np.random.default_rng(0)
    keep: list[Any] = [world]
    for tile, size in enumerate(sizes):
        ox, oy = (tile % columns) * level.width, (tile // columns) * level.height
        for (ax, ay), (bx, by), thickness in level.walls:
            world.add_wall((ax + ox, ay + oy), (bx + ox, by + oy), thickness=thickness)
        for (cx, cy), radius in level.obstacles:
            world.add_obstacle((cx + ox, cy + oy), radius)
        spawn = np.add(level.squad_spawn, (ox, oy))
        sprite_list, sprites = sprites_at(spawn + rng.uniform(-30.0, 30.0, (size, 2)))
        keep.append(sprite_list)
        for sprite in sprites:
            goal = level.route[int(rng.integers(len(level.route)))]
            tree = steer.PriorityBlend(
                steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek((goal[0] + ox, goal[1] + oy))
            )
            world.attach(sprite, tree, max_speed=90.0, max_force=300.0, solid=solid)
    if native and not all(batch.native for batch in world.native_report().batches):
        print(f"warning: not native:\n{world.native_report()}", file=sys.stderr)
    return world.update, keep


def time_updates(update: Callable[[float], None], frames: int) -> float:
    """Median CPU time (µs) of ``frames`` updates."""
    samples = []
    clock = time.process_time
    gc.disable()
    try:
        for _ in range(frames):
            start = clock()
            update(DT)
            samples.append((clock() - start) * 1e6)
    finally:
        gc.enable()
    return statistics.median(samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="agent counts")
    parser.add_argument("--solid", action="store_true", help="solid agents (the solid step)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--frames", type=int, default=60, help="updates timed per round (60)")
    parser.add_argument("--warmup", type=int, default=30, help="untimed updates first (30)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.frames < 1 or min(args.sizes) < 1:
        parser.error("--rounds, --frames and --sizes must be at least 1")
    cases = []
    for n in args.sizes:
        worlds = {path: build(n, args.solid, path == "native") for path in ("native", "numpy")}
        for update, _ in worlds.values():
            for _ in range(args.warmup):
                update(DT)
        cases.append((n, worlds))
    medians: dict[tuple[int, str], list[float]] = {}
    for index in range(args.rounds):
        print(f"round {index + 1} of {args.rounds}", file=sys.stderr, flush=True)
        for n, worlds in cases:
            for path, (update, _) in worlds.items():
                medians.setdefault((n, path), []).append(time_updates(update, args.frames))
    print(f"{'agents':>7}{'solid':>7}{'native µs':>11}{'numpy µs':>10}{'native/numpy':>14}")
    for n, _ in cases:
        native = statistics.median(medians[n, "native"])
        numpy_only = statistics.median(medians[n, "numpy"])
        ratio = native / numpy_only
        print(f"{n:>7}{args.solid!s:>7}{native:>11.0f}{numpy_only:>10.0f}{ratio:>13.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
