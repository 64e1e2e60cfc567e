"""Soak: 200 solid agents among a PymunkPhysicsEngine's static wall sprites (pymunk.Poly boxes)
and merged wall sprites (add_wall_sprites, as a Tiled tile layer makes them), at 30, 60 and
144 updates a second. No agent's centre ever crosses into a wall and no agent sinks into one
deeper than the solid step's rest tolerance (docs/guarantees.md). The default run is short; the
full 3,000 updates per rate run with ``pytest -m slow``."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

TILE = 32
AGENTS = 200
#: The deepest an agent may sink into a wall after an update, px: the solid step's rest
#: tolerance, with room for the rounding of positions written to sprites.
REST_TOLERANCE = 0.01


def _level() -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Tile cells of the engine's walls (a border and blocks) and of the sprite walls (blocks
    and a zig-zag), on a 40 x 24 grid of 32 px."""
    engine_cells = {(c, r) for c in range(40) for r in (0, 23)}
    engine_cells |= {(c, r) for r in range(24) for c in (0, 39)}
    engine_cells |= {(c, r) for c in range(6, 10) for r in range(5, 9)}
    engine_cells |= {(c, r) for c in range(24, 26) for r in range(3, 14)}
    sprite_cells = {(c, r) for c in range(12, 20) for r in range(15, 17)}
    sprite_cells |= {(c, r) for c in range(30, 34) for r in range(6, 10)}
    sprite_cells |= {(10 + k, 10 + (k % 3)) for k in range(10)}  # stairs: diagonal corners
    return sorted(engine_cells), sorted(sprite_cells - engine_cells)


def _tiles(cells: list[tuple[int, int]]) -> arcade.SpriteList:
    tiles = arcade.SpriteList()
    for column, row in cells:
        tile = arcade.SpriteSolidColor(TILE, TILE, color=arcade.color.GRAY)
        tile.position = ((column + 0.5) * TILE, (row + 0.5) * TILE)
        tiles.append(tile)
    return tiles


def _gap(points: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Distance ``[n]`` from each point to the nearest box ``(left, bottom, right, top)``, 0
    inside one."""
    dx = np.maximum(np.maximum(boxes[:, 0] - points[:, :1], points[:, :1] - boxes[:, 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[:, 1] - points[:, 1:], points[:, 1:] - boxes[:, 3]), 0.0)
    return np.hypot(dx, dy).min(axis=1)


def _crosses(start: np.ndarray, end: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Whether each move ``start -> end`` touches the inside of a box (slab test)."""
    move = (end - start)[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t_low = (boxes[None, :, :2] - start[:, None, :]) / move
        t_high = (boxes[None, :, 2:] - start[:, None, :]) / move
    inside = (start[:, None, :] > boxes[None, :, :2]) & (start[:, None, :] < boxes[None, :, 2:])
    still = move == 0.0
    t_low = np.where(still, np.where(inside, -np.inf, np.inf), t_low)  # never out of the slab
    t_high = np.where(still, np.inf, t_high)  # or never in it
    enter = np.minimum(t_low, t_high).max(axis=2)
    leave = np.maximum(t_low, t_high).min(axis=2)
    return ((enter < leave) & (enter < 1.0) & (leave > 0.0)).any(axis=1)


def run(updates: int, fps: int, seed: int = 0) -> dict[str, float]:
    engine_cells, sprite_cells = _level()
    engine = arcade.PymunkPhysicsEngine()
    engine.add_sprite_list(_tiles(engine_cells), body_type=arcade.PymunkPhysicsEngine.STATIC)
    world = steer.SteeringWorld(seed=seed, space=engine.space)
    world.add_wall_sprites(_tiles(sprite_cells))
    boxes = np.array(
        [
            (c * TILE, r * TILE, (c + 1) * TILE, (r + 1) * TILE)
            for c, r in engine_cells + sprite_cells
        ],
        dtype=float,
    )
    rng = np.random.default_rng(seed)
    radius = rng.uniform(4.0, 12.0, AGENTS)

    def free_points(clearance: np.ndarray) -> np.ndarray:
        points = rng.uniform((TILE, TILE), (39 * TILE, 23 * TILE), (len(clearance), 2))
        bad = _gap(points, boxes) < clearance
        while bad.any():
            points[bad] = rng.uniform((TILE, TILE), (39 * TILE, 23 * TILE), (int(bad.sum()), 2))
            bad = _gap(points, boxes) < clearance
        return points

    goals = [StubSprite(x, y) for x, y in free_points(np.full(AGENTS, 2.0))]
    sprites = [StubSprite(x, y) for x, y in free_points(radius + 1.0)]
    for sprite, goal, r in zip(sprites, goals, radius, strict=True):
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(goal))
        world.attach(
            sprite, behavior, radius=float(r), max_speed=rng.uniform(100, 400), max_force=900
        )
    crossings, worst = 0, 0.0
    position = np.array([s.position for s in sprites])
    for update in range(updates):
        if update % 90 == 0:
            for goal, point in zip(goals, free_points(np.full(AGENTS, 2.0)), strict=True):
                goal.position = tuple(point)
        world.update(1 / fps)
        after = np.array([s.position for s in sprites])
        assert np.isfinite(after).all()
        crossings += int(_crosses(position, after, boxes).sum())
        worst = max(worst, float((radius - _gap(after, boxes)).max()))
        position = after
    return {"crossings": crossings, "worst_penetration": worst}


@pytest.mark.parametrize("fps", [30, 60, 144])
def test_agents_among_engine_and_sprite_walls_short(fps: int) -> None:
    figures = run(40, fps)
    assert figures["crossings"] == 0
    assert figures["worst_penetration"] <= REST_TOLERANCE, figures


@pytest.mark.slow
@pytest.mark.parametrize("fps", [30, 60, 144])
def test_200_agents_among_engine_and_sprite_walls_for_3000_updates(fps: int) -> None:
    figures = run(3000, fps)
    assert figures["crossings"] == 0
    assert figures["worst_penetration"] <= REST_TOLERANCE, figures
