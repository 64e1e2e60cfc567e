"""Broad phase for :mod:`arcade_steering.geometry`: a uniform grid over capsules.

A capsule is a core segment ``a -> b`` with a radius (a circle: of zero length). Built once
per change of the static geometry, the grid answers "which capsules might touch this box?"
for many boxes at once, as ``(query row, capsule index)`` pairs, rows ascending. Pure numpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from ._cell_lists import crossed_cells, expand_boxes, expand_runs
from ._cell_table import MAX_CELLS, CellTable

__all__ = ["BroadPhase", "CapsuleGrid", "as_column"]

#: Cell numbers ``column * ny + row`` stay below this, in int64.
_MAX_KEY = 1 << 62
#: A hashed grid's capsules' bounding boxes span at most this many cells in all.
_MAX_SPANNED = 4 * MAX_CELLS
_EMPTY_PAIRS = (np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp))
#: Up to this many capsules asked about, every row is tested against every capsule
#: (the grid's bookkeeping costs more than it saves): measured 1.2x faster at 4 shapes and
#: 1.5x slower at 8, for 1,000 rows.
_BRUTE_FORCE_MAX = 5
#: Queries reaching at most ``_HALO_MAX`` px from a point (short rays, feelers, small search
#: radii: the per-frame hot path) look up the one cell holding the point in a grid whose
#: shapes are grown by that reach, rounded up to a multiple of ``_HALO_STEP``: no duplicate
#: pairs, no box expansion (3-5x faster than the box grid for 1,000-3,000 rays of 5-60 px
#: among 150 shapes). Up to ``_HALO_GRIDS`` such grids are kept; longer queries use the box
#: grid.
_HALO_STEP = 8.0
_HALO_MIN_CELL = 8.0
_HALO_GRIDS = 8
_HALO_MAX = 256.0


class CapsuleGrid:
    """Grid of square cells, each listing the capsules that may overlap it.

    A capsule is registered in every cell of its bounding box whose centre lies within
    ``radius + cell_size * sqrt(2) / 2`` of its core segment, so a long diagonal wall is not
    listed in the empty corners of its bounding box. A :class:`CellTable` finds each cell's
    listings: by cell number, or by a hash of it for a grid spanning more than ``MAX_CELLS``.

    Args:
        a: Core segment starts, shape ``[m, 2]``, px.
        b: Core segment ends, shape ``[m, 2]``, px (equal to ``a`` for circles).
        radius: Capsule radii, shape ``[m]``, px, >= 0.
        cell_size: Cell side in px; ``None`` picks one from the capsules' sizes and spread.
        border: Rings of empty cells around the capsules: with one, :meth:`point_pairs`
            sends points outside the grid to an empty edge cell instead of testing them.
    """

    def __init__(
        self,
        a: np.ndarray,
        b: np.ndarray,
        radius: np.ndarray,
        cell_size: float | None = None,
        border: int = 0,
    ) -> None:
        m = len(radius)
        self.size = m
        if m == 0:
            self.cell_size = 1.0
            self.origin = np.zeros(2)
            self.nx = self.ny = 1
            self.table = CellTable(np.zeros(0, dtype=np.intp), 1)
            self.cell_items = np.zeros(0, dtype=np.intp)
            self._scale = 1.0
            return
        lo = np.minimum(a, b) - radius[:, None]
        hi = np.maximum(a, b) + radius[:, None]
        if cell_size is None:
            cell_size = _pick_cell_size(lo, hi)
        cell_size, nx, ny = _fit_cells(float(cell_size), lo, hi, border)
        origin = lo.min(axis=0) - border * cell_size
        self.cell_size, self.origin, self.nx, self.ny = cell_size, origin, nx, ny

        ix0, iy0 = self._cells_of(lo)
        ix1, iy1 = self._cells_of(hi)
        # The far corner of the boxes may round one cell past the last (x / cell_size rounds
        # up to a whole number that x // cell_size, the columns counted, does not reach).
        np.minimum(ix1, nx - 1, out=ix1)
        np.minimum(iy1, ny - 1, out=iy1)
        shape_idx, cx, cy = expand_boxes(ix0, iy0, ix1, iy1)
        keep = _near_core(
            (cx + 0.5) * cell_size + origin[0],
            (cy + 0.5) * cell_size + origin[1],
            a[shape_idx],
            b[shape_idx],
            radius[shape_idx] + cell_size * math.sqrt(0.5),
        )
        shape_idx, cell = shape_idx[keep], (cx * ny + cy)[keep]
        order = np.argsort(cell, kind="stable")
        self.cell_items = shape_idx[order]
        self._scale = 1.0 / cell_size
        self.table = CellTable(cell[order], nx * ny)

    def _cells_of(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Unclipped integer cell coordinates of ``points`` ``[n, 2]``."""
        cells = np.floor((points - self.origin) / self.cell_size)
        # Clamp far outside values before the int cast (inputs are finite, but may be huge).
        np.clip(cells, -1, max(self.nx, self.ny), out=cells)
        cells = cells.astype(np.intp)
        return cells[:, 0], cells[:, 1]

    def listed(self, owner: np.ndarray | None, cell: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(owner, capsule)`` pairs for the capsules listed in each of the cells ``cell``
        ``[k]`` (numbers), each tagged with its ``owner`` (``None``: its position in ``cell``)."""
        table = self.table
        slot = table.rows(cell)
        count = table.count.take(slot)
        busy = np.flatnonzero(count)
        if len(busy) == 0:
            return _EMPTY_PAIRS
        rows, index = expand_runs(
            busy if owner is None else owner.take(busy),
            table.first.take(slot.take(busy)),
            count.take(busy),
        )
        return rows, self.cell_items.take(index)

    def pairs(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Candidate ``(query row, capsule)`` pairs for axis-aligned query boxes.

        A capsule may appear more than once for a row (when it spans several cells the box
        covers); callers reduce with a minimum, so duplicates cost time, not correctness.
        A box spanning more cells than there are capsules lists every capsule instead.

        Args:
            lo: Box lower corners, shape ``[n, 2]``, px.
            hi: Box upper corners, shape ``[n, 2]``, px.

        Returns:
            ``(rows, items)``, two ``[p]`` index arrays, ``rows`` ascending.
        """
        n = len(lo)
        if n == 0 or self.size == 0:
            return _EMPTY_PAIRS
        ix0, iy0 = self._cells_of(lo)
        ix1, iy1 = self._cells_of(hi)
        np.maximum(ix0, 0, out=ix0)
        np.maximum(iy0, 0, out=iy0)
        np.minimum(ix1, self.nx - 1, out=ix1)
        np.minimum(iy1, self.ny - 1, out=iy1)
        wide = np.maximum(ix1 - ix0 + 1, 0) * np.maximum(iy1 - iy0 + 1, 0) > self.size
        wide = np.flatnonzero(wide)
        ix1[wide] = -1  # listed below, whole
        rows, cx, cy = expand_boxes(ix0, iy0, ix1, iy1)
        rows, items = self.listed(rows, cx * self.ny + cy)
        if len(wide) == 0:
            return rows, items
        rows = np.concatenate((rows, np.repeat(wide, self.size)))
        items = np.concatenate((items, np.tile(np.arange(self.size), len(wide))))
        order = np.argsort(rows, kind="stable")
        return rows[order], items[order]

    def segment_pairs(self, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(query row, capsule)`` pairs listing the capsules of every cell each thin
        segment ``starts -> ends`` ``[n, 2]`` crosses (or touches), rows ascending: see
        :func:`~arcade_steering.geometry._cell_lists.crossed_cells`."""
        ray, cell = crossed_cells(self.origin, self.cell_size, self.nx, self.ny, starts, ends)
        return self.listed(ray, cell)

    def point_pairs(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(query row, capsule)`` pairs listing the capsules of the cell holding each point.

        On a grid built with every radius grown by ``margin``, this lists every capsule whose
        surface lies within ``margin`` of the point, each once, in ascending capsule order:
        one cell per query instead of every cell of a box. Built for the per-frame hot path,
        where the count of numpy calls and their memory layout, more than the rows, set the
        cost: 1-D columns in, no broadcasting over pairs of coordinates.

        Args:
            x: Query points' x, shape ``[n]``, px.
            y: Query points' y, shape ``[n]``, px. The grid needs ``border=1``: points off
                the grid are clamped into its empty edge cells.

        Returns:
            ``(rows, items)``, two ``[p]`` index arrays, ``rows`` ascending.
        """
        column = x - self.origin[0]
        column *= self._scale
        np.clip(column, 0.0, self.nx - 1.0, out=column)
        cell = column.astype(np.intp)  # truncation is floor for values >= 0
        cell *= self.ny
        column = y - self.origin[1]
        column *= self._scale
        np.clip(column, 0.0, self.ny - 1.0, out=column)
        cell += column.astype(np.intp)
        return self.listed(None, cell)


class BroadPhase:
    """Candidate ``(query, capsule)`` pairs for many queries at once.

    Short queries (reaching at most ``_HALO_MAX`` px from a point) look up one cell of a grid
    of the capsules grown by their reach; long ones visit every cell of their bounding box
    in the plain grid, then drop pairs whose bounding boxes miss; a handful of capsules are
    all tested.

    Args:
        a: Core segment starts, shape ``[m, 2]``, px.
        b: Core segment ends, shape ``[m, 2]``, px.
        radius: Capsule radii, shape ``[m]``, px.
    """

    def __init__(self, a: np.ndarray, b: np.ndarray, radius: np.ndarray) -> None:
        self.size = len(radius)
        self._a, self._b, self._radius = a, b, radius
        # Bounding boxes [4, m]: min x, min y, max x, max y, px.
        self._box = np.concatenate((np.minimum(a, b).T - radius, np.maximum(a, b).T + radius))
        #: The grid over every capsule, with cells of the broad phase's choice.
        self.grid = CapsuleGrid(a, b, radius)
        self._halos: dict[tuple[float, int, int], CapsuleGrid] = {}

    def pairs(
        self,
        first: int,
        stop: int,
        x: np.ndarray,
        y: np.ndarray,
        reach: float | np.ndarray,
        bounds: Callable[[], tuple[np.ndarray, np.ndarray]],
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(query row, capsule)`` pairs to test, rows ascending, each row's capsules
        ascending and listed once, whichever way the query goes: the first of equal contacts
        then does not depend on the other queries asked with it.

        Args:
            first: First capsule to consider.
            stop: One past the last.
            x: A point per query row, x ``[n]`` px: everything the row asks about lies
                within ``reach`` of it (the middle of a ray, a query point).
            y: The points' y ``[n]`` px.
            reach: Scalar or ``[n]`` px.
            bounds: Returns the rows' bounding boxes ``(lo [n, 2], hi [n, 2])``; called
                only for queries too long for the one-cell lookup.
        """
        n, count = len(x), stop - first
        if count <= 0 or n == 0:
            return _EMPTY_PAIRS
        if count > _BRUTE_FORCE_MAX:
            longest = float(np.maximum.reduce(reach)) if isinstance(reach, np.ndarray) else reach
            if longest <= _HALO_MAX:
                # Exact enough already: a bounding-box pass here costs more than it saves.
                return self._halo(longest, first, stop).point_pairs(x, y)
            lo, hi = bounds()
            rows, items = self.grid.pairs(lo, hi)
            if count < self.size:
                keep = np.flatnonzero((items >= first) & (items < stop))
                rows, items = rows[keep], items[keep]
        else:
            lo, hi = bounds()
            rows = np.repeat(np.arange(n), count)
            items = np.tile(np.arange(first, stop), n)
        # Grid cells are coarse; dropping pairs whose bounding boxes miss each other here
        # halves the pairs the (much dearer) exact kernels see. Gathering from C-ordered
        # [4, n] columns is 5-10x faster than from a transposed view.
        query = np.take(np.concatenate((lo.T, hi.T)), rows, axis=1)
        box = np.take(self._box, items, axis=1)
        overlap = query[0] <= box[2]
        overlap &= query[1] <= box[3]
        overlap &= query[2] >= box[0]
        overlap &= query[3] >= box[1]
        keep = np.flatnonzero(overlap)
        if count > _BRUTE_FORCE_MAX:  # the grid lists a capsule in every cell of the box
            return _each_once(rows[keep], items[keep], self.size)
        return rows[keep], items[keep]

    def segment_pairs(
        self, first: int, stop: int, starts: np.ndarray, ends: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`CapsuleGrid.segment_pairs` among capsules ``first:stop`` only."""
        n, count = len(starts), stop - first
        if count <= 0 or n == 0:
            return _EMPTY_PAIRS
        if count <= _BRUTE_FORCE_MAX:
            return np.repeat(np.arange(n), count), np.tile(np.arange(first, stop), n)
        rows, items = self.grid.segment_pairs(starts, ends)
        if count < self.size:
            keep = np.flatnonzero((items >= first) & (items < stop))
            rows, items = rows[keep], items[keep]
        return rows, items

    def _halo(self, reach: float, first: int, stop: int) -> CapsuleGrid:
        """The grid of shapes ``first:stop`` grown by a margin >= ``reach``, cells as wide.

        It lists the shapes by their numbers among all of them, so that its one query,
        :meth:`CapsuleGrid.point_pairs`, needs no offset.
        """
        margin = _HALO_STEP * max(1, math.ceil(reach / _HALO_STEP))
        key = (margin, first, stop)
        grid = self._halos.get(key)
        if grid is None:
            if len(self._halos) >= _HALO_GRIDS:
                del self._halos[next(iter(self._halos))]  # the oldest
            a, b, radius = self._a[first:stop], self._b[first:stop], self._radius[first:stop]
            cell = max(margin * 0.5, _HALO_MIN_CELL)
            grid = CapsuleGrid(a, b, radius + margin, cell_size=cell, border=1)
            grid.cell_items += first
            self._halos[key] = grid
        return grid


def _each_once(rows: np.ndarray, items: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``(rows, items)`` of ``size`` capsules each once, rows ascending and each
    row's capsules ascending: the order of :meth:`CapsuleGrid.point_pairs`."""
    key = rows * size
    key += items
    key.sort()
    head = np.empty(len(key), dtype=bool)
    head[:1] = True
    np.not_equal(key[1:], key[:-1], out=head[1:])
    rows, items = np.divmod(key[head], size)
    return rows, items


def _pick_cell_size(lo: np.ndarray, hi: np.ndarray) -> float:
    """Cell side (px) from the capsules' bounding boxes ``lo``, ``hi`` ``[m, 2]``.

    Cells of about the size of a typical capsule (or of the space per capsule, if larger)
    keep both the cells a capsule is listed in and the cells a query box of ~100 px visits
    to a few; measured best within 0.5-2x of this on 150-500 shapes. The space per capsule
    leaves out the outermost 1% of the capsules on each side, so that a few far from the
    rest do not make every cell coarse.
    """
    m = len(lo)
    typical = _median((hi - lo).max(axis=1))
    centres = np.sort(lo + hi, axis=0) * 0.5
    trim = m // 100
    extent = np.maximum(centres[m - 1 - trim] - centres[trim] + typical, 1.0)
    spread = float(np.sqrt(extent[0] * extent[1] / m))
    return max(0.75 * typical, 0.75 * spread, 16.0)


def _fit_cells(
    cell_size: float, lo: np.ndarray, hi: np.ndarray, border: int
) -> tuple[float, int, int]:
    """``(cell_size, nx, ny)``: the cell side for a grid over the bounding boxes ``lo``,
    ``hi`` ``[m, 2]`` and ``border`` rings around them, and its columns and rows.

    A dense table grows the cells until it has at most ``MAX_CELLS``; a hashed one until the
    boxes span at most ``_MAX_SPANNED`` cells in all (listing a capsule visits every cell of
    its box, so that bounds the memory a build takes). The dense one is kept unless its cells
    would be more than twice as wide: the table is then mostly empty space (a shape far from
    the rest), which the hashed one does not hold.
    """
    origin = lo.min(axis=0)
    extent = np.maximum(hi.max(axis=0) - origin, 1.0)

    def grid(size: float) -> tuple[int, int]:
        return int(extent[0] // size) + 1 + 2 * border, int(extent[1] // size) + 1 + 2 * border

    def fits_hashed(size: float) -> bool:
        if math.prod(grid(size)) >= _MAX_KEY:
            return False
        span = np.floor((hi - origin) / size) - np.floor((lo - origin) / size)
        span += 1.0
        return float(np.dot(span[:, 0], span[:, 1])) <= _MAX_SPANNED

    dense = hashed = cell_size
    while math.prod(grid(dense)) > MAX_CELLS:
        dense *= 1.5
    while 2.0 * hashed < dense and not fits_hashed(hashed):
        hashed *= 1.5
    size = dense if dense <= 2.0 * hashed else hashed
    return size, *grid(size)


def _near_core(
    px: np.ndarray, py: np.ndarray, a: np.ndarray, b: np.ndarray, reach: np.ndarray
) -> np.ndarray:
    """Whether points ``(px, py)`` lie within ``reach`` of segments ``a -> b`` ``[p, 2]``."""
    ex, ey = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    wx, wy = px - a[:, 0], py - a[:, 1]
    length2 = ex * ex + ey * ey
    t = np.clip((wx * ex + wy * ey) / np.where(length2 > 0, length2, 1.0), 0.0, 1.0)
    dx, dy = wx - t * ex, wy - t * ey
    return dx * dx + dy * dy <= reach * reach


def as_column(value: float | np.ndarray) -> float | np.ndarray:
    """A per-row ``(n,)`` value as a column ``(n, 1)`` to pad ``(n, 2)`` points; a scalar as is."""
    return value[:, None] if isinstance(value, np.ndarray) else value


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D array, to the bit, without its import of ``numpy.ma``
    (some 6 ms on a game's first update)."""
    ordered = np.sort(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return float(ordered[middle])
    return float((ordered[middle - 1] + ordered[middle]) / 2)
