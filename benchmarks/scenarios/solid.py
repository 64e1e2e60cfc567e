"""Solid agents with no avoidance: the solid step's sweeps, slides and corners at full load."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Scenario, make_sprites
from ._field import SIZE, outside, scatter

WALLS = 100
OBSTACLES = 50


def build_solid(count: int) -> steer.SteeringWorld:
    """The ``walls`` field (2000 x 2000 px, 100 walls, 50 obstacles) with agents that only
    ``Seek`` their own point, radius 2-20 px: many run into walls and obstacles and slide
    along them or stop in corners, so the solid step does most of the work."""
    rng = np.random.default_rng(5)
    world = scatter(rng, WALLS, (60, 200), OBSTACLES, (15, 40)).world()
    sprites = make_sprites(count, rng, (20, 20), (SIZE - 20, SIZE - 20))
    targets = rng.uniform(50, SIZE - 50, (count, 2)).tolist()
    radii = rng.uniform(2.0, 20.0, count).tolist()
    for sprite, target, radius in zip(sprites, targets, radii, strict=True):
        world.attach(
            sprite, steer.Seek(tuple(target)), max_speed=150.0, max_force=600.0, radius=radius
        )
    return world


SCENARIOS = [Scenario("solid", (1000,), build_solid, outside)]

BUDGETS = {("solid", 1000): 2.0}
