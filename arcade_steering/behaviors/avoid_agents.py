"""AvoidAgents: Reynolds' unaligned collision avoidance, by time to closest approach.

For every pair of nearby agents, assume both keep their velocities: the time ``t`` at which
they come closest and how close that is follow from their relative position and velocity.
A pair is a threat when that closest distance (within ``horizon`` seconds) is less than the
sum of their radii plus a margin. Each agent answers its most imminent threat by steering
away from where the other will be at that time; agents already overlapping push apart from
where they are now.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._params import FloatParam, ObjectParam
from .._vec import (
    lengths,
    normalize,
    perpendicular,
    put_rows,
    scale_rows,
    spread_directions,
    where_rows,
)
from ..component import SteeringComponent
from ..context import SteeringContext
from ..debug import SEPARATION_COLOR
from .group import check_among

#: A threat at the horizon still gets this fraction of the full force.
MIN_URGENCY = 0.25

# -- kernels ---------------------------------------------------------------------------------


def closest_approach(
    offset: np.ndarray, relative_velocity: np.ndarray, horizon: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """When, within ``[0, horizon]``, each pair comes closest, and the offset then.

    Args:
        offset: Other minus self ``(p, 2)``, px.
        relative_velocity: Other's velocity minus self's ``(p, 2)``, px/s.
        horizon: Look-ahead ``(p,)``, seconds.

    Returns:
        Times ``(p,)`` in seconds (0 for pairs moving apart or not moving relative to each
        other) and the offsets at those times ``(p, 2)``, px.
    """
    closing = -np.einsum("ij,ij->i", offset, relative_velocity)
    speed2 = np.einsum("ij,ij->i", relative_velocity, relative_velocity)
    time = np.zeros(len(offset))
    np.divide(closing, speed2, out=time, where=speed2 > 1e-12)
    time = np.clip(time, 0.0, horizon)
    return time, offset + scale_rows(relative_velocity, time)


def threat_keys(
    time: np.ndarray, gap: np.ndarray, distance: np.ndarray, radii: np.ndarray, margin: np.ndarray
) -> np.ndarray:
    """How imminent each pair's collision is, seconds; NaN for no threat, -1 if overlapping.

    Args:
        time: Times of closest approach ``(p,)``, s.
        gap: Offsets at closest approach ``(p, 2)``, px.
        distance: Distances now ``(p,)``, px.
        radii: Sums of the two radii ``(p,)``, px: closer than this, they overlap now.
        margin: Clearance wanted beyond ``radii`` at closest approach ``(p,)``, px.
    """
    keys = np.where((time > 0.0) & (lengths(gap) < radii + margin), time, np.nan)
    keys[distance < radii] = -1.0
    return keys


def sidestep_directions(
    away: np.ndarray, relative_velocity: np.ndarray, fallback: np.ndarray
) -> np.ndarray:
    """Unit directions across the line of approach, to the side ``away`` points to.

    On a dead-centre course (``away`` about zero, or along the approach) both agents of a pair
    pick the same hand of their own approach, which are opposite sides: they pass.

    Args:
        away: Self minus other at closest approach ``(p, 2)``, px.
        relative_velocity: Other's velocity minus self's ``(p, 2)``, px/s.
        fallback: Unit directions ``(p, 2)`` for pairs not moving relative to each other.
    """
    across = normalize(perpendicular(relative_velocity), fallback)
    side = np.einsum("ij,ij->i", away, across)
    # Float residue of an exactly head-on course is ~1e-13 px: no real side to pick.
    side = np.where(np.abs(side) > 1e-6, np.sign(side), 1.0)
    return scale_rows(across, side)


# -- component -------------------------------------------------------------------------------


class AvoidAgents(SteeringComponent):
    """Steer clear of other agents about to collide with this one (predictive).

    Silent unless a collision is predicted within ``horizon`` seconds, so it belongs first in a
    :class:`~arcade_steering.PriorityBlend`. The push is lateral: it goes away from the other
    agent's predicted position, at the agent's ``max_force`` for an imminent collision and at
    a quarter of it for one ``horizon`` seconds away. Two agents on a dead head-on course both
    turn to their right-hand side of the other's approach, and pass.

    Other agents are looked for within ``horizon * (speed + max_speed)`` px, so an agent faster
    than this one's ``max_speed`` is noticed later.

    Args:
        horizon: Look-ahead, seconds (> 0).
        margin: Extra clearance wanted beyond the sum of the two radii, px (>= 0).
        among: None for every agent, or the sprites (a list, a SpriteList) to avoid.

    Raises:
        ValueError: ``horizon`` not positive or ``margin`` negative.
        TypeError: ``among`` is not a collection of sprites.
    """

    batch_instances = True
    horizon = FloatParam(minimum=0.0, exclusive=True)
    margin = FloatParam(minimum=0.0)
    among = ObjectParam(check_among)

    def __init__(self, horizon: float = 1.0, margin: float = 4.0, among: Any = None) -> None:
        self.horizon = horizon
        self.margin = margin
        self.among = among

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        n = len(ctx)
        horizon = ctx.param("horizon")
        margin = ctx.param("margin")
        reach = horizon * (ctx.speed + ctx.max_speed) + 4.0 * ctx.radius + margin
        pairs = ctx.neighbors_among(reach, "among")
        force = np.zeros((n, 2))
        if not len(pairs):
            return force
        query = pairs.query
        relative = ctx.world_velocity(pairs.other) - ctx.velocity[query]
        time, gap = closest_approach(pairs.offset, relative, horizon[query])
        radii = ctx.radius[query] + ctx.world_radius(pairs.other)
        keys = threat_keys(time, gap, pairs.distance, radii, margin[query])
        pick = pairs.argmin(keys)
        rows = np.flatnonzero(pick >= 0)
        if not len(rows):
            return force
        pick = pick[rows]
        overlapping = keys[pick] < 0.0
        spread = spread_directions(ctx.slots[rows])
        direction = where_rows(
            overlapping,
            normalize(-pairs.offset[pick], spread),
            sidestep_directions(-gap[pick], relative[pick], spread),
        )
        urgency = np.where(overlapping, 1.0, 1.0 - (1.0 - MIN_URGENCY) * keys[pick] / horizon[rows])
        put_rows(force, rows, scale_rows(direction, ctx.max_force[rows] * urgency))
        if ctx.debug is not None:
            position = ctx.position[rows]
            ctx.debug.lines(position, position - gap[pick], SEPARATION_COLOR)
        return force
