"""Walls and obstacles: AvoidWalls, AvoidObstacles and solid agents.

Walls are ``pymunk.Segment`` and obstacles ``pymunk.Circle`` shapes in ``world.space``, added
with ``world.add_walls`` / ``world.add_wall`` / ``world.add_obstacle``.

- ``avoid_walls``: wanderers in a room with inner walls feel ahead with three feelers and
  slide along the walls they touch (``PriorityBlend(AvoidWalls(), Wander())``).
- ``avoid_obstacles``: a stream of arrows crosses a field of round obstacles, each steering
  round the nearest one in its detection box
  (``PriorityBlend(AvoidObstacles(), Seek(goal))``); they start again on the left.
- ``solid``: no avoidance at all: arrows seek the cross straight through a wall and a post,
  and ``solid=True`` (the default) keeps their circles out, so they slide along.
- ``running_sum``: a wall across each lane, a cross behind it, a strong Seek. Blue agents use
  ``RunningSum(AvoidWalls(), Seek(cross))``: the wall's push is paid from the force budget
  first and they go round. Orange agents use ``WeightedBlend((AvoidWalls(), 1), (Seek(cross),
  4))``: the Seek outweighs the push and, not solid here, they cross the wall.

Run: ``python -m arcade_steering.examples.walls_obstacles``
(``--help`` for the options, such as ``--headless``)

Keys: 1-4 choose the behaviour; click adds an obstacle (right click: moves the cross in
``solid``); Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREEN, ORANGE, draw_cross

STREAM = 10


class WallsObstaclesScene(Scene):
    """Avoiding geometry, one behaviour per mode."""

    TITLE = "AvoidWalls, AvoidObstacles, solid agents, RunningSum"
    MODES = ("avoid_walls", "avoid_obstacles", "solid", "running_sum")
    KEYS = "click adds an obstacle"

    def setup(self) -> None:
        getattr(self, f"_setup_{self.mode}")()

    def _setup_avoid_walls(self) -> None:
        w, h = self.width, self.height
        self.box()
        self.world.add_wall((0.3 * w, 0.25 * h), (0.3 * w, 0.75 * h), thickness=6)
        self.world.add_walls([(0.55 * w, 0.8 * h), (0.55 * w, 0.55 * h), (0.75 * w, 0.55 * h)])
        self.world.add_wall((0.6 * w, 0.2 * h), (0.85 * w, 0.35 * h), thickness=4)
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Wander(jitter=2.0))
        starts = [(0.15, 0.5), (0.45, 0.3), (0.45, 0.7), (0.7, 0.7), (0.85, 0.6), (0.75, 0.15)]
        for x, y in starts:
            heading = self.rng.uniform(0, 2 * np.pi)
            self.add_agent(
                (x * w, y * h),
                behavior,
                BLUE,
                max_speed=120,
                max_force=600,
                velocity=(100 * np.cos(heading), 100 * np.sin(heading)),
            )

    def _setup_avoid_obstacles(self) -> None:
        w, h = self.width, self.height
        centres = [(0.3, 0.3), (0.32, 0.72), (0.5, 0.5), (0.62, 0.2), (0.7, 0.78), (0.8, 0.45)]
        for (x, y), radius in zip(centres, (34, 28, 40, 26, 30, 30), strict=True):
            self.world.add_obstacle((x * w, y * h), radius)
        for index, y in enumerate(np.linspace(0.12, 0.88, STREAM) * h):
            start = (20 - 35 * (index % 3), y)
            sprite_ahead = self._ahead_in_lane(len(self.sprites), y)
            behavior = steer.PriorityBlend(steer.AvoidObstacles(), steer.Seek(sprite_ahead))
            self.add_agent(start, behavior, ORANGE, max_speed=110, max_force=400)

    def _ahead_in_lane(self, index: int, lane: float) -> Callable[[], tuple[float, float]]:
        """A target 80 px ahead of agent ``index`` in its lane: back to the lane after each
        obstacle (every agent its own callable target, still one batch)."""
        return lambda: (self.sprites[index].center_x + 80.0, lane)

    def _setup_solid(self) -> None:
        w, h = self.width, self.height
        self.world.add_wall((0.5 * w, 0.2 * h), (0.5 * w, 0.8 * h), thickness=4)
        self.world.add_obstacle((0.3 * w, 0.5 * h), 30)
        self.goal = (0.8 * w, 0.5 * h)
        self.KEYS = "click: a post   right click: the cross"
        for y in np.linspace(0.3, 0.7, 5) * h:
            self.add_agent(
                (0.08 * w, y), steer.Arrive(lambda: self.goal), GREEN, max_speed=100, max_force=300
            )

    def _setup_running_sum(self) -> None:
        w, h = self.width, self.height
        self.box()
        # One wall and one cross per lane: the blend's agents above, RunningSum's below.
        self.goals = [(0.85 * w, 0.75 * h), (0.85 * w, 0.25 * h)]
        blend = steer.WeightedBlend(
            (steer.AvoidWalls(), 1.0), (steer.Seek(lambda: self.goals[0]), 4.0)
        )
        running_sum = steer.RunningSum(steer.AvoidWalls(), steer.Seek(lambda: self.goals[1]))
        for lane, color, behavior in ((0.75, ORANGE, blend), (0.25, BLUE, running_sum)):
            self.world.add_wall((0.55 * w, (lane - 0.15) * h), (0.55 * w, (lane + 0.15) * h), 4)
            for offset in (-0.05, 0.05):
                self.add_agent(
                    (0.08 * w, (lane + offset) * h),
                    behavior,
                    color,
                    max_speed=110,
                    max_force=300,
                    solid=False,
                )

    def after_update(self, dt: float) -> None:
        if self.mode == "avoid_obstacles":
            # Start again on the left: moving the sprite is enough, the world follows it.
            for sprite in self.sprites:
                if sprite.center_x > self.width + 10:
                    sprite.position = (-10.0, sprite.center_y)

    def draw_under(self) -> None:
        if self.mode == "solid":
            draw_cross(*self.goal)
        elif self.mode == "running_sum":
            for goal in self.goals:
                draw_cross(*goal)

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.mode == "solid" and button == arcade.MOUSE_BUTTON_RIGHT:
            self.goal = (x, y)
        else:
            self.world.add_obstacle((x, y), 20)


MODES = WallsObstaclesScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = WallsObstaclesScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(WallsObstaclesScene, argv)


if __name__ == "__main__":
    sys.exit(main())
