"""Shapes far from the rest of the level: the static index must neither grow nor coarsen.

The broad phase's grids used to be sized by the level's extent, so one obstacle at x = 1e7
beside 10,000 walls made every cell hold hundreds of walls and updates 10-100x slower. These
tests count what the index allocates and hands to the exact tests, not time, and check its
answers against an exhaustive search.
"""

from __future__ import annotations

import math

import numpy as np
import pymunk
import pytest

from arcade_steering.geometry import (
    WORLD_BOUND,
    StaticGeometry,
    add_obstacle,
    add_wall,
)
from arcade_steering.geometry import _broad_phase as _grid

#: Where the far shape goes: none, near, far, at the world's corner.
FAR = [None, (1e5, 1000.0), (1e7, 1000.0), (WORLD_BOUND - 50.0, WORLD_BOUND - 50.0)]


def wall_field(far: tuple[float, float] | None, far_kind: str = "obstacle") -> StaticGeometry:
    """2,500 short walls on a 40 px lattice over 2000 x 2000 px, and maybe one far shape."""
    rng = np.random.default_rng(5)
    space = pymunk.Space()
    centres = np.stack(np.meshgrid(np.arange(50) * 40.0 + 20, np.arange(50) * 40.0 + 20), -1)
    angle = rng.uniform(0, math.pi, 2500)
    half = 8.0 * np.column_stack((np.cos(angle), np.sin(angle)))
    for c, d in zip(centres.reshape(-1, 2).tolist(), half.tolist(), strict=True):
        add_wall(space, (c[0] - d[0], c[1] - d[1]), (c[0] + d[0], c[1] + d[1]), thickness=2)
    if far is not None and far_kind == "obstacle":
        add_obstacle(space, far, 10)
    elif far is not None:
        add_wall(space, far, (far[0] + 30, far[1] + 20))
    return StaticGeometry(space)


def query_points() -> np.ndarray:
    return np.random.default_rng(6).uniform(0, 2000, (1000, 2))


@pytest.mark.parametrize("far_kind", ["obstacle", "wall"])
def test_a_far_shape_adds_no_candidates_and_no_cells(far_kind: str) -> None:
    points = query_points()
    base_short = base_long = 0
    grids = []
    for far in FAR:
        geo = wall_field(far, far_kind)
        # Feelers and detection boxes look up one cell of a grid of grown shapes; longer
        # queries visit every cell of their box in the plain grid (pairs before any test).
        short = len(geo.candidates(points, 20.0)[0])
        long = len(geo._broad.grid.pairs(points - 300.0, points + 300.0)[0])
        if far is None:
            base_short, base_long = short, long
        assert short == base_short, (far, short, base_short)
        assert long <= 1.05 * base_long, (far, long, base_long)
        grids += [geo._broad.grid, *geo._broad._halos.values()]
    for grid in grids:  # a table row per cell, or at most four per occupied cell if hashed
        assert len(grid.table) <= max(1 << 18, 4 * len(grid.cell_items))


def far_world() -> tuple[StaticGeometry, np.ndarray]:
    """A cluttered 900 px field plus shapes far out along x, at a corner and on a long wall;
    and query points around all of them."""
    rng = np.random.default_rng(7)
    space = pymunk.Space()
    for _ in range(150):
        a = rng.uniform(0, 900, 2)
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(10, 120)
        b = a + length * np.array([math.cos(angle), math.sin(angle)])
        add_wall(space, a, b, thickness=rng.uniform(0, 8))
    for _ in range(60):
        add_obstacle(space, rng.uniform(0, 900, 2), rng.uniform(4, 30))
    far = [(1e7, 500.0), (-3e6, 2e6), (WORLD_BOUND - 100, -WORLD_BOUND + 100)]
    for x, y in far:
        add_wall(space, (x - 40, y), (x + 40, y + 25), thickness=3)
        add_obstacle(space, (x + 60, y - 30), 12)
    add_wall(space, (-50.0, -50.0), (5e5, -50.0))  # long: its cells grow, not the others'
    around = [rng.uniform(-30, 930, (600, 2))]
    around += [rng.uniform(-120, 120, (150, 2)) + np.array(place) for place in far]
    return StaticGeometry(space), np.concatenate(around)


@pytest.mark.parametrize("max_length", [30.0, 400.0, 3e7])
def test_far_shapes_give_the_hits_of_an_exhaustive_search(
    monkeypatch: pytest.MonkeyPatch, max_length: float
) -> None:
    geo, starts = far_world()
    rng = np.random.default_rng(8)
    angle = rng.uniform(0, 2 * math.pi, len(starts))
    length = rng.uniform(0, max_length, len(starts))
    ends = starts + length[:, None] * np.column_stack((np.cos(angle), np.sin(angle)))
    inflate = rng.uniform(0, 10, len(starts))
    reach = min(max_length, 500.0)
    grid_rays = geo.raycast(starts, ends, inflate)
    grid_near = geo.nearest(starts, reach)
    grid_pairs = geo.candidates(starts, reach)
    monkeypatch.setattr(_grid, "_BRUTE_FORCE_MAX", 10**9)
    all_rays = geo.raycast(starts, ends, inflate)
    all_near = geo.nearest(starts, reach)
    for field in grid_rays._fields:
        np.testing.assert_array_equal(getattr(grid_rays, field), getattr(all_rays, field))
    for field in grid_near._fields:
        np.testing.assert_array_equal(getattr(grid_near, field), getattr(all_near, field))
    assert all_near.found.sum() > 300 and all_rays.hit.sum() > 100
    grid = geo._broad.grid
    assert len(grid.table) < grid.nx * grid.ny  # cells hashed: the case under test
    # Every shape within reach is a candidate of its point.
    listed = set(zip(*(p.tolist() for p in grid_pairs), strict=True))
    for row in all_near.found.nonzero()[0].tolist():
        assert (row, int(all_near.shape[row])) in listed
