"""The two Tiled file formats, JSON and XML, behind one reading interface for the level checks.

Each function takes a node (a JSON object or an XML element) and returns plain values, reading
them the way pytiled_parser will (``int()`` and ``float()`` of XML attributes, JSON values as
they are), or raises :class:`BadValueError` saying what is wrong. The checks in
:mod:`arcade_steering.tiled._files` add the file, layer and object to the message.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, ClassVar
from xml.etree import ElementTree

from ._errors import BadValueError

#: Longest number literal read (digits): a longer one is refused before ``int()`` sees it.
MAX_LITERAL = 1000

LAYER_KINDS = ("tilelayer", "objectgroup", "imagelayer", "group")
#: XML tags of the layers, and the JSON layer type of each.
_XML_LAYER_TAGS = {
    "layer": "tilelayer",
    "objectgroup": "objectgroup",
    "imagelayer": "imagelayer",
    "group": "group",
}
_COLOR = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{8})")


@dataclass
class TileData:
    """A tile layer's cells as stored: a list of gids, or text to decode."""

    encoding: str  # "" (a JSON list or XML <tile> elements), "csv" or "base64"
    compression: str  # "", "zlib" or "gzip"
    cells: list[Any] | str
    chunked: bool


def bounded_int(text: str) -> int:
    """``int(text)`` for a literal of at most :data:`MAX_LITERAL` characters (``int()`` is
    quadratic in the length on Python 3.10)."""
    if len(text) > MAX_LITERAL:
        raise ValueError(f"a number of {len(text)} digits")
    return int(text)


class JsonFormat:
    """Nodes are the dicts of Tiled's JSON format."""

    name = "JSON"
    #: Keys pytiled_parser requires of a map, of a layer and of an object.
    map_keys = ("version", "orientation", "renderorder", "nextobjectid", "tilesets", "layers")
    layer_keys: ClassVar[dict[str, tuple[str, ...]]] = {
        "tilelayer": ("name", "opacity", "visible", "width", "height"),
        "objectgroup": ("name", "opacity", "visible", "draworder", "objects"),
        "imagelayer": ("name", "opacity", "visible", "image"),
        "group": ("name", "opacity", "visible", "layers"),
    }
    object_keys = ("id", "x", "y", "width", "height", "rotation", "name", "visible")
    #: Keys that come in pairs: the second is needed when the first is there.
    pairs: ClassVar[dict[str, str]] = {
        "startx": "starty",
        "offsetx": "offsety",
        "parallaxx": "parallaxy",
    }

    @staticmethod
    def root_kind(node: Any) -> str | None:
        if not isinstance(node, dict):
            raise BadValueError(f"must be a JSON object, got {_kind(node)}")
        kind = node.get("type")
        return kind if isinstance(kind, str) else None

    @staticmethod
    def has(node: dict, key: str) -> bool:
        return key in node

    @staticmethod
    def number(node: dict, key: str, integer: bool = False) -> float | None:
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
        value = node.get(key)
        if key in node and not isinstance(value, str):
            raise BadValueError(f"{key!r} must be a string, got {_kind(value)}")
        return value

    @staticmethod
    def flag(node: dict, key: str) -> bool | None:
        value = node.get(key)
        if key in node and not isinstance(value, bool):
            raise BadValueError(f"{key!r} must be true or false, got {_kind(value)}")
        return value

    @staticmethod
    def children(node: dict, key: str) -> list[Any]:
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
        value = node.get(key)
        if value is not None and not isinstance(value, dict):
            raise BadValueError(f"{key!r} must be a JSON object, got {_kind(value)}")
        return value

    @classmethod
    def tilesets(cls, node: dict) -> list[dict]:
        return cls.children(node, "tilesets")

    @classmethod
    def layers(cls, node: dict) -> list[tuple[str, dict]]:
        layers = []
        for layer in cls.children(node, "layers"):
            kind = layer.get("type")
            if kind not in LAYER_KINDS:
                raise BadValueError(f"layer type {kind!r} is none of {', '.join(LAYER_KINDS)}")
            layers.append((kind, layer))
        return layers

    @classmethod
    def objects(cls, layer: dict) -> list[dict]:
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
        return cls.child(tile, "objectgroup")

    @classmethod
    def template_parts(cls, template: dict) -> tuple[dict, dict | None]:
        """A template's object and its tileset reference (or None)."""
        obj = cls.child(template, "object")
        if obj is None:
            raise BadValueError("a template needs an 'object'")
        return obj, cls.child(template, "tileset")


class XmlFormat:
    """Nodes are the elements of Tiled's XML format (TMX, TSX, TX)."""

    name = "XML"
    #: Attributes pytiled_parser requires of a map, of a layer and of an object.
    map_keys = ("version", "tiledversion", "orientation", "renderorder", "infinite")
    map_keys += ("nextlayerid", "nextobjectid")
    layer_keys: ClassVar[dict[str, tuple[str, ...]]] = {"tilelayer": ("width", "height")}
    object_keys = ("id", "x", "y")
    pairs: ClassVar[dict[str, str]] = {"width": "height", "offsetx": "offsety"}

    @staticmethod
    def root_kind(node: ElementTree.Element) -> str | None:
        return node.tag

    @staticmethod
    def has(node: ElementTree.Element, key: str) -> bool:
        return key in node.attrib

    @staticmethod
    def number(node: ElementTree.Element, key: str, integer: bool = False) -> float | None:
        text = node.attrib.get(key)
        if text is None:
            return None
        try:
            return bounded_int(text) if integer else float(bounded_float(text))
        except ValueError:
            kind = "a whole number" if integer else "a number"
            raise BadValueError(f"{key!r} must be {kind}, got {text[:40]!r}") from None

    @staticmethod
    def text(node: ElementTree.Element, key: str) -> str | None:
        return node.attrib.get(key)

    @classmethod
    def flag(cls, node: ElementTree.Element, key: str) -> bool | None:
        value = cls.number(node, key, integer=True)
        return None if value is None else bool(value)

    @staticmethod
    def children(node: ElementTree.Element, key: str) -> list[ElementTree.Element]:
        return node.findall(key)

    @staticmethod
    def child(node: ElementTree.Element, key: str) -> ElementTree.Element | None:
        return node.find(key)

    @staticmethod
    def tilesets(node: ElementTree.Element) -> list[ElementTree.Element]:
        return node.findall("tileset")

    @staticmethod
    def layers(node: ElementTree.Element) -> list[tuple[str, ElementTree.Element]]:
        return [(_XML_LAYER_TAGS[c.tag], c) for c in node if c.tag in _XML_LAYER_TAGS]

    @staticmethod
    def objects(layer: ElementTree.Element) -> list[ElementTree.Element]:
        return layer.findall("object")

    @classmethod
    def shape(cls, obj: ElementTree.Element) -> tuple[str, list[tuple[float, float]] | None]:
        """The object's kind, as pytiled_parser decides it, and its vertices if it has any."""
        for kind in ("ellipse", "point"):
            if obj.find(kind) is not None:
                return kind, None
        for kind in ("polygon", "polyline"):
            element = obj.find(kind)
            if element is not None:
                return kind, _xml_points(element.attrib.get("points"), kind)
        if obj.find("text") is not None:
            return "text", None
        if "gid" in obj.attrib:
            return "tile", None
        return "rectangle", None

    @classmethod
    def properties(cls, node: ElementTree.Element) -> list[tuple[str, str, Any]]:
        """``(name, type, value)`` of each property with a value; a missing type is string."""
        holder = node.find("properties")
        if holder is None:
            return []
        found = []
        for item in holder.findall("property"):
            name = item.attrib.get("name")
            if name is None:
                raise BadValueError("a property needs a 'name'")
            value = item.attrib.get("value", item.text)
            if value is not None:
                found.append((name, item.attrib.get("type", "string"), value))
        return found

    @classmethod
    def tile_data(cls, layer: ElementTree.Element) -> TileData:
        data = layer.find("data")
        if data is None:
            raise BadValueError("a tile layer needs a <data> element")
        encoding = data.attrib.get("encoding", "")
        if encoding not in ("", "csv", "base64"):
            raise BadValueError(f"encoding {encoding!r} is not csv or base64")
        compression = data.attrib.get("compression", "")
        if encoding == "":
            cells: list[Any] | str = [
                cls.number(tile, "gid", integer=True) or 0 for tile in data.findall("tile")
            ]
        else:
            cells = data.text or ""
        return TileData(encoding, compression, cells, data.find("chunk") is not None)

    @staticmethod
    def tileset_tiles(tileset: ElementTree.Element) -> list[ElementTree.Element]:
        return tileset.findall("tile")

    @staticmethod
    def image(node: ElementTree.Element, sized: bool = False) -> str | None:
        """The source of the node's <image>; ``sized``: it needs a width and height."""
        element = node.find("image")
        if element is None:
            return None
        source = element.attrib.get("source")
        if source is None:
            raise BadValueError("an <image> needs a 'source'")
        for size in ("width", "height"):
            if XmlFormat.number(element, size, integer=True) is None and sized:
                raise BadValueError(f"a tileset's <image> needs {size!r}")
        if "trans" in element.attrib:
            check_color(element.attrib["trans"])
        return source

    @staticmethod
    def frames(tile: ElementTree.Element) -> list[ElementTree.Element] | None:
        """A tile's animation frames, or None if it has no animation."""
        animation = tile.find("animation")
        return None if animation is None else animation.findall("frame")

    @staticmethod
    def tile_objects(tile: ElementTree.Element) -> ElementTree.Element | None:
        return tile.find("objectgroup")

    @staticmethod
    def template_parts(
        template: ElementTree.Element,
    ) -> tuple[ElementTree.Element, ElementTree.Element | None]:
        """A template's object and its tileset reference (or None)."""
        obj = template.find("object")
        if obj is None:
            raise BadValueError("a template needs an <object>")
        return obj, template.find("tileset")


Format = type[JsonFormat] | type[XmlFormat]


def bounded_float(text: str) -> str:
    """``text`` if it is short enough to be a number literal, for ``float()``."""
    if len(text) > MAX_LITERAL:
        raise ValueError(f"a number of {len(text)} characters")
    return text


def check_color(value: Any) -> None:
    """Raise :class:`BadValueError` unless ``value`` is a ``#RRGGBB`` or ``#AARRGGBB`` colour."""
    if not isinstance(value, str) or not _COLOR.fullmatch(value):
        raise BadValueError(f"colour {str(value)[:40]!r} is not #RRGGBB or #AARRGGBB")


def finite(value: float, what: str) -> float:
    """``value`` if finite, else :class:`BadValueError`."""
    if not math.isfinite(value):
        raise BadValueError(f"{what} must be finite, got {value}")
    return value


def _xml_points(text: str | None, kind: str) -> list[tuple[float, float]]:
    """pytiled_parser's reading of ``points="x,y x,y"``: one space between points."""
    if not text:
        raise BadValueError(f"<{kind}> needs 'points'")
    points = []
    for pair in text.split(" "):
        parts = pair.split(",")
        try:
            if len(parts) != 2:
                raise ValueError(pair)
            points.append((float(bounded_float(parts[0])), float(bounded_float(parts[1]))))
        except ValueError:
            raise BadValueError(f"<{kind}> point {pair[:40]!r} is not 'x,y'") from None
    return points


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "float" if isinstance(value, float) else "string"


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a bool"}
    if value is None:
        return "null"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"the number {value!r}"
    return names.get(type(value), type(value).__name__)
