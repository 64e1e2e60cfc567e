"""The files a level reads, as the checks see them: each file it refers to held to the root,
read and parsed once, and counted against the limits as often as pytiled_parser will read it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._errors import located, naming
from ._limits import LevelLimits, Tally
from ._paths import CheckedFiles, resolve_reference
from ._reading import Format, image_size, read_document, regular_size


class LevelFiles:
    """A map's files, read for the checks.

    Attributes:
        root: The folder the files the map refers to must be in.
        limits: The caps.
        tally: The running totals: files, bytes and pixels here, and what the checks count.
        checked: The map path, and the images checked or missing (for ``anchor_images``).
    """

    def __init__(self, map_path: Path, root: Path, limits: LevelLimits) -> None:
        self.root = root
        self.limits = limits
        self.tally = Tally(limits)
        self.checked = CheckedFiles(map_path)
        #: Parsed files by path: format, root node, size in bytes.
        self.documents: dict[Path, tuple[Format, Any, int]] = {}
        self.image_sizes: dict[Path, tuple[int, int]] = {}

    def refer(self, reference: Any, base: Path, what: str, missing_ok: bool = False) -> Path:
        """Resolve a reference made by a file in ``base`` and check it is allowed (see
        ``resolve_reference``); with ``missing_ok``, a file inside the root that does not exist
        is recorded as missing. A file not seen before counts towards ``LevelLimits.files``."""
        missing = self.checked.missing if missing_ok else None
        path = resolve_reference(reference, base, self.root, what, missing)
        if path in self.checked.missing:  # not a file arcade opens
            return path
        if path not in self.documents and path not in self.checked.images:
            self.tally.count("referred files", 1, "files")
        return path

    def load(self, path: Path, uses: int = 1) -> tuple[Format, Any]:
        """The parsed file, read once; ``uses`` is how often pytiled_parser will read it."""
        with located(path):
            if path not in self.documents:
                self.documents[path] = read_document(path, self.limits)
            fmt, node, size = self.documents[path]
            self.tally.count("bytes of level files", size * uses, "total_bytes")
        return fmt, node

    def size(self, path: Path) -> int:
        """The size in bytes of a file already loaded."""
        return self.documents[path][2]

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
        name = f"image {reference[:80]!r}"
        with naming(name):
            regular_size(path, self.limits, "image_bytes")
        width, height = image_size(path, name)
        self.tally.count("image pixels", width * height, "image_pixels")
        self.checked.images.add(path)
        self.image_sizes[path] = width, height
        return width, height
