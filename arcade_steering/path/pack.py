"""Several paths stacked into one segment table, for queries whose rows each name a path.

Path followers of one batch may follow different :class:`~arcade_steering.Path` objects. A
:class:`PathPack` stacks the paths' segment tables and places path ``p`` at distances
``[base[p], base[p] + extent[p])`` of one sorted key, so a single ``searchsorted`` and a few
array operations answer every agent, whichever its path: the cost does not grow with the
number of distinct paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import NamedTuple, Protocol

import numpy as np

__all__ = ["PackPoint", "PathLike", "PathPack", "pack_of", "path_key"]


class PathLike(Protocol):
    """What a pack reads of a path (a :class:`~arcade_steering.Path`)."""

    @property
    def points(self) -> np.ndarray: ...
    @property
    def length(self) -> float: ...
    @property
    def closed(self) -> bool: ...
    def segment_table(self) -> np.ndarray: ...
    def pack(self) -> PathPack: ...


# Rows of Path.segment_table().
_X, _Y, _DX, _DY, _AT, _SPAN, _RADIUS = range(7)


class PackPoint(NamedTuple):
    """Points on the paths, ``(n, 2)`` or ``(n,)`` arrays in pixels.

    Attributes:
        distance: Distance along each row's path (wrapped or clamped into it).
        point: The point.
        tangent: Unit direction of the path there.
        radius: Tube radius there.
        offset: Distance from the query point (projections only; zero otherwise).
    """

    distance: np.ndarray
    point: np.ndarray
    tangent: np.ndarray
    radius: np.ndarray
    offset: np.ndarray


def path_key(path: PathLike) -> float:
    """A path's identity as a float, for per-agent state: an agent given another path sees
    another key."""
    return float(id(path))


class PathPack:
    """The segments of ``paths`` in one table.

    Args:
        paths: The distinct paths; queries name them by index into this sequence.
    """

    def __init__(self, paths: Sequence[PathLike]) -> None:
        self.paths = list(paths)
        #: ``(p,)`` each path's identity as a float, to notice an agent given another path.
        self.keys = np.array([path_key(path) for path in self.paths])
        self.length = np.array([path.length for path in self.paths])
        self.closed = np.array([path.closed for path in self.paths])
        self.any_closed = bool(self.closed.any())
        self.any_open = not bool(self.closed.all())
        self._single = len(self.paths) == 1
        if self._single:
            self.table = self.paths[0].segment_table()
            self.base = np.zeros(1)
            self.key = self.table[_AT]
        else:
            tables = [path.segment_table() for path in self.paths]
            self.table = np.concatenate(tables, axis=1)
            extent = np.where(self.closed, 2.0, 1.0) * self.length + 1.0
            self.base = np.concatenate(([0.0], np.cumsum(extent)[:-1]))
            counts = [table.shape[1] for table in tables]
            self.key = self.table[_AT] + np.repeat(self.base, counts)
        #: ``(p,)`` the closed paths longer than 0, and what each path wraps by: a loop's
        #: ``length``, else 1 px (for a degenerate loop: any will do).
        self.looped = self.closed & (self.length > 0.0)
        self.period = np.where(self.looped, self.length, 1.0)
        # The segments' rows but the radius, for the candidates of a projection.
        self._lines = self.table[:_RADIUS]
        # Contiguous copies for the per-point gathers at the end of each query.
        self._xy = self.table[_X : _Y + 1].T.copy()
        self._dxy = self.table[_DX : _DY + 1].T.copy()
        # searchsorted(key[1:], v) is searchsorted(key, v) - 1 for v >= key[0], one call less.
        self._key_after = self.key[1:]

    @cached_property
    def ends(self) -> np.ndarray:
        """``(p, 2, 2)`` each path's first and last point, px."""
        return np.array([path.points[[0, -1]] for path in self.paths])

    def per_row(self, values: np.ndarray, which: np.ndarray) -> np.ndarray:
        """``values`` ``(p,)`` of each row's path: a scalar when there is one path, else
        ``(n,)`` (one path is the common case; scalars keep its arithmetic cheap)."""
        return values[0] if self._single else values[which]

    def wrap(self, which: np.ndarray, distance: np.ndarray) -> np.ndarray:
        """Distances ``(n,)`` wrapped into closed paths ``[0, length)``, clamped into open ones."""
        length = self.per_row(self.length, which)
        if not self.any_closed:
            return np.minimum(np.maximum(distance, 0.0), length)
        looped = self.per_row(self.looped, which)
        period = self.per_row(self.period, which)
        wrapped = distance - period * np.floor(distance / period)
        if not self.any_open:
            return wrapped
        return np.where(looped, wrapped, np.minimum(np.maximum(distance, 0.0), length))

    def point_at(self, which: np.ndarray, distance: np.ndarray) -> PackPoint:
        """Points at ``distance`` ``(n,)`` along path ``which[i]`` (wrapped or clamped)."""
        d = self.wrap(which, distance)
        # d lies in its path's first lap, so the row found is one of that path's.
        row = self._row_of(which, d)
        along = np.minimum(
            np.maximum(d - self.table[_AT].take(row), 0.0), self.table[_SPAN].take(row)
        )
        return self._at_rows(row, along, d, np.zeros(len(d)))

    def _row_of(self, which: np.ndarray, distance: np.ndarray) -> np.ndarray:
        """The segment rows ``(n,)`` holding ``distance`` (>= 0, first or second lap) along
        each row's path: the last segment starting at or before it."""
        key = distance if self._single else self.per_row(self.base, which) + distance
        return self._key_after.searchsorted(key, side="right")

    def _at_rows(
        self, row: np.ndarray, along: np.ndarray, distance: np.ndarray, offset: np.ndarray
    ) -> PackPoint:
        """Points ``along`` px (within the segment) from the start of segments ``row``."""
        tangent = self._dxy.take(row, axis=0)
        point = self._xy.take(row, axis=0)
        point += tangent * along[:, None]
        return PackPoint(distance, point, tangent, self.table[_RADIUS].take(row), offset)

    def project(
        self, which: np.ndarray, points: np.ndarray, lo: np.ndarray, hi: np.ndarray
    ) -> PackPoint:
        """Closest points to ``points`` ``(n, 2)`` within ``[lo, hi]`` ``(n,)`` along each path.

        On a closed path the window may lie anywhere (it wraps) but must be no longer than the
        loop; on an open path it is clamped to ``[0, length]``. Equally near points resolve to
        the earliest along the window.
        """
        length = self.per_row(self.length, which)
        closed = self.per_row(self.closed, which)
        if self.any_closed:  # start each window in the first lap (before the seam: the last)
            period = self.per_row(self.period, which)
            lap = period * np.floor(lo / period)
            if self.any_open:
                lap = np.where(closed, lap, 0.0)
            lo, hi = lo - lap, hi - lap
        if self.any_open:
            lo = np.where(closed, lo, np.minimum(np.maximum(lo, 0.0), length))
            hi = np.where(closed, hi, np.minimum(np.maximum(hi, 0.0), length))
        # Now 0 <= lo <= hi <= 2 length (closed) or <= length (open): both rows found are the
        # path's own, since the next path's key starts more than 2 length further on.
        first = self._row_of(which, lo)
        last = self._row_of(which, hi)
        k = int(np.maximum.reduce(last - first)) + 1 if len(first) else 1
        # Candidates (k, n): the segments from the window's first to its last, repeating the
        # last where a window spans fewer than k.
        cand = np.minimum(first + np.arange(k)[:, None], last) if k > 1 else first[None]
        x, y, dx, dy, at, span = self._lines.take(cand, axis=1)
        ox = points[:, 0] - x
        oy = points[:, 1] - y
        tc = ox * dx
        tc += oy * dy
        np.maximum(tc, lo - at, out=tc)
        np.minimum(tc, hi - at, out=tc)
        np.minimum(tc, span, out=tc)
        np.maximum(tc, 0.0, out=tc)
        ox -= dx * tc
        oy -= dy * tc
        ox *= ox
        oy *= oy
        ox += oy
        # Each window's nearest candidate (the earliest of equals): its row, along, squared
        # distance. Two candidates are the common case (a window meets one or two segments).
        if k == 1:
            row, tc, ox = cand[0], tc[0], ox[0]
        elif k == 2:
            second = ox[1] < ox[0]
            row = np.where(second, cand[1], cand[0])
            tc = np.where(second, tc[1], tc[0])
            ox = np.where(second, ox[1], ox[0])
        else:
            pick = np.argmin(ox, axis=0) * len(points) + np.arange(len(points))
            row, tc, ox = cand.take(pick), tc.take(pick), ox.take(pick)
        distance = self.table[_AT].take(row) + tc
        if self.any_closed:  # the second lap wraps once
            wraps = distance >= length
            if self.any_open:
                wraps &= closed
            np.subtract(distance, length, out=distance, where=wraps)
        return self._at_rows(row, tc, distance, np.sqrt(ox))

    def project_all(self, which: np.ndarray, points: np.ndarray) -> PackPoint:
        """Closest points to ``points`` ``(n, 2)`` anywhere on each row's path."""
        length = np.broadcast_to(self.per_row(self.length, which), (len(points),))
        return self.project(which, points, np.zeros(len(points)), length)


def pack_of(paths: Sequence[PathLike]) -> PathPack:
    """A :class:`PathPack` of ``paths``; a single path's own (kept until its geometry changes:
    one path is the common case, and it then costs nothing per step)."""
    return paths[0].pack() if len(paths) == 1 else PathPack(paths)
