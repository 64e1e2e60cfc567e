"""FollowPath and FollowLeader on the native step against numpy: µs per ``update(1/60)``.

Two compositions, each world built twice from the same seed, once as it runs by default
(the native step) and once with ``ARCADE_STEERING_NATIVE=0``:

- ``patrol``: the demo leader's tree without AvoidWalls, ``PriorityBlend(AvoidObstacles,
  FollowPath)``, for every agent, on one closed route of 8 points (radius 30 px) with 20 round
  obstacles along it; agents start spread round the route.
- ``squad``: a leader walking that route, and ``N - 1`` followers with
  ``WeightedBlend((FollowLeader(leader), 1), (Separation(30), 1.5))``.

Real ``arcade.Sprite``s in a ``SpriteList``; the garbage collector off while timing; the two
worlds of a case are timed in interleaved rounds (native, numpy, native, ...), and a figure
is the median over rounds of each round's median. Compare ratios within one run: the machine
may be shared.

Usage::

    python benchmarks/native_follow.py                  # 13, 100 and 1,000 agents
    python benchmarks/native_follow.py --sizes 13 --rounds 3 --frames 20
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer

ROUTE = [(100, 100), (700, 80), (1100, 300), (1200, 700), (900, 1000), (400, 1050)]
ROUTE += [(120, 800), (60, 400)]


def build(composition: str, n: int, native: bool) -> tuple[steer.SteeringWorld, list]:
    """A world of ``n`` agents of ``composition``, on the native step or on numpy, and its
    sprites (the world holds them weakly)."""
    if native:
        os.environ.pop("ARCADE_STEERING_NATIVE", None)
    else:
        os.environ["ARCADE_STEERING_NATIVE"] = "0"
    rng = np.random.default_rng(7)
    world = steer.SteeringWorld(seed=7)
    route = steer.Path(ROUTE, radius=30.0, closed=True)
    for index in range(20):
        on_route = route.point_at([route.length * (index + 0.5) / 20])[0]
        world.add_obstacle(tuple(on_route + rng.uniform(-40, 40, 2)), 18.0)
    sprites = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-follow")
    starts = route.point_at(rng.uniform(0, route.length, n)) + rng.uniform(-60, 60, (n, 2))
    for x, y in starts.tolist():
        sprites.append(arcade.Sprite(texture, center_x=x, center_y=y))
    patrol = steer.PriorityBlend(steer.AvoidObstacles(), steer.FollowPath(route))
    if composition == "patrol":
        for sprite in sprites:
            world.attach(sprite, patrol, max_speed=80.0, max_force=400.0)
    else:
        leader, *squad = sprites
        world.attach(leader, patrol, max_speed=60.0, max_force=400.0)
        follow = steer.WeightedBlend(
            (steer.FollowLeader(leader, distance=40.0), 1.0), (steer.Separation(30.0), 1.5)
        )
        for sprite in squad:
            world.attach(sprite, follow, max_speed=90.0, max_force=500.0)
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
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--frames", type=int, default=40)
    args = parser.parse_args()
    cases = [(c, n) for c in ("patrol", "squad") for n in args.sizes]
    built = {(c, n): [build(c, n, True), build(c, n, False)] for c, n in cases}
    worlds = {case: [world for world, _ in pair] for case, pair in built.items()}
    for pair in worlds.values():
        for world in pair:
            for _ in range(30):  # warmed up, the followers under way
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
