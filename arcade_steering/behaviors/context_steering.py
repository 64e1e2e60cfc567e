"""ContextSteering: pick the best of a ring of directions from interest and danger maps.

After Andrew Fray's context steering (Game AI Pro 2, chapter 18). Each agent scores ``N``
directions spread evenly round it: *interest* for how much a direction leads to its target,
*danger* for how soon a wall or obstacle lies that way. Directions more dangerous than the
safest one are masked, and the agent heads for the most interesting direction left. Unlike a
weighted sum of forces, opposing wishes never cancel out: a wall between the agent and its
target masks the directions into it, and the agent picks the best way round.

The kernels are pure functions over arrays (directions as complex numbers ``x + iy``, maps
``(n, N)``); the class holds parameters and asks the world's geometry one batched question,
a fan of ``N`` swept circles per agent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.batches import BatchNode
from .._core.gather import Groups
from .._util.vec import as_complex, as_points, lengths, unit_complex
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import NumberParam, group, param, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike
from ..debug import FEELER_COLOR, HIT_COLOR, TARGET_COLOR
from .group import check_among
from .seek import arrive_velocity

#: Danger above the safest direction's that still counts as just as safe: walls a few px
#: further or nearer along two directions should not decide between them.
DANGER_SLACK = 0.05
#: Weight of the agent's heading in its interest map: enough to commit to one way round a
#: wall met head-on, too little to outweigh the target.
HEADING_BIAS = 0.5
#: Share of the speed an agent keeps heading into the most danger: never a stop.
MIN_SPEED_SHARE = 0.25

# -- kernels ---------------------------------------------------------------------------------


def ring(count: int) -> np.ndarray:
    """``count`` unit directions ``(count,)`` (complex), counter-clockwise from +x."""
    return np.exp(2j * np.pi * np.arange(count) / count)


def interest_map(
    directions: np.ndarray, toward: np.ndarray, heading: np.ndarray, heading_bias: float
) -> np.ndarray:
    """Interest ``(n, N)`` in each of ``directions`` ``(N,)``: from 1 straight at the target
    (unit ``toward`` ``(n,)``) down to 0 straight away from it, plus ``heading_bias`` times
    how far the direction goes the way the agent heads (unit ``heading`` ``(n,)``)."""
    to_target = (directions[None, :] * toward.conj()[:, None]).real
    along = (directions[None, :] * heading.conj()[:, None]).real
    return 0.5 * (1.0 + to_target) + heading_bias * np.maximum(along, 0.0)


def circle_reached(
    directions: np.ndarray, offset: np.ndarray, reach: np.ndarray, look_ahead: np.ndarray
) -> np.ndarray:
    """Fraction ``(p, N)`` of the look-ahead along each of ``directions`` ``(N,)`` that a point
    travels before coming within ``reach`` ``(p,)`` px of a circle's centre at ``offset``
    ``(p,)`` (complex, from the point); 1 where it never does, 0 where it is within reach
    already and moving closer."""
    local = directions[None, :] * offset.conj()[:, None]  # the offset seen along each ray
    along, across = local.real, local.imag
    reach = reach[:, None]
    inside = np.sqrt(np.maximum(reach * reach - across * across, 0.0))
    meets = (np.abs(across) < reach) & (along > 0.0)
    travelled = np.maximum(along - inside, 0.0) / look_ahead[:, None]
    return np.where(meets, np.minimum(travelled, 1.0), 1.0)


def danger_map(reached: np.ndarray) -> np.ndarray:
    """Danger ``(n, N)`` from the fraction ``reached`` ``(N, n)`` of each look-ahead ray
    travelled before touching a shape (1 where it touches none): 0 free, 1 touching now."""
    return 1.0 - reached.T


def choose(
    interest: np.ndarray, danger: np.ndarray, straight: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The best direction of each agent, as a fractional slot of the ring.

    Directions more than :data:`DANGER_SLACK` more dangerous than the safest one are masked.
    Where neither ring direction either side of the straight way (``straight``) is masked,
    the agent goes straight. Elsewhere the most interesting unmasked direction wins, refined
    between its neighbours by the peak of the parabola through the three interests (a masked
    neighbour counts as a fall of 1, so the choice leans away from it).

    Args:
        interest: ``(n, N)``, higher is better.
        danger: ``(n, N)`` in [0, 1].
        straight: Fractional slots ``(n,)`` in [0, N) of the straight way to the target.

    Returns:
        ``(slot (n,) float, danger of the chosen slot (n,))``.
    """
    n, count = interest.shape
    rows = np.arange(n)
    # Mask: anything clearly more dangerous than the safest direction.
    allowed = danger <= danger.min(axis=1, keepdims=True) + DANGER_SLACK
    # Straight on where both ring directions round the straight way are allowed.
    below = np.floor(straight).astype(np.intp) % count
    above = (below + 1) % count
    clear = allowed[rows, below] & allowed[rows, above]
    # Elsewhere the best allowed direction, refined between its neighbours.
    best = np.where(allowed, interest, -np.inf).argmax(axis=1)
    slot = np.where(clear, straight, best + _peak_offset(interest, allowed, best))
    straight_danger = np.maximum(danger[rows, below], danger[rows, above])
    return slot, np.where(clear, straight_danger, danger[rows, best])


def _peak_offset(interest: np.ndarray, allowed: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Offsets ``(n,)`` in [-0.5, 0.5] of the peak of the parabola through the interests of
    slot ``best`` and its neighbours; a masked neighbour counts as a fall of 1."""
    n, count = interest.shape
    rows = np.arange(n)
    centre = interest[rows, best]
    left, right = (
        np.where(allowed[rows, side], interest[rows, side], centre - 1.0)
        for side in ((best - 1) % count, (best + 1) % count)
    )
    curve = left - 2.0 * centre + right
    bends = curve < 0.0
    offset = np.where(bends, 0.5 * (left - right) / np.where(bends, curve, -1.0), 0.0)
    return np.clip(offset, -0.5, 0.5)


def slot_directions(slot: np.ndarray, count: int) -> np.ndarray:
    """Unit directions (complex ``(n,)``) of fractional ring slots ``slot`` ``(n,)``."""
    return np.exp(2j * np.pi * slot / count)


# -- the component ---------------------------------------------------------------------------


class _RingSize(NumberParam):
    """The number of directions: a whole number from 4 to 64, one per batch (structural:
    the maps' width)."""

    structural = True

    def __init__(self, default: int) -> None:
        super().__init__(default, ge=4, le=64, whole=True)

    def per_agent(self, node: BatchNode, n: int) -> Any:
        return getattr(node.component, self.name)


def _ring_size(default: int) -> Any:
    """The ``directions`` field of :class:`ContextSteering`."""
    return _RingSize(default)


@built_in(lambda the: Arguments(target=the.point))
class ContextSteering(SteeringComponent):
    """Arrive at a target by the best of ``directions`` directions, masking those that lead
    into walls, obstacles or (if asked) other agents (context steering, after Andrew Fray).

    Every step each agent casts its circle ``look_ahead`` px along each of ``directions``
    directions spread evenly round it. A direction's danger is how little of that distance it
    can travel (0 when clear, 1 when touching a shape now); its interest is how far it leads
    towards the target, with a little weight for keeping the current heading. Directions more
    dangerous than the safest one are masked and the agent heads for the most interesting of
    the rest, interpolated between neighbouring directions for smooth turns. It slows as in
    :class:`~arcade_steering.Arrive` near the target, and in proportion to the danger of the
    way it picks.

    Where a weighted blend of Seek and wall avoidance settles in a dead end (the wall's push
    cancels the pull of the target), the directions into the dead end are masked as soon as
    its far wall is within ``look_ahead``, and the agent goes round. Use a ``look_ahead`` longer
    than the traps the agent should see through; dead ends deeper than it still trap it (for
    those, follow a path: :meth:`Path.from_astar <arcade_steering.Path.from_astar>`).

    A standalone drive: use it instead of ``Arrive`` plus ``AvoidWalls`` and
    ``AvoidObstacles``, or last in a :class:`~arcade_steering.PriorityBlend` behind
    components that handle other agents.

    Args:
        target: Where to go: an ``(x, y)`` pair, a sprite or a zero-argument callable.
        directions: How many directions the ring holds, 4 to 64 (one value per batch of
            agents sharing a tree shape).
        look_ahead: How far (px, beyond the agent's circle) each direction is checked.
        slowing_radius: Distance (px) from the target within which the agent slows down.
        tolerance: Distance (px) from the target within which it wants to stop.
        agents: Other agents that are danger too, as they stand now (each agent's circle
            grown by theirs): ``()`` for none (the default), the sprites (a list, a
            SpriteList), or None for every agent of the world. Agents within
            ``look_ahead`` plus twice the agent's radius count.
    """

    target: TargetLike = target()
    directions: int = _ring_size(16)
    look_ahead: float = param(default=160.0, gt=0.0)
    slowing_radius: float = param(default=100.0, ge=0.0)
    tolerance: float = param(default=2.0, ge=0.0)
    agents: Any = group(check_among, default=())

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        count: int = params.directions
        goal = ctx.target()
        arrive = arrive_velocity(
            ctx.position,
            goal,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            params.slowing_radius,
            params.tolerance,
        )
        offset = goal - ctx.position
        toward = unit_complex(offset, lengths(offset))
        directions = ring(count)
        reached = self._reached(ctx, directions, params.look_ahead)
        self._reached_by_agents(ctx, directions, params.look_ahead, params.agents, reached)
        interest = interest_map(directions, toward, as_complex(ctx.heading), HEADING_BIAS)
        straight = np.angle(toward) * (count / (2.0 * np.pi)) % count
        slot, danger = choose(interest, danger_map(reached), straight)
        speed = lengths(arrive) * np.maximum(1.0 - danger, MIN_SPEED_SHARE)
        desired = slot_directions(slot, count) * speed
        if ctx.debug is not None:
            _draw_ring(ctx, directions, reached, params.look_ahead)
            ctx.debug.lines(ctx.position, goal, TARGET_COLOR)
        velocity = as_complex(ctx.velocity)
        return as_points((desired - velocity) / ctx.response_time)

    @staticmethod
    def _reached(
        ctx: SteeringContext, directions: np.ndarray, look_ahead: np.ndarray
    ) -> np.ndarray:
        """Fraction ``(N, n)`` of each direction's look-ahead travelled before touching a wall
        or obstacle: one fan of swept circles per agent with shapes in reach."""
        n = len(ctx)
        reached = np.ones((len(directions), n))
        position, radius = as_complex(ctx.position), ctx.radius
        geometry = ctx.geometry
        rows, shapes = geometry.pairs(position.real, position.imag, look_ahead + radius, "all")
        if len(rows) == 0:
            return reached
        first = np.empty(len(rows), dtype=bool)
        first[0] = True
        np.not_equal(rows[1:], rows[:-1], out=first[1:])
        agents = rows[first]
        local = np.cumsum(first) - 1
        rays = directions[:, None] * look_ahead[agents][None, :]
        alpha, _, _ = geometry.cast_fans(position[agents], rays, radius[agents], local, shapes)
        reached[:, agents] = alpha
        return reached

    @staticmethod
    def _reached_by_agents(
        ctx: SteeringContext,
        directions: np.ndarray,
        look_ahead: np.ndarray,
        among: Groups,
        reached: np.ndarray,
    ) -> None:
        """Lower ``reached`` ``(N, n)`` where other agents' circles lie closer along a
        direction than the nearest shape (other agents as they stand now)."""
        if all(value is not None and len(value) == 0 for value in among.values):
            return  # the default: no agents are danger, and no neighbour query is made
        radius = ctx.radius
        pairs = ctx.neighbors(look_ahead + 2.0 * radius, among)
        if len(pairs) == 0:
            return
        query = pairs.query
        reach = radius[query] + ctx.world_radius(pairs.other)
        fraction = circle_reached(directions, as_complex(pairs.offset), reach, look_ahead[query])
        nearest = reached.T.copy()
        np.minimum.at(nearest, query, fraction)
        reached[...] = nearest.T


def _draw_ring(
    ctx: SteeringContext, directions: np.ndarray, reached: np.ndarray, look_ahead: np.ndarray
) -> None:
    """Each agent's ring of look-ahead rays, red where they touch a shape, as far as they go."""
    debug = ctx.debug
    if debug is None:
        return
    position = as_complex(ctx.position)
    starts = np.broadcast_to(position, reached.shape).ravel()
    ends = starts + (directions[:, None] * (reached * look_ahead)).ravel()
    hit = (reached < 1.0).ravel()
    debug.lines(as_points(starts[~hit]), as_points(ends[~hit]), FEELER_COLOR)
    debug.lines(as_points(starts[hit]), as_points(ends[hit]), HIT_COLOR)
