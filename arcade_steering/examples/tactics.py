"""Tactics: Hide, Interpose, Containment and MatchVelocity, and line of sight.

- ``hide``: a red hunter wanders among round obstacles; blue agents keep an obstacle between
  it and themselves (``PriorityBlend(AvoidObstacles(), Hide(hunter))``). Those the hunter can
  see (``world.can_see``, obstacles hiding) are ringed.
- ``interpose``: two agents move about; a green bodyguard holds the midpoint of where they
  will be (``Interpose(a, b)``).
- ``containment``: wanderers stay inside a concave pen, feeling for its outline
  (``PriorityBlend(Containment(pen), Wander())``); the outline is no wall of the world.
- ``match_velocity``: a leader seeks the cursor's last click; escorts move as it moves,
  wherever they are (``MatchVelocity(leader)``).

Run: ``python -m arcade_steering.examples.tactics``
(``--help`` for the options, such as ``--headless``)

Keys: 1-4 choose the behaviour; click moves the hunter's, the pair's or the leader's goal;
Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREEN, ORANGE, RED, TARGET_COLOR, YELLOW, draw_cross, point_list

#: The pen of ``containment``, as fractions of the scene: a "C" open to the right.
PEN = [(0.1, 0.1), (0.9, 0.1), (0.9, 0.4), (0.45, 0.4), (0.45, 0.6), (0.9, 0.6), (0.9, 0.9)]
PEN += [(0.1, 0.9)]


class TacticsScene(Scene):
    """Hiding, interposing, staying in, moving along: one behaviour per mode."""

    TITLE = "Hide, Interpose, Containment, MatchVelocity"
    MODES = ("hide", "interpose", "containment", "match_velocity")
    KEYS = "click: a new goal"

    def setup(self) -> None:
        self.goal = (0.5 * self.width, 0.5 * self.height)
        self.seen: list[arcade.Sprite] = []
        getattr(self, f"_setup_{self.mode}")()

    def _setup_hide(self) -> None:
        w, h = self.width, self.height
        for (x, y), radius in zip(
            [(0.25, 0.3), (0.7, 0.25), (0.5, 0.55), (0.2, 0.75), (0.8, 0.7)],
            (30, 36, 28, 34, 30),
            strict=True,
        ):
            self.world.add_obstacle((x * w, y * h), radius)
        self.box()
        hunter = self.add_agent(
            (0.5 * w, 0.1 * h),
            steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), steer.Wander()),
            RED,
            scale=1.4,
            max_speed=45,
        )
        self.hunter = hunter.sprite
        hide = steer.PriorityBlend(steer.AvoidObstacles(), steer.Hide(self.hunter))
        for x, y in self.scatter(6, margin=80):
            self.add_agent((x, y), hide, BLUE, max_speed=110, max_force=500)

    def _setup_interpose(self) -> None:
        w, h = self.width, self.height
        a = self.add_agent(
            (0.2 * w, 0.3 * h), steer.Arrive(lambda: self.goal), ORANGE, max_speed=70
        )
        b = self.add_agent((0.8 * w, 0.7 * h), steer.Wander(jitter=2.0), ORANGE, max_speed=60)
        self.box()
        self.pair = (a.sprite, b.sprite)
        guard = steer.Interpose(a.sprite, b.sprite)
        self.add_agent((0.5 * w, 0.1 * h), guard, GREEN, scale=1.3, max_speed=130)

    def _setup_containment(self) -> None:
        w, h = self.width, self.height
        self.pen = [(x * w, y * h) for x, y in PEN]
        behavior = steer.PriorityBlend(steer.Containment(self.pen), steer.Wander(jitter=2.0))
        for x, y in [(0.2, 0.3), (0.3, 0.7), (0.6, 0.25), (0.7, 0.8), (0.2, 0.5), (0.8, 0.2)]:
            heading = self.rng.uniform(0, 2 * np.pi)
            self.add_agent(
                (x * w, y * h),
                behavior,
                BLUE,
                max_speed=120,
                velocity=(100 * np.cos(heading), 100 * np.sin(heading)),
            )

    def _setup_match_velocity(self) -> None:
        w, h = self.width, self.height
        self.goal = (0.85 * w, 0.75 * h)
        leader = self.add_agent(
            (0.15 * w, 0.25 * h), steer.Arrive(lambda: self.goal), YELLOW, scale=1.4, max_speed=90
        )
        match = steer.MatchVelocity(leader.sprite)
        for dx, dy in [(-40, 60), (0, -70), (60, 20), (-90, -30)]:
            self.add_agent((0.15 * w + dx, 0.25 * h + dy), match, GREEN, max_speed=120)

    def after_update(self, dt: float) -> None:
        if self.mode == "hide":
            hiders = list(self.sprites)[1:]
            sees = self.world.can_see(self.hunter, hiders, 2000, obstacles=True)
            self.seen = [sprite for sprite, seen in zip(hiders, sees, strict=True) if seen]
        elif self.mode == "interpose" and self.time % 6.0 < dt:
            self.goal = tuple(self.scatter(1, margin=80)[0])

    def draw_under(self) -> None:
        if self.mode == "containment":
            arcade.draw_polygon_outline(self.pen, TARGET_COLOR, 2)
        elif self.mode in ("interpose", "match_velocity"):
            draw_cross(*self.goal)
        if self.mode == "interpose":
            arcade.draw_line_strip(point_list(np.array([s.position for s in self.pair])), YELLOW)

    def draw_over(self) -> None:
        for sprite in self.seen:
            arcade.draw_circle_outline(*sprite.position, 14, RED, 2)

    def on_click(self, x: float, y: float, button: int) -> None:
        self.goal = (x, y)


MODES = TacticsScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = TacticsScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(TacticsScene, argv)


if __name__ == "__main__":
    sys.exit(main())
