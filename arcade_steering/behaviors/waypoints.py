"""FollowWaypoints: seek one waypoint after another, each agent keeping its own index."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._params import ChoiceParam, FloatParam, ObjectParam
from .._vec import lengths
from ..component import SteeringComponent
from ..context import SteeringContext
from ..debug import PATH_COLOR, TARGET_COLOR
from ..path import Path
from .seek import arrive_velocity, seek_velocity, velocity_force

__all__ = ["FollowWaypoints", "next_waypoint"]

#: The ways through a list of waypoints.
MODES = ("loop", "pingpong", "once")


def check_waypoints(name: str, value: Any) -> np.ndarray | Path:
    """A :class:`Path` as it is (its points are read every step, so it may move), or the
    points as a read-only ``(k, 2)`` float array, ``k >= 2``, finite; else raise naming
    ``name``."""
    if isinstance(value, Path):
        return value
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be (x, y) points or a Path, got {type(value).__name__}")
    try:
        points = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be (x, y) points or a Path") from None
    if points.ndim != 2 or points.shape[1] != 2 or len(points) < 2:
        raise ValueError(f"{name} must be at least 2 (x, y) points, got shape {points.shape}")
    if not np.isfinite(points).all():
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    points.flags.writeable = False
    return points


def next_waypoint(
    index: np.ndarray, sense: np.ndarray, count: int, reached: np.ndarray, mode: str
) -> tuple[np.ndarray, np.ndarray]:
    """Advance the agents that ``reached`` their waypoint.

    Args:
        index: ``(n,)`` current waypoint indices (as floats), in ``[0, count)``.
        sense: ``(n,)`` +1 or -1, the way along the list (``"pingpong"`` turns it round).
        count: Number of waypoints, ``>= 2``.
        reached: ``(n,)`` bool, whether each agent is within its arrival radius.
        mode: ``"loop"``, ``"pingpong"`` or ``"once"``.

    Returns:
        The new ``(index, sense)``.
    """
    if mode == "loop":
        return np.where(reached, (index + 1.0) % count, index), sense
    if mode == "once":
        return np.where(reached, np.minimum(index + 1.0, count - 1.0), index), sense
    turn = reached & ((index + sense < 0.0) | (index + sense > count - 1.0))
    sense = np.where(turn, -sense, sense)
    return np.where(reached, index + sense, index), sense


class FollowWaypoints(SteeringComponent):
    """Seek waypoints one after another: the next one once within ``arrive_radius``.

    Each agent keeps its own current waypoint (it starts at the first), so many agents may
    share one FollowWaypoints. Modes: ``"loop"`` goes back to the first after the last,
    ``"pingpong"`` walks the list back and forth, ``"once"`` arrives at the last waypoint and
    stops there. An arrival radius shorter than the agent's turning circle (about
    ``max_speed² / (max_force / mass)``) makes it circle round a waypoint before it counts.

    Args:
        points: ``(x, y)`` waypoints (at least two), or a :class:`~arcade_steering.Path`
            whose points are read every step (so it may move).
        arrive_radius: Distance (px) at which a waypoint counts as reached, > 0.
        mode: ``"loop"``, ``"pingpong"`` or ``"once"``.
        slowing_radius: Distance (px) from the last waypoint at which ``"once"`` starts
            braking (as :class:`~arcade_steering.Arrive`).
        tolerance: Distance (px) from the last waypoint counted as arrived in ``"once"``.

    Raises:
        TypeError: ``points`` are not points or a Path, or a parameter has the wrong type.
        ValueError: Fewer than two or non-finite points, a non-positive ``arrive_radius`` or
            an unknown ``mode``.
    """

    batch_instances = True
    points = ObjectParam(check_waypoints)
    arrive_radius = FloatParam(minimum=0.0, exclusive=True)
    mode = ChoiceParam(MODES)
    slowing_radius = FloatParam(minimum=0.0, exclusive=True)
    tolerance = FloatParam(minimum=0.0)

    def __init__(
        self,
        points: Any,
        arrive_radius: float = 24.0,
        mode: str = "loop",
        *,
        slowing_radius: float = 100.0,
        tolerance: float = 2.0,
    ) -> None:
        self.points = points
        self.arrive_radius = arrive_radius
        self.mode = mode
        self.slowing_radius = slowing_radius
        self.tolerance = tolerance

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        state = ctx.state("waypoint", shape=(2,))
        state[np.isnan(state[:, 0])] = (0.0, 1.0)
        force = np.zeros((len(ctx), 2))
        arrive_radius = ctx.param("arrive_radius")
        for value, rows in ctx.groups("points"):
            points = value.points if isinstance(value, Path) else value
            count = len(points)
            index = np.minimum(state[rows, 0], count - 1.0)
            position = ctx.position[rows]
            reached = lengths(points[index.astype(np.intp)] - position) <= arrive_radius[rows]
            index, sense = next_waypoint(index, state[rows, 1], count, reached, self.mode)
            state[rows, 0], state[rows, 1] = index, sense
            goal = points[index.astype(np.intp)]
            desired = seek_velocity(position, goal, ctx.max_speed[rows])
            if self.mode == "once":
                last = index == count - 1.0
                desired[last] = arrive_velocity(
                    position[last],
                    goal[last],
                    ctx.max_speed[rows][last],
                    (ctx.max_force / ctx.mass)[rows][last],
                    ctx.response_time[rows][last],
                    ctx.param("slowing_radius")[rows][last],
                    ctx.param("tolerance")[rows][last],
                )
            force[rows] = velocity_force(desired, ctx.velocity[rows], ctx.response_time[rows])
            if ctx.debug is not None:
                if ctx.debug.once(("waypoints", id(value))):
                    ctx.debug.circles(points, 4.0, PATH_COLOR)
                ctx.debug.lines(position, goal, TARGET_COLOR)
        ctx.set_state("waypoint", state)
        return force
