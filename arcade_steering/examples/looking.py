"""Where agents look: Face, Scan and LookWhereYouAreGoing turn the arrows apart from their way.

Each arrow faces where it looks; its trail shows where it goes.

- ``face``: four blue guards walk a loop, each watching the orange wanderer
  (``WeightedBlend((FollowPath(loop), 1), (Face(wanderer), 1))``, ``max_turn_rate=120``).
- ``scan``: three guards patrol, their view cones sweeping 50 degrees each side of their way
  (``Scan(50, period=3)``).
- ``look_where_going``: wanderers that turn to face their way no faster than 90 degrees a
  second (``LookWhereYouAreGoing()``): on a sharp turn they slide sideways for a moment.

Run: ``python -m arcade_steering.examples.looking``
(``--help`` for the options, such as ``--headless``)

Keys: 1-3 choose the behaviour; click moves the wanderer (face); Space toggles the debug
overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, draw_path

CONE_LENGTH = 90.0
CONE_HALF_ANGLE = 20.0
CONE_FILL = (250, 215, 80, 50)
GAZE = 70.0
GAZE_COLOR = (250, 215, 80, 160)


class LookingScene(Scene):
    """Guards and wanderers whose look is turned apart from their heading."""

    TITLE = "Face, Scan, LookWhereYouAreGoing"
    MODES = ("face", "scan", "look_where_going")
    KEYS = "click moves the wanderer"

    def setup(self) -> None:
        w, h = self.width, self.height
        self.box()
        loop = [(0.2, 0.25), (0.8, 0.25), (0.8, 0.75), (0.2, 0.75)]
        self.route: steer.Path | None = None
        route = steer.Path([(x * w, y * h) for x, y in loop], radius=12.0, closed=True)
        self.guards: list[steer.SteeringAgent] = []
        if self.mode == "look_where_going":
            for position in self.scatter(8):
                roam = steer.WeightedBlend(
                    (steer.Wander(radius=40.0, jitter=6.0), 1.0),
                    (steer.LookWhereYouAreGoing(), 1.0),
                )
                self.add_agent(
                    position,
                    steer.PriorityBlend(steer.AvoidWalls(), roam),
                    max_speed=90,
                    max_turn_rate=90,
                )
            return
        self.route = route
        self.wanderer = self.add_agent(
            (0.5 * w, 0.5 * h), steer.Wander(radius=30.0, jitter=4.0), ORANGE, max_speed=50
        )
        count = 4 if self.mode == "face" else 3
        for index in range(count):
            start = route.point_at(route.length * index / count)
            look: steer.SteeringComponent = (
                steer.Face(self.wanderer.sprite)
                if self.mode == "face"
                else steer.Scan(50.0, period=3.0 + 0.5 * index)
            )
            tree = steer.WeightedBlend((steer.FollowPath(route), 1.0), (look, 1.0))
            self.guards.append(self.add_agent(start, tree, BLUE, max_speed=60, max_turn_rate=120))

    def draw_under(self) -> None:
        if self.route is not None:
            draw_path(self.route)
        if self.mode == "face":  # each guard's gaze, one draw call for all
            lines = []
            for guard in self.guards:
                x, y = guard.position
                lines += [(x, y), (x + GAZE * guard.look[0], y + GAZE * guard.look[1])]
            arcade.draw_lines(lines, GAZE_COLOR, 1.5)
        if self.mode != "scan":
            return
        for guard in self.guards:
            x, y = guard.position
            aim, half = math.atan2(guard.look[1], guard.look[0]), math.radians(CONE_HALF_ANGLE)
            arc = np.linspace(aim - half, aim + half, 12)
            cone = [(x, y)] + [
                (x + CONE_LENGTH * math.cos(a), y + CONE_LENGTH * math.sin(a)) for a in arc
            ]
            arcade.draw_polygon_filled(cone, CONE_FILL)

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.mode == "face":
            self.wanderer.sprite.position = (x, y)  # the sprite is the truth between updates


MODES = LookingScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = LookingScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(LookingScene, argv)


if __name__ == "__main__":
    sys.exit(main())
