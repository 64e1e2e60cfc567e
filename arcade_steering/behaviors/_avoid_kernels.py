"""Pure kernels of AvoidWalls and AvoidObstacles, over arrays of complex numbers.

A 2-D vector ``(x, y)`` is the complex number ``x + iy``: adding, scaling and rotating
(multiplying by ``exp(i angle)``) take one numpy call each, a dot product
``(a * b.conj()).real`` two. At the sizes steering works with, the count of numpy calls sets
the cost, so the kernels of the per-frame hot path use this form; a product whose rounding a
decision depends on (an obstacle ahead, the way to slide along a wall) goes through
:func:`~arcade_steering._util.vec.times` or ``inner``, which round the same on every CPU and
as the native step. Lengths are px, speeds px/s, forces px/s² times mass. No arcade, no pymunk.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._util.masks import every, some
from .._util.vec import inner, lengths_xy, times

__all__ = [
    "feeler_depths",
    "feelers",
    "given_lengths",
    "in_frame",
    "lengths_of",
    "look_ahead",
    "obstacle_keys",
    "pass_velocity",
    "times",
    "wall_push",
]


def look_ahead(
    speed: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    radius: np.ndarray,
    length: np.ndarray | None,
) -> np.ndarray:
    """How far ahead ``(n,)`` px an agent looks at its current speed.

    ``length`` is the distance at ``max_speed``; ``inf`` means the stopping distance from
    ``max_speed`` at ``max_acceleration`` plus ``radius``, so that braking in time is possible
    (None: ``inf`` for every agent, see :func:`given_lengths`). The distance scales linearly
    with speed, which keeps it at least the stopping distance at every lower speed too (that
    one falls with the square), and makes it zero for an agent standing still.
    """
    full = max_speed * max_speed
    full /= 2.0 * max_acceleration
    full += radius
    if length is not None:
        full = np.where(length < np.inf, length, full)
    return full * np.minimum(speed / max_speed, 1.0)


def given_lengths(length: np.ndarray) -> np.ndarray | None:
    """``length`` ``(n,)`` for :func:`look_ahead`, or None when every one is ``inf`` (the
    default): worked out once per parameter value, it spares each frame a selection."""
    return length if some(length < np.inf) else None


def _turn(degrees: np.ndarray) -> complex | np.ndarray:
    """``exp(i radians)`` of ``degrees`` ``(n,)``: one Python number when all are equal (a
    shared component's parameter, or every agent's own copy of the default)."""
    if len(degrees) == 0 or degrees.strides == (0,) or every(degrees == degrees[0]):
        angle = math.radians(float(degrees[0])) if len(degrees) else 0.0
        return complex(math.cos(angle), math.sin(angle))
    return np.exp(1j * np.radians(degrees))


def feelers(
    heading: np.ndarray, length: np.ndarray, side_angle: np.ndarray, side_ratio: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Buckland's three feelers: straight ahead, and to the left and right at ``side_angle``.

    Args:
        heading: Unit directions, complex ``(n,)``.
        length: Front feeler lengths ``(n,)`` px; side feelers are ``side_ratio`` of it.
        side_angle: Degrees ``(n,)`` between the front feeler and each side feeler.
        side_ratio: ``(n,)``.

    Returns:
        ``(directions, lengths)``: complex ``(3, n)`` and ``(3, n)``, the front feelers in
        the first row, then the left ones, then the right ones.
    """
    turn = _turn(side_angle)
    # concatenate, then reshape: np.stack costs several times more at these sizes.
    directions = np.concatenate((heading, times(heading, turn), times(heading, np.conj(turn))))
    side = length * side_ratio
    return directions.reshape(3, -1), np.concatenate((length, side, side)).reshape(3, -1)


def feeler_depths(
    direction: np.ndarray,
    length: np.ndarray,
    alpha: np.ndarray,
    normal: np.ndarray,
    ramp: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How deep each agent's feelers went past walls, and which way is out.

    A feeler touching a wall at ``alpha`` of its length went ``(1 - alpha) * length`` past
    the contact, so its tip is that times the cosine of its angle of incidence behind the
    wall's surface. One starting inside a wall (or touching it and moving in) counts as
    ``ramp`` deep.

    Args:
        direction: Unit directions of the three feelers of ``k`` agents, complex ``(3, k)``.
        length: Their lengths ``(3, k)`` px.
        alpha: Where they first touch a wall ``(3, k)``, 1 for none.
        normal: Outward wall normals there, complex ``(3, k)``, 0 for none.
        ramp: Depth ``(k,)`` px counted for a feeler starting inside a wall.

    Returns:
        ``(deepest depth (k,), way out (k,) complex unit, deepest feeler (k,) in 0..2)``:
        the way out weighs every feeler's normal by its depth, so that in a corner the agent
        leaves both walls.
    """
    facing = inner(direction, normal)
    np.minimum(facing, 0.0, out=facing)
    depth = (alpha - 1.0) * length * facing
    np.copyto(depth, ramp, where=alpha == 0.0)
    deepest = depth.argmax(axis=0)  # the first of equals: front, then left, then right
    k = depth.shape[1]
    pick = deepest * k + np.arange(k)
    worst = depth.take(pick)
    summed = (depth * normal).sum(axis=0)
    size = lengths_xy(summed.real, summed.imag)
    away = np.where(size > 1e-9 * worst, summed / np.maximum(size, 1e-300), normal.take(pick))
    return worst, away, deepest


def wall_push(
    depth: np.ndarray,
    normal: np.ndarray,
    velocity: np.ndarray,
    choice: np.ndarray | Callable[[], np.ndarray],
    max_speed: np.ndarray,
    max_force: np.ndarray,
    ramp: np.ndarray,
    response_time: np.ndarray,
) -> np.ndarray:
    """The force (complex ``(k,)``) of agents whose feelers went ``depth`` ``(k,)`` px past
    walls; exactly zero where ``depth`` is 0.

    Out along ``normal``, growing with depth to ``max_force`` at ``ramp`` px, plus a slide
    along the wall, in the part of ``max_force`` the push leaves, towards full speed the way
    the agent already goes along the wall. A push straight back alone stops an agent meeting
    a wall head-on, and it would stay there; exactly head-on, the slide goes the way of
    ``choice`` (complex ``(k,)``, or a function returning it, called only when some agent
    meets its wall exactly head-on).
    """
    push = np.minimum(depth / ramp, 1.0)
    push *= max_force
    tangent = normal * 1j
    along = inner(velocity, tangent)
    backwards = along < 0.0
    head_on = (along == 0.0).nonzero()[0]
    if len(head_on):
        chosen = choice() if callable(choice) else choice
        backwards[head_on] = inner(chosen[head_on], tangent[head_on]) < 0.0
    np.negative(tangent, out=tangent, where=backwards)
    room = max_force * max_force
    room -= push * push
    np.maximum(room, 0.0, out=room)
    slide = max_speed - np.abs(along)
    slide /= response_time
    np.maximum(slide, 0.0, out=slide)
    np.minimum(slide, np.sqrt(room), out=slide)
    force = normal * push
    force += tangent * slide
    force[depth <= 0.0] = 0.0
    return force


def in_frame(offset: np.ndarray, heading: np.ndarray) -> np.ndarray:
    """Offsets (complex ``(p,)``) in the frames whose x axis is ``heading`` (unit, complex
    ``(p,)``): ``offset * heading.conj()``, rounded as :func:`times` rounds."""
    return times(offset, heading.conj())


def lengths_of(local: np.ndarray) -> np.ndarray:
    """``abs(local)`` (complex ``(p,)``) rounded the same on every machine: numpy's complex
    ``abs`` fuses multiply-adds on AVX-512 CPUs, and an agent the solid step left exactly
    touching an obstacle would overlap it or not by the machine."""
    x, y = local.real, local.imag
    squared = x * x
    squared += y * y
    return np.sqrt(squared)


def obstacle_keys(
    local: np.ndarray,
    obstacle: np.ndarray,
    radius: np.ndarray,
    swath: np.ndarray,
    length: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Rank (agent, obstacle) pairs by threat: the smaller key, the more urgent.

    Args:
        local: Obstacle centres in each agent's frame (x ahead, y to the left), complex
            ``(p,)`` px.
        obstacle: Obstacle radii ``(p,)`` px.
        radius: Agent radii ``(p,)`` px.
        swath: Half-widths of the agents' detection boxes ``(p,)`` px (radius + buffer).
        length: Lengths of the boxes ``(p,)`` px.

    Returns:
        ``(local, key)``: the key is the overlap (negative) for an agent overlapping the
        obstacle, else the distance ahead at which the agent's swath meets the obstacle
        when that is inside the box, else inf.
    """
    x, y = local.real, local.imag
    distance = lengths_of(local)
    clear = obstacle + swath
    room = clear * clear - y * y
    contact = x - np.sqrt(np.maximum(room, 0.0))
    threat = (x > 0.0) & (room > 0.0) & (contact <= length)
    key = np.where(threat, np.maximum(contact, 0.0), np.inf)
    overlap = distance - obstacle - radius
    return local, np.where(overlap < 0.0, overlap, key)


def pass_velocity(
    local: np.ndarray,
    clear: np.ndarray,
    touch: np.ndarray,
    side: np.ndarray,
    distance_ratio: np.ndarray,
    cruise: np.ndarray,
    braking: np.ndarray,
    slowest: np.ndarray,
) -> np.ndarray:
    """Velocities (complex ``(k,)``, in each agent's frame) that pass an obstacle on ``side``.

    Outside the circle of radius ``clear`` around the obstacle (centre ``local``, complex
    ``(k,)``), the direction is the tangent to that circle; inside it, it turns further out,
    to straight away where the agent touches the obstacle (centres ``touch`` apart). ``side``
    +1 passes with the obstacle on the right (turning left), -1 on the left. The speed is
    ``cruise`` less ``braking`` of it as the contact ahead (``distance_ratio`` of the box's
    length away) comes close, and never below ``slowest`` (px/s), so that it gets round.
    """
    distance = lengths_of(local)
    size = distance
    on_centre = distance <= 0.0
    if some(on_centre):  # on the centre: treat it as dead ahead
        local = np.where(on_centre, 1.0 + 0j, local)
        size = np.where(on_centre, 1.0, distance)
    # Outside the clearance circle: the tangent, turned asin(clear / distance) from the
    # centre, i.e. by the unit complex sqrt(1 - ratio²) + i ratio (i -ratio on the other
    # side); no trigonometry.
    ratio = np.minimum(clear / np.maximum(distance, 1e-12), 1.0)
    turn = np.sqrt(1.0 - ratio * ratio) + 1j * (side * ratio)
    inside = (distance < clear).nonzero()[0]
    if len(inside):  # from the tangent (90 degrees) to straight away (180) at contact
        beyond = (clear - distance)[inside] / np.maximum((clear - touch)[inside], 1e-9)
        angle = 0.5 * np.pi * np.minimum(beyond, 1.0)
        turn[inside] = -np.sin(angle) + 1j * (side[inside] * np.cos(angle))
    closeness = 1.0 - np.minimum(np.maximum(distance_ratio, 0.0), 1.0)
    speed = np.maximum(cruise * (1.0 - braking * closeness), slowest)
    unit = local * (1.0 / size)  # numpy's complex / real: times the reciprocal
    return times(unit, turn) * speed
