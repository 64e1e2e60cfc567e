"""A few plain sprites, exchanged one by one, end each update as the bulk exchange leaves them."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering._arcade.few_sprites import FEW, moved_since, write_each
from arcade_steering._core import sync


def _scene(hashed: bool) -> tuple[steer.SteeringWorld, list[arcade.SpriteList], list]:
    """Walkers, a standing agent, one that does not rotate, a sprite in two lists, walls."""
    world = steer.SteeringWorld(seed=4)
    world.add_wall((150.0, -200.0), (150.0, 200.0), thickness=6.0)
    world.add_obstacle((60.0, 40.0), 15.0)
    squad = arcade.SpriteList(use_spatial_hash=hashed)
    everyone = arcade.SpriteList()
    rng = np.random.default_rng(2)
    sprites = []
    for index in range(12):
        x, y = rng.uniform(-120.0, 100.0, 2)
        sprite = arcade.SpriteSolidColor(10, 8, center_x=float(x), center_y=float(y))
        squad.append(sprite)
        if index % 3 == 0:
            everyone.append(sprite)
        sprites.append(sprite)
    tree = steer.PriorityBlend(
        steer.AvoidWalls(),
        steer.AvoidObstacles(),
        steer.WeightedBlend((steer.Seek((400.0, 30.0)), 1.0), (steer.Separation(30.0), 1.5)),
    )
    for index, sprite in enumerate(sprites[:-2]):
        world.attach(sprite, tree, max_speed=90.0, rotate=index != 4)
    world.attach(sprites[-2], steer.Seek(sprites[-2].position), max_speed=90.0)  # stands
    world.attach(sprites[-1], steer.Wander(), max_speed=60.0)
    return world, [squad, everyone], sprites


def _game(step: int, lists: list[arcade.SpriteList], sprites: list) -> None:
    """What a game does between updates."""
    if step == 5:
        sprites[2].position = (-150.0, 90.0)
    if step == 9:
        sprites[7].center_x += 25.0
        sprites[4].angle = 45.0  # it does not rotate: the game's angle stays
    if step == 14:
        lists[1].append(sprites[8])
    if step == 18:
        lists[0].remove(sprites[3])


def _state(lists: list[arcade.SpriteList], sprites: list) -> list:
    """Each sprite, its hit box, every list's buffer, and who the squad's hash finds where."""
    held = [
        (s._position, s._angle, tuple(map(tuple, s.hit_box.get_adjusted_points()))) for s in sprites
    ]
    found = [
        sorted(sprites.index(other) for other in arcade.get_sprites_at_point(s.position, lists[0]))
        for s in sprites
    ]
    return [*held, *[list(each._sprite_pos_angle_data) for each in lists], found]


def _run(hashed: bool, monkeypatch: pytest.MonkeyPatch, bulk: bool) -> list:
    with monkeypatch.context() as patch:
        written = []
        patch.setattr(sync, "write_each", lambda *args: written.append(1) or write_each(*args))
        if bulk:
            patch.setattr(sync, "FEW", 0)
        world, lists, sprites = _scene(hashed)
        states = []
        for step in range(30):
            _game(step, lists, sprites)
            world.update(1 / 60)
            states.append(_state(lists, sprites))
            states.append([world.agent_of(s).position for s in sprites])
        assert len(written) == (0 if bulk else 30)
        return states


def test_one_by_one_equals_bulk_bit_for_bit_with_a_spatial_hash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert _run(True, monkeypatch, bulk=False) == _run(True, monkeypatch, bulk=True)


def test_one_by_one_equals_bulk_within_a_billionth_of_a_degree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Without a hash, the bulk write may rewrite angles that turned by under 1e-9 degrees."""
    each, bulk = _run(False, monkeypatch, bulk=False), _run(False, monkeypatch, bulk=True)
    for step_each, step_bulk in zip(each, bulk, strict=True):
        np.testing.assert_allclose(_numbers(step_each), _numbers(step_bulk), rtol=0, atol=1e-9)


def _numbers(value: Any) -> list[float]:
    if isinstance(value, (int, float)):
        return [float(value)]
    return [number for each in value for number in _numbers(each)]


def test_a_sprite_the_game_set_to_the_same_place_is_read_as_moved() -> None:
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=float(i)) for i in range(3)]
    places = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
    written, _ = write_each(sprites, places, [0.0] * 3, [True] * 3, [True] * 3)
    assert moved_since(sprites, written) == []
    sprites[1].position = (30.0, 40.0)
    sprites[2].position = sprites[0].position  # another sprite's tuple: still a move
    assert moved_since(sprites, written) == [1, 2]
    assert moved_since(sprites, None) == [0, 1, 2]


def test_more_sprites_than_few_are_exchanged_in_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    world = steer.SteeringWorld(seed=0)
    sprite_list = arcade.SpriteList()
    for index in range(FEW + 1):
        sprite = arcade.SpriteSolidColor(4, 4, center_x=float(index), center_y=0.0)
        sprite_list.append(sprite)
        world.attach(sprite, steer.Seek((0.0, 500.0)), max_speed=50.0)
    calls = []
    monkeypatch.setattr(sync, "write_each", lambda *args: calls.append(args))
    world.update(1 / 60)
    assert calls == []
    assert sprite_list[0].center_y > 0.0
