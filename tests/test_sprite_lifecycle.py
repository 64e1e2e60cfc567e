"""Sprites that go away: the world holds them weakly and forgets the ones a game drops."""

from __future__ import annotations

import gc
import weakref

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60


def test_the_world_does_not_keep_a_dropped_sprite_alive(world) -> None:
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((100, 0)))
    ref = weakref.ref(sprite)
    del sprite
    gc.collect()
    assert ref() is None


def test_a_collected_sprite_is_detached_and_the_others_carry_on(world) -> None:
    kept, dropped = StubSprite(0, 0), StubSprite(0, 50)
    world.attach(kept, steer.Seek((100, 0)))
    world.attach(dropped, steer.Separation(30))
    world.update(DT)
    del dropped
    gc.collect()
    world.update(DT)
    assert len(world) == 1
    assert [agent.sprite for agent in world.agents] == [kept]
    for _ in range(30):
        world.update(DT)
    assert kept.center_x > 10.0
    assert np.isfinite(kept.position).all()


def test_holding_the_agent_keeps_its_sprite_attached(world) -> None:
    agent = world.attach(StubSprite(0, 0), steer.Seek((100, 0)))
    gc.collect()
    for _ in range(10):
        world.update(DT)
    assert len(world) == 1
    assert agent.position[0] > 0.0


def test_a_new_object_reusing_a_dead_sprites_id_is_not_mistaken_for_it(world) -> None:
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((100, 0)))
    dead_id = id(sprite)
    del sprite  # freed at once; CPython hands its memory to the next object of that size
    reused, spares = None, []
    for _ in range(1000):
        candidate = object.__new__(StubSprite)
        if id(candidate) == dead_id:
            reused = candidate
            break
        spares.append(candidate)
    if reused is not None:
        reused.__init__(5, 5)
    if reused is None:
        pytest.skip("the allocator did not reuse the id")
    assert reused not in world
    with pytest.raises(KeyError):
        world.agent_of(reused)
    agent = world.attach(reused, steer.Seek((-100, 5)))  # not "already attached"
    assert world.agent_of(reused) is agent
    assert len(world) == 1


def test_removing_a_sprite_from_its_sprite_lists_does_not_break_the_update(world) -> None:
    sprites = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(8, arcade.color.WHITE, name="lifecycle")
    enemies = [arcade.Sprite(texture, center_x=10.0 * i, center_y=0.0) for i in range(3)]
    sprites.extend(enemies)
    for enemy in enemies:
        world.attach(enemy, steer.Seek((500, 0)), max_speed=100)
    world.update(DT)
    gone = enemies[1]
    gone.remove_from_sprite_lists()
    start = gone.center_x
    for _ in range(10):  # the game still holds it: it keeps being steered
        world.update(DT)
    assert len(world) == 3 and gone.center_x > start
    assert sprites[0] is enemies[0] and len(sprites) == 2
    del enemies[1], gone
    gc.collect()
    world.update(DT)
    assert len(world) == 2
    assert [sprite.center_x > start for sprite, start in zip(sprites, (0, 20), strict=True)] == [
        True,
        True,
    ]


def test_a_sprite_that_cannot_be_weakly_referenced_is_held(world) -> None:
    class Slotted:
        __slots__ = ("angle", "height", "position", "width")

        def __init__(self) -> None:
            self.position, self.angle, self.width, self.height = (0.0, 0.0), 0.0, 8, 8

    world.attach(Slotted(), steer.Seek((100, 0)))
    gc.collect()
    world.update(DT)
    assert len(world) == 1
    assert world.agents[0].sprite.position[0] > 0.0


def test_a_dropped_sprite_list_and_its_sprites_are_not_kept_alive(world) -> None:
    kept = arcade.SpriteSolidColor(8, 8, 0.0, 0.0)
    kept_list = arcade.SpriteList()
    kept_list.append(kept)
    world.attach(kept, steer.Seek((100.0, 0.0)))
    squad = arcade.SpriteList()
    for index in range(5):
        sprite = arcade.SpriteSolidColor(8, 8, 10.0 * index, 40.0)
        squad.append(sprite)
        world.attach(sprite, steer.Seek((100.0, 100.0)))
    world.update(DT)  # the world has now seen both lists
    squad_ref = weakref.ref(squad)
    del squad, sprite
    gc.collect()
    assert squad_ref() is None
    world.update(DT)
    assert [agent.sprite for agent in world.agents] == [kept]
