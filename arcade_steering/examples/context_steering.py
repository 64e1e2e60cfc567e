"""Context steering: ContextSteering against a weighted blend of seek and avoidance.

- ``trap``: two U-shaped walls open towards the agents, a cross behind each. Blue agents
  use ``ContextSteering(cross)``: the directions into each U are masked once its far wall is
  within their look-ahead, and they go round. Orange agents use
  ``WeightedBlend((Seek(cross), 1), (AvoidObstacles(), 1), (AvoidWalls(), 1))``: in the U the
  walls' push cancels the target's pull and they stay there.
- ``room``: agents cross a room of walls and posts to the cross with ``ContextSteering``
  alone, no other avoidance.

Run: ``python -m arcade_steering.examples.context_steering``
(``--help`` for the options, such as ``--headless``)

Keys: 1-2 choose the scene; click moves the nearest cross; Space toggles the debug overlay (each
agent's ring of directions, red where a wall or post is within reach); T trails; P pause;
R restart; Esc quit.
"""

from __future__ import annotations

import sys

import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, draw_cross

MAX_SPEED, MAX_FORCE = 110.0, 400.0


class ContextSteeringScene(Scene):
    """ContextSteering round dead ends and through a room, one scene per mode."""

    TITLE = "ContextSteering: interest and danger over a ring of directions"
    MODES = ("trap", "room")
    KEYS = "click moves the nearest cross"

    def setup(self) -> None:
        self.box()
        getattr(self, f"_setup_{self.mode}")()

    def _setup_trap(self) -> None:
        w, h = self.width, self.height
        # One U and one cross per lane: the blend's agents above, ContextSteering's below.
        self.goals = [(0.88 * w, 0.75 * h), (0.88 * w, 0.25 * h)]
        blend = steer.WeightedBlend(
            (steer.Seek(lambda: self.goals[0]), 1.0),
            (steer.AvoidObstacles(), 1.0),
            (steer.AvoidWalls(), 1.0),
        )
        lanes = [(0.75, ORANGE, blend), (0.25, BLUE, steer.ContextSteering(lambda: self.goals[1]))]
        for lane, color, behavior in lanes:
            self._u_trap(0.65 * w, lane * h, width=100.0, depth=90.0)
            for offset in (-0.04, 0.04):
                self._add((0.08 * w, (lane + offset) * h), color, behavior)

    def _setup_room(self) -> None:
        w, h = self.width, self.height
        self.goals = [(0.9 * w, 0.5 * h)]
        self.world.add_wall((0.3 * w, 0.15 * h), (0.3 * w, 0.6 * h), thickness=6)
        self.world.add_walls(
            [(0.55 * w, 0.85 * h), (0.55 * w, 0.4 * h), (0.7 * w, 0.4 * h)], thickness=6
        )
        posts = [(0.45, 0.25, 30.0), (0.42, 0.75, 24.0), (0.75, 0.2, 28.0)]
        for x, y, radius in posts:
            self.world.add_obstacle((x * w, y * h), radius)
        behavior = steer.ContextSteering(lambda: self.goals[0])
        for y in np.linspace(0.15, 0.85, 6) * h:
            self._add((0.08 * w, y), BLUE, behavior)

    def _u_trap(self, x: float, y: float, width: float, depth: float) -> None:
        """A U of walls, its bottom at ``x``, open towards -x."""
        half = 0.5 * width
        self.world.add_walls(
            [(x - depth, y + half), (x, y + half), (x, y - half), (x - depth, y - half)],
            thickness=4,
        )

    def _add(
        self,
        position: tuple[float, float],
        color: tuple[int, int, int],
        behavior: steer.SteeringComponent,
    ) -> None:
        self.add_agent(position, behavior, color, max_speed=MAX_SPEED, max_force=MAX_FORCE)

    def draw_under(self) -> None:
        for goal in self.goals:
            draw_cross(*goal)

    def on_click(self, x: float, y: float, button: int) -> None:
        nearest = min(
            range(len(self.goals)),
            key=lambda i: np.hypot(x - self.goals[i][0], y - self.goals[i][1]),
        )
        self.goals[nearest] = (x, y)


MODES = ContextSteeringScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = ContextSteeringScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(ContextSteeringScene, argv)


if __name__ == "__main__":
    sys.exit(main())
