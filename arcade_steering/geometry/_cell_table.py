"""Cell tables for the broad phase's grids: where each cell's listings start, and how many.

A grid numbers its cells ``column * ny + row`` and sorts its listings (capsule indices) by
cell. Up to :data:`MAX_CELLS` cells the table is dense, a row per cell number. A grid
spanning more (a shape far from the rest) keeps only its occupied cells, in a hash table at
most half full, so its memory and lookups follow the shapes, not the distances between them.
Pure numpy.
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_CELLS", "CellTable"]

#: Up to this many cells a table is dense; beyond, hashed.
MAX_CELLS = 1 << 18
#: Fibonacci hashing: a cell number times this (mod 2**64), its top bits, is its home row.
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
#: A hashed cell sits at most this many rows past its home (linear probing; a lookup tries
#: them all in one gather): the table doubles until it does.
_MAX_PROBES = 8


class CellTable:
    """Rows :attr:`first` and :attr:`count` of listings per cell.

    Args:
        cell: The cell number of each listing, ascending, ``[p]``.
        cells: Cells in the grid (``nx * ny``).
    """

    def __init__(self, cell: np.ndarray, cells: int) -> None:
        self._shift: np.uint64 | None = None
        if cells <= MAX_CELLS:
            start = np.zeros(cells + 1, dtype=np.intp)
            np.cumsum(np.bincount(cell, minlength=cells), out=start[1:])
            self.first, self.count = start[:-1], np.diff(start)
            return
        first = np.flatnonzero(np.diff(cell, prepend=-1))
        keys, count = cell[first], np.diff(first, append=len(cell))
        bits = (2 * len(keys) - 1).bit_length()
        while True:  # linear probing, vectorised: sorted by home, a cell takes the next free row
            self._shift = np.uint64(64 - bits)
            home = self._home(keys)
            by_home = np.argsort(home, kind="stable")
            home = home[by_home]
            rank = np.arange(len(keys))
            row = np.maximum.accumulate(home - rank) + rank
            probes = int((row - home).max()) + 1
            if probes <= _MAX_PROBES:
                break
            bits += 1
        rows = (1 << bits) + probes  # the last row always empty: where misses go
        self._cell = np.full(rows, -1, dtype=np.intp)
        self._cell[row] = keys[by_home]
        self.first = np.zeros(rows, dtype=np.intp)
        self.first[row] = first[by_home]
        self.count = np.zeros(rows, dtype=np.intp)
        self.count[row] = count[by_home]
        self._probe = np.arange(probes)

    @property
    def hashed(self) -> tuple[np.ndarray, int, int] | None:
        """A hashed table's cell per row (-1 for none), shift and probes; None for a dense one."""
        if self._shift is None:
            return None
        return self._cell, int(self._shift), len(self._probe)

    def __len__(self) -> int:
        """Rows allocated."""
        return len(self.count)

    def rows(self, cell: np.ndarray) -> np.ndarray:
        """Table rows of cell numbers ``[k]`` (>= 0): the number itself in a dense table, else
        where it was hashed to, or an empty row for an empty cell."""
        if self._shift is None:
            return cell
        home = self._home(cell)
        found = self._cell.take(home[:, None] + self._probe) == cell[:, None]
        home += found.argmax(axis=1)
        return np.where(found.any(axis=1), home, len(self._cell) - 1)

    def _home(self, cell: np.ndarray) -> np.ndarray:
        """Home rows of cell numbers in the hashed table."""
        home = cell.view(np.uint64) * _HASH_MULTIPLIER
        home >>= self._shift
        return home.view(np.intp)
