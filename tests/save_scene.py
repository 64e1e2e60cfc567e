"""A game scene for the save-file tests, built the same way in any process."""

from __future__ import annotations

from typing import Any

import numpy as np

import arcade_steering as steer
from arcade_steering.testing import StubSprite


def build() -> tuple[steer.SteeringWorld, dict[str, Any]]:
    """A level with every family of component; returns the world and the game's objects by
    name (sprites, the squad, the shared path and flow field, the mouse the game moves)."""
    world = steer.SteeringWorld(seed=11)
    world.add_walls([(-300, -200), (300, -200), (300, 200), (-300, 200)], closed=True)
    world.add_wall((-100, 60), (100, 60))
    world.add_obstacle((60, -60), 18)
    patrol = steer.Path(
        [(-200, -120), (200, -120), (200, 120), (-200, 120)], radius=20, closed=True
    )
    field = steer.FlowField.towards((150, 0), world, (-300, 300, -200, 200), cell_size=40)
    mouse = StubSprite(0, 150)
    leader = StubSprite(-150, -120)
    squad: list[StubSprite] = []
    names: dict[str, Any] = {"mouse": mouse, "leader": leader, "squad": squad}
    lane = steer.Path([(-250, 150), (-190, 150)], radius=10)  # open: its followers turn back
    names |= {"patrol": patrol, "field": field, "lane": lane}
    world.attach(leader, steer.FollowPath(patrol), max_speed=90)
    shared_wander = steer.WeightedBlend((steer.Wander(20, 40, 2), 1.0), (steer.Seek((0, 0)), 0.2))
    builders = [
        lambda i: steer.PriorityBlend(
            steer.AvoidWalls(),
            steer.AvoidObstacles(),
            steer.EvadeSightCone(leader, 80, 20),
            steer.WeightedBlend(
                (steer.FollowLeader(leader, 30 + i), 1.0),
                (steer.Separation(30, among=squad), 1.5),
                (steer.Wander(20, 40, 2 + i * 0.1), 0.2),
            ),
        ),
        lambda i: steer.OffsetPursuit(leader, (-30, 10 * i)),
        lambda i: steer.PriorityBlend(steer.AvoidAgents(horizon=0.8), steer.Arrive((i * 9, 0))),
        lambda i: steer.WeightedBlend(
            (steer.Pursue(mouse), 1.0), (steer.Cohesion(60), 0.5), (steer.Alignment(60), 0.5)
        ),
        lambda i: steer.FollowWaypoints([(-50, -50), (50, -50), (50, 30)], mode="pingpong"),
        lambda i: steer.PriorityBlend(steer.Evade(leader, 90), steer.FollowFlowField(field)),
        lambda i: steer.WeightedBlend(
            (steer.Arrive((-7 * i, 30)), 1.0), (steer.Scan(40, 2.0), 1.0), (steer.Face(mouse), 0.5)
        ),
        lambda i: shared_wander,
        lambda i: steer.FollowPath(patrol, at_end="reverse"),
        lambda i: steer.FollowPath(lane, at_end="reverse"),
    ]
    for i in range(30):
        sprite = StubSprite(-120 + 14 * (i % 18), -60 + (i % 5) * 20 + (i // 18) * 9)
        squad.append(sprite)
        names[f"agent-{i}"] = sprite
        world.attach(sprite, builders[i % len(builders)](i), max_speed=80 + i, max_turn_rate=200)
    return world, names


def churn(world: steer.SteeringWorld, names: dict[str, Any]) -> None:
    """What a game does in play: a shape added and one removed, an agent detached, the path
    reshaped (its version changes)."""
    world.add_obstacle((-60, 0), 30)
    world.remove_shape(world.space.shapes[1])
    world.detach(names["agent-4"])
    patrol = names["patrol"]
    patrol.points = [(x, y + 5) for x, y in patrol.points]


def play(world: steer.SteeringWorld, names: dict[str, Any], start: int, frames: int) -> np.ndarray:
    """Run ``frames`` updates from frame ``start`` (the game moves its mouse); every agent's
    position, velocity and angle after each, in attach order."""
    mouse = names["mouse"]
    dts = [1 / 60, 1 / 60, 1 / 25, 1 / 60, 1 / 144, 1 / 30]
    out = []
    for frame in range(start, start + frames):
        mouse.position = (np.cos(frame * 0.1) * 120, 150 - frame * 0.3)
        world.update(dts[frame % len(dts)])
        out.append([(*a.position, *a.velocity, a.sprite.angle) for a in world.agents])
    return np.array(out)
