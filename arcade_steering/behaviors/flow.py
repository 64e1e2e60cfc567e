"""FollowFlowField: steer along a flow field's direction, arriving at its goal."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._util.vec import lengths, normalize, scale_rows, where_rows
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import group, param
from ..component.registry import Arguments, built_in
from ..debug import PATH_TUBE_COLOR, TARGET_COLOR, DebugRecorder
from ..flowfield import FlowField
from .seek import arrive_velocity, velocity_force

__all__ = ["FollowFlowField", "flow_velocity"]


def check_field(name: str, value: Any) -> FlowField:
    """Return ``value`` if it is a :class:`FlowField`, else raise ``TypeError`` naming ``name``."""
    if not isinstance(value, FlowField):
        raise TypeError(f"{name} must be an arcade_steering.FlowField, got {type(value).__name__}")
    return value


def flow_velocity(
    field: FlowField,
    position: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    response_time: np.ndarray,
    slowing_radius: np.ndarray,
    tolerance: np.ndarray,
) -> np.ndarray:
    """Desired velocities ``(n, 2)`` px/s for agents at ``position`` ``(n, 2)`` on ``field``.

    Full speed along the field's (interpolated) direction. With a goal, the speed follows
    :func:`~arcade_steering.behaviors.seek.arrive_velocity` over the distance still to go
    along the field, and within one and a half cells of the goal the agent heads straight for
    it (the field is coarser than that), so it stops on the goal.
    """
    direction = field.direction_at(position)
    if field.goal is None:
        return scale_rows(direction, max_speed)
    goal = np.asarray(field.goal)
    straight = goal - position
    close = lengths(straight) <= 1.5 * field.cell_size
    remaining = np.where(close, lengths(straight), field.distance_at(position))
    remaining = np.where(np.isfinite(remaining), remaining, 0.0)
    heading = where_rows(close, normalize(straight), direction)
    aim = position + scale_rows(heading, remaining)
    return arrive_velocity(
        position, aim, max_speed, max_acceleration, response_time, slowing_radius, tolerance
    )


@built_in(lambda the: Arguments(field=the.field))
class FollowFlowField(SteeringComponent):
    """Steer along a :class:`~arcade_steering.FlowField`, e.g. one built with
    :meth:`FlowField.towards <arcade_steering.FlowField.towards>` so that any number of
    agents find their way to one goal around walls without a path each.

    The agent seeks at full speed along the field's direction at its position (bilinearly
    interpolated between cell centres). If the field has a goal, the agent brakes for the
    distance left along the field and stops on the goal (as
    :class:`~arcade_steering.Arrive`). Where the field has no direction (cells that cannot
    reach the goal) the agent brakes.

    Args:
        field: The flow field (may be shared by many agents).
        slowing_radius: Distance (px) from the goal at which braking starts.
        tolerance: Distance (px) from the goal counted as arrived.

    Raises:
        TypeError: ``field`` is not a FlowField, or a parameter has the wrong type.
        ValueError: A parameter is out of range.
    """

    field: FlowField = group(check_field)
    slowing_radius: float = param(default=100.0, gt=0.0)
    tolerance: float = param(default=2.0, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        force = np.zeros((len(ctx), 2))
        for field, rows in params.field:
            desired = flow_velocity(
                field,
                ctx.position[rows],
                ctx.max_speed[rows],
                (ctx.max_force / ctx.mass)[rows],
                ctx.response_time[rows],
                params.slowing_radius[rows],
                params.tolerance[rows],
            )
            force[rows] = velocity_force(desired, ctx.velocity[rows], ctx.response_time[rows])
            if ctx.debug is not None:
                draw_field(ctx.debug, field)
                ctx.debug.lines(
                    ctx.position[rows], ctx.position[rows] + desired * 0.25, TARGET_COLOR
                )
        return force


def draw_field(debug: DebugRecorder, field: FlowField) -> None:
    """Record a short arrow stem per cell (once per frame, however many agents follow it)."""
    if not debug.once(("flow", id(field))):
        return
    centers = field.centers().reshape(-1, 2)
    stems = field.directions.reshape(-1, 2) * (0.4 * field.cell_size)
    keep = stems.any(axis=1)
    debug.lines(centers[keep], centers[keep] + stems[keep], PATH_TUBE_COLOR)
    debug.points(centers[keep] + stems[keep], PATH_TUBE_COLOR)
