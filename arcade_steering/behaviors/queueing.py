"""Queue: Reynolds' queuing at a doorway, braking behind the agents ahead.

An agent looks along its heading for other agents whose circles (plus a ``margin``) lie in its
lane: those it would run into if it went straight on. It keeps a speed from which it can stop
before it touches the nearest of them, even if that one brakes as hard: ``sqrt(u² + 2 a g)``
(as Gipps' car-following model), with ``g`` the distance it can still go, ``u`` the speed of
the one ahead along the lane and ``a`` half of its own ``max_force / mass``. When the way
clears, the limit goes and the agent goes on.

An agent crossing into the lane counts too (where it will be when the agent gets level with
it), as one to stop short of. Two agents closing in on one spot from either side (at a
doorway's mouth) each have the other in their way: the one that is farther behind the other,
measured along its own heading, gives way, and of two equally far behind the one in the higher
slot. So exactly one of them brakes and they go through one after the other.

A blocked agent holds still: while its drive could carry it past the safe speed within a step,
the component keeps it (see :func:`hold_changes`).

The kernels are pure functions over pairs ``(p, ...)`` from
:class:`~arcade_steering.neighbors.NeighborPairs` and agents ``(n, ...)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._util.vec import dots, scale_rows
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import group, param
from ..component.registry import Arguments, built_in
from ..debug import THREAT_COLOR
from .group import check_among

#: The share of ``max_force / mass`` an agent counts on braking with, and on the agent ahead
#: braking with: the rest is kept for steering round, and for steps of a long ``dt``.
BRAKING_SHARE = 0.5
#: The speed change, px/s, that keeps a held agent's brake from being zero (far below the
#: speed at which an agent turns, and undone the next step).
HOLD_NUDGE = 1e-3
#: The longest an agent looks ahead for others crossing its lane, seconds.
CROSSING_SECONDS = 1.0

# -- kernels ---------------------------------------------------------------------------------


def lane_gaps(
    offset: np.ndarray,
    heading: np.ndarray,
    clearance: np.ndarray,
    crossing: np.ndarray,
    speed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How far each agent can go straight along its heading before it comes within
    ``clearance`` of the other agent of its pair, now or as the other crosses its lane.

    Args:
        offset: Other minus self ``(p, 2)``, px.
        heading: The asking agent's unit heading ``(p, 2)``.
        clearance: Centre distance the pair keeps ``(p,)``, px: the radii plus a margin.
        crossing: The other's velocity across the lane ``(p,)`` px/s, to the heading's left.
        speed: The asking agent's speed along its heading ``(p,)`` px/s: the other crosses
            the lane until the agent gets level with it (for at most ``CROSSING_SECONDS``).

    Returns:
        How far ahead the other is along the heading ``(p,)`` px (negative: behind); the
        distance left to go ``(p,)`` px, negative when closer than ``clearance`` already,
        ``inf`` for another that is behind or stays beside the lane; and whether the other is
        in the lane now ``(p,)`` bool (not just crossing into it).
    """
    along = dots(offset, heading)
    across = heading[:, 0] * offset[:, 1] - heading[:, 1] * offset[:, 0]
    seconds = np.full(len(along), CROSSING_SECONDS)
    np.divide(along, speed, out=seconds, where=(speed > 0.0) & (along < CROSSING_SECONDS * speed))
    later = across + crossing * np.maximum(seconds, 0.0)
    # The nearest the other comes to the lane's centre line until then: 0 if it crosses it.
    nearest = np.where(across * later <= 0.0, 0.0, np.minimum(np.abs(across), np.abs(later)))
    room = clearance * clearance - nearest * nearest  # > 0: the other is (coming) in the lane
    in_way = (room > 0.0) & (along > 0.0)
    gap = np.full(len(along), np.inf)
    gap[in_way] = along[in_way] - np.sqrt(room[in_way])
    return along, gap, np.abs(across) < clearance


def gives_way(
    ahead_mine: np.ndarray,
    ahead_theirs: np.ndarray,
    slot_mine: np.ndarray,
    slot_theirs: np.ndarray,
) -> np.ndarray:
    """Whether the asking agent of each pair gives way to the other ``(p,)`` bool.

    The one farther behind the other, each measured along its own heading, gives way; of two
    equally far behind (closing in on one spot from either side) the one in the higher slot.

    Args:
        ahead_mine: How far the other is ahead of the asking agent along its heading ``(p,)``.
        ahead_theirs: How far the asking agent is ahead of the other along the other's
            heading ``(p,)``.
        slot_mine: The asking agents' slots ``(p,)``.
        slot_theirs: The others' slots ``(p,)``.
    """
    return (ahead_mine > ahead_theirs) | ((ahead_mine == ahead_theirs) & (slot_mine > slot_theirs))


def safe_speeds(gap: np.ndarray, speed_ahead: np.ndarray, deceleration: np.ndarray) -> np.ndarray:
    """The fastest speed along the lane ``(p,)`` px/s from which an agent braking at
    ``deceleration`` stops within ``gap`` of where the agent ahead stops, braking as hard.

    ``sqrt(u² + 2 a g)`` for a gap ``g`` >= 0; closer than the clearance already, slower than
    the agent ahead, ``u - sqrt(2 a |g|)`` but never backwards; ``inf`` for an infinite gap.

    Args:
        gap: Distance left to go ``(p,)`` px (:func:`lane_gaps`).
        speed_ahead: The other's speed along the asking agent's heading ``(p,)`` px/s.
        deceleration: The asking agent's braking ``(p,)`` px/s².
    """
    ahead = np.maximum(speed_ahead, 0.0)
    reach = 2.0 * deceleration * np.maximum(gap, 0.0)
    reach += ahead * ahead
    overlap = np.sqrt(2.0 * deceleration * np.maximum(-gap, 0.0))
    return np.maximum(np.sqrt(reach) - overlap, 0.0)


def hold_changes(forward: np.ndarray, limit: np.ndarray) -> np.ndarray:
    """The change of speed along the heading ``(h,)`` px/s that holds agents to their limit.

    Down to the limit, or to a standstill for an agent going backwards; never faster. An agent
    already there gets a nudge of ``HOLD_NUDGE`` backwards instead of zero: a zero force is
    silence to a :class:`~arcade_steering.PriorityBlend`, which would hand the agent to its
    drive, and the drive would creep it on a little every other step.

    Args:
        forward: Speeds along the heading ``(h,)`` px/s.
        limit: Safe speeds ``(h,)`` px/s (:func:`safe_speeds`), >= 0.
    """
    change = np.minimum(limit, np.maximum(forward, 0.0)) - forward
    change[np.abs(change) < HOLD_NUDGE] = -HOLD_NUDGE
    return change


# -- component -------------------------------------------------------------------------------


@built_in(lambda the: Arguments())
class Queue(SteeringComponent):
    """Brake behind the agents ahead instead of pushing through them (Reynolds' queuing).

    An agent looks up to ``distance`` px beyond its circle along its heading. Of the agents
    whose circles, grown by ``margin``, lie in its way, it keeps a speed from which it can
    stop short of the nearest, even if that one brakes; it goes on as soon as the way clears.
    Of two agents closing in on one spot from either side, the one farther behind gives way.
    The force is a brake along the heading (never a push forward), exactly zero while no agent
    is in the way or the agent is slow enough that its drive cannot carry it past the safe
    speed within a step; an agent held at a standstill gets a brake too small to move it, so
    that a :class:`~arcade_steering.PriorityBlend` does not hand it to its drive. So the
    component goes before the drive (``Arrive``, ``FollowPath``) in a PriorityBlend; add
    ``Separation`` among the same group to the drive, to keep them apart sideways as they
    close in on a doorway.

    Args:
        among: None for every agent of the world, or the sprites (a list, a SpriteList) to
            queue behind; membership is read every update.
        distance: How far beyond its circle an agent looks ahead, px (> 0); its stopping
            distance at full speed, ``max_speed² * mass / max_force`` px, should fit in it.
        margin: The gap kept between circles, px (>= 0).

    Raises:
        ValueError: ``distance`` is not positive, or ``margin`` is negative.
        TypeError: ``among`` is not a collection of sprites.
    """

    among: Any = group(check_among, default=None)
    distance: float = param(default=60.0, gt=0.0)
    margin: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        force = np.zeros((len(ctx), 2))
        if not len(ctx):
            return force
        forward = dots(ctx.velocity, ctx.heading)
        limit, nearest = self._limits(ctx, forward)
        # Held: the drive could carry it past the limit within this step.
        held = np.flatnonzero(limit < forward + ctx.max_force / ctx.mass * ctx.dt)
        if not len(held):
            return force
        change = hold_changes(forward[held], limit[held])
        force[held] = scale_rows(ctx.heading.take(held, axis=0), change * ctx.mass[held] / ctx.dt)
        if ctx.debug is not None:
            ends = ctx.world_position(nearest[held])
            ctx.debug.lines(ctx.position.take(held, axis=0), ends, THREAT_COLOR)
        return force

    def _limits(self, ctx: SteeringContext, forward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each agent's safe speed along its heading ``(n,)`` px/s (``inf``: nobody in its
        way), and the slot of the agent that sets it ``(n,)`` (-1: none)."""
        n = len(ctx)
        limit, nearest = np.full(n, np.inf), np.full(n, -1)
        params = ctx.params(self)
        margin = params.margin
        largest = float(ctx.world_radius(ctx.world_slots).max())
        pairs = ctx.neighbors(ctx.radius + params.distance + largest + margin, params.among)
        query, other = pairs.query, pairs.other
        heading = ctx.heading.take(query, axis=0)
        clearance = ctx.radius[query] + ctx.world_radius(other) + margin[query]
        velocity = ctx.world_velocity(other)
        crossing = heading[:, 0] * velocity[:, 1] - heading[:, 1] * velocity[:, 0]
        along, gap, in_lane = lane_gaps(pairs.offset, heading, clearance, crossing, forward[query])
        theirs = -dots(pairs.offset, ctx.world_heading(other))
        mine = np.flatnonzero(np.isfinite(gap) & gives_way(along, theirs, ctx.slots[query], other))
        rows, ahead = query[mine], other[mine]
        # One crossing the lane does not lead the way: stop short of where it crosses.
        speed_ahead = np.where(
            in_lane[mine], dots(velocity.take(mine, axis=0), heading.take(mine, axis=0)), 0.0
        )
        deceleration = BRAKING_SHARE * ctx.max_force / ctx.mass
        safe = safe_speeds(gap[mine], speed_ahead, deceleration[rows])
        np.minimum.at(limit, rows, safe)
        if ctx.debug is not None:
            order = np.argsort(safe, kind="stable")[::-1]  # the least safe written last
            nearest[rows[order]] = ahead[order]
        return limit, nearest
