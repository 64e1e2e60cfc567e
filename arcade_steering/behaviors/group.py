"""Separation, Alignment and Cohesion: Reynolds' flocking rules over an agent's neighbours.

Neighbours are the other agents within ``radius`` px (centre to centre), optionally only those
``among`` a group of sprites and inside a field of view. The three rules share one neighbour
query per (sub)step when they ask with the same radius and groups.

Separation and Cohesion are pure repulsion and attraction: they add a velocity change and do
not brake the agent's own velocity. With a braking term (Reynolds' ``desired - velocity``) a
flock loses all order, because each rule would pull every agent towards standing still.
Alignment does use Reynolds' form, towards the neighbours' mean direction at full speed.

The kernels are pure functions over arrays: pairs ``(p, ...)`` from
:class:`~arcade_steering.neighbors.NeighborPairs`, agents ``(n, ...)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._util.masks import every, some
from .._util.vec import divide_rows, lengths, normalize, scale_rows, spread_directions, truncate
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import flag, group, param
from ..component.registry import Arguments, built_in
from ..debug import FORCE_SECONDS, NEIGHBOR_COLOR, SEPARATION_COLOR
from ..neighbors import NeighborPairs
from .seek import velocity_force

# -- kernels ---------------------------------------------------------------------------------


def separation_push(
    offset: np.ndarray,
    distance: np.ndarray,
    reach: np.ndarray | float,
    radii: np.ndarray,
    slots: np.ndarray,
    query: np.ndarray,
) -> np.ndarray:
    """Per pair, a push away from the neighbour ``(p, 2)``, unitless.

    Its length is 1 when the two circles touch, 0 at ``reach`` and grows above 1 as they
    overlap (up to ``reach / (reach - contact)`` on top of each other).

    Args:
        offset: Neighbour minus agent ``(p, 2)``, px.
        distance: Length of ``offset`` ``(p,)``, px.
        reach: The agent's separation radius, ``(p,)`` or a scalar, px (centre to centre).
        radii: Sum of the two agents' radii ``(p,)``, px.
        slots: Integers ``(n,)`` (the asking agents' slots) giving pairs on one spot
            distinct, deterministic directions (:func:`~arcade_steering._vec.spread_directions`).
        query: Each pair's asking agent ``(p,)``, an index into ``slots``.
    """
    # Touching is weight 1, unless the bodies are so large that half the reach is left.
    contact = np.minimum(radii, 0.5 * reach)
    weight = reach - distance
    weight /= np.maximum(reach - contact, 1e-9)
    np.maximum(weight, 0.0, out=weight)
    if every(distance):  # nobody on top of a neighbour: the common case, and a cheaper one
        scale = np.divide(weight, distance)
        return scale_rows(offset, np.negative(scale, out=scale))
    apart = distance > 0.0
    scale = np.divide(weight, distance, out=np.zeros_like(weight), where=apart)
    push = scale_rows(offset, -scale)
    on_top = np.flatnonzero(~apart)
    push[on_top] = spread_directions(slots.take(query.take(on_top))) * weight[on_top, None]
    return push


def alignment_velocity(mean_velocity: np.ndarray, max_speed: np.ndarray) -> np.ndarray:
    """Full speed along the neighbours' mean (or summed) velocity ``(n, 2)`` px/s.

    Zero where that velocity is zero.
    """
    return scale_rows(normalize(mean_velocity), max_speed)


def cohesion_velocity(
    center_offset: np.ndarray, reach: np.ndarray, max_speed: np.ndarray
) -> np.ndarray:
    """Velocity towards the neighbours' centre ``(n, 2)`` px/s, full speed at ``reach`` px.

    Args:
        center_offset: The neighbours' mean position minus the agent's ``(n, 2)``, px.
        reach: The cohesion radius ``(n,)``, px.
        max_speed: Speed limits ``(n,)``, px/s.
    """
    return truncate(scale_rows(center_offset, max_speed / reach), max_speed)


# -- components ------------------------------------------------------------------------------


def check_among(name: str, value: Any) -> Any:
    """Return ``value`` if it is None or a re-readable collection of sprites, else raise."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(
            f"{name} must be None or a collection of sprites (a list, a SpriteList), "
            f"got {type(value).__name__}"
        )
    if iter(value) is value:
        raise TypeError(
            f"{name} is read every update: give a list or a SpriteList, not an iterator"
        )
    for index, member in enumerate(value):
        if not hasattr(member, "position"):
            raise TypeError(
                f"{name}[{index}] must be a sprite (anything with .position), "
                f"got {type(member).__name__}"
            )
    return value


class _GroupBehavior(SteeringComponent):
    """Shared parameters and neighbour query of the flocking rules."""

    radius: float = param(gt=0.0)
    among: Any = group(check_among, default=None)
    fov: float | None = param(default=None, gt=0.0, le=360.0)
    debug_radius: bool = flag(default=False, kw_only=True)

    def _neighbors(self, ctx: SteeringContext) -> NeighborPairs:
        params = ctx.params(self)
        radius = params.radius
        pairs = ctx.neighbors(radius, params.among)
        fov = params.fov
        if len(pairs) and some(np.isfinite(fov)):
            pairs = pairs.within_fov(np.arctan2(ctx.heading[:, 1], ctx.heading[:, 0]), fov)
        if ctx.debug is not None and self.debug_radius:
            ctx.debug.circles(ctx.position, radius, NEIGHBOR_COLOR)
        return pairs


def _per_pair(values: np.ndarray, query: np.ndarray) -> np.ndarray | float:
    """Per-agent ``values`` ``(n,)`` for each pair ``(p,)``, or the scalar all agents share."""
    if len(values) and values.strides[0] == 0:  # a broadcast: one value for the batch
        return float(values[0])
    return values.take(query)


_SHARED_DOC = """
    Args:
        radius: Neighbourhood radius, px (centre to centre, > 0).
        among: None for every agent of the world, or the sprites (a list, an
            ``arcade.SpriteList``) whose agents count as neighbours; membership is read every
            update, so sprites added later count.
        fov: Field of view in degrees (0, 360] around the agent's heading; None sees all round.
        debug_radius: Whether the debug overlay draws each agent's neighbourhood circle.

    Raises:
        ValueError: ``radius`` is not positive, or ``fov`` is outside (0, 360].
        TypeError: ``among`` is not a collection of sprites.
"""


@built_in(lambda the: Arguments(radius=30.0))
class Separation(_GroupBehavior):
    __doc__ = (
        """Keep apart from neighbours, pushing harder the closer they are.

    Each neighbour pushes directly away from itself with a weight of 1 when the two circles
    touch, falling to 0 at ``radius`` (more than 1 when they overlap). For agents so large that
    their radii add up to more than half of ``radius``, the weight is 1 at half of ``radius``
    instead, and agents farther apart than ``radius`` are not neighbours at all: give it a
    radius of at least twice the agents' radii added up. The summed push, times the agent's
    ``max_speed``, is a velocity change wanted within its ``response_time``. Agents on one
    spot push apart in distinct directions.
"""
        + _SHARED_DOC
    )

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        pairs = self._neighbors(ctx)
        if not len(pairs):
            return np.zeros((len(ctx), 2))
        query = pairs.query
        reach = params.radius
        push = separation_push(
            pairs.offset,
            pairs.distance,
            _per_pair(reach, query),
            ctx.radius.take(query) + ctx.world_radius(pairs.other),
            ctx.slots,
            query,
        )
        force = scale_rows(pairs.sum(push), ctx.max_speed / ctx.response_time)
        if ctx.debug is not None:
            pushed = np.flatnonzero(force.any(axis=1))
            tips = force[pushed] / ctx.mass[pushed, None] * FORCE_SECONDS
            ctx.debug.lines(ctx.position[pushed], ctx.position[pushed] + tips, SEPARATION_COLOR)
        return force


@built_in(lambda the: Arguments(radius=50.0))
class Alignment(_GroupBehavior):
    __doc__ = (
        """Fly the way the neighbours fly: full speed along their mean velocity.

    Reynolds' form ``(desired - velocity) / response_time``; silent for an agent without
    neighbours or whose neighbours' velocities cancel out.
"""
        + _SHARED_DOC
    )

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        pairs = self._neighbors(ctx)
        if not len(pairs):
            return np.zeros((len(ctx), 2))
        # The sum points where the mean does, without counting the neighbours.
        total = pairs.sum(ctx.world_velocity(pairs.other))
        desired = alignment_velocity(total, ctx.max_speed)
        force = velocity_force(desired, ctx.velocity, ctx.response_time)
        force[lengths(total) <= 1e-9] = 0.0
        return force


@built_in(lambda the: Arguments(radius=50.0))
class Cohesion(_GroupBehavior):
    __doc__ = (
        """Keep with the neighbours: accelerate towards their centre.

    The wanted velocity change points at the neighbours' mean position and grows with its
    distance, reaching ``max_speed`` at ``radius``; it does not brake the agent's own velocity.
"""
        + _SHARED_DOC
    )

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        pairs = self._neighbors(ctx)
        if not len(pairs):
            return np.zeros((len(ctx), 2))
        center = pairs.mean(pairs.offset)
        desired = cohesion_velocity(center, params.radius, ctx.max_speed)
        return divide_rows(desired, ctx.response_time)
