"""Steering geometry laid out in Tiled: walls, obstacles, patrol routes and spawn points.

A level is a Tiled map (``.tmj`` JSON or ``.tmx``) loaded with arcade's own loader. Its object
layers, by name:

- ``walls``: polylines (open), polygons and rectangles (closed); every edge becomes a wall.
  A ``thickness`` property (px) on the object or the layer makes thick walls.
- ``obstacles``: circles (ellipses with equal width and height) become round obstacles.
- ``paths``: named polylines or polygons become :class:`~arcade_steering.Path` routes; a
  polygon or a ``closed`` property makes a closed route, a ``radius`` property sets its width.
- ``spawns``: named points; several points may share a name (``flag``, ``guard``).

Tiled's y axis points down and arcade's up: coordinates are converted (and scaled).

Example:
    >>> level = load_level("level.tmj", world)          # doctest: +SKIP
    >>> route = level.paths["patrol"]                    # doctest: +SKIP
    >>> x, y = level.spawns["leader"][0]                 # doctest: +SKIP
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

import arcade
import pymunk
import pytiled_parser
from pytiled_parser import tiled_object

from ._validate import check_positive
from .path import Path
from .world import SteeringWorld

#: The object layers a level is read from.
LAYERS = ("walls", "obstacles", "paths", "spawns")
DEFAULT_PATH_RADIUS = 20.0

Point = tuple[float, float]


@dataclass
class Level:
    """What :func:`load_level` read and added to the world.

    Attributes:
        tilemap: The arcade ``TileMap`` (its ``sprite_lists`` hold the tile layers to draw).
        width: Map width, px (scaled).
        height: Map height, px (scaled).
        walls: The ``pymunk.Segment`` walls added to the world.
        obstacles: The ``pymunk.Circle`` obstacles added to the world.
        paths: Routes by object name.
        spawns: Spawn points by object name; a name may have several points.
    """

    tilemap: arcade.TileMap
    width: float
    height: float
    walls: list[pymunk.Segment] = field(default_factory=list)
    obstacles: list[pymunk.Circle] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    spawns: dict[str, list[Point]] = field(default_factory=dict)


class LevelError(ValueError):
    """A Tiled map that does not describe a steering level; the message names the layer
    and the object."""


def load_level(
    source: str | FilePath | arcade.TileMap,
    world: SteeringWorld,
    *,
    scaling: float = 1.0,
    required: tuple[str, ...] = LAYERS,
) -> Level:
    """Read a Tiled map's steering layers and add its walls and obstacles to ``world``.

    Everything is read and checked before anything is added, so a bad map leaves the world
    as it was.

    Args:
        source: A map file path, or a ``TileMap`` already loaded with ``arcade.load_tilemap``.
        world: The world that gets the walls and obstacles.
        scaling: Map pixels to world pixels.
        required: Layers that must be present (others are optional).

    Returns:
        The :class:`Level`.

    Raises:
        LevelError: (a ``ValueError``) a required layer is missing, a layer is not an object
            layer, or an object has the wrong shape or a bad property.
        TypeError: ``source`` or ``world`` has the wrong type.
    """
    scaling = check_positive("scaling", scaling)
    if isinstance(required, str) or not isinstance(required, (tuple, list)):
        raise TypeError(f"required must be a tuple of layer names, got {type(required).__name__}")
    if not isinstance(world, SteeringWorld):
        raise TypeError(f"world must be a SteeringWorld, got {type(world).__name__}")
    if isinstance(source, (str, FilePath)):
        tilemap = arcade.load_tilemap(source, scaling=scaling, lazy=True)
    elif isinstance(source, arcade.TileMap):
        tilemap = source
    else:
        raise TypeError(f"source must be a path or an arcade.TileMap, got {type(source).__name__}")
    reader = _Reader(tilemap, scaling)
    layers = reader.object_layers()
    for name in required:
        if name not in layers:
            raise LevelError(f"layer {name!r}: missing from the map (it needs an object layer)")

    walls = [reader.wall_edges(obj) for obj in layers.get("walls", ())]
    obstacles = [reader.circle(obj) for obj in layers.get("obstacles", ())]
    paths = reader.paths(layers.get("paths", ()))
    spawns: dict[str, list[Point]] = {}
    for obj in layers.get("spawns", ()):
        spawns.setdefault(reader.name(obj, "spawns"), []).append(reader.spawn(obj))

    level = Level(tilemap, reader.width, reader.height, paths=paths, spawns=spawns)
    for points, closed, thickness in walls:
        level.walls.extend(world.add_walls(points, closed=closed, thickness=thickness))
    level.obstacles.extend(world.add_obstacle(center, radius) for center, radius in obstacles)
    return level


class _Reader:
    """Converts Tiled objects (y down, map px) into world coordinates (y up, scaled)."""

    def __init__(self, tilemap: arcade.TileMap, scaling: float) -> None:
        self.map = tilemap.tiled_map
        self.scaling = scaling
        self.width = self.map.map_size.width * self.map.tile_size.width * scaling
        self.height = self.map.map_size.height * self.map.tile_size.height * scaling

    def object_layers(self) -> dict[str, list[tiled_object.TiledObject]]:
        layers = {}
        for layer in _flatten(self.map.layers):
            if layer.name not in LAYERS:
                continue
            if not isinstance(layer, pytiled_parser.ObjectLayer):
                raise LevelError(f"layer {layer.name!r}: must be an object layer")
            layers[layer.name] = [
                _with_layer_properties(obj, layer.properties) for obj in layer.tiled_objects
            ]
        return layers

    def point(self, obj: tiled_object.TiledObject, dx: float, dy: float) -> Point:
        """World position of offset ``(dx, dy)`` from the object's origin, rotation applied."""
        turn = math.radians(obj.rotation or 0.0)  # Tiled: clockwise on a y-down screen
        rx = dx * math.cos(turn) - dy * math.sin(turn)
        ry = dx * math.sin(turn) + dy * math.cos(turn)
        x = (obj.coordinates.x + rx) * self.scaling
        y = self.height - (obj.coordinates.y + ry) * self.scaling
        return x, y

    def wall_edges(self, obj: tiled_object.TiledObject) -> tuple[list[Point], bool, float]:
        thickness = _number(obj, "thickness", 0.0, "walls") * self.scaling
        if isinstance(obj, tiled_object.Polyline):
            return [self.point(obj, p.x, p.y) for p in obj.points], False, thickness
        if isinstance(obj, tiled_object.Polygon):
            return [self.point(obj, p.x, p.y) for p in obj.points], True, thickness
        if type(obj) is tiled_object.Rectangle and obj.size.width and obj.size.height:
            w, h = obj.size.width, obj.size.height
            corners = [(0, 0), (w, 0), (w, h), (0, h)]
            return [self.point(obj, x, y) for x, y in corners], True, thickness
        raise LevelError(
            f"layer 'walls', {_describe(obj)}: must be a polyline, polygon or rectangle"
        )

    def circle(self, obj: tiled_object.TiledObject) -> tuple[Point, float]:
        if not isinstance(obj, tiled_object.Ellipse):
            raise LevelError(f"layer 'obstacles', {_describe(obj)}: must be a circle (ellipse)")
        w, h = obj.size.width, obj.size.height
        if w <= 0 or not math.isclose(w, h, rel_tol=0.02):
            raise LevelError(
                f"layer 'obstacles', {_describe(obj)}: ellipse {w:g}x{h:g} is not a circle"
            )
        return self.point(obj, w / 2, h / 2), (w + h) / 4 * self.scaling

    def paths(self, objects: list[tiled_object.TiledObject]) -> dict[str, Path]:
        paths: dict[str, Path] = {}
        for obj in objects:
            name = self.name(obj, "paths")
            if name in paths:
                raise LevelError(f"layer 'paths', {_describe(obj)}: a path named {name!r} exists")
            if not isinstance(obj, (tiled_object.Polyline, tiled_object.Polygon)):
                raise LevelError(f"layer 'paths', {_describe(obj)}: must be a polyline or polygon")
            closed = isinstance(obj, tiled_object.Polygon) or bool(
                obj.properties.get("closed", False)
            )
            radius = _number(obj, "radius", DEFAULT_PATH_RADIUS, "paths") * self.scaling
            points = [self.point(obj, p.x, p.y) for p in obj.points]
            if closed and len(points) > 2 and points[0] == points[-1]:
                points.pop()
            try:
                paths[name] = Path(points, radius=radius, closed=closed)
            except ValueError as error:
                raise LevelError(f"layer 'paths', {_describe(obj)}: {error}") from error
        return paths

    def spawn(self, obj: tiled_object.TiledObject) -> Point:
        if not isinstance(obj, tiled_object.Point):
            raise LevelError(f"layer 'spawns', {_describe(obj)}: must be a point")
        return self.point(obj, 0.0, 0.0)

    @staticmethod
    def name(obj: tiled_object.TiledObject, layer: str) -> str:
        if not obj.name:
            raise LevelError(f"layer {layer!r}, {_describe(obj)}: needs a name")
        return obj.name


def _flatten(layers: list[Any]) -> list[Any]:
    flat = []
    for layer in layers:
        if isinstance(layer, pytiled_parser.LayerGroup):
            flat.extend(_flatten(layer.layers or []))
        else:
            flat.append(layer)
    return flat


def _with_layer_properties(obj: Any, layer_properties: dict | None) -> Any:
    if layer_properties:
        obj.properties = {**layer_properties, **(obj.properties or {})}
    elif obj.properties is None:
        obj.properties = {}
    return obj


def _number(obj: Any, key: str, default: float, layer: str) -> float:
    value = obj.properties.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LevelError(f"layer {layer!r}, {_describe(obj)}: property {key!r} must be a number")
    if value < 0:
        raise LevelError(f"layer {layer!r}, {_describe(obj)}: property {key!r} must be >= 0")
    return float(value)


def _describe(obj: Any) -> str:
    return f"object {obj.id}" + (f" {obj.name!r}" if obj.name else "")
