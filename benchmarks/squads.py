"""Squads keeping out of their leader's view: the native step against numpy.

Every 13 agents are a leader walking round a circle (``Seek`` of a point that moves on it)
and 12 followers with ``PriorityBlend(EvadeSightCone(leader), WeightedBlend((Arrive(leader),
1), (Separation(30), 1)))``, squads side by side, real sprites in one ``SpriteList`` (as
``small_worlds.py`` makes them). Each N is built twice from the same seed:
as it runs by default (the native step, where the extension is built) and on numpy only
(``ARCADE_STEERING_NATIVE=0``). Both are warmed up, then timed update by update in
alternation, garbage collector off; a figure is the median, in microseconds per
``update(1/60)``.

Usage::

    python benchmarks/squads.py                 # 13, 100 and 1,000 agents
    python benchmarks/squads.py --sizes 13 --frames 500
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60
SQUAD = 13
#: The switch that keeps a world made while it is "0" on numpy.
NATIVE_SWITCH = "ARCADE_STEERING_NATIVE"


class Squads:
    """``n`` agents in squads of :data:`SQUAD`, on the path the environment says."""

    def __init__(self, n: int, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.world = steer.SteeringWorld(seed=seed)
        self.goals: list[tuple[StubSprite, np.ndarray]] = []
        self.sprites = arcade.SpriteList()  # the world holds the sprites weakly
        texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
        self.time = 0.0
        for first in range(0, n, SQUAD):
            centre = np.array([600.0 * (first // SQUAD), 0.0])
            goal = StubSprite(*(centre + np.array([150.0, 0.0])))
            leader = arcade.Sprite(texture, center_x=centre[0], center_y=centre[1])
            self.world.attach(leader, steer.Seek(goal), max_speed=60.0)
            self.sprites.append(leader)
            self.goals.append((goal, centre))
            for _ in range(min(SQUAD, n - first) - 1):
                x, y = centre + rng.uniform(-120.0, 120.0, 2)
                follower = arcade.Sprite(texture, center_x=x, center_y=y)
                cone = steer.EvadeSightCone(leader, length=100.0, half_angle=35.0)
                follow = steer.WeightedBlend(
                    (steer.Arrive(leader, slowing_radius=60.0), 1.0),
                    (steer.Separation(30.0), 1.0),
                )
                self.world.attach(follower, steer.PriorityBlend(cone, follow), max_speed=90.0)
                self.sprites.append(follower)

    def update(self) -> None:
        self.time += DT
        angle = 0.4 * self.time
        for goal, centre in self.goals:
            goal.position = tuple(centre + 150.0 * np.array([math.cos(angle), math.sin(angle)]))
        self.world.update(DT)


def build(n: int, native: bool) -> Squads:
    if native:
        os.environ.pop(NATIVE_SWITCH, None)
    else:
        os.environ[NATIVE_SWITCH] = "0"
    squads = Squads(n)
    report = squads.world.native_report()
    assert len(squads.sprites) == n and report.batches, str(report)
    assert all(batch.native == native for batch in report.batches), str(report)
    return squads


def measure(n: int, frames: int, warmup: int) -> tuple[float, float]:
    """Median µs per update of the native world and of the numpy one."""
    worlds = [build(n, True), build(n, False)]
    for _ in range(warmup):
        for squads in worlds:
            squads.update()
    times: list[list[float]] = [[], []]
    gc.disable()
    try:
        for _ in range(frames):
            for side, squads in enumerate(worlds):
                start = time.perf_counter()
                squads.update()
                times[side].append(time.perf_counter() - start)
    finally:
        gc.enable()
    native, numpy = (statistics.median(each) * 1e6 for each in times)
    return native, numpy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[13, 100, 1000])
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=60)
    args = parser.parse_args()
    print("| N | native µs | numpy µs | native / numpy |")
    print("| ---: | ---: | ---: | ---: |")
    for n in args.sizes:
        native, numpy = measure(n, args.frames, args.warmup)
        print(f"| {n:,} | {native:,.1f} | {numpy:,.1f} | {native / numpy:.2f}x |")


if __name__ == "__main__":
    main()
