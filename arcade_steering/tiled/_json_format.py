"""Tiled's JSON format (maps, tilesets and templates: ``.tmj``, ``.tsj``, ``.tj``) for the level
checks: nodes are dicts, their values read as pytiled_parser reads them, as they are.

See :mod:`arcade_steering.tiled._format_common` for what the two formats share.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ._errors import BadValueError
from ._format_common import LAYER_KINDS, LevelFormat, TileData


class JsonFormat(LevelFormat[dict[str, Any]]):
    """Nodes are the dicts of Tiled's JSON format."""

    name = "JSON"
    map_keys = ("version", "orientation", "renderorder", "nextobjectid", "tilesets", "layers")
    layer_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "tilelayer": ("name", "opacity", "visible", "width", "height"),
        "objectgroup": ("name", "opacity", "visible", "draworder", "objects"),
        "imagelayer": ("name", "opacity", "visible", "image"),
        "group": ("name", "opacity", "visible", "layers"),
    }
    object_keys = ("id", "x", "y", "width", "height", "rotation", "name", "visible")
    pairs: ClassVar[dict[str, str]] = {
        "startx": "starty",
        "offsetx": "offsety",
        "parallaxx": "parallaxy",
    }

    @staticmethod
    def root_kind(node: Any) -> str | None:
        """The file's ``type`` (``"map"``, ``"tileset"``, ``"template"``), if it says."""
        if not isinstance(node, dict):
            raise BadValueError(f"must be a JSON object, got {_kind(node)}")
        kind = node.get("type")
        return kind if isinstance(kind, str) else None

    @staticmethod
    def has(node: dict, key: str) -> bool:
        """Whether the node has ``key``."""
        return key in node

    @staticmethod
    def number(node: dict, key: str, integer: bool = False) -> float | None:
        """The number under ``key`` (a whole one if ``integer``), or None if absent."""
        if key not in node:
            return None
        value = node[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BadValueError(f"{key!r} must be a number, got {_kind(value)}")
        if integer and not isinstance(value, int):
            raise BadValueError(f"{key!r} must be a whole number, got {value!r}")
        return value

    @staticmethod
    def text(node: dict, key: str) -> str | None:
        """The string under ``key``, or None if absent."""
        value = node.get(key)
        if key in node and not isinstance(value, str):
            raise BadValueError(f"{key!r} must be a string, got {_kind(value)}")
        return value

    @staticmethod
    def flag(node: dict, key: str) -> bool | None:
        """The bool under ``key``, or None if absent."""
        value = node.get(key)
        if key in node and not isinstance(value, bool):
            raise BadValueError(f"{key!r} must be true or false, got {_kind(value)}")
        return value

    @staticmethod
    def children(node: dict, key: str) -> list[dict]:
        """The list under ``key`` (the nodes of that kind), checked to be a list."""
        value = node.get(key, [])
        if not isinstance(value, list):
            raise BadValueError(f"{key!r} must be a list, got {_kind(value)}")
        for item in value:
            if not isinstance(item, dict):
                raise BadValueError(f"{key!r} must hold JSON objects, got {_kind(item)}")
        return value

    @classmethod
    def child(cls, node: dict, key: str) -> dict | None:
        """The object under ``key``, or None if absent."""
        value = node.get(key)
        if value is not None and not isinstance(value, dict):
            raise BadValueError(f"{key!r} must be a JSON object, got {_kind(value)}")
        return value

    @classmethod
    def tilesets(cls, node: dict) -> list[dict]:
        """The map's tilesets."""
        return cls.children(node, "tilesets")

    @classmethod
    def layers(cls, node: dict) -> list[tuple[str, dict]]:
        """The node's layers, each with its kind (one of ``LAYER_KINDS``)."""
        layers = []
        for layer in cls.children(node, "layers"):
            kind = layer.get("type")
            if kind not in LAYER_KINDS:
                raise BadValueError(f"layer type {kind!r} is none of {', '.join(LAYER_KINDS)}")
            layers.append((kind, layer))
        return layers

    @classmethod
    def objects(cls, layer: dict) -> list[dict]:
        """The objects of an object layer."""
        return cls.children(layer, "objects")

    @classmethod
    def shape(cls, obj: dict) -> tuple[str, list[tuple[float, float]] | None]:
        """The object's kind, as pytiled_parser decides it, and its vertices if it has any."""
        for kind in ("ellipse", "point"):
            if obj.get(kind):
                return kind, None
        if obj.get("gid"):
            return "tile", None
        for kind in ("polygon", "polyline"):
            if obj.get(kind):
                vertices = obj[kind]
                if not isinstance(vertices, list):
                    raise BadValueError(f"{kind!r} must be a list of points, got {_kind(vertices)}")
                points = []
                for vertex in vertices:
                    if not isinstance(vertex, dict):
                        raise BadValueError(
                            f"{kind!r} must hold {{x, y}} objects, got {_kind(vertex)}"
                        )
                    x, y = cls.number(vertex, "x"), cls.number(vertex, "y")
                    if x is None or y is None:
                        raise BadValueError(f"{kind!r} has a point without 'x' and 'y'")
                    points.append((x, y))
                return kind, points
        if obj.get("text"):
            if not isinstance(obj["text"], dict) or not isinstance(obj["text"].get("text"), str):
                raise BadValueError("'text' must be a JSON object with a 'text' string")
            return "text", None
        return "rectangle", None

    @classmethod
    def properties(cls, node: dict) -> list[tuple[str, str, Any]]:
        """``(name, type, value)`` of each property."""
        raw = node.get("properties")
        if raw is None:
            return []
        if isinstance(raw, dict):  # pytiled_parser reads Tiled's old name -> value form too
            return [(name, _type_of(value), value) for name, value in raw.items()]
        found = []
        for item in cls.children(node, "properties"):
            name, kind = item.get("name"), item.get("type")
            if not isinstance(name, str) or not isinstance(kind, str) or "value" not in item:
                raise BadValueError("a property needs a 'name', a 'type' and a 'value'")
            found.append((name, kind, item["value"]))
        return found

    @classmethod
    def tile_data(cls, layer: dict) -> TileData:
        """A tile layer's cells, as stored."""
        encoding = cls.text(layer, "encoding") or ""
        if encoding not in ("", "base64"):
            raise BadValueError(f"encoding {encoding!r} is not base64")
        compression = cls.text(layer, "compression") or ""
        cells = layer.get("data")
        if encoding == "base64":
            if not isinstance(cells, str) or "compression" not in layer:
                raise BadValueError("base64 'data' must be a string, with a 'compression' key")
        elif not isinstance(cells, list):
            raise BadValueError(f"'data' must be a list of tile ids, got {_kind(cells)}")
        return TileData(encoding, compression, cells, layer.get("chunks") is not None)

    @classmethod
    def tileset_tiles(cls, tileset: dict) -> list[dict]:
        """The tiles a tileset describes one by one."""
        return cls.children(tileset, "tiles")

    @classmethod
    def image(cls, node: dict, sized: bool = False) -> str | None:
        """The node's image (the size is in other keys of a JSON node)."""
        return cls.text(node, "image")

    @classmethod
    def frames(cls, tile: dict) -> list[dict] | None:
        """A tile's animation frames, or None if it has no animation."""
        return cls.children(tile, "animation") if "animation" in tile else None

    @classmethod
    def tile_objects(cls, tile: dict) -> dict | None:
        """A tile's collision shapes (an object layer), or None."""
        return cls.child(tile, "objectgroup")

    @classmethod
    def template_parts(cls, template: dict) -> tuple[dict, dict | None]:
        """A template's object and its tileset reference (or None)."""
        obj = cls.child(template, "object")
        if obj is None:
            raise BadValueError("a template needs an 'object'")
        return obj, cls.child(template, "tileset")


def _type_of(value: Any) -> str:
    """The property type pytiled_parser gives a value of the old name -> value form."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "float" if isinstance(value, float) else "string"


def _kind(value: Any) -> str:
    """What a JSON value is, for messages (``"a list"``, ``"the number 3"``)."""
    names = {dict: "an object", list: "a list", str: "a string", bool: "a bool"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {value!r}"
    return names.get(type(value), type(value).__name__)
