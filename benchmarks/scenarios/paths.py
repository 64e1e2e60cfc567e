"""FollowPath on a 30-point closed path: one shared component, one per agent, ten paths.

Agents start at rest on the path (within its tube) and follow it round.

Agents with their own FollowPath instances (and even their own Path objects) share one batch:
the component loops over the distinct paths and is vectorised over each path's followers.
"""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Results, Scenario, make_sprites, median_of
from ._field import loop

POINTS = 30


def loop_points(phase: float = 0.0) -> np.ndarray:
    """30 points of a wobbly closed loop around the field's centre, radius 500-800 px."""
    return loop(POINTS, phase=phase)


def _world(count: int, paths: list[steer.Path]) -> tuple[steer.SteeringWorld, list]:
    """Sprites at rest on the paths (agent ``i`` on ``paths[i % len(paths)]``), at random
    distances along them and up to half the tube radius off the centre line."""
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    sprites = make_sprites(count, rng, (0, 0), (1, 1))
    for index, sprite in enumerate(sprites):
        path = paths[index % len(paths)]
        at = path.point_at(rng.uniform(0.0, path.length))
        sprite.position = tuple((at + rng.uniform(-0.5, 0.5, 2) * path.radius).tolist())
    return world, sprites


def build_path_shared(count: int) -> steer.SteeringWorld:
    """Every agent shares one FollowPath on one Path."""
    path = steer.Path(loop_points(), radius=30.0, closed=True)
    world, sprites = _world(count, [path])
    follow = steer.FollowPath(path)
    for sprite in sprites:
        world.attach(sprite, follow, max_speed=120.0, max_force=400.0)
    return world


def build_path_own(count: int) -> steer.SteeringWorld:
    """Every agent has its own FollowPath instance (own look-ahead) on one shared Path."""
    path = steer.Path(loop_points(), radius=30.0, closed=True)
    world, sprites = _world(count, [path])
    rng = np.random.default_rng(2)
    for sprite, look_ahead in zip(sprites, rng.uniform(0.2, 0.4, count).tolist(), strict=True):
        world.attach(
            sprite, steer.FollowPath(path, look_ahead=look_ahead), max_speed=120.0, max_force=400.0
        )
    return world


def build_path_ten(count: int) -> steer.SteeringWorld:
    """Every agent has its own FollowPath on one of ten different Paths."""
    paths = [steer.Path(loop_points(0.6 * k), radius=30.0, closed=True) for k in range(10)]
    world, sprites = _world(count, paths)
    for index, sprite in enumerate(sprites):
        world.attach(sprite, steer.FollowPath(paths[index % 10]), max_speed=120.0, max_force=400.0)
    return world


def _batches(world: steer.SteeringWorld) -> dict[str, int]:
    return {"batches": len(world._agents.batches())}


SCENARIOS = [
    Scenario("path-shared", (100, 1000), build_path_shared, _batches),
    Scenario("path-own", (100, 1000), build_path_own, _batches),
    Scenario("path-own-10", (1000,), build_path_ten, _batches),
]

BUDGETS = {
    ("path-shared", 1000): 1.5,
    ("path-own", 1000): 1.5,
    ("path-own-10", 1000): 1.5,
}


def one_batch_for_own_instances(results: Results) -> list[str]:
    """Own instances cost about what one shared instance costs (batching by shape)."""
    own = median_of(results, "path-own", 1000)
    shared = median_of(results, "path-shared", 1000)
    if own is not None and shared is not None and own > 1.5 * shared:
        return [f"path-own N=1000 is {own / shared:.2f}x path-shared"]
    return []


CHECKS = [one_batch_for_own_instances]
