"""Paths: FollowPath on a multi-segment path, FollowWaypoints' modes, StayOnPath.

- ``follow_path``: Reynolds' path following on a zigzag: arrows at different speeds keep
  inside the tube; at the ends they turn round (``at_end="reverse"``), one starts backwards.
- ``follow_waypoints``: one list of waypoints, three modes: blue loops, orange goes back
  and forth (``"pingpong"``), grey stops at the last one (``"once"``).
- ``stay_on_path``: wanderers kept inside a wide closed tube
  (``PriorityBlend(StayOnPath(path), Wander())``).

Run: ``python -m arcade_steering.examples.paths``
(``--help`` for the options, such as ``--headless``)

Keys: 1-3 choose the behaviour; click moves the nearest path point (paths may change at
run time); Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREEN, GREY, ORANGE, draw_path

WAYPOINT_RADIUS = 24.0


class PathsScene(Scene):
    """Path following, one behaviour per mode."""

    TITLE = "FollowPath, FollowWaypoints, StayOnPath"
    MODES = ("follow_path", "follow_waypoints", "stay_on_path")
    KEYS = "click moves a path point"

    def setup(self) -> None:
        w, h = self.width, self.height
        if self.mode == "follow_path":
            xs = np.linspace(0.1, 0.9, 6) * w
            ys = np.array([0.25, 0.75, 0.3, 0.7, 0.25, 0.75]) * h
            self.path = steer.Path(np.column_stack((xs, ys)), radius=22.0)
            for index, speed in enumerate((70.0, 100.0, 130.0)):
                self.add_agent(
                    (xs[0] + 20 * index, ys[0] - 30),
                    steer.FollowPath(self.path, at_end="reverse"),
                    (BLUE, ORANGE, GREEN)[index],
                    max_speed=speed,
                    max_force=400,
                )
            self.add_agent(
                (xs[-1], ys[-1] + 30),
                steer.FollowPath(self.path, at_end="reverse", direction=-1),
                GREY,
                max_speed=90,
            )
        elif self.mode == "follow_waypoints":
            points = [(0.15, 0.2), (0.45, 0.3), (0.8, 0.2), (0.85, 0.75), (0.5, 0.6), (0.2, 0.8)]
            self.path = steer.Path([(x * w, y * h) for x, y in points], radius=WAYPOINT_RADIUS)
            modes = zip(("loop", "pingpong", "once"), (BLUE, ORANGE, GREY), strict=True)
            for index, (mode, color) in enumerate(modes):
                self.add_agent(
                    (0.06 * w, (0.3 - 0.1 * index) * h),
                    steer.FollowWaypoints(self.path, arrive_radius=WAYPOINT_RADIUS, mode=mode),
                    color,
                    max_speed=120,
                    max_force=500,
                )
        else:
            turns = np.linspace(0, 2 * math.pi, 9)[:-1]
            rx, ry = 0.36 * w, 0.3 * h
            loop = [(w / 2 + rx * math.cos(a), h / 2 + ry * math.sin(2 * a)) for a in turns]
            self.path = steer.Path(loop, radius=40.0, closed=True)
            behavior = steer.PriorityBlend(steer.StayOnPath(self.path), steer.Wander())
            for x, y in self.path.points[::2]:
                self.add_agent((x, y), behavior, GREEN, max_speed=90, max_force=300)

    def draw_under(self) -> None:
        if self.mode == "follow_waypoints":
            for x, y in self.path.points.tolist():
                arcade.draw_circle_outline(x, y, WAYPOINT_RADIUS, (*GREY, 150), 1)
                arcade.draw_circle_filled(x, y, 3, (*GREY, 200))
        else:
            draw_path(self.path)

    def on_click(self, x: float, y: float, button: int) -> None:
        points = self.path.points.copy()
        nearest = int(np.argmin(np.hypot(*(points - (x, y)).T)))
        points[nearest] = (x, y)
        self.path.points = points


MODES = PathsScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = PathsScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(PathsScene, argv)


if __name__ == "__main__":
    sys.exit(main())
