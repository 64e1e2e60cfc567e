"""Checks of tilesets, in a map or in files of their own: tile sizes, the image and whether
its tiles fit it, each tile's image, animation and properties, and its collision shapes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._errors import BadValueError, located
from ._files import LevelFiles
from ._gids import GidRanges, Span
from ._json_format import JsonFormat
from ._object_checks import ObjectChecks
from ._reading import Format
from ._value_checks import check_properties, number, whole


class TilesetChecks:
    """Checks of the tilesets of a map and of its templates.

    Args:
        files: The map's files.
        map_format: The map's format.
        gids: The map's gids, which its tile objects must draw.
    """

    def __init__(self, files: LevelFiles, map_format: Format, gids: GidRanges) -> None:
        self.files = files
        self.limits = files.limits
        #: Tileset files checked, and what each spans.
        self.spans: dict[Path, Span] = {}
        #: The checks of objects: the tiles' collision shapes are objects, and the templates
        #: of objects may use a tileset file (which this checks for them).
        self.objects = ObjectChecks(files, map_format, gids, self.check_file)

    def check_file(self, path: Path, uses: int) -> Span:
        """Check a tileset file, once; ``uses`` is how often pytiled_parser will read it."""
        fmt, node = self.files.load(path, uses)
        if path in self.spans:
            return self.spans[path]
        with located(path, "tileset"):
            if fmt.root_kind(node) not in (None, "tileset"):
                raise BadValueError(f"is a {fmt.root_kind(node)}, not a tileset")
            if fmt.has(node, "source"):
                raise BadValueError("a tileset file cannot refer to another tileset")
        self.spans[path] = span = self.check(fmt, node, path, "tileset")
        return span

    def check(self, fmt: Format, node: Any, path: Path, where: str) -> Span:
        """Check a tileset of the file ``path``; return the gids it spans and the local ids it
        draws (None: all of them, from its image)."""
        base = path.parent
        with located(path, where):
            if not isinstance(fmt.text(node, "name"), str):
                raise BadValueError("a tileset needs a 'name'")
            width, height = (
                number(fmt, node, key, self.limits, required=True, integer=True, minimum=1)
                for key in ("tilewidth", "tileheight")
            )
            count = whole(fmt, node, "tilecount", required=True)
            columns = whole(fmt, node, "columns", required=True)
            margin, spacing = (
                whole(fmt, node, key, required=fmt is JsonFormat) for key in ("margin", "spacing")
            )
            for key in ("imagewidth", "imageheight"):
                whole(fmt, node, key)
            image = fmt.image(node, sized=True)
            size = None if image is None else self.files.check_image(image, base, missing_ok=True)
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
            check_properties(fmt, node, self.limits)
            tiles = fmt.tileset_tiles(node)
        drawn: set[int] = set()
        for tile in tiles:
            with located(path, where):
                tile_id = whole(fmt, tile, "id", required=True)
                if image is not None and tile_id >= count:
                    raise BadValueError(f"tile id {tile_id} is not below 'tilecount' {count}")
            tile_where = f"{where}, tile {tile_id}"
            with located(path, tile_where):
                tile_image = fmt.image(tile, sized=True)
                if tile_image is not None and self.files.check_image(tile_image, base, True):
                    drawn.add(tile_id)
                _check_frames(fmt, tile, count if image is not None else None)
                check_properties(fmt, tile, self.limits)
                objects = fmt.tile_objects(tile)
            if objects is not None:
                self.objects.check_objects(fmt, objects, path, f"{tile_where}, collision shapes")
        if image is not None:
            return count, None if size is not None else set()  # a missing sheet: no tiles
        return max(count, max(drawn, default=-1) + 1), drawn


def _check_frames(fmt: Format, tile: Any, count: int | None) -> None:
    """An animation needs frames, each showing a tile of the tileset (below ``count``, if the
    tileset has an image)."""
    frames = fmt.frames(tile)
    if frames is None:
        return
    if not frames:
        raise BadValueError("an animation needs frames")
    for frame in frames:
        shown = whole(fmt, frame, "tileid", required=True)
        whole(fmt, frame, "duration", required=True)
        if count is not None and shown >= count:
            raise BadValueError(f"an animation frame shows tile {shown}, not below {count}")
