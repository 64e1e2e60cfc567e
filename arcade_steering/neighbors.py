"""Spatial index for agent-agent neighbour queries.

A :class:`NeighborIndex` is built once per world update from every agent's position and shared
by all group behaviours (separation, alignment, cohesion, predictive avoidance, ...). A query
asks, for a batch of agents at once, which other agents lie within a radius, and answers with
flat pair arrays (:class:`NeighborPairs`) that reduce per asking agent without Python loops.

The index is a uniform grid in numpy: agents are sorted by cell, and an asking agent scans the
columns of cells around its own. Cells are sized from the query radius, so a query scans 3 x 3
cells whatever its radius; a grid is built on first use and reused by later queries with the
same cell size. No query does O(n²) work.

Example:
    >>> import numpy as np
    >>> index = NeighborIndex(np.array([[0.0, 0.0], [3.0, 4.0], [100.0, 0.0]]))
    >>> pairs = index.query(np.array([0, 2]), radius=10.0)
    >>> pairs.query.tolist(), pairs.other.tolist(), pairs.distance.tolist()
    ([0], [1], [5.0])
    >>> pairs.count().tolist()
    [1, 0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

__all__ = ["NeighborIndex", "NeighborPairs"]

# Cells are made this much larger than asked, so that a radius equal to the cell size still
# scans 3 x 3 cells despite the safety margin below.
_CELL_PAD = 1.0 + 1e-4
# Cell coordinates are kept below 2**30 per axis, so cell keys fit int64 and the float error
# of a cell coordinate stays below ~4e-7 cells; _CELL_MARGIN covers that error twice over.
_MAX_CELLS_PER_AXIS = 2.0**30
_CELL_MARGIN = 1e-6
# Below this many cells per agent a dense cell table beats binary search.
_DENSE_CELLS_PER_AGENT = 4
_RADIX_CELLS = 2**16
_BLOCK = 2**14


@dataclass(frozen=True)
class NeighborPairs:
    """Neighbour pairs found by :meth:`NeighborIndex.query`, as flat arrays.

    Pair ``i`` says that agent ``other[i]`` is a neighbour of the asking agent in batch position
    ``query[i]``. Pairs are grouped by ``query`` (non-decreasing); their order inside a group is
    deterministic but otherwise unspecified. An agent is never its own neighbour; coincident
    agents are neighbours at distance 0.

    Attributes:
        query: (p,) int, position of the asking agent in the query's ``rows`` (0..q-1).
        other: (p,) int, index of the neighbour in the index's positions.
        offset: (p, 2) float, px: ``positions[other] - positions[rows[query]]``.
        distance: (p,) float, px: length of ``offset``.
        n_queries: q, the number of asking agents; reductions return q rows.
    """

    query: np.ndarray
    other: np.ndarray
    offset: np.ndarray
    distance: np.ndarray
    n_queries: int

    def __len__(self) -> int:
        """Number of pairs p."""
        return len(self.query)

    def count(self) -> np.ndarray:
        """Number of neighbours of each asking agent.

        Returns:
            (q,) int.
        """
        return np.bincount(self.query, minlength=self.n_queries)

    def sum(self, values: np.ndarray) -> np.ndarray:
        """Sum per-pair values over each asking agent's neighbours.

        Args:
            values: (p,) or (p, k) numbers, one row per pair.

        Returns:
            (q,) or (q, k) float; 0 for an agent without neighbours.
        """
        values = np.asarray(values, dtype=np.float64)
        if values.shape[:1] != (len(self),) or values.ndim not in (1, 2):
            raise ValueError(f"values must have shape (p,) or (p, k) with p={len(self)}")
        if values.ndim == 1:
            return np.bincount(self.query, weights=values, minlength=self.n_queries)
        if values.shape[1] == 2:  # vectors: one bincount over the flat (p, 2) values
            flat = np.ascontiguousarray(values).ravel()
            return np.bincount(self._query2, weights=flat, minlength=2 * self.n_queries).reshape(
                self.n_queries, 2
            )
        out = np.empty((self.n_queries, values.shape[1]))
        for column in range(values.shape[1]):  # k is small
            out[:, column] = np.bincount(
                self.query, weights=values[:, column], minlength=self.n_queries
            )
        return out

    @cached_property
    def _query2(self) -> np.ndarray:
        """(2p,) int: the bin of each element of flat (p, 2) values, ``2 query + column``;
        built once, shared by every rule summing vectors over these pairs."""
        bins = np.repeat(2 * self.query, 2)
        bins[1::2] += 1
        return bins

    def mean(self, values: np.ndarray, empty: float = 0.0) -> np.ndarray:
        """Average per-pair values over each asking agent's neighbours.

        For cohesion, ``mean(offset)`` is the way from an agent to its neighbours' centre; for
        alignment, ``mean(velocity[other])`` is the neighbours' mean velocity.

        Args:
            values: (p,) or (p, k) numbers, one row per pair.
            empty: value given to agents without neighbours.

        Returns:
            (q,) or (q, k) float.
        """
        total = self.sum(values)
        count = self.count()
        scale = 1.0 / np.maximum(count, 1)
        out = total * (scale if total.ndim == 1 else scale[:, None])
        out[count == 0] = empty
        return out

    def argmin(self, keys: np.ndarray) -> np.ndarray:
        """For each asking agent, the pair with the smallest key (e.g. time to collision).

        Args:
            keys: (p,) float per pair. NaN keys are skipped; ties go to the earlier pair.

        Returns:
            (q,) int index into the pair arrays (use ``other[i]``, ``keys[i]``), -1 for an
            agent with no pair (or only NaN keys).
        """
        keys = np.asarray(keys, dtype=np.float64)
        if keys.shape != (len(self),):
            raise ValueError(f"keys must have shape (p,) with p={len(self)}")
        valid = np.flatnonzero(~np.isnan(keys))
        rows = self.query[valid]
        row_min = np.full(self.n_queries, np.inf)
        np.minimum.at(row_min, rows, keys[valid])
        hits = valid[keys[valid] == row_min[rows]]
        first = np.full(self.n_queries, len(self), dtype=np.intp)
        np.minimum.at(first, self.query[hits], hits)
        first[first == len(self)] = -1
        return first

    def select(self, mask: np.ndarray) -> NeighborPairs:
        """Keep the pairs where ``mask`` is true.

        Args:
            mask: (p,) bool.

        Returns:
            NeighborPairs with the same ``n_queries``.
        """
        mask = np.asarray(mask, dtype=bool)
        if mask.shape != (len(self),):
            raise ValueError(f"mask must have shape (p,) with p={len(self)}")
        return NeighborPairs(
            self.query[mask],
            self.other[mask],
            self.offset[mask],
            self.distance[mask],
            self.n_queries,
        )

    def within_fov(self, headings: np.ndarray, fov_degrees: float | np.ndarray) -> NeighborPairs:
        """Keep the neighbours inside each asking agent's field of view.

        A neighbour is seen when the angle between the agent's heading and the offset to the
        neighbour is at most ``fov_degrees / 2``. Coincident neighbours (distance 0) are kept.

        Args:
            headings: (q,) radians, counter-clockwise from +x (``atan2(vy, vx)``).
            fov_degrees: full view angle in degrees (0..360, 360 sees all), scalar or (q,).

        Returns:
            NeighborPairs with the same ``n_queries``.
        """
        headings = np.asarray(headings, dtype=np.float64)
        if headings.shape != (self.n_queries,):
            raise ValueError(f"headings must have shape (q,) with q={self.n_queries}")
        fov = np.broadcast_to(np.asarray(fov_degrees, dtype=np.float64), (self.n_queries,))
        if np.any(np.isnan(fov)) or np.any(fov < 0.0):
            raise ValueError("fov_degrees must be >= 0")
        cos_half = np.cos(np.radians(np.minimum(fov, 360.0) / 2.0))[self.query]
        angle = headings[self.query]
        dot = self.offset[:, 0] * np.cos(angle) + self.offset[:, 1] * np.sin(angle)
        keep = (
            (dot >= self.distance * cos_half) | (self.distance == 0.0) | (fov >= 360.0)[self.query]
        )
        return self.select(keep)

    @classmethod
    def empty(cls, n_queries: int = 0) -> NeighborPairs:
        """Pairs for ``n_queries`` asking agents none of which has a neighbour."""
        return cls(
            np.empty(0, np.intp), np.empty(0, np.intp), np.empty((0, 2)), np.empty(0), n_queries
        )


class _Grid:
    """Agents sorted by the cell of a uniform grid.

    Cell ``(ix, iy)`` has key ``ix * ny + iy``. The occupied cells are framed by one empty
    cell on every side, so that the 3 x 3 cells around any agent exist and need no clipping.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, lower: np.ndarray, cell_size: float) -> None:
        self.cell_size = cell_size
        self.cx = np.floor((x - lower[0]) / cell_size).astype(np.intp) + 1
        self.cy = np.floor((y - lower[1]) / cell_size).astype(np.intp) + 1
        self.nx = int(self.cx.max()) + 2
        self.ny = int(self.cy.max()) + 2
        keys = self.cx * self.ny + self.cy
        n_cells = self.nx * self.ny
        if n_cells <= _RADIX_CELLS:
            # numpy radix-sorts 16-bit keys: about 6x faster than sorting int64.
            self.order = keys.astype(np.uint16).argsort(kind="stable")
        else:
            self.order = keys.argsort(kind="stable")
        self.sorted_keys = keys.take(self.order)
        self.sorted_x = x.take(self.order)
        self.sorted_y = y.take(self.order)
        self.starts: np.ndarray | None = None
        if n_cells <= max(_DENSE_CELLS_PER_AGENT * len(x), _RADIX_CELLS):
            self.starts = np.zeros(n_cells + 1, dtype=np.intp)
            np.cumsum(np.bincount(keys, minlength=n_cells), out=self.starts[1:])

    def _slices(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bounds in sorted order of the agents whose cell keys are in ``[lo, hi)``."""
        if self.starts is not None:
            return self.starts.take(lo), self.starts.take(hi)
        return np.searchsorted(self.sorted_keys, lo), np.searchsorted(self.sorted_keys, hi)

    def cell_ranges(self, rows: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
        """Where, in sorted order, the agents around each asking agent lie.

        Each asking agent scans 2 reach + 1 columns of 2 reach + 1 cells; the cells of one
        column have consecutive keys, so they are one slice of the sorted agents.

        Returns:
            (q, 2 reach + 1) int slice starts and (q, 2 reach + 1) int slice lengths.
        """
        cx = self.cx.take(rows)
        cy = self.cy.take(rows)
        if reach == 1:
            lo = (cx * self.ny + cy - (self.ny + 1))[:, None] + np.array([0, self.ny, 2 * self.ny])
            start, stop = self._slices(lo, lo + 3)
            stop -= start
            return start, stop
        columns = cx[:, None] + np.arange(-reach, reach + 1)
        inside = (columns >= 0) & (columns < self.nx)
        columns = np.where(inside, columns, 0) * self.ny
        lo = columns + np.maximum(cy - reach, 0)[:, None]
        hi = columns + np.minimum(cy + reach + 1, self.ny)[:, None]
        start, stop = self._slices(lo, hi)
        return start, np.where(inside, stop - start, 0)


class NeighborIndex:
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
        if not np.all(np.isfinite(positions)):
            raise ValueError("positions must be finite")
        if cell_size is not None and not (math.isfinite(cell_size) and cell_size > 0.0):
            raise ValueError(f"cell_size must be positive and finite, got {cell_size!r}")
        self._positions = positions
        self._x = np.ascontiguousarray(positions[:, 0])
        self._y = np.ascontiguousarray(positions[:, 1])
        self._cell_size = None if cell_size is None else float(cell_size)
        self._grids: dict[float, _Grid] = {}
        if len(positions):
            # Per-column reductions: min(axis=0) over (n, 2) is strided and ~50x slower.
            lower_x, lower_y = float(self._x.min()), float(self._y.min())
            self._lower = np.array([lower_x, lower_y])
            # Python floats overflow to inf silently, numpy ones warn.
            span = max(float(self._x.max()) - lower_x, float(self._y.max()) - lower_y)
            if not math.isfinite(span):
                raise ValueError("positions span more than float64 can hold")
            self._span = span
            # Cells at least this large keep cell coordinates below 2**30, and never smaller
            # than sqrt(tiny): closer agents have dx*dx + dy*dy == 0, so they must share a cell.
            self._min_cell = max(
                span / _MAX_CELLS_PER_AXIS, math.sqrt(float(np.finfo(np.float64).tiny))
            )

    def __len__(self) -> int:
        """Number of agents n."""
        return len(self._positions)

    @property
    def positions(self) -> np.ndarray:
        """(n, 2) float, px: the positions the index was built from (read-only view)."""
        view = self._positions.view()
        view.flags.writeable = False
        return view

    def query(
        self,
        rows: np.ndarray | None,
        radius: float | np.ndarray,
        candidates: np.ndarray | None = None,
    ) -> NeighborPairs:
        """Find, for each asking agent, every other agent within its radius.

        Args:
            rows: (q,) int indices into positions of the asking agents (repeats allowed), or
                None for all n agents in order.
            radius: px, scalar or (q,) per asking agent; a neighbour at distance
                ``<= radius`` counts. ``inf`` finds every agent.
            candidates: (n,) bool, which agents may be neighbours (e.g. an ``among=`` sprite
                list); None = all.

        Returns:
            NeighborPairs with ``n_queries = q``.

        Raises:
            TypeError: if rows is not an integer array or candidates not bool.
            ValueError: on bad shapes, out-of-range rows, or a negative or NaN radius.
        """
        n = len(self._positions)
        rows = self._check_rows(rows, n)
        q = len(rows)
        radius = np.asarray(radius, dtype=np.float64)
        if radius.ndim == 0:
            largest = float(radius)
            bad = not largest >= 0.0
            limit: float | np.ndarray = largest * largest
        elif radius.shape == (q,):
            # min() is NaN if any radius is NaN, and NaN >= 0 is false.
            bad = q > 0 and not radius.min() >= 0.0
            largest = float(radius.max()) if q else 0.0
            limit = radius * radius
        else:
            raise ValueError(f"radius must be a scalar or have shape (q,) with q={q}")
        if bad:
            raise ValueError("radius must be >= 0 and not NaN")
        if candidates is not None:
            candidates = np.asarray(candidates)
            if candidates.dtype != np.bool_:
                raise TypeError("candidates must be a bool mask")
            if candidates.shape != (n,):
                raise ValueError(f"candidates must have shape (n,) with n={n}")
        if q == 0:
            return NeighborPairs.empty(0)

        grid = self._grid_for(largest)
        reach = largest / grid.cell_size
        reach = reach + reach * 1e-12 + _CELL_MARGIN
        reach = max(1, math.ceil(min(reach, max(grid.nx, grid.ny))))
        start, counts = grid.cell_ranges(rows, reach)
        # Column by column: sum(axis=1) over a few columns is several times slower.
        per_row = counts[:, 0].copy()
        for column in range(1, counts.shape[1]):
            per_row += counts[:, column]
        ends = np.cumsum(per_row)
        if ends[-1] <= _BLOCK:
            block = self._block(grid, rows, limit, start, counts, per_row, candidates)
            return NeighborPairs(*block, q)
        # Rows go in blocks of about _BLOCK candidates: the temporaries of a block stay small
        # enough for the allocator to reuse, where one big batch page-faults (~1.5x slower).
        cuts = np.searchsorted(ends, np.arange(_BLOCK, ends[-1], _BLOCK), side="right")
        bounds = np.unique(np.concatenate(([0], cuts, [q])))
        blocks = []
        for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
            block_limit = limit if isinstance(limit, float) else limit[a:b]
            query, other, offset, distance = self._block(
                grid, rows[a:b], block_limit, start[a:b], counts[a:b], per_row[a:b], candidates
            )
            query += a
            blocks.append((query, other, offset, distance))
        return NeighborPairs(*(np.concatenate(parts) for parts in zip(*blocks, strict=True)), q)

    def _block(
        self,
        grid: _Grid,
        rows: np.ndarray,
        limit: float | np.ndarray,
        start: np.ndarray,
        counts: np.ndarray,
        per_row: np.ndarray,
        candidates: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs of one block of asking agents: query, other, offset, distance."""
        start = start.ravel()
        counts = counts.ravel()
        # Ragged arange: for each slice, start, start + 1, ..., start + count - 1, concatenated.
        sorted_idx = np.repeat(start - (np.cumsum(counts) - counts), counts)
        sorted_idx += np.arange(len(sorted_idx))
        asker = np.repeat(np.arange(len(rows)), per_row)
        # 1-D columns, take() and in-place arithmetic: 2-D fancy indexing is several times
        # slower here.
        dx = grid.sorted_x.take(sorted_idx)
        dx -= self._x.take(rows).take(asker)
        dy = grid.sorted_y.take(sorted_idx)
        dy -= self._y.take(rows).take(asker)
        dist2 = dx * dx
        dist2 += dy * dy
        near = np.flatnonzero(dist2 <= (limit if isinstance(limit, float) else limit.take(asker)))
        asker = asker.take(near)
        other = grid.order.take(sorted_idx.take(near))
        keep = other != rows.take(asker)
        if candidates is not None:
            keep &= candidates.take(other)
        keep = np.flatnonzero(keep)
        near = near.take(keep)
        offset = np.empty((len(near), 2))
        offset[:, 0] = dx.take(near)
        offset[:, 1] = dy.take(near)
        return asker.take(keep), other.take(keep), offset, np.sqrt(dist2.take(near))

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

    def _grid_for(self, radius: float) -> _Grid:
        """The grid whose cells suit a query whose largest radius is ``radius``."""
        if self._cell_size is not None and radius <= self._cell_size:
            size = self._cell_size
        else:
            # No cell need exceed the agents' extent: one cell then holds everybody.
            size = min(radius, self._span)
        size = float(max(size * _CELL_PAD, self._min_cell))
        grid = self._grids.get(size)
        if grid is None:
            grid = self._grids[size] = _Grid(self._x, self._y, self._lower, size)
        return grid
