"""Loading a level: :func:`load_level` and the :class:`Level` it returns."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import Any

import arcade
import pymunk
import pytiled_parser

from .. import geometry
from .._arcade.sprite_walls import SpriteWalls
from .._util.validate import check_positive
from ..component.base import SteeringComponent
from ..path import Path
from ..tree_data import Resolver, TreeDataError, from_dict
from ..world import SteeringWorld, check_world
from ._behaviors import PROPERTY, read_behaviors
from ._errors import LevelError
from ._layers import LAYERS, LayerReader, Point
from ._limits import LevelLimits
from ._map_checks import check_files
from ._paths import anchor_images
from ._tile_walls import add_tile_walls, wall_tile_layers


@dataclass
class Level:
    """What :func:`load_level` read and added to the world.

    Attributes:
        tilemap: The arcade ``TileMap`` (its ``sprite_lists`` hold the tile layers to draw).
        width: Map width, px (scaled).
        height: Map height, px (scaled).
        walls: The ``pymunk.Segment`` walls added to the world from the ``walls`` object layer.
        obstacles: The ``pymunk.Circle`` obstacles added to the world.
        paths: Routes by object name.
        spawns: Spawn points by object name; a name may have several points.
        behaviors: The behaviour trees of spawn points with a ``behavior`` property (JSON,
            as :func:`~arcade_steering.to_dict` writes it), as data, by spawn name; build
            one with :meth:`behavior`.
        source: The map file, for messages.
        tile_walls: The walls of the wall tile layers, by layer name (their ``shapes`` are the
            segments; a tile removed from its sprite list takes its walls with it).
    """

    tilemap: arcade.TileMap
    width: float
    height: float
    walls: list[pymunk.Segment] = field(default_factory=list)
    obstacles: list[pymunk.Circle] = field(default_factory=list)
    paths: dict[str, Path] = field(default_factory=dict)
    spawns: dict[str, list[Point]] = field(default_factory=dict)
    behaviors: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = ""
    tile_walls: dict[str, SpriteWalls] = field(default_factory=dict)

    def behavior(
        self,
        spawn: str,
        resolve: Resolver | None = None,
        *,
        components: Iterable[type[SteeringComponent]] = (),
    ) -> SteeringComponent:
        """Build the behaviour tree the level gives spawn point ``spawn``.

        Names in the tree are the level's routes (``{"ref": "patrol"}``) and whatever the
        game passes in ``resolve`` (its sprites, groups), which comes first.

        Args:
            spawn: The spawn point's name.
            resolve: The game's objects by name: a mapping or a function.
            components: The game's own component classes the tree may name.

        Raises:
            KeyError: No spawn point of that name has a ``behavior``.
            LevelError: The tree cannot be built; the message names the spawn and the field.
        """
        if spawn not in self.behaviors:
            raise KeyError(f"no spawn point named {spawn!r} has a {PROPERTY!r} property")

        def named(name: str) -> Any:
            found = None
            if isinstance(resolve, Mapping):
                found = resolve.get(name)
            elif resolve is not None:
                with contextlib.suppress(LookupError):
                    found = resolve(name)
            return self.paths[name] if found is None else found

        try:
            return from_dict(self.behaviors[spawn], resolve=named, components=components)
        except TreeDataError as error:
            raise LevelError(
                f"{self.source}: layer 'spawns', spawn {spawn!r}, property {PROPERTY!r}: {error}"
            ) from None


def load_level(
    source: str | FilePath | arcade.TileMap,
    world: SteeringWorld,
    *,
    scaling: float = 1.0,
    required: tuple[str, ...] = LAYERS,
    root: str | FilePath | None = None,
    limits: LevelLimits | None = None,
    wall_layers: tuple[str, ...] = (),
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
        wall_layers: Tile layers whose tiles are walls, by name; a tile layer with a bool
            property ``walls`` set to true is one too. Their tiles' outline is merged as
            :meth:`~arcade_steering.SteeringWorld.add_wall_sprites` merges it, from the
            sprites of ``tilemap.sprite_lists[name]``.

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
    for name, names in (("required", required), ("wall_layers", wall_layers)):
        if isinstance(names, str) or not isinstance(names, (tuple, list)):
            raise TypeError(f"{name} must be a tuple of layer names, got {type(names).__name__}")
    check_world(world)
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

    reader = LayerReader(tilemap, scaling, limits)
    layers = reader.object_layers()
    for name in required:
        if name not in layers:
            raise reader.error(f"layer {name!r}: missing from the map (it needs an object layer)")
    space = world.space
    walls = reader.walls(space, layers.get("walls", []))
    obstacles = reader.circles(space, layers.get("obstacles", []))
    paths = reader.paths(layers.get("paths", []))
    spawns = reader.spawns(layers.get("spawns", []))
    behaviors = read_behaviors(reader, layers.get("spawns", []))
    wall_tiles = wall_tile_layers(reader, tilemap, tuple(wall_layers))
    tile_walls = add_tile_walls(reader, world, wall_tiles)
    geometry.add_shapes(space, [*walls, *obstacles])
    level = Level(tilemap, reader.width, reader.height, walls, obstacles, paths, spawns)
    level.tile_walls = tile_walls
    level.behaviors, level.source = behaviors, str(reader.file)
    return level


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
