"""Soak: hours of odd frame times and churn compressed into one run, without a single escape."""

from __future__ import annotations

import os
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "benchmarks"))

import maze_soak  # the soaks count wall crossings the same way

BOX = 1000.0
AGENTS = 500
UPDATES = 10_000
RADIUS = 6.0
INTERIOR_WALLS = [
    ((250, 200), (250, 800)),
    ((500, 0), (500, 350)),
    ((500, 650), (500, 1000)),
    ((750, 200), (750, 800)),
    ((100, 500), (400, 500)),
]


def _free_points(world: steer.SteeringWorld, rng, count: int, clearance: float) -> list:
    points = rng.uniform(20, BOX - 20, (count * 4, 2))
    clear = ~world.geometry.nearest(points, clearance).found
    return [tuple(p) for p in points[clear][:count]]


@pytest.mark.slow
def test_soak_no_nan_no_escape_bounded_memory() -> None:
    rng = np.random.default_rng(7)
    world = steer.SteeringWorld(seed=7)
    world.add_walls([(0, 0), (BOX, 0), (BOX, BOX), (0, BOX)], closed=True)
    for a, b in INTERIOR_WALLS:
        world.add_wall(a, b, thickness=4)
    for center in _free_points(world, rng, 12, 40.0):
        world.add_obstacle(center, float(rng.uniform(10, 25)))
    walls = np.array([[*s.a, *s.b] for s in world.space.shapes if hasattr(s, "a")])
    behavior = steer.PriorityBlend(
        steer.AvoidWalls(),
        steer.AvoidObstacles(),
        steer.WeightedBlend((steer.Wander(), 1.0), (steer.Separation(20), 1.0)),
    )
    sprites: list[StubSprite] = []

    def spawn(count: int) -> None:
        for x, y in _free_points(world, rng, count, RADIUS + 2):
            sprite = StubSprite(x, y)
            sprites.append(sprite)
            world.attach(sprite, behavior, max_speed=150, max_force=600, radius=RADIUS)

    spawn(AGENTS)
    added: list = []
    nan = crossings = outside = 0
    memory_start = 0
    for step in range(UPDATES):
        if step == 500:
            tracemalloc.start()
            memory_start = tracemalloc.get_traced_memory()[0]
        if step % 50 == 49:  # churn: some leave, as many arrive
            for index in sorted(rng.choice(len(sprites), 10, replace=False), reverse=True):
                world.detach(sprites.pop(index))
            spawn(10)
        if step % 200 == 199:
            if added and rng.random() < 0.5:
                world.remove_shape(added.pop(int(rng.integers(len(added)))))
            else:
                positions = np.array([s.position for s in sprites])
                for center in _free_points(world, rng, 5, 30.0):
                    if np.min(np.hypot(*(positions - center).T)) > 30 + RADIUS:
                        added.append(world.add_obstacle(center, 20.0))
                        break
        before = np.array([s.position for s in sprites])
        world.update(float(rng.uniform(0.0, 0.1)))
        after = np.array([s.position for s in sprites])
        nan += int((~np.isfinite(after)).any(axis=1).sum())
        crossings += maze_soak.crossings(before, after, walls)
        outside += int(((after < 0) | (after > BOX)).any(axis=1).sum())
    memory_growth = tracemalloc.get_traced_memory()[0] - memory_start
    tracemalloc.stop()

    velocities = np.array([a.velocity for a in world.agents])
    assert np.isfinite(velocities).all()
    assert len(world) == AGENTS
    assert (nan, crossings, outside) == (0, 0, 0)
    assert memory_growth < 2_000_000, f"memory grew by {memory_growth} bytes"
