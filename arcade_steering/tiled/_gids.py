"""The map's tile ids (gids): the range each of its tilesets spans, and the check that a gid
drawn by a tile layer or a tile object is a tile arcade can draw."""

from __future__ import annotations

import numpy as np

from ._errors import BadValueError

#: What a tileset spans: its number of gids, and the local ids it draws (None: all of them).
Span = tuple[int, set[int] | None]
#: A gid without the flip flags arcade reads (horizontal, vertical, diagonal).
_GID_MASK = 0x1FFFFFFF


class GidRanges:
    """The gids of the map's tilesets."""

    def __init__(self) -> None:
        #: Each tileset's first gid, gids spanned, and the local ids drawn (None: all).
        self.ranges: list[tuple[int, int, set[int] | None]] = []

    def add(self, firstgid: int, count: int, drawn: set[int] | None) -> None:
        """Record a tileset's gids, which must not overlap another's (arcade would take the
        first tileset listed)."""
        for other, other_count, _ in self.ranges:
            if firstgid < other + other_count and other < firstgid + count:
                raise BadValueError(
                    f"its gids {firstgid}..{firstgid + count - 1} overlap another tileset's "
                    f"{other}..{other + other_count - 1}"
                )
        self.ranges.append((firstgid, count, drawn))

    def check(self, gids: np.ndarray) -> None:
        """Every non-zero gid (flip flags aside) must be a tile arcade can draw."""
        gids = np.unique(gids.astype(np.int64))
        local = gids[gids != 0] & _GID_MASK
        firsts = np.array(sorted(first for first, _, _ in self.ranges), dtype=np.int64)
        ranges = {first: (count, drawn) for first, count, drawn in self.ranges}
        index = np.searchsorted(firsts, local, side="right") - 1
        for gid, row in zip(local.tolist(), index.tolist(), strict=True):
            count, drawn = ranges[int(firsts[row])] if row >= 0 else (0, None)
            offset = gid - int(firsts[row]) if row >= 0 else gid
            if not 0 <= offset < count or (drawn is not None and offset not in drawn):
                raise BadValueError(f"tile gid {gid} is in no tileset, or its image is missing")
