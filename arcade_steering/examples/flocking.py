"""Groups: Separation, Alignment, Cohesion, AvoidAgents, and a flock that blends them.

Neighbours are found once per update with a spatial index and shared by every group
behaviour; ``among=`` limits a rule to some sprites (a SpriteList).

- ``separation``: a packed crowd spreads out until no two are within 40 px, then stops
  (``WeightedBlend((Separation(40), 1), (Brake(), 0.3))``, ``Brake`` being a user
  component); pink lines are the pushes.
- ``alignment``: arrows set off every which way and turn to fly the way their neighbours
  fly, in loose streams (the scene wraps round at its edges).
- ``cohesion``: arrows drawn towards the centre of their neighbours gather in clumps.
- ``avoid_agents``: four streams cross at right angles; each arrow predicts collisions and
  sidesteps (``PriorityBlend(AvoidAgents(), Seek(ahead))``).
- ``blends``: a boids flock in a walled room with posts:
  ``PriorityBlend(AvoidWalls(), AvoidObstacles(), WeightedBlend(separation, alignment,
  cohesion))``.

Run: ``python -m arcade_steering.examples.flocking``
(``--help`` for the options, such as ``--headless``)

Keys: 1-5 choose the behaviour; click adds an obstacle; Space toggles the debug overlay;
T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, GREEN, ORANGE, YELLOW, Trails

CROWD = 30


class Brake(steer.SteeringComponent):
    """Slow down to a stop: a user component (a desired velocity of zero)."""

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        return -ctx.velocity / ctx.response_time[:, None]


class FlockingScene(Scene):
    """Group behaviours, one per mode."""

    TITLE = "Separation, Alignment, Cohesion, AvoidAgents, blends"
    MODES = ("separation", "alignment", "cohesion", "avoid_agents", "blends")
    KEYS = "click adds an obstacle"

    def setup(self) -> None:
        self.wraps = self.mode in ("alignment", "cohesion", "avoid_agents")
        getattr(self, f"_setup_{self.mode}")()

    def _random_velocity(self, speed: float) -> tuple[float, float]:
        angle = self.rng.uniform(0, 2 * math.pi)
        return speed * math.cos(angle), speed * math.sin(angle)

    def _setup_separation(self) -> None:
        centre = (self.width / 2, self.height / 2)
        behavior = steer.WeightedBlend((steer.Separation(40.0), 1.0), (Brake(), 0.3))
        for offset in self.rng.normal(0.0, 25.0, (CROWD, 2)):
            self.add_agent(np.add(centre, offset), behavior, YELLOW, max_speed=80, max_force=300)

    def _setup_alignment(self) -> None:
        behavior = steer.Alignment(70.0)
        for start in self.scatter(CROWD, margin=20):
            self.add_agent(
                start,
                behavior,
                BLUE,
                max_speed=90,
                max_force=100,
                velocity=self._random_velocity(90),
            )

    def _setup_cohesion(self) -> None:
        self.trails = Trails(seconds=3.0)
        behavior = steer.Cohesion(110.0)
        for start in self.scatter(CROWD, margin=20):
            self.add_agent(
                start,
                behavior,
                ORANGE,
                max_speed=70,
                max_force=60,
                velocity=self._random_velocity(60),
            )

    def _setup_avoid_agents(self) -> None:
        w, h = self.width, self.height
        # Six per stream along the whole line, the streams out of phase so none start
        # on top of each other; the scene wraps round, so they keep crossing.
        along = np.arange(5) / 5
        lanes = 24.0 * (np.arange(5) % 3 - 1)
        streams = [
            ((1, 0), BLUE, np.column_stack(((along + 0.04) * w, h / 2 + lanes))),
            ((-1, 0), ORANGE, np.column_stack(((along + 0.12) * w, h / 2 - lanes))),
            ((0, 1), GREEN, np.column_stack((w / 2 + lanes, (along + 0.08) * h))),
            ((0, -1), YELLOW, np.column_stack((w / 2 - lanes, (along + 0.16) * h))),
        ]
        self.trails = Trails(seconds=4.0)
        for direction, color, starts in streams:
            for start in starts.tolist():
                seek = steer.Seek(self._ahead(len(self.sprites), direction, start))
                behavior = steer.PriorityBlend(steer.AvoidAgents(horizon=1.5, margin=6), seek)
                self.add_agent(start, behavior, color, max_speed=90, max_force=400)

    def _ahead(
        self, index: int, direction: tuple[int, int], start: tuple[float, float]
    ) -> Callable[[], tuple[float, float]]:
        """100 px ahead of agent ``index`` along its stream's line (its own callable target)."""
        dx, dy = direction

        def target() -> tuple[float, float]:
            x, y = self.sprites[index].position
            return (x + 100 * dx, start[1]) if dx else (start[0], y + 100 * dy)

        return target

    def _setup_blends(self) -> None:
        w, h = self.width, self.height
        self.box()
        for x, y, radius in [(0.3, 0.35, 30), (0.65, 0.65, 36), (0.75, 0.3, 22)]:
            self.world.add_obstacle((x * w, y * h), radius)
        flock = steer.WeightedBlend(
            (steer.Separation(30.0), 2.0), (steer.Alignment(60.0), 1.0), (steer.Cohesion(70.0), 0.6)
        )
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), flock)
        for start in self.scatter(CROWD, margin=50):
            self.add_agent(
                start,
                behavior,
                GREEN,
                max_speed=100,
                max_force=400,
                velocity=self._random_velocity(60),
            )

    def after_update(self, dt: float) -> None:
        if self.wraps:
            self.wrap()

    def on_click(self, x: float, y: float, button: int) -> None:
        self.world.add_obstacle((x, y), 20)


MODES = FlockingScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = FlockingScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(FlockingScene, argv)


if __name__ == "__main__":
    sys.exit(main())
