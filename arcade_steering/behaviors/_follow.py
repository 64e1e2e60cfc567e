"""The path-following kernel: one vectorised step for agents on any number of paths.

Pure numpy over ``(n,)`` and ``(n, 2)`` arrays plus the paths' geometry stacked in a
:class:`~arcade_steering._path_pack.PathPack`; no arcade, no pymunk, no world.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._util.masks import every, some
from .._util.vec import as_complex, as_points, lengths, normalize, put_rows, scale_rows, truncate
from ..path.pack import PathPack
from .seek import arrive_velocity, seek_velocity, velocity_force

#: Below this share of its ``max_speed`` an agent is steered even inside the tube, so an agent
#: at rest on the path gets going (Reynolds' zero force would leave it standing).
SLOW_FRACTION = 0.1

#: Along-path distance (px, relative to the path length) that counts as "at the end".
_END_EPS = 1e-6


class FollowState(NamedTuple):
    """Per-agent state of path following, ``(n,)`` arrays.

    Attributes:
        progress: Distance along the path (px) of the last normal point; NaN for a new agent.
        sense: +1 walking towards the end, -1 towards the start.
        homing: 1 while an ``at_end="loop"`` agent of an open path heads back to its start.
    """

    progress: np.ndarray
    sense: np.ndarray
    homing: np.ndarray


class FollowParams(NamedTuple):
    """Per-agent parameters of path following, ``(n,)`` arrays.

    Attributes:
        prediction: Seconds of motion predicted.
        look_ahead: Seconds of motion the target lies ahead of the normal point.
        min_look_ahead: The shortest look-ahead, px.
        slowing_radius: For the arrival at the end of an open path, px.
        tolerance: The arrival tolerance at the end of an open path, px.
    """

    prediction: np.ndarray
    look_ahead: np.ndarray
    min_look_ahead: np.ndarray
    slowing_radius: np.ndarray
    tolerance: np.ndarray


class FollowStep(NamedTuple):
    """What :func:`follow_path` computed, ``(n, 2)`` or ``(n,)`` arrays.

    Attributes:
        force: Steering forces, px/s² times mass.
        state: The agents' new :class:`FollowState`.
        predicted: Predicted positions, px.
        normal: Normal points: where the predictions project onto the path, px.
        target: Points seeked, a look-ahead further along the path, px (see ``all_targets``).
        steering: Whether each agent steers towards its target this step.
    """

    force: np.ndarray
    state: FollowState
    predicted: np.ndarray
    normal: np.ndarray
    target: np.ndarray
    steering: np.ndarray


def follow_path(
    pack: PathPack,
    which: np.ndarray,
    position: np.ndarray,
    velocity: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    response_time: np.ndarray,
    state: FollowState,
    params: FollowParams,
    dt: float,
    *,
    always: bool,
    at_end: str,
    all_targets: bool = False,
    path_velocity: np.ndarray | None = None,
) -> FollowStep:
    """Reynolds' predictive path following for ``n`` agents, agent ``i`` on path ``which[i]``.

    Each agent predicts where it will be in ``prediction`` seconds and projects that onto its
    path, searching only ``[progress, progress + reach]`` (``reach`` covers a step's motion and
    the prediction; backwards for ``sense`` -1): progress never goes back, and a crossing or a
    U-turn never pulls it onto another branch. The target lies ``max(min_look_ahead, speed *
    look_ahead)`` px further along. The agent seeks it when the prediction leaves the tube, when
    it goes the wrong way or slower than :data:`SLOW_FRACTION` of its top speed, or when it
    brakes for the end (``at_end="stop"``); otherwise only its speed is corrected, along its
    own heading, which is zero once at full speed (Reynolds' "no steering in the tube").

    Args:
        pack: The paths.
        which: ``(n,)`` int, each agent's path in ``pack``.
        position: ``(n, 2)`` px.
        velocity: ``(n, 2)`` px/s.
        max_speed: ``(n,)`` px/s.
        max_acceleration: ``(n,)`` px/s² (max force over mass), for braking at the end.
        response_time: ``(n,)`` s.
        state: The agents' :class:`FollowState` (``progress`` NaN for new agents).
        params: The agents' :class:`FollowParams`.
        dt: The step, s.
        always: Seek the target even inside the tube.
        at_end: ``"stop"``, ``"loop"`` or ``"reverse"``: what an open path's end does.
        all_targets: Compute every agent's target (for drawing); otherwise only the agents
            that steer get theirs, the others' ``target`` is their normal point.
        path_velocity: How fast the path moves where each agent is on it ``(n, 2)`` px/s, or
            None for paths that stand still. On a moving path the agent predicts its motion
            relative to the path, and a seek adds the path's velocity: it keeps up with the
            path instead of noticing late that the path went away.

    Returns:
        A :class:`FollowStep`.
    """
    n = len(position)
    length = pack.per_row(pack.length, which)  # a scalar when all follow one path
    closed = pack.per_row(pack.closed, which)
    progress, sense, homing = state
    speed = lengths(velocity)
    # Motion relative to the path (the velocity itself on a path that stands still).
    relative = velocity if path_velocity is None else velocity - path_velocity
    predicted = position + scale_rows(relative, params.prediction)
    ahead = np.maximum(params.min_look_ahead, speed * params.look_ahead)

    fresh = np.isnan(progress)
    if some(fresh):  # a new agent starts from its nearest point, searching the whole path
        progress = progress.copy()
        progress[fresh] = pack.project_all(which[fresh], position[fresh]).distance
        homing = np.where(fresh, 0.0, homing)

    # Far enough for a step's motion plus the prediction of an agent that just started; on a
    # loop, short of the far side (a window as long as the loop would search it all).
    reach = 1.5 * max_speed * (params.prediction + 2.0 * dt) + 1.0
    if not pack.any_open:
        np.minimum(reach, 0.5 * length, out=reach)
    elif pack.any_closed:
        reach = np.where(closed, np.minimum(reach, 0.5 * length), reach)
    forward = sense > 0.0
    all_forward = every(forward)
    if all_forward:
        lo, hi = progress, progress + reach
    else:
        lo = np.where(forward, progress, progress - reach)
        hi = np.where(forward, progress + reach, progress)
    near = pack.project(which, predicted, lo, hi)
    progress = near.distance
    normal, tangent = near.point, near.tangent

    # The end each agent walks to (open paths only: a loop has none, nor any way home).
    end = np.where(forward, length, 0.0) if pack.any_open else length
    going_home = None
    if pack.any_open:
        if at_end != "stop":
            done = ~closed & ((end - progress) * sense <= _END_EPS * (1.0 + length))
            if at_end == "reverse":
                sense = np.where(done, -sense, sense)
                end = np.where(done, length - end, end)
                all_forward = every(sense > 0.0)
            else:  # loop: head back to the start, then follow again from there
                homing = np.where(done, 1.0, homing)
        going_home = homing > 0.0
        if some(going_home):
            homing = np.array(homing, dtype=float)
            start = (length - end)[going_home]
            home = pack.point_at(which[going_home], start)
            progress[going_home] = start
            normal[going_home] = home.point
            arrived = lengths(position[going_home] - home.point) <= np.maximum(
                home.radius, ahead[going_home]
            )
            homing[going_home] = np.where(arrived, 0.0, 1.0)
        else:
            going_home = None

    along = relative * tangent
    along = along[:, 0] + along[:, 1]
    if not all_forward:
        along *= sense
    slow = speed < SLOW_FRACTION * max_speed
    steering = near.offset > near.radius
    steering |= along < 0.0
    steering |= slow
    if going_home is not None:
        steering |= going_home
    if always:
        steering[:] = True
    stop = at_end == "stop" and pack.any_open
    if stop:
        # Braking for the end may start only where Arrive at the end point itself would ask
        # for less than full speed: the way along the path is never shorter than straight.
        open_path = ~pack.closed[which] if pack.any_closed else np.ones(n, dtype=bool)
        end_point = pack.ends[which, forward.astype(np.intp)]
        straight = arrive_velocity(
            position,
            end_point,
            max_speed,
            max_acceleration,
            response_time,
            params.slowing_radius,
            params.tolerance,
        )
        near_end = open_path & (lengths(straight) < max_speed * (1.0 - 1e-9))
    # Inside the tube only the speed is corrected, along the agent's own heading: zero once at
    # full speed (Reynolds' "keep going"), yet an agent never crawls along. Such an agent is
    # not slow, so its speed is not zero. As complex numbers ``x + iy`` until the force.
    velocity_c = as_complex(velocity)
    desired = velocity_c * (max_speed / np.where(slow, 1.0, speed))
    new_state = FollowState(progress, sense, homing)
    # Targets (and their seeks) only for the agents that may steer: on course, most do not.
    # ``rows(a)`` gathers those agents' rows of ``a``.
    steerers = ((steering | near_end) if stop else steering).nonzero()[0]
    chosen = None if all_targets or len(steerers) == n else steerers
    if chosen is not None and not len(chosen):  # nobody steers: no target, no seek
        force = velocity_force(as_points(desired), velocity, response_time)
        return FollowStep(force, new_state, predicted, normal, normal, steering)

    def rows(values: np.ndarray) -> np.ndarray:
        return values if chosen is None else values.take(chosen, axis=0)

    aim = pack.point_at(
        rows(which), rows(progress) + rows(sense * ahead if not all_forward else ahead)
    )
    if chosen is None:
        target = aim.point
    else:
        target = normal.copy()
        put_rows(target, chosen, aim.point)
    if going_home is not None:
        target[going_home] = normal[going_home]
    position_chosen, target_chosen, max_speed_chosen = rows(position), rows(target), rows(max_speed)
    wanted = seek_velocity(position_chosen, target_chosen, max_speed_chosen)
    if path_velocity is not None:  # seek the target as it moves with the path
        wanted = truncate(wanted + rows(path_velocity), max_speed_chosen)
    steering_chosen = rows(steering)
    if stop:  # arrive at the end, braking for the distance left along the path
        m = rows(open_path).nonzero()[0]
        p, t = position_chosen.take(m, axis=0), target_chosen.take(m, axis=0)
        remaining = lengths(t - p) + np.abs(rows(end).take(m) - aim.distance.take(m))
        top = max_speed_chosen.take(m)
        arrive = arrive_velocity(
            p,
            p + scale_rows(normalize(t - p), remaining),
            top,
            rows(max_acceleration).take(m),
            rows(response_time).take(m),
            rows(params.slowing_radius).take(m),
            rows(params.tolerance).take(m),
        )
        put_rows(wanted, m, arrive)
        steering_chosen = steering_chosen.copy()
        steering_chosen[m] |= lengths(arrive) < top * (1.0 - 1e-9)
        if chosen is None:
            steering = steering_chosen
        else:
            steering[chosen] = steering_chosen
    wanted_c = as_complex(wanted)
    if chosen is None:
        desired = np.where(steering_chosen, wanted_c, desired)
    else:
        desired[chosen] = np.where(steering_chosen, wanted_c, desired.take(chosen))
    force = velocity_force(as_points(desired), velocity, response_time)
    return FollowStep(force, new_state, predicted, normal, target, steering)
