"""AvoidWalls and AvoidObstacles: steering clear of the world's walls and round obstacles.

Both look ahead by a distance that grows with speed, are exactly silent when nothing is in
the way (so they go first in a :class:`~arcade_steering.PriorityBlend`), and ask the world's
:class:`~arcade_steering.geometry.StaticGeometry` batched questions: one ray cast for every
feeler of every agent, one broad-phase query for every detection box.

The kernels (:mod:`._avoid_kernels`) hold 2-D vectors as complex numbers ``x + iy``: one
numpy call per vector operation, where the per-frame cost is the number of numpy calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._util.masks import some
from .._util.vec import as_complex, as_points, inner
from ..component.base import SteeringComponent
from ..component.context import ParamArrays, SteeringContext
from ..component.params import param
from ..component.registry import Arguments, built_in
from ..debug import BOX_COLOR, FEELER_COLOR, HIT_COLOR, THREAT_COLOR
from ..geometry._kernels import first_min
from ._avoid_kernels import (
    feeler_depths,
    feelers,
    given_lengths,
    in_frame,
    lengths_of,
    look_ahead,
    obstacle_keys,
    pass_velocity,
    times,
    wall_push,
)

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

#: Length (px) of the normals drawn at feeler contacts.
_NORMAL_DRAWN = 12.0


@built_in(lambda the: Arguments())
class AvoidWalls(SteeringComponent):
    """Keep away from walls, feeling ahead with three feelers (after Buckland).

    A front feeler and two side feelers (at ``side_angle`` to either side, ``side_ratio`` of
    its length) reach ahead of the agent, each sweeping the agent's circle so that a wall's
    end cannot slip between them. The front feeler's length grows with speed: zero when the
    agent stands still (so it can stand next to a wall), and by default long enough at
    ``max_speed`` to stop at ``max_force`` before the wall. Where feelers cross walls
    (thickness counts), the agent is pushed out along the wall's normal, harder the deeper
    the deepest feeler went, and slides along the wall the way it was going (head-on: towards
    the wall's nearer end), so it never stalls facing a wall. Steering alone may still let an
    agent of (almost) no radius slip over a thin wall head-on at full speed: the solid step
    (``attach(..., solid=True)``, the default) is what makes crossing impossible.

    Exactly silent when no feeler touches a wall: put it first in a
    :class:`~arcade_steering.PriorityBlend`, e.g.
    ``PriorityBlend(AvoidWalls(), AvoidObstacles(), Seek(goal))``.

    Args:
        length: Front feeler length (px) at ``max_speed``, beyond the agent's circle; None for
            the stopping distance ``max_speed² / (2 max_force / mass)`` plus the agent's
            radius.
        side_angle: Degrees between the front feeler and each side feeler, 0 to 90.
        side_ratio: Side feelers' length as a fraction of the front one's, 0 to 1.
    """

    length: float | None = param(default=None, gt=0.0)
    side_angle: float = param(default=45.0, ge=0.0, le=90.0)
    side_ratio: float = param(default=0.5, ge=0.0, le=1.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        length = feeler_length(ctx, params)
        return feel_walls(ctx, ctx.geometry, length, params.side_angle, params.side_ratio)


def feeler_length(ctx: SteeringContext, params: ParamArrays) -> np.ndarray:
    """:class:`AvoidWalls`' front feeler lengths ``(n,)`` px at the agents' speeds."""
    speed = lengths_of(as_complex(ctx.velocity))
    given = ctx.node_cache("look_ahead", lambda: given_lengths(params.length))
    return look_ahead(speed, ctx.max_speed, ctx.max_force / ctx.mass, ctx.radius, given)


def feel_walls(
    ctx: SteeringContext,
    geometry: StaticGeometry,
    length: np.ndarray,
    side_angle: np.ndarray,
    side_ratio: np.ndarray,
    owners: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """:class:`AvoidWalls`' force ``(n, 2)``: three feelers per agent against the walls of
    ``geometry``, the front one ``length`` ``(n,)`` px beyond the agent's circle, the side ones
    at ``side_angle`` degrees and ``side_ratio`` of it (both ``(n,)``); zero where none
    touches a wall. Draws the feelers when ``ctx`` records debug shapes.

    ``owners``, if given, is ``(of each agent (n,), of each wall (m,))``: an agent feels
    only the walls of its own owner (a region of its own in a shared geometry).
    """
    force = np.zeros((len(ctx), 2))
    position, radius = as_complex(ctx.position), ctx.radius
    if ctx.debug is not None:
        heading = as_complex(ctx.heading)
        _draw_feelers(ctx, geometry, position, heading, length, side_angle, side_ratio)
    # One broad phase per agent serves its three feelers: they all lie within the front
    # one's length of the agent's circle. The ray cast's own bounding-box test drops the
    # walls the grid's cell lists bring that are not quite that close, in fewer calls than
    # an exact distance filter here.
    reach = length + radius
    pair_rows, walls = geometry.pairs(position.real, position.imag, reach, "walls")
    if owners is not None:
        own = (owners[0].take(pair_rows) == owners[1].take(walls)).nonzero()[0]
        pair_rows, walls = pair_rows[own], walls[own]
    if len(pair_rows) == 0:
        return force
    # The agents with walls in reach, numbered 0..k-1 for the ray cast.
    first = np.empty(len(pair_rows), dtype=bool)
    first[0] = True
    np.not_equal(pair_rows[1:], pair_rows[:-1], out=first[1:])
    agents = pair_rows[first]
    local = np.add.accumulate(first.astype(np.intp))  # np.cumsum, minus its overhead
    local -= 1
    directions, lengths = feelers(
        as_complex(ctx.heading)[agents],
        length[agents],
        _pick(side_angle, agents),
        _pick(side_ratio, agents),
    )
    starts = position[agents]
    rays = directions * lengths
    alpha, normal, shape = geometry.cast_fans(starts, rays, radius[agents], local, walls)
    touching = (shape >= 0).any(axis=0).nonzero()[0]
    if len(touching) == 0:
        return force
    agents = agents[touching]
    ramp = np.maximum(radius[agents], 1.0)
    worst, away, deepest = feeler_depths(
        directions.take(touching, axis=1),
        lengths.take(touching, axis=1),
        alpha.take(touching, axis=1),
        normal.take(touching, axis=1),
        ramp,
    )
    flat = deepest * alpha.shape[1] + touching

    def nearer_ends() -> np.ndarray:
        contact = starts.take(touching) + alpha.take(flat) * rays.take(flat)
        return _towards_nearer_end(geometry, shape.take(flat), contact)

    push = wall_push(
        worst,
        away,
        as_complex(ctx.velocity)[agents],
        nearer_ends,
        ctx.max_speed[agents],
        ctx.max_force[agents],
        ramp,
        ctx.response_time[agents],
    )
    as_complex(force)[agents] = push
    return force


@built_in(lambda the: Arguments())
class AvoidObstacles(SteeringComponent):
    """Steer around round obstacles ahead (Reynolds, Buckland's detection box).

    A box reaches ahead of the agent: as wide as the agent plus ``buffer`` on each side, as
    long as ``min_length`` plus a look-ahead that grows with speed (by default, at
    ``max_speed``, the stopping distance plus the agent's radius). Of the obstacles whose
    circles enter it, the nearest is the threat: the agent steers for the tangent of that
    circle grown by its radius and ``buffer``, on the side nearer to it, braking more the
    closer it is. It keeps that side while the same obstacle is the threat, so it does not
    dither, and a head-on meeting still picks a side. An agent overlapping an obstacle
    steers straight out of it.

    Exactly silent when there is no threat: put it early in a
    :class:`~arcade_steering.PriorityBlend`.

    Args:
        length: Look-ahead (px) at ``max_speed``, beyond ``min_length``; None for the
            stopping distance from ``max_speed`` at ``max_force / mass`` plus the radius.
        min_length: Box length (px) of an agent standing still.
        buffer: Clearance (px) the agent aims to keep between its circle and an obstacle
            (it steers for the tangent of the obstacle grown by its radius and this much).
        braking: Fraction of the speed it met the threat with that the agent gives up when
            about to touch it, 0 to 1; less the farther it is. Never below a quarter of
            ``max_speed``, so that even ``braking=1`` gets round.
    """

    length: float | None = param(default=None, gt=0.0)
    min_length: float = param(default=10.0, ge=0.0)
    buffer: float = param(default=4.0, ge=0.0)
    braking: float = param(default=0.5, ge=0.0, le=1.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        n = len(ctx)
        force = np.zeros((n, 2))
        position, heading = as_complex(ctx.position), as_complex(ctx.heading)
        velocity, radius = as_complex(ctx.velocity), ctx.radius
        speed = lengths_of(velocity)
        length, swath, rows, shapes = obstacle_candidates(ctx, params, speed)
        if ctx.debug is not None:
            _draw_boxes(ctx, position, heading, length, swath)
        if len(rows):
            centre, size = ctx.geometry.capsules(shapes)
            local, key = obstacle_keys(
                in_frame(centre - position.take(rows), heading.take(rows)),
                size,
                radius.take(rows),
                swath.take(rows),
                length.take(rows),
            )
            agents, pair, best = first_min(rows, key)
        else:
            agents = rows
        previous = ctx.state("shape", fill=-1.0)
        if len(agents) == 0:
            if some(previous >= 0.0):
                ctx.set_state("shape", np.full(n, -1.0))
            return force
        chosen = np.full(n, -1.0)
        chosen[agents] = shapes[pair]
        # Pass on the side away from the centre, or keep the side taken for this obstacle.
        side = np.where(local[pair].imag > 0.0, -1.0, 1.0)
        kept = ctx.state("side", fill=0.0)[agents]
        same_threat = previous[agents] == chosen[agents]
        same = same_threat & (kept != 0.0)
        side[same] = kept[same]
        sides = np.zeros(n)
        sides[agents] = side
        # Braking gives up a share of the speed the agent met this threat with: a share of the
        # speed it has now would compound, step after step, almost to a stop.
        slowest = MIN_CRUISE * ctx.max_speed[agents]
        met = ctx.state("cruise", fill=np.nan)[agents]
        cruise = np.where(same_threat & ~np.isnan(met), met, np.maximum(speed[agents], slowest))
        cruises = np.full(n, np.nan)
        cruises[agents] = cruise
        ctx.set_state("shape", chosen)
        ctx.set_state("side", sides)
        ctx.set_state("cruise", cruises)

        desired = pass_velocity(
            local[pair],
            size[pair] + swath[agents],
            size[pair] + radius[agents],
            side,
            best / length[agents],
            cruise,
            params.braking[agents],
            slowest,
        )
        desired = times(desired, heading[agents])
        as_complex(force)[agents] = (desired - velocity[agents]) / ctx.response_time[agents]
        if ctx.debug is not None:
            centre = as_points(centre[pair])
            ctx.debug.circles(centre, size[pair] + swath[agents], THREAT_COLOR)
            ctx.debug.lines(ctx.position[agents], centre, THREAT_COLOR)
        return force


def obstacle_candidates(
    ctx: SteeringContext, params: ParamArrays, speed: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:class:`AvoidObstacles`' detection boxes and the obstacles that may enter them.

    Args:
        ctx: The agents' context.
        params: The component's parameters for them.
        speed: The agents' speeds ``(n,)`` px/s.

    Returns:
        ``(length (n,), swath (n,), rows (p,), shapes (p,))``: each box's length and
        half-width (px), and the broad phase's ``(agent, obstacle)`` pairs, rows ascending.
    """
    given = ctx.node_cache("look_ahead", lambda: given_lengths(params.length))
    length = look_ahead(speed, ctx.max_speed, ctx.max_force / ctx.mass, ctx.radius, given)
    length += params.min_length
    swath = ctx.radius + params.buffer
    half = 0.5 * length
    middle = as_complex(ctx.position) + as_complex(ctx.heading) * half
    rows, shapes = ctx.geometry.pairs(middle.real, middle.imag, half + swath, "obstacles")
    return length, swath, rows, shapes


#: Fraction of ``max_speed`` an agent steering round an obstacle keeps at least, however much
#: it brakes: a slow agent would otherwise stop in front of it and never get round.
MIN_CRUISE = 0.25


def _towards_nearer_end(
    geometry: StaticGeometry, shape: np.ndarray, point: np.ndarray
) -> np.ndarray:
    """Unit directions (complex ``[k]``) along walls ``shape`` towards the end nearer to
    ``point`` (complex ``[k]``): the way to slide when meeting a wall exactly head-on."""
    start, direction, length = geometry.frames(shape)
    along = inner(point - start, direction)
    return np.where(along <= 0.5 * length, -direction, direction)


def _pick(values: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``values[rows]``, kept a broadcast view when every row holds the same value (a
    shared component's parameter), so kernels can treat it as one number."""
    if values.strides == (0,):
        return values[: len(rows)]
    return values[rows]


def _draw_feelers(
    ctx: SteeringContext,
    geometry: StaticGeometry,
    position: np.ndarray,
    heading: np.ndarray,
    length: np.ndarray,
    side_angle: np.ndarray,
    side_ratio: np.ndarray,
) -> None:
    """Every feeler (red where it touches a wall), contacts and their normals."""
    directions, lengths = feelers(heading, length, side_angle, side_ratio)
    starts = np.tile(position, 3)
    ends = starts + (directions * lengths).ravel()
    grown = np.tile(ctx.radius, 3)
    hits = geometry.cast(as_points(starts), as_points(ends), grown, "walls")
    hit = hits.hit
    starts, ends = as_points(starts), as_points(ends)
    debug = ctx.debug
    if debug is None:
        return
    debug.lines(starts[~hit], ends[~hit], FEELER_COLOR)
    debug.lines(starts[hit], ends[hit], HIT_COLOR)
    surface = hits.point[hit] - hits.normal[hit] * grown[hit, None]
    debug.points(surface, HIT_COLOR)
    debug.lines(surface, surface + hits.normal[hit] * _NORMAL_DRAWN, HIT_COLOR)


def _draw_boxes(
    ctx: SteeringContext,
    position: np.ndarray,
    heading: np.ndarray,
    length: np.ndarray,
    swath: np.ndarray,
) -> None:
    side = heading * 1j * swath
    front = heading * length
    corners = (position + side, position + side + front, position - side + front, position - side)
    starts = np.concatenate(corners)
    ends = np.concatenate(corners[1:] + corners[:1])
    if ctx.debug is not None:
        ctx.debug.lines(as_points(starts), as_points(ends), BOX_COLOR)
