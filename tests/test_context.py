"""What components see through the context: shared neighbour queries, per-agent state."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer
from arcade_steering.neighbors import NeighborIndex
from arcade_steering.testing import StubSprite


def test_flocking_rules_with_one_radius_share_one_neighbour_query(monkeypatch) -> None:
    calls = []
    original = NeighborIndex.query

    def counting(self, *args, **kwargs):
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(NeighborIndex, "query", counting)
    world = steer.SteeringWorld(seed=0)
    flock = steer.WeightedBlend(
        (steer.Separation(40), 1.5), (steer.Alignment(40), 1.0), (steer.Cohesion(40), 1.0)
    )
    sprites = [StubSprite(x, y) for x, y in np.random.default_rng(0).uniform(0, 200, (30, 2))]
    for sprite in sprites:
        world.attach(sprite, flock)
    world.update(1 / 60)
    assert len(calls) == 1


def test_state_of_vectors_round_trips_per_agent() -> None:
    class Remember(steer.SteeringComponent):
        def steer(self, ctx):
            memory = ctx.state("memory", fill=0.0, shape=(2,))
            ctx.set_state("memory", memory + ctx.slots[:, None])
            return np.zeros((len(ctx), 2))

    world = steer.SteeringWorld()
    remember = Remember()
    sprites = [StubSprite(i, 0) for i in range(3)]
    agents = [world.attach(sprite, remember) for sprite in sprites]
    for _ in range(4):
        world.update(1 / 60)
    store = world._states.array((0, "Remember", "memory"), 0.0, (2,))
    slots = [agent._slot for agent in agents]
    assert store[slots].tolist() == [[4 * s, 4 * s] for s in slots]
