"""FollowWaypoints: seek one waypoint after another, each agent keeping its own index."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._params import ChoiceParam, FloatParam, ObjectParam
from .._validate import check_array
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
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be (x, y) points or a Path, got {type(value).__name__}")
    points = check_array(name, value, ndim=2)
    if points.shape[1] != 2 or len(points) < 2:
        raise ValueError(f"{name} must be at least 2 (x, y) points, got shape {points.shape}")
    points.flags.writeable = False
    return points


def next_waypoint(
    index: np.ndarray,
    sense: np.ndarray,
    count: float | np.ndarray,
    reached: np.ndarray,
    mode: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Advance the agents that ``reached`` their waypoint.

    Args:
        index: ``(n,)`` current waypoint indices (as floats), in ``[0, count)``.
        sense: ``(n,)`` +1 or -1, the way along the list (``"pingpong"`` turns it round).
        count: Number of waypoints, ``>= 2``: a scalar or ``(n,)``.
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
    share one FollowWaypoints; agents with their own instances and lists share a batch too
    (but not agents with different modes). Modes: ``"loop"`` goes back to the first after
    the last, ``"pingpong"`` walks the list back and forth, ``"once"`` arrives at the last
    waypoint and stops there. An arrival radius shorter than the agent's turning circle (about
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
        # Every distinct list's points in one array; each agent indexes its own run of it.
        groups = ctx.groups("points")
        lists = [value.points if isinstance(value, Path) else value for value, _ in groups]
        counts = np.array([len(points) for points in lists], dtype=float)
        starts = np.concatenate(([0], np.cumsum(counts[:-1]))).astype(np.intp)
        points = lists[0] if len(lists) == 1 else np.concatenate(lists)
        which = np.zeros(len(ctx), dtype=np.intp)
        for group, (_, rows) in enumerate(groups[1:], start=1):
            which[rows] = group
        count, first = counts[which], starts[which]

        state = ctx.state("waypoint", shape=(2,))
        state[np.isnan(state[:, 0])] = (0.0, 1.0)
        index = np.minimum(state[:, 0], count - 1.0)  # a Path may have lost points
        reached = lengths(points[first + index.astype(np.intp)] - ctx.position)
        reached = reached <= ctx.param("arrive_radius")
        index, sense = next_waypoint(index, state[:, 1], count, reached, self.mode)
        ctx.set_state("waypoint", np.column_stack((index, sense)))
        goal = points[first + index.astype(np.intp)]
        desired = seek_velocity(ctx.position, goal, ctx.max_speed)
        if self.mode == "once":
            last = index == count - 1.0
            desired[last] = arrive_velocity(
                ctx.position[last],
                goal[last],
                ctx.max_speed[last],
                (ctx.max_force / ctx.mass)[last],
                ctx.response_time[last],
                ctx.param("slowing_radius")[last],
                ctx.param("tolerance")[last],
            )
        if ctx.debug is not None:
            for value, own in zip(groups, lists, strict=True):
                if ctx.debug.once(("waypoints", id(value[0]))):
                    ctx.debug.circles(own, np.full(len(own), 4.0), PATH_COLOR)
            ctx.debug.lines(ctx.position, goal, TARGET_COLOR)
        return velocity_force(desired, ctx.velocity, ctx.response_time)
