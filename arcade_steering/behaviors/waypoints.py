"""FollowWaypoints: seek one waypoint after another, each agent keeping its own index."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._util.masks import some
from .._util.validate import check_array
from .._util.vec import lengths
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import choice, group, param
from ..component.registry import Arguments, built_in
from ..debug import PATH_COLOR, TARGET_COLOR
from ..path import Path
from .seek import arrive_velocity, seek_velocity, velocity_force

__all__ = [
    "FollowWaypoints",
    "WaypointLists",
    "advance_reached",
    "final_run",
    "next_waypoint",
    "waypoint_lists",
]

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


def advance_reached(
    points: np.ndarray,
    first: np.ndarray,
    count: np.ndarray,
    index: np.ndarray,
    sense: np.ndarray,
    position: np.ndarray,
    arrive_radius: np.ndarray,
    mode: str,
) -> tuple[np.ndarray, np.ndarray]:
    """Advance each agent past every waypoint in a row that it is already within reach of.

    A waypoint that is reached is passed; so is the next one if it is within reach too (a
    repeated point, or points closer together than the arrival radius), so an agent never
    seeks, for a step, a point it is standing on. Each pass is vectorised over the agents
    still advancing; there are at most ``max(count)`` passes (one lap: when every point of a
    list is within reach any of them will do).

    Args:
        points: ``(m, 2)`` every list's waypoints, one run per list, px.
        first: ``(n,)`` int, where each agent's list starts in ``points``.
        count: ``(n,)`` number of waypoints in each agent's list (floats, ``>= 2``).
        index: ``(n,)`` current waypoint indices (floats) in ``[0, count)``.
        sense: ``(n,)`` +1 or -1 (see :func:`next_waypoint`).
        position: ``(n, 2)`` agent positions, px.
        arrive_radius: ``(n,)`` px.
        mode: ``"loop"``, ``"pingpong"`` or ``"once"``.

    Returns:
        The new ``(index, sense)``, new arrays.
    """
    index, sense = index.copy(), sense.copy()
    rows = np.arange(len(index))
    for _ in range(int(count.max(initial=0.0))):
        at = index[rows]
        goal = points[first[rows] + at.astype(np.intp)]
        reached = lengths(goal - position[rows]) <= arrive_radius[rows]
        if not some(reached):
            break
        rows, at = rows[reached], at[reached]
        new, turned = next_waypoint(at, sense[rows], count[rows], np.ones(len(rows), bool), mode)
        index[rows], sense[rows] = new, turned
        rows = rows[new != at]  # "once" stays on its last point
        if rows.size == 0:
            break
    return index, sense


class WaypointLists(NamedTuple):
    """A batch's waypoint lists in one array, each agent indexing its own run of it.

    Attributes:
        points: ``(m, 2)`` every distinct list's points, one run per list, px.
        starts: ``(p,)`` int, where each list starts in ``points``.
        which: ``(n,)`` int, each agent's list.
        counts: ``(n,)`` the number of points of each agent's list (floats).
        first: ``(n,)`` int, where each agent's list starts.
        runs: The ``p`` lists' points as they were read.
    """

    points: np.ndarray
    starts: np.ndarray
    which: np.ndarray
    counts: np.ndarray
    first: np.ndarray
    runs: list[np.ndarray]


def waypoint_lists(groups: Any, n: int) -> WaypointLists:
    """The ``points`` of ``n`` agents (the gathered groups: point arrays, or Paths read now)
    as one :class:`WaypointLists`."""
    runs = [value.points if isinstance(value, Path) else value for value, _ in groups]
    counts = np.array([len(points) for points in runs], dtype=float)
    starts = np.concatenate(([0], np.cumsum(counts[:-1]))).astype(np.intp)
    points = runs[0] if len(runs) == 1 else np.concatenate(runs)
    which = np.zeros(n, dtype=np.intp)
    for number, (_, rows) in enumerate(groups[1:], start=1):
        which[rows] = number
    return WaypointLists(points, starts, which, counts[which], starts[which], runs)


def final_run(points: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Index, per list, of the first of the repeats its last point ends with.

    Args:
        points: ``(m, 2)`` the lists' waypoints, one run per list.
        starts: ``(p,)`` int, where each list starts (the lists fill ``points``, each ``>= 2``).

    Returns:
        ``(p,)`` float indices within each list: ``k - 1`` for a list of ``k`` points whose
        last point is not repeated.
    """
    ends = np.append(starts[1:], len(points)) - 1
    owner = np.repeat(np.arange(len(starts)), np.diff(np.append(starts, len(points))))
    local = np.arange(len(points)) - starts[owner]
    differs = (points != points[ends[owner]]).any(axis=1)
    return np.maximum.reduceat(np.where(differs, local, -1), starts) + 1.0


@built_in(lambda the: Arguments(points=[(0, 0), (80, 0), (80, 80)]))
class FollowWaypoints(SteeringComponent):
    """Seek waypoints one after another: the next one once within ``arrive_radius``.

    Waypoints already within reach are passed in the same step, so repeated points (and
    points closer together than ``arrive_radius``) never hold an agent up.

    Each agent keeps its own current waypoint (it starts at the first), so many agents may
    share one FollowWaypoints; agents with their own instances and lists share a batch too
    (but not agents with different modes). Modes: ``"loop"`` goes back to the first after
    the last, ``"pingpong"`` walks the list back and forth, ``"once"`` arrives at the last
    waypoint and stops there. An arrival radius much shorter than the agent's turning circle
    (about ``max_speed² / (max_force / mass)``) can make it circle a waypoint before it counts.

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

    points: Any = group(check_waypoints)
    arrive_radius: float = param(default=24.0, gt=0.0)
    mode: str = choice(MODES, default="loop")
    slowing_radius: float = param(default=100.0, gt=0.0, kw_only=True)
    tolerance: float = param(default=2.0, ge=0.0, kw_only=True)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        lists = waypoint_lists(params.points, len(ctx))
        points, count, first = lists.points, lists.counts, lists.first
        state = ctx.state("waypoint", shape=(2,))
        state[np.isnan(state[:, 0])] = (0.0, 1.0)
        index = np.minimum(state[:, 0], count - 1.0)  # a Path may have lost points
        index, sense = advance_reached(
            points,
            first,
            count,
            index,
            state[:, 1],
            ctx.position,
            params.arrive_radius,
            self.mode,
        )
        ctx.set_state("waypoint", np.column_stack((index, sense)))
        goal = points[first + index.astype(np.intp)]
        desired = seek_velocity(ctx.position, goal, ctx.max_speed)
        if self.mode == "once":
            # Brake for the last point from the first of its repeats on, as if it were one.
            last = index >= final_run(points, lists.starts)[lists.which]
            desired[last] = arrive_velocity(
                ctx.position[last],
                goal[last],
                ctx.max_speed[last],
                (ctx.max_force / ctx.mass)[last],
                ctx.response_time[last],
                params.slowing_radius[last],
                params.tolerance[last],
            )
        if ctx.debug is not None:
            for value, own in zip(params.points, lists.runs, strict=True):
                if ctx.debug.once(("waypoints", id(value[0]))):
                    ctx.debug.circles(own, np.full(len(own), 4.0), PATH_COLOR)
            ctx.debug.lines(ctx.position, goal, TARGET_COLOR)
        return velocity_force(desired, ctx.velocity, ctx.response_time)
