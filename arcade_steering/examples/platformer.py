"""Jumping in a side view: Jump and plan_jump on arcade's PymunkPhysicsEngine with gravity.

The engine has gravity and the ground; the world steers the agents along x. Each frame:
``world.update(dt)``; where ``jump.at_takeoff(position)`` and ``engine.is_on_ground(sprite)``
agree, ``engine.set_velocity(sprite, jump.plan.velocity)``; then ``engine.step()``.

- ``ledges``: two floors, a gap and a ledge on each. Below, the ledge is 60 px up: the blue
  agent runs up at the plan's speed, jumps (the dotted arc is the plan) and lands on its
  cross. Above, the ledge is 150 px up, higher than the jump rises: the orange agent is
  not sent at it and stands still, and the plan's reason is written beside it. Both start
  again every few seconds.

Run: ``python -m arcade_steering.examples.platformer``
(``--help`` for the options, such as ``--headless``)

Keys: Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, TARGET_COLOR, draw_cross

GRAVITY = 900.0
JUMP_SPEED = 500.0
RUN_SPEED = 250.0
#: Half the height of an arrow: its centre stands this far above the ground.
HALF_HEIGHT = 7.0
SLAB = 20
PLATFORM_COLOR = (92, 96, 104, 255)
ENGINE_STEP = 1 / 60
#: Seconds before the agents start again from the left.
RESTART_EVERY = 5.0


class PlatformerScene(Scene):
    """Two floors with a gap and a ledge each: one jump that can be made, one that cannot."""

    TITLE = "Jump: a run-up and a jump onto a ledge, side view"
    MODES = ("ledges",)

    def setup(self) -> None:
        w, h = self.width, self.height
        self.engine = arcade.PymunkPhysicsEngine(gravity=(0, -GRAVITY))
        self.world = steer.SteeringWorld(seed=self.seed, physics=self.engine)
        self.platforms: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        edge, ledge = 0.5 * w, 0.7 * w
        # (floor top, ledge top, colour): a ledge 60 px up below, 150 px up above.
        storeys = [(0.1 * h, 0.1 * h + 60.0, BLUE), (0.5 * h, 0.5 * h + 150.0, ORANGE)]
        self.runs: list[tuple[arcade.Sprite, steer.Jump]] = []
        for floor, top, color in storeys:
            self._platform(0.0, edge, floor)
            self._platform(ledge, w, top)
            jump = steer.Jump(
                (edge - HALF_HEIGHT, floor + HALF_HEIGHT),
                (ledge + 40.0, top + HALF_HEIGHT),
                gravity=GRAVITY,
                jump_speed=JUMP_SPEED,
                run_speed=RUN_SPEED,
            )
            start = (0.08 * w, floor + HALF_HEIGHT)
            agent = self.add_agent(start, jump, color, max_speed=1500, max_force=2000)
            self.engine.add_sprite(
                agent.sprite, mass=1.0, moment_of_inertia=arcade.PymunkPhysicsEngine.MOMENT_INF
            )
            self.runs.append((agent.sprite, jump))
        self.restart_at = RESTART_EVERY
        #: Why each jump that cannot be made cannot, drawn above its agent.
        self.reasons: list[arcade.Text] | None = None

    def _platform(self, left: float, right: float, top: float) -> None:
        """A static slab ``SLAB`` px thick from ``left`` to ``right``, its top at ``top``."""
        slab = arcade.SpriteSolidColor(round(right - left), SLAB, color=PLATFORM_COLOR)
        slab.position = ((left + right) / 2, top - SLAB / 2)
        self.platforms.append(slab)
        self.engine.add_sprite(slab, body_type=arcade.PymunkPhysicsEngine.STATIC, friction=0.2)

    def after_update(self, dt: float) -> None:
        # The world has set the run-up velocities; the jump is the game's, then the engine.
        for sprite, jump in self.runs:
            plan = jump.plan
            if not isinstance(plan, steer.JumpPlan):
                continue  # not attempted: the agent stands still
            if jump.at_takeoff(sprite.position) and self.engine.is_on_ground(sprite):
                self.engine.set_velocity(sprite, plan.velocity)
        steps = max(1, math.ceil(dt / ENGINE_STEP - 1e-9))
        for index in range(steps):
            self.engine.step(dt / steps, resync_sprites=index == steps - 1)
        if self.time >= self.restart_at:
            self.restart_at = self.time + RESTART_EVERY
            for sprite, jump in self.runs:
                self.engine.set_position(sprite, (0.08 * self.width, jump.takeoff[1]))
                self.engine.set_velocity(sprite, (0.0, 0.0))

    def draw_under(self) -> None:
        self.platforms.draw()
        for _, jump in self.runs:
            draw_cross(*jump.landing)
            plan = jump.plan
            if isinstance(plan, steer.JumpPlan):  # the planned arc, dotted
                times = np.linspace(0.0, plan.airtime, 24)
                vx, vy = plan.velocity
                xs = jump.takeoff[0] + vx * times
                ys = jump.takeoff[1] + vy * times - 0.5 * GRAVITY * times**2
                arcade.draw_points(list(zip(xs, ys, strict=True)), TARGET_COLOR, 3)
        if self.reasons is None:  # text needs a window: made at the first draw
            unreachable = [(jump.takeoff, jump.plan) for _, jump in self.runs]
            self.reasons = [
                arcade.Text(plan.reason, x - 200, y + 24, TARGET_COLOR, 11)
                for (x, y), plan in unreachable
                if isinstance(plan, steer.UnreachableJump)
            ]
        for reason in self.reasons:
            reason.draw()


MODES = PlatformerScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = PlatformerScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(PlatformerScene, argv)


if __name__ == "__main__":
    sys.exit(main())
