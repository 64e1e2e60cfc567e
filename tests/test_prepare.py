"""``SteeringWorld.prepare()`` builds ahead what the first update needs and changes nothing.

What it saves is measured by ``benchmarks/first_update.py``; here: a prepared world moves
exactly as an unprepared one, bit for bit, whatever it holds (walls, solid agents, per-agent
state, the random generator, sub-steps), and it keeps the world's rules (no call from inside
an update; game code that raises leaves the world as it was).
"""

from __future__ import annotations

from typing import Any

import pytest

import arcade_steering as steer
from arcade_steering.demo.scene import Scene
from arcade_steering.testing import StubSprite

DT = 1 / 60


def _trajectory(world: steer.SteeringWorld, sprites: list[Any], steps: list[float]) -> list:
    """Every sprite's position and angle after each update of ``steps``."""
    seen = []
    for dt in steps:
        world.update(dt)
        seen.append([(sprite.position, sprite.angle) for sprite in sprites])
    return seen


def _demo(prepare: bool) -> tuple[steer.SteeringWorld, list[Any]]:
    scene = Scene(seed=4)
    if prepare:
        scene.world.prepare()
    return scene.world, [agent.sprite for agent in scene.world.agents]


def test_a_prepared_demo_moves_as_an_unprepared_one_bit_for_bit() -> None:
    steps = [DT] * 240 + [1 / 20] * 10  # 1/20 s: sub-steps
    plain, prepared = _demo(False), _demo(True)
    assert _trajectory(*prepared, steps) == _trajectory(*plain, steps)


def _wanderers(prepare: bool) -> tuple[steer.SteeringWorld, list[Any]]:
    """Wanderers (the random generator, per-agent state) in a box, solid, pressed into it."""
    world = steer.SteeringWorld(seed=7)
    world.add_walls([(0, 0), (200, 0), (200, 200), (0, 200)], closed=True)
    world.add_obstacle((100, 100), 20)
    sprites = [StubSprite(20 + 30 * i, 40 + 20 * i) for i in range(5)]
    for sprite in sprites:
        world.attach(sprite, steer.Wander(), max_speed=150, velocity=(-120, 40), radius=6)
    if prepare:
        world.prepare()
    return world, sprites


def test_prepare_moves_nothing_and_keeps_the_random_generator() -> None:
    world, sprites = _wanderers(False)
    before = [(sprite.position, sprite.angle) for sprite in sprites]
    velocities = [agent.velocity for agent in world.agents]
    generator = world.rng.bit_generator.state
    world.prepare()
    assert [(sprite.position, sprite.angle) for sprite in sprites] == before
    assert [agent.velocity for agent in world.agents] == velocities
    assert world.rng.bit_generator.state == generator
    plain = _wanderers(False)
    assert _trajectory(world, sprites, [DT] * 120) == _trajectory(*plain, [DT] * 120)


def test_a_world_prepared_then_changed_sees_the_change() -> None:
    world, sprites = _wanderers(True)
    world.prepare()  # twice is harmless
    mover = StubSprite(300, 100)
    world.attach(mover, steer.Seek((500, 100)), max_speed=200, radius=5)
    world.add_wall((340, 0), (340, 200))  # in the way, added after prepare
    world.detach(sprites[0])
    for _ in range(120):
        world.update(DT)
    assert mover.center_x <= 340 - 5 + 1e-6  # the new wall stops the new agent
    assert len(world) == 5


def test_prepare_on_an_empty_world_does_nothing() -> None:
    world = steer.SteeringWorld()
    world.prepare()
    world.update(DT)
    assert len(world) == 0


def test_prepare_from_inside_an_update_raises() -> None:
    world = steer.SteeringWorld()
    seen: list[str] = []

    def aim() -> tuple[float, float]:
        with pytest.raises(RuntimeError, match="during the world's own update") as info:
            world.prepare()
        seen.append(str(info.value))
        return (0.0, 0.0)

    sprite = StubSprite(10, 0)  # held: the world holds sprites weakly
    world.attach(sprite, steer.Seek(aim))
    world.update(DT)
    assert len(seen) == 1 and "prepare()" in seen[0]


def test_a_target_raising_during_prepare_leaves_the_world_as_it_was() -> None:
    calls: list[int] = []

    def aim() -> tuple[float, float]:
        calls.append(1)
        if len(calls) == 1:
            raise KeyError("the game's target failed")
        return (200.0, 50.0)

    world = steer.SteeringWorld(seed=3)
    chaser, wanderer = StubSprite(0, 0), StubSprite(50, 50)
    world.attach(chaser, steer.Seek(aim), velocity=(0, -20))
    world.attach(wanderer, steer.Wander(), velocity=(30, 10))
    generator = world.rng.bit_generator.state
    with pytest.raises(KeyError, match="target failed"):
        world.prepare()
    assert chaser.position == (0, 0) and wanderer.position == (50, 50)
    assert world.rng.bit_generator.state == generator
    world.update(DT)  # the world works on
    assert chaser.position != (0, 0)
