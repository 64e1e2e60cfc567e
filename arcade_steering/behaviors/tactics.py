"""MatchVelocity, Interpose and Hide: steering by where others are and where they go.

After Buckland's *Programming Game AI by Example* and libGDX gdx-ai: move as another moves,
stand between two, and keep an obstacle between oneself and a hunter. The kernels take
positions as complex numbers ``x + iy`` where that saves numpy calls.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._util.masks import some
from .._util.vec import as_complex, as_points, lengths, scale_rows, truncate
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import group, param, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike
from ..debug import TARGET_COLOR
from ..geometry import KIND_OBSTACLE
from ..geometry._kernels import first_min
from .leader import station_velocity
from .seek import arrive_velocity, evade_velocity, fallback_directions, velocity_force

#: Hide's arrival at its spot: braking starts this far out (px), and this near is there.
HIDE_SLOWING_RADIUS = 60.0
HIDE_TOLERANCE = 2.0
#: On its way round an obstacle, Hide heads at most this far (radians) round the hiding
#: circle at a time: a chord of it keeps clear of the obstacle.
ROUND_STEP = math.pi / 4

# -- kernels ---------------------------------------------------------------------------------


def hiding_spots(
    centre: np.ndarray,
    size: np.ndarray,
    hunter: np.ndarray,
    position: np.ndarray,
    gap: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Buckland's hiding spots: behind each obstacle, seen from the hunter.

    Args:
        centre: Obstacle centres, complex ``(p,)`` px.
        size: Their radii ``(p,)`` px.
        hunter: The hunter's position for each pair, complex ``(p,)``.
        position: The hiding agent's position for each pair, complex ``(p,)``.
        gap: How far from the obstacle's centre the spot lies beyond its radius ``(p,)`` px
            (the agent's radius plus the wanted clearance).

    Returns:
        ``(spot, ring)``: the spots, complex ``(p,)``, on the far side of each obstacle on the
        line from the hunter through its centre, and their distances from the centre ``(p,)``.
        A hunter on an obstacle's centre is hidden from on the agent's side.
    """
    away = centre - hunter
    norm = np.abs(away)
    side = position - centre
    side_norm = np.abs(side)
    fallback = np.where(side_norm > 0.0, side / np.where(side_norm > 0.0, side_norm, 1.0), 1.0)
    unit = np.where(norm > 0.0, away / np.where(norm > 0.0, norm, 1.0), fallback)
    ring = size + gap
    return centre + ring * unit, ring


def way_round(
    position: np.ndarray, centre: np.ndarray, ring: np.ndarray, spot: np.ndarray
) -> np.ndarray:
    """Where to head for on the way to a spot on the ring round an obstacle (complex ``(k,)``).

    The spot itself when the straight way to it stays outside the ring (it lies on the arc of
    the ring the agent sees). Else, from afar, the tangent point of the ring on the spot's
    side; from near the ring (within ``ROUND_STEP`` of seeing as far as the tangent points
    are from afar), a point at most ``ROUND_STEP`` further round, on the tangent to the ring
    there: heading for it holds the agent on the ring, pushed back out if it is inside and
    drawn in if outside.
    """
    rel = position - centre
    distance = np.abs(rel)
    here = np.angle(rel)
    delta = np.angle((spot - centre) * np.exp(-1j * here))  # from here round to the spot
    visible = np.arccos(np.clip(ring / np.maximum(distance, 1e-12), 0.0, 1.0))
    far = visible >= ROUND_STEP
    step = np.where(far, visible, np.minimum(np.abs(delta), ROUND_STEP))
    reach = np.where(far, ring, ring / np.cos(step))
    waypoint = centre + reach * np.exp(1j * (here + np.where(delta >= 0.0, step, -step)))
    return np.where(np.abs(delta) <= visible, spot, waypoint)


# -- components ------------------------------------------------------------------------------


@built_in(lambda the: Arguments(target=the.leader))
class MatchVelocity(SteeringComponent):
    """Move as a target moves: steer to its velocity (gdx-ai's MatchVelocity).

    The force is ``(target velocity - velocity) / response_time``, the target's velocity
    truncated to ``max_speed``; where the target is does not matter. Blend it with a
    positional behaviour (:class:`~arcade_steering.Arrive`, :class:`~arcade_steering.Cohesion`)
    to move along with a group, or use it alone for an escort that keeps its offset.

    Args:
        target: A sprite (attached, or moved by the game: its velocity is then estimated from
            its position change between updates) or a zero-argument callable.
    """

    target: TargetLike = target(moving=True)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        targets = ctx.params(self).target
        desired = truncate(targets.velocity, ctx.max_speed)
        return targets.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


@built_in(lambda the: Arguments(a=the.leader, b=the.point))
class Interpose(SteeringComponent):
    """Stand between two targets, at the midpoint of where they will be (Buckland).

    Far from the midpoint, the agent aims at the midpoint of the two targets' positions
    predicted as far ahead as it needs to get near it (the distance beyond
    ``slowing_radius`` at ``max_speed``, at most ``max_prediction``); near it, it arrives there
    while matching the midpoint's velocity, so it keeps up with two moving targets instead of
    trailing behind the midpoint. A bodyguard between a VIP and a threat, a goalkeeper between
    the ball and the goal.

    Args:
        a: A point, a sprite or a zero-argument callable.
        b: Another.
        max_prediction: Longest look-ahead, seconds.
        slowing_radius: Distance (px) from the midpoint at which braking starts.
        tolerance: Distance (px) counted as arrived.
    """

    a: TargetLike = target()
    b: TargetLike = target()
    max_prediction: float = param(default=1.0, ge=0.0)
    slowing_radius: float = param(default=80.0, gt=0.0)
    tolerance: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        a, b = params.a, params.b
        middle = 0.5 * (a.position + b.position)
        drift = 0.5 * (a.velocity + b.velocity)
        slowing_radius = params.slowing_radius
        remaining = np.maximum(lengths(middle - ctx.position) - slowing_radius, 0.0)
        lookahead = np.minimum(remaining / ctx.max_speed, params.max_prediction)
        aim = middle + scale_rows(drift, lookahead)
        if ctx.debug is not None:
            ctx.debug.lines(a.position, b.position, TARGET_COLOR)
            ctx.debug.points(aim, TARGET_COLOR)
        desired = station_velocity(
            ctx.position,
            aim,
            drift,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            slowing_radius,
            params.tolerance,
        )
        force = velocity_force(desired, ctx.velocity, ctx.response_time)
        return a.silence(b.silence(force))


def check_cover(name: str, value: Any) -> Any:
    """Return ``value`` if it is None or a list or tuple of obstacles, else raise."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{name} must be None or a list of obstacles (the shapes add_obstacle returns), "
            f"got {type(value).__name__}"
        )
    for index, member in enumerate(value):
        if not (hasattr(member, "offset") and hasattr(member, "radius")):
            raise TypeError(
                f"{name}[{index}] must be an obstacle (a pymunk.Circle, as add_obstacle "
                f"returns), got {type(member).__name__}"
            )
    return value


@built_in(lambda the: Arguments(hunter=the.leader))
class Hide(SteeringComponent):
    """Keep an obstacle between the agent and a hunter (Buckland), else evade the hunter.

    Each round obstacle within ``reach`` of the agent offers a hiding spot: on the far side
    of it from the hunter, on the line from the hunter through its centre, ``distance`` px
    beyond its surface (plus the agent's radius). The agent arrives at the nearest spot,
    going round the obstacle (never straight through it) when the spot lies on its far side,
    and follows the spot round as the hunter moves. With no obstacle in reach it evades the
    hunter, as :class:`~arcade_steering.Evade` would.

    Walls are no cover, though they still hide the agent from the hunter's view
    (:meth:`~arcade_steering.SteeringWorld.can_see`). Put
    :class:`~arcade_steering.AvoidWalls` before it in a :class:`~arcade_steering.PriorityBlend`
    in a level with walls.

    Args:
        hunter: A point, a sprite or a zero-argument callable.
        among: The obstacles that give cover: None for every round obstacle of the world
            (read at every update), or a list of them (the ``pymunk.Circle`` shapes
            :meth:`~arcade_steering.SteeringWorld.add_obstacle` returns).
        reach: Only obstacles whose surface lies within this many px of the agent give
            cover.
        distance: Clearance (px) between the obstacle's surface and the agent's circle at the
            hiding spot.
        max_prediction: Longest look-ahead (seconds) of the evasion when no obstacle is near.
    """

    hunter: TargetLike = target()
    among: Any = group(check_cover, default=None)
    reach: float = param(default=250.0, gt=0.0)
    distance: float = param(default=10.0, ge=0.0)
    max_prediction: float = param(default=1.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        hunter = params.hunter
        rows, shapes = _covers(ctx, params.among, params.reach)
        geometry = ctx.geometry
        centre, size = geometry.capsules(shapes)
        position = as_complex(ctx.position)
        spot, ring = hiding_spots(
            centre,
            size,
            as_complex(hunter.position)[rows],
            position[rows],
            (ctx.radius + params.distance)[rows],
        )
        agents, pair, _ = first_min(rows, np.abs(spot - position[rows]))
        evade = np.ones(len(ctx), dtype=bool)
        evade[agents] = False
        aim = ctx.position.copy()
        aim[agents] = as_points(way_round(position[agents], centre[pair], ring[pair], spot[pair]))
        desired = arrive_velocity(
            ctx.position,
            aim,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            np.full(len(ctx), HIDE_SLOWING_RADIUS),
            np.full(len(ctx), HIDE_TOLERANCE),
        )
        if some(evade):
            where = np.flatnonzero(evade)
            desired[where] = evade_velocity(
                ctx.position[where],
                hunter.position[where],
                hunter.velocity[where],
                ctx.max_speed[where],
                params.max_prediction[where],
                fallback_directions(ctx)[where],
            )
        if ctx.debug is not None:
            ctx.debug.points(as_points(spot[pair]), TARGET_COLOR)
            ctx.debug.lines(ctx.position[agents], aim[agents], TARGET_COLOR)
        return hunter.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


def _covers(ctx: SteeringContext, among: Any, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(agent row, obstacle)`` pairs, rows ascending: the obstacles of each agent's
    ``among`` whose surface lies within its ``reach`` (``obstacle`` indexes the geometry)."""
    geometry = ctx.geometry
    found = []
    for cover, rows in among:
        if cover is None:
            pair_rows, shapes = geometry.pairs(
                ctx.position[rows, 0], ctx.position[rows, 1], reach[rows], "obstacles"
            )
            found.append((rows[pair_rows], shapes))
        else:
            listed = _listed(ctx, cover)
            found.append((np.repeat(rows, len(listed)), np.tile(listed, len(rows))))
    pair_rows = np.concatenate([each[0] for each in found])
    shapes = np.concatenate([each[1] for each in found])
    if len(found) > 1:
        order = np.argsort(pair_rows, kind="stable")
        pair_rows, shapes = pair_rows[order], shapes[order]
    centre, size = geometry.capsules(shapes)
    gap = np.abs(centre - as_complex(ctx.position)[pair_rows]) - size
    near = np.flatnonzero(gap <= reach[pair_rows])
    return pair_rows[near], shapes[near]


def _listed(ctx: SteeringContext, cover: list[Any]) -> np.ndarray:
    """The geometry's rows ``(k,)`` of the obstacles in ``cover`` (those still in the world),
    worked out again only when the geometry was rebuilt."""
    geometry = ctx.geometry
    cache = ctx.node_cache(("cover", id(cover)), dict)
    if cache.get("shapes") is not geometry.shapes:
        wanted = set(map(id, cover))
        obstacle = geometry.kind == KIND_OBSTACLE
        cache["rows"] = np.array(
            [
                row
                for row, shape in enumerate(geometry.shapes)
                if id(shape) in wanted and obstacle[row]
            ],
            dtype=np.intp,
        )
        cache["shapes"] = geometry.shapes
    return cache["rows"]
