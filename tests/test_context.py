"""What components see through the context: shared neighbour queries, per-agent state."""

from __future__ import annotations

import gc
import tracemalloc
from typing import ClassVar

import numpy as np
import pytest

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
    # numpy's rules share the index's query; the native step finds these neighbours itself.
    monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
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
    slots = [agent._slot for agent in agents]
    memory = world._agents.arrays.state.read((0, "Remember", "memory"), slots)
    assert memory is not None
    assert memory.tolist() == [[4 * s, 4 * s] for s in slots]


def _memory_of_a_big_tree(crowd: int) -> int:
    """Bytes one agent with a tree of 500 Wanders (500 per-agent states) adds to a world of
    ``crowd`` wandering agents, attached and updated twice."""
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(i % 50 * 20.0, i // 50 * 20.0) for i in range(crowd)]
    for sprite in sprites:
        world.attach(sprite, steer.Wander())
    world.update(1 / 60)
    tree = steer.WeightedBlend(*[(steer.Wander(), 1.0) for _ in range(500)])
    odd = StubSprite(-50.0, -50.0)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        world.attach(odd, tree)
        world.update(1 / 60)
        world.update(1 / 60)
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_per_agent_state_is_sized_by_the_agents_that_use_it() -> None:
    # Each state used to be an array over every slot of the world: 500 of them cost the one
    # agent 1.6 MB beside 100 agents and 9.6 MB beside 2,000.
    beside_few, beside_many = _memory_of_a_big_tree(100), _memory_of_a_big_tree(2000)
    assert beside_many - beside_few < 1_000_000, (beside_few, beside_many)
    assert beside_many < 3_000_000


class _NeighbourProbe(steer.Separation):
    """Records which agents each agent sees through ``neighbors_among``."""

    seen: ClassVar[dict[int, set[int]]] = {}

    def steer(self, ctx):
        params = ctx.params(self)
        pairs = ctx.neighbors(params.radius, params.among)
        for asker, other in zip(ctx.slots[pairs.query].tolist(), pairs.other.tolist(), strict=True):
            _NeighbourProbe.seen.setdefault(asker, set()).add(other)
        return np.zeros((len(ctx), 2))


def _update_and_check_neighbours(world, asks: dict, radius: float) -> None:
    """Update once: every agent must have seen exactly the agents within ``radius`` of the
    group it asks about (``asks``: its sprite's id -> a list of sprites, None for all)."""
    _NeighbourProbe.seen = {}
    world.update(1 / 60)
    slot_of = {id(agent.sprite): agent._slot for agent in world.agents}
    everyone = [agent.sprite for agent in world.agents]
    for agent in world.agents:
        sprite, group = agent.sprite, asks[id(agent.sprite)]
        expected = {
            slot_of[id(other)]
            for other in (everyone if group is None else group)
            if other is not sprite
            and id(other) in slot_of
            and np.hypot(other.center_x - sprite.center_x, other.center_y - sprite.center_y)
            <= radius
        }
        assert _NeighbourProbe.seen.get(slot_of[id(sprite)], set()) == expected


def _seen_by_sprite(groups_of_asker, overlapping: bool) -> None:
    rng = np.random.default_rng(4)
    sprites = [StubSprite(x, y) for x, y in rng.uniform(0, 100, (40, 2))]
    squads = [sprites[:15], sprites[15:30], sprites[30:]]
    if overlapping:
        squads[1] = [*squads[1], sprites[0], sprites[31]]  # two agents in two groups
    world = steer.SteeringWorld(seed=0)
    asked = {}
    for index, sprite in enumerate(sprites):
        group = groups_of_asker(index, squads)
        asked[id(sprite)] = group
        world.attach(sprite, _NeighbourProbe(35.0, among=group))
    _update_and_check_neighbours(world, asked, 35.0)


def test_each_agent_sees_only_its_own_squad() -> None:
    _seen_by_sprite(lambda index, squads: squads[index % 3], overlapping=False)


def test_squads_sharing_members_or_asking_everyone_see_the_right_neighbours() -> None:
    _seen_by_sprite(lambda index, squads: None if index % 4 == 0 else squads[index % 3], True)
    _seen_by_sprite(lambda index, squads: squads[index % 3], overlapping=True)


def test_squads_whose_members_change_between_updates_see_their_current_squad() -> None:
    rng = np.random.default_rng(5)
    sprites = [StubSprite(x, y) for x, y in rng.uniform(0, 100, (30, 2))]
    squads = [sprites[:10], sprites[10:20], sprites[20:]]
    world = steer.SteeringWorld(seed=0)
    for index, sprite in enumerate(sprites):
        world.attach(sprite, _NeighbourProbe(35.0, among=squads[index // 10]))
    asks = {id(sprite): squads[index // 10] for index, sprite in enumerate(sprites)}

    def assert_each_sees_its_squad() -> None:
        _update_and_check_neighbours(world, asks, 35.0)

    assert_each_sees_its_squad()
    assert_each_sees_its_squad()  # nothing changed
    squads[0][3], squads[1][3] = squads[1][3], squads[0][3]  # a swap: the same sizes
    assert_each_sees_its_squad()
    squads[2].append(squads[0].pop())  # one changes squads
    assert_each_sees_its_squad()
    newcomer = StubSprite(50.0, 50.0)
    squads[1].append(newcomer)  # a sprite that is no agent joins
    assert_each_sees_its_squad()
    asks[id(newcomer)] = squads[1]
    world.attach(newcomer, _NeighbourProbe(35.0, among=squads[1]))  # and becomes one
    assert_each_sees_its_squad()


@pytest.mark.parametrize("seed", range(60))
def test_random_among_groups_see_exactly_their_group(seed: int) -> None:
    # Groups empty or not, overlapping, holding sprites that are no agents, or None (all).
    rng = np.random.default_rng(seed)
    sprites = [StubSprite(x, y) for x, y in rng.uniform(0, 60, (int(rng.integers(1, 25)), 2))]
    strangers = [StubSprite(x, y) for x, y in rng.uniform(0, 60, (3, 2))]
    pool = sprites + strangers

    def draw_group() -> list[StubSprite]:
        kind = int(rng.integers(3))
        if kind == 0:  # every agent: with groups of strangers only, nobody is ungrouped
            return list(sprites)
        source = strangers if kind == 1 else pool
        return [source[i] for i in rng.permutation(len(source))[: rng.integers(len(source) + 1)]]

    groups = [draw_group() for _ in range(int(rng.integers(1, 5)))]
    choices = [*groups, None] if rng.random() < 0.3 else groups
    world = steer.SteeringWorld(seed=0)
    asks = {}
    for sprite in sprites:
        asks[id(sprite)] = choices[int(rng.integers(len(choices)))]
        world.attach(sprite, _NeighbourProbe(25.0, among=asks[id(sprite)]))
    _update_and_check_neighbours(world, asks, 25.0)


class _TargetProbe(steer.Seek):
    """Records what its agent sees of its target."""

    seen: ClassVar[list[tuple[tuple[float, float], tuple[float, float]]]] = []

    def steer(self, ctx):
        position, velocity = ctx.target()[0], ctx.target_velocity()[0]
        _TargetProbe.seen.append((tuple(position.tolist()), tuple(velocity.tolist())))
        return np.zeros((len(ctx), 2))


def test_a_target_attached_and_detached_later_is_read_from_where_it_now_lives() -> None:
    world = steer.SteeringWorld(seed=0, max_step=1.0)
    quarry, hunter = StubSprite(0.0, 0.0), StubSprite(-100.0, 0.0)
    world.attach(hunter, _TargetProbe(quarry))
    _TargetProbe.seen = []

    def seen_after_update() -> tuple[tuple[float, float], tuple[float, float]]:
        world.update(0.5)
        return _TargetProbe.seen[-1]

    quarry.position = (10.0, 0.0)  # the game moves it: 20 px/s, as the world estimates
    seen_after_update()
    quarry.position = (20.0, 0.0)
    assert seen_after_update() == ((20.0, 0.0), (20.0, 0.0))

    agent = world.attach(quarry, steer.Seek((1000.0, 0.0)), max_speed=50.0, max_force=1e4)
    world.update(0.5)  # the quarry gets going
    expected = (tuple(agent.position), tuple(agent.velocity))
    assert seen_after_update() == expected  # the world's own state, not an estimate

    world.detach(quarry)
    quarry.position = (quarry.position[0] + 30.0, 0.0)
    seen_after_update()
    quarry.position = (quarry.position[0] + 30.0, 0.0)
    assert seen_after_update() == ((quarry.position[0], 0.0), (60.0, 0.0))
