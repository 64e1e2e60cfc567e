"""Walls and obstacles as shapes in a :class:`pymunk.Space`: adding, tagging, removing.

This is the one module that creates pymunk shapes. Walls are :class:`pymunk.Segment` shapes
and obstacles :class:`pymunk.Circle` shapes on the space's static body, tagged with
:data:`GEOMETRY_FILTER` and :data:`WALL_COLLISION_TYPE`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from numbers import Real

import numpy as np
import pymunk

from .._util.validate import check_bool, check_point, check_points

__all__ = [
    "GEOMETRY_FILTER",
    "WALL_CATEGORY",
    "WALL_COLLISION_TYPE",
    "WORLD_BOUND",
    "add_obstacle",
    "add_shapes",
    "add_wall",
    "add_walls",
    "edge_walls",
    "free_removed",
    "obstacle_circle",
    "remove_shape",
    "wall_segments",
]

#: Collision category bit of the walls and obstacles this module adds.
WALL_CATEGORY: int = 1 << 30

#: Shape filter of the walls and obstacles this module adds, also a query filter that finds
#: them with pymunk's own queries (``space.point_query_nearest(p, d, GEOMETRY_FILTER)``).
#:
#: ``mask = WALL_CATEGORY`` rather than 0: pymunk tests filters both ways for queries too, so
#: a mask of 0 would hide the shapes from every pymunk query. With this mask our static shapes
#: collide only with shapes whose ``categories`` include ``WALL_CATEGORY``. pymunk's default
#: filter (the one :class:`arcade.PymunkPhysicsEngine` gives its sprites) has every category,
#: so when the space is shared, physics bodies are blocked by steering walls, which is usually
#: why a space is shared. To let a body pass through them, clear the bit from its categories:
#: ``pymunk.ShapeFilter(categories=pymunk.ShapeFilter.ALL_CATEGORIES() & ~WALL_CATEGORY)``.
GEOMETRY_FILTER = pymunk.ShapeFilter(categories=WALL_CATEGORY, mask=WALL_CATEGORY)

#: ``collision_type`` of the shapes this module adds. :class:`arcade.PymunkPhysicsEngine`
#: numbers its named collision types 0, 1, 2, ...; pymunk's default 0 would make our walls
#: trigger the handlers of the engine's first type, with no sprite for the wall.
WALL_COLLISION_TYPE: int = 0x57A71C

#: Walls and obstacles lie within this distance of the origin, px (and are no thicker or
#: larger): the grids that index them need finite cell counts. A hundred million pixels is some
#: 50,000 screens of 1920 px in each direction.
WORLD_BOUND = 1e8

# --------------------------------------------------------------------------- shape helpers


def _within(point: tuple[float, float], name: str) -> tuple[float, float]:
    """``point`` if both coordinates lie within :data:`WORLD_BOUND`, else ``ValueError``."""
    if abs(point[0]) > WORLD_BOUND or abs(point[1]) > WORLD_BOUND:
        raise ValueError(f"{name} must lie within {WORLD_BOUND:g} px of the origin, got {point}")
    return point


def add_wall(
    space: pymunk.Space,
    a: Sequence[float],
    b: Sequence[float],
    thickness: float = 0.0,
) -> pymunk.Segment:
    """Add a wall from ``a`` to ``b`` to the space's static body.

    Args:
        space: The space to add to.
        a: First end ``(x, y)`` in world px.
        b: Second end ``(x, y)`` in world px; must differ from ``a`` (a zero-length wall has
            no direction; use :func:`add_obstacle` for a round post).
        thickness: Full thickness in px (the segment's radius is half of it), >= 0.

    Returns:
        The new segment, filtered with :data:`GEOMETRY_FILTER`.

    Raises:
        TypeError: ``space`` is not a space, or a point or ``thickness`` is not numeric.
        ValueError: A point is not finite, ``b == a``, or ``thickness`` is negative or
            not finite. Nothing is added.
    """
    check_space(space)
    pa, pb = _within(check_point("a", a), "a"), _within(check_point("b", b), "b")
    radius = _length(thickness, "thickness") / 2.0
    if pa == pb:
        raise ValueError(f"b must differ from a (zero-length wall at {pa})")
    segment = _segment(space, pa, pb, radius)
    space.add(segment)
    return segment


def add_walls(
    space: pymunk.Space,
    points: Sequence[Sequence[float]] | np.ndarray,
    closed: bool = False,
    thickness: float = 0.0,
) -> list[pymunk.Segment]:
    """Add a polyline of walls through ``points``.

    Repeated consecutive points are skipped, not refused. With ``closed=True`` a wall from
    the last point back to the first is added too (unless they are the same point, or only
    two distinct points remain, which makes one wall).

    Args:
        space: The space to add to.
        points: At least two ``(x, y)`` vertices in world px, shape ``[k, 2]``.
        closed: Whether to close the loop.
        thickness: Full thickness in px, >= 0.

    Returns:
        The new segments, in polyline order.

    Raises:
        TypeError: ``space`` is not a space, or ``points`` / ``thickness`` is not numeric.
        ValueError: Fewer than two distinct points, a non-finite point, or a negative or
            non-finite ``thickness``. Nothing is added.
    """
    segments = wall_segments(space, points, closed, thickness)
    add_shapes(space, segments)
    return segments


def wall_segments(
    space: pymunk.Space,
    points: Sequence[Sequence[float]] | np.ndarray,
    closed: bool = False,
    thickness: float = 0.0,
) -> list[pymunk.Segment]:
    """The walls :func:`add_walls` would add, built on the space's static body but not added.

    For building many walls first and adding them all at once with :func:`add_shapes`, so that
    a failure on the way adds nothing. Arguments, checks and errors are those of
    :func:`add_walls`.

    Returns:
        The segments, in polyline order, in no space yet.
    """
    check_space(space)
    checked = check_points("points", points)
    if len(checked) and np.abs(checked).max() > WORLD_BOUND:
        raise ValueError(f"points must lie within {WORLD_BOUND:g} px of the origin")
    verts = [(x, y) for x, y in checked.tolist()]
    closed = check_bool("closed", closed)
    radius = _length(thickness, "thickness") / 2.0
    if len(verts) < 2:
        raise ValueError(f"points needs at least 2 vertices, got {len(verts)}")
    distinct = [verts[0]]
    for vertex in verts[1:]:
        if vertex != distinct[-1]:
            distinct.append(vertex)
    if len(distinct) < 2:
        raise ValueError("points needs at least 2 distinct vertices, all are equal")
    closing = closed and len(distinct) > 2 and distinct[-1] != distinct[0]
    body = space.static_body
    if body.position != (0, 0) or body.angle:  # a moved static body: each vertex once
        distinct = [_local(body, vertex) for vertex in distinct]
    pairs = list(itertools.pairwise(distinct))
    if closing:
        pairs.append((distinct[-1], distinct[0]))
    return [_local_segment(body, pa, pb, radius) for pa, pb in pairs]


def edge_walls(
    space: pymunk.Space, starts: np.ndarray, ends: np.ndarray, radius: float
) -> list[pymunk.Segment]:
    """Walls from each of ``starts`` to the same row of ``ends``, built on the space's static
    body but not added (for :func:`add_shapes`): the many edges of an outline at once, with no
    checks but the space's.

    Args:
        space: The space whose static body they go on.
        starts: ``[m, 2]`` world px, finite, within :data:`WORLD_BOUND`.
        ends: ``[m, 2]`` world px, each row differing from that of ``starts``.
        radius: Half the walls' thickness, px, finite and >= 0.

    Returns:
        The segments, in row order, tagged like :func:`add_wall`'s.
    """
    check_space(space)
    body = space.static_body
    if body.position != (0, 0) or body.angle:
        starts = np.array([_local(body, (x, y)) for x, y in starts.tolist()]).reshape(-1, 2)
        ends = np.array([_local(body, (x, y)) for x, y in ends.tolist()]).reshape(-1, 2)
    return [
        _local_segment(body, (ax, ay), (bx, by), radius)
        for (ax, ay), (bx, by) in zip(starts.tolist(), ends.tolist(), strict=True)
    ]


def add_shapes(space: pymunk.Space, shapes: Sequence[pymunk.Shape]) -> None:
    """Add many shapes to the space at once, in time linear in their number.

    pymunk puts each static shape into a bounding-box tree as it comes. Shapes added in
    spatial order (the edges of one long polyline, one after the other) build a tree as deep as
    there are shapes: adding them then takes time quadratic in their number (40,000 edges of
    a straight line: 15 s), and a deep enough tree overflows the C stack. Here the middle
    shape goes in first, then the middles of the two halves, and so on, which keeps the tree
    about log2(n) deep.

    Args:
        space: The space to add to.
        shapes: Shapes on bodies already in the space (such as those of
            :func:`wall_segments` and :func:`obstacle_circle`), in no space yet.

    Raises:
        TypeError: ``space`` is not a space, or an item is not a ``pymunk.Shape``.
        ValueError: A shape is already in a space, or listed twice. Nothing is added.
    """
    check_space(space)
    shapes = list(shapes)
    for shape in shapes:
        if not isinstance(shape, pymunk.Shape):
            raise TypeError(f"shapes must hold pymunk.Shapes, got {type(shape).__name__}")
        if shape.space is not None:
            raise ValueError("shapes must not be in a space yet")
    if len({id(shape) for shape in shapes}) != len(shapes):
        raise ValueError("shapes lists a shape twice")
    space.add(*[shapes[index] for index in _middle_first(len(shapes))])


def _middle_first(count: int) -> list[int]:
    """``range(count)`` reordered: the middle, then the middles of each half, and so on."""
    order: list[int] = []
    spans = [(0, count)]
    while spans:
        halves = []
        for low, high in spans:
            if low < high:
                middle = (low + high) // 2
                order.append(middle)
                halves += [(low, middle), (middle + 1, high)]
        spans = halves
    return order


def add_obstacle(space: pymunk.Space, center: Sequence[float], radius: float) -> pymunk.Circle:
    """Add a round obstacle to the space's static body.

    Args:
        space: The space to add to.
        center: Centre ``(x, y)`` in world px.
        radius: Radius in px, > 0.

    Returns:
        The new circle, filtered with :data:`GEOMETRY_FILTER`.

    Raises:
        TypeError: ``space`` is not a space, or ``center`` / ``radius`` is not numeric.
        ValueError: ``center`` is not finite, or ``radius`` is not a finite number > 0.
            Nothing is added.
    """
    circle = obstacle_circle(space, center, radius)
    space.add(circle)
    return circle


def obstacle_circle(space: pymunk.Space, center: Sequence[float], radius: float) -> pymunk.Circle:
    """The obstacle :func:`add_obstacle` would add, built on the space's static body but not
    added (for :func:`add_shapes`). Arguments, checks and errors are those of
    :func:`add_obstacle`."""
    check_space(space)
    c = _within(check_point("center", center), "center")
    r = _length(radius, "radius", positive=True)
    body = space.static_body
    circle = pymunk.Circle(body, r, _local(body, c))
    _tag(circle)
    return circle


def remove_shape(space: pymunk.Space, shape: pymunk.Shape) -> None:
    """Remove a wall or obstacle (or any shape) from the space.

    Args:
        space: The space holding ``shape``.
        shape: The shape to remove.

    Raises:
        TypeError: ``space`` is not a space or ``shape`` not a shape.
        ValueError: ``shape`` is not in ``space``.
    """
    check_space(space)
    if not isinstance(shape, pymunk.Shape):
        raise TypeError(f"shape must be a pymunk.Shape, got {type(shape).__name__}")
    if shape.space is None or shape.space != space:
        raise ValueError("shape is not in this space")
    space.remove(shape)


def free_removed(space: pymunk.Space, removed: Sequence[pymunk.Shape]) -> None:
    """Let pymunk free ``removed``, shapes just taken out of a space the caller owns.

    pymunk keeps every removed shape (for the collision callbacks of a step in progress) until
    the space's next ``step``: a space nobody steps keeps them for ever. A step of zero seconds
    frees them and moves nothing (Chipmunk returns at once when ``dt == 0``). Never call it for
    a space the game steps itself (its own ``step`` frees them). Inside a step of the space,
    where pymunk puts removals off, it does nothing.
    """
    if removed and all(shape.space is None for shape in removed):
        space.step(0.0)


def _segment(
    space: pymunk.Space, a: tuple[float, float], b: tuple[float, float], radius: float
) -> pymunk.Segment:
    body = space.static_body
    return _local_segment(body, _local(body, a), _local(body, b), radius)


def _local(body: pymunk.Body, point: tuple[float, float]) -> tuple[float, float]:
    """``point`` (world px) in ``body``'s frame."""
    x, y = body.world_to_local(point)
    return x, y


def _local_segment(
    body: pymunk.Body, a: tuple[float, float], b: tuple[float, float], radius: float
) -> pymunk.Segment:
    """A tagged segment from ``a`` to ``b`` in the body's own frame."""
    segment = pymunk.Segment(body, a, b, radius)
    _tag(segment)
    return segment


def _tag(shape: pymunk.Shape) -> None:
    shape.filter = GEOMETRY_FILTER
    shape.collision_type = WALL_COLLISION_TYPE


def check_space(space: object) -> None:
    if not isinstance(space, pymunk.Space):
        raise TypeError(f"space must be a pymunk.Space, got {type(space).__name__}")


def _length(value: object, name: str, positive: bool = False) -> float:
    """Validate a finite scalar length, >= 0 (> 0 if ``positive``)."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    length = float(value)
    if not np.isfinite(length) or length < 0.0 or (positive and length == 0.0):
        raise ValueError(
            f"{name} must be finite and {'> 0' if positive else '>= 0'}, got {value!r}"
        )
    if length > WORLD_BOUND:
        raise ValueError(f"{name} must be at most {WORLD_BOUND:g} px, got {value!r}")
    return length
