"""Perception: ``StaticGeometry.blocked``, checked against the full ray cast."""

from __future__ import annotations

import math

import numpy as np
import pymunk

import arcade_steering as steer
from arcade_steering.geometry import StaticGeometry, add_obstacle, add_wall

SIZE = 800.0


def cluttered_world(seed: int, walls: int = 60, obstacles: int = 25) -> steer.SteeringWorld:
    """Thin and thick walls and round obstacles at random."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=0)
    for _ in range(walls):
        a = rng.uniform(0, SIZE, 2)
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(20, 200)
        b = a + length * np.array([math.cos(angle), math.sin(angle)])
        thickness = rng.uniform(1, 16) if rng.random() < 0.5 else 0.0
        world.add_wall(tuple(a), tuple(b), thickness=thickness)
    for _ in range(obstacles):
        world.add_obstacle(tuple(rng.uniform(0, SIZE, 2)), rng.uniform(4, 40))
    return world


# -- blocked: the line-of-sight ray cast -----------------------------------------------------


def test_blocked_agrees_with_raycast_on_rays_of_every_length() -> None:
    world = cluttered_world(1)
    geo = world.geometry
    rng = np.random.default_rng(2)
    for longest in (10.0, 150.0, 600.0, 3000.0):
        starts = rng.uniform(-200, SIZE + 200, (2000, 2))
        angle = rng.uniform(0, 2 * math.pi, 2000)
        reach = rng.uniform(0, longest, 2000)
        ends = starts + reach[:, None] * np.column_stack((np.cos(angle), np.sin(angle)))
        for kinds in ("walls", "obstacles", "all"):
            expected = geo.raycast(starts, ends, kinds=kinds).hit
            np.testing.assert_array_equal(geo.blocked(starts, ends, kinds), expected)
            assert 0 < expected.sum() < len(expected)


def test_blocked_finds_contacts_on_grid_lines_and_corners() -> None:
    """Rays along cell borders, through cell corners, vertical, diagonal at 45 degrees,
    zero-length and far outside the grid find what the full ray cast finds."""
    space = pymunk.Space()
    for x in range(0, 801, 100):  # a lattice of short posts and walls on round coordinates
        for y in range(0, 801, 100):
            add_obstacle(space, (x, y), 5.0)
            add_wall(space, (x + 20, y), (x + 60, y))
            add_wall(space, (x, y + 20), (x, y + 60), thickness=4.0)
    geo = StaticGeometry(space)
    cell = 100.0 * np.arange(-1, 10)
    rays = []
    for c in cell:
        rays += [((c, -150), (c, 950)), ((-150, c), (950, c)), ((c, c), (c + 300, c + 300))]
        rays += [((c + 10, 0), (c + 10, 900)), ((c, c), (c, c)), ((c + 50, c), (c + 50, c))]
        rays += [((c, 0), (c + 800, 800)), ((c + 800, 0), (c, 800)), ((c, 80), (c + 40, 80))]
    rays += [((-5000, -5000), (-4000, -4000)), ((-5000, 400), (5000, 400))]
    starts, ends = (np.array(side, dtype=float) for side in zip(*rays, strict=True))
    for kinds in ("walls", "obstacles", "all"):
        expected = geo.raycast(starts, ends, kinds=kinds).hit
        np.testing.assert_array_equal(geo.blocked(starts, ends, kinds), expected)


def test_blocked_among_a_handful_of_shapes_and_none() -> None:
    space = pymunk.Space()
    geo = StaticGeometry(space)
    assert geo.blocked(np.zeros((3, 2)), np.ones((3, 2))).tolist() == [False] * 3
    add_wall(space, (0, -10), (0, 10))
    geo.sync(space)
    hit = geo.blocked(np.array([[-5.0, 0.0], [-5.0, 20.0]]), np.array([[5.0, 0.0], [5.0, 20.0]]))
    assert hit.tolist() == [True, False]
    assert geo.blocked(np.zeros((0, 2)), np.zeros((0, 2))).shape == (0,)
