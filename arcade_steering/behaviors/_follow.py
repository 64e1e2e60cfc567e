"""The path-following kernel: one vectorised step for agents on any number of paths.

Pure numpy over ``(n,)`` and ``(n, 2)`` arrays plus the paths' geometry stacked in a
:class:`~arcade_steering._path_pack.PathPack`; no arcade, no pymunk, no world.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._util.masks import every, some
from .._util.vec import as_complex, as_points, lengths, normalize, put_rows, scale_rows, truncate
from ..path.pack import PackPoint, PathPack
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
    length = pack.per_row(pack.length, which)  # a scalar when all follow one path
    closed = pack.per_row(pack.closed, which)
    # Predict: where each agent will be, moving relative to the path.
    speed = lengths(velocity)
    relative = velocity if path_velocity is None else velocity - path_velocity
    predicted = position + scale_rows(relative, params.prediction)
    ahead = np.maximum(params.min_look_ahead, speed * params.look_ahead)
    # Project: the prediction onto the path, searched only a window ahead of the progress.
    progress, sense, homing = _start_fresh(pack, which, position, state)
    forward = sense > 0.0
    near = _project_ahead(
        pack, which, predicted, progress, forward, length, closed, max_speed, params, dt
    )
    progress, normal = near.distance, near.point
    # Ends: an open path's end turns an agent round or sends it home.
    ends = _at_ends(pack, which, position, ahead, length, closed, near, sense, homing, at_end)
    sense, homing, going_home = ends.sense, ends.homing, ends.going_home
    all_forward = every(sense > 0.0)
    # Decide: who seeks a target and who only corrects its speed inside the tube.
    slow, steering = _who_steers(near, relative, sense, all_forward, speed, max_speed)
    if going_home is not None:
        steering |= going_home
    steering |= always
    open_path = near_end = None
    if at_end == "stop" and pack.any_open:
        open_path, near_end = _braking_zone(
            pack, which, position, forward, max_speed, max_acceleration, response_time, params
        )
    # Keep going: inside the tube only the speed is corrected, along the agent's own heading:
    # zero once at full speed (Reynolds' "keep going"), yet an agent never crawls along. Such
    # an agent is not slow, so its speed is not zero. As complex ``x + iy`` until the force.
    desired = as_complex(velocity) * (max_speed / np.where(slow, 1.0, speed))
    new_state = FollowState(progress, sense, homing)
    # Choose: targets (and their seeks) only for the agents that may steer; on course, most
    # do not.
    steerers = ((steering | near_end) if near_end is not None else steering).nonzero()[0]
    chosen = None if all_targets or len(steerers) == len(position) else steerers
    if chosen is not None and not len(chosen):  # nobody steers: no target, no seek
        force = velocity_force(as_points(desired), velocity, response_time)
        return FollowStep(force, new_state, predicted, normal, normal, steering)
    pick = _Rows(chosen)
    # Aim: the target a look-ahead further along the path (the normal point going home).
    aim = pack.point_at(
        pick(which), pick(progress) + pick(sense * ahead if not all_forward else ahead)
    )
    target = pick.spread(normal, aim.point)
    if going_home is not None:
        target[going_home] = normal[going_home]
    # Seek: the target, moving with the path.
    wanted = seek_velocity(pick(position), pick(target), pick(max_speed))
    if path_velocity is not None:  # seek the target as it moves with the path
        wanted = truncate(wanted + pick(path_velocity), pick(max_speed))
    steering_chosen = pick(steering)
    if open_path is not None:
        # Brake: arrive at the end, braking for the distance left along the path.
        limits = (max_speed, max_acceleration, response_time)
        steering_chosen = _brake_for_end(
            pick, aim, target, wanted, steering_chosen, open_path, ends, position, limits, params
        )
        if chosen is None:
            steering = steering_chosen
        else:
            steering[chosen] = steering_chosen
    # Blend: the seek for the agents that steer, the speed correction for the others.
    wanted_c = as_complex(wanted)
    if chosen is None:
        desired = np.where(steering_chosen, wanted_c, desired)
    else:
        desired[chosen] = np.where(steering_chosen, wanted_c, desired.take(chosen))
    force = velocity_force(as_points(desired), velocity, response_time)
    return FollowStep(force, new_state, predicted, normal, target, steering)


class _Ends(NamedTuple):
    """What the ends of open paths made of the agents, ``(n,)`` arrays."""

    end: np.ndarray  # the end each agent walks to, px along its path
    sense: np.ndarray
    homing: np.ndarray
    going_home: np.ndarray | None  # who heads back to the start, None for nobody


class _Rows(NamedTuple):
    """Gathers the rows of the agents ``chosen`` to steer (None: every agent)."""

    chosen: np.ndarray | None

    def __call__(self, values: np.ndarray) -> np.ndarray:
        """The chosen agents' rows of ``values``."""
        return values if self.chosen is None else values.take(self.chosen, axis=0)

    def spread(self, base: np.ndarray, values: np.ndarray) -> np.ndarray:
        """``base`` ``(n, 2)`` with the chosen agents' rows set to ``values`` (a copy), or
        ``values`` itself when every agent is chosen."""
        if self.chosen is None:
            return values
        out = base.copy()
        put_rows(out, self.chosen, values)
        return out


def _start_fresh(
    pack: PathPack, which: np.ndarray, position: np.ndarray, state: FollowState
) -> FollowState:
    """``state`` with each new agent (NaN progress) started from its nearest point, searching
    the whole path."""
    progress, sense, homing = state
    fresh = np.isnan(progress)
    if some(fresh):
        progress = progress.copy()
        progress[fresh] = pack.project_all(which[fresh], position[fresh]).distance
        homing = np.where(fresh, 0.0, homing)
    return FollowState(progress, sense, homing)


def _project_ahead(
    pack: PathPack,
    which: np.ndarray,
    predicted: np.ndarray,
    progress: np.ndarray,
    forward: np.ndarray,
    length: np.ndarray,
    closed: np.ndarray,
    max_speed: np.ndarray,
    params: FollowParams,
    dt: float,
) -> PackPoint:
    """The normal points: ``predicted`` projected onto the paths within a window from
    ``progress`` on, the way each agent walks (back for those not ``forward``)."""
    # Far enough for a step's motion plus the prediction of an agent that just started; on a
    # loop, short of the far side (a window as long as the loop would search it all).
    reach = 1.5 * max_speed * (params.prediction + 2.0 * dt) + 1.0
    if not pack.any_open:
        np.minimum(reach, 0.5 * length, out=reach)
    elif pack.any_closed:
        reach = np.where(closed, np.minimum(reach, 0.5 * length), reach)
    if every(forward):
        lo, hi = progress, progress + reach
    else:
        lo = np.where(forward, progress, progress - reach)
        hi = np.where(forward, progress + reach, progress)
    return pack.project(which, predicted, lo, hi)


def _at_ends(
    pack: PathPack,
    which: np.ndarray,
    position: np.ndarray,
    ahead: np.ndarray,
    length: np.ndarray,
    closed: np.ndarray,
    near: PackPoint,
    sense: np.ndarray,
    homing: np.ndarray,
    at_end: str,
) -> _Ends:
    """Turn round (``"reverse"``) or send home (``"loop"``) the agents at an open path's end;
    an agent going home has its normal point (in ``near``, updated in place) at the start."""
    forward = sense > 0.0
    # The end each agent walks to (open paths only: a loop has none, nor any way home).
    end = np.where(forward, length, 0.0) if pack.any_open else length
    if not pack.any_open:
        return _Ends(end, sense, homing, None)
    progress = near.distance
    if at_end != "stop":
        done = ~closed & ((end - progress) * sense <= _END_EPS * (1.0 + length))
        if at_end == "reverse":
            sense = np.where(done, -sense, sense)
            end = np.where(done, length - end, end)
        else:  # loop: head back to the start, then follow again from there
            homing = np.where(done, 1.0, homing)
    going_home = homing > 0.0
    if not some(going_home):
        return _Ends(end, sense, homing, None)
    homing = np.array(homing, dtype=float)
    start = (length - end)[going_home]
    home = pack.point_at(which[going_home], start)
    progress[going_home] = start
    near.point[going_home] = home.point
    arrived = lengths(position[going_home] - home.point) <= np.maximum(
        home.radius, ahead[going_home]
    )
    homing[going_home] = np.where(arrived, 0.0, 1.0)
    return _Ends(end, sense, homing, going_home)


def _who_steers(
    near: PackPoint,
    relative: np.ndarray,
    sense: np.ndarray,
    all_forward: bool,
    speed: np.ndarray,
    max_speed: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """``(slow, steering)``: the agents too slow, and those that seek their target because
    the prediction left the tube, they go the wrong way or they are slow."""
    along = relative * near.tangent
    along = along[:, 0] + along[:, 1]
    if not all_forward:
        along *= sense
    slow = speed < SLOW_FRACTION * max_speed
    steering = near.offset > near.radius
    steering |= along < 0.0
    steering |= slow
    return slow, steering


def _braking_zone(
    pack: PathPack,
    which: np.ndarray,
    position: np.ndarray,
    forward: np.ndarray,
    max_speed: np.ndarray,
    max_acceleration: np.ndarray,
    response_time: np.ndarray,
    params: FollowParams,
) -> tuple[np.ndarray, np.ndarray]:
    """``(open_path, near_end)``: the agents on open paths, and those that may brake for the
    end: where Arrive at the end point itself would ask for less than full speed (the way
    along the path is never shorter than straight)."""
    n = len(position)
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
    return open_path, open_path & (lengths(straight) < max_speed * (1.0 - 1e-9))


def _brake_for_end(
    pick: _Rows,
    aim: PackPoint,
    target: np.ndarray,
    wanted: np.ndarray,
    steering: np.ndarray,
    open_path: np.ndarray,
    ends: _Ends,
    position: np.ndarray,
    limits: tuple[np.ndarray, np.ndarray, np.ndarray],
    params: FollowParams,
) -> np.ndarray:
    """Replace the chosen agents' ``wanted`` velocities (in place) on open paths by an arrival
    at the end, braking for the distance left along the path; returns the chosen agents'
    steering with those braking added. ``limits``: max speed, acceleration, response time."""
    max_speed, max_acceleration, response_time = limits
    m = pick(open_path).nonzero()[0]
    p, t = pick(position).take(m, axis=0), pick(target).take(m, axis=0)
    remaining = lengths(t - p) + np.abs(pick(ends.end).take(m) - aim.distance.take(m))
    top = pick(max_speed).take(m)
    arrive = arrive_velocity(
        p,
        p + scale_rows(normalize(t - p), remaining),
        top,
        pick(max_acceleration).take(m),
        pick(response_time).take(m),
        pick(params.slowing_radius).take(m),
        pick(params.tolerance).take(m),
    )
    put_rows(wanted, m, arrive)
    steering = steering.copy()
    steering[m] |= lengths(arrive) < top * (1.0 - 1e-9)
    return steering
