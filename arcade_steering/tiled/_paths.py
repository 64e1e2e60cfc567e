"""Where a level's files may be.

The map is the caller's choice. Every file it refers to (tilesets, templates, images) must be
named as a file, not a URL, and lie inside a root folder, by default the map's own; symbolic
links are followed before that check. Once pytiled_parser has read the map,
:func:`anchor_images` pins every image path it holds to the file that was checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._errors import BadValueError, LevelError

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")


@dataclass
class CheckedFiles:
    """What the checks found: the resolved map path and every image it may load."""

    map_path: Path
    images: set[Path] = field(default_factory=set)
    #: Images of tiles that are never drawn, missing from the folder (arcade never opens them).
    missing: set[Path] = field(default_factory=set)


def resolve_map(map_path: Path, root: Path | None) -> tuple[Path, Path]:
    """The real paths of the map and of the folder the files it refers to must be in.

    Args:
        map_path: The map file (the caller's choice: not held to ``root``).
        root: The folder; None for the map's own folder.

    Raises:
        LevelError: The map or ``root`` cannot be read, or ``root`` is not a folder.
    """
    try:
        resolved = map_path.resolve(strict=True)
    except (OSError, RuntimeError) as error:
        raise LevelError(f"{map_path}: cannot be read ({error})") from error
    if root is None:
        return resolved, resolved.parent
    try:
        root = root.resolve(strict=True)
    except (OSError, RuntimeError) as error:
        raise LevelError(f"root {root}: cannot be read ({error})") from error
    if not root.is_dir():
        raise LevelError(f"root {root}: is not a folder")
    return resolved, root


def resolve_reference(
    reference: Any, base: Path, root: Path, what: str, missing: set[Path] | None = None
) -> Path:
    """The real path of a file that a file in ``base`` refers to, which must be inside ``root``.

    Args:
        reference: The file name, as the referring file gives it.
        base: The folder of the referring file.
        root: The folder the file must be in.
        what: What the file is, for messages (``"tileset"``, ``"image"``).
        missing: Where to record a file inside ``root`` that does not exist, rather than refuse
            it (a tileset may name images of tiles no layer draws); None to refuse it.

    Raises:
        BadValueError: The reference is not a file name, is a URL, or names a file outside
            ``root`` or one that does not exist.
    """
    if not isinstance(reference, str) or not reference.strip() or "\0" in reference:
        raise BadValueError(f"{what} {str(reference)[:80]!r} is not a file name")
    if _URL.match(reference) and not Path(reference).is_absolute():
        raise BadValueError(f"{what} {reference[:80]!r} is a URL: only files can be read")
    try:  # the root first: whether a file outside it exists is none of the map's business
        path = (base / reference).resolve()
        inside = path.is_relative_to(root)
        exists = inside and path.exists()
    except (OSError, RuntimeError):  # RuntimeError: a loop of symbolic links
        inside, exists = True, False
    if not inside:
        raise BadValueError(
            f"{what} {reference[:80]!r} is outside {root}; pass "
            "load_level(..., root=...) to allow a wider folder"
        )
    if not exists and missing is not None:
        missing.add(path)
        return path
    if not exists:
        raise BadValueError(f"{what} {reference[:80]!r} does not exist")
    return path


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
