"""EvadeSightCone: keep out of the way in front of a leader.

The leader's view is the circular sector of radius ``length`` and half-angle ``half_angle``
around where it looks, as :meth:`~arcade_steering.SteeringWorld.can_see` tests it; with
``occluded=True`` walls hide followers. A follower in view steers out sideways, towards the
nearer edge and away from where the leader will be; one just outside that heads in is
stopped there, so it waits outside rather than hovers on the border; otherwise the force is
exactly zero, so the component belongs first in a :class:`~arcade_steering.PriorityBlend`. A
leader braking to turn round already looks the way it is turning to, and a look that turns
(Face, Scan, the game) is followed to where it is turning: its squad makes way before the
view gets there.
"""

from __future__ import annotations

import numpy as np

from .._core.perception import in_sight, occlude
from .._util.masks import some
from .._util.vec import (
    as_complex,
    as_points,
    dots,
    normalize,
    perpendicular,
    put_rows,
    scale_rows,
    where_rows,
)
from ..component.base import SteeringComponent
from ..component.context import SteeringContext, Targets
from ..component.params import flag, param, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike
from ..debug import SIGHT_COLOR
from ._avoid_kernels import in_frame, times
from .avoid_agents import closest_approach
from .leader import leader_headings

#: How much "away from the leader's predicted position" counts next to "out sideways".
AWAY_WEIGHT = 0.5

#: Seconds ahead the leader's velocity is extrapolated (from its change over the last step):
#: a leader whose velocity will then point backwards looks that way already.
ANTICIPATION = 0.25

#: Seconds ahead a turning look is extrapolated (from its turn over the last step): a
#: follower leaves the part of the view the look is sweeping towards before it gets there.
LOOK_ANTICIPATION = 0.4

#: The most a look is extrapolated to turn, radians: a look that jumps (a game setting it)
#: is taken a quarter turn further at most, not round and round.
MAX_TURN_AHEAD = np.pi / 2

#: A band this many px beyond the view's reach and :data:`WAIT_WIDENING` radians beyond its
#: edges, where a follower heading into the view is stopped: it waits outside.
WAIT_MARGIN = 20.0
WAIT_WIDENING = np.radians(10.0)

_ARC_SIDES = 12

# -- kernels ---------------------------------------------------------------------------------


def escape_directions(
    gap: np.ndarray, heading: np.ndarray, side_fallback: np.ndarray
) -> np.ndarray:
    """Unit directions out of a leader's view: sideways, and away from the leader.

    Args:
        gap: Follower minus leader ``(n, 2)`` px at their closest approach (now, for a
            follower keeping pace): its side of the axis is the edge to leave by, and the
            follower moves away from the leader's position then.
        heading: Where the leader looks, unit ``(n, 2)``.
        side_fallback: ``+1`` (left) or ``-1`` (right) ``(n,)`` for a follower on the axis.
    """
    left = perpendicular(heading)
    across = dots(gap, left)
    side = np.where(np.abs(across) > 1e-9, np.sign(across), side_fallback)
    sideways = scale_rows(left, side)
    return normalize(sideways + AWAY_WEIGHT * normalize(gap, sideways), sideways)


def leader_looks(ctx: SteeringContext, leader: Targets, heading: np.ndarray) -> np.ndarray:
    """Where each agent's leader looks ``(n, 2)``: ``heading``, except for leaders attached
    to the world whose look a component turns (a guard scanning as it walks)."""
    slots = leader.slots  # one per distinct leader; -1 (none attached) reads a row not used
    look = as_complex(ctx.world_heading(slots, look=True))
    turned = (slots >= 0) & (look != as_complex(ctx.world_heading(slots)))
    if not some(turned):
        return heading
    which = leader.which
    return as_points(np.where(turned.take(which), look.take(which), as_complex(heading)))


def anticipated_headings(
    heading: np.ndarray, velocity: np.ndarray, previous: np.ndarray, dt: float
) -> np.ndarray:
    """The way each leader looks: where it is turning round to, else its heading.

    Args:
        heading: The leaders' unit headings ``(n, 2)``.
        velocity: Their velocities ``(n, 2)``, px/s.
        previous: Their velocities one step before ``(n, 2)`` (NaN rows: unknown).
        dt: The step, s.

    Returns:
        Unit headings ``(n, 2)``: along the velocity extrapolated :data:`ANTICIPATION`
        seconds ahead where that points against the velocity now, else ``heading``.
    """
    change = velocity - previous
    change[np.isnan(change)] = 0.0  # not known yet (velocities are finite)
    ahead = velocity + change * (ANTICIPATION / dt)
    turning = dots(ahead, velocity) < 0.0
    if not some(turning):
        return heading
    return where_rows(turning, normalize(ahead, heading), heading)


def turned_looks(look: np.ndarray, previous: np.ndarray, dt: float) -> np.ndarray:
    """Where each leader will look :data:`LOOK_ANTICIPATION` s ahead, turning on as it did.

    Args:
        look: Where the leaders look now, unit ``(n, 2)``.
        previous: Where they looked one step before ``(n, 2)`` (NaN rows: unknown).
        dt: The step, s.

    Returns:
        Unit directions ``(n, 2)``: ``look`` turned on at last step's rate, by at most
        :data:`MAX_TURN_AHEAD`; ``look`` itself where the last one is unknown.
    """
    # Separate real products (times, in_frame), not numpy's complex product, which fuses
    # multiply-adds on some CPUs: a look turned exactly round (a leader turning back) turns
    # on by the same side on every machine, and in the native step.
    with np.errstate(invalid="ignore", divide="ignore"):
        turn = np.angle(in_frame(as_complex(look), as_complex(previous)))
    turn[~np.isfinite(turn)] = 0.0
    ahead = np.clip(turn * (LOOK_ANTICIPATION / dt), -MAX_TURN_AHEAD, MAX_TURN_AHEAD)
    return as_points(times(as_complex(look), np.exp(1j * ahead)))


def stop_inward(
    velocity: np.ndarray, out: np.ndarray, response_time: np.ndarray, max_force: np.ndarray
) -> np.ndarray:
    """Forces ``(n, 2)`` that cancel within ``response_time`` ``(n,)`` s the part of each
    ``velocity`` ``(n, 2)`` (relative to the leader) against its way ``out`` (unit ``(n, 2)``),
    at most ``max_force`` ``(n,)`` (also where the product overflows); zero for a follower
    not heading in."""
    inward = np.minimum(dots(velocity, out), 0.0)
    return scale_rows(out, np.fmin(-inward / response_time, max_force))


# -- component -------------------------------------------------------------------------------


@built_in(lambda the: Arguments(leader=the.leader))
class EvadeSightCone(SteeringComponent):
    """Leave the leader's view: the sector ``length`` px deep, ``half_angle`` degrees each side.

    Inside, the follower is pushed out sideways and away from the leader's predicted position
    (where the two pass each other if both keep their velocities), with all its
    ``max_force``. The side is the one the follower will pass the leader on (the nearer edge
    for a follower keeping pace): a follower rushing at its leader after a U-turn does not
    brake first. The push does not brake the follower's own motion, so the leader can pass it.

    In a band just outside (:data:`WAIT_MARGIN` px beyond the reach, :data:`WAIT_WIDENING`
    beyond the edges), a follower moving into the view, relative to the leader, has that
    motion cancelled: one whose place behind the leader lies in view waits outside, and the
    blend's next child (FollowLeader) steers it whenever it is not heading in. Further out
    the force is exactly zero.

    A leader braking to turn round (its velocity, extrapolated a quarter of a second ahead
    from its last change, points backwards) already looks the way it turns to, and a look
    that turns is taken :data:`LOOK_ANTICIPATION` s ahead at its last rate: the view counts
    as where it is now and where it is turning to, so the squad makes way before it arrives.

    Put it first in a :class:`~arcade_steering.PriorityBlend`, before the always-on
    :class:`~arcade_steering.FollowLeader`. The view follows the leader's heading, kept while
    it stands still, or where it looks when something turns that
    (:class:`~arcade_steering.Face`, :class:`~arcade_steering.Scan`,
    :class:`~arcade_steering.LookWhereYouAreGoing`, the game setting ``agent.look``); a leader
    moved by the game that has not moved yet sees nothing.

    Args:
        leader: A sprite (attached, or moved by the game) or a zero-argument callable.
        length: Reach of the view, px (>= 0).
        half_angle: Half the view's angle, degrees in (0, 180].
        max_prediction: Longest look-ahead on where the two pass each other, seconds.
        occluded: Whether walls hide followers (a follower behind a wall, as
            :meth:`~arcade_steering.SteeringWorld.can_see` finds, does not dodge; one ray per
            follower in the cone). Off by default: the cone alone, through walls.

    Raises:
        TypeError: ``leader`` is not a sprite or a callable.
        ValueError: ``length`` negative or ``half_angle`` outside (0, 180].
    """

    leader: TargetLike = target(moving=True)
    length: float = param(default=120.0, ge=0.0)
    half_angle: float = param(default=30.0, gt=0.0, le=180.0)
    max_prediction: float = param(default=1.0, ge=0.0)
    occluded: bool = flag(default=False, kw_only=True)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        leader_target = params.leader
        leader = leader_target.position
        velocity = leader_target.velocity
        heading = anticipated_headings(
            leader_headings(ctx, leader_target)[0],
            velocity,
            ctx.state("leader_velocity", shape=(2,)),
            ctx.dt,
        )
        ctx.set_state("leader_velocity", velocity)
        heading = leader_looks(ctx, leader_target, heading)
        ahead = turned_looks(heading, ctx.state("leader_look", shape=(2,)), ctx.dt)
        ctx.set_state("leader_look", heading)
        length = params.length
        half_angle = np.radians(params.half_angle)
        offset = ctx.position - leader
        # In view: in the cone now or where the look is turning to.
        inside = in_sight(offset, heading, length, half_angle)[0]
        inside |= in_sight(offset, ahead, length, half_angle)[0]
        near = in_sight(offset, ahead, length + WAIT_MARGIN, half_angle + WAIT_WIDENING)[0]
        near &= ~inside
        if self.occluded:
            occlude(ctx.geometry, leader, ctx.position, inside, "walls")
            occlude(ctx.geometry, leader, ctx.position, near, "walls")
        if ctx.debug is not None:
            _record_cones(ctx, leader_target, leader, heading, length, half_angle)
        force = np.zeros((len(ctx), 2))
        # Followers dead on the axis split left and right, deterministically.
        fallback = np.where(ctx.slots % 2 == 0, 1.0, -1.0)
        if some(near):  # just outside: wait there rather than walk in
            rows = np.flatnonzero(near)
            out = escape_directions(offset[rows], ahead[rows], fallback[rows])
            relative = ctx.velocity[rows] - velocity[rows]
            put_rows(
                force,
                rows,
                stop_inward(relative, out, ctx.response_time[rows], ctx.max_force[rows]),
            )
        if some(inside):
            rows = np.flatnonzero(inside)
            # Where the follower passes the leader, both keeping their velocities: a follower
            # rushing at the leader leaves by the side it will pass on, without braking first.
            _, gap = closest_approach(
                -offset[rows],
                velocity[rows] - ctx.velocity[rows],
                params.max_prediction[rows],
            )
            direction = escape_directions(-gap, ahead[rows], fallback[rows])
            put_rows(force, rows, scale_rows(direction, ctx.max_force[rows]))
        return leader_target.silence(force)


def _record_cones(
    ctx: SteeringContext,
    leader_target: Targets,
    leader: np.ndarray,
    heading: np.ndarray,
    length: np.ndarray,
    half_angle: np.ndarray,
) -> None:
    """Outline each distinct leader's view once, however many followers it has."""
    first = np.unique(leader_target.which, return_index=True)[1]
    first = first[heading[first].any(axis=1)]
    if not len(first):
        return
    base = np.arctan2(heading[first, 1], heading[first, 0])
    spread = np.linspace(-1.0, 1.0, _ARC_SIDES + 1)
    angles = base[:, None] + half_angle[first, None] * spread[None, :]
    arc = leader[first, None, :] + length[first, None, None] * np.stack(
        (np.cos(angles), np.sin(angles)), axis=-1
    )
    apex = leader[first]
    debug = ctx.debug
    if debug is None:
        return
    debug.lines(apex, arc[:, 0], SIGHT_COLOR)
    debug.lines(apex, arc[:, -1], SIGHT_COLOR)
    debug.lines(arc[:, :-1].reshape(-1, 2), arc[:, 1:].reshape(-1, 2), SIGHT_COLOR)
