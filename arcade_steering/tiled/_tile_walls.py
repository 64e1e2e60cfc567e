"""Walls from tile layers: every tile of the layers :func:`load_level` is told of (by name, or
by a ``walls`` property) is a wall, and the tiles' outline is merged as for any wall sprites."""

from __future__ import annotations

from typing import Any

import arcade
import pytiled_parser

from .._arcade.sprite_walls import SpriteWalls
from ..world import SteeringWorld
from ._layers import LayerReader

#: The bool property that makes a tile layer's tiles walls.
PROPERTY = "walls"


def wall_tile_layers(
    reader: LayerReader, tilemap: arcade.TileMap, names: tuple[str, ...]
) -> dict[str, arcade.SpriteList]:
    """The sprite lists of the tile layers named in ``names`` or with a true ``walls``
    property (group layers searched), by layer name, in the map's order.

    Raises:
        LevelError: A named layer is missing or not a tile layer, or a ``walls`` property is
            not a bool or is on a layer that is not a tile layer.
    """
    found: dict[str, arcade.SpriteList] = {}
    pending: list[Any] = list(reader.map.layers)
    while pending:
        layer = pending.pop(0)
        if isinstance(layer, pytiled_parser.LayerGroup):
            pending[:0] = layer.layers or []
            continue
        flag = (layer.properties or {}).get(PROPERTY, False)
        if not isinstance(flag, bool):
            kind = type(flag).__name__
            raise reader.error(
                f"layer {layer.name!r}: property {PROPERTY!r} must be a bool, got {kind}"
            )
        if not (flag or layer.name in names):
            continue
        if not isinstance(layer, pytiled_parser.TileLayer):
            raise reader.error(f"layer {layer.name!r}: walls from tiles need a tile layer")
        found[layer.name] = tilemap.sprite_lists.get(layer.name, arcade.SpriteList())
    missing = [name for name in names if name not in found]
    if missing:
        raise reader.error(f"layer {missing[0]!r}: named in wall_layers, missing from the map")
    return found


def add_tile_walls(
    reader: LayerReader, world: SteeringWorld, layers: dict[str, arcade.SpriteList]
) -> dict[str, SpriteWalls]:
    """Add each layer's tiles to ``world`` as wall sprites; all or none.

    Raises:
        LevelError: A tile's hit box cannot be a wall (the message names the layer).
    """
    added: dict[str, SpriteWalls] = {}
    try:
        for name, tiles in layers.items():
            try:
                added[name] = world.add_wall_sprites(tiles)
            except (TypeError, ValueError) as error:
                raise reader.error(f"layer {name!r}: {error}") from None
    except BaseException:
        for walls in added.values():
            world.remove_wall_sprites(walls)
        raise
    return added
