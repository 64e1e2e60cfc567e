"""What the JSON and XML readers of level files share: the kinds of layer and the tile data
they return, and number literals and colours read within bounds.

The two readers, :class:`~arcade_steering.tiled._json_format.JsonFormat` and
:class:`~arcade_steering.tiled._xml_format.XmlFormat`, have the same methods: each takes a node
(a JSON object or an XML element) and returns plain values, reading them the way pytiled_parser
will (``int()`` and ``float()`` of XML attributes, JSON values as they are), or raises
:class:`BadValueError` saying what is wrong. The checks that call them add the file, layer and
object to the message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

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
