"""Steering through arcade's PymunkPhysicsEngine: agents push crates around.

``SteeringWorld(physics=engine)`` steers the agents whose sprites are in the engine by setting
their bodies' velocities; the engine moves them, and they shove the crates (dynamic bodies) and
each other. The world shares the engine's space, so the walls it adds hold crates and agents in.
Each frame: ``world.update(dt)``, then ``engine.step()``.

- ``push``: a squad arrives at its slots on the far side, through a pile of crates, and turns
  back every few seconds (``Arrive``).
- ``wander``: wanderers feel for the walls and bump the crates around
  (``PriorityBlend(AvoidWalls(), Wander())``).
- ``mixed``: the push squad again, but the orange agents are not in the engine: the world moves
  them itself, so they pass through the crates (only the walls hold them).

Run: ``python -m arcade_steering.examples.physics``
(``--help`` for the options, such as ``--headless``)

Keys: 1-3 choose the mode; click sends the squad there (``push``, ``mixed``) or drops a crate
(``wander``); Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, draw_cross

CRATE_TEXTURE = ":resources:images/tiles/boxCrate_double.png"
CRATE_SIZE = 36
#: Fraction of a crate's velocity left after a second: floor friction in a top-down game.
CRATE_DAMPING = 0.15
#: The engine steps at most this long (arcade advises a constant step).
ENGINE_STEP = 1 / 60
SQUAD = 6
#: Seconds before the squad turns back.
TURN_EVERY = 7.0


class PhysicsScene(Scene):
    """Agents driven through a ``PymunkPhysicsEngine``, pushing crates."""

    TITLE = "PymunkPhysicsEngine: agents push crates"
    MODES = ("push", "wander", "mixed")

    def setup(self) -> None:
        w, h = self.width, self.height
        #: Top-down: no gravity. Crates get their own damping, agents none (steering sets
        #: their velocities every frame).
        self.engine = arcade.PymunkPhysicsEngine()
        self.world = steer.SteeringWorld(seed=self.seed, physics=self.engine)
        self.crates: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        inset = 8.0
        # In the engine's space: walls for steering and for the engine's bodies alike. Thick,
        # so that nothing pushed hard passes through them in one step.
        self.world.add_walls(
            [(inset, inset), (w - inset, inset), (w - inset, h - inset), (inset, h - inset)],
            closed=True,
            thickness=8,
        )
        self.goal_x = 0.85 * w
        self.KEYS = "click drops a crate" if self.mode == "wander" else "click sends the squad"
        if self.mode == "wander":
            for x, y in self.scatter(16, margin=70):
                self.add_crate((x, y))
            behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Wander(jitter=2.0))
            for x, y in self.scatter(8, margin=50):
                heading = self.rng.uniform(0, 2 * math.pi)
                self.add_pusher(
                    (x, y),
                    behavior,
                    max_speed=110,
                    max_force=500,
                    velocity=(90 * math.cos(heading), 90 * math.sin(heading)),
                )
            return
        # A loose pile of crates in the middle, the squad on the left.
        for column in range(3):
            for row in range(4):
                jitter = self.rng.uniform(-6, 6, 2)
                x = 0.42 * w + column * (CRATE_SIZE + 10) + jitter[0]
                y = h / 2 + (row - 1.5) * (CRATE_SIZE + 14) + jitter[1]
                self.add_crate((x, y))
        self.slots = (np.arange(SQUAD) - (SQUAD - 1) / 2) * min(40.0, 0.8 * h / SQUAD)
        self.arrives = [steer.Arrive(self._slot(i), slowing_radius=80) for i in range(SQUAD)]
        for index, arrive in enumerate(self.arrives):
            in_engine = self.mode == "push" or index % 2 == 0
            start = (0.12 * w, h / 2 + self.slots[index])
            self.add_pusher(start, arrive, in_engine=in_engine, max_speed=120, max_force=600)
        self.turn_at = TURN_EVERY

    # -- building ---------------------------------------------------------------------------

    def add_crate(self, position: Sequence[float]) -> arcade.Sprite:
        """A crate the engine moves: a dynamic box, slowed down by its own damping."""
        crate = arcade.Sprite(CRATE_TEXTURE)
        crate.width = crate.height = CRATE_SIZE
        x, y = position
        crate.position = (x, y)
        self.crates.append(crate)
        self.engine.add_sprite(crate, mass=1.0, friction=0.4, damping=CRATE_DAMPING)
        return crate

    def add_pusher(
        self,
        position: Sequence[float],
        behavior: steer.SteeringComponent,
        *,
        in_engine: bool = True,
        **attach: Any,
    ) -> steer.SteeringAgent:
        """An arrow steered by ``behavior``; in the engine (blue) or moved by the world
        (orange)."""
        agent = self.add_agent(position, behavior, BLUE if in_engine else ORANGE, **attach)
        if in_engine:
            # Infinite moment: contacts don't spin it, so it faces exactly where it goes.
            self.engine.add_sprite(agent.sprite, mass=2.0, friction=0.2, moment_of_inertia=math.inf)
        return agent

    def _slot(self, index: int) -> tuple[float, float]:
        return (self.goal_x, self.height / 2 + self.slots[index])

    def _send_squad(self, x: float) -> None:
        self.goal_x = min(max(x, 40.0), self.width - 40.0)
        for index, arrive in enumerate(self.arrives):
            arrive.target = self._slot(index)

    # -- running ----------------------------------------------------------------------------

    def before_update(self, dt: float) -> None:
        if self.mode != "wander" and self.time >= self.turn_at:
            self.turn_at = self.time + TURN_EVERY
            self._send_squad(self.width - self.goal_x)

    def after_update(self, dt: float) -> None:
        # The engine after the world: it moves the bodies with the velocities steering just
        # set, collides them and puts the sprites where the bodies went. Equal steps of at most
        # ENGINE_STEP; only the last one moves the sprites.
        steps = max(1, math.ceil(dt / ENGINE_STEP - 1e-9))
        for index in range(steps):
            self.engine.step(dt / steps, resync_sprites=index == steps - 1)

    # -- drawing ----------------------------------------------------------------------------

    def draw_under(self) -> None:
        if self.mode != "wander":
            for index in range(SQUAD):
                draw_cross(*self._slot(index), size=5)
        self.crates.draw()

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.mode == "wander":
            self.add_crate((x, y))
        else:
            self._send_squad(x)
            self.turn_at = self.time + TURN_EVERY


MODES = PhysicsScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = PhysicsScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(PhysicsScene, argv)


if __name__ == "__main__":
    sys.exit(main())
