"""Walls and obstacles: feelers, detection boxes and solid agents in a closed, cluttered field."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Scenario, make_sprites

SIZE = 2000.0
WALLS = 100
OBSTACLES = 50


def build_walls(count: int) -> steer.SteeringWorld:
    """A 2000 x 2000 field closed by four walls, with 100 short walls and 50 round obstacles.

    Every agent seeks its own point with ``PriorityBlend(AvoidWalls(), AvoidObstacles(),
    Seek(...))`` and is solid, so feelers, boxes and the swept collision step all run.
    """
    rng = np.random.default_rng(3)
    world = steer.SteeringWorld(seed=0)
    world.add_walls([(0, 0), (SIZE, 0), (SIZE, SIZE), (0, SIZE)], closed=True, thickness=4.0)
    for _ in range(WALLS):
        a = rng.uniform(100, SIZE - 100, 2)
        angle, length = rng.uniform(0, np.pi), rng.uniform(60, 200)
        b = a + length * np.array([np.cos(angle), np.sin(angle)])
        world.add_wall(tuple(a), tuple(b), thickness=4.0)
    for _ in range(OBSTACLES):
        world.add_obstacle(tuple(rng.uniform(100, SIZE - 100, 2)), rng.uniform(15, 40))
    sprites = make_sprites(count, rng, (20, 20), (SIZE - 20, SIZE - 20))
    targets = rng.uniform(50, SIZE - 50, (count, 2)).tolist()
    for sprite, target in zip(sprites, targets, strict=True):
        behavior = steer.PriorityBlend(
            steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek(tuple(target))
        )
        world.attach(sprite, behavior, max_speed=100.0, max_force=300.0, solid=True)
    return world


def _inside(world: steer.SteeringWorld) -> dict[str, int]:
    """How many agents ended outside the field: must be none."""
    outside = sum(
        not (0.0 < agent.position[0] < SIZE and 0.0 < agent.position[1] < SIZE)
        for agent in world.agents
    )
    return {"outside": outside}


SCENARIOS = [Scenario("walls", (100, 1000), build_walls, _inside)]

BUDGETS = {("walls", 1000): 2.0}
