"""Polyline paths with a tube radius, shared by any number of followers.

A :class:`Path` is geometry only. Each follower's progress (its distance along the path) lives
in the world's arrays, never on the path, so one path serves a whole squad. Every query is
vectorised: it takes ``(n,)`` distances or ``(n, 2)`` points and answers all of them at once.

>>> path = Path([(0, 0), (100, 0), (100, 50)], radius=10.0)
>>> path.length
150.0
>>> path.point_at([50.0, 125.0]).tolist()
[[50.0, 0.0], [100.0, 25.0]]
>>> proj = path.project([(40.0, 7.0)])
>>> proj.distance.tolist(), proj.offset.tolist()
([40.0], [7.0])
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._util.validate import check_array, check_bool, check_non_negative, check_positive

__all__ = ["WINDOW_BACK_FRACTION", "Path", "PathProjection"]

FloatArray = NDArray[np.float64]

#: Share of a projection ``window`` searched *behind* ``near``. Followers project a predicted
#: position, so progress moves forward and the window reaches a full ``window`` ahead; a quarter
#: behind tolerates being pushed back (separation, an obstacle, a cut corner) while staying far
#: short of the other branch of a self-crossing path.
WINDOW_BACK_FRACTION = 0.25

_DEGENERATE = 1e-12  # px; shorter segments borrow a neighbour's direction
_BLOCK = 8192  # elements per (rows, segments) temporary in Path.project


class PathProjection(NamedTuple):
    """Closest points on a path for ``n`` query points (arrays, pixels).

    Attributes:
        distance: ``(n,)`` distance along the path of the closest point.
        point: ``(n, 2)`` the closest ("normal") point on the centre line.
        segment: ``(n,)`` int index of the segment holding that point.
        offset: ``(n,)`` distance from the query point to the centre line.
        radius: ``(n,)`` tube radius of that segment.
    """

    distance: FloatArray
    point: FloatArray
    segment: NDArray[np.intp]
    offset: FloatArray
    radius: FloatArray


def _frozen(array: FloatArray) -> FloatArray:
    array.setflags(write=False)
    return array


def _floats(values: ArrayLike, name: str) -> FloatArray:
    """A finite float64 copy of ``values`` (any shape), else an error naming ``name``."""
    return check_array(name, values)


def _check_points(points: ArrayLike) -> FloatArray:
    pts = check_array("points", points, ndim=2)
    if pts.shape[1] != 2 or len(pts) < 2:
        raise ValueError(f"points must be at least 2 (x, y) pairs, shape (k, 2); got {pts.shape}")
    return _frozen(pts)


class Path:
    """A polyline with a tube radius: the road that path followers keep to.

    The geometry may change at run time (``path.points = moved`` every frame, say); ``version``
    increments on every change so followers can notice. Returned arrays are read-only.

    Args:
        points: ``(k, 2)`` vertices in pixels, ``k >= 2``. Repeated points are harmless.
        radius: Tube radius in pixels, ``>= 0``: how far a follower may stray from the centre.
        closed: If True the last point joins the first and distances wrap around the loop.
        radii: Optional ``(s,)`` per-segment radii, ``s = k - 1`` (open) or ``k`` (closed).

    Raises:
        TypeError: A parameter has the wrong type: ``points`` or ``radii`` are not sequences
            of numbers (None, a string, a lone number), ``closed`` is not a bool (the message
            names the parameter).
        ValueError: A parameter has a bad shape or value: ragged or too few points, NaN, inf,
            a negative radius (the message names it).
    """

    def __init__(
        self,
        points: ArrayLike,
        radius: float = 20.0,
        closed: bool = False,
        radii: ArrayLike | None = None,
    ) -> None:
        self._closed = check_bool("closed", closed)
        self._radius = check_non_negative("radius", radius)
        self._uniform = True
        self._version = 0
        self._table: tuple[int, FloatArray] | None = None
        #: ``(version, PathPack)`` of this path alone, kept by :func:`~._path_pack.pack_of`.
        self._pack: tuple[int, Any] | None = None
        self._set_geometry(_check_points(points))
        if radii is not None:
            self.radii = radii
        self._version = 0

    @classmethod
    def from_astar(
        cls,
        points: ArrayLike | None,
        radius: float = 20.0,
        grid_size: float | None = None,
        closed: bool = False,
    ) -> Path:
        """Build a path from the result of ``arcade.astar_calculate_path``.

        arcade 3.3 returns grid *corner* points (cell index times grid size), or None when no
        path exists. Its barrier test put the moving sprite's centre exactly on those points, so
        they are the positions known to be clear: keep them (``grid_size=None``, the default)
        unless the barriers were laid out so that cell centres are the clear positions. With
        ``grid_size`` each point moves by ``grid_size / 2`` in x and y to its cell's centre,
        up to ``0.7 grid_size`` off what arcade checked. Repeated points and interior points on
        straight runs are dropped.

        Args:
            points: List of ``(x, y)`` points, or None.
            radius: Tube radius in pixels.
            grid_size: The ``AStarBarrierList`` grid size in pixels, or None to keep the points.
            closed: Whether the path loops back to its start.

        Returns:
            A new Path.

        Raises:
            ValueError: ``points`` is None or has fewer than 2 distinct points, or ``grid_size``
                is not a finite number > 0.
            TypeError: A parameter has the wrong type (as for :class:`Path`).
        """
        closed = check_bool("closed", closed)
        if points is None:
            raise ValueError("points is None: arcade.astar_calculate_path found no path")
        pts = _check_points(points)
        if grid_size is not None:
            pts = pts + check_positive("grid_size", grid_size) / 2.0
        pts = _simplify(pts, closed)
        if len(pts) < 2:
            raise ValueError("points holds a single distinct point: a path needs at least two")
        return cls(pts, radius=radius, closed=closed)

    def _set_geometry(self, points: FloatArray) -> None:
        # Everything is computed before anything is assigned, so a failure changes nothing.
        starts = points if self._closed else points[:-1]
        ends = np.roll(points, -1, axis=0) if self._closed else points[1:]
        delta = ends - starts
        lengths = np.hypot(delta[:, 0], delta[:, 1])
        ok = lengths > _DEGENERATE
        dirs = np.zeros_like(delta)
        dirs[ok] = delta[ok] / lengths[ok, None]
        if not ok.all():
            good, bad = np.flatnonzero(ok), np.flatnonzero(~ok)
            if good.size == 0:
                dirs[:] = (1.0, 0.0)  # all points coincide: any finite unit vector will do
            else:  # borrow the direction of the nearest real segment (by index)
                gap = np.abs(bad[:, None] - good[None, :])
                if self._closed:
                    gap = np.minimum(gap, len(lengths) - gap)
                dirs[bad] = dirs[good[np.argmin(gap, axis=1)]]
        cumulative = np.concatenate(([0.0], np.cumsum(lengths)))
        self._points = points
        self._starts = _frozen(np.ascontiguousarray(starts))
        self._ends = _frozen(np.ascontiguousarray(ends))
        self._dirs = _frozen(dirs)
        self._lengths = _frozen(lengths)
        self._cumulative = _frozen(cumulative)
        self._spans = np.diff(cumulative)  # unlike lengths, exact against cumulative in windows
        if self._uniform:
            self._radii = _frozen(np.full(len(lengths), self._radius))
        self._version += 1

    @property
    def points(self) -> FloatArray:
        """``(k, 2)`` vertices in pixels. Assign new points to move or reshape the path."""
        return self._points

    @points.setter
    def points(self, points: ArrayLike) -> None:
        pts = _check_points(points)
        count = len(pts) if self._closed else len(pts) - 1
        if not self._uniform and count != self.segment_count:
            raise ValueError(
                f"points gives {count} segments but there are {self.segment_count} per-segment "
                "radii; set path.radii = None (or new radii after) to change the count"
            )
        self._set_geometry(pts)

    @property
    def radius(self) -> float:
        """Uniform tube radius in pixels. Setting it replaces any per-segment ``radii``."""
        return self._radius

    @radius.setter
    def radius(self, radius: float) -> None:
        self._radius = check_non_negative("radius", radius)
        self._radii = _frozen(np.full(self.segment_count, self._radius))
        self._uniform = True
        self._version += 1

    @property
    def radii(self) -> FloatArray:
        """``(s,)`` tube radius of each segment in pixels; set None to use ``radius`` throughout."""
        return self._radii

    @radii.setter
    def radii(self, radii: ArrayLike | None) -> None:
        if radii is None:
            self.radius = self._radius
            return
        arr = check_array("radii", radii, ndim=1)
        if arr.shape != (self.segment_count,) or (arr < 0.0).any():
            raise ValueError(f"radii must be {self.segment_count} numbers >= 0, got {arr!r}")
        self._radii, self._uniform = _frozen(arr), False
        self._version += 1

    @property
    def version(self) -> int:
        """Counter incremented by every change of points, radius or radii."""
        return self._version

    @property
    def closed(self) -> bool:
        """Whether the last point joins the first."""
        return self._closed

    @property
    def length(self) -> float:
        """Total length in pixels."""
        return float(self._cumulative[-1])

    @property
    def segment_count(self) -> int:
        """Number of segments ``s``: ``k - 1`` open, ``k`` closed."""
        return len(self._lengths)

    @property
    def starts(self) -> FloatArray:
        """``(s, 2)`` first point of each segment."""
        return self._starts

    @property
    def ends(self) -> FloatArray:
        """``(s, 2)`` last point of each segment."""
        return self._ends

    @property
    def directions(self) -> FloatArray:
        """``(s, 2)`` unit direction of each segment (zero-length ones borrow the nearest)."""
        return self._dirs

    @property
    def segment_lengths(self) -> FloatArray:
        """``(s,)`` length of each segment in pixels."""
        return self._lengths

    @property
    def cumulative(self) -> FloatArray:
        """``(s + 1,)`` distance along the path to each segment start, then the total length."""
        return self._cumulative

    def __len__(self) -> int:
        return len(self._points)

    def __repr__(self) -> str:
        radius = f"radius={self._radius:g}" if self._uniform else "radii=[...]"
        return (
            f"Path({len(self)} points, length={self.length:.1f}, {radius}, closed={self._closed})"
        )

    def _segment_table(self) -> FloatArray:
        """``(7, r)`` columns ``x, y, dx, dy, at, span, radius``: each segment's start, unit
        direction, distance along the path of its start, length and tube radius (pixels).

        A closed path lists its segments twice (a second lap, ``at`` continuing past
        ``length``), so that any stretch of the loop shorter than it is one run of columns.
        Cached until the geometry changes; read-only. Batched queries over many paths
        (:class:`~arcade_steering._path_pack.PathPack`) stack these.
        """
        if self._table is None or self._table[0] != self._version:
            at = self._cumulative[:-1]
            rows = [*self._starts.T, *self._dirs.T, at, self._spans, self._radii]
            table = np.array(rows)
            if self._closed:
                lap = table.copy()
                lap[4] += self.length
                table = np.concatenate((table, lap), axis=1)
            self._table = (self._version, _frozen(table))
        return self._table[1]

    def _locate(self, distance: ArrayLike) -> tuple[FloatArray, NDArray[np.intp]]:
        """Wrapped (closed) or clamped (open) distances and the segment holding each."""
        d = _floats(distance, "distance")
        length = self.length
        if not self._closed:
            d = np.clip(d, 0.0, length)
        else:
            d = np.mod(d, length) if length > 0.0 else np.zeros_like(d)
        # side="right" skips zero-length segments, which share a cumulative value with the next.
        index = np.searchsorted(self._cumulative, d, side="right") - 1
        return d, np.clip(index, 0, self.segment_count - 1)

    def point_at(self, distance: ArrayLike) -> FloatArray:
        """Positions at distances along the path.

        Args:
            distance: ``(n,)`` distances in pixels (a scalar gives one ``(2,)`` point). Closed
                paths wrap modulo ``length``; open paths clamp to ``[0, length]``.

        Returns:
            ``(n, 2)`` points in pixels.
        """
        d, i = self._locate(distance)
        t = np.clip(d - self._cumulative[i], 0.0, self._spans[i])
        return self._starts[i] + self._dirs[i] * t[..., None]

    def direction_at(self, distance: ArrayLike) -> FloatArray:
        """Unit tangents ``(n, 2)``, finite everywhere, at ``(n,)`` distances (as ``point_at``)."""
        return self._dirs[self._locate(distance)[1]]

    def radius_at(self, distance: ArrayLike) -> FloatArray:
        """Tube radii ``(n,)`` in pixels at ``(n,)`` distances (wrapped/clamped as ``point_at``)."""
        return self._radii[self._locate(distance)[1]]

    def distance_between(self, d_from: ArrayLike, d_to: ArrayLike) -> FloatArray:
        """Signed along-path difference ``d_to - d_from`` (closed paths: the shorter way round).

        Args:
            d_from: ``(n,)`` distances in pixels, or a scalar.
            d_to: ``(n,)`` distances in pixels, or a scalar.

        Returns:
            ``(n,)`` differences in pixels; in ``[-length / 2, length / 2)`` on closed paths.
        """
        diff = _floats(d_to, "d_to") - _floats(d_from, "d_from")
        half = self.length / 2.0
        if self._closed and half > 0.0:
            diff = np.mod(diff + half, 2.0 * half) - half
        return diff

    def project(
        self, points: ArrayLike, near: ArrayLike | None = None, window: float | None = None
    ) -> PathProjection:
        """Closest points on the path (Reynolds' "normal points") for many query points.

        Without ``near`` the whole path is searched. With ``near`` (each follower's current
        distance along the path) only ``[near - WINDOW_BACK_FRACTION * window, near + window]``
        is searched, wrapping on closed paths, so a follower keeps to its branch where the path
        crosses itself. A closed path no longer than ``(1 + WINDOW_BACK_FRACTION) * window`` is
        searched whole.

        Args:
            points: ``(n, 2)`` query points in pixels.
            near: ``(n,)`` (or scalar) distances along the path in pixels, or None.
            window: Look-ahead span in pixels, ``>= 0`` (say twice the prediction distance);
                given exactly when ``near`` is.

        Returns:
            A :class:`PathProjection` of ``(n,)`` and ``(n, 2)`` arrays.

        Raises:
            ValueError: ``points`` is not finite ``(n, 2)``, ``near`` is not finite, ``window`` is
                negative or not finite, or only one of ``near`` and ``window`` is given.
        """
        p = check_array("points", points, ndim=2)
        if p.shape[1] != 2:
            raise ValueError(f"points must have shape (n, 2), got {p.shape}")
        if (near is None) != (window is None):
            raise ValueError("near and window must be given together (or neither)")
        length, lo, hi = self.length, None, None
        if near is not None and window is not None:
            w, at = check_non_negative("window", window), _floats(near, "near")
            if at.shape not in ((), (len(p),)):
                raise ValueError(f"near must be a scalar or shape ({len(p)},), got {at.shape}")
            if not (self._closed and (1.0 + WINDOW_BACK_FRACTION) * w >= length):
                at = np.mod(at, length) if self._closed else np.clip(at, 0.0, length)
                at = np.broadcast_to(at, (len(p),))
                lo, hi = at - WINDOW_BACK_FRACTION * w, at + w
        seg = np.empty(len(p), dtype=np.intp)
        along, d2 = np.empty(len(p)), np.empty(len(p))
        # Blocks keep each (rows, s) temporary small: big temporaries get fresh pages from the
        # OS on every call, which measured slower than the arithmetic itself.
        rows = max(1, _BLOCK // self.segment_count)
        for i in range(0, len(p), rows):
            b = slice(i, i + rows)
            seg[b], along[b], d2[b] = self._nearest(
                p[b], None if lo is None else lo[b], None if hi is None else hi[b]
            )
        distance = self._cumulative[seg] + along
        if self._closed and length > 0.0:
            distance = np.mod(distance, length)
        return PathProjection(
            distance=distance,
            point=self._starts[seg] + self._dirs[seg] * along[:, None],
            segment=seg,
            offset=np.sqrt(d2),
            radius=self._radii[seg],
        )

    def _nearest(
        self, p: FloatArray, lo: FloatArray | None, hi: FloatArray | None
    ) -> tuple[NDArray[np.intp], FloatArray, FloatArray]:
        """Nearest segment, its parameter and squared distance for ``(m, 2)`` points."""
        # Per segment, t is the coordinate along its line and cross2 the squared distance from
        # that line; a parameter tc clamped into the allowed range is then at squared distance
        # cross2 + (t - tc)^2, so a window only changes the clamp.
        dx, dy = self._dirs[:, 0], self._dirs[:, 1]
        rx = p[:, :1] - self._starts[:, 0]
        ry = p[:, 1:] - self._starts[:, 1]
        t = rx * dx
        t += ry * dy
        rx *= dy
        ry *= dx
        rx -= ry
        cross2 = np.multiply(rx, rx, out=rx)
        tc, d2 = self._clamped(t, cross2, lo, hi)
        if lo is not None and hi is not None and self._closed:
            length = self.length
            wrap = np.flatnonzero((lo < 0.0) | (hi > length))
            if wrap.size:  # the window crosses the seam: search its far part shifted by length
                shift = np.where(lo[wrap] < 0.0, length, -length)
                tc2, d22 = self._clamped(t[wrap], cross2[wrap], lo[wrap] + shift, hi[wrap] + shift)
                better = d22 < d2[wrap]
                tc[wrap] = np.where(better, tc2, tc[wrap])
                d2[wrap] = np.where(better, d22, d2[wrap])
        seg = np.argmin(d2, axis=1)
        rows = np.arange(len(p))
        return seg, tc[rows, seg], d2[rows, seg]

    def _clamped(
        self, t: FloatArray, cross2: FloatArray, lo: FloatArray | None, hi: FloatArray | None
    ) -> tuple[FloatArray, FloatArray]:
        """Clamp ``t`` (m, s) into each segment, or its part inside windows ``[lo, hi]`` (m,)."""
        t_lo: FloatArray | float = 0.0
        t_hi = self._spans
        if lo is not None and hi is not None:
            start = self._cumulative[:-1]
            t_lo = np.subtract.outer(lo, start)
            np.maximum(t_lo, 0.0, out=t_lo)
            t_hi = np.subtract.outer(hi, start)
            np.minimum(t_hi, self._spans, out=t_hi)
            t_hi[t_lo > t_hi] = -np.inf  # outside the window: infinite distance below
        tc = np.maximum(t, t_lo)
        np.minimum(tc, t_hi, out=tc)
        d2 = np.subtract(t, tc)
        d2 *= d2
        d2 += cross2
        return tc, d2


def _simplify(points: FloatArray, closed: bool) -> FloatArray:
    """Drop repeated points and interior points where the path runs straight on."""
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.any(points[1:] != points[:-1], axis=1)
    pts = points[keep]
    if closed and len(pts) > 1 and np.array_equal(pts[0], pts[-1]):
        pts = pts[:-1]
    if len(pts) < 3:
        return pts
    prev = np.roll(pts, 1, axis=0) if closed else pts[:-2]
    nxt = np.roll(pts, -1, axis=0) if closed else pts[2:]
    mid = pts if closed else pts[1:-1]
    a, b = mid - prev, nxt - mid
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    scale = np.hypot(a[:, 0], a[:, 1]) * np.hypot(b[:, 0], b[:, 1])
    straight = (np.abs(cross) <= 1e-9 * scale) & ((a * b).sum(axis=1) > 0.0)  # not a U-turn
    keep = ~straight if closed else np.concatenate(([True], ~straight, [True]))
    return pts[keep]
