"""Walls and obstacles: feelers, detection boxes and solid agents in a closed, cluttered field."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Scenario, make_sprites
from ._field import SIZE, outside, scatter

WALLS = 100
OBSTACLES = 50


def build_walls(count: int) -> steer.SteeringWorld:
    """A 2000 x 2000 field closed by four walls, with 100 short walls and 50 round obstacles.

    Every agent seeks its own point with ``PriorityBlend(AvoidWalls(), AvoidObstacles(),
    Seek(...))`` and is solid, so feelers, boxes and the swept collision step all run.
    """
    rng = np.random.default_rng(3)
    world = scatter(rng, WALLS, (60, 200), OBSTACLES, (15, 40)).world()
    sprites = make_sprites(count, rng, (20, 20), (SIZE - 20, SIZE - 20))
    targets = rng.uniform(50, SIZE - 50, (count, 2)).tolist()
    for sprite, target in zip(sprites, targets, strict=True):
        behavior = steer.PriorityBlend(
            steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek(tuple(target))
        )
        world.attach(sprite, behavior, max_speed=100.0, max_force=300.0, solid=True)
    return world


SCENARIOS = [Scenario("walls", (100, 1000), build_walls, outside)]

BUDGETS = {("walls", 1000): 2.0}
