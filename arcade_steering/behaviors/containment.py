"""Containment: stay inside a rectangle or a polygon, feeling ahead as AvoidWalls does.

The region's outline is a set of thin walls of its own (not the world's): the agent feels for
them with :class:`~arcade_steering.AvoidWalls`' three feelers and is pushed back in along the
outline's normal, sliding along it. An agent that is outside all the same (put there by the
game, or by a force stronger than the push) heads straight back in.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._util.masks import every, some
from .._util.validate import check_points, check_real
from .._util.vec import normalize, scale_rows
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import group, param
from ..component.registry import Arguments, built_in
from ..geometry import WORLD_BOUND, StaticGeometry
from ._avoid_kernels import look_ahead
from .avoid import feel_walls
from .seek import velocity_force

__all__ = ["Containment", "Region", "check_region", "reentry", "region_outline"]

#: How far inside the outline (beyond its radius) an agent that got out heads for, px.
REENTRY = 2.0


class Region:
    """A closed polygon to stay in: the checked ``region`` of a :class:`Containment`.

    Args:
        points: Its vertices ``(k, 2)`` px, ``k >= 3``, no two consecutive ones equal, not
            all on one line; convex or not, either way round.
    """

    __slots__ = ("points",)

    def __init__(self, points: np.ndarray) -> None:
        self.points = np.array(points, dtype=float)
        self.points.flags.writeable = False

    def __repr__(self) -> str:
        corners = ", ".join(f"({x:g}, {y:g})" for x, y in self.points.tolist())
        return f"Region([{corners}])"

    def edges(self) -> tuple[np.ndarray, np.ndarray]:
        """The outline's edges: starts and ends ``(k, 2)``."""
        return self.points, np.roll(self.points, -1, axis=0)

    def contains(self, points: np.ndarray) -> np.ndarray:
        """Which of ``points`` ``(n, 2)`` lie inside (by the crossing number) ``(n,)``."""
        a, b = self.edges()
        px, py = points[:, :1], points[:, 1:]
        spans = (a[:, 1] > py) != (b[:, 1] > py)
        rise = np.where(spans, b[:, 1] - a[:, 1], 1.0)
        crossing_x = a[:, 0] + (py - a[:, 1]) * (b[:, 0] - a[:, 0]) / rise
        return (np.count_nonzero(spans & (px < crossing_x), axis=1) % 2) == 1

    def nearest(self, points: np.ndarray) -> np.ndarray:
        """The nearest point of the outline to each of ``points`` ``(n, 2)``, ``(n, 2)``."""
        a, b = self.edges()
        ab = b - a
        rel = points[:, None, :] - a[None]
        t = np.clip(np.einsum("nkj,kj->nk", rel, ab) / np.einsum("kj,kj->k", ab, ab), 0.0, 1.0)
        closest = a[None] + t[..., None] * ab[None]
        gap = np.linalg.norm(points[:, None, :] - closest, axis=2)
        return closest[np.arange(len(points)), gap.argmin(axis=1)]


def check_region(name: str, value: Any) -> Region:
    """A :class:`Region` from an ``arcade.Rect`` (anything with ``left``, ``right``,
    ``bottom`` and ``top``), a sequence of ``(x, y)`` vertices or a region; else raise naming
    ``name``."""
    if isinstance(value, Region):
        return value
    if all(hasattr(value, side) for side in ("left", "right", "bottom", "top")):
        left, right = check_real(name, value.left), check_real(name, value.right)
        bottom, top = check_real(name, value.bottom), check_real(name, value.top)
        if not (left < right and bottom < top):
            raise ValueError(f"{name} must have left < right and bottom < top, got {value!r}")
        points = np.array([(left, bottom), (right, bottom), (right, top), (left, top)])
    else:
        if (
            isinstance(value, (tuple, list))
            and len(value) == 4
            and not any(isinstance(item, (tuple, list, np.ndarray)) for item in value)
        ):
            raise TypeError(
                f"{name} must be an arcade.Rect (arcade.LRBT(left, right, bottom, top)) or "
                "a sequence of (x, y) vertices, not 4 bare numbers"
            )
        points = check_points(name, value)
    if np.abs(points).max(initial=0.0) > WORLD_BOUND:
        raise ValueError(f"{name} must lie within {WORLD_BOUND:g} px of the origin")
    keep = np.any(points != np.roll(points, 1, axis=0), axis=1)  # repeats, and a closing one
    points = points[keep] if some(keep) else points[:1]
    x, y = points[:, 0], points[:, 1]
    area = 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))
    if len(points) < 3 or area == 0.0:
        raise ValueError(f"{name} must enclose an area: 3 or more vertices not on one line")
    return Region(points)


@built_in(lambda the: Arguments(region=[(0, 0), (300, 0), (300, 300), (150, 100), (0, 300)]))
class Containment(SteeringComponent):
    """Stay inside a region: a rectangle or a polygon, convex or not (OpenSteer's containment).

    The region's outline is felt for like :class:`~arcade_steering.AvoidWalls` feels for
    walls: three feelers reach ahead, the front one by default as far as the agent needs to
    stop from ``max_speed``, each sweeping the agent's circle; where they cross the outline
    the agent is pushed back in and slides along it. Inside and clear of the outline the force
    is exactly zero, so it goes first in a :class:`~arcade_steering.PriorityBlend`:
    ``PriorityBlend(Containment(arcade.LRBT(0, 800, 0, 600)), Wander())``. An agent outside
    the region (put there by the game) heads straight back in at full speed. The outline
    belongs to the component, not to the world's walls: other agents and the solid step do
    not see it.

    Args:
        region: An ``arcade.Rect`` (``arcade.LRBT(left, right, bottom, top)``,
            ``arcade.LBWH(...)``) or the vertices ``[(x, y), ...]`` of a polygon, 3 or more.
        length: Front feeler length (px) at ``max_speed``, beyond the agent's circle; None for
            the stopping distance ``max_speed² / (2 max_force / mass)`` plus the radius.
        side_angle: Degrees between the front feeler and each side feeler, 0 to 90.
        side_ratio: Side feelers' length as a fraction of the front one's, 0 to 1.
    """

    region: Any = group(check_region)
    length: float | None = param(default=None, gt=0.0)
    side_angle: float = param(default=45.0, ge=0.0, le=90.0)
    side_ratio: float = param(default=0.5, ge=0.0, le=1.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        regions = params.region
        geometry, owner = region_outline(ctx, regions)
        speed = np.linalg.norm(ctx.velocity, axis=1)
        length = look_ahead(
            speed, ctx.max_speed, ctx.max_force / ctx.mass, ctx.radius, params.length
        )
        force = feel_walls(
            ctx, geometry, length, params.side_angle, params.side_ratio, (regions.index, owner)
        )
        out, desired = reentry(ctx, regions)
        if len(out):
            force[out] = velocity_force(desired, ctx.velocity[out], ctx.response_time[out])
        return force


def region_outline(ctx: SteeringContext, regions: Any) -> tuple[StaticGeometry, np.ndarray]:
    """One geometry of every region's edges (made once for the place of the tree, until a
    region changes), and each edge's region ``(m,)`` (an index into ``regions.values``)."""
    return ctx.node_cache(("outline", *map(id, regions.values)), lambda: _outline(regions))


def reentry(ctx: SteeringContext, regions: Any) -> tuple[np.ndarray, np.ndarray]:
    """The rows ``(k,)`` of the agents outside their region and the velocity ``(k, 2)`` that
    takes each straight back in, at full speed, to ``REENTRY`` px beyond its circle."""
    found = []
    for region, rows in regions:
        inside = region.contains(ctx.position[rows])
        if every(inside):
            continue
        out = rows[~inside]
        position = ctx.position[out]
        edge = region.nearest(position)
        way_in = normalize(edge - position, normalize(region.points.mean(0) - position))
        aim = edge + scale_rows(way_in, ctx.radius[out] + REENTRY)
        found.append((out, scale_rows(normalize(aim - position, way_in), ctx.max_speed[out])))
    if not found:
        return np.zeros(0, dtype=np.intp), np.zeros((0, 2))
    return np.concatenate([out for out, _ in found]), np.concatenate([d for _, d in found])


def _outline(regions: Any) -> tuple[StaticGeometry, np.ndarray]:
    """One geometry of every region's edges, and each edge's region (an index into
    ``regions.values``)."""
    polygons = [region.points for region in regions.values]
    owner = np.repeat(np.arange(len(polygons)), [len(points) for points in polygons])
    return StaticGeometry.outlines(polygons), owner
