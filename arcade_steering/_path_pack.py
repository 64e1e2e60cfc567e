"""Several paths stacked into one segment table, for queries whose rows each name a path.

Path followers of one batch may follow different :class:`~arcade_steering.Path` objects. A
:class:`PathPack` stacks the paths' segment tables and places path ``p`` at distances
``[base[p], base[p] + extent[p])`` of one sorted key, so a single ``searchsorted`` and a few
array operations answer every agent, whichever its path: the cost does not grow with the
number of distinct paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from .path import Path

# Rows of Path._segment_table().
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


class PathPack:
    """The segments of ``paths`` in one table.

    Args:
        paths: The distinct paths; queries name them by index into this sequence.
    """

    def __init__(self, paths: Sequence[Path]) -> None:
        self.paths = list(paths)
        #: ``(p,)`` each path's identity as a float, to notice an agent given another path.
        self.keys = np.array([float(id(path)) for path in paths])
        tables = [path._segment_table() for path in paths]
        self.length = np.array([path.length for path in paths])
        self.closed = np.array([path.closed for path in paths])
        self.any_closed = bool(self.closed.any())
        self.any_open = not bool(self.closed.all())
        counts = np.array([table.shape[1] for table in tables])
        self.table = tables[0] if len(tables) == 1 else np.concatenate(tables, axis=1)
        self.rows = np.ascontiguousarray(self.table.T)  # (r, 7): one gather per query point
        self.first_row = np.concatenate(([0], np.cumsum(counts)[:-1]))
        self.last_row = self.first_row + counts - 1
        # A closed path's second lap only serves windows across its seam.
        self.lap_row = np.where(self.closed, self.first_row + counts // 2 - 1, self.last_row)
        extent = np.where(self.closed, 2.0, 1.0) * self.length + 1.0
        self.base = np.concatenate(([0.0], np.cumsum(extent)[:-1]))
        self.key = self.table[_AT] + np.repeat(self.base, counts)
        self._single = len(tables) == 1

    def per_row(self, values: np.ndarray, which: np.ndarray) -> np.ndarray:
        """``values`` ``(p,)`` of each row's path: a scalar when there is one path, else
        ``(n,)`` (one path is the common case; scalars keep its arithmetic cheap)."""
        return values[0] if self._single else values[which]

    def wrap(self, which: np.ndarray, distance: np.ndarray) -> np.ndarray:
        """Distances ``(n,)`` wrapped into closed paths ``[0, length)``, clamped into open ones."""
        length = self.per_row(self.length, which)
        if not self.any_closed:
            return np.clip(distance, 0.0, length)
        looped = self.per_row(self.closed, which) & (length > 0.0)
        wrapped = np.mod(distance, np.where(looped, length, 1.0))
        if not self.any_open:
            return wrapped
        return np.where(looped, wrapped, np.clip(distance, 0.0, length))

    def point_at(self, which: np.ndarray, distance: np.ndarray) -> PackPoint:
        """Points at ``distance`` ``(n,)`` along path ``which[i]`` (wrapped or clamped)."""
        d = self.wrap(which, distance)
        row = np.searchsorted(self.key, self.per_row(self.base, which) + d, side="right") - 1
        row = np.clip(row, self.per_row(self.first_row, which), self.per_row(self.lap_row, which))
        seg = np.take(self.rows, row, axis=0)
        t = np.clip(d - seg[:, _AT], 0.0, seg[:, _SPAN])
        tangent = seg[:, _DX : _DY + 1]
        point = seg[:, _X : _Y + 1] + tangent * t[:, None]
        return PackPoint(d, point, tangent, seg[:, _RADIUS], np.zeros(len(d)))

    def project(
        self, which: np.ndarray, points: np.ndarray, lo: np.ndarray, hi: np.ndarray
    ) -> PackPoint:
        """Closest points to ``points`` ``(n, 2)`` within ``[lo, hi]`` ``(n,)`` along each path.

        On a closed path the window may cross the seam, ``-length <= lo < length``, and must
        be no longer than the loop; on an open path it is clamped to ``[0, length]``. Equally
        near points resolve to the earliest along the window.
        """
        length = self.per_row(self.length, which)
        closed = self.per_row(self.closed, which)
        if self.any_closed:  # a window starting before the seam: search the second lap
            shift = np.where(closed & (lo < 0.0), length, 0.0)
            lo, hi = lo + shift, hi + shift
        if self.any_open:
            lo = np.where(closed, lo, np.clip(lo, 0.0, length))
            hi = np.where(closed, hi, np.clip(hi, 0.0, length))
        base = self.per_row(self.base, which)
        first_row = self.per_row(self.first_row, which)
        last_row = self.per_row(self.last_row, which)
        first = np.searchsorted(self.key, base + lo, side="right") - 1
        last = np.searchsorted(self.key, base + hi, side="right") - 1
        np.clip(first, first_row, last_row, out=first)
        np.clip(last, first_row, last_row, out=last)
        k = int(np.max(last - first, initial=0)) + 1
        cand = np.minimum(first[:, None] + np.arange(k), last[:, None])
        x, y, dx, dy, at, span = np.take(self.table[:_RADIUS], cand, axis=1)  # each (n, k)
        ox = points[:, :1] - x
        oy = points[:, 1:] - y
        tc = ox * dx
        tc += oy * dy
        np.maximum(tc, lo[:, None] - at, out=tc)
        np.minimum(tc, hi[:, None] - at, out=tc)
        np.minimum(tc, span, out=tc)
        np.maximum(tc, 0.0, out=tc)
        ox -= dx * tc
        oy -= dy * tc
        ox *= ox
        oy *= oy
        ox += oy
        best = np.argmin(ox, axis=1)
        pick = (np.arange(len(points)), best)
        along = tc[pick]
        seg = np.take(self.rows, cand[pick], axis=0)
        tangent = seg[:, _DX : _DY + 1]
        point = seg[:, _X : _Y + 1] + tangent * along[:, None]
        distance = seg[:, _AT] + along
        if self.any_closed:  # the second lap wraps once
            distance = np.where(closed & (distance >= length), distance - length, distance)
        return PackPoint(distance, point, tangent, seg[:, _RADIUS], np.sqrt(ox[pick]))

    def project_all(self, which: np.ndarray, points: np.ndarray) -> PackPoint:
        """Closest points to ``points`` ``(n, 2)`` anywhere on each row's path."""
        length = np.broadcast_to(self.per_row(self.length, which), (len(points),))
        return self.project(which, points, np.zeros(len(points)), length)
