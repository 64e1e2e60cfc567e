"""Following a leader: FollowLeader (a point behind it) and OffsetPursuit (a formation slot).

A leader is a sprite, attached to the world (its velocity and heading are the world's) or moved
by the game (its velocity is estimated from its position change between updates), or a
zero-argument callable returning ``(x, y)``. Its heading is the direction of its velocity and
is kept while it stands still, so a squad stays in place behind a leader that stops.

Followers hold a *station* that moves with the leader: the wanted velocity is the leader's
velocity plus an arrive towards the station. Matching the leader's velocity keeps a follower
on its station while the leader moves, where a plain arrive would trail behind it; when the
leader stops, only the arrive is left and the follower stops on its station.

A FollowLeader follower keeps out of the circle of radius ``distance`` round its leader: it is
pushed out of it (a squad that crowds round the point behind does not press its front row
into the leader), and when the straight way to the point behind crosses it (the leader turned
round and walks at its squad) the follower goes round the circle on its own side instead.
"""

from __future__ import annotations

import math

import numpy as np

from .._util.masks import every, some
from .._util.vec import (
    MIN_LENGTH,
    as_complex,
    as_points,
    divide_rows,
    dots,
    lengths,
    normalize,
    perpendicular,
    scale_rows,
    spread_directions,
    truncate,
    unit_complex,
    where_rows,
)
from ..component.base import SteeringComponent
from ..component.context import SteeringContext, Targets
from ..component.params import param, point, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike
from ..debug import TARGET_COLOR
from ._avoid_kernels import in_frame, lengths_of, times
from .seek import arrive_velocity, velocity_force

#: Below this speed (px/s) a leader keeps its last heading (as the world does for agents).
LEADER_MIN_SPEED = 1.0

#: The least angle (radians) a waypoint round the leader lies ahead of the follower on the
#: circle it keeps out of: a follower on that circle keeps going round it.
MIN_TURN = 0.5
_MIN_TURN_COS, _MIN_TURN_SIN = math.cos(MIN_TURN), math.sin(MIN_TURN)

#: How hard a follower is pushed out of the circle round its leader: this many times its
#: ``max_speed`` (as a wanted velocity) at the leader's centre, falling to 0 on the circle.
KEEP_OUT = 2.0

# -- kernels ---------------------------------------------------------------------------------


def station_velocity(
    position: np.ndarray,
    station: np.ndarray,
    station_velocity: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    response_time: np.ndarray,
    slowing_radius: np.ndarray,
    tolerance: np.ndarray,
) -> np.ndarray:
    """Velocity that reaches and then holds a moving station, ``(n, 2)`` px/s.

    The station's own velocity plus :func:`~arcade_steering.behaviors.seek.arrive_velocity`
    towards it, truncated to ``max_speed``. Shapes: points and velocities ``(n, 2)``,
    everything else ``(n,)``.
    """
    arrive = arrive_velocity(
        position, station, max_speed, max_acceleration, response_time, slowing_radius, tolerance
    )
    return truncate(station_velocity + arrive, max_speed)


def keep_pace(offset: np.ndarray, heading: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """How much of its leader's velocity a follower matches ``(n,)``, in [0, 1].

    All of it beside or behind the leader, none from ``distance`` (at least 10 px) ahead on:
    a follower that got ahead drops back instead of keeping pace in the leader's way.

    Args:
        offset: Follower minus leader ``(n, 2)``, px.
        heading: The leader's unit heading ``(n, 2)``.
        distance: The follow distance ``(n,)``, px.
    """
    along = dots(offset, heading)
    # np.clip's Python wrappers cost more than these two ufuncs (the same numbers: 1 - x is
    # never -0.0).
    return np.minimum(np.maximum(1.0 - along / np.maximum(distance, 10.0), 0.0), 1.0)


def way_round(
    offset: np.ndarray, turn: np.ndarray, distance: np.ndarray, ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where a follower heads to reach the point behind its leader without running into it.

    The point ``distance`` behind lies on the circle of radius ``distance`` round the leader.
    The straight way to it is taken unless it goes into that circle (a follower in front of a
    leader that turned round); then the way goes round the circle on the follower's side: to
    the point where the follower's tangent touches it (at least :data:`MIN_TURN` further
    round), so the follower steps aside while the leader passes it (Reynolds).

    The straight way goes in exactly when it reaches the point behind from inside the circle
    (the follower is ahead of that point) and first comes nearer the leader (a follower
    inside the circle walking away from it does not go round): both are sign tests, so a
    follower far behind is never sent round by the rounding of where its way comes nearest.

    Args:
        offset: Follower minus leader ``(n, 2)``, px.
        turn: The leader's unit heading as complex numbers ``(n,)`` (zero: straight to the
            point behind).
        distance: The follow distance ``(n,)``, px.
        ids: Integers ``(n,)``: a follower on the axis goes round on the left for an even
            one, on the right for an odd one.

    Returns:
        The waypoint minus the leader as complex numbers ``(n,)`` px (the point behind where
        the way is straight), and the rows whose way goes round ``(k,)``.
    """
    # Real: ahead of the leader, imag: to its left. Separate real products and sums, as
    # in_frame rounds them: numpy's complex product fuses multiply-adds on some CPUs, and a
    # follower on the leader's axis would go round or not by the machine (and the native step).
    local = in_frame(as_complex(offset), turn)
    behind = -distance
    # Coming nearer: the way to the point behind points against the follower's offset.
    nearer = local.real * (behind - local.real) - local.imag * local.imag < 0.0
    rows = ((local.real > behind) & nearer & (distance > 0.0)).nonzero()[0]
    waypoint = behind.astype(complex)
    if len(rows):  # the tangent's touching point, only for the few that go round
        near, reach = local.take(rows), distance.take(rows)
        across = near.imag
        side = np.where(across != 0.0, np.sign(across), 1.0 - 2.0 * (ids.take(rows) % 2))
        gap = lengths_of(near)  # > 0: a follower on the leader's centre is not coming nearer
        # The turn from the follower's bearing to the touching point, as cos + i sin (cos:
        # reach / gap), at least MIN_TURN. No arccos, arctan2, abs or complex product here:
        # numpy's round differently by the CPU, and the native step's as the C library does.
        ratio = reach / np.maximum(gap, reach)
        wide = ratio > _MIN_TURN_COS
        rotation = np.empty(len(rows), dtype=complex)
        rotation.real = np.where(wide, _MIN_TURN_COS, ratio)
        rotation.imag = side * np.where(wide, _MIN_TURN_SIN, np.sqrt(1.0 - ratio * ratio))
        waypoint[rows] = times(near * (reach / gap), rotation)
    return times(waypoint, turn), rows


def keep_out(
    offset: np.ndarray, distance: np.ndarray, max_speed: np.ndarray, ids: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The velocity that pushes followers out of the circle round the leader.

    Straight away from the leader, :data:`KEEP_OUT` times ``max_speed`` at its centre falling
    linearly to zero at ``distance``; zero outside.

    Args:
        offset: Follower minus leader ``(n, 2)``, px.
        distance: The circle's radius ``(n,)``, px.
        max_speed: ``(n,)`` px/s.
        ids: Integers ``(n,)`` giving a follower on the leader's centre its own way out.

    Returns:
        The rows inside the circle ``(k,)`` and their push as complex numbers ``(k,)`` px/s
        (the others' is zero).
    """
    gap = lengths(offset)
    rows = (gap < distance).nonzero()[0]
    if not len(rows):
        return rows, np.zeros(0, dtype=complex)
    gap, reach = gap.take(rows), distance.take(rows)
    weight = KEEP_OUT * np.maximum(1.0 - gap / reach, 0.0) * max_speed.take(rows)
    away = unit_complex(offset.take(rows, axis=0), gap)
    centred = gap <= MIN_LENGTH
    if some(centred):
        away[centred] = as_complex(spread_directions(ids.take(rows)[centred]))
    return rows, away * weight


def local_to_world(heading: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """Turn offsets in a leader's frame ``(n, 2)`` (ahead, left) into world offsets (px).

    Args:
        heading: The leaders' unit headings ``(n, 2)``.
        offset: ``(ahead, left)`` px per agent ``(n, 2)``: the world offset when the leader
            faces +x.
    """
    return heading * offset[:, :1] + perpendicular(heading) * offset[:, 1:]


# -- leader parameter and heading ------------------------------------------------------------


def leader_headings(ctx: SteeringContext, leader: Targets) -> tuple[np.ndarray, np.ndarray]:
    """Each agent's leader heading, kept while the leader stands still.

    Moving leaders head along their velocity; the last heading seen is kept in per-agent
    state. A leader attached to the world that has not moved yet heads the way the world says
    (its sprite's angle at attach).

    Args:
        ctx: The batch.
        leader: Every agent's leader (a target parameter of the component).

    Returns:
        Unit headings ``(n, 2)`` (zero where unknown) and whether each is known ``(n,)``.
    """
    # Worked out once per distinct leader (a row is the same numbers however many follow it).
    velocity = leader.distinct_velocity
    speed = lengths(velocity)
    moving = speed > LEADER_MIN_SPEED
    which = leader.which
    fresh = divide_rows(velocity, np.maximum(speed, LEADER_MIN_SPEED)).take(which, axis=0)
    if every(moving):  # the usual case: no leader stands still, no follower's memory counts
        ctx.set_state("leader_heading", fresh)
        return fresh, moving.take(which)  # all true
    # Whole rows and a where(): masked gathers and scatters of (n, 2) rows cost more.
    heading = where_rows(moving.take(which), fresh, ctx.state("leader_heading", shape=(2,)))
    unknown = np.isnan(heading[:, 0])
    if not some(unknown):  # the usual case: every leader has moved
        ctx.set_state("leader_heading", heading)
        return heading, ~unknown
    slots = leader.slots.take(which)  # each agent's leader's slot, -1 for none
    rows = np.flatnonzero(unknown & (slots >= 0))
    heading[rows] = ctx.world_heading(slots.take(rows))
    unknown = np.isnan(heading[:, 0])
    ctx.set_state("leader_heading", heading)
    heading[unknown] = 0.0
    return heading, ~unknown


def follow_heading(ctx: SteeringContext, leader: Targets) -> np.ndarray:
    """Each FollowLeader agent's leader heading ``(n, 2)``, unit: :func:`leader_headings`,
    or, while it is unknown, towards the leader, so that "behind" is the follower's own side
    and it holds its distance."""
    heading, known = leader_headings(ctx, leader)
    if every(known):
        return heading
    toward = normalize(leader.position - ctx.position, spread_directions(ctx.slots))
    return where_rows(known, heading, toward)


def pursuit_heading(ctx: SteeringContext, leader: Targets) -> np.ndarray:
    """Each OffsetPursuit agent's leader heading ``(n, 2)``, unit: :func:`leader_headings`,
    or +x while it is unknown."""
    heading, known = leader_headings(ctx, leader)
    heading[~known] = (1.0, 0.0)
    return heading


# -- components ------------------------------------------------------------------------------


@built_in(lambda the: Arguments(leader=the.leader))
class FollowLeader(SteeringComponent):
    """Follow ``distance`` px behind a leader, matching its velocity, and stop when it stops.

    Combine it with :class:`~arcade_steering.Separation` among the squad so followers do not
    pile up on one point, and with :class:`~arcade_steering.EvadeSightCone` first in a
    :class:`~arcade_steering.PriorityBlend` so they keep out of the leader's way::

        PriorityBlend(
            EvadeSightCone(leader),
            WeightedBlend((FollowLeader(leader), 1.0), (Separation(30, among=squad), 1.5)),
        )

    The follower keeps ``distance`` from the leader all round: inside that circle it is
    pushed out, and when the leader turns round and walks at it, it steps aside and goes
    round the circle, keeping pace, to the point behind instead of cutting through the leader.

    Until the leader's heading is known (a leader moved by the game that has not moved yet),
    the point behind it is taken on the follower's side of it.

    Args:
        leader: A sprite (attached, or moved by the game) or a zero-argument callable.
        distance: How far behind the leader, and how far from it all round (px, >= 0).
        slowing_radius: Distance (px) from the point behind at which braking starts.
        tolerance: Distance (px) counted as arrived.

    Raises:
        TypeError: ``leader`` is not a sprite or a callable.
        ValueError: ``distance`` is negative, ``slowing_radius`` not positive, or
            ``tolerance`` negative.
    """

    leader: TargetLike = target(moving=True)
    distance: float = param(default=40.0, ge=0.0)
    slowing_radius: float = param(default=80.0, gt=0.0)
    tolerance: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        leader_target = params.leader
        leader = leader_target.position
        heading = follow_heading(ctx, leader_target)
        distance = params.distance
        position = ctx.position
        offset = position - leader
        turn = as_complex(heading)
        waypoint, going_round = way_round(offset, turn, distance, ctx.slots)
        station = as_complex(leader) + waypoint
        pace = keep_pace(offset, heading, distance)
        if len(going_round):
            # Keeping pace, towards the waypoint, braking for the whole way to the point
            # behind: the follower goes round the leader as the leader sees it.
            start = as_complex(position).take(going_round)
            step = station.take(going_round) - start
            behind = turn.take(going_round) * distance.take(going_round)
            length = lengths(as_points(step))
            remaining = length + lengths(as_points(waypoint.take(going_round) + behind))
            station[going_round] = start + unit_complex(as_points(step), length) * remaining
            pace[going_round] = 1.0
        if ctx.debug is not None:
            ctx.debug.points(leader + as_points(waypoint), TARGET_COLOR)
        desired = station_velocity(
            position,
            as_points(station),
            scale_rows(leader_target.velocity, pace),
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            params.slowing_radius,
            params.tolerance,
        )
        pushed, push = keep_out(offset, distance, ctx.max_speed, ctx.slots)
        as_complex(desired)[pushed] += push  # a view: desired is C-contiguous
        return leader_target.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


@built_in(lambda the: Arguments(leader=the.leader, offset=(-20.0, 10.0)))
class OffsetPursuit(SteeringComponent):
    """Hold a slot at a fixed offset in the leader's frame, predicting where it will be.

    The offset is ``(ahead, left)`` in px: the world offset when the leader faces +x (right),
    turned with the leader. ``(-40, 0)`` is 40 px behind, ``(-30, 20)`` behind and to its
    left. :mod:`arcade_steering.formations` makes lists of offsets for a squad. Until the
    leader's heading is known, it is taken as +x.

    Args:
        leader: A sprite (attached, or moved by the game) or a zero-argument callable.
        offset: ``(ahead, left)`` px.
        max_prediction: Longest look-ahead, seconds: a follower far from its slot aims at
            where the slot will be when it gets near (``(distance - slowing_radius) /
            max_speed``, at most this); near it, matching the leader's velocity holds it.
        slowing_radius: Distance (px) from the slot at which braking starts.
        tolerance: Distance (px) counted as arrived.

    Raises:
        TypeError: ``leader`` is not a sprite or a callable, or ``offset`` not a pair.
        ValueError: A number is out of range.
    """

    leader: TargetLike = target(moving=True)
    offset: tuple[float, float] = point()
    max_prediction: float = param(default=1.0, ge=0.0)
    slowing_radius: float = param(default=80.0, gt=0.0)
    tolerance: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        leader = params.leader
        heading = pursuit_heading(ctx, leader)
        slot = leader.position + local_to_world(heading, params.offset)
        leader_velocity = leader.velocity
        # Predict only for the way to the braking zone: inside it, matching the leader's
        # velocity holds the slot exactly, and a look-ahead would shift it forwards.
        slowing_radius = params.slowing_radius
        remaining = np.maximum(lengths(slot - ctx.position) - slowing_radius, 0.0)
        lookahead = np.minimum(remaining / ctx.max_speed, params.max_prediction)
        aim = slot + scale_rows(leader_velocity, lookahead)
        if ctx.debug is not None:
            ctx.debug.points(aim, TARGET_COLOR)
        desired = station_velocity(
            ctx.position,
            aim,
            leader_velocity,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            slowing_radius,
            params.tolerance,
        )
        return leader.silence(velocity_force(desired, ctx.velocity, ctx.response_time))
