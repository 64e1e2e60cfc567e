"""Spatial index for agent-agent neighbour queries.

A :class:`NeighborIndex` is built once per world update from every agent's position and shared
by all group behaviours (separation, alignment, cohesion, predictive avoidance, ...). A query
asks, for a batch of agents at once, which other agents lie within a radius, and answers with
flat pair arrays (:class:`NeighborPairs`) that reduce per asking agent without Python loops.

A query can also ask for each agent's ``k`` nearest others (:meth:`NeighborIndex.nearest`),
which bounds the pairs per agent however dense the crowd.

The index is a uniform grid in numpy: agents are sorted by cell, and an asking agent scans the
columns of cells around its own. Cells are sized from the query radius, so a query scans 3 x 3
cells whatever its radius (a nearest-neighbour query sizes them from how crowded the agents
are); a grid is built on first use and reused by later queries with the same cell size. No
query does O(n²) work.

Example:
    >>> import numpy as np
    >>> index = NeighborIndex(np.array([[0.0, 0.0], [3.0, 4.0], [100.0, 4.0]]))
    >>> pairs = index.query(np.array([0, 2]), radius=10.0)
    >>> pairs.query.tolist(), pairs.other.tolist(), pairs.distance.tolist()
    ([0], [1], [5.0])
    >>> pairs.count().tolist()
    [1, 0]
    >>> nearest = index.nearest(np.array([0, 2]), k=1)
    >>> nearest.other.tolist(), nearest.distance.tolist()
    ([1, 1], [5.0, 97.0])
"""

from __future__ import annotations

import itertools
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
# Below this many cells per agent a dense cell table beats binary search: filling a cell
# costs well under a nanosecond, where each agent's six binary searches (3 x 3 cells) cost
# ~0.25 us, mostly mispredicted branches. Squads, each in a grid of its own, need ~80 cells
# per agent (20 squads of 50 on a 2,000 px field: 3% fewer instructions per update).
_DENSE_CELLS_PER_AGENT = 128
# ... and below this many cells whatever the agents.
_DENSE_CELLS = 2**15 - 2
_RADIX_CELLS = 2**16
_BLOCK = 2**14
# nearest(): a guess of the distance to the k-th neighbour is widened this much, so that most
# agents find their k neighbours in the first scan.
_GUESS_PAD = 1.25
_CELLS_PER_GUESS = 3.0
_EMPTY = np.empty(0)
# nearest(): the coarse count of neighbours behind a guess (9 cells of ~k agents); tries.
_GUESS_CROWD = 9
_GUESS_ROUNDS = 6
# nearest(): rows still short of k neighbours scan twice as many cells each side, and never
# more than this many: beyond, they go on to coarser cells.
_MAX_REACH = 16
# nearest(): agents with at most this many pairs pick theirs from a table sorted row by row.
_SORT_WIDTH = 64
_COLUMN_BITS = 63  # a column < _SORT_WIDTH fits in these low bits
_INF_BITS = int(np.array(np.inf).view(np.int64))


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

    With ``labels`` (``(n,)`` int >= 0, all below ``groups``), each label has a grid of its
    own: cell keys of label ``g`` are offset by ``g * nx * ny``, so the cells around an agent in
    one label's grid hold only that label's agents.
    """

    def __init__(
        self,
        x: np.ndarray,
        y: np.ndarray,
        lower: np.ndarray,
        cell_size: float,
        labels: np.ndarray | None = None,
        groups: int = 0,
    ) -> None:
        self.cell_size = cell_size
        self.cx = np.floor((x - lower[0]) / cell_size).astype(np.intp) + 1
        self.cy = np.floor((y - lower[1]) / cell_size).astype(np.intp) + 1
        self.nx = int(self.cx.max()) + 2
        self.ny = int(self.cy.max()) + 2
        keys = self.cx * self.ny + self.cy
        n_cells = self.cells_per_label = self.nx * self.ny
        if labels is not None:
            keys += labels * n_cells
            n_cells *= groups
        if n_cells <= _RADIX_CELLS:
            # numpy radix-sorts 16-bit keys: about 6x faster than sorting int64.
            self.order = keys.astype(np.uint16).argsort(kind="stable")
        else:
            self.order = keys.argsort(kind="stable")
        self.sorted_keys = keys.take(self.order)
        self.sorted_x = x.take(self.order)
        self.sorted_y = y.take(self.order)
        # Where each agent is in sorted order.
        self.rank = np.empty_like(self.order)
        self.rank[self.order] = np.arange(len(self.order))
        self.starts: np.ndarray | None = None
        if n_cells <= max(_DENSE_CELLS_PER_AGENT * len(x), _DENSE_CELLS):
            # starts[c] = how many agents have a key below c: agent i's count repeated once
            # for each cell after the previous agent's, up to its own. int32 and no temporary
            # as large as the table.
            steps = np.empty(len(keys) + 1, dtype=np.intp)
            steps[0] = self.sorted_keys[0] + 1 if len(keys) else n_cells + 1
            np.subtract(self.sorted_keys[1:], self.sorted_keys[:-1], out=steps[1:-1])
            steps[-1] = n_cells - self.sorted_keys[-1] if len(keys) else 0
            self.starts = np.repeat(np.arange(len(keys) + 1, dtype=np.int32), steps)

    def _slices(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Bounds in sorted order of the agents whose cell keys are in ``[lo, hi)``."""
        if self.starts is not None:
            return self.starts.take(lo), self.starts.take(hi)
        return np.searchsorted(self.sorted_keys, lo), np.searchsorted(self.sorted_keys, hi)

    def cell_ranges(
        self, rows: np.ndarray, reach: int, label: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Where, in sorted order, the agents around each asking agent lie.

        Each asking agent scans 2 reach + 1 columns of 2 reach + 1 cells; the cells of one
        column have consecutive keys, so they are one slice of the sorted agents. With
        ``label`` (``(q,)`` int), each scans the cells of that label's grid.

        Returns:
            (q, 2 reach + 1) int slice starts and (q, 2 reach + 1) int slice lengths.
        """
        cx = self.cx.take(rows)
        cy = self.cy.take(rows)
        if reach == 1:
            lo = cx * self.ny + cy - (self.ny + 1)
            if label is not None:
                lo += label * self.cells_per_label
            lo = lo[:, None] + np.array([0, self.ny, 2 * self.ny])
            start, stop = self._slices(lo, lo + 3)
            stop -= start
            return start, stop
        columns = cx[:, None] + np.arange(-reach, reach + 1)
        inside = (columns >= 0) & (columns < self.nx)
        columns = np.where(inside, columns, 0) * self.ny
        if label is not None:
            columns += (label * self.cells_per_label)[:, None]
        lo = columns + np.maximum(cy - reach, 0)[:, None]
        hi = columns + np.minimum(cy + reach + 1, self.ny)[:, None]
        start, stop = self._slices(lo, hi)
        return start, np.where(inside, stop - start, 0)

    def ragged_ranges(
        self, rows: np.ndarray, reach: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Like :meth:`cell_ranges`, each asking agent scanning its own ``reach`` cells.

        Args:
            rows: (q,) int asking agents.
            reach: (q,) int >= 1, cells each side.

        Returns:
            Flat slice starts and lengths, ``2 reach[i] + 1`` of them for row ``i`` (rows in
            order), and the (q + 1,) offsets of each row's first slice.
        """
        cx = self.cx.take(rows)
        cy = self.cy.take(rows)
        width = 2 * reach + 1
        first = np.zeros(len(rows) + 1, dtype=np.intp)
        np.cumsum(width, out=first[1:])
        # Ragged arange: columns cx - reach .. cx + reach of every row, concatenated.
        column = np.repeat(cx - reach - first[:-1], width)
        column += np.arange(first[-1])
        inside = (column >= 0) & (column < self.nx)
        base = np.where(inside, column, 0) * self.ny
        lo = base + np.repeat(np.maximum(cy - reach, 0), width)
        hi = base + np.repeat(np.minimum(cy + reach + 1, self.ny), width)
        start, stop = self._slices(lo, hi)
        stop -= start
        stop[~inside] = 0
        return start, stop, first


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
            # The agents' bounding box, px², widened to the average spacing of agents on a line.
            width = float(self._x.max()) - lower_x
            height = float(self._y.max()) - lower_y
            self._area = max(width, span / len(positions)) * max(height, span / len(positions))
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

        if labels is None:
            grid = self._grid_for(largest)
        else:
            grid = self._grid_of_size(self._cell_for(largest), labels, n_groups)
        reach = largest / grid.cell_size
        reach = reach + reach * 1e-12 + _CELL_MARGIN
        reach = max(1, math.ceil(min(reach, max(grid.nx, grid.ny))))
        start, counts = grid.cell_ranges(rows, reach, asked)
        # Column by column: sum(axis=1) over a few columns is several times slower.
        per_row = counts[:, 0].copy()
        for column in range(1, counts.shape[1]):
            per_row += counts[:, column]
        first = np.arange(0, counts.size + 1, counts.shape[1])
        asker, other, dx, dy, dist2 = self._scan(
            grid, rows, limit, start.ravel(), counts.ravel(), first, per_row, candidates
        )
        return NeighborPairs(asker, other, _stack(dx, dy), np.sqrt(dist2), q)

    def nearest(
        self,
        rows: np.ndarray | None,
        k: int | np.ndarray,
        radius: float | np.ndarray = math.inf,
        candidates: np.ndarray | None = None,
        guess: np.ndarray | None = None,
    ) -> NeighborPairs:
        """Find, for each asking agent, its ``k`` nearest other agents within its radius.

        The grid's cells are sized from the local crowding, so a query scans about ``k``
        agents per asking agent whatever the radius; an agent short of ``k`` neighbours scans
        further, up to its radius.

        Args:
            rows: (q,) int indices into positions of the asking agents (repeats allowed), or
                None for all n agents in order.
            k: how many neighbours at most, an int >= 0 or (q,) ints per asking agent.
            radius: px, scalar or (q,); only neighbours at distance ``<= radius`` count.
                ``inf`` (the default) limits nothing.
            candidates: (n,) bool, which agents may be neighbours; None = all.
            guess: (q,) px, about how far each asking agent's k-th neighbour is (e.g. how
                far it was last update), or None (or NaN for some agents) to estimate it from
                how crowded the agents are. Only the speed of the query depends on it.

        Returns:
            NeighborPairs with ``n_queries = q``, grouped by query and, inside a group,
            nearest first. Of neighbours at the same distance (to float rounding) the ones
            kept are deterministic but otherwise unspecified.

        Raises:
            TypeError: if rows or k are not integers or candidates not bool.
            ValueError: on bad shapes, out-of-range rows, a negative k, or a negative or NaN
                radius.
        """
        rows = self._check_rows(rows, len(self._positions))
        query, other, dist2 = self._nearest(rows, k, radius, candidates, guess)
        offset = _stack(self._x.take(other), self._y.take(other))
        offset[:, 0] -= self._x.take(rows).take(query)
        offset[:, 1] -= self._y.take(rows).take(query)
        return NeighborPairs(query, other, offset, np.sqrt(dist2), len(rows))

    def _nearest(
        self,
        rows: np.ndarray,
        k: int | np.ndarray,
        radius: float | np.ndarray,
        candidates: np.ndarray | None,
        guess: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`nearest` for checked ``rows``: the pairs' query, other and squared distance,
        without offsets (a caller that needs other offsets computes them itself)."""
        n = len(self._positions)
        q = len(rows)
        radius, _ = self._check_radius(radius, q)
        candidates = self._check_candidates(candidates, n)
        k = np.asarray(k)
        if k.dtype.kind not in "iu":
            raise TypeError("k must be an integer or an integer array")
        if k.shape not in ((), (q,)):
            raise ValueError(f"k must be a scalar or have shape (q,) with q={q}")
        if k.size and k.min() < 0:
            raise ValueError("k must be >= 0")
        want = np.minimum(np.broadcast_to(k, (q,)), n - 1).astype(np.intp)
        todo = np.flatnonzero(want > 0)
        if not len(todo):
            return np.empty(0, np.intp), np.empty(0, np.intp), np.empty(0)
        radius = np.broadcast_to(radius, (q,))

        sub = rows.take(todo)
        sub_want = want.take(todo)
        sub_radius = radius.take(todo)
        if guess is None:
            guess = self._guess_reach(sub, sub_want)
        else:
            guess = np.asarray(guess, dtype=np.float64)
            if guess.shape != (q,):
                raise ValueError(f"guess must have shape (q,) with q={q}")
            guess = np.abs(guess.take(todo))
            unknown = np.flatnonzero(np.isnan(guess))
            if len(unknown):
                guess[unknown] = self._guess_reach(sub.take(unknown), sub_want.take(unknown))
        guess = np.minimum(guess * _GUESS_PAD, sub_radius)
        # Cells of a fraction of the typical guess: a guess spans a few cells each side.
        size = float(np.median(guess)) / _CELLS_PER_GUESS
        grid = self._grid_of_size(2.0 ** math.floor(math.log2(size)) if size > 0.0 else 0.0)
        reach = np.ceil(guess / grid.cell_size).astype(np.intp)

        found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        while len(todo):
            widest = max(grid.nx, grid.ny)
            cells = sub_radius / grid.cell_size
            top = np.minimum(np.ceil(cells + cells * 1e-12 + _CELL_MARGIN), widest)
            top = np.maximum(top, 1).astype(np.intp)
            np.clip(reach, 1, top, out=reach)
            now = np.flatnonzero(reach <= _MAX_REACH)
            if not len(now):
                # Everyone left has far to go: on to cells 4x larger, rather than scanning
                # very many columns of small ones.
                coarser = self._grid_of_size(4.0 * grid.cell_size)
                reach = np.ceil(reach * (grid.cell_size / coarser.cell_size)).astype(np.intp)
                grid = coarser
                continue
            scan, scan_reach = sub.take(now), reach.take(now)
            # Every agent within `complete` px is in the scanned cells.
            complete = (scan_reach - _CELL_MARGIN) * (grid.cell_size / (1.0 + 1e-12))
            complete[scan_reach >= widest] = math.inf
            limit = np.minimum(complete, sub_radius.take(now))
            start, counts, first = grid.ragged_ranges(scan, scan_reach)
            per_row = np.add.reduceat(counts, first[:-1])
            asker, other, _, _, dist2 = self._scan(
                grid, scan, limit * limit, start, counts, first, per_row, candidates, False
            )
            count = np.bincount(asker, minlength=len(now))
            scan_want = sub_want.take(now)
            done = count >= scan_want
            done |= scan_reach >= top.take(now)
            if not done.all():
                keep = np.flatnonzero(done.take(asker))
                asker, other, dist2 = asker.take(keep), other.take(keep), dist2.take(keep)
                count *= done
            pick = _nearest_first(asker, dist2, count, scan_want)
            found.append(
                (todo.take(now).take(asker.take(pick)), other.take(pick), dist2.take(pick))
            )
            # Who is still short of k neighbours looks twice as far.
            reach[now] *= 2
            left = np.ones(len(todo), dtype=bool)
            left[now.compress(done)] = False
            left = np.flatnonzero(left)
            todo, sub, sub_want = todo.take(left), sub.take(left), sub_want.take(left)
            sub_radius, reach = sub_radius.take(left), reach.take(left)

        if len(found) == 1:
            return found[0]
        # Rounds finish different agents: group the pairs by agent again.
        query, other, dist2 = (np.concatenate(part) for part in zip(*found, strict=True))
        order = query.argsort(kind="stable")
        return query.take(order), other.take(order), dist2.take(order)

    def _guess_reach(self, rows: np.ndarray, want: np.ndarray) -> np.ndarray:
        """For each asking agent, about how far its ``want`` nearest agents reach, px.

        Counts the agents in the 3 x 3 cells around each asking agent, in cells made to hold
        about ``want`` agents at the average spacing, and assumes that density around it.
        Where most agents are much more crowded than the average (a cluster in a wide world),
        counts again in smaller cells.
        """
        n = len(self._positions)
        typical = float(np.median(want))
        cell = math.sqrt(max(self._area / n, self._min_cell * self._min_cell) * typical)
        for _ in range(_GUESS_ROUNDS):
            grid = self._grid_of_size(cell)
            _, around = grid.cell_ranges(rows, 1)
            crowd = around[:, 0] + around[:, 1] + around[:, 2] - 1
            # pi r² density = want, with density = crowd / (3 cells)².
            guess = (3.0 * grid.cell_size) * np.sqrt(want / (math.pi * np.maximum(crowd, 1)))
            if float(np.median(crowd)) <= 4.0 * _GUESS_CROWD * typical:
                break
            cell = float(np.median(guess))
        return guess

    def _scan(
        self,
        grid: _Grid,
        rows: np.ndarray,
        limit: float | np.ndarray,
        start: np.ndarray,
        counts: np.ndarray,
        first: np.ndarray,
        per_row: np.ndarray,
        candidates: np.ndarray | None,
        offsets: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs within ``limit`` (squared px) in the given slices: asker, other, dx, dy, dist2.

        Row ``i`` scans slices ``first[i]:first[i + 1]`` of ``start``/``counts``, ``per_row[i]``
        agents in all. Without ``offsets``, dx and dy are empty.
        """
        if candidates is not None:
            candidates = candidates.take(grid.order)  # in sorted order, as the slices are
        ends = np.cumsum(per_row)
        if not len(ends) or ends[-1] <= _BLOCK:
            return self._block(grid, rows, limit, start, counts, per_row, candidates, offsets)
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
                per_row[a:b],
                candidates,
                offsets,
            )
            asker += a
            blocks.append((asker, *rest))
        return tuple(np.concatenate(part) for part in zip(*blocks, strict=True))  # type: ignore[return-value]

    def _block(
        self,
        grid: _Grid,
        rows: np.ndarray,
        limit: float | np.ndarray,
        start: np.ndarray,
        counts: np.ndarray,
        per_row: np.ndarray,
        candidates: np.ndarray | None,
        offsets: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Pairs of one block of asking agents: asker, other, dx, dy, dist2.

        ``candidates`` is in the grid's sorted order. Pairs come in the order of the slices.
        """
        # Ragged arange: for each slice, start, start + 1, ..., start + count - 1, concatenated.
        sorted_idx = np.repeat(start - (np.cumsum(counts) - counts), counts)
        sorted_idx += np.arange(len(sorted_idx))
        # 1-D columns, take(), repeat() and in-place arithmetic: 2-D fancy indexing is several
        # times slower here.
        dx = grid.sorted_x.take(sorted_idx)
        dx -= np.repeat(self._x.take(rows), per_row)
        dy = grid.sorted_y.take(sorted_idx)
        dy -= np.repeat(self._y.take(rows), per_row)
        dist2 = dx * dx
        dist2 += dy * dy
        keep = dist2 <= (limit if isinstance(limit, float) else np.repeat(limit, per_row))
        keep &= sorted_idx != np.repeat(grid.rank.take(rows), per_row)  # not itself
        if candidates is not None:
            keep &= candidates.take(sorted_idx)
        near = np.flatnonzero(keep)
        asker = np.repeat(np.arange(len(rows)), per_row).take(near)
        other = grid.order.take(sorted_idx.take(near))
        if not offsets:
            return asker, other, _EMPTY, _EMPTY, dist2.take(near)
        return asker, other, dx.take(near), dy.take(near), dist2.take(near)

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
        return size * _CELL_PAD

    def _grid_for(self, radius: float) -> _Grid:
        """The grid whose cells suit a query whose largest radius is ``radius``."""
        return self._grid_of_size(self._cell_for(radius))

    def _grid_of_size(
        self, size: float, labels: np.ndarray | None = None, groups: int = 0
    ) -> _Grid:
        """The grid with cells of ``size`` px (at least the smallest safe size); cached
        unless ``labels`` (``groups`` of them) give each group a grid of its own."""
        size = float(max(size, self._min_cell))
        if labels is not None:
            return _Grid(self._x, self._y, self._lower, size, labels, groups)
        grid = self._grids.get(size)
        if grid is None:
            grid = self._grids[size] = _Grid(self._x, self._y, self._lower, size)
        return grid


def _stack(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Columns (p,) and (p,) as rows (p, 2)."""
    out = np.empty((len(x), 2))
    out[:, 0] = x
    out[:, 1] = y
    return out


def _nearest_first(
    asker: np.ndarray, dist2: np.ndarray, count: np.ndarray, want: np.ndarray
) -> np.ndarray:
    """Which pairs to keep: each asking agent's ``want`` nearest, nearest first.

    Args:
        asker: (p,) int, non-decreasing: pairs are grouped by asking agent.
        dist2: (p,) float, squared distances.
        count: (r,) int, pairs of each asking agent (``bincount(asker)``).
        want: (r,) int, how many to keep of each.

    Returns:
        Indices into the pairs, grouped by asking agent, nearest first (ties in pair order).
    """
    if not len(asker):
        return np.empty(0, dtype=np.intp)
    start = np.cumsum(count) - count
    kept = np.minimum(count, want)
    wide = count > _SORT_WIDTH
    if not wide.any():
        return _sort_rows(np.arange(len(count)), dist2, start, count, kept, asker)
    # A few agents with very many pairs (a guess far too wide): their pairs sorted by
    # (asker, dist2) in one go, then everybody's picks grouped by asker again.
    narrow = _sort_rows(np.flatnonzero(~wide), dist2, start, count, kept, None)
    rows = np.flatnonzero(wide)
    pairs = _ragged_arange(start.take(rows), count.take(rows))
    pairs = pairs.take(np.lexsort((dist2.take(pairs), asker.take(pairs))))
    first = np.cumsum(count.take(rows)) - count.take(rows)
    rank = np.arange(len(pairs)) - np.repeat(first, count.take(rows))
    picked = np.concatenate(
        (narrow, pairs.compress(rank < np.repeat(kept.take(rows), count.take(rows))))
    )
    return picked.take(asker.take(picked).argsort(kind="stable"))


def _sort_rows(
    rows: np.ndarray,
    dist2: np.ndarray,
    start: np.ndarray,
    count: np.ndarray,
    kept: np.ndarray,
    asker: np.ndarray | None,
) -> np.ndarray:
    """The ``kept`` nearest pairs of each of ``rows``, nearest first, grouped by row.

    Each row's pairs go in a row of a table, which is sorted row by row: several times faster
    than one sort of all pairs by (asker, dist2). A cell holds the bits of dist2 (which order
    as int64 as the non-negative floats do) with the pair's column in the lowest 6 bits, so
    one sort of values orders the pairs (ties to 2^-46 relative go by column). ``asker`` is
    given when ``rows`` are all the asking agents (then every pair is in the table).
    """
    counts = count.take(rows)
    width = int(counts.max()) if len(rows) else 0
    table = np.full((len(rows), width), _INF_BITS, dtype=np.int64)
    if asker is not None:
        column = np.arange(len(asker)) - np.repeat(start, count)
        cell = asker * width + column
        bits = dist2.view(np.int64) & ~_COLUMN_BITS
    else:
        first = start.take(rows)
        pairs = _ragged_arange(first, counts)
        column = pairs - np.repeat(first, counts)
        cell = np.repeat(np.arange(len(rows)) * width, counts) + column
        bits = dist2.take(pairs).view(np.int64) & ~_COLUMN_BITS
    bits |= column
    table.ravel()[cell] = bits
    table.sort(axis=1)
    table &= _COLUMN_BITS
    table += start.take(rows)[:, None]
    return table[np.arange(width) < kept.take(rows)[:, None]]


def _ragged_arange(start: np.ndarray, count: np.ndarray) -> np.ndarray:
    """``start[i], start[i] + 1, ..., start[i] + count[i] - 1`` for every i, concatenated."""
    out = np.repeat(start - (np.cumsum(count) - count), count)
    out += np.arange(len(out))
    return out
