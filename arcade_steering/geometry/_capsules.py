"""Batched queries over capsules held in numpy arrays: the core of :class:`StaticGeometry`.

:class:`CapsuleQueries` holds walls and obstacles as capsules (a core segment ``a -> b`` with
a radius; a circle has ``a == b``) in column arrays, with uniform grids for the broad phase
(:mod:`~arcade_steering.geometry._broad_phase`) and the narrow-phase kernels of
:mod:`~arcade_steering.geometry._kernels`. :class:`~arcade_steering.geometry.StaticGeometry`
fills it from a pymunk space and adds the checked public queries; nothing here knows pymunk.

These are the per-frame methods: they skip argument checks and hold 2-D vectors as complex
numbers ``x + iy`` where that saves numpy calls (the count of calls, not rows, sets the cost).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .._util.vec import as_complex
from . import _kernels as _k
from ._broad_phase import BroadPhase, CapsuleGrid, as_column
from ._frames import LocalFrames, cast_fans, first_contacts, frame_pairs, overlaps
from .hits import KIND_OBSTACLE, KIND_WALL, NearestHits, RayHits

__all__ = ["CapsuleQueries", "Kinds"]

Kinds = Literal["walls", "obstacles", "all"]
_KINDS = ("walls", "obstacles", "all")


# --------------------------------------------------------------------------- the queries


class CapsuleQueries:
    """Walls (segments, first) and obstacles (circles) as capsule arrays, and batched queries.

    Queries treat shapes as solids: a segment is a capsule of its radius, a circle a disc.
    A uniform grid limits each query row to the shapes near it; a handful of shapes are
    searched exhaustively. Fill it with :meth:`_load`.
    """

    def __init__(self) -> None:
        self._count = 0
        self._n_segments = 0
        self._cols = np.zeros((_k.NCOL, 0))
        self._start_z = np.zeros(0, dtype=complex)
        self._turn_z = np.zeros(0, dtype=complex)
        self._kind = np.zeros(0, dtype=np.int8)
        self._broad = BroadPhase(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0))

    def __len__(self) -> int:
        """Number of shapes."""
        return self._count

    @property
    def segment_a(self) -> np.ndarray:
        """``[m, 2]`` world px, first ends of the mirrored segments (read-only view)."""
        return self._view(_k.AX, slice(None, self._n_segments))

    @property
    def segment_b(self) -> np.ndarray:
        """``[m, 2]`` world px, second ends of the mirrored segments (read-only view)."""
        return self._view(_k.BX, slice(None, self._n_segments))

    @property
    def segment_radius(self) -> np.ndarray:
        """``[m]`` px, radii (half thicknesses) of the mirrored segments (read-only view)."""
        return self._view(_k.RAD, slice(None, self._n_segments))

    @property
    def circle_center(self) -> np.ndarray:
        """``[k, 2]`` world px, centres of the mirrored circles (read-only view)."""
        return self._view(_k.AX, slice(self._n_segments, None))

    @property
    def circle_radius(self) -> np.ndarray:
        """``[k]`` px, radii of the mirrored circles (read-only view)."""
        return self._view(_k.RAD, slice(self._n_segments, None))

    @property
    def kind(self) -> np.ndarray:
        """``[m + k]`` int8 :data:`KIND_WALL` or :data:`KIND_OBSTACLE` per mirrored shape."""
        view = self._kind.view()
        view.flags.writeable = False
        return view

    def _view(self, column: int, rows: slice) -> np.ndarray:
        """Read-only ``[r, 2]`` view of an x/y column pair, or ``[r]`` of the radius."""
        cols = self._cols[column : column + 2] if column != _k.RAD else self._cols[column]
        view = cols[..., rows].T
        view.flags.writeable = False
        return view

    def _load(self, a: np.ndarray, b: np.ndarray, radius: np.ndarray, segments: int) -> None:
        """Hold new shapes: capsules ``a -> b`` ``[m, 2]`` px of ``radius`` ``[m]`` px, the
        first ``segments`` of them walls, the rest obstacles (circles, ``a == b``)."""
        m = segments
        length = np.hypot(*(b - a).T)
        safe = np.where(length > 0.0, length, 1.0)
        ux = np.where(length > 0.0, (b[:, 0] - a[:, 0]) / safe, 1.0)
        uy = np.where(length > 0.0, (b[:, 1] - a[:, 1]) / safe, 0.0)
        on_core = np.stack((uy, -ux), axis=1)  # a segment's right normal, as pymunk
        on_core[m:] = (0.0, 1.0)  # +y at a circle's centre, as pymunk
        cols = np.empty((_k.NCOL, len(a)))
        cols[_k.AX : _k.AY + 1] = a.T
        cols[_k.BX : _k.BY + 1] = b.T
        cols[_k.UX], cols[_k.UY], cols[_k.LEN], cols[_k.RAD] = ux, uy, length, radius
        cols[_k.GX : _k.GY + 1] = on_core.T
        self._cols = cols
        # The same, as complex numbers for the ray kernel: first ends and conj(direction).
        self._start_z = a[:, 0] + 1j * a[:, 1]
        self._turn_z = ux - 1j * uy
        self._count = len(a)
        self._n_segments = m
        self._kind = np.full(len(a), KIND_OBSTACLE, dtype=np.int8)
        self._kind[:m] = KIND_WALL
        self._broad = BroadPhase(a, b, radius)

    # ----------------------------------------------------------------------- queries

    def cast(
        self,
        starts: np.ndarray,
        ends: np.ndarray,
        inflate: float | np.ndarray,
        kinds: Kinds = "all",
    ) -> RayHits:
        """:meth:`raycast` without the argument checks, for the per-frame hot path.

        Args:
            starts: Finite float array ``[n, 2]``, px.
            ends: Finite float array ``[n, 2]``, px.
            inflate: Float >= 0 or finite float array ``[n]``, px.
            kinds: As :meth:`raycast`.
        """
        first, stop = self._kind_rows(kinds)
        grow = inflate
        # 2-D vectors as complex numbers: one numpy call per vector operation, 1-D gathers.
        sz = as_complex(starts)
        dz = as_complex(ends) - sz
        # Half the ray's taxicab length bounds half its length: a cheap, safe reach.
        reach = np.abs(dz.real)
        reach += np.abs(dz.imag)
        reach *= 0.5
        reach += grow
        mid = sz + 0.5 * dz

        def bounds() -> tuple[np.ndarray, np.ndarray]:
            pad = as_column(grow)
            return np.minimum(starts, ends) - pad, np.maximum(starts, ends) + pad

        rows, items = self._broad.pairs(first, stop, mid.real, mid.imag, reach, bounds)
        return self.cast_pairs(starts, ends, inflate, rows, items)

    def cast_pairs(
        self,
        starts: np.ndarray,
        ends: np.ndarray,
        inflate: float | np.ndarray,
        rows: np.ndarray,
        shapes: np.ndarray,
    ) -> RayHits:
        """First contacts of swept circles with given candidate shapes only.

        The narrow phase of :meth:`raycast`: a caller that already has candidates (from
        :meth:`pairs`, for several rays or several steps at once) tests just those. No
        argument checks.

        Args:
            starts: Finite float array ``[n, 2]``, px.
            ends: Finite float array ``[n, 2]``, px.
            inflate: Float >= 0 or finite float array ``[n]``, px.
            rows: ``[p]`` ray of each candidate pair, ascending.
            shapes: ``[p]`` index into :attr:`shapes` of each pair.

        Returns:
            A :class:`RayHits` of ``n`` rows, as :meth:`raycast` would give if the pairs
            held every shape each swept circle touches.
        """
        n = len(starts)
        hit = np.zeros(n, dtype=bool)
        alpha = np.ones(n)
        point = np.array(ends, dtype=float)
        normal = np.zeros((n, 2))
        shape = np.full(n, -1, dtype=np.intp)
        kind = np.zeros(n, dtype=np.int8)
        if len(rows) == 0:  # nothing near any ray: the common case, kept cheap
            return RayHits(hit, alpha, point, normal, shape, kind)
        sz = as_complex(starts)
        frames = self.local_frames
        pairs = frame_pairs(frames, rows, shapes, inflate)[0]
        at, reached, contact, found, pair = first_contacts(frames, pairs, sz, as_complex(ends) - sz)
        j = shapes[pair]
        hit[at] = True
        shape[at] = j
        kind[at] = self._kind[j]
        alpha[at] = reached
        point.view(np.complex128)[at, 0] = contact
        normal.view(np.complex128)[at, 0] = found
        return RayHits(hit, alpha, point, normal, shape, kind)

    def blocked(self, starts: np.ndarray, ends: np.ndarray, kinds: Kinds = "all") -> np.ndarray:
        """``cast(starts, ends, 0.0, kinds).hit`` without the contacts: whether a shape stands
        in each thin ray's way, for lines of sight. Its broad phase visits only the grid cells
        a ray crosses, so long rays cost in proportion to their length, not to their bounding
        box's area. No argument checks.

        Args:
            starts: Finite float array ``[n, 2]``, px.
            ends: Finite float array ``[n, 2]``, px.
            kinds: As :meth:`raycast`.

        Returns:
            ``[n]`` bool.
        """
        blocked = np.zeros(len(starts), dtype=bool)
        rows, shapes = self._broad.segment_pairs(*self._kind_rows(kinds), starts, ends)
        if len(rows) == 0:
            return blocked
        sz = as_complex(starts)
        turn = self._turn_z[shapes]
        w = (sz[rows] - self._start_z[shapes]) * turn
        q = (as_complex(ends) - sz)[rows] * turn
        cols = self._cols
        key = _k.ray_keys_local(w, q, cols[_k.LEN].take(shapes), cols[_k.RAD].take(shapes))
        blocked[rows[key <= 1.0]] = True
        return blocked

    def cast_fans(
        self,
        origins: np.ndarray,
        rays: np.ndarray,
        inflate: np.ndarray,
        rows: np.ndarray,
        shapes: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """First contacts of ``f`` swept circles from each origin: see
        :func:`~arcade_steering.geometry._frames.cast_fans`. No argument checks."""
        return cast_fans(self.local_frames, origins, rays, inflate, rows, shapes)

    def near(
        self,
        points: np.ndarray,
        max_distance: float | np.ndarray,
        kinds: Kinds = "all",
    ) -> NearestHits:
        """:meth:`nearest` without the argument checks, for the per-frame hot path.

        Args:
            points: Finite float array ``[n, 2]``, px.
            max_distance: Float >= 0 or finite float array ``[n]``, px.
            kinds: As :meth:`nearest`.
        """
        p, reach = points, max_distance
        first, stop = self._kind_rows(kinds)

        def bounds() -> tuple[np.ndarray, np.ndarray]:
            pad = as_column(reach)
            return p - pad, p + pad

        rows, items = self._broad.pairs(first, stop, p[:, 0], p[:, 1], reach, bounds)
        return self.near_pairs(p, reach, rows, items)

    def near_pairs(
        self,
        points: np.ndarray,
        max_distance: float | np.ndarray,
        rows: np.ndarray,
        shapes: np.ndarray,
    ) -> NearestHits:
        """Nearest surfaces among given candidate shapes only.

        The narrow phase of :meth:`nearest`, for a caller that already has candidates (from
        :meth:`pairs`, perhaps for several queries at once). No argument checks.

        Args:
            points: Finite float array ``[n, 2]``, px.
            max_distance: Float >= 0 or finite float array ``[n]``, px.
            rows: ``[p]`` query point of each candidate pair, ascending.
            shapes: ``[p]`` index into :attr:`shapes` of each pair.
        """
        p, reach = points, max_distance
        n = len(p)
        found = np.zeros(n, dtype=bool)
        distance = reach.copy() if isinstance(reach, np.ndarray) else np.full(n, float(reach))
        point = np.array(p, dtype=float)
        normal = np.zeros((n, 2))
        shape = np.full(n, -1, dtype=np.intp)
        kind = np.zeros(n, dtype=np.int8)
        if len(rows) == 0:
            return NearestHits(found, distance, point, normal, shape, kind)
        sh = self._cols.take(shapes, axis=1)
        q = as_complex(point)[rows]
        signed = _k.core_distance(q.real, q.imag, sh)
        signed -= sh[_k.RAD]
        limit = reach[rows] if isinstance(reach, np.ndarray) else reach
        at, pair, best = _k.first_min(rows, np.where(signed <= limit, signed, np.inf))
        if len(at) == 0:
            return NearestHits(found, distance, point, normal, shape, kind)
        j = shapes[pair]
        found[at] = True
        distance[at] = best
        shape[at] = j
        kind[at] = self._kind[j]
        sh = sh[:, pair]
        q = q[pair]
        gx, gy, cx, cy = _k.gradient(q.real, q.imag, sh)
        normal[at, 0], normal[at, 1] = gx, gy
        point[at, 0] = cx + sh[_k.RAD] * gx
        point[at, 1] = cy + sh[_k.RAD] * gy
        return NearestHits(found, distance, point, normal, shape, kind)

    def pairs(
        self, x: np.ndarray, y: np.ndarray, reach: float | np.ndarray, kinds: Kinds = "all"
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`candidates` without the argument checks, for the per-frame hot path.

        Args:
            x: Query points' x, finite ``[n]`` px.
            y: Query points' y, finite ``[n]`` px.
            reach: Float >= 0 or finite float array ``[n]``, px.
            kinds: As :meth:`candidates`.
        """

        def bounds() -> tuple[np.ndarray, np.ndarray]:
            p = np.column_stack((x, y))
            pad = as_column(reach)
            return p - pad, p + pad

        return self._broad.pairs(*self._kind_rows(kinds), x, y, reach, bounds)

    def capsules(self, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """First ends (a circle's centre) and radii of shape rows.

        Args:
            shapes: ``[k]`` indices into :attr:`shapes`.

        Returns:
            ``(a [k], radius [k])``: ``a`` complex ``x + iy`` in px, radii in px.
        """
        return self._start_z.take(shapes), self._cols[_k.RAD].take(shapes)

    def frames(self, shapes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The cores of shape rows as complex numbers ``x + iy``.

        Args:
            shapes: ``[k]`` indices into :attr:`shapes`.

        Returns:
            ``(a [k], u [k], length [k])``: first end (a circle's centre), unit direction
            (1 for a circle) and core length in px; the core runs from ``a`` to
            ``a + length * u``.
        """
        return self._start_z[shapes], self._turn_z[shapes].conj(), self._cols[_k.LEN].take(shapes)

    def overlaps(
        self,
        points: np.ndarray,
        radius: float | np.ndarray,
        rows: np.ndarray,
        shapes: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """How deep circles overlap candidate shapes, and which way is out: see
        :func:`~arcade_steering.geometry._frames.overlaps`. No argument checks.

        Args:
            points: Circle centres, finite float array ``[n, 2]``, px.
            radius: Circle radii, float >= 0 or ``[n]``, px.
            rows: ``[p]`` circle of each candidate pair.
            shapes: ``[p]`` index of each pair's shape.

        Returns:
            ``(depth [p], normal [p, 2])``: overlap in px (negative: the gap) and the
            outward unit normal.
        """
        frames = self.local_frames
        pairs = frame_pairs(frames, rows, shapes, 0.0)[0]
        grow = radius.take(rows) if isinstance(radius, np.ndarray) else np.full(len(rows), radius)
        depth, normal = overlaps(frames, pairs, pairs.local(as_complex(points)), grow)
        return depth, normal.view(np.float64).reshape(-1, 2)

    @property
    def grid(self) -> CapsuleGrid:
        """The broad phase's grid over every shape (walls, then obstacles)."""
        return self._broad.grid

    @property
    def local_frames(self) -> LocalFrames:
        """The shapes as queries in their own frames need them (see :mod:`._frames`)."""
        return LocalFrames(self._cols, self._start_z, self._turn_z)

    def _kind_rows(self, kinds: object) -> tuple[int, int]:
        """Rows ``(first, stop)`` of :attr:`shapes` holding ``kinds`` (segments come first)."""
        if kinds == "all":
            return 0, self._count
        if kinds == "walls":
            return 0, self._n_segments
        if kinds == "obstacles":
            return self._n_segments, self._count
        raise ValueError(f"kinds must be one of {_KINDS}, got {kinds!r}")
