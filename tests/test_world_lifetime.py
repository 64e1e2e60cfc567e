"""A world's identity and lifetime: snapshots know their world, removed shapes are freed, a
sprite is steered by one world at a time, snapshots refuse pickling with advice."""

from __future__ import annotations

import copy
import gc
import pickle
import tracemalloc
import weakref

import pymunk
import pytest
from conftest import short_and_long

import arcade_steering as steer
from arcade_steering.testing import StubSprite


def _level(world: steer.SteeringWorld) -> list[StubSprite]:
    world.add_wall((-200, -100), (200, -100))
    sprites = [StubSprite(10 * i, 0) for i in range(3)]
    for sprite in sprites:
        world.attach(sprite, steer.Seek((100, 50)))
    return sprites


def _state(world: steer.SteeringWorld) -> tuple:
    shapes = tuple(world.space.shapes)
    return shapes, [(agent.sprite, agent.position, agent.velocity) for agent in world.agents]


# -- a snapshot knows its world, even at a reused address --------------------------------------


def test_a_snapshot_of_a_dropped_world_is_refused_by_a_new_world_at_its_address() -> None:
    old = steer.SteeringWorld(seed=1)
    _level(old)
    snapshot = old.snapshot()
    address = id(old)
    del old
    gc.collect()
    kept = []  # new worlds until CPython places one where the old world was
    for _ in range(100_000):
        world = steer.SteeringWorld.__new__(steer.SteeringWorld)
        if id(world) == address:
            break
        kept.append(world)
    else:
        pytest.skip("CPython placed no new world at the old address")
    world.__init__(seed=2)
    _level(world)
    for _ in range(3):
        world.update(1 / 60)
    before = _state(world)
    with pytest.raises(ValueError, match="another world"):
        world.restore(snapshot)
    assert _state(world) == before


def test_worlds_get_numbers_no_other_world_had() -> None:
    numbers = set()
    for _ in range(50):
        world = steer.SteeringWorld()
        numbers.add(world.snapshot().world_id)
        del world
    assert len(numbers) == 50


# -- removed walls and obstacles are freed ------------------------------------------------------


def _growth(cycle, rounds: int) -> int:
    """Bytes still allocated after ``rounds`` more calls of ``cycle``, past a warm-up."""
    for _ in range(50):
        cycle()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            cycle()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_adding_and_removing_obstacles_keeps_memory_flat() -> None:
    world = steer.SteeringWorld()
    _level(world)

    def cycle() -> None:
        world.remove_shape(world.add_obstacle((50, 50), 10))

    assert _growth(cycle, 2000) < 50_000


@short_and_long("rounds", 200, 1000)
def test_rollbacks_that_remove_shapes_keep_memory_flat(rounds: int) -> None:
    world = steer.SteeringWorld(seed=3)
    sprites = _level(world)
    world.update(1 / 60)
    snapshot = world.snapshot()

    def cycle() -> None:
        world.add_obstacle((30, 30), 8)
        world.add_wall((0, 80), (60, 80))
        world.update(1 / 60)
        world.restore(snapshot)

    # About 16 kB is allocated once whatever the rounds; a kept shape is hundreds of bytes.
    assert _growth(cycle, rounds) < 20_000 + 30 * rounds
    assert len(world.space.shapes) == 1 and len(world) == len(sprites)


class CountingSpace(pymunk.Space):
    """A space that counts its steps."""

    steps = 0

    def step(self, dt: float) -> None:
        self.steps += 1
        super().step(dt)


def test_the_world_never_steps_a_space_it_was_given() -> None:
    space = CountingSpace()
    body = pymunk.Body(1, 10)
    body.velocity = (100, 0)
    space.add(body, pymunk.Circle(body, 5))
    world = steer.SteeringWorld(space=space)
    _level(world)
    snapshot = world.snapshot()
    world.remove_shape(world.add_obstacle((0, 0), 5))
    world.add_obstacle((40, 0), 5)
    world.restore(snapshot)
    assert space.steps == 0 and body.position == (0, 0)


def test_freeing_removed_shapes_moves_no_body_of_the_worlds_own_space() -> None:
    world = steer.SteeringWorld()
    body = pymunk.Body(1, 10)
    body.position = (5, 5)
    body.velocity = (100, -40)
    world.space.add(body, pymunk.Circle(body, 5))
    for _ in range(10):
        world.remove_shape(world.add_obstacle((0, 0), 5))
    assert body.position == (5, 5) and body.velocity == (100, -40)


# -- a sprite is steered by one world at a time ----------------------------------------------------


def test_a_sprite_attached_to_another_world_is_refused_and_nothing_changes() -> None:
    first, second = steer.SteeringWorld(), steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    first.attach(sprite, steer.Seek((100, 0)))
    with pytest.raises(ValueError, match="attached to another SteeringWorld: detach it there"):
        second.attach(sprite, steer.Seek((0, 100)))
    assert sprite not in second and len(second) == 0
    first.detach(sprite)
    second.attach(sprite, steer.Seek((0, 100)))  # free again
    assert sprite in second


def test_a_sprite_of_a_dropped_world_can_join_another() -> None:
    sprite, other = StubSprite(0, 0), StubSprite(5, 5)
    first = steer.SteeringWorld()
    first.attach(sprite, steer.Seek((100, 0)))
    kept = first.attach(other, steer.Seek((100, 0)))  # the game keeps an agent of that world
    del first
    gc.collect()
    second = steer.SteeringWorld()
    second.attach(sprite, steer.Seek((0, 100)))
    second.attach(other, steer.Seek((0, 100)))
    assert len(second) == 2 and kept.sprite is other


def test_a_sprite_that_died_frees_its_id_for_another_world() -> None:
    first, second = steer.SteeringWorld(), steer.SteeringWorld()
    for _ in range(200):  # ids of dead sprites come back: none of them is refused
        first.attach(StubSprite(0, 0), steer.Seek((1, 0)))
        second.attach(StubSprite(0, 0), steer.Seek((1, 0)))
    gc.collect()
    assert len(first) == 0 and len(second) == 0


def test_restore_refuses_to_attach_again_a_sprite_another_world_took() -> None:
    first, second = steer.SteeringWorld(), steer.SteeringWorld()
    sprite, stays = StubSprite(0, 0), StubSprite(9, 9)
    first.attach(sprite, steer.Seek((100, 0)))
    first.attach(stays, steer.Seek((100, 0)))
    snapshot = first.snapshot()
    first.detach(sprite)
    first.add_obstacle((50, 50), 5)
    second.attach(sprite, steer.Seek((0, 100)))
    before = _state(first)
    with pytest.raises(ValueError, match="another SteeringWorld"):
        first.restore(snapshot)
    assert _state(first) == before and sprite in second
    second.detach(sprite)
    first.restore(snapshot)  # free again: it comes back
    assert sprite in first and len(first.space.shapes) == 0


def test_restore_detaching_a_sprite_lets_another_world_take_it() -> None:
    first, second = steer.SteeringWorld(), steer.SteeringWorld()
    empty = first.snapshot()
    sprite = StubSprite(0, 0)
    first.attach(sprite, steer.Seek((100, 0)))
    first.restore(empty)  # attached since the snapshot: detached again
    second.attach(sprite, steer.Seek((0, 100)))
    with pytest.raises(ValueError, match="another SteeringWorld"):
        first.attach(sprite, steer.Seek((100, 0)))


# -- snapshots can't be pickled, and say what to use ---------------------------------------------


def test_pickling_a_snapshot_says_to_use_save_files() -> None:
    world = steer.SteeringWorld()
    _level(world)
    snapshot = world.snapshot()
    with pytest.raises(TypeError, match=r"can't be pickled.*steer\.save_world"):
        pickle.dumps(snapshot)
    assert copy.copy(snapshot) is snapshot and copy.deepcopy(snapshot) is snapshot


def test_a_snapshot_kept_does_not_keep_its_dropped_worlds_agents_alive() -> None:
    world = steer.SteeringWorld()
    sprites = _level(world)
    snapshot = world.snapshot()
    table = weakref.ref(world._agents)
    del world
    gc.collect()
    assert table() is None and len(snapshot.agents.order) == len(sprites)
