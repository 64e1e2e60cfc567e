"""Leaders and squads: FollowLeader, EvadeSightCone, OffsetPursuit in formation.

The red leader walks a zigzag route and turns round at its ends; its squad starts in its
way and has to get behind it.

- ``follow_leader``: the squad arrives at a point behind the leader, kept apart by
  Separation (``WeightedBlend((FollowLeader(leader, 70), 1), (Separation(30, among=squad), 2))``).
  When the leader turns round it walks straight through them.
- ``evade_sight_cone``: the same squad, but first in a PriorityBlend it keeps out of the
  leader's view (the yellow cone): when the leader turns, the squad steps aside.
- ``formation``: each follower holds its own slot of a wedge (``OffsetPursuit`` with
  ``formations.wedge``), predicting where the leader will be.

Run: ``python -m arcade_steering.examples.leader``
(``--help`` for the options, such as ``--headless``)

Keys: 1-3 choose the behaviour; click sends the leader there (its behaviour is swapped for
an Arrive at run time); Space toggles the debug overlay; T trails;
P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import ORANGE, RED, draw_path

SQUAD = 8
SIGHT_LENGTH = 130.0
SIGHT_HALF_ANGLE = 30.0
LEADER_SPEED = 70.0
CONE_FILL = (250, 215, 80, 40)


class LeaderScene(Scene):
    """A leader and its squad, one squad behaviour per mode."""

    TITLE = "FollowLeader, EvadeSightCone, OffsetPursuit"
    MODES = ("follow_leader", "evade_sight_cone", "formation")
    KEYS = "click sends the leader"

    def setup(self) -> None:
        w, h = self.width, self.height
        route = [(0.12, 0.3), (0.45, 0.55), (0.88, 0.5)]
        self.route = steer.Path([(x * w, y * h) for x, y in route], radius=16.0)
        self.leader_agent = self.add_agent(
            self.route.points[0],
            steer.FollowPath(self.route, at_end="reverse"),
            RED,
            scale=1.4,
            max_speed=LEADER_SPEED,
            max_force=300,
        )
        self.leader = self.leader_agent.sprite
        self.squad: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        # The squad starts ahead of the leader, in its way: it has to get behind it.
        ahead = self.route.points[0] + 110.0 * self.route.directions[0]
        starts = ahead + self.rng.normal(0.0, 25.0, (SQUAD, 2))
        slots = steer.formations.wedge(SQUAD, spacing=34.0)
        for start, slot in zip(starts, slots, strict=True):
            agent = self.add_agent(
                start, self.squad_behavior(slot), ORANGE, max_speed=110, max_force=400
            )
            self.squad.append(agent.sprite)
        self.sprites.remove(self.leader)
        self.sprites.append(self.leader)  # drawn on top of its squad

    def squad_behavior(self, slot: tuple[float, float]) -> steer.SteeringComponent:
        """A follower's behaviour in this mode (``slot``: its place in the formation)."""
        if self.mode == "formation":
            return steer.OffsetPursuit(self.leader, slot)
        follow = steer.WeightedBlend(
            (steer.FollowLeader(self.leader, distance=70.0), 1.0),
            (steer.Separation(30.0, among=self.squad), 2.0),
        )
        if self.mode == "follow_leader":
            return follow
        cone = steer.EvadeSightCone(self.leader, length=SIGHT_LENGTH, half_angle=SIGHT_HALF_ANGLE)
        # Silent most of the time, so first; the always-on follow last.
        return steer.PriorityBlend(cone, follow)

    def draw_under(self) -> None:
        draw_path(self.route)
        if self.mode == "evade_sight_cone":
            x, y = self.leader.position
            hx, hy = self.leader_agent.heading
            heading, half = math.atan2(hy, hx), math.radians(SIGHT_HALF_ANGLE)
            arc = np.linspace(heading - half, heading + half, 16)
            cone = [(x, y)] + [
                (x + SIGHT_LENGTH * math.cos(a), y + SIGHT_LENGTH * math.sin(a)) for a in arc
            ]
            arcade.draw_polygon_filled(cone, CONE_FILL)

    def on_click(self, x: float, y: float, button: int) -> None:
        # Behaviours can be swapped at run time; the squad's trees do not change.
        self.leader_agent.behavior = steer.Arrive((x, y))


MODES = LeaderScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = LeaderScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(LeaderScene, argv)


if __name__ == "__main__":
    sys.exit(main())
