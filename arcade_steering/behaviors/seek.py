"""Seek, Flee, Arrive, Pursue and Evade: steering towards or away from a point.

The kernels are pure functions over arrays (positions ``(n, 2)``, limits ``(n,)``); the
classes hold parameters and gather them per agent.
"""

from __future__ import annotations

import numpy as np

from .._util.vec import (
    as_points,
    divide_rows,
    lengths,
    normalize,
    scale_rows,
    spread_directions,
    unit_complex,
    where_rows,
)
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import param, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike
from ..debug import TARGET_COLOR

# -- kernels ---------------------------------------------------------------------------------


def velocity_force(
    desired: np.ndarray, velocity: np.ndarray, response_time: np.ndarray
) -> np.ndarray:
    """Reynolds' steering: ``(desired - velocity) / response_time``, ``(n, 2)``."""
    return divide_rows(desired - velocity, response_time)


def seek_velocity(position: np.ndarray, target: np.ndarray, max_speed: np.ndarray) -> np.ndarray:
    """Full speed straight at ``target``; zero when already there. ``(n, 2)`` px/s."""
    return scale_rows(normalize(target - position), max_speed)


def flee_velocity(
    position: np.ndarray,
    threat: np.ndarray,
    max_speed: np.ndarray,
    panic_distance: np.ndarray,
    fallback: np.ndarray,
) -> np.ndarray:
    """Full speed away from ``threat`` when closer than ``panic_distance``, else zero.

    Args:
        fallback: Unit directions ``(n, 2)`` to flee in when standing on the threat.
    """
    away = position - threat
    distance = lengths(away)
    desired = scale_rows(normalize(away, fallback), max_speed)
    desired[distance >= panic_distance] = 0.0
    return desired


def arrive_velocity(
    position: np.ndarray,
    target: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    response_time: np.ndarray,
    slowing_radius: np.ndarray,
    tolerance: np.ndarray,
) -> np.ndarray:
    """Velocity that brakes to a stop at ``target`` without coasting past it.

    The desired speed falls linearly inside ``slowing_radius``, with a slope never steeper than
    ``1 / (4 response_time)`` (beyond it the lag of the response makes the approach oscillate).
    Further out it follows a braking parabola that asks for a deceleration of ``0.8 a`` and
    meets the line tangentially: a plain ``min(line, sqrt(1.6 a d))`` would ask for twice that
    where they cross, more than the agent has, and it would coast past the target. Zero within
    ``tolerance``.
    """
    offset = target - position
    distance = lengths(offset)
    slope = np.minimum(max_speed / np.maximum(slowing_radius, 1e-9), 0.25 / response_time)
    braking = 0.8 * max_acceleration
    # On the line, following it takes a deceleration of slope² d: the knee is where that
    # reaches ``braking``; beyond it, a constant deceleration with the same speed and slope.
    knee = braking / slope**2
    parabola = np.sqrt(np.maximum(2.0 * braking * distance - (braking / slope) ** 2, 0.0))
    speed = np.minimum(max_speed, np.where(distance <= knee, slope * distance, parabola))
    speed[distance <= tolerance] = 0.0
    # normalize(offset) times speed, its lengths already known, as complex numbers throughout.
    return as_points(unit_complex(offset, distance) * speed)


def predicted_position(
    position: np.ndarray,
    quarry: np.ndarray,
    quarry_velocity: np.ndarray,
    max_speed: np.ndarray,
    max_prediction: np.ndarray,
) -> np.ndarray:
    """Where the quarry will be when reached.

    ``quarry + v * min(distance / max_speed, max_prediction)``, ``(n, 2)``.
    """
    lookahead = np.minimum(lengths(quarry - position) / max_speed, max_prediction)
    return quarry + scale_rows(quarry_velocity, lookahead)


def evade_velocity(
    position: np.ndarray,
    threat: np.ndarray,
    threat_velocity: np.ndarray,
    max_speed: np.ndarray,
    max_prediction: np.ndarray,
    fallback: np.ndarray,
) -> np.ndarray:
    """Full speed away from where the threat will be (:func:`predicted_position`), ``(n, 2)``.

    Args:
        fallback: Unit directions ``(n, 2)`` to flee in when standing on that point.
    """
    aim = predicted_position(position, threat, threat_velocity, max_speed, max_prediction)
    return flee_velocity(position, aim, max_speed, np.full(len(position), np.inf), fallback)


# -- components ------------------------------------------------------------------------------


@built_in(lambda the: Arguments(target=the.point))
class Seek(SteeringComponent):
    """Steer at full speed towards a target.

    Args:
        target: An ``(x, y)`` point, a sprite (anything with ``.position``) or a zero-argument
            callable returning ``(x, y)``.
    """

    target: TargetLike = target()

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        targets = params.target
        target = targets.position
        _record_targets(ctx, target)
        desired = seek_velocity(ctx.position, target, ctx.max_speed)
        return targets.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


@built_in(lambda the: Arguments(target=the.point, panic_distance=80.0))
class Flee(SteeringComponent):
    """Steer at full speed away from a target, only within ``panic_distance`` of it.

    Silent outside the panic distance, so it belongs first in a :class:`PriorityBlend`.

    Args:
        target: The threat: a point, a sprite or a callable.
        panic_distance: Distance (px) inside which the agent flees; None for everywhere.
    """

    target: TargetLike = target()
    panic_distance: float | None = param(default=None, gt=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        targets = params.target
        desired = flee_velocity(
            ctx.position,
            targets.position,
            ctx.max_speed,
            params.panic_distance,
            fallback_directions(ctx),
        )
        force = velocity_force(desired, ctx.velocity, ctx.response_time)
        force[~desired.any(axis=1)] = 0.0
        return targets.silence(force)


@built_in(lambda the: Arguments(target=the.point))
class Arrive(SteeringComponent):
    """Steer towards a target and brake to a stop on it, never coasting past it.

    Args:
        target: A point, a sprite or a callable.
        slowing_radius: Distance (px) within which the agent slows down in step with the
            distance left. It starts braking sooner when it could not stop within it (a
            high ``max_speed``, a low ``max_force`` or a long ``response_time``).
        tolerance: Distance (px) counted as arrived: the agent stops within it.
    """

    target: TargetLike = target()
    slowing_radius: float = param(default=100.0, gt=0.0)
    tolerance: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        targets = params.target
        target = targets.position
        _record_targets(ctx, target)
        desired = arrive_velocity(
            ctx.position,
            target,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            params.slowing_radius,
            params.tolerance,
        )
        return targets.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


@built_in(lambda the: Arguments(quarry=the.leader))
class Pursue(SteeringComponent):
    """Seek where a moving quarry will be, predicting from its velocity.

    Args:
        quarry: A sprite (attached to the world, or moved by the game: its velocity is then
            estimated from its position change between updates) or a callable.
        max_prediction: Longest look-ahead, seconds.
    """

    quarry: TargetLike = target()
    max_prediction: float = param(default=1.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        quarry = params.quarry
        aim = predicted_position(
            ctx.position,
            quarry.position,
            quarry.velocity,
            ctx.max_speed,
            params.max_prediction,
        )
        _record_targets(ctx, aim)
        desired = seek_velocity(ctx.position, aim, ctx.max_speed)
        return quarry.silence(velocity_force(desired, ctx.velocity, ctx.response_time))


@built_in(lambda the: Arguments(threat=the.leader))
class Evade(SteeringComponent):
    """Flee from where a moving threat will be; silent beyond ``threat_range``.

    Args:
        threat: A sprite or a callable (see :class:`Pursue`).
        threat_range: Distance (px) to the threat inside which the agent evades; None for
            everywhere.
        max_prediction: Longest look-ahead, seconds.
    """

    threat: TargetLike = target()
    threat_range: float | None = param(default=None, gt=0.0)
    max_prediction: float = param(default=1.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        threats = params.threat
        threat = threats.position
        in_range = lengths(threat - ctx.position) < params.threat_range
        desired = evade_velocity(
            ctx.position,
            threat,
            threats.velocity,
            ctx.max_speed,
            params.max_prediction,
            fallback_directions(ctx),
        )
        force = velocity_force(desired, ctx.velocity, ctx.response_time)
        force[~in_range] = 0.0
        return threats.silence(force)


def fallback_directions(ctx: SteeringContext) -> np.ndarray:
    """Directions for an agent standing exactly on what it flees: onwards, or spread."""
    moving = np.any(ctx.velocity != 0.0, axis=1)
    return where_rows(moving, ctx.heading, spread_directions(ctx.slots))


def _record_targets(ctx: SteeringContext, targets: np.ndarray) -> None:
    if ctx.debug is not None:
        ctx.debug.lines(ctx.position, targets, TARGET_COLOR)
        ctx.debug.points(targets, TARGET_COLOR)
