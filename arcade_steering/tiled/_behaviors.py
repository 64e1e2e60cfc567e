"""Behaviour trees written in a level: a spawn point's ``behavior`` property (JSON, as
:func:`~arcade_steering.to_dict` writes it) says what the agents spawned there do."""

from __future__ import annotations

import json
from typing import Any

from ..tree_data import FORMAT_VERSION
from ._layers import LayerReader, TiledObject, where

#: The property of a spawn point that holds its behaviour tree.
PROPERTY = "behavior"


def read_behaviors(reader: LayerReader, objects: list[TiledObject]) -> dict[str, dict[str, Any]]:
    """The behaviour trees of the ``spawns`` objects that have one, by spawn name, as data.

    Each is checked to be JSON holding a tree of this format's version; building it waits
    for the game's objects (:meth:`Level.behavior`).
    """
    behaviors: dict[str, dict[str, Any]] = {}
    for obj in objects:
        raw = obj.properties.get(PROPERTY)
        if raw is None:
            continue
        place = f"{where('spawns', obj)}property {PROPERTY!r}"
        if not isinstance(raw, str):
            raise reader.error(f"{place} must be a string of JSON, got {type(raw).__name__}")
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as error:
            raise reader.error(f"{place} is not JSON ({error})") from None
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            raise reader.error(
                f'{place} must be a behaviour tree, {{"version": {FORMAT_VERSION}, "type": ...}}'
            )
        name = reader.name(obj, "spawns")
        if behaviors.setdefault(name, data) != data:
            raise reader.error(f"{place}: other spawns named {name!r} have another behaviour")
    return behaviors
