"""Jump, for side-view games: plan a jump across a gap or onto a ledge, run up to it, take off.

After gdx-ai's ``Jump``: given a take-off point, a landing point, gravity and the agent's jump
speed, :func:`plan_jump` works out the take-off velocity and the airtime, or why the jump
cannot be made. :class:`Jump` steers the run-up along x only, at the horizontal speed the
plan needs, so gravity and the ground (arcade's ``PymunkPhysicsEngine``) keep the vertical.

The jump itself is the game's, because the world steers velocities and does not know where
the ground is: when :meth:`Jump.at_takeoff` says so and the engine's ``is_on_ground`` agrees,
the game sets the body's velocity to ``jump.plan.velocity``. A jump that cannot be made is
not attempted: the agent stands still and ``jump.plan.reason`` says why.

The plan always takes off at the full ``jump_speed`` (a platformer's jump is one impulse):
the highest arc lands latest, so it needs the least horizontal speed, and a jump it cannot
make cannot be made at any lower vertical speed either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._util.validate import check_point, check_positive
from ..component.base import SteeringComponent
from ..component.context import SteeringContext
from ..component.params import param, point
from ..component.registry import Arguments, built_in
from .seek import arrive_velocity, velocity_force

__all__ = ["Jump", "JumpPlan", "UnreachableJump", "plan_jump", "takeoff_velocities"]


@dataclass(frozen=True)
class JumpPlan:
    """A jump that can be made.

    Attributes:
        velocity: Take-off velocity ``(vx, vy)``, px/s, y up (arcade's axes).
        airtime: Seconds from take-off to landing.
        flight_speed: Fastest speed in flight (at take-off or landing), px/s: an agent
            steered through the engine needs a ``max_speed`` at least this.
    """

    velocity: tuple[float, float]
    airtime: float
    flight_speed: float


@dataclass(frozen=True)
class UnreachableJump:
    """A jump that cannot be made; false in a boolean test.

    Attributes:
        reason: Why, with the figures: too high for the jump speed, or too far for the run
            speed.
    """

    reason: str

    def __bool__(self) -> bool:
        return False


def takeoff_velocities(
    offset: np.ndarray, gravity: np.ndarray, jump_speed: np.ndarray, run_speed: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Take-off velocities for jumps of ``offset`` (landing minus take-off), y up.

    The agent leaves at ``jump_speed`` upwards and lands on the way down, after
    ``T = (jump_speed + sqrt(jump_speed² - 2 g dy)) / g``, at the horizontal speed ``dx / T``.

    Args:
        offset: Landing minus take-off points ``(n, 2)``, px.
        gravity: Downward acceleration ``(n,)``, px/s², > 0.
        jump_speed: Vertical take-off speed ``(n,)``, px/s, > 0.
        run_speed: Fastest horizontal speed ``(n,)``, px/s, > 0.

    Returns:
        Velocities ``(n, 2)``, airtimes ``(n,)`` and which jumps can be made ``(n,)``: high
        enough (``jump_speed² >= 2 g dy``) and no faster than ``run_speed`` along x.
    """
    discriminant = jump_speed**2 - 2.0 * gravity * offset[:, 1]
    airtime = (jump_speed + np.sqrt(np.maximum(discriminant, 0.0))) / gravity
    across = offset[:, 0] / airtime
    reachable = (discriminant >= 0.0) & (np.abs(across) <= run_speed)
    return np.stack([across, jump_speed], axis=1), airtime, reachable


def plan_jump(
    takeoff: tuple[float, float],
    landing: tuple[float, float],
    gravity: float,
    jump_speed: float,
    run_speed: float,
) -> JumpPlan | UnreachableJump:
    """Plan a jump from ``takeoff`` to ``landing`` (points of the agent's centre, y up).

    Args:
        takeoff: Where the agent leaves the ground, px.
        landing: Where it should come down, px.
        gravity: Downward acceleration, px/s² (900 for ``PymunkPhysicsEngine(gravity=(0, -900))``).
        jump_speed: The vertical speed the agent's jump gives it, px/s.
        run_speed: The fastest the agent runs, px/s.

    Returns:
        A :class:`JumpPlan`, or an :class:`UnreachableJump` saying why not.

    Raises:
        TypeError, ValueError: A point is not a pair of finite numbers, or a number is not
            finite and positive; the message names the parameter.

    Example:
        >>> plan = plan_jump((0, 0), (150, 0), gravity=900, jump_speed=450, run_speed=200)
        >>> plan.velocity, plan.airtime
        ((150.0, 450.0), 1.0)
        >>> plan_jump((0, 0), (150, 200), gravity=900, jump_speed=450, run_speed=200).reason
        'too high: 200 px up, a jump of 450 px/s rises 112 px'
    """
    start, end = check_point("takeoff", takeoff), check_point("landing", landing)
    g, up, run = (
        check_positive("gravity", gravity),
        check_positive("jump_speed", jump_speed),
        check_positive("run_speed", run_speed),
    )
    offset = np.array([[end[0] - start[0], end[1] - start[1]]])
    velocity, airtime, reachable = takeoff_velocities(
        offset, np.array([g]), np.array([up]), np.array([run])
    )
    height, rise = float(offset[0, 1]), up * up / (2.0 * g)
    if rise < height:
        return UnreachableJump(
            f"too high: {height:.0f} px up, a jump of {up:g} px/s rises {rise:.0f} px"
        )
    vx, time = float(velocity[0, 0]), float(airtime[0])
    if not reachable[0]:
        return UnreachableJump(
            f"too far: {abs(offset[0, 0]):.0f} px in {time:.2f} s takes {abs(vx):.0f} px/s, "
            f"run_speed is {run:g}"
        )
    landing_vy = up - g * time
    return JumpPlan((vx, up), time, float(max(np.hypot(vx, up), np.hypot(vx, landing_vy))))


@built_in(
    lambda the: Arguments(
        takeoff=(0.0, 0.0),
        landing=(120.0, 30.0),
        gravity=900.0,
        jump_speed=500.0,
        run_speed=250.0,
    )
)
class Jump(SteeringComponent):
    """Run up to a take-off point at the speed a jump needs; hold still if it cannot be made.

    Steers along x only (the y of its force is always 0), for side-view agents on the ground of
    a ``PymunkPhysicsEngine`` with gravity (``SteeringWorld(physics=engine)``). Before the
    take-off point the agent runs towards it at the plan's horizontal speed, keeps that speed
    in the air, and past the landing point brakes to a stop on it. The game makes the jump::

        world.update(delta_time)
        if jump.at_takeoff(sprite.position) and engine.is_on_ground(sprite):
            engine.set_velocity(sprite, jump.plan.velocity)
        engine.step()

    Attach the agent with ``max_speed`` at least ``jump.plan.flight_speed``: the world caps
    the whole velocity, the fall included. The run-up starts on the take-off side.

    Args:
        takeoff: Where the agent's centre leaves the ground, px.
        landing: Where its centre should come down, px.
        gravity: Downward acceleration, px/s².
        jump_speed: The vertical speed the agent's jump gives it, px/s.
        run_speed: The fastest the agent runs, px/s.
        takeoff_window: How far past the take-off point (px) :meth:`at_takeoff` still says
            yes; keep it above one frame's run and below the gap.
    """

    takeoff: tuple[float, float] = point()
    landing: tuple[float, float] = point()
    gravity: float = param(gt=0.0)
    jump_speed: float = param(gt=0.0)
    run_speed: float = param(gt=0.0)
    takeoff_window: float = param(default=8.0, gt=0.0)

    @property
    def plan(self) -> JumpPlan | UnreachableJump:
        """The jump's :func:`plan_jump`: the take-off velocity, or why it cannot be made."""
        return plan_jump(self.takeoff, self.landing, self.gravity, self.jump_speed, self.run_speed)

    def at_takeoff(self, position: Any) -> bool:
        """Whether an agent at ``position`` should jump now: the jump can be made and the agent
        is at most ``takeoff_window`` px past the take-off point, towards the landing.

        Raises:
            TypeError, ValueError: ``position`` is not a pair of finite numbers.
        """
        x, _ = check_point("position", position)
        progress = (x - self.takeoff[0]) * _direction(self.landing[0] - self.takeoff[0])
        return bool(self.plan) and 0.0 <= progress <= self.takeoff_window

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        params = ctx.params(self)
        offset = params.landing - params.takeoff
        velocity, _, reachable = takeoff_velocities(
            offset, params.gravity, params.jump_speed, params.run_speed
        )
        direction = _direction(offset[:, 0])
        progress = (ctx.position[:, 0] - params.takeoff[:, 0]) * direction
        desired_x = np.where(reachable, velocity[:, 0], 0.0)
        past_landing = reachable & (progress >= np.abs(offset[:, 0]))
        if past_landing.any():
            level = np.stack([ctx.position[:, 0], np.zeros(len(ctx))], axis=1)
            goal = np.stack([params.landing[:, 0], np.zeros(len(ctx))], axis=1)
            braking = arrive_velocity(
                level,
                goal,
                params.run_speed,
                ctx.max_force / ctx.mass,
                ctx.response_time,
                np.maximum(params.run_speed * ctx.response_time * 4.0, 1.0),
                np.ones(len(ctx)),
            )
            desired_x = np.where(past_landing, braking[:, 0], desired_x)
        desired = np.stack([desired_x, ctx.velocity[:, 1]], axis=1)
        return velocity_force(desired, ctx.velocity, ctx.response_time)


def _direction(dx: Any) -> Any:
    """+1 for a jump to the right (or straight up), -1 to the left."""
    return np.where(np.asarray(dx) >= 0.0, 1.0, -1.0)
