"""Queueing: a crowd through a doorway one agent wide (Reynolds' queuing).

A crowd on the left walks a route through a door in a wall; whoever comes out on the right
walks back in on the left, so the crowd keeps coming.

- ``queue``: ``Queue`` first in a PriorityBlend, then the route with Separation and
  AvoidWalls. Agents brake behind those ahead of them (orange lines: who waits behind
  whom) and go on when the way clears: they pass the door one after another.
- ``push``: the same crowd without ``Queue``: it presses into the door, and through itself.

Run: ``python -m arcade_steering.examples.doorway``
(``--help`` for the options, such as ``--headless``)

Keys: 1-2 choose the behaviour; click adds an agent there; Space toggles the debug overlay;
T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import sys

import arcade

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, draw_path

CROWD = 30
#: Arrows have a radius of 7 px: two side by side need 28 px, one passes this door.
DOOR = 18.0
SPEED = 90.0
WALL_THICKNESS = 4.0


class DoorwayScene(Scene):
    """A wall with a door, a route through it and a crowd walking the route."""

    TITLE = "Queue: a crowd through a doorway"
    MODES = ("queue", "push")
    KEYS = "click adds an agent"

    def setup(self) -> None:
        w, h = self.width, self.height
        self.box()
        self.wall_x, self.door_y = 0.55 * w, 0.5 * h
        half = DOOR / 2 + WALL_THICKNESS
        self.world.add_wall((self.wall_x, 0.0), (self.wall_x, self.door_y - half), WALL_THICKNESS)
        self.world.add_wall((self.wall_x, self.door_y + half), (self.wall_x, h), WALL_THICKNESS)
        self.route = steer.Path([(0.0, self.door_y), (w, self.door_y)], radius=3.0)
        self.crowd: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for x, y in self.rng.uniform((0.1 * w, 0.25 * h), (0.45 * w, 0.75 * h), (CROWD, 2)):
            self.add_walker((x, y))

    def add_walker(self, position: tuple[float, float]) -> None:
        """One more of the crowd at ``position``."""
        walk = steer.WeightedBlend(
            (steer.FollowPath(self.route), 1.0),
            (steer.Separation(18.0, among=self.crowd), 2.0),
            (steer.AvoidWalls(), 1.0),
        )
        if self.mode == "push":
            agent = self.add_agent(position, walk, BLUE, max_speed=SPEED, max_force=350)
        else:  # Queue is silent while the way is clear, so first; the always-on walk last.
            queue = steer.PriorityBlend(steer.Queue(among=self.crowd), walk)
            agent = self.add_agent(position, queue, ORANGE, max_speed=SPEED, max_force=350)
        self.crowd.append(agent.sprite)

    def after_update(self, dt: float) -> None:
        # Out on the right, back in on the left, at a free height.
        for index, sprite in enumerate(self.crowd):
            if sprite.center_x > self.width - 30.0:
                sprite.position = (30.0, self.door_y + (index % 9 - 4) * 20.0)

    def draw_under(self) -> None:
        draw_path(self.route)

    def on_click(self, x: float, y: float, button: int) -> None:
        self.add_walker((x, y))


MODES = DoorwayScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = DoorwayScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(DoorwayScene, argv)


if __name__ == "__main__":
    sys.exit(main())
