"""EvadeSightCone: keep out of the way in front of a leader.

The leader's view is the circular sector of radius ``length`` and half-angle ``half_angle``
around its heading, as :meth:`~arcade_steering.SteeringWorld.can_see` tests it; with
``occluded=True`` walls hide followers. A follower in view steers out sideways, towards the
nearer edge and away from where the leader will be; otherwise the force is exactly zero, so
the component belongs first in a :class:`~arcade_steering.PriorityBlend`. A leader braking
to turn round already looks the way it is turning to: its squad makes way before it has
turned.
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
from .avoid_agents import closest_approach
from .leader import leader_headings

#: How much "away from the leader's predicted position" counts next to "out sideways".
AWAY_WEIGHT = 0.5

#: Seconds ahead the leader's velocity is extrapolated (from its change over the last step):
#: a leader whose velocity will then point backwards looks that way already.
ANTICIPATION = 0.25
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
        heading: The leader's unit heading ``(n, 2)``.
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


# -- component -------------------------------------------------------------------------------


@built_in(lambda the: Arguments(leader=the.leader))
class EvadeSightCone(SteeringComponent):
    """Leave the leader's view: the sector ``length`` px deep, ``half_angle`` degrees each side.

    Inside, the follower is pushed out sideways and away from the leader's predicted position
    (where the two pass each other if both keep their velocities), with half its
    ``max_force`` on the cone's border up to all of it on the axis at the apex; outside, the
    force is exactly zero. The side is the one the follower will pass the leader on (the
    nearer edge for a follower keeping pace): a follower rushing at its leader after a U-turn
    does not brake first. The push does not brake the follower's own motion, so the leader
    can pass it.

    A leader braking to turn round (its velocity, extrapolated a quarter of a second ahead
    from its last change, points backwards) already looks the way it turns to, so the squad
    behind it makes way before it has turned.

    Put it first in a :class:`~arcade_steering.PriorityBlend`, before the always-on
    :class:`~arcade_steering.FollowLeader`. The view follows the leader's heading, kept while
    it stands still, or where it looks when a component turns that
    (:class:`~arcade_steering.Scan`); a leader moved by the game that has not moved yet sees
    nothing.

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
        length = params.length
        half_angle = np.radians(params.half_angle)
        offset = ctx.position - leader
        inside, depth = in_sight(offset, heading, length, half_angle)
        if self.occluded:
            occlude(ctx.geometry, leader, ctx.position, inside, "walls")
        if ctx.debug is not None:
            _record_cones(ctx, leader_target, leader, heading, length, half_angle)
        force = np.zeros((len(ctx), 2))
        if not some(inside):
            return force
        rows = np.flatnonzero(inside)
        # Where the follower passes the leader, both keeping their velocities: a follower
        # rushing at the leader leaves by the side it will pass on, without braking first.
        _, gap = closest_approach(
            -offset[rows],
            velocity[rows] - ctx.velocity[rows],
            params.max_prediction[rows],
        )
        # Followers dead on the axis split left and right, deterministically.
        fallback = np.where(ctx.slots[rows] % 2 == 0, 1.0, -1.0)
        direction = escape_directions(-gap, heading[rows], fallback)
        strength = ctx.max_force[rows] * (0.5 + 0.5 * depth[rows])
        put_rows(force, rows, scale_rows(direction, strength))
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
