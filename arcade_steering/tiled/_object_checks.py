"""Checks of Tiled objects, in object layers and in tiles' collision shapes, and of the object
templates they use."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .._util.validate import finite_float
from ._errors import BadValueError, LevelError, located
from ._files import LevelFiles
from ._gids import GidRanges, Span
from ._reading import Format
from ._value_checks import check_keys, check_properties, number, whole


class ObjectChecks:
    """Checks of the objects of a map and its tilesets, and of their templates.

    Args:
        files: The map's files.
        map_format: The map's format, which its templates must have too.
        gids: The map's gids, which a tile object must draw.
        check_tileset_file: Checks the tileset file of a template, which pytiled_parser reads
            again for each use of the template; given the path and 0, the uses to count.
    """

    def __init__(
        self,
        files: LevelFiles,
        map_format: Format,
        gids: GidRanges,
        check_tileset_file: Callable[[Path, int], Span],
    ) -> None:
        self.files = files
        self.limits = files.limits
        self.tally = files.tally
        self.map_format = map_format
        self.gids = gids
        self.check_tileset_file = check_tileset_file
        #: Templates checked: bytes pytiled reads for each use (with its tileset), points,
        #: and the template's object.
        self.templates: dict[Path, tuple[int, int, Any]] = {}

    def check_objects(self, fmt: Format, layer: Any, path: Path, where: str) -> None:
        """Check the objects of an object layer (or of a tile's collision shapes)."""
        with located(path, where):
            objects = fmt.objects(layer)
            self.tally.count("objects", len(objects), "objects")
        for obj in objects:
            place = where  # a try, not located(): this loop runs once per object
            try:
                object_id = whole(fmt, obj, "id")
                name = fmt.text(obj, "name")
                place = f"{where}, object {object_id}" + (f" {name!r}" if name else "")
                template = fmt.text(obj, "template")
                self.check_object(fmt, obj)
                if template is None:
                    check_keys(fmt, obj, fmt.object_keys)
                    gid = whole(fmt, obj, "gid")
                    if gid:
                        self.gids.check(np.array([gid]))
                    continue
                template_path = self.files.refer(template, path.parent, "template")
            except BadValueError as problem:
                raise LevelError(f"{path}: {place}: {problem}") from None
            template_object = self.use_template(template_path, place)
            with located(path, place):
                check_keys(fmt, obj, fmt.object_keys, template_object)

    def check_object(self, fmt: Format, obj: Any) -> int:
        """Check an object's fields; return its number of vertices."""
        for key in ("name", "type", "class"):
            fmt.text(obj, key)
        fmt.flag(obj, "visible")
        limit = self.limits.coordinate
        for key in ("x", "y"):
            number(fmt, obj, key, self.limits, minimum=-limit)
        for key in ("width", "height"):
            number(fmt, obj, key, self.limits)
        number(fmt, obj, "rotation", self.limits, minimum=-limit)
        whole(fmt, obj, "gid")
        check_properties(fmt, obj, self.limits)
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
            if finite_float(x) is None or finite_float(y) is None or max(abs(x), abs(y)) > limit:
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
        """Check a template and its tileset; return what :attr:`templates` keeps of it."""
        fmt, node = self.files.load(path)
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
            size = self.files.size(path)
            if tileset is None:
                return size, points, obj
            source = fmt.text(tileset, "source")
            if source is None:
                raise BadValueError("a template's tileset needs a 'source'")
            tileset_path = self.files.refer(source, path.parent, "tileset")
        tileset_format, _ = self.files.load(tileset_path, uses=1)
        with located(tileset_path, "tileset"):
            if tileset_format is not fmt:
                raise BadValueError(f"a {fmt.name} template needs a {fmt.name} tileset")
        self.check_tileset_file(tileset_path, 0)
        return size + self.files.size(tileset_path), points, obj
