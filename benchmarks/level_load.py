"""Benchmark: loading a Tiled level of many wall segments with ``tiled.load_level``.

Writes a map whose ``walls`` layer has ``--segments`` edges (a quarter of them in polylines of
100 points, the rest in rectangles, rotated ones among them) and times, in ``--rounds``
rounds, the median of:

- ``check``: arcade_steering reading and checking the files (``tiled._map_checks.check_files``);
- ``parse``: pytiled_parser and arcade reading the map (``parse_map`` and ``TileMap``);
- ``pymunk``: pymunk alone making that many segments and adding them (the floor for walls);
- ``total``: ``load_level`` from the path to the walls in the world;
- ``ours``: ``total - parse - pymunk`` of the same round, arcade_steering's own time.

Exits with 1 when ``ours`` is over ``--budget`` seconds.

Usage::

    python benchmarks/level_load.py                   # 100,000 segments, budget 1 s
    python benchmarks/level_load.py --segments 300000 --rounds 1
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import pymunk
import pytiled_parser

import arcade_steering as steer
from arcade_steering import geometry
from arcade_steering.tiled import LevelLimits, load_level
from arcade_steering.tiled._map_checks import check_files

POLYLINE_POINTS = 100


def level_json(segments: int) -> dict:
    """A 400 x 400 map of 16 px tiles whose walls have ``segments`` edges."""
    objects = []
    polylines = segments // 4 // (POLYLINE_POINTS - 1)
    for index in range(polylines):
        y = 8 + (index % 700) * 9
        points = [{"x": step * 60, "y": (step % 2) * 5} for step in range(POLYLINE_POINTS)]
        objects.append(_object(len(objects) + 1, 16 + (index // 700) * 16, y, polyline=points))
    rectangles = (segments - polylines * (POLYLINE_POINTS - 1)) // 4
    for index in range(rectangles):
        x, y = 100 + (index % 400) * 15, 100 + (index // 400) * 15
        objects.append(_object(len(objects) + 1, x, y, width=8, height=6, rotation=index % 90))
    layer = {
        "id": 1,
        "name": "walls",
        "type": "objectgroup",
        "draworder": "topdown",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        "objects": objects,
    }
    return {
        "width": 400,
        "height": 400,
        "tilewidth": 16,
        "tileheight": 16,
        "infinite": False,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "tiledversion": "1.10.2",
        "type": "map",
        "version": "1.10",
        "nextlayerid": 2,
        "nextobjectid": len(objects) + 1,
        "tilesets": [],
        "layers": [layer],
    }


def _object(object_id: int, x: float, y: float, **fields: object) -> dict:
    obj = {"id": object_id, "name": "", "type": "", "rotation": 0, "visible": True}
    obj.update({"x": x, "y": y, "width": 0, "height": 0})
    obj.update(fields)
    return obj


def seconds(run: Callable[[], object]) -> float:
    """How long ``run`` takes, with garbage collection off; what it returns is freed after
    the timing (freeing 100,000 pymunk shapes takes a good part of a second)."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        kept = run()
        taken = time.perf_counter() - start
        del kept
        return taken
    finally:
        gc.enable()


def pymunk_floor(walls: list[pymunk.Segment]) -> pymunk.Space:
    """pymunk making and adding segments like ``walls``, with our filter and type."""
    space = pymunk.Space()
    body = space.static_body
    made = []
    for wall in walls:
        segment = pymunk.Segment(body, wall.a, wall.b, wall.radius)
        segment.filter = geometry.GEOMETRY_FILTER
        segment.collision_type = geometry.WALL_COLLISION_TYPE
        made.append(segment)
    geometry.add_shapes(space, made)
    return space


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--segments", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds for 'ours'")
    args = parser.parse_args()
    limits = LevelLimits(objects=max(args.segments, 100_000), walls=max(args.segments, 250_000))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "walls.tmj"
        path.write_text(json.dumps(level_json(args.segments)))
        size = path.stat().st_size
        walls = load_level(path, steer.SteeringWorld(), required=("walls",), limits=limits).walls

        def parse() -> arcade.TileMap:
            return arcade.TileMap(tiled_map=pytiled_parser.parse_map(path), lazy=True)

        def total() -> steer.SteeringWorld:
            world = steer.SteeringWorld()
            load_level(path, world, required=("walls",), limits=limits)
            return world

        phases = {
            "check": lambda: check_files(path, None, limits),
            "parse": parse,
            "pymunk": lambda: pymunk_floor(walls),
            "total": total,
        }
        rounds = [{name: seconds(run) for name, run in phases.items()} for _ in range(args.rounds)]
    for times in rounds:  # within a round, so that a busy spell shifts all of them alike
        times["ours"] = times["total"] - times["parse"] - times["pymunk"]
    timings = {name: statistics.median(times[name] for times in rounds) for name in rounds[0]}
    print(
        f"{len(walls):,} wall segments, a {size / 2**20:.1f} MiB map, "
        f"median of {args.rounds} rounds"
    )
    for name, taken in timings.items():
        print(f"  {name:<7} {taken * 1e3:8.0f} ms")
    if timings["ours"] > args.budget:
        print(f"over budget: ours {timings['ours']:.2f} s > {args.budget} s", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
