"""Loading a level: :func:`load_level` and the :class:`Level` it returns."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

import arcade
import numpy as np
import pymunk
import pytiled_parser
from pytiled_parser import tiled_object

from .. import geometry
from .._util.validate import check_positive
from ..path import Path
from ..world import SteeringWorld
from ._errors import LevelError
from ._limits import LevelLimits
from ._map_checks import check_files
from ._paths import anchor_images

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


def load_level(
    source: str | FilePath | arcade.TileMap,
    world: SteeringWorld,
    *,
    scaling: float = 1.0,
    required: tuple[str, ...] = LAYERS,
    root: str | FilePath | None = None,
    limits: LevelLimits | None = None,
) -> Level:
    """Read a Tiled map's steering layers and add its walls and obstacles to ``world``.

    A map given by path is checked before arcade reads it: the files it refers to (tilesets,
    their images, object templates) must be regular files inside ``root``, every file and
    count is capped by ``limits``, and every coordinate and property is checked for type,
    finiteness and range. Then every wall and obstacle is built, and they are all added to
    the world in one go: a bad map raises :class:`LevelError` and leaves the world exactly as
    it was. Loading takes time linear in the map's size.

    Args:
        source: A map file path (a ``:resources:`` handle too), or a ``TileMap`` already
            loaded with ``arcade.load_tilemap`` (whose files arcade has read unchecked:
            pass a path for files you do not trust).
        world: The world that gets the walls and obstacles.
        scaling: Map pixels to world pixels.
        required: Layers that must be present (others are optional).
        root: The folder the map's tilesets, images and templates must be in; by default
            the map's own folder. Pass a wider one for maps sharing tilesets in a parent
            folder. Symbolic links are followed before the check.
        limits: Caps on sizes and counts; by default ``LevelLimits()``.

    Returns:
        The :class:`Level`.

    Raises:
        LevelError: (a ``ValueError``) the map or a file it refers to cannot be read, is
            outside ``root``, breaks a limit, lacks a required layer, or has a layer or
            object of the wrong kind, shape or property; the message names the file, the
            layer and the object (id and name).
        TypeError: An argument has the wrong type.
        ValueError: ``scaling`` is not finite and > 0, or ``root`` is given with a TileMap.
    """
    scaling = check_positive("scaling", scaling)
    if isinstance(required, str) or not isinstance(required, (tuple, list)):
        raise TypeError(f"required must be a tuple of layer names, got {type(required).__name__}")
    if not isinstance(world, SteeringWorld):
        raise TypeError(f"world must be a SteeringWorld, got {type(world).__name__}")
    if limits is None:
        limits = LevelLimits()
    elif not isinstance(limits, LevelLimits):
        raise TypeError(f"limits must be a LevelLimits or None, got {type(limits).__name__}")
    if root is not None and not isinstance(root, (str, FilePath)):
        raise TypeError(f"root must be a folder path or None, got {type(root).__name__}")
    if isinstance(source, (str, FilePath)):
        tilemap = _read_tilemap(source, None if root is None else FilePath(root), limits, scaling)
    elif isinstance(source, arcade.TileMap):
        if root is not None:
            raise ValueError("root applies to a map read from a file, not to a TileMap")
        tilemap = source
    else:
        raise TypeError(f"source must be a path or an arcade.TileMap, got {type(source).__name__}")

    reader = _Reader(tilemap, scaling, limits)
    layers = reader.object_layers()
    for name in required:
        if name not in layers:
            raise reader.error(f"layer {name!r}: missing from the map (it needs an object layer)")
    space = world.space
    walls = reader.walls(space, layers.get("walls", []))
    obstacles = reader.circles(space, layers.get("obstacles", []))
    paths = reader.paths(layers.get("paths", []))
    spawns = reader.spawns(layers.get("spawns", []))
    geometry.add_shapes(space, [*walls, *obstacles])
    return Level(tilemap, reader.width, reader.height, walls, obstacles, paths, spawns)


def _read_tilemap(
    source: str | FilePath, root: FilePath | None, limits: LevelLimits, scaling: float
) -> arcade.TileMap:
    """Check the map's files, then let pytiled_parser and arcade read them."""
    if isinstance(source, str) and source.strip().startswith(":"):
        try:
            source = arcade.resources.resolve(source)
        except (ValueError, FileNotFoundError) as error:
            raise LevelError(f"{source}: {error}") from error
    checked = check_files(FilePath(source), root, limits)
    try:
        tiled_map = pytiled_parser.parse_map(checked.map_path)
        anchor_images(tiled_map, checked)
        return arcade.TileMap(tiled_map=tiled_map, scaling=scaling, lazy=True)
    except LevelError:
        raise
    except Exception as error:  # the checks let through a map these libraries refuse
        raise LevelError(
            f"{checked.map_path}: arcade cannot read it: {type(error).__name__}: {error}"
        ) from error


class _Reader:
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
        return LevelError(f"{self.file}: {message}")

    def number(self, value: Any, what: str, obj: Any = None, layer: str = "") -> float:
        """``value`` as a float within +-LevelLimits.coordinate."""
        limit = self.limits.coordinate
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problem = f"{what} must be a number, got {type(value).__name__}"
        elif not (math.isfinite(value) and abs(value) <= limit):
            problem = f"{what} must be finite within +-{limit:g} (LevelLimits.coordinate)"
        else:
            return float(value)
        raise self.error(f"{_where(layer, obj)}{problem}")

    def object_layers(self) -> dict[str, list[Any]]:
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
                _Object(obj, {**shared, **(obj.properties or {})}) for obj in layer.tiled_objects
            ]
        return layers

    def place(self, layer: str, items: list[tuple[_Object, list[Any]]]) -> list[np.ndarray]:
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
                except (TypeError, ValueError):
                    good = False
                if not good:
                    raise self.error(
                        f"{_where(layer, obj)}points must be finite numbers within +-{limit:g} "
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

    def origin(self, obj: _Object, layer: str) -> tuple[float, float, float]:
        """The object's position and rotation (radians)."""
        raw = obj.tiled
        x = self.number(raw.coordinates.x, "x", obj, layer)
        y = self.number(raw.coordinates.y, "y", obj, layer)
        return x, y, math.radians(self.number(raw.rotation or 0.0, "rotation", obj, layer))

    def vertices(self, obj: _Object, layer: str) -> list[tuple[float, float]]:
        """A polyline's or polygon's points, as offsets from its origin."""
        points = obj.tiled.points
        if len(points) > self.limits.points:
            raise self.error(
                f"{_where(layer, obj)}{len(points):,} points, more than {self.limits.points:,} "
                "(LevelLimits.points)"
            )
        return [(point.x, point.y) for point in points]

    def walls(self, space: pymunk.Space, objects: list[_Object]) -> list[pymunk.Segment]:
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
                raise self.error(f"{_where('walls', obj)}{error}") from None
        return walls

    def outline(self, obj: _Object) -> tuple[list[Any], bool]:
        """A wall object's corners, as offsets from its origin, and whether it is closed."""
        raw = obj.tiled
        if isinstance(raw, (tiled_object.Polyline, tiled_object.Polygon)):
            return self.vertices(obj, "walls"), isinstance(raw, tiled_object.Polygon)
        w, h = self.size(obj, "walls")
        if type(raw) is tiled_object.Rectangle and (w, h) != (0.0, 0.0):
            return [(0, 0), (w, 0), (w, h), (0, h)], True
        raise self.error(f"{_where('walls', obj)}must be a polyline, polygon or rectangle")

    def circles(self, space: pymunk.Space, objects: list[_Object]) -> list[pymunk.Circle]:
        sizes = []
        for obj in objects:
            if not isinstance(obj.tiled, tiled_object.Ellipse):
                raise self.error(f"{_where('obstacles', obj)}must be a circle (ellipse)")
            w, h = self.size(obj, "obstacles")
            if w <= 0 or not math.isclose(w, h, rel_tol=0.02):
                raise self.error(f"{_where('obstacles', obj)}ellipse {w:g}x{h:g} is not a circle")
            sizes.append((w + h) / 2)
        centers = self.place(
            "obstacles", [(o, [(d / 2, d / 2)]) for o, d in zip(objects, sizes, strict=True)]
        )
        return [
            geometry.obstacle_circle(space, center[0], diameter / 2 * self.scaling)
            for center, diameter in zip(centers, sizes, strict=True)
        ]

    def paths(self, objects: list[_Object]) -> dict[str, Path]:
        paths: dict[str, Path] = {}
        for obj in objects:
            name = self.name(obj, "paths")
            if name in paths:
                raise self.error(f"{_where('paths', obj)}a path named {name!r} exists")
            if not isinstance(obj.tiled, (tiled_object.Polyline, tiled_object.Polygon)):
                raise self.error(f"{_where('paths', obj)}must be a polyline or polygon")
            closed = obj.properties.get("closed", False)
            if not isinstance(closed, bool):
                raise self.error(
                    f"{_where('paths', obj)}property 'closed' must be a bool (true or false), "
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
                raise self.error(f"{_where('paths', obj)}{error}") from None
        return paths

    def spawns(self, objects: list[_Object]) -> dict[str, list[Point]]:
        for obj in objects:
            if not isinstance(obj.tiled, tiled_object.Point):
                raise self.error(f"{_where('spawns', obj)}must be a point")
        spawns: dict[str, list[Point]] = {}
        for obj, place in zip(
            objects, self.place("spawns", [(o, [(0, 0)]) for o in objects]), strict=True
        ):
            ((x, y),) = place.tolist()
            spawns.setdefault(self.name(obj, "spawns"), []).append((x, y))
        return spawns

    def name(self, obj: _Object, layer: str) -> str:
        if not isinstance(obj.tiled.name, str) or not obj.tiled.name:
            raise self.error(f"{_where(layer, obj)}needs a name")
        return obj.tiled.name

    def size(self, obj: _Object, layer: str) -> tuple[float, float]:
        size = obj.tiled.size
        w = self.number(size.width, "width", obj, layer)
        h = self.number(size.height, "height", obj, layer)
        if w < 0 or h < 0:
            raise self.error(f"{_where(layer, obj)}size {w:g}x{h:g} must not be negative")
        return w, h

    def length(self, obj: _Object, key: str, default: float, layer: str) -> float:
        """A property of map px, >= 0, scaled."""
        value = self.number(obj.properties.get(key, default), f"property {key!r}", obj, layer)
        if value < 0:
            raise self.error(f"{_where(layer, obj)}property {key!r} must be >= 0")
        return value * self.scaling


@dataclass
class _Object:
    """A Tiled object with its layer's properties under its own."""

    tiled: Any
    properties: dict[str, Any]

    def describe(self) -> str:
        name = self.tiled.name
        return f"object {self.tiled.id}" + (f" {name!r}" if name else "")


def _where(layer: str, obj: _Object | None) -> str:
    """``"layer 'walls', object 3 'door': "``, the start of a message about an object."""
    parts = [f"layer {layer!r}"] if layer else []
    if obj is not None:
        parts.append(obj.describe())
    return ", ".join(parts) + ": " if parts else ""
