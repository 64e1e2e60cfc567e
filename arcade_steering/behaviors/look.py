"""Where agents look, apart from where they go: Face, LookWhereYouAreGoing and Scan.

These components give no force; they turn the agents' look direction (their sprites turn
with it), so that a guard can walk one way and watch another. Combine them with the linear
behaviours in one tree: ``WeightedBlend((FollowPath(route), 1.0), (Scan(60), 1.0))``.
"""

from __future__ import annotations

import numpy as np

from .._util.validate import LIMIT
from .._util.vec import as_complex, as_points
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import param, target
from ..component.registry import Arguments, built_in
from ..component.targets import TargetLike

__all__ = ["Face", "LookWhereYouAreGoing", "Scan", "turn_towards"]


def turn_towards(ctx: SteeringContext, direction: np.ndarray, tolerance: np.ndarray) -> np.ndarray:
    """Angular accelerations ``(n,)`` (degrees per s², counter-clockwise) that turn the
    agents' look onto ``direction``.

    The wanted turn rate closes the gap within a response time, no faster than
    ``max_turn_rate`` and slow enough to stop in time at ``max_angular_acceleration``; the
    acceleration reaches it within the step (the world then applies the limits).

    Args:
        ctx: The batch.
        direction: Where to look ``(n, 2)``, any length; a zero row keeps the current look.
        tolerance: Gaps smaller than this are closed, degrees ``(n,)``.
    """
    quotient = as_complex(direction) / as_complex(ctx.look)
    with np.errstate(divide="ignore"):  # log(0): a zero direction, left out below
        gap = np.degrees(_angle_of(quotient))
    turning = (quotient != 0) & np.isfinite(gap) & (np.abs(gap) > tolerance)
    gap = np.where(turning, gap, 0.0)
    braking = np.sqrt(2.0 * np.minimum(ctx.max_angular_acceleration, LIMIT) * np.abs(gap))
    speed = np.minimum(np.minimum(np.abs(gap) / ctx.response_time, ctx.max_turn_rate), braking)
    return (np.sign(gap) * speed - ctx.angular_velocity) / ctx.dt


def _angle_of(z: np.ndarray) -> np.ndarray:
    """The angles of complex numbers ``z``, radians: C's ``atan2`` of them times 4, as the
    native step takes them. (``np.angle`` calls numpy's ``arctan2``, which has SIMD code of
    its own on AVX-512 CPUs that rounds otherwise in the last bit; numpy's complex ``log``
    takes its angle from the C library's ``clog``, whose angle is ``atan2``. Times 4, exactly:
    ``clog`` takes a slow, careful path near the unit circle, where quotients of looks lie.)"""
    return np.log(as_complex(as_points(z) * 4.0)).imag


@built_in(lambda the: Arguments(target=the.leader))
class Face(SteeringComponent):
    """Look at a target, wherever the agent goes.

    Args:
        target: An ``(x, y)`` point, a sprite or a zero-argument callable.
        tolerance: Degrees within which the agent stops turning.

    Example:
        ``WeightedBlend((Arrive(door), 1.0), (Face(player), 1.0))``: walk to the door,
        watching the player.
    """

    target: TargetLike = target()
    tolerance: float = param(default=0.5, ge=0.0)

    def turn(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        return turn_towards(ctx, params.target.position - ctx.position, params.tolerance)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        return np.zeros((len(ctx), 2))


@built_in(lambda the: Arguments())
class LookWhereYouAreGoing(SteeringComponent):
    """Look along the direction of travel, turning no faster than ``max_turn_rate``.

    Without any turning component an agent's look *is* its heading, turned at once; this
    one turns it smoothly, within the agent's turn limits.

    Args:
        tolerance: Degrees within which the agent stops turning.
    """

    tolerance: float = param(default=0.5, ge=0.0)

    def turn(self, ctx: SteeringContext) -> np.ndarray:
        return turn_towards(ctx, ctx.heading, ctx.params(self).tolerance)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        return np.zeros((len(ctx), 2))


@built_in(lambda the: Arguments())
class Scan(SteeringComponent):
    """Sweep the look left and right of the direction of travel, like a guard's torch.

    The look follows ``half_angle * sin(2 pi t / period)`` degrees from the heading, within
    the agent's turn limits.

    Args:
        half_angle: How far to each side, degrees, 0-180.
        period: Seconds for a sweep there and back.
        tolerance: Degrees within which the agent stops turning.
    """

    half_angle: float = param(default=45.0, ge=0.0, le=180.0)
    period: float = param(default=4.0, gt=0.0)
    tolerance: float = param(default=0.5, ge=0.0)

    def turn(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        phase = ctx.state("phase", fill=0.0) + ctx.dt / params.period
        phase -= np.floor(phase)
        ctx.set_state("phase", phase)
        offset = np.exp(1j * np.radians(params.half_angle * np.sin(2.0 * np.pi * phase)))
        aim = as_complex(ctx.heading) * offset
        return turn_towards(ctx, as_points(aim), params.tolerance)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        return np.zeros((len(ctx), 2))
