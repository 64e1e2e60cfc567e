"""Benchmark: walls from wall tiles, merged (``world.add_wall_sprites``) or raw (the static
``pymunk.Poly`` of each tile in a ``PymunkPhysicsEngine``'s space).

Times, as the median of ``--rounds`` rounds:

- ``outline``: ``geometry.rectangle_outline`` of ``--tiles`` random tiles on a 32 px grid;
- ``add_wall_sprites``: the same tiles as sprites to walls in a world;
- ``knock_down``: one tile out of its sprite list and ``SpriteWalls.refresh`` (per tile, over
  50 tiles of a solid block of ``--tiles`` tiles);
- ``update_merged`` / ``update_raw``: one ``world.update(1/60)`` of ``--agents`` solid agents
  seeking across the tiles of the soak level of ``tests/test_wall_sources_soak.py``, with the
  walls merged or raw; and the wall rows each gives the geometry.

``--check`` exits 1 when a figure is over its budget in :data:`BUDGETS`.

Usage::

    python benchmarks/wall_sources.py
    python benchmarks/wall_sources.py --rounds 3 --check
    python benchmarks/wall_sources.py --tiles 4000 --agents 500 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer
from arcade_steering.geometry import rectangle_outline

sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "tests"))

import test_wall_sources_soak as soak

TILE = 32
#: Milliseconds a figure may take (issue 36): the merged outline of 1,000 tiles, and the
#: rebuild after one wall sprite leaves its lists.
BUDGETS = {"outline_ms": 50.0, "knock_down_ms": 2.0}


def _median(rounds: int, run: Callable[[], float]) -> float:
    return statistics.median(run() for _ in range(rounds))


def _tiles(cells: np.ndarray) -> arcade.SpriteList:
    return soak._tiles([tuple(cell) for cell in cells.tolist()])


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def _world(merged: bool, agents: int) -> tuple[steer.SteeringWorld, list[object]]:
    """The soak level's walls, merged or raw, and ``agents`` seekers (the world holds sprites
    weakly: the caller keeps the list)."""
    engine_cells, sprite_cells = soak._level()
    tiles = _tiles(np.array(engine_cells + sprite_cells))
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, space=engine.space)
    if merged:
        world.add_wall_sprites(tiles)
    else:
        engine.add_sprite_list(tiles, body_type=arcade.PymunkPhysicsEngine.STATIC)
    rng = np.random.default_rng(0)
    sprites: list[object] = []
    for _ in range(agents):
        start, goal = rng.uniform((60, 60), (1200, 700), (2, 2))
        sprites.append(steer.testing.StubSprite(*start))
        world.attach(sprites[-1], steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(tuple(goal))))
    for _ in range(30):  # agents meet walls
        world.update(1 / 60)
    return world, sprites


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tiles", type=int, default=1000)
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="exit 1 when a budget is over")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    side = int(np.ceil(np.sqrt(args.tiles * 3.6)))
    cells = np.column_stack(np.divmod(rng.choice(side * side, args.tiles, replace=False), side))
    rects = np.concatenate((cells * TILE, cells * TILE + TILE), axis=1).astype(float)
    figures: dict[str, float | int] = {}
    figures["outline_ms"] = 1e3 * _median(
        args.rounds, lambda: _timed(lambda: rectangle_outline(rects))
    )
    tiles = _tiles(cells)
    figures["add_wall_sprites_ms"] = 1e3 * _median(
        args.rounds, lambda: _timed(lambda: steer.SteeringWorld().add_wall_sprites(tiles))
    )
    width = int(np.ceil(np.sqrt(args.tiles)))
    block = _tiles(np.column_stack(np.divmod(np.arange(args.tiles), width)))
    walls = steer.SteeringWorld().add_wall_sprites(block)
    costs = []
    for index in rng.choice(len(block), 50, replace=False):
        tile = block[int(index)] if index < len(block) else block[-1]
        tile.remove_from_sprite_lists()
        costs.append(_timed(walls.refresh))
    figures["knock_down_ms"] = 1e3 * statistics.median(costs)
    for merged in (True, False):
        world, _sprites = _world(merged, args.agents)
        assert len(world.agents) == args.agents
        name = "merged" if merged else "raw"
        figures[f"update_{name}_ms"] = 1e3 * _median(
            args.rounds * 4, lambda world=world: _timed(lambda: world.update(1 / 60))
        )
        figures[f"wall_rows_{name}"] = len(world.geometry)
    print(json.dumps({key: round(value, 3) for key, value in figures.items()}))
    over = [
        f"{key}: {figures[key]:.2f} > {budget}"
        for key, budget in BUDGETS.items()
        if figures[key] > budget
    ]
    for line in over:
        print("over budget:", line, file=sys.stderr)
    return 1 if args.check and over else 0


if __name__ == "__main__":
    sys.exit(main())
