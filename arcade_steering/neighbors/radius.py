"""RadiusIndex: every other agent within a radius of each asking agent, on a uniform grid."""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._util.masks import every
from .._util.vec import stack_columns
from ._cells import CELL_MARGIN, CELL_PAD, MAX_CELLS_PER_AXIS, CellGrid
from .pairs import NeighborPairs

__all__ = ["RadiusIndex"]

#: An index of at most this many agents answers a query by testing every pair at once: for
#: so few, building a grid costs more than it saves. (Decided by the index, not the query, so
#: an agent's pairs come in the same order whoever else asks with it.)
ALL_PAIRS_MAX = 64
# Rows go in blocks of about this many candidates (see RadiusIndex._scan).
_BLOCK = 2**14
_EMPTY = np.empty(0)
# The smallest cell: sqrt(tiny), below which dx*dx + dy*dy underflows to 0.
_MIN_CELL = math.sqrt(float(np.finfo(np.float64).tiny))


class RadiusIndex:
    """Spatial index over all agents' positions, built once per update.

    Args:
        positions: (n, 2) float, px. Copied; later changes to the array are not seen.
        cell_size: px. If given, queries whose radii are all at most this size share one grid
            of this cell size (good when the radii in use are known, e.g. the largest group
            radius). A query with a larger radius, or any query when None, uses a grid with
            cells of its largest radius. Grids are built on first use and cached on this index.

    Raises:
        ValueError: if positions is not (n, 2), not finite, or spans more than float64 can
            hold; if cell_size is not positive and finite.
    """

    def __init__(self, positions: np.ndarray, cell_size: float | None = None) -> None:
        positions = np.array(positions, dtype=np.float64)
        if positions.size == 0:
            positions = positions.reshape(0, 2)
        if positions.ndim != 2 or positions.shape[1] != 2:
            raise ValueError(f"positions must have shape (n, 2), got {positions.shape}")
        if not every(np.isfinite(positions)):
            raise ValueError("positions must be finite")
        if cell_size is not None and not (math.isfinite(cell_size) and cell_size > 0.0):
            raise ValueError(f"cell_size must be positive and finite, got {cell_size!r}")
        self._positions = positions
        self._x = np.ascontiguousarray(positions[:, 0])
        self._y = np.ascontiguousarray(positions[:, 1])
        self._cell_size = None if cell_size is None else float(cell_size)
        self._grids: dict[float, CellGrid] = {}
        if len(positions):
            # Per-column reductions: min(axis=0) over (n, 2) is strided and ~50x slower.
            lower_x, lower_y = float(self._x.min()), float(self._y.min())
            self._lower = np.array([lower_x, lower_y])
            # Python floats overflow to inf silently, numpy ones warn.
            width = float(self._x.max()) - lower_x
            height = float(self._y.max()) - lower_y
            span = max(width, height)
            if not math.isfinite(span):
                raise ValueError("positions span more than float64 can hold")
            self._span = span
            # The agents' bounding box, px², widened to the average spacing of agents on a line.
            self._area = max(width, span / len(positions)) * max(height, span / len(positions))
            # Cells at least this large keep cell coordinates below 2**30, and never smaller
            # than sqrt(tiny): closer agents have dx*dx + dy*dy == 0, so they must share a cell.
            self._min_cell = max(span / MAX_CELLS_PER_AXIS, _MIN_CELL)

    def __len__(self) -> int:
        """Number of agents n."""
        return len(self._positions)

    @property
    def positions(self) -> np.ndarray:
        """(n, 2) float, px: the positions the index was built from (read-only view)."""
        view = self._positions.view()
        view.flags.writeable = False
        return view

    @property
    def x(self) -> np.ndarray:
        """(n,) float, px: the positions' x, contiguous (do not modify)."""
        return self._x

    @property
    def y(self) -> np.ndarray:
        """(n,) float, px: the positions' y, contiguous (do not modify)."""
        return self._y

    def query(
        self,
        rows: np.ndarray | None,
        radius: float | np.ndarray,
        candidates: np.ndarray | None = None,
        groups: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> NeighborPairs:
        """Find, for each asking agent, every other agent within its radius.

        Args:
            rows: (q,) int indices into positions of the asking agents (repeats allowed), or
                None for all n agents in order.
            radius: px, scalar or (q,) per asking agent; a neighbour at distance
                ``<= radius`` counts. ``inf`` finds every agent.
            candidates: (n,) bool, which agents may be neighbours (e.g. an ``among=`` sprite
                list); None = all.
            groups: ``(labels, asked)``: each agent's group ``(n,)`` int (-1 for none) and the
                group each asking agent looks in ``(q,)`` int >= 0; an agent's neighbours are
                then only the agents of the group it asks about. Where many groups share the
                space (squads on one road), each group gets a grid of its own, so the other
                groups' agents cost nothing.

        Returns:
            NeighborPairs with ``n_queries = q``.

        Raises:
            TypeError: if rows is not an integer array, candidates not bool, or the labels of
                groups not integers.
            ValueError: on bad shapes, out-of-range rows, a negative or NaN radius, or a
                negative asked group.
        """
        n = len(self._positions)
        rows = self._check_rows(rows, n)
        q = len(rows)
        radius, largest = self._check_radius(radius, q)
        candidates = self._check_candidates(candidates, n)
        labels, asked, n_groups = self._check_groups(groups, n, q)
        if q == 0:
            return NeighborPairs.empty(0)
        limit = radius * radius
        if n <= ALL_PAIRS_MAX:
            return self._all_pairs(rows, limit, candidates, labels, asked)
        if labels is None:
            grid = self._grid_for(largest)
        else:
            grid = self._grid_of_size(self._cell_for(largest), labels, n_groups)
        reach = largest / grid.cell_size
        reach = reach + reach * 1e-12 + CELL_MARGIN
        reach = max(1, math.ceil(min(reach, max(grid.nx, grid.ny))))
        start, counts = grid.cell_ranges(rows, reach, asked)
        # Column by column: sum(axis=1) over a few columns is several times slower.
        per_row = counts[:, 0].copy()
        for column in range(1, counts.shape[1]):
            per_row += counts[:, column]
        first = np.arange(0, counts.size + 1, counts.shape[1])
        asker, other, offset, dist2 = self._scan(
            grid, rows, limit, start.ravel(), counts.ravel(), first, per_row, candidates
        )
        return NeighborPairs(asker, other, offset, np.sqrt(dist2), q)

    def _all_pairs(
        self,
        rows: np.ndarray,
        limit: float | np.ndarray,
        candidates: np.ndarray | None,
        labels: np.ndarray | None,
        asked: np.ndarray | None,
    ) -> NeighborPairs:
        """:meth:`query` for few agents: every asking agent against every agent at once, the
        same pairs (and numbers) as the grid finds, with no grid to build. Pairs come in the
        order of ``other``. ``labels`` and ``asked`` are :meth:`query`'s groups, both or
        neither."""
        q = len(rows)
        dx = self._x - self._x[rows, None]  # (q, n)
        dy = self._y - self._y[rows, None]
        dist2 = dx * dx + dy * dy
        keep = dist2 <= (limit if isinstance(limit, float) else limit[:, None])
        keep[np.arange(q), rows] = False  # not itself
        if candidates is not None:
            keep &= candidates
        if labels is not None and asked is not None:
            keep &= labels == asked[:, None]
        near = np.flatnonzero(keep)
        asker, other = np.divmod(near, len(self._x))
        offset = stack_columns(dx.ravel()[near], dy.ravel()[near])
        return NeighborPairs(asker, other, offset, np.sqrt(dist2.ravel()[near]), q)

    def _scan(
        self,
        grid: CellGrid,
        rows: np.ndarray,
        limit: float | np.ndarray,
        start: np.ndarray,
        counts: np.ndarray,
        first: np.ndarray,
        per_row: np.ndarray,
        candidates: np.ndarray | None,
        offsets: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs within ``limit`` (squared px) in the given slices: asker, other, offset, dist2.

        Row ``i`` scans slices ``first[i]:first[i + 1]`` of ``start``/``counts`` (an odd number
        of columns, its own in the middle), ``per_row[i]`` agents in all. Without
        ``offsets``, offset is empty.
        """
        if candidates is not None:
            candidates = candidates.take(grid.order)  # in sorted order, as the slices are
        own = first[:-1] + first[1:]
        own >>= 1
        ends = per_row.cumsum()
        if not len(ends) or ends[-1] <= _BLOCK:
            return self._block(grid, rows, limit, start, counts, own, per_row, candidates, offsets)
        # Rows go in blocks of about _BLOCK candidates: the temporaries of a block stay small
        # enough for the allocator to reuse, where one big batch page-faults (~1.5x slower).
        cuts = np.searchsorted(ends, np.arange(_BLOCK, ends[-1], _BLOCK), side="right")
        bounds = np.unique(np.concatenate(([0], cuts, [len(rows)]))).tolist()
        blocks = []
        for a, b in itertools.pairwise(bounds):
            c, d = int(first[a]), int(first[b])
            asker, *rest = self._block(
                grid,
                rows[a:b],
                limit if isinstance(limit, float) else limit[a:b],
                start[c:d],
                counts[c:d],
                own[a:b] - c,
                per_row[a:b],
                candidates,
                offsets,
            )
            asker += a
            blocks.append((asker, *rest))
        return tuple(np.concatenate(part) for part in zip(*blocks, strict=True))  # type: ignore[return-value]

    def _block(
        self,
        grid: CellGrid,
        rows: np.ndarray,
        limit: float | np.ndarray,
        start: np.ndarray,
        counts: np.ndarray,
        own: np.ndarray,
        per_row: np.ndarray,
        candidates: np.ndarray | None,
        offsets: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs of one block of asking agents: asker, other, offset, dist2.

        ``own`` is each row's slice of its own cell's column. ``candidates`` is in the grid's
        sorted order. Pairs come in the order of the slices.
        """
        # Where each slice's agents begin among the candidates.
        begin = counts.cumsum()
        begin -= counts
        # Ragged arange: for each slice, start, start + 1, ..., start + count - 1, concatenated.
        sorted_idx = (start - begin).repeat(counts)
        sorted_idx += np.arange(len(sorted_idx))
        # Rows of (x, y): one take() and one repeat() cost about what one of a column does.
        offset = grid.sorted_positions.take(sorted_idx, axis=0)
        offset -= self._positions.take(rows, axis=0).repeat(per_row, axis=0)
        square = offset * offset
        dist2 = square[:, 0] + square[:, 1]
        keep = dist2 <= (limit if isinstance(limit, float) else limit.repeat(per_row))
        # Not itself: an asking agent is in its own cell's slice, at its rank in sorted order
        # (unless that slice is of another group's grid).
        place = grid.rank.take(rows)
        place -= start.take(own)
        inside = place < counts.take(own)
        inside &= place >= 0
        place += begin.take(own)
        keep[place.compress(inside)] = False
        if candidates is not None:
            keep &= candidates.take(sorted_idx)
        near = np.flatnonzero(keep)
        asker = np.arange(len(rows)).repeat(per_row).take(near)
        other = grid.order.take(sorted_idx.take(near))
        if not offsets:
            return asker, other, _EMPTY, dist2.take(near)
        return asker, other, offset.take(near, axis=0), dist2.take(near)

    @staticmethod
    def _check_radius(radius: float | np.ndarray, q: int) -> tuple[float | np.ndarray, float]:
        """The radius as a float or a (q,) array, and the largest one."""
        radius = np.asarray(radius, dtype=np.float64)
        if radius.ndim == 0:
            largest = float(radius)
            bad = not largest >= 0.0
            value: float | np.ndarray = largest
        elif radius.shape == (q,):
            # min() is NaN if any radius is NaN, and NaN >= 0 is false.
            bad = q > 0 and not radius.min() >= 0.0
            largest = float(radius.max()) if q else 0.0
            value = radius
        else:
            raise ValueError(f"radius must be a scalar or have shape (q,) with q={q}")
        if bad:
            raise ValueError("radius must be >= 0 and not NaN")
        return value, largest

    @staticmethod
    def _check_candidates(candidates: np.ndarray | None, n: int) -> np.ndarray | None:
        if candidates is None:
            return None
        candidates = np.asarray(candidates)
        if candidates.dtype != np.bool_:
            raise TypeError("candidates must be a bool mask")
        if candidates.shape != (n,):
            raise ValueError(f"candidates must have shape (n,) with n={n}")
        return candidates

    @staticmethod
    def _check_rows(rows: np.ndarray | None, n: int) -> np.ndarray:
        if rows is None:
            return np.arange(n)
        rows = np.asarray(rows)
        if rows.size == 0:
            return np.empty(0, dtype=np.intp)
        if rows.dtype.kind not in "iu":
            raise TypeError("rows must be an integer array")
        if rows.ndim != 1:
            raise ValueError(f"rows must have shape (q,), got {rows.shape}")
        if rows.min() < 0 or rows.max() >= n:
            raise ValueError(f"rows must index agents 0..{n - 1}")
        return rows.astype(np.intp, copy=False)

    @staticmethod
    def _check_groups(
        groups: tuple[np.ndarray, np.ndarray] | None, n: int, q: int
    ) -> tuple[np.ndarray | None, np.ndarray | None, int]:
        """Labels ``(n,)`` with the unlabelled agents in a group of their own, nobody asks
        about, the asked groups ``(q,)``, and how many groups there are with that one (more
        than any label or asked group: the asked ones may have no agent); None, None, 0
        without groups."""
        if groups is None:
            return None, None, 0
        labels, asked = (np.asarray(each) for each in groups)
        if labels.dtype.kind not in "iu" or asked.dtype.kind not in "iu":
            raise TypeError("groups must be integer arrays (labels, asked)")
        if labels.shape != (n,) or asked.shape != (q,):
            raise ValueError(f"groups must have shapes (n,) and (q,) with n={n}, q={q}")
        if q and asked.min() < 0:
            raise ValueError("groups: asked groups must be >= 0")
        nobody = max(int(labels.max()) if n else 0, int(asked.max()) if q else 0) + 1
        labels = np.where(labels >= 0, labels, nobody).astype(np.intp, copy=False)
        return labels, asked.astype(np.intp, copy=False), nobody + 1

    def _cell_for(self, radius: float) -> float:
        """Cell size (px) for a query whose largest radius is ``radius``."""
        if self._cell_size is not None and radius <= self._cell_size:
            size = self._cell_size
        else:
            # No cell need exceed the agents' extent: one cell then holds everybody.
            size = min(radius, self._span)
        return size * CELL_PAD

    def _grid_for(self, radius: float) -> CellGrid:
        """The grid whose cells suit a query whose largest radius is ``radius``."""
        return self._grid_of_size(self._cell_for(radius))

    def _grid_of_size(
        self, size: float, labels: np.ndarray | None = None, groups: int = 0
    ) -> CellGrid:
        """The grid with cells of ``size`` px (at least the smallest safe size); cached
        unless ``labels`` (``groups`` of them) give each group a grid of its own."""
        size = float(max(size, self._min_cell))
        if labels is not None:
            return CellGrid(self._positions, self._x, self._y, self._lower, size, labels, groups)
        grid = self._grids.get(size)
        if grid is None:
            grid = self._grids[size] = CellGrid(
                self._positions, self._x, self._y, self._lower, size
            )
        return grid
