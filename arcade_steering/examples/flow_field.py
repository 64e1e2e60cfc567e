"""Flow fields: many agents, one goal, no path each: FlowField and FollowFlowField.

- ``towards``: ``FlowField.towards(goal, world, bounds)`` finds the way to the cross round
  the walls once (a distance field over a grid); every arrow reads its direction where it
  stands and arrives at the goal, then starts again on the left.
- ``function``: ``FlowField.from_function`` samples a whirlpool, ``f(x, y) -> (dx, dy)``,
  with no goal: the arrows circle for ever.

The debug overlay draws the field, one short stem per cell.

Run: ``python -m arcade_steering.examples.flow_field``
(``--help`` for the options, such as ``--headless``)

Keys: 1-2 choose the field; click moves the goal (``towards``: the field is rebuilt, a few
milliseconds); Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREEN, draw_cross

CELL = 24.0
AGENTS = 24
AGENT_RADIUS = 7.0


class FlowFieldScene(Scene):
    """Agents following a flow field, one field per mode."""

    TITLE = "FlowField, FollowFlowField"
    MODES = ("towards", "function")

    def setup(self) -> None:
        w, h = self.width, self.height
        self.bounds = (0.0, w, 0.0, h)
        self.goal: tuple[float, float] | None = None  # the field's goal, in mode "towards"
        if self.mode == "towards":
            self.box()
            self.world.add_walls([(0.3 * w, 0.0), (0.3 * w, 0.6 * h)], thickness=4)
            self.world.add_walls([(0.55 * w, h), (0.55 * w, 0.35 * h), (0.7 * w, 0.35 * h)])
            self.world.add_obstacle((0.8 * w, 0.7 * h), 30)
            self.goal = (0.85 * w, 0.25 * h)
            self.KEYS = "click moves the goal"
            self.field = self._field_towards(self.goal)
            color = BLUE
        else:
            cx, cy = w / 2, h / 2

            def whirlpool(x: np.ndarray, y: np.ndarray) -> np.ndarray:
                # Round the centre, drifting in towards a ring of radius 0.3 h.
                dx, dy = x - cx, y - cy
                r = np.hypot(dx, dy) + 1e-9
                pull = np.clip((r - 0.3 * h) / (0.3 * h), -1.0, 1.0)
                return np.stack((-dy / r - pull * dx / r, dx / r - pull * dy / r), axis=-1)

            self.field = steer.FlowField.from_function(whirlpool, self.bounds, CELL)
            color = GREEN
        self.follow = steer.FollowFlowField(self.field, slowing_radius=60.0)
        for start in self._starts(AGENTS):
            self.add_agent(start, self.follow, color, max_speed=110, max_force=500)

    def _field_towards(self, goal: tuple[float, float]) -> steer.FlowField:
        # Cells keep a little more than an agent's radius from walls and obstacles.
        return steer.FlowField.towards(
            goal, self.world, self.bounds, CELL, clearance=AGENT_RADIUS + 4.0
        )

    def _starts(self, count: int) -> np.ndarray:
        if self.mode == "towards":
            ys = self.rng.uniform(30.0, self.height - 30.0, count)
            xs = self.rng.uniform(20.0, 0.25 * self.width, count)
            return np.column_stack((xs, ys))
        return self.scatter(count)

    def after_update(self, dt: float) -> None:
        if self.goal is None:
            return
        for sprite in self.sprites:
            if math.dist(sprite.position, self.goal) < 12.0:
                sprite.position = tuple(self._starts(1)[0])  # start again on the left

    def draw_under(self) -> None:
        if self.goal is not None:
            draw_cross(*self.goal)

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.mode != "towards":
            return
        self.goal = (x, y)
        self.field = self._field_towards(self.goal)
        behavior = steer.FollowFlowField(self.field, slowing_radius=60.0)
        for agent in self.world.agents:
            agent.behavior = behavior


MODES = FlowFieldScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = FlowFieldScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(FlowFieldScene, argv)


if __name__ == "__main__":
    sys.exit(main())
