"""Seek, Flee, Arrive, Pursue, Evade and Wander: the seek family.

- ``seek``: arrows seek the cross at full speed, overshoot and swing back through it.
- ``flee``: a red threat sweeps across; arrows inside its panic distance flee, then arrive
  back home (``PriorityBlend(Flee(threat, panic_distance), Arrive(home))``).
- ``arrive``: every arrow arrives at its own point of a ring and stops there (one batch).
- ``pursue``: orange pursuers aim where the circling quarry will be; the grey one only seeks.
- ``evade``: as ``flee``, but from where the threat will be: arrows step out of its way.
- ``wander``: arrows stroll about a walled box.

Run: ``python -m arcade_steering.examples.seek_arrive``
(``--help`` for the options, such as ``--headless``)

Keys: 1-6 choose the behaviour; click moves the cross (seek, arrive); Space toggles the
debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREY, ORANGE, RED, draw_cross

PANIC_DISTANCE = 90.0
THREAT_SPEED = 150.0
QUARRY_SPEED = 120.0
SEEK_JUMP_SECONDS = 2.5


class SeekArriveScene(Scene):
    """The seek family, one behaviour per mode."""

    TITLE = "Seek, flee, arrive, pursue, evade, wander"
    MODES = ("seek", "flee", "arrive", "pursue", "evade", "wander")

    def setup(self) -> None:
        self.target = arcade.SpriteCircle(6, (*RED, 255))
        self.target.position = (self.width / 2, self.height / 2)
        self.homes = np.empty((0, 2))
        if self.mode in ("seek", "arrive"):
            self.KEYS = "click moves the cross"
        getattr(self, f"_setup_{self.mode}")()

    def _setup_seek(self) -> None:
        # The target jumps every few seconds (as a click would move it): Seek turns at full
        # speed and swings through each new target before it comes back.
        w, h = self.width, self.height
        self.jumps = [(0.7 * w, 0.6 * h), (0.3 * w, 0.35 * h), (0.55 * w, 0.25 * h)]
        self.target.position = self.jumps[0]
        # The same Seek with three force limits: the weaker, the wider the swing.
        for force, color in zip((120.0, 250.0, 600.0), (BLUE, ORANGE, GREY), strict=True):
            self.add_agent(
                (0.15 * w, 0.8 * h), steer.Seek(self.target), color, max_speed=150, max_force=force
            )

    def _threat_sweep(self) -> None:
        self.threat_path = (60.0, self.width - 60.0)
        self.target.position = (60.0, self.height / 2)

    def _setup_homes(self, make_flight: type) -> None:
        self._threat_sweep()
        xs = np.linspace(0.22, 0.88, 6) * self.width
        ys = self.height / 2 + np.array([-75.0, -40.0, 40.0, 75.0])
        self.homes = np.array([(x, y) for y in ys for x in xs])
        for home in self.homes:
            flight = (
                steer.Flee(self.target, panic_distance=PANIC_DISTANCE)
                if make_flight is steer.Flee
                else steer.Evade(self.target, threat_range=PANIC_DISTANCE)
            )
            behavior = steer.PriorityBlend(
                flight, steer.Arrive(tuple(home), slowing_radius=60.0, tolerance=1.0)
            )
            self.add_agent(home, behavior, BLUE, max_speed=110, max_force=500)

    def _setup_flee(self) -> None:
        self._setup_homes(steer.Flee)

    def _setup_evade(self) -> None:
        self._setup_homes(steer.Evade)

    def _setup_arrive(self) -> None:
        self.trails.ticks = 0.25  # dots a quarter of a second apart: see them brake
        count = 8
        self.offsets = [
            (70 * math.cos(a), 70 * math.sin(a)) for a in np.linspace(0, 2 * math.pi, count + 1)
        ][:count]
        starts = self.scatter(count)
        for index, start in enumerate(starts):
            # Each agent its own (moving) target, still one batch.
            def slot(index: int = index) -> tuple[float, float]:
                dx, dy = self.offsets[index]
                return self.target.center_x + dx, self.target.center_y + dy

            self.add_agent(
                start,
                steer.Arrive(slot, slowing_radius=120.0),
                ORANGE,
                max_speed=160,
                max_force=300,
                velocity=tuple(self.rng.uniform(-100, 100, 2)),
            )

    def _setup_pursue(self) -> None:
        self.orbit = min(self.width, self.height) * 0.33
        self._move_quarry(0.0)
        for x, y in [(40, 40), (self.width - 40, 40)]:
            self.add_agent((x, y), steer.Pursue(self.target), ORANGE, max_speed=105)
        self.add_agent((40, self.height - 40), steer.Seek(self.target), GREY, max_speed=105)
        self.trails.track(self.target, RED)

    def _setup_wander(self) -> None:
        self.box()
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Wander())
        for start in self.scatter(6, margin=60):
            self.add_agent(start, behavior, BLUE, max_speed=90, max_force=300)

    # -- motion -----------------------------------------------------------------------------

    def _move_quarry(self, t: float) -> None:
        turn = t * QUARRY_SPEED / self.orbit
        self.target.position = (
            self.width / 2 + self.orbit * math.cos(turn),
            self.height / 2 + self.orbit * math.sin(turn),
        )

    def before_update(self, dt: float) -> None:
        if self.mode == "seek":
            self.target.position = self.jumps[int(self.time / SEEK_JUMP_SECONDS) % 3]
        elif self.mode == "pursue":
            self._move_quarry(self.time)
        elif self.mode in ("flee", "evade"):
            # Back and forth along the middle: a triangle wave in x.
            left, right = self.threat_path
            span = right - left
            phase = (self.time * THREAT_SPEED) % (2 * span)
            x = left + (phase if phase < span else 2 * span - phase)
            self.target.position = (x, self.height / 2)

    # -- drawing ----------------------------------------------------------------------------

    def draw_under(self) -> None:
        x, y = self.target.position
        if self.mode in ("flee", "evade"):
            arcade.draw_circle_outline(x, y, PANIC_DISTANCE, (*RED, 90), 1)
            for hx, hy in self.homes.tolist():
                arcade.draw_point(hx, hy, (*GREY, 120), 3)
        elif self.mode == "seek":
            draw_cross(x, y)
        elif self.mode == "arrive":
            draw_cross(x, y)
            for dx, dy in self.offsets:
                draw_cross(x + dx, y + dy, (*GREY, 140), 4)

    def draw_over(self) -> None:
        if self.mode in ("flee", "evade", "pursue"):
            arcade.draw_sprite(self.target)

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.mode == "seek":
            self.jumps = [(x, y)] * 3
        if self.mode in ("seek", "arrive"):
            self.target.position = (x, y)


MODES = SeekArriveScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = SeekArriveScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(SeekArriveScene, argv)


if __name__ == "__main__":
    sys.exit(main())
