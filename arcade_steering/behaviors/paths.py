"""FollowPath and StayOnPath: Reynolds' path following on a shared :class:`Path`.

A :class:`~arcade_steering.Path` is shared geometry; each follower's progress along it lives in
the world's per-agent state. Agents of one batch may follow different paths: their distinct
paths are stacked into one table (:class:`~arcade_steering._path_pack.PathPack`) and every
agent is computed in one vectorised pass (:func:`~arcade_steering.behaviors._follow.follow_path`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.gather import Groups
from .._util.masks import some
from .._util.vec import perpendicular, put_rows, scale_rows, truncate
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import choice, flag, group, param
from ..component.registry import Arguments, built_in
from ..debug import PATH_COLOR, PATH_TUBE_COLOR, STEERING_COLOR, TARGET_COLOR, DebugRecorder
from ..path import Path
from ..path.pack import PathPack, pack_of, path_key
from ._follow import FollowParams, FollowState, FollowStep, follow_path
from .seek import seek_velocity, velocity_force

__all__ = ["FollowPath", "FollowSetup", "StayOnPath", "follow_setup", "store_follow"]


def check_path(name: str, value: Any) -> Path:
    """Return ``value`` if it is a :class:`Path`, else raise ``TypeError`` naming ``name``."""
    if not isinstance(value, Path):
        raise TypeError(f"{name} must be an arcade_steering.Path, got {type(value).__name__}")
    return value


def check_direction(name: str, value: Any) -> int:
    """+1 (from the first point to the last) or -1 (the other way), else raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be 1 or -1, got {type(value).__name__}")
    if value not in (1, -1):
        raise ValueError(f"{name} must be 1 or -1, got {value!r}")
    return int(value)


@built_in(lambda the: Arguments(path=the.path))
class FollowPath(SteeringComponent):
    """Follow a path: Reynolds' predictive path following with per-agent progress.

    Every step each agent predicts its position ``prediction`` seconds ahead and projects it
    onto the path, searching only a window ahead of its own progress (so progress never goes
    back, and a path that crosses itself, a figure-eight, is followed branch by branch). It
    then seeks a target ``max(min_look_ahead, speed * look_ahead)`` px further along, but only
    when the prediction leaves the tube (offset > the path's radius there), when it moves the
    wrong way or slower than a tenth of its ``max_speed``. Otherwise it only brings its speed
    up to ``max_speed`` along its own heading: the force is zero on course at full speed and
    the agent keeps its velocity, as in Reynolds' original. ``always=True`` seeks the target
    every step. A new agent starts from the point of the path nearest to it.

    Open paths end according to ``at_end``: ``"stop"`` arrives at the last point (braking for
    the distance still to go along the path), ``"loop"`` heads back to the start and follows
    again, ``"reverse"`` turns round and walks the path back (and so on, both ways). Closed
    paths loop. Being the always-on drive, FollowPath goes last in a
    :class:`~arcade_steering.PriorityBlend`.

    ``path.points`` may be reassigned every frame (a moving path): progress is a distance along
    the path, so followers keep tracking it, and they allow for its motion (how far the point
    at their progress moved since the last update): the prediction is of their motion relative
    to the path and a seek adds the path's velocity. A path that does not move is followed
    exactly as if it never could. Agents with their own FollowPath instances, even on
    different paths, share one batch and are computed together.

    Predicting and looking ahead cut a right-angled corner by up to about
    ``speed * (prediction + look_ahead) / 4`` (less with a small ``max_force``): on a narrow
    path (one tile wide, from A*) shorten both, or slow down.

    Args:
        path: The :class:`~arcade_steering.Path` to follow (may be shared by many agents).
        prediction: Seconds of motion predicted ahead of the agent.
        look_ahead: Seconds of motion the target lies beyond the predicted normal point.
        min_look_ahead: Shortest distance (px) of the target beyond the normal point. Keep it
            above 0: at 0 an agent at rest on the path has its target under its feet.
        always: Seek the target every step, not only when leaving the tube.
        at_end: ``"stop"``, ``"loop"`` or ``"reverse"``, for open paths.
        direction: 1 to walk from the first point to the last, -1 the other way.
        slowing_radius: Distance (px) before the end at which an ``at_end="stop"`` agent starts
            braking (as :class:`~arcade_steering.Arrive`).
        tolerance: Distance (px) from the end counted as arrived.

    Raises:
        TypeError: ``path`` is not a Path, or a parameter has the wrong type.
        ValueError: A value is out of range, ``at_end`` unknown or ``direction`` not 1 or -1.
    """

    path: Path = group(check_path)
    prediction: float = param(default=0.3, ge=0.0)
    look_ahead: float = param(default=0.3, ge=0.0)
    min_look_ahead: float = param(default=20.0, ge=0.0)
    always: bool = flag(default=False, kw_only=True)
    at_end: str = choice(("stop", "loop", "reverse"), default="stop", kw_only=True)
    direction: int = param(default=1, check=check_direction, kw_only=True)
    slowing_radius: float = param(default=100.0, gt=0.0, kw_only=True)
    tolerance: float = param(default=2.0, ge=0.0, kw_only=True)

    def identity_state(self, name: str) -> float | None:
        """The per-agent states ``path`` (which path the agent follows) and ``path_version``
        (its version then) hold identities of this process."""
        if name == "path":
            return path_key(self.path)
        if name == "path_version":
            return float(self.path.version)
        return None

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        setup = follow_setup(ctx, self)
        step = follow_path(
            setup.pack,
            setup.which,
            ctx.position,
            ctx.velocity,
            ctx.max_speed,
            ctx.max_force / ctx.mass,
            ctx.response_time,
            setup.state,
            setup.settings,
            ctx.dt,
            always=self.always,
            at_end=self.at_end,
            all_targets=ctx.debug is not None,
            path_velocity=setup.path_velocity,
        )
        store_follow(ctx, self, setup, step.state, step.normal)
        if ctx.debug is not None:
            record_follow(ctx.debug, ctx.params(self).path.values, ctx.position, step)
        return step.force


class FollowSetup(NamedTuple):
    """What a FollowPath leaf reads before its kernel (:func:`follow_setup`).

    Attributes:
        pack: The batch's paths.
        which: Each agent's path in ``pack`` ``(n,)``.
        key: Each agent's path identity, for the state ``path``.
        fresh: The agents new to their path ``(n,)``: their progress is NaN.
        state: The agents' :class:`FollowState`.
        settings: The agents' :class:`FollowParams`.
        path_velocity: How fast each agent's path moves where it is ``(n, 2)``, or None.
    """

    pack: PathPack
    which: np.ndarray
    key: np.ndarray | float
    fresh: np.ndarray
    state: FollowState
    settings: FollowParams
    path_velocity: np.ndarray | None


def follow_setup(ctx: SteeringContext, component: FollowPath) -> FollowSetup:
    """A FollowPath leaf's paths, per-agent state and parameters for this step (the numpy
    kernel's input, and the native step's)."""
    params = ctx.params(component)
    pack, which = path_pack(ctx, params.path)
    # Per-agent state in 1-D arrays (gathering (n, k) rows is several times slower).
    # A new agent, or one whose component now holds another path, starts afresh.
    progress = ctx.state("progress")
    key = pack.per_row(pack.keys, which)
    progress[ctx.state("path") != key] = np.nan
    fresh = np.isnan(progress)
    direction = sense = params.direction
    # Only a "reverse" agent turns round; homing happens only on open paths.
    if component.at_end == "reverse":
        sense = ctx.state("sense")
        sense = np.where(fresh | np.isnan(sense), direction, sense)
    homing = ctx.state("homing") if pack.any_open else np.zeros(len(ctx))
    path_velocity = moving_path_velocity(ctx, params.path, pack, which, progress)
    settings = ctx.node_cache(
        "follow_params",
        lambda: FollowParams(*(getattr(params, name) for name in FollowParams._fields)),
    )
    state = FollowState(progress, sense, homing)
    return FollowSetup(pack, which, key, fresh, state, settings, path_velocity)


def store_follow(
    ctx: SteeringContext,
    component: FollowPath,
    setup: FollowSetup,
    state: FollowState,
    normal: np.ndarray,
) -> None:
    """Store what a FollowPath leaf's step found: its agents' new ``state`` and ``normal``
    points ``(n, 2)``, and the paths of the agents new to theirs."""
    ctx.set_state("progress", state.progress)
    ctx.set_state("normal", normal)
    if some(setup.fresh):  # the others' paths are stored already
        ctx.set_state("path", np.full(len(ctx), setup.key))
    if component.at_end == "reverse":
        ctx.set_state("sense", state.sense)
    if setup.pack.any_open:
        ctx.set_state("homing", state.homing)


@built_in(lambda the: Arguments(path=the.path))
class StayOnPath(SteeringComponent):
    """Keep inside a path's tube without making progress along it.

    Silent (zero force) while the agent's position ``prediction`` seconds ahead is inside the
    tube, so it fits first in a :class:`~arcade_steering.PriorityBlend` (before Wander, say);
    otherwise it seeks the nearest point of the centre line to that prediction.

    Args:
        path: The :class:`~arcade_steering.Path` whose tube to stay in.
        prediction: Seconds of motion predicted ahead of the agent.

    Raises:
        TypeError: ``path`` is not a Path.
        ValueError: ``prediction`` is negative or not finite.
    """

    path: Path = group(check_path)
    prediction: float = param(default=0.3, ge=0.0)

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        pack, which = path_pack(ctx, params.path)
        predicted = ctx.position + scale_rows(ctx.velocity, params.prediction)
        near = pack.project_all(which, predicted)
        outside = near.offset > near.radius
        desired = seek_velocity(ctx.position, near.point, ctx.max_speed)
        force = velocity_force(desired, ctx.velocity, ctx.response_time)
        force[~outside] = 0.0
        if ctx.debug is not None:
            for path in params.path.values:
                draw_path(ctx.debug, path)
            ctx.debug.lines(ctx.position, predicted, TARGET_COLOR)
            ctx.debug.points(near.point[outside], STEERING_COLOR)
        return force


def path_pack(ctx: SteeringContext, groups: Groups) -> tuple[PathPack, np.ndarray]:
    """The distinct paths of the batch (a path parameter's groups) and each agent's index
    into them."""
    if len(groups) == 1:
        return pack_of([groups[0][0]]), np.zeros(len(ctx), dtype=np.intp)
    # Several paths: packed once, again only when one of them changes (or the groups do).
    packed = ctx.node_cache(("path_pack", id(groups)), dict)
    versions = tuple(path.version for path, _ in groups)
    if packed.get("versions") != versions:
        which = np.zeros(len(ctx), dtype=np.intp)
        for index, (_, rows) in enumerate(groups.pairs[1:], start=1):
            which[rows] = index
        packed.update(versions=versions, pack=pack_of([path for path, _ in groups]), which=which)
    return packed["pack"], packed["which"]


def moving_path_velocity(
    ctx: SteeringContext, groups: Groups, pack: PathPack, which: np.ndarray, progress: np.ndarray
) -> np.ndarray | None:
    """How fast each agent's path moved where the agent is on it ``(n, 2)`` px/s, over the last
    step; None when no agent's path changed, so a path that stands still is followed exactly
    as before.

    The point at the agent's progress now, minus its normal point of the last step (kept in
    the per-agent state ``normal``), over the step, at most the agent's ``max_speed``; zero
    for an agent new to its path.

    Args:
        ctx: The batch.
        groups: The path parameter's groups.
        pack: The batch's paths, as :func:`path_pack` gives them.
        which: Each agent's index into ``pack``.
        progress: The agents' progress state (NaN for agents new to their path).
    """
    versions = np.array([path.version for path, _ in groups], dtype=float).take(which)
    last = ctx.state("path_version")
    changed = last != versions
    if not some(changed):  # the versions stored are these already
        return None
    ctx.set_state("path_version", versions)
    moved = np.flatnonzero(changed & ~np.isnan(last) & ~np.isnan(progress))
    if not len(moved) or ctx.dt <= 0.0:
        return None
    before = ctx.state("normal", shape=(2,)).take(moved, axis=0)
    now = pack.point_at(which.take(moved), progress.take(moved)).point
    velocity = np.zeros((len(ctx), 2))
    # A path that jumped (reshaped, moved far) counts as moving no faster than the agent.
    put_rows(velocity, moved, truncate((now - before) / ctx.dt, ctx.max_speed.take(moved)))
    return velocity


def record_follow(
    debug: DebugRecorder, paths: list[Path], position: np.ndarray, step: FollowStep
) -> None:
    """Record the paths (each once per frame) and every follower's prediction, normal point
    and target: red (``STEERING_COLOR``) while the agent steers towards it, else grey."""
    for path in paths:
        draw_path(debug, path)
    debug.lines(position, step.predicted, TARGET_COLOR)
    debug.lines(step.predicted, step.normal, TARGET_COLOR)
    debug.points(step.predicted, TARGET_COLOR)
    debug.points(step.normal, TARGET_COLOR)
    debug.points(step.target[step.steering], STEERING_COLOR)
    debug.points(step.target[~step.steering], PATH_COLOR)


def draw_path(debug: DebugRecorder, path: Path) -> None:
    """Record ``path``'s centre line and tube outline, once per frame however many follow it."""
    if not debug.once(("path", id(path))):
        return
    debug.lines(path.starts, path.ends, PATH_COLOR)
    side = perpendicular(path.directions) * path.radii[:, None]
    debug.lines(path.starts + side, path.ends + side, PATH_TUBE_COLOR)
    debug.lines(path.starts - side, path.ends - side, PATH_TUBE_COLOR)
    # Rounded joints (and an open path's end caps): the widest adjacent segment's radius.
    radii = path.radii
    before = np.roll(radii, 1) if path.closed else np.concatenate((radii[:1], radii))
    after = radii if path.closed else np.concatenate((radii, radii[-1:]))
    debug.circles(path.points, np.maximum(before, after), PATH_TUBE_COLOR)
