"""What the JSON and XML readers of level files share: the interface they implement, the
kinds of layer and the tile data they return, and number literals and colours read within
bounds.

The two readers, :class:`~arcade_steering.tiled._json_format.JsonFormat` and
:class:`~arcade_steering.tiled._xml_format.XmlFormat`, implement :class:`LevelFormat`, each for
its own type of node (a JSON object or an XML element). Each method takes a node and returns
plain values, reading them the way pytiled_parser will (``int()`` and ``float()`` of XML
attributes, JSON values as they are), or raises :class:`BadValueError` saying what is wrong.
The checks that call them add the file, layer and object to the message.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from ._errors import BadValueError

#: Longest number literal read (digits): a longer one is refused before ``int()`` sees it.
MAX_LITERAL = 1000

LAYER_KINDS = ("tilelayer", "objectgroup", "imagelayer", "group")
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


def bounded_float(text: str) -> str:
    """``text`` if it is short enough to be a number literal, for ``float()``."""
    if len(text) > MAX_LITERAL:
        raise ValueError(f"a number of {len(text)} characters")
    return text


def check_color(value: Any) -> None:
    """Raise :class:`BadValueError` unless ``value`` is a ``#RRGGBB`` or ``#AARRGGBB`` colour."""
    if not isinstance(value, str) or not _COLOR.fullmatch(value):
        raise BadValueError(f"colour {str(value)[:40]!r} is not #RRGGBB or #AARRGGBB")


#: The node type of a format: a JSON object (dict) or an XML element.
Node = TypeVar("Node")


class LevelFormat(ABC, Generic[Node]):
    """A reader of one format of level files, whose nodes are of type ``Node``.

    The formats are used as classes (``type[LevelFormat[Any]]``), never instantiated: every
    method is a class or static method. A check holds the format a file was read in, with its
    root node, and passes the format's own nodes back to it.
    """

    #: The format's name, for messages (``"JSON"``, ``"XML"``).
    name: ClassVar[str]
    #: Keys pytiled_parser requires of a map, of each kind of layer, and of an object.
    map_keys: ClassVar[tuple[str, ...]]
    layer_keys: ClassVar[dict[str, tuple[str, ...]]]
    object_keys: ClassVar[tuple[str, ...]]
    #: Keys that come in pairs: the second is needed when the first is there.
    pairs: ClassVar[dict[str, str]]

    @staticmethod
    @abstractmethod
    def root_kind(node: Any) -> str | None:
        """The file's kind (``"map"``, ``"tileset"``, ``"template"``) from its root node as
        parsed, or None if it does not say."""

    @staticmethod
    @abstractmethod
    def has(node: Node, key: str) -> bool:
        """Whether the node has ``key``."""

    @classmethod
    @abstractmethod
    def number(cls, node: Node, key: str, integer: bool = False) -> float | None:
        """The number under ``key`` (an ``int`` if ``integer``), or None if absent."""

    @classmethod
    @abstractmethod
    def text(cls, node: Node, key: str) -> str | None:
        """The string under ``key``, or None if absent."""

    @classmethod
    @abstractmethod
    def flag(cls, node: Node, key: str) -> bool | None:
        """The bool under ``key``, or None if absent."""

    @classmethod
    @abstractmethod
    def children(cls, node: Node, key: str) -> list[Node]:
        """The child nodes of the kind ``key``."""

    @classmethod
    @abstractmethod
    def child(cls, node: Node, key: str) -> Node | None:
        """The child node of the kind ``key``, or None."""

    @classmethod
    @abstractmethod
    def tilesets(cls, node: Node) -> list[Node]:
        """The map's tilesets."""

    @classmethod
    @abstractmethod
    def layers(cls, node: Node) -> list[tuple[str, Node]]:
        """The node's layers, each with its kind (one of ``LAYER_KINDS``)."""

    @classmethod
    @abstractmethod
    def objects(cls, layer: Node) -> list[Node]:
        """The objects of an object layer."""

    @classmethod
    @abstractmethod
    def shape(cls, obj: Node) -> tuple[str, list[tuple[float, float]] | None]:
        """The object's kind, as pytiled_parser decides it, and its vertices if it has any."""

    @classmethod
    @abstractmethod
    def properties(cls, node: Node) -> list[tuple[str, str, Any]]:
        """``(name, type, value)`` of each property."""

    @classmethod
    @abstractmethod
    def tile_data(cls, layer: Node) -> TileData:
        """A tile layer's cells, as stored."""

    @classmethod
    @abstractmethod
    def tileset_tiles(cls, tileset: Node) -> list[Node]:
        """The tiles a tileset describes one by one."""

    @classmethod
    @abstractmethod
    def image(cls, node: Node, sized: bool = False) -> str | None:
        """The node's image; ``sized``: it needs a width and height."""

    @classmethod
    @abstractmethod
    def frames(cls, tile: Node) -> list[Node] | None:
        """A tile's animation frames, or None if it has no animation."""

    @classmethod
    @abstractmethod
    def tile_objects(cls, tile: Node) -> Node | None:
        """A tile's collision shapes (an object layer), or None."""

    @classmethod
    @abstractmethod
    def template_parts(cls, template: Node) -> tuple[Node, Node | None]:
        """A template's object and its tileset reference (or None)."""
