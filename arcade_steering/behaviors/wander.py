"""Wander: Reynolds' random stroll, a target sliding on a circle ahead of the agent."""

from __future__ import annotations

import numpy as np

from .._util.vec import perpendicular, scale_rows
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import param
from ..component.registry import Arguments, built_in
from ..debug import TARGET_COLOR
from .seek import seek_velocity, velocity_force


def wander_targets(
    position: np.ndarray,
    heading: np.ndarray,
    angle: np.ndarray,
    radius: np.ndarray,
    distance: np.ndarray,
) -> np.ndarray:
    """Points on the wander circle: ``distance`` ahead along ``heading``, at ``angle``
    (radians, counter-clockwise from the heading) on a circle of ``radius``. ``(n, 2)``."""
    forward = scale_rows(heading, np.cos(angle)) + scale_rows(perpendicular(heading), np.sin(angle))
    return position + scale_rows(heading, distance) + scale_rows(forward, radius)


def wander_angles(ctx: SteeringContext, jitter: np.ndarray) -> np.ndarray:
    """Each agent's angle on its wander circle after this step's random walk ``(n,)``,
    radians in ``[-pi, pi)``, stored as its state ``"angle"``.

    Draws from the world's generator: first a uniform start for each agent new to it, then one
    normal per agent. Both paths walk the angles here, so they draw the same numbers in the
    same order and replays stay deterministic.
    """
    angle = ctx.state("angle")
    fresh = np.isnan(angle)
    angle[fresh] = ctx.rng.uniform(-np.pi, np.pi, int(fresh.sum()))
    angle += jitter * np.sqrt(ctx.dt) * ctx.rng.standard_normal(len(ctx))
    angle = (angle + np.pi) % (2.0 * np.pi) - np.pi
    ctx.set_state("angle", angle)
    return angle


@built_in(lambda the: Arguments())
class Wander(SteeringComponent):
    """Stroll about: seek a point that drifts randomly on a circle ahead of the agent.

    The point's angle on the circle is a random walk in time, so the stroll looks the same at
    any frame rate: after ``t`` seconds its spread is ``jitter * sqrt(t)`` radians. Randomness
    comes only from the world's seeded generator.

    Args:
        radius: Radius of the wander circle, px. Larger: wider turns.
        distance: How far ahead of the agent the circle's centre lies, px. Larger: calmer.
        jitter: Angular random walk of the point on the circle, radians per sqrt(second).
    """

    radius: float = param(default=30.0, ge=0.0)
    distance: float = param(default=60.0, ge=0.0)
    jitter: float = param(default=3.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        angle = wander_angles(ctx, params.jitter)
        targets = wander_targets(ctx.position, ctx.heading, angle, params.radius, params.distance)
        if ctx.debug is not None:
            centers = ctx.position + scale_rows(ctx.heading, params.distance)
            ctx.debug.circles(centers, params.radius, TARGET_COLOR)
            ctx.debug.points(targets, TARGET_COLOR)
        desired = seek_velocity(ctx.position, targets, ctx.max_speed)
        return velocity_force(desired, ctx.velocity, ctx.response_time)
