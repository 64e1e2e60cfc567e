"""Checks on untrusted Tiled files, before pytiled_parser and arcade read them.

:func:`check_files` reads a map and every file it refers to (tilesets, templates, images) with
its own limits: paths are resolved and must lie inside a root folder, files must be regular
files of a bounded size, JSON and XML are parsed with bounded numbers and no DTD, and every
count (layers, objects, points, tiles, properties) and every coordinate is checked. What it
lets through, pytiled_parser and arcade can read in time and memory linear in the files' size.

This module checks the map itself, its layers and their tile data; the tilesets, objects and
templates have checks of their own, which it calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ._errors import BadValueError, located
from ._files import LevelFiles
from ._format_common import bounded_int, check_color
from ._gids import GidRanges
from ._limits import LevelLimits
from ._paths import CheckedFiles, resolve_map
from ._reading import Format, decode_tiles
from ._tileset_checks import TilesetChecks
from ._value_checks import WHOLE_LIMIT, check_keys, check_properties, number, whole


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
    map_path, root = resolve_map(map_path, root)
    files = LevelFiles(map_path, root, limits)
    fmt, node = files.load(map_path)
    _MapChecks(files, fmt).check(node)
    return files.checked


class _MapChecks:
    """Checks of a map: its own fields, its tilesets, and its layers."""

    def __init__(self, files: LevelFiles, fmt: Format) -> None:
        self.files = files
        self.limits = files.limits
        self.tally = files.tally
        self.path = files.checked.map_path
        self.fmt = fmt
        self.gids = GidRanges()
        self.tilesets = TilesetChecks(files, fmt, self.gids)
        self.objects = self.tilesets.objects

    def check(self, node: Any) -> None:
        """Check the map (its root node ``node``) and every file it refers to."""
        path, fmt = self.path, self.fmt
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
                whole(fmt, node, key, required=True, minimum=1)
            for key in ("tilewidth", "tileheight"):
                number(fmt, node, key, self.limits, required=True, integer=True, minimum=1)
            for key in ("nextlayerid", "nextobjectid"):
                whole(fmt, node, key)
            # The sides as the format reads numbers (XML: floats), for the message as it was.
            width, height = fmt.number(node, "width"), fmt.number(node, "height")
            if width is None or height is None:  # not reached: whole() required both above
                raise BadValueError("needs 'width' and 'height'")
            cells = width * height
            if cells > self.limits.tiles:
                raise BadValueError(
                    f"has {cells:,} cells, more than {self.limits.tiles:,} (LevelLimits.tiles)"
                )
            check_properties(fmt, node, self.limits)
            tilesets = fmt.tilesets(node)
        firstgids = set()
        for index, tileset in enumerate(tilesets):
            where = f"tileset {index + 1}"
            with located(path, where):
                firstgid = whole(fmt, tileset, "firstgid", required=True, minimum=1)
                if firstgid in firstgids:
                    raise BadValueError(f"firstgid {firstgid} is that of another tileset")
                firstgids.add(firstgid)
                source = fmt.text(tileset, "source")
                if source is not None:
                    tileset_path = self.files.refer(source, path.parent, "tileset")
            if source is None:
                span = self.tilesets.check(fmt, tileset, path, where)
            else:
                span = self.tilesets.check_file(tileset_path, uses=1)
            with located(path, where):
                self.gids.add(firstgid, *span)
        self.check_layers(node, depth=0)

    def check_layers(self, parent: Any, depth: int) -> None:
        """Check the layers of the map or of a group layer ``depth`` groups deep."""
        path, fmt = self.path, self.fmt
        with located(path):
            layers = fmt.layers(parent)
            self.tally.count("layers", len(layers), "layers")
        for kind, layer in layers:
            with located(path, "layer"):
                name = fmt.text(layer, "name")
            where = f"layer {name!r}"
            with located(path, where):
                check_keys(fmt, layer, fmt.layer_keys.get(kind, ()))
                whole(fmt, layer, "id")
                for key in ("visible", "repeatx", "repeaty"):
                    fmt.flag(layer, key)
                for key in ("opacity", "offsetx", "offsety", "parallaxx", "parallaxy"):
                    number(fmt, layer, key, self.limits, minimum=-self.limits.coordinate)
                for key in ("tintcolor", "transparentcolor"):
                    if fmt.has(layer, key):
                        check_color(fmt.text(layer, key))
                check_properties(fmt, layer, self.limits)
                if kind == "tilelayer":
                    self.check_tiles(layer)
                elif kind == "imagelayer":
                    image = fmt.image(layer)
                    if not image:
                        raise BadValueError("an image layer needs an image")
                    self.files.check_image(image, path.parent)
                elif kind == "group" and depth + 1 > self.limits.layer_depth:
                    raise BadValueError(
                        f"groups nest more than {self.limits.layer_depth} deep "
                        "(LevelLimits.layer_depth)"
                    )
            if kind == "objectgroup":
                self.objects.check_objects(fmt, layer, path, where)
            elif kind == "group":
                self.check_layers(layer, depth + 1)

    def check_tiles(self, layer: Any) -> None:
        """Check a tile layer's cells: as many as the layer has, each a tile of a tileset."""
        fmt = self.fmt
        width = whole(fmt, layer, "width", required=True)
        height = whole(fmt, layer, "height", required=True)
        self.tally.count("tile layer cells", width * height, "tiles")
        data = fmt.tile_data(layer)
        if data.chunked:
            raise BadValueError(
                "chunked tile data belongs to infinite maps, which arcade does not load"
            )
        cells = width * height
        if data.encoding == "base64":
            self.gids.check(np.frombuffer(decode_tiles(data, cells), dtype="<u4"))
            return
        gids = data.cells
        if isinstance(gids, str):  # CSV: the only text left (base64 returned above)
            gids = [_csv_gid(text) for text in gids.split(",")] if gids.strip() else []
        if len(gids) != cells:
            raise BadValueError(f"has {len(gids):,} tile ids for {width} x {height} cells")
        for gid in gids:
            if isinstance(gid, bool) or not isinstance(gid, int) or not 0 <= gid < WHOLE_LIMIT:
                raise BadValueError(
                    f"tile id {str(gid)[:40]} is not a whole number from 0 to 2**32 - 1"
                )
        self.gids.check(np.array(gids, dtype=np.int64))


def _csv_gid(text: str) -> int:
    """A tile id of CSV tile data."""
    try:
        return bounded_int(text.strip())
    except ValueError:
        raise BadValueError(f"tile id {text.strip()[:40]!r} is not a whole number") from None
