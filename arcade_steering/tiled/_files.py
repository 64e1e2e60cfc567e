"""Checks on untrusted Tiled files, before pytiled_parser and arcade read them.

:func:`check_files` reads a map and every file it refers to (tilesets, templates, images) with
its own limits: paths are resolved and must lie inside a root folder, files must be regular
files of a bounded size, JSON and XML are parsed with bounded numbers and no DTD, and every
count (layers, objects, points, tiles, properties) and every coordinate is checked. What it
lets through, pytiled_parser and arcade can read in time and memory linear in the files' size.
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import math
import os
import re
import stat
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import numpy as np
import PIL.Image

from ._errors import BadValueError, LevelError, located, naming
from ._format_common import MAX_LITERAL, TileData, bounded_int, check_color
from ._json_format import JsonFormat
from ._limits import LevelLimits, Tally
from ._xml_format import XmlFormat

Format = type[JsonFormat] | type[XmlFormat]
#: Image formats a tileset or image layer may use (what PIL is allowed to open).
IMAGE_FORMATS = ("PNG", "JPEG", "BMP", "GIF", "WEBP")
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_LITERAL + 1}}}")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
_MAX_GID = 1 << 32
#: A gid without the flip flags arcade reads (horizontal, vertical, diagonal).
_GID_MASK = 0x1FFFFFFF
#: A bool property's values: JSON's true and false, XML's "true" and "false".
_BOOLS = {"JSON": (True, False), "XML": ("true", "false")}


@dataclass
class CheckedFiles:
    """What :func:`check_files` found: the resolved map path and every image it may load."""

    map_path: Path
    images: set[Path] = field(default_factory=set)
    #: Images of tiles that are never drawn, missing from the folder (arcade never opens them).
    missing: set[Path] = field(default_factory=set)


def check_files(map_path: Path, root: Path | None, limits: LevelLimits) -> CheckedFiles:
    """Read and check ``map_path`` and every file it refers to.

    Args:
        map_path: The map file (the caller's choice: not held to ``root``).
        root: The folder referred files must be in; None for the map's own folder.
        limits: The caps.

    Returns:
        The checked paths.

    Raises:
        LevelError: Anything wrong, naming the file, layer and object.
    """
    try:
        resolved = map_path.resolve(strict=True)
    except (OSError, RuntimeError) as error:
        raise LevelError(f"{map_path}: cannot be read ({error})") from error
    if root is None:
        root = resolved.parent
    else:
        try:
            root = root.resolve(strict=True)
        except (OSError, RuntimeError) as error:
            raise LevelError(f"root {root}: cannot be read ({error})") from error
        if not root.is_dir():
            raise LevelError(f"root {root}: is not a folder")
    checker = _Checker(root, limits, resolved)
    checker.check_map()
    return checker.checked


class _Checker:
    def __init__(self, root: Path, limits: LevelLimits, map_path: Path) -> None:
        self.root = root
        self.limits = limits
        self.checked = CheckedFiles(map_path)
        self.tally = Tally(limits)
        #: Parsed files by path: format, root node, size in bytes.
        self.documents: dict[Path, tuple[Format, Any, int]] = {}
        #: Templates checked: bytes pytiled reads for each use (with its tileset), points,
        #: and the template's object.
        self.templates: dict[Path, tuple[int, int, Any]] = {}
        #: Tileset files checked: the gids they span and draw (see :meth:`check_tileset`).
        self.tilesets: dict[Path, tuple[int, set[int] | None]] = {}
        self.image_sizes: dict[Path, tuple[int, int]] = {}
        #: The map's tilesets: first gid, gids spanned, and the local ids drawn (None: all).
        self.gid_ranges: list[tuple[int, int, set[int] | None]] = []
        self.map_format: Format = JsonFormat

    # ------------------------------------------------------------------ files

    def refer(self, reference: Any, base: Path, what: str, missing_ok: bool = False) -> Path:
        """Resolve a reference made by a file in ``base`` and check it is allowed; with
        ``missing_ok``, a file inside the root that does not exist is recorded as missing."""
        if not isinstance(reference, str) or not reference.strip() or "\0" in reference:
            raise BadValueError(f"{what} {str(reference)[:80]!r} is not a file name")
        if _URL.match(reference) and not Path(reference).is_absolute():
            raise BadValueError(f"{what} {reference[:80]!r} is a URL: only files can be read")
        try:  # the root first: whether a file outside it exists is none of the map's business
            path = (base / reference).resolve()
            inside = path.is_relative_to(self.root)
            exists = inside and path.exists()
        except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links
            inside, exists = True, False
        if not inside:
            raise BadValueError(
                f"{what} {reference[:80]!r} is outside {self.root}; pass "
                "load_level(..., root=...) to allow a wider folder"
            )
        if not exists and missing_ok:
            self.checked.missing.add(path)
            return path
        if not exists:
            raise BadValueError(f"{what} {reference[:80]!r} does not exist")
        if path not in self.documents and path not in self.checked.images:
            self.tally.count("referred files", 1, "files")
        return path

    def regular_size(self, path: Path, limit_name: str) -> int:
        """The size of a regular file within ``LevelLimits.<limit_name>`` bytes."""
        limit = getattr(self.limits, limit_name)
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

    def load(self, path: Path, uses: int = 1) -> tuple[Format, Any]:
        """The parsed file, read once; ``uses`` is how often pytiled_parser will read it."""
        with located(path):
            if path not in self.documents:
                self.regular_size(path, "file_bytes")
                limit = self.limits.file_bytes
                try:
                    with open(path, "rb") as file:
                        data = file.read(limit + 1)
                except OSError as error:
                    raise BadValueError(f"cannot be read ({error.strerror})") from None
                if len(data) > limit:
                    raise BadValueError(f"has more than {limit:,} bytes (LevelLimits.file_bytes)")
                self.documents[path] = (*_parse(data), len(data))
            fmt, node, size = self.documents[path]
            self.tally.count("bytes of level files", size * uses, "total_bytes")
        return fmt, node

    def check_image(
        self, reference: Any, base: Path, missing_ok: bool = False
    ) -> tuple[int, int] | None:
        """Check an image file; return its width and height in px, or None if it is missing
        and ``missing_ok`` (a tileset may name images of tiles no layer draws)."""
        path = self.refer(reference, base, "image", missing_ok)
        if path in self.checked.missing:
            return None
        if path in self.image_sizes:
            return self.image_sizes[path]
        with naming(f"image {reference[:80]!r}"):
            self.regular_size(path, "image_bytes")
        try:
            with PIL.Image.open(path, formats=IMAGE_FORMATS) as image:
                width, height = image.size
        except (OSError, ValueError, SyntaxError, PIL.Image.DecompressionBombError):
            raise BadValueError(
                f"image {reference[:80]!r} is not a {', '.join(IMAGE_FORMATS)} image"
            ) from None
        self.tally.count("image pixels", width * height, "image_pixels")
        self.checked.images.add(path)
        self.image_sizes[path] = width, height
        return width, height

    # ------------------------------------------------------------------ the map

    def check_map(self) -> None:
        path = self.checked.map_path
        fmt, node = self.load(path)
        self.map_format = fmt
        with located(path, "map"):
            kind = fmt.root_kind(node)
            if kind not in (None, "map"):
                raise BadValueError(f"is a {kind}, not a map")
            for key in fmt.map_keys:
                if not fmt.has(node, key):
                    raise BadValueError(f"needs {key!r}")
            if fmt.flag(node, "infinite"):
                raise BadValueError("is an infinite map, which arcade does not load")
            for key in ("width", "height"):
                self.whole(fmt, node, key, required=True, minimum=1)
            for key in ("tilewidth", "tileheight"):
                self.size(fmt, node, key, required=True, integer=True, minimum=1)
            for key in ("nextlayerid", "nextobjectid"):
                self.whole(fmt, node, key)
            cells = fmt.number(node, "width") * fmt.number(node, "height")
            if cells > self.limits.tiles:
                raise BadValueError(
                    f"has {cells:,} cells, more than {self.limits.tiles:,} (LevelLimits.tiles)"
                )
            self.check_properties(fmt, node)
            tilesets = fmt.tilesets(node)
        firstgids = set()
        for index, tileset in enumerate(tilesets):
            where = f"tileset {index + 1}"
            with located(path, where):
                firstgid = self.whole(fmt, tileset, "firstgid", required=True, minimum=1)
                if firstgid in firstgids:
                    raise BadValueError(f"firstgid {firstgid} is that of another tileset")
                firstgids.add(firstgid)
                source = fmt.text(tileset, "source")
                if source is not None:
                    tileset_path = self.refer(source, path.parent, "tileset")
            if source is None:
                span = self.check_tileset(fmt, tileset, path, path.parent, where)
            else:
                span = self.check_tileset_file(tileset_path, uses=1)
            with located(path, where):
                self.add_gids(firstgid, *span)
        self.check_layers(fmt, node, path, depth=0)

    def add_gids(self, firstgid: int, count: int, drawn: set[int] | None) -> None:
        """Record a tileset's gids, which must not overlap another's (arcade would take the
        first tileset listed)."""
        for other, other_count, _ in self.gid_ranges:
            if firstgid < other + other_count and other < firstgid + count:
                raise BadValueError(
                    f"its gids {firstgid}..{firstgid + count - 1} overlap another tileset's "
                    f"{other}..{other + other_count - 1}"
                )
        self.gid_ranges.append((firstgid, count, drawn))

    def check_gids(self, gids: np.ndarray) -> None:
        """Every non-zero gid (flip flags aside) must be a tile arcade can draw."""
        gids = np.unique(gids.astype(np.int64))
        local = gids[gids != 0] & _GID_MASK
        firsts = np.array(sorted(first for first, _, _ in self.gid_ranges), dtype=np.int64)
        ranges = {first: (count, drawn) for first, count, drawn in self.gid_ranges}
        index = np.searchsorted(firsts, local, side="right") - 1
        for gid, row in zip(local.tolist(), index.tolist(), strict=True):
            count, drawn = ranges[int(firsts[row])] if row >= 0 else (0, None)
            offset = gid - int(firsts[row]) if row >= 0 else gid
            if not 0 <= offset < count or (drawn is not None and offset not in drawn):
                raise BadValueError(f"tile gid {gid} is in no tileset, or its image is missing")

    def check_tileset_file(self, path: Path, uses: int) -> tuple[int, set[int] | None]:
        fmt, node = self.load(path, uses)
        if path in self.tilesets:
            return self.tilesets[path]
        with located(path, "tileset"):
            if fmt.root_kind(node) not in (None, "tileset"):
                raise BadValueError(f"is a {fmt.root_kind(node)}, not a tileset")
            if fmt.has(node, "source"):
                raise BadValueError("a tileset file cannot refer to another tileset")
        self.tilesets[path] = span = self.check_tileset(fmt, node, path, path.parent, "tileset")
        return span

    def check_tileset(
        self, fmt: Format, node: Any, path: Path, base: Path, where: str
    ) -> tuple[int, set[int] | None]:
        """Check a tileset; return the gids it spans and the local ids it draws (None: all
        of them, from its image)."""
        with located(path, where):
            if not isinstance(fmt.text(node, "name"), str):
                raise BadValueError("a tileset needs a 'name'")
            width, height = (
                self.size(fmt, node, key, required=True, integer=True, minimum=1)
                for key in ("tilewidth", "tileheight")
            )
            count = self.whole(fmt, node, "tilecount", required=True)
            columns = self.whole(fmt, node, "columns", required=True)
            margin, spacing = (
                self.whole(fmt, node, key, required=fmt is JsonFormat)
                for key in ("margin", "spacing")
            )
            for key in ("imagewidth", "imageheight"):
                self.whole(fmt, node, key)
            image = fmt.image(node, sized=True)
            size = None if image is None else self.check_image(image, base, missing_ok=True)
            if image is not None and not columns:
                raise BadValueError("a tileset with an image needs 'columns' >= 1")
            if size is not None:
                rows = -(-count // columns)
                need = [
                    margin + n * side + (n - 1) * spacing
                    for n, side in ((columns, width), (rows, height))
                ]
                if need[0] > size[0] or need[1] > size[1]:
                    raise BadValueError(
                        f"{columns} columns and {rows} rows of {width}x{height} tiles do not "
                        f"fit its {size[0]}x{size[1]} image"
                    )
            self.check_properties(fmt, node)
            tiles = fmt.tileset_tiles(node)
        drawn: set[int] = set()
        for tile in tiles:
            with located(path, where):
                tile_id = self.whole(fmt, tile, "id", required=True)
                if image is not None and tile_id >= count:
                    raise BadValueError(f"tile id {tile_id} is not below 'tilecount' {count}")
            tile_where = f"{where}, tile {tile_id}"
            with located(path, tile_where):
                tile_image = fmt.image(tile, sized=True)
                if tile_image is not None and self.check_image(tile_image, base, True):
                    drawn.add(tile_id)
                self.check_frames(fmt, tile, count if image is not None else None, drawn)
                self.check_properties(fmt, tile)
                objects = fmt.tile_objects(tile)
            if objects is not None:
                self.check_objects(fmt, objects, path, f"{tile_where}, collision shapes")
        if image is not None:
            return count, None if size is not None else set()  # a missing sheet: no tiles
        return max(count, max(drawn, default=-1) + 1), drawn

    def check_frames(self, fmt: Format, tile: Any, count: int | None, drawn: set[int]) -> None:
        """An animation needs frames, each showing a tile of the tileset."""
        frames = fmt.frames(tile)
        if frames is None:
            return
        if not frames:
            raise BadValueError("an animation needs frames")
        for frame in frames:
            shown = self.whole(fmt, frame, "tileid", required=True)
            self.whole(fmt, frame, "duration", required=True)
            if count is not None and shown >= count:
                raise BadValueError(f"an animation frame shows tile {shown}, not below {count}")

    # ------------------------------------------------------------------ layers

    def check_layers(self, fmt: Format, parent: Any, path: Path, depth: int) -> None:
        with located(path):
            layers = fmt.layers(parent)
            self.tally.count("layers", len(layers), "layers")
        for kind, layer in layers:
            with located(path, "layer"):
                name = fmt.text(layer, "name")
            where = f"layer {name!r}"
            with located(path, where):
                self.check_keys(fmt, layer, fmt.layer_keys.get(kind, ()))
                self.whole(fmt, layer, "id")
                for key in ("visible", "repeatx", "repeaty"):
                    fmt.flag(layer, key)
                for key in ("opacity", "offsetx", "offsety", "parallaxx", "parallaxy"):
                    self.size(fmt, layer, key, minimum=-self.limits.coordinate)
                for key in ("tintcolor", "transparentcolor"):
                    if fmt.has(layer, key):
                        check_color(fmt.text(layer, key))
                self.check_properties(fmt, layer)
                if kind == "tilelayer":
                    self.check_tiles(fmt, layer)
                elif kind == "imagelayer":
                    image = fmt.image(layer)
                    if not image:
                        raise BadValueError("an image layer needs an image")
                    self.check_image(image, path.parent)
                elif kind == "group" and depth + 1 > self.limits.layer_depth:
                    raise BadValueError(
                        f"groups nest more than {self.limits.layer_depth} deep "
                        "(LevelLimits.layer_depth)"
                    )
            if kind == "objectgroup":
                self.check_objects(fmt, layer, path, where)
            elif kind == "group":
                self.check_layers(fmt, layer, path, depth + 1)

    def check_tiles(self, fmt: Format, layer: Any) -> None:
        width = self.whole(fmt, layer, "width", required=True)
        height = self.whole(fmt, layer, "height", required=True)
        self.tally.count("tile layer cells", width * height, "tiles")
        data = fmt.tile_data(layer)
        if data.chunked:
            raise BadValueError(
                "chunked tile data belongs to infinite maps, which arcade does not load"
            )
        cells = width * height
        if data.encoding == "base64":
            self.check_gids(np.frombuffer(_decode(data, cells), dtype="<u4"))
            return
        gids = data.cells
        if data.encoding == "csv":
            gids = [_csv_gid(text) for text in data.cells.split(",")] if data.cells.strip() else []
        if len(gids) != cells:
            raise BadValueError(f"has {len(gids):,} tile ids for {width} x {height} cells")
        for gid in gids:
            if isinstance(gid, bool) or not isinstance(gid, int) or not 0 <= gid < _MAX_GID:
                raise BadValueError(
                    f"tile id {str(gid)[:40]} is not a whole number from 0 to 2**32 - 1"
                )
        self.check_gids(np.array(gids, dtype=np.int64))

    # ------------------------------------------------------------------ objects

    def check_objects(self, fmt: Format, layer: Any, path: Path, where: str) -> None:
        with located(path, where):
            objects = fmt.objects(layer)
            self.tally.count("objects", len(objects), "objects")
        for obj in objects:
            place = where  # a try, not located(): this loop runs once per object
            try:
                object_id = self.whole(fmt, obj, "id")
                name = fmt.text(obj, "name")
                place = f"{where}, object {object_id}" + (f" {name!r}" if name else "")
                template = fmt.text(obj, "template")
                self.check_object(fmt, obj)
                if template is None:
                    self.check_keys(fmt, obj, fmt.object_keys)
                    gid = self.whole(fmt, obj, "gid")
                    if gid:
                        self.check_gids(np.array([gid]))
                    continue
                template_path = self.refer(template, path.parent, "template")
            except BadValueError as problem:
                raise LevelError(f"{path}: {place}: {problem}") from None
            template_object = self.use_template(template_path, place)
            with located(path, place):
                self.check_keys(fmt, obj, fmt.object_keys, template_object)

    def check_object(self, fmt: Format, obj: Any) -> int:
        """Check an object's fields; return its number of vertices."""
        for key in ("name", "type", "class"):
            fmt.text(obj, key)
        fmt.flag(obj, "visible")
        limit = self.limits.coordinate
        for key in ("x", "y"):
            self.size(fmt, obj, key, minimum=-limit)
        for key in ("width", "height"):
            self.size(fmt, obj, key)
        self.size(fmt, obj, "rotation", minimum=-limit)
        self.whole(fmt, obj, "gid")
        self.check_properties(fmt, obj)
        kind, points = fmt.shape(obj)
        if points is None:
            return 0
        if not points:
            raise BadValueError(f"a {kind} needs points")
        if len(points) > self.limits.points:
            raise BadValueError(
                f"a {kind} of {len(points):,} points, more than {self.limits.points:,} "
                "(LevelLimits.points)"
            )
        self.tally.count("points", len(points), "total_points")
        for x, y in points:
            if not (math.isfinite(x) and math.isfinite(y) and max(abs(x), abs(y)) <= limit):
                raise BadValueError(
                    f"{kind} point ({x}, {y}) is not finite within +-{limit:g} "
                    "(LevelLimits.coordinate)"
                )
        return len(points)

    def use_template(self, path: Path, where: str) -> Any:
        """Check a template on its first use; count what every use costs. Return its object."""
        if path not in self.templates:
            self.templates[path] = self.check_template(path, where)
            return self.templates[path][2]
        size, points, obj = self.templates[path]
        with located(path, f"template used by {where}"):
            self.tally.count("bytes of level files", size, "total_bytes")
            self.tally.count("objects", 1, "objects")
            self.tally.count("points", points, "total_points")
        return obj

    def check_template(self, path: Path, where: str) -> tuple[int, int, Any]:
        fmt, node = self.load(path)
        with located(path, f"template used by {where}"):
            if fmt is not self.map_format:
                raise BadValueError(f"a {self.map_format.name} map needs {fmt.name} templates")
            if fmt.root_kind(node) not in (None, "template"):
                raise BadValueError(f"is a {fmt.root_kind(node)}, not a template")
            obj, tileset = fmt.template_parts(node)
            if fmt.has(obj, "template"):
                raise BadValueError("a template cannot use another template")
            self.tally.count("objects", 1, "objects")
            points = self.check_object(fmt, obj)
            size = self.documents[path][2]
            if tileset is None:
                return size, points, obj
            source = fmt.text(tileset, "source")
            if source is None:
                raise BadValueError("a template's tileset needs a 'source'")
            tileset_path = self.refer(source, path.parent, "tileset")
        tileset_format, _ = self.load(tileset_path, uses=1)
        with located(tileset_path, "tileset"):
            if tileset_format is not fmt:
                raise BadValueError(f"a {fmt.name} template needs a {fmt.name} tileset")
        self.check_tileset_file(tileset_path, uses=0)
        return size + self.documents[tileset_path][2], points, obj

    # ------------------------------------------------------------------ values

    def size(
        self,
        fmt: Format,
        node: Any,
        key: str,
        *,
        required: bool = False,
        integer: bool = False,
        minimum: float = 0,
    ) -> Any:
        """A number within ``[minimum, LevelLimits.coordinate]``; 0 if absent and optional."""
        value = fmt.number(node, key, integer=integer)
        if value is None:
            if required:
                raise BadValueError(f"needs {key!r}")
            return 0
        limit = self.limits.coordinate
        if not math.isfinite(value) or not minimum <= value <= limit:
            raise BadValueError(
                f"{key!r} is {value}, not from {minimum:g} to {limit:g} (LevelLimits.coordinate)"
            )
        return value

    @staticmethod
    def check_keys(fmt: Format, node: Any, required: tuple[str, ...], *others: Any) -> None:
        """``node`` (or one of ``others``, a template's object) has every required key, and
        the second key of each pair pytiled_parser reads together."""
        for key in required:
            if not fmt.has(node, key) and not [other for other in others if fmt.has(other, key)]:
                raise BadValueError(f"needs {key!r}")
        for first, second in fmt.pairs.items():
            if fmt.has(node, first) and not fmt.has(node, second):
                raise BadValueError(f"needs {second!r} with {first!r}")

    @staticmethod
    def whole(fmt: Format, node: Any, key: str, *, required: bool = False, minimum: int = 0) -> int:
        """A whole number (an id, a count) from ``minimum`` to 2**32 - 1; 0 if absent."""
        value = fmt.number(node, key, integer=True)
        if value is None:
            if required:
                raise BadValueError(f"needs {key!r}")
            return 0
        if not minimum <= value < _MAX_GID:
            raise BadValueError(f"{key!r} is {value}, not from {minimum} to 2**32 - 1")
        return value

    def check_properties(self, fmt: Format, node: Any) -> None:
        properties = fmt.properties(node)
        if len(properties) > self.limits.properties:
            raise BadValueError(
                f"has {len(properties):,} properties, more than {self.limits.properties:,} "
                "(LevelLimits.properties)"
            )
        for name, kind, value in properties:
            _check_property(fmt, name, kind, value)


def _check_property(fmt: Format, name: str, kind: str, value: Any) -> None:
    """What pytiled_parser converts: ints are rounded, floats parsed, colours decoded."""
    what = f"property {name[:40]!r}"
    if kind == "bool" and value not in _BOOLS[fmt.name]:
        raise BadValueError(f"{what} of type bool is not true or false: {str(value)[:40]!r}")
    if kind == "color":
        with naming(what):
            check_color(value)
    elif kind in ("int", "float", "object"):
        try:
            number = float(value) if fmt is XmlFormat else value
        except (TypeError, ValueError):
            number = None
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise BadValueError(f"{what} of type {kind} is not a number: {str(value)[:40]!r}")
        if not math.isfinite(number):
            raise BadValueError(f"{what} must be finite, got {number}")


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


def _decode(data: TileData, cells: int) -> bytes:
    """Decode base64 (and zlib or gzip) tile data within ``4 * cells`` bytes."""
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


def _csv_gid(text: str) -> int:
    try:
        return bounded_int(text.strip())
    except ValueError:
        raise BadValueError(f"tile id {text.strip()[:40]!r} is not a whole number") from None


def anchor_images(tiled_map: Any, checked: CheckedFiles) -> None:
    """Make every image path of a parsed map absolute, and check that it was checked.

    pytiled_parser leaves the images of a tileset embedded in the map, and of image layers,
    relative to the map, and arcade looks for such a path in the current folder first: that
    would read a file nobody checked. Here they become the absolute paths that were checked.

    Raises:
        LevelError: pytiled_parser found an image the checks did not see.
    """
    folder = checked.map_path.parent
    holders: list[Any] = []
    for tileset in tiled_map.tilesets.values():
        holders.append(tileset)
        holders.extend((tileset.tiles or {}).values())
    layers = list(tiled_map.layers)
    while layers:
        layer = layers.pop()
        layers.extend(getattr(layer, "layers", None) or ())
        if hasattr(layer, "image"):
            holders.append(layer)
    for holder in holders:
        if holder.image is None:
            continue
        image = (folder / holder.image).resolve()
        if image not in checked.images and image not in checked.missing:
            raise LevelError(f"{checked.map_path}: image {str(holder.image)!r} was not checked")
        holder.image = image
