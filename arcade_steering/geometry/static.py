"""StaticGeometry: a numpy mirror of a space's static shapes, with batched queries."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pymunk

from .._util.validate import check_rows
from ._broad_phase import as_column
from ._capsules import CapsuleQueries, Kinds
from .hits import NearestHits, RayHits
from .shapes import add_walls, check_space

__all__ = ["StaticGeometry"]


class StaticGeometry(CapsuleQueries):
    """A numpy mirror of a space's static segments, polygons and circles, with batched queries.

    Every :class:`pymunk.Segment`, :class:`pymunk.Poly` and :class:`pymunk.Circle` on a static
    body is mirrored, whoever added it and whatever its filter. A polygon becomes one wall row
    per edge (a capsule of the polygon's radius), so every wall query sees its closed outline.
    Sensors (which pymunk's own queries skip too) and shapes on dynamic or kinematic bodies are
    not mirrored: :attr:`ignored` lists them. Rows are segments first, then polygon edges, then
    circles; :attr:`shapes` maps a row back to its pymunk shape (a polygon once per edge).

    Call :meth:`sync` every frame: it only rebuilds when shapes were added or removed.
    Moving a static body or editing a shape in place (``unsafe_set_endpoints``, a body type
    change, toggling ``sensor``) is not noticed: call ``sync(space, force=True)`` after it.

    Queries treat shapes as solids: a segment is a capsule of its radius, a circle a disc. A uniform
    grid limits each query row to the shapes near it; a handful of shapes are searched exhaustively.

    Args:
        space: Optional space to :meth:`sync` with at once.
    """

    def __init__(self, space: pymunk.Space | None = None) -> None:
        super().__init__()
        #: The mirrored pymunk shapes; query results' ``shape`` indexes this list.
        self.shapes: list[pymunk.Shape] = []
        self._space_key: tuple[pymunk.Shape, ...] | None = None
        self._static_key: tuple[pymunk.Shape, ...] | None = None
        self._space_set: set[pymunk.Shape] = set()
        self._static_set: set[pymunk.Shape] = set()
        if space is not None:
            self.sync(space)

    @classmethod
    def outlines(cls, polygons: Sequence[np.ndarray]) -> StaticGeometry:
        """Thin walls round closed polygons, in a space of their own (for a region that is
        not the world's: a component's bounds).

        Args:
            polygons: Vertices ``(k, 2)`` px of each polygon, no two consecutive ones equal.

        Returns:
            A geometry whose :attr:`shapes` are the polygons' edges, polygon by polygon, in
            vertex order (edge ``i`` runs from vertex ``i`` to ``i + 1``, the last one back to
            the first).
        """
        space = pymunk.Space()
        for points in polygons:
            add_walls(space, points, closed=True)
        return cls(space)

    def __repr__(self) -> str:
        segments = self._n_segments
        return f"StaticGeometry(segments={segments}, circles={len(self.shapes) - segments})"

    def raycast(
        self,
        starts: np.ndarray,
        ends: np.ndarray,
        inflate: float | np.ndarray = 0.0,
        kinds: Kinds = "all",
    ) -> RayHits:
        """First contact of circles of radius ``inflate`` swept from ``starts`` to ``ends``.

        Equivalent to casting thin rays against shapes grown by ``inflate``: segments become
        capsules of radius ``segment radius + inflate``, circles discs of ``radius + inflate``.
        A ray starting inside a grown shape hits it at alpha 0, with the outward gradient at
        the start as normal (the deepest shape wins where several overlap); one starting
        exactly on a surface hits at alpha 0 only if it moves inwards. A zero-length ray
        (start == end) is a point test. Rays up to about 500 px long (with ``inflate``)
        cost a few numpy calls per ray batch, whatever their number; longer ones visit every
        grid cell of their bounding boxes.

        Args:
            starts: Ray starts, shape ``[n, 2]``, world px; ``n`` may be 0.
            ends: Ray ends, shape ``[n, 2]``, world px.
            inflate: Radius of the swept circle in px, >= 0: a scalar or shape ``[n]``.
            kinds: ``"walls"`` (segments), ``"obstacles"`` (circles) or ``"all"``.

        Returns:
            A :class:`RayHits` of ``n`` rows, all finite.

        Raises:
            TypeError: A non-numeric argument.
            ValueError: Bad shapes, non-finite values, negative ``inflate`` or unknown
                ``kinds``.
        """
        s = check_rows("starts", starts, "(x, y)")
        e = check_rows("ends", ends, "(x, y)")
        if e.shape != s.shape:
            raise ValueError(f"ends must have the shape of starts {s.shape}, got {e.shape}")
        grow = _per_row(inflate, len(s), "inflate")
        return self.cast(s, e, grow, kinds)

    def nearest(
        self,
        points: np.ndarray,
        max_distance: float | np.ndarray,
        kinds: Kinds = "all",
    ) -> NearestHits:
        """Nearest shape surface to each point, within ``max_distance``.

        Matches ``space.point_query_nearest(point, max_distance, filter)``: the shape with
        the smallest signed distance wins (the deepest one where shapes overlap), except
        that a surface exactly ``max_distance`` away counts as found. Cost grows with
        ``max_distance``: keep it to what the caller needs.

        Args:
            points: Query points, shape ``[n, 2]``, world px; ``n`` may be 0.
            max_distance: Search radius in px, finite and >= 0: a scalar or shape ``[n]``.
            kinds: ``"walls"`` (segments), ``"obstacles"`` (circles) or ``"all"``.

        Returns:
            A :class:`NearestHits` of ``n`` rows, all finite.

        Raises:
            TypeError: A non-numeric argument.
            ValueError: Bad shapes, non-finite values, negative ``max_distance`` or unknown
                ``kinds``.
        """
        p = check_rows("points", points, "(x, y)")
        reach = _per_row(max_distance, len(p), "max_distance")
        return self.near(p, reach, kinds)

    def candidates(
        self, points: np.ndarray, reach: float | np.ndarray, kinds: Kinds = "all"
    ) -> tuple[np.ndarray, np.ndarray]:
        """Shapes that may lie within ``reach`` of each point: a broad phase for callers
        running their own exact tests (a detection box, a cone) over the pairs.

        Every shape whose surface is within ``reach`` of a point is listed for it, once;
        some farther ones may be listed too.

        Args:
            points: Query points, shape ``[n, 2]``, world px.
            reach: Search radius in px, finite and >= 0: a scalar or shape ``[n]``.
            kinds: ``"walls"`` (segments), ``"obstacles"`` (circles) or ``"all"``.

        Returns:
            ``(rows, shapes)``: two ``[p]`` int arrays, a query row and an index into
            :attr:`shapes` per pair, ``rows`` ascending.
        """
        p = check_rows("points", points, "(x, y)")
        radius = _per_row(reach, len(p), "reach")

        def bounds() -> tuple[np.ndarray, np.ndarray]:
            pad = as_column(radius)
            return p - pad, p + pad

        return self._broad.pairs(*self._kind_rows(kinds), p[:, 0], p[:, 1], radius, bounds)

    @property
    def static_shapes(self) -> tuple[pymunk.Shape, ...]:
        """The space's static segments, polygons and circles as last synced, in the space's
        order."""
        return self._static_key or ()

    @property
    def ignored(self) -> tuple[pymunk.Shape, ...]:
        """The shapes of the space, as last synced, that queries do not see: sensors and shapes
        on dynamic or kinematic bodies (a physics engine's moving sprites), in the space's
        order. Worked out on each call: for a report, not for every frame."""
        mirrored = self._static_set
        return tuple(s for s in self._space_key or () if s not in mirrored)

    def sync(self, space: pymunk.Space, force: bool = False) -> bool:
        """Bring the mirror up to date with ``space``'s static segments, polygons and circles.

        Cheap when nothing changed (one tuple comparison over the space's shapes: 2 µs for
        150 shapes, 20 µs for 1,500), so it can run every frame. When only other shapes
        came or went (a physics engine's bullets), only those are looked at, not rebuilt.

        Args:
            space: The space to mirror.
            force: Rebuild even if the set of shapes looks unchanged (after moving a static
                body or editing a shape in place).

        Returns:
            Whether the mirror was rebuilt.
        """
        check_space(space)
        space_key = tuple(space.shapes)
        if space_key == self._space_key and not force:
            return False
        present = set(space_key)
        before, static_before = self._space_set, self._static_set
        self._space_key, self._space_set = space_key, present
        if not force and self._static_key is not None:
            added = _static_shapes(tuple(present - before))
            if not added and static_before.isdisjoint(before - present):
                return False
        static = _static_shapes(space_key)
        if static == self._static_key and not force:
            return False
        self._static_key, self._static_set = static, set(static)
        self._rebuild(static)
        return True

    def _rebuild(self, static: tuple[pymunk.Shape, ...]) -> None:
        segments = [s for s in static if isinstance(s, pymunk.Segment)]
        polygons = [s for s in static if isinstance(s, pymunk.Poly)]
        circles = [s for s in static if isinstance(s, pymunk.Circle)]
        edge_a, edge_b, edge_radius, edge_shapes = _polygon_edges(polygons)
        m = len(segments) + len(edge_a)
        a = np.zeros((m + len(circles), 2))
        b = np.zeros_like(a)
        radius = np.zeros(len(a))
        for row, seg in enumerate(segments):
            a[row] = seg.body.local_to_world(seg.a)
            b[row] = seg.body.local_to_world(seg.b)
            radius[row] = seg.radius
        edges = slice(len(segments), m)
        a[edges], b[edges], radius[edges] = edge_a, edge_b, edge_radius
        for row, circle in enumerate(circles, start=m):
            a[row] = b[row] = circle.body.local_to_world(circle.offset)
            radius[row] = circle.radius
        self.shapes = [*segments, *edge_shapes, *circles]
        self._load(a, b, radius, m)


def _polygon_edges(
    polygons: list[pymunk.Poly],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[pymunk.Poly]]:
    """The edges of ``polygons`` in world px: first ends ``[e, 2]``, second ends ``[e, 2]``,
    radii ``[e]`` and the polygon of each edge, polygon by polygon in vertex order.

    pymunk keeps a polygon convex with distinct vertices; a degenerate one (all vertices equal)
    gives one zero-length edge, a disc of its radius, which the capsule kernels handle.
    """
    local: list[tuple[float, float]] = []
    counts: list[int] = []
    for poly in polygons:
        vertices = poly.get_vertices()
        local += vertices
        counts.append(len(vertices))
    if not local:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0), []
    owner = np.repeat(np.arange(len(polygons)), counts)
    bodies = [poly.body for poly in polygons]
    position = np.array([tuple(body.position) for body in bodies], dtype=float)[owner]
    turn = np.array([tuple(body.rotation_vector) for body in bodies], dtype=float)[owner]
    x, y = np.array(local, dtype=float).T
    starts = position + np.column_stack(
        (turn[:, 0] * x - turn[:, 1] * y, turn[:, 1] * x + turn[:, 0] * y)
    )
    following = np.arange(1, len(starts) + 1)
    firsts = np.cumsum(counts) - np.asarray(counts)
    following[np.cumsum(counts) - 1] = firsts  # the last vertex joins the first
    radius = np.array([poly.radius for poly in polygons])[owner]
    return starts, starts[following], radius, [polygons[i] for i in owner.tolist()]


def _static_shapes(shapes: tuple[pymunk.Shape, ...]) -> tuple[pymunk.Shape, ...]:
    """The static, non-sensor segments, polygons and circles among ``shapes``, in order."""
    static = pymunk.Body.STATIC
    return tuple(
        s
        for s in shapes
        if isinstance(s, (pymunk.Segment, pymunk.Poly, pymunk.Circle))
        and not s.sensor
        and s.body.body_type == static
    )


def _per_row(value: object, n: int, name: str) -> float | np.ndarray:
    """Validate a finite, non-negative scalar or ``[n]`` array."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number or an array of numbers") from None
    if arr.ndim == 0:
        scalar = float(arr)
        if not np.isfinite(scalar) or scalar < 0.0:
            raise ValueError(f"{name} must be finite and >= 0, got {scalar}")
        return scalar
    if arr.shape != (n,):
        raise ValueError(f"{name} must be a scalar or have shape ({n},), got {arr.shape}")
    if not (np.isfinite(arr).all() and (arr >= 0.0).all()):
        raise ValueError(f"{name} must be finite and >= 0")
    return arr
