"""Line of sight: ``world.can_see`` for 1,000 observer-target pairs among 100 walls.

Twenty guards (attached, wandering, so each faces its own way) and fifty intruders (sprites the
world does not steer) in the cluttered field of the walls scenario: 100 walls and 50
obstacles. Each timed call asks which guards see which intruders, 20 x 50 = 1,000 pairs, with
walls and obstacles blocking the view; the intruders move to new random places between calls.

- ``sight``: a cone 400 px deep, 45 degrees each side: most pairs fail the cone, the rest cast
  a ray (the field's ``rays`` says how many a call casts, on average).
- ``sight-all``: all round and across the whole field (3,000 px): every pair casts a ray,
  up to 2,800 px long, the worst case.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import numpy as np

import arcade_steering as steer

from . import Scenario, sprites_at
from ._field import SIZE, scatter
from .walls import OBSTACLES, WALLS

GUARDS = 20
WARMUP = 20
TIMED = 300
QUICK = (3, 10)
#: (length px, half-angle degrees) of each scenario's view.
VIEWS = {"sight": (400.0, 45.0), "sight-all": (3000.0, 180.0)}


def build_sight(count: int) -> steer.SteeringWorld:
    """The field with ``GUARDS`` wandering guards attached (the intruders are made by the run)."""
    rng = np.random.default_rng(5)
    world = scatter(rng, WALLS, (60, 200), OBSTACLES, (15, 40)).world()
    _, guards = sprites_at(rng.uniform(50, SIZE - 50, (GUARDS, 2)))
    for sprite in guards:
        world.attach(sprite, steer.Wander(), max_speed=60.0)
    for _ in range(30):
        world.update(1 / 30)
    return world


def _timed(name: str) -> Any:
    def run(count: int, quick: bool) -> dict[str, Any]:
        """Median and p95 ms of one ``can_see`` call over ``count`` pairs."""
        world = build_sight(count)
        guards = [agent.sprite for agent in world.agents]
        rng = np.random.default_rng(6)
        intruder_list, intruders = sprites_at(rng.uniform(0, SIZE, (count // GUARDS, 2)))
        length, half_angle = VIEWS[name]
        warmup, timed = QUICK if quick else (WARMUP, TIMED)
        samples, rays = np.empty(timed), 0
        gc.disable()
        try:
            for index in range(-warmup, timed):
                places = rng.uniform(0, SIZE, (len(intruders), 2)).tolist()
                for sprite, (x, y) in zip(intruders, places, strict=True):
                    sprite.position = (x, y)
                start = time.perf_counter()
                world.can_see(guards, intruder_list, length, half_angle, obstacles=True)
                if index >= 0:
                    samples[index] = (time.perf_counter() - start) * 1e3
                    rays += int(
                        world.can_see(guards, intruder_list, length, half_angle, walls=False).sum()
                    )
        finally:
            gc.enable()
        return {
            "median_ms": round(float(np.median(samples)), 4),
            "p95_ms": round(float(np.percentile(samples, 95)), 4),
            "rays": round(rays / timed),
        }

    return run


SCENARIOS = [Scenario(name, (GUARDS * 50,), build_sight, run=_timed(name)) for name in VIEWS]

BUDGETS = {("sight", 1000): 1.0}
