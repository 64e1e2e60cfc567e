"""Reading a level file within its limits.

A file's kind and size are checked before it is opened, and no more than its cap is read. Its
text is parsed as pytiled_parser will parse it (JSON or XML, told by the first character), with
no number literal of more than ``MAX_LITERAL`` digits and no DTD. Tile data is decoded and
decompressed into no more bytes than its cells take, and an image's size is read from its
header, by PIL and in one of :data:`IMAGE_FORMATS` only.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
import re
import stat
import zlib
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import PIL.Image

from ._errors import BadValueError
from ._format_common import MAX_LITERAL, LevelFormat, TileData
from ._json_format import JsonFormat
from ._limits import LevelLimits
from ._xml_format import XmlFormat

#: The reader of a file's format (what :func:`read_document` found it to be).
Format = type[LevelFormat[Any]]
#: Image formats a tileset or image layer may use (what PIL is allowed to open).
IMAGE_FORMATS = ("PNG", "JPEG", "BMP", "GIF", "WEBP")
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_LITERAL + 1}}}")


def regular_size(path: Path, limits: LevelLimits, limit_name: str) -> int:
    """The size of a regular file within ``LevelLimits.<limit_name>`` bytes."""
    limit = getattr(limits, limit_name)
    try:
        info = os.stat(path)
    except OSError as error:
        raise BadValueError(f"cannot be read ({error.strerror})") from None
    if not stat.S_ISREG(info.st_mode):
        raise BadValueError("is not a regular file")
    if info.st_size > limit:
        raise BadValueError(
            f"has {info.st_size:,} bytes, more than {limit:,} (LevelLimits.{limit_name})"
        )
    return info.st_size


def read_document(path: Path, limits: LevelLimits) -> tuple[Format, Any, int]:
    """Read and parse a map, tileset or template file within ``LevelLimits.file_bytes``.

    Returns:
        The file's format, its root node (a JSON value or an XML element) and its size in
        bytes.

    Raises:
        BadValueError: It is not a regular file, is too big, or is not valid UTF-8 JSON or XML.
    """
    regular_size(path, limits, "file_bytes")
    limit = limits.file_bytes
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except OSError as error:
        raise BadValueError(f"cannot be read ({error.strerror})") from None
    if len(data) > limit:
        raise BadValueError(f"has more than {limit:,} bytes (LevelLimits.file_bytes)")
    return (*_parse(data), len(data))


def image_size(path: Path, name: str) -> tuple[int, int]:
    """An image's width and height in px, read from its header.

    Args:
        path: The image file.
        name: What to call it in a message (``"image 'tiles.png'"``).

    Raises:
        BadValueError: It is not an image in one of :data:`IMAGE_FORMATS`.
    """
    try:
        with PIL.Image.open(path, formats=IMAGE_FORMATS) as image:
            width, height = image.size
    except (OSError, ValueError, SyntaxError, PIL.Image.DecompressionBombError):
        raise BadValueError(f"{name} is not a {', '.join(IMAGE_FORMATS)} image") from None
    return width, height


def decode_tiles(data: TileData, cells: int) -> bytes:
    """Decode base64 (and zlib or gzip) tile data within ``4 * cells`` bytes."""
    if not isinstance(data.cells, str):  # the formats read base64 data as text
        raise TypeError(f"base64 tile data must be text, got {type(data.cells).__name__}")
    try:
        raw = base64.b64decode(data.cells)
    except (binascii.Error, ValueError):
        raise BadValueError("tile data is not valid base64") from None
    expected = 4 * cells
    if data.compression:
        wbits = {"zlib": zlib.MAX_WBITS, "gzip": 16 + zlib.MAX_WBITS}.get(data.compression)
        if wbits is None:
            raise BadValueError(f"compression {data.compression!r} is not zlib or gzip")
        decompressor = zlib.decompressobj(wbits)
        try:
            raw = decompressor.decompress(raw, expected + 1)
        except zlib.error:
            raise BadValueError(f"tile data is not valid {data.compression}") from None
        if not decompressor.eof or decompressor.unused_data or decompressor.unconsumed_tail:
            raise BadValueError(
                f"{data.compression} tile data does not end after {expected:,} bytes "
                f"({cells:,} cells)"
            )
    if len(raw) != expected:
        raise BadValueError(f"tile data has {len(raw):,} bytes for {cells:,} cells (4 bytes each)")
    return raw


def _parse(data: bytes) -> tuple[Format, Any]:
    """Decode and parse a Tiled file as pytiled_parser will: its format is told by whether the
    first line starts with ``<``."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadValueError(f"is not UTF-8 text ({error.reason} at byte {error.start})") from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # as open() in text mode reads it
    first = text.split("\n", 1)[0].strip()
    if not first:
        raise BadValueError("has an empty first line (the format is told by its first character)")
    long_number = _LONG_NUMBER.search(text)
    if long_number:  # int() is quadratic in the digits on Python 3.10
        raise BadValueError(f"has a number of more than {MAX_LITERAL} digits")
    if first[0] != "<":
        try:
            return JsonFormat, json.loads(text)
        except RecursionError:
            raise BadValueError("is not valid JSON: nested too deeply") from None
        except ValueError as error:
            raise BadValueError(f"is not valid JSON: {str(error)[:200]}") from None
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise BadValueError("has a DOCTYPE or ENTITY declaration, which Tiled never writes")
    try:
        return XmlFormat, ElementTree.parse(io.StringIO(text)).getroot()
    except (ElementTree.ParseError, LookupError, ValueError) as error:  # LookupError: encoding
        raise BadValueError(f"is not valid XML: {error}") from None
