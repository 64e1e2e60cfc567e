"""AvoidAgents: Reynolds' unaligned collision avoidance, by time to closest approach.

For every pair of nearby agents, assume both keep their velocities: the time ``t`` at which
they come closest and how close that is follow from their relative position and velocity.
A pair is a threat when that closest distance (within ``horizon`` seconds) is less than the
sum of their radii plus a margin. Each agent answers its most imminent threat by steering
away from where the other will be at that time; agents already overlapping push apart from
where they are now. Of equally imminent threats the one most to the agent's right comes
first, so that a crowd keeps to one hand.

In a crowd an agent checks only its ``max_neighbors`` nearest agents as everybody will be half
a horizon ahead: a pair about to collide is close then, and a stream of agents coming the
other way is seen past the agent's own companions. Like ORCA's ``max_neighbors``, this bounds
the work per agent however dense the crowd.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._util.masks import every
from .._util.vec import (
    normalize,
    perpendicular,
    put_rows,
    scale_rows,
    spread_directions,
    stack_columns,
    where_rows,
)
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import group, param
from ..component.registry import Arguments, built_in
from ..debug import SEPARATION_COLOR
from ..neighbors import NeighborPairs
from .group import check_among

#: The most neighbours ``max_neighbors`` may ask for: more than any crowd an update can steer,
#: and small enough to count in the index's integers.
MAX_NEIGHBORS = 1_000_000
#: A threat at the horizon still gets this fraction of the full force.
MIN_URGENCY = 0.25
#: Neighbours are the nearest where everybody will be this fraction of the horizon ahead.
LOOK_AHEAD = 0.5

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
    ox, oy = offset[:, 0], offset[:, 1]
    vx, vy = relative_velocity[:, 0], relative_velocity[:, 1]
    closing = -(ox * vx + oy * vy)
    speed2 = vx * vx + vy * vy
    time = np.divide(closing, speed2, out=np.zeros(len(offset)), where=speed2 > 1e-12)
    time = np.clip(time, 0.0, horizon)
    return time, stack_columns(ox + vx * time, oy + vy * time)


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
    gx, gy = gap[:, 0], gap[:, 1]
    clear = radii + margin
    # Squared lengths: gx² + gy² < clear² is |gap| < clear, without a square root.
    threat = (gx * gx + gy * gy < clear * clear) & (time > 0.0)
    keys = np.where(threat, time, np.nan)
    keys[distance < radii] = -1.0
    return keys


def pick_threats(query: np.ndarray, keys: np.ndarray, right: np.ndarray, n: int) -> np.ndarray:
    """Each agent's most imminent threat: the pair with the smallest key, and of pairs with
    equal keys the one most to the agent's right.

    Exact ties are common: every pair already overlapping has key -1, and every pair already
    within its margin but closest beyond the horizon has the horizon as its key (two
    companions walking side by side). Answering the one on the right, as on a dead head-on
    course, turns a whole crowd the same way.

    Args:
        query: The asking agent of each pair ``(p,)``, int in ``0..n-1``.
        keys: :func:`threat_keys` ``(p,)``; NaN is no threat.
        right: How far to the agent's right each other agent is ``(p,)``, e.g. the sine of
            its bearing clockwise from the agent's heading.
        n: Number of agents.

    Returns:
        Index ``(n,)`` of each agent's pick among the pairs, -1 for an agent without a threat.
    """
    valid = np.flatnonzero(~np.isnan(keys))
    rows, keys = query[valid], keys[valid]
    least = np.full(n, np.inf)
    np.minimum.at(least, rows, keys)
    best = np.flatnonzero(keys == least[rows])
    valid, rows = valid[best], rows[best]
    right = right[valid]
    most = np.full(n, -np.inf)
    np.maximum.at(most, rows, right)
    best = np.flatnonzero(right == most[rows])
    pick = np.full(n, len(query))
    np.minimum.at(pick, rows[best], valid[best])  # still tied: the first pair
    pick[pick == len(query)] = -1
    return pick


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
    side = away[:, 0] * across[:, 0] + away[:, 1] * across[:, 1]
    # Float residue of an exactly head-on course is ~1e-13 px: no real side to pick.
    side = np.where(np.abs(side) > 1e-6, np.sign(side), 1.0)
    return scale_rows(across, side)


# -- component -------------------------------------------------------------------------------


@built_in(lambda the: Arguments())
class AvoidAgents(SteeringComponent):
    """Steer clear of other agents about to collide with this one (predictive).

    Silent unless a collision is predicted within ``horizon`` seconds, so it belongs first in a
    :class:`~arcade_steering.PriorityBlend`. The push is lateral: it goes away from the other
    agent's predicted position, at the agent's ``max_force`` for an imminent collision and at
    a quarter of it for one ``horizon`` seconds away. Two agents on a dead head-on course both
    turn to their right-hand side of the other's approach, and pass; of equally imminent
    threats an agent answers the one most to its right first, so a crowd keeps to one hand.

    An agent checks the ``max_neighbors`` agents nearest to it where everybody will be half a
    horizon ahead (if everybody keeps their velocity), as far as any agent could come within
    ``horizon`` seconds at the speeds they have now. A pair about to collide is close then,
    so its most imminent collision is almost always among them, and the work per agent stays
    bounded however dense the crowd (ORCA's ``max_neighbors`` does the same; 10 is its usual
    value). ``max_neighbors=None`` checks every agent in reach: hundreds of pairs per agent
    in a dense crowd.

    Args:
        horizon: Look-ahead, seconds (> 0).
        margin: Extra clearance wanted beyond the sum of the two radii, px (>= 0).
        among: None for every agent, or the sprites (a list, a SpriteList) to avoid.
        max_neighbors: How many nearest agents to check (a whole number from 1 to
            1,000,000), or None for every agent in reach.

    Raises:
        ValueError: ``horizon`` not positive, ``margin`` negative, ``max_neighbors`` not a
            whole number from 1 to 1,000,000.
        TypeError: ``among`` is not a collection of sprites; ``max_neighbors`` not a number.
    """

    horizon: float = param(default=1.0, gt=0.0)
    margin: float = param(default=4.0, ge=0.0)
    among: Any = group(check_among, default=None)
    max_neighbors: int | None = param(default=10, ge=1, le=MAX_NEIGHBORS, optional=True, whole=True)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        n = len(ctx)
        params = ctx.params(self)
        horizon = params.horizon
        margin = params.margin
        pairs = self._candidates(ctx, params, horizon, margin)
        force = np.zeros((n, 2))
        if not len(pairs):
            return force
        query = pairs.query
        relative = ctx.world_velocity(pairs.other)
        relative -= ctx.velocity.take(query, axis=0)
        time, gap = closest_approach(pairs.offset, relative, horizon[query])
        radii = ctx.radius[query] + ctx.world_radius(pairs.other)
        keys = threat_keys(time, gap, pairs.distance, radii, margin[query])
        # Sine of each other agent's bearing clockwise from the heading (y up).
        heading = ctx.heading.take(query, axis=0)
        offset = pairs.offset
        right = heading[:, 1] * offset[:, 0] - heading[:, 0] * offset[:, 1]
        right /= np.maximum(pairs.distance, 1e-12)
        pick = pick_threats(query, keys, right, n)
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

    @staticmethod
    def _candidates(
        ctx: SteeringContext, params: Any, horizon: np.ndarray, margin: np.ndarray
    ) -> NeighborPairs:
        """The pairs to check: ``other`` are world slots, ``offset`` and ``distance`` now."""
        everybody = ctx.world_slots
        velocity = ctx.world_velocity(everybody)
        vx, vy = velocity[:, 0], velocity[:, 1]
        fastest = math.sqrt(float((vx * vx + vy * vy).max()))
        largest = float(ctx.world_radius(everybody).max())
        # No agent is faster than `fastest` or larger than `largest`: nobody farther than
        # this can come within radii + margin in `horizon` seconds.
        speed = ctx.speed
        clearance = ctx.radius + largest + margin
        limit = params.max_neighbors
        if every(np.isinf(limit)):
            return ctx.neighbors(horizon * (speed + fastest) + clearance, params.among)
        k = np.where(np.isinf(limit), len(everybody), limit).astype(np.intp)
        # Where everybody will be `ahead` seconds from now, a pair that comes within
        # `clearance` at any time in the horizon is within `reach` of each other.
        ahead = LOOK_AHEAD * horizon
        reach = ahead * (speed + fastest) + clearance
        return ctx.nearest(k, reach, among=params.among, ahead=ahead)
