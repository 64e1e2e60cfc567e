"""The steering layers of a map read by arcade: Tiled's objects (y down, map px) become walls,
obstacles, routes and spawn points in world coordinates (y up, scaled), each checked for the
kind, shape and properties its layer needs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import arcade
import numpy as np
import pymunk
import pytiled_parser
from pytiled_parser import tiled_object

from .. import geometry
from .._util.validate import finite_float
from ..path import Path
from ._errors import LevelError
from ._limits import LevelLimits

#: The object layers a level is read from.
LAYERS = ("walls", "obstacles", "paths", "spawns")
#: The width of a route without a ``radius`` property, map px.
DEFAULT_PATH_RADIUS = 20.0

Point = tuple[float, float]


class LayerReader:
    """Converts Tiled objects (y down, map px) into world coordinates (y up, scaled)."""

    def __init__(self, tilemap: arcade.TileMap, scaling: float, limits: LevelLimits) -> None:
        self.map = tilemap.tiled_map
        self.file = self.map.map_file
        self.scaling = scaling
        self.limits = limits
        size, tile = self.map.map_size, self.map.tile_size
        self.width = self.number(size.width * tile.width, "map width") * scaling
        self.height = self.number(size.height * tile.height, "map height") * scaling

    def error(self, message: str) -> LevelError:
        """A :class:`LevelError` naming the map file."""
        return LevelError(f"{self.file}: {message}")

    def number(self, value: Any, what: str, obj: Any = None, layer: str = "") -> float:
        """``value`` as a float within +-LevelLimits.coordinate."""
        limit = self.limits.coordinate
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problem = f"{what} must be a number, got {type(value).__name__}"
        elif finite_float(value) is None or abs(value) > limit:
            problem = f"{what} must be finite within +-{limit:g} (LevelLimits.coordinate)"
        else:
            return float(value)
        raise self.error(f"{where(layer, obj)}{problem}")

    def object_layers(self) -> dict[str, list[Any]]:
        """The steering layers by name (group layers searched), each a list of its objects."""
        layers: dict[str, list[Any]] = {}
        pending = list(reversed(self.map.layers))
        while pending:
            layer = pending.pop()
            if isinstance(layer, pytiled_parser.LayerGroup):
                pending.extend(reversed(layer.layers or []))
                continue
            if layer.name not in LAYERS:
                continue
            if not isinstance(layer, pytiled_parser.ObjectLayer):
                raise self.error(f"layer {layer.name!r}: must be an object layer")
            if layer.name in layers:
                raise self.error(f"layer {layer.name!r}: the map has two layers of that name")
            shared = layer.properties or {}
            layers[layer.name] = [
                TiledObject(obj, {**shared, **(obj.properties or {})})
                for obj in layer.tiled_objects
            ]
        return layers

    def place(self, layer: str, items: list[tuple[TiledObject, list[Any]]]) -> list[np.ndarray]:
        """World positions of each object's offsets ``(dx, dy)`` from its origin, its rotation
        applied, computed for all the objects at once."""
        if not items:
            return []
        origins = np.array([self.origin(obj, layer) for obj, _ in items]).reshape(-1, 3)
        counts = [len(offsets) for _, offsets in items]
        flat = np.array([pair for _, offsets in items for pair in offsets])
        limit = self.limits.coordinate
        if flat.dtype.kind not in "if" or flat.shape != (sum(counts), 2):
            flat = np.full((1, 2), np.nan)  # not numbers: let the search below name the object
        if not (np.isfinite(flat).all() and (np.abs(flat) <= limit).all()):
            for obj, offsets in items:
                try:
                    good = np.abs(np.array(offsets, dtype=float)).max(initial=0) <= limit
                except (TypeError, ValueError, OverflowError):  # OverflowError: 10**400
                    good = False
                if not good:
                    raise self.error(
                        f"{where(layer, obj)}points must be finite numbers within +-{limit:g} "
                        "(LevelLimits.coordinate)"
                    )
        rows = np.repeat(origins, counts, axis=0)
        cos, sin = np.cos(rows[:, 2]), np.sin(rows[:, 2])  # Tiled: clockwise on a y-down screen
        world = np.empty_like(flat, dtype=float)
        world[:, 0] = (rows[:, 0] + flat[:, 0] * cos - flat[:, 1] * sin) * self.scaling
        world[:, 1] = (
            self.height - (rows[:, 1] + flat[:, 0] * sin + flat[:, 1] * cos) * self.scaling
        )
        return np.split(world, np.cumsum(counts)[:-1])

    def origin(self, obj: TiledObject, layer: str) -> tuple[float, float, float]:
        """The object's position and rotation (radians)."""
        raw = obj.tiled
        x = self.number(raw.coordinates.x, "x", obj, layer)
        y = self.number(raw.coordinates.y, "y", obj, layer)
        return x, y, math.radians(self.number(raw.rotation or 0.0, "rotation", obj, layer))

    def vertices(self, obj: TiledObject, layer: str) -> list[tuple[float, float]]:
        """A polyline's or polygon's points, as offsets from its origin."""
        points = obj.tiled.points
        if len(points) > self.limits.points:
            raise self.error(
                f"{where(layer, obj)}{len(points):,} points, more than {self.limits.points:,} "
                "(LevelLimits.points)"
            )
        return [(point.x, point.y) for point in points]

    def walls(self, space: pymunk.Space, objects: list[TiledObject]) -> list[pymunk.Segment]:
        """The segments of the ``walls`` objects, built on ``space``'s static body, not added."""
        outlines = [self.outline(obj) for obj in objects]
        edges = sum(len(offsets) - (not closed) for offsets, closed in outlines)
        if edges > self.limits.walls:
            raise self.error(
                f"layer 'walls': {edges:,} wall segments, more than {self.limits.walls:,} "
                "(LevelLimits.walls)"
            )
        placed = self.place(
            "walls", [(obj, offsets) for obj, (offsets, _) in zip(objects, outlines, strict=True)]
        )
        walls = []
        for obj, (_, closed), points in zip(objects, outlines, placed, strict=True):
            thickness = self.length(obj, "thickness", 0.0, "walls")
            try:
                walls += geometry.wall_segments(space, points, closed, thickness)
            except ValueError as error:
                raise self.error(f"{where('walls', obj)}{error}") from None
        return walls

    def outline(self, obj: TiledObject) -> tuple[list[Any], bool]:
        """A wall object's corners, as offsets from its origin, and whether it is closed."""
        raw = obj.tiled
        if isinstance(raw, (tiled_object.Polyline, tiled_object.Polygon)):
            return self.vertices(obj, "walls"), isinstance(raw, tiled_object.Polygon)
        w, h = self.size(obj, "walls")
        if type(raw) is tiled_object.Rectangle and (w, h) != (0.0, 0.0):
            return [(0, 0), (w, 0), (w, h), (0, h)], True
        raise self.error(f"{where('walls', obj)}must be a polyline, polygon or rectangle")

    def circles(self, space: pymunk.Space, objects: list[TiledObject]) -> list[pymunk.Circle]:
        """The circles of the ``obstacles`` objects, built on ``space``'s static body, not added."""
        sizes = []
        for obj in objects:
            if not isinstance(obj.tiled, tiled_object.Ellipse):
                raise self.error(f"{where('obstacles', obj)}must be a circle (ellipse)")
            w, h = self.size(obj, "obstacles")
            if w <= 0 or not math.isclose(w, h, rel_tol=0.02):
                raise self.error(f"{where('obstacles', obj)}ellipse {w:g}x{h:g} is not a circle")
            sizes.append((w + h) / 2)
        centers = self.place(
            "obstacles", [(o, [(d / 2, d / 2)]) for o, d in zip(objects, sizes, strict=True)]
        )
        return [
            geometry.obstacle_circle(space, center[0], diameter / 2 * self.scaling)
            for center, diameter in zip(centers, sizes, strict=True)
        ]

    def paths(self, objects: list[TiledObject]) -> dict[str, Path]:
        """The routes of the ``paths`` objects, by name."""
        paths: dict[str, Path] = {}
        for obj in objects:
            name = self.name(obj, "paths")
            if name in paths:
                raise self.error(f"{where('paths', obj)}a path named {name!r} exists")
            if not isinstance(obj.tiled, (tiled_object.Polyline, tiled_object.Polygon)):
                raise self.error(f"{where('paths', obj)}must be a polyline or polygon")
            closed = obj.properties.get("closed", False)
            if not isinstance(closed, bool):
                raise self.error(
                    f"{where('paths', obj)}property 'closed' must be a bool (true or false), "
                    f"got {type(closed).__name__} {str(closed)[:40]!r}"
                )
            closed = closed or isinstance(obj.tiled, tiled_object.Polygon)
            radius = self.length(obj, "radius", DEFAULT_PATH_RADIUS, "paths")
            (points,) = self.place("paths", [(obj, self.vertices(obj, "paths"))])
            if closed and len(points) > 2 and (points[0] == points[-1]).all():
                points = points[:-1]
            try:
                paths[name] = Path(points, radius=radius, closed=closed)
            except ValueError as error:
                raise self.error(f"{where('paths', obj)}{error}") from None
        return paths

    def spawns(self, objects: list[TiledObject]) -> dict[str, list[Point]]:
        """The points of the ``spawns`` objects, by name."""
        for obj in objects:
            if not isinstance(obj.tiled, tiled_object.Point):
                raise self.error(f"{where('spawns', obj)}must be a point")
        spawns: dict[str, list[Point]] = {}
        for obj, place in zip(
            objects, self.place("spawns", [(o, [(0, 0)]) for o in objects]), strict=True
        ):
            ((x, y),) = place.tolist()
            spawns.setdefault(self.name(obj, "spawns"), []).append((x, y))
        return spawns

    def name(self, obj: TiledObject, layer: str) -> str:
        """The object's name, which must not be empty."""
        if not isinstance(obj.tiled.name, str) or not obj.tiled.name:
            raise self.error(f"{where(layer, obj)}needs a name")
        return obj.tiled.name

    def size(self, obj: TiledObject, layer: str) -> tuple[float, float]:
        """The object's width and height, map px, >= 0."""
        size = obj.tiled.size
        w = self.number(size.width, "width", obj, layer)
        h = self.number(size.height, "height", obj, layer)
        if w < 0 or h < 0:
            raise self.error(f"{where(layer, obj)}size {w:g}x{h:g} must not be negative")
        return w, h

    def length(self, obj: TiledObject, key: str, default: float, layer: str) -> float:
        """A property of map px, >= 0, scaled."""
        value = self.number(obj.properties.get(key, default), f"property {key!r}", obj, layer)
        if value < 0:
            raise self.error(f"{where(layer, obj)}property {key!r} must be >= 0")
        return value * self.scaling


@dataclass
class TiledObject:
    """A Tiled object with its layer's properties under its own."""

    tiled: Any
    properties: dict[str, Any]

    def describe(self) -> str:
        """``"object 3 'door'"``, for messages."""
        name = self.tiled.name
        return f"object {self.tiled.id}" + (f" {name!r}" if name else "")


def where(layer: str, obj: TiledObject | None) -> str:
    """``"layer 'walls', object 3 'door': "``, the start of a message about an object."""
    parts = [f"layer {layer!r}"] if layer else []
    if obj is not None:
        parts.append(obj.describe())
    return ", ".join(parts) + ": " if parts else ""
