"""Tiled's XML format (maps, tilesets and templates: ``.tmx``, ``.tsx``, ``.tx``) for the level
checks: nodes are elements, their attributes read as pytiled_parser reads them (``int()`` and
``float()`` of the text).

See :mod:`arcade_steering.tiled._format_common` for what the two formats share.
"""

from __future__ import annotations

from typing import Any, ClassVar
from xml.etree import ElementTree

from ._errors import BadValueError
from ._format_common import LevelFormat, TileData, bounded_float, bounded_int, check_color

#: XML tags of the layers, and the JSON layer type of each.
_XML_LAYER_TAGS = {
    "layer": "tilelayer",
    "objectgroup": "objectgroup",
    "imagelayer": "imagelayer",
    "group": "group",
}


class XmlFormat(LevelFormat[ElementTree.Element]):
    """Nodes are the elements of Tiled's XML format (TMX, TSX, TX)."""

    name = "XML"
    map_keys = (
        "version",
        "tiledversion",
        "orientation",
        "renderorder",
        "infinite",
        "nextlayerid",
        "nextobjectid",
    )
    layer_keys: ClassVar[dict[str, tuple[str, ...]]] = {"tilelayer": ("width", "height")}
    object_keys = ("id", "x", "y")
    pairs: ClassVar[dict[str, str]] = {"width": "height", "offsetx": "offsety"}

    @staticmethod
    def root_kind(node: ElementTree.Element) -> str | None:
        """The file's kind: its root tag (``"map"``, ``"tileset"``, ``"template"``)."""
        return node.tag

    @staticmethod
    def has(node: ElementTree.Element, key: str) -> bool:
        """Whether the element has the attribute ``key``."""
        return key in node.attrib

    @staticmethod
    def number(node: ElementTree.Element, key: str, integer: bool = False) -> float | None:
        """The attribute ``key`` as a number (a whole one if ``integer``), or None if absent."""
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
        """The attribute ``key``, or None if absent."""
        return node.attrib.get(key)

    @classmethod
    def flag(cls, node: ElementTree.Element, key: str) -> bool | None:
        """The attribute ``key`` as a bool (a whole number, 0 for false), or None if absent."""
        value = cls.number(node, key, integer=True)
        return None if value is None else bool(value)

    @staticmethod
    def children(node: ElementTree.Element, key: str) -> list[ElementTree.Element]:
        """The child elements tagged ``key``."""
        return node.findall(key)

    @staticmethod
    def child(node: ElementTree.Element, key: str) -> ElementTree.Element | None:
        """The first child element tagged ``key``, or None."""
        return node.find(key)

    @staticmethod
    def tilesets(node: ElementTree.Element) -> list[ElementTree.Element]:
        """The map's tilesets."""
        return node.findall("tileset")

    @staticmethod
    def layers(node: ElementTree.Element) -> list[tuple[str, ElementTree.Element]]:
        """The element's layers, each with its kind (the JSON layer type)."""
        return [(_XML_LAYER_TAGS[c.tag], c) for c in node if c.tag in _XML_LAYER_TAGS]

    @staticmethod
    def objects(layer: ElementTree.Element) -> list[ElementTree.Element]:
        """The objects of an object layer."""
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
        """A tile layer's cells, as stored."""
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
        """The tiles a tileset describes one by one."""
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
        """A tile's collision shapes (an object layer), or None."""
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
