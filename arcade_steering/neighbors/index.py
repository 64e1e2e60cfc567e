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

import math

import numpy as np

from .._util.masks import every, some
from .._util.vec import stack_columns
from ._cells import CELL_MARGIN, CellGrid
from .pairs import NeighborPairs
from .radius import RadiusIndex

__all__ = ["NeighborIndex"]

# nearest(): a guess of the distance to the k-th neighbour is widened this much, so that most
# agents find their k neighbours in the first scan.
_GUESS_PAD = 1.25
_CELLS_PER_GUESS = 3.0
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


class NeighborIndex(RadiusIndex):
    """Spatial index over all agents' positions: radius queries (:meth:`query`) and each
    agent's ``k`` nearest others (:meth:`nearest`).

    Args:
        positions: (n, 2) float, px. Copied; later changes to the array are not seen.
        cell_size: px, see :class:`~arcade_steering.neighbors.radius.RadiusIndex`.
    """

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
        query, other, dist2 = self.nearest_distances(rows, k, radius, candidates, guess)
        offset = stack_columns(self._x.take(other), self._y.take(other))
        offset[:, 0] -= self._x.take(rows).take(query)
        offset[:, 1] -= self._y.take(rows).take(query)
        return NeighborPairs(query, other, offset, np.sqrt(dist2), len(rows))

    def nearest_distances(
        self,
        rows: np.ndarray,
        k: int | np.ndarray,
        radius: float | np.ndarray,
        candidates: np.ndarray | None,
        guess: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`nearest` for checked ``rows``: the pairs' query, other and squared distance,
        without offsets (a caller that needs other offsets, such as those of another index
        over the same agents, computes them itself)."""
        n = len(self._positions)
        q = len(rows)
        # Check: the arguments, and how many neighbours each agent wants (none: no scan).
        radius, _ = self._check_radius(radius, q)
        candidates = self._check_candidates(candidates, n)
        want = _wanted(k, q, n)
        todo = np.flatnonzero(want > 0)
        if not len(todo):
            return np.empty(0, np.intp), np.empty(0, np.intp), np.empty(0)
        radius = np.broadcast_to(radius, (q,))
        sub, sub_want, sub_radius = rows.take(todo), want.take(todo), radius.take(todo)
        # Guess: about how far each agent's k-th neighbour is, padded, within its radius.
        guess = np.minimum(
            self._checked_guess(guess, q, todo, sub, sub_want) * _GUESS_PAD, sub_radius
        )
        # Grid: cells of a fraction of the typical guess: a guess spans a few cells each side.
        size = float(np.median(guess)) / _CELLS_PER_GUESS
        grid = self._grid_of_size(2.0 ** math.floor(math.log2(size)) if size > 0.0 else 0.0)
        reach = np.ceil(guess / grid.cell_size).astype(np.intp)
        found: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        while len(todo):
            top = _reach_limit(grid, sub_radius)
            np.clip(reach, 1, top, out=reach)
            now = np.flatnonzero(reach <= _MAX_REACH)
            if not len(now):
                # Coarsen: everyone left has far to go: on to cells 4x larger, rather than
                # scanning very many columns of small ones.
                coarser = self._grid_of_size(4.0 * grid.cell_size)
                reach = np.ceil(reach * (grid.cell_size / coarser.cell_size)).astype(np.intp)
                grid = coarser
                continue
            # Scan: each agent's nearest in the cells within its reach.
            done, (asker, other, dist2) = self._scan_nearest(
                grid,
                sub.take(now),
                reach.take(now),
                top.take(now),
                sub_want.take(now),
                sub_radius.take(now),
                candidates,
            )
            found.append((todo.take(now).take(asker), other, dist2))
            # Widen: who is still short of k neighbours looks twice as far.
            reach[now] *= 2
            left = np.ones(len(todo), dtype=bool)
            left[now.compress(done)] = False
            left = np.flatnonzero(left)
            todo, sub, sub_want = todo.take(left), sub.take(left), sub_want.take(left)
            sub_radius, reach = sub_radius.take(left), reach.take(left)
        if len(found) == 1:
            return found[0]
        # Merge: rounds finish different agents: group the pairs by agent again.
        query, other, dist2 = (np.concatenate(part) for part in zip(*found, strict=True))
        order = query.argsort(kind="stable")
        return query.take(order), other.take(order), dist2.take(order)

    def _checked_guess(
        self,
        guess: np.ndarray | None,
        q: int,
        todo: np.ndarray,
        rows: np.ndarray,
        want: np.ndarray,
    ) -> np.ndarray:
        """The distances (px) of the k-th neighbours of agents ``todo`` (of ``q``) at
        ``rows``: as ``guess`` tells, else (None or NaN) as :meth:`_guess_reach` estimates."""
        if guess is None:
            return self._guess_reach(rows, want)
        guess = np.asarray(guess, dtype=np.float64)
        if guess.shape != (q,):
            raise ValueError(f"guess must have shape (q,) with q={q}")
        guess = np.abs(guess.take(todo))
        unknown = np.flatnonzero(np.isnan(guess))
        if len(unknown):
            guess[unknown] = self._guess_reach(rows.take(unknown), want.take(unknown))
        return guess

    def _scan_nearest(
        self,
        grid: CellGrid,
        rows: np.ndarray,
        reach: np.ndarray,
        top: np.ndarray,
        want: np.ndarray,
        radius: np.ndarray,
        candidates: np.ndarray | None,
    ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Scan ``reach`` cells each side of agents ``rows`` for their ``want`` nearest.

        Returns:
            ``(done, (asker, other, dist2))``: which agents are done (they found ``want``, or
            scanned as far as ``top`` cells) and the pairs kept of those, nearest first.
        """
        # Every agent within `complete` px is in the scanned cells.
        complete = (reach - CELL_MARGIN) * (grid.cell_size / (1.0 + 1e-12))
        complete[reach >= max(grid.nx, grid.ny)] = math.inf
        limit = np.minimum(complete, radius)
        start, counts, first = grid.ragged_ranges(rows, reach)
        per_row = np.add.reduceat(counts, first[:-1])
        asker, other, _, dist2 = self._scan(
            grid, rows, limit * limit, start, counts, first, per_row, candidates, False
        )
        count = np.bincount(asker, minlength=len(rows))
        done = count >= want
        done |= reach >= top
        if not every(done):
            keep = np.flatnonzero(done.take(asker))
            asker, other, dist2 = asker.take(keep), other.take(keep), dist2.take(keep)
            count *= done
        pick = _nearest_first(asker, dist2, count, want)
        return done, (asker.take(pick), other.take(pick), dist2.take(pick))

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


def _wanted(k: int | np.ndarray, q: int, n: int) -> np.ndarray:
    """How many neighbours each of ``q`` asking agents wants: ``k``, checked, at most the
    ``n - 1`` others."""
    k = np.asarray(k)
    if k.dtype.kind not in "iu":
        raise TypeError("k must be an integer or an integer array")
    if k.shape not in ((), (q,)):
        raise ValueError(f"k must be a scalar or have shape (q,) with q={q}")
    if k.size and k.min() < 0:
        raise ValueError("k must be >= 0")
    return np.minimum(np.broadcast_to(k, (q,)), n - 1).astype(np.intp)


def _reach_limit(grid: CellGrid, radius: np.ndarray) -> np.ndarray:
    """The most cells each side an agent scans: its ``radius`` (px), at most the grid."""
    widest = max(grid.nx, grid.ny)
    cells = radius / grid.cell_size
    top = np.minimum(np.ceil(cells + cells * 1e-12 + CELL_MARGIN), widest)
    return np.maximum(top, 1).astype(np.intp)


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
    if not some(wide):
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
