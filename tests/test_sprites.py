"""Real arcade sprites in a SpriteList, headless: the world moves and turns them."""

from __future__ import annotations

import math
import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import pytest

import arcade_steering as steer


@pytest.mark.usefixtures("exchange")
def test_arcade_sprites_in_a_sprite_list_move_and_turn() -> None:
    sprites = arcade.SpriteList(use_spatial_hash=True)
    seeker = arcade.SpriteSolidColor(16, 16, center_x=0, center_y=0, color=arcade.color.RED)
    climber = arcade.SpriteSolidColor(20, 10, center_x=300, center_y=0, color=arcade.color.BLUE)
    ship = arcade.Sprite(":resources:images/space_shooter/playerShip1_orange.png")
    ship.position = (-100, -100)
    for sprite in (seeker, climber, ship):
        sprites.append(sprite)

    world = steer.SteeringWorld(seed=0)
    seeker_agent = world.attach(seeker, steer.Arrive((200, 0)), max_speed=150)
    world.attach(climber, steer.Arrive((300, 250)), max_speed=150)
    ship_agent = world.attach(ship, steer.Seek((-100, 1000)), max_speed=100, facing="up")
    assert ship_agent.radius == pytest.approx(min(ship.width, ship.height) / 2)

    for _ in range(30):
        world.update(1 / 60)
    # Half-way: moving, turned to face where they go, in arcade's clockwise degrees.
    assert 5 < seeker.center_x < 200 and seeker.center_y == 0
    assert seeker.angle == pytest.approx(0.0, abs=1e-6)
    assert climber.angle == pytest.approx(-90.0, abs=1e-6)  # art faces right, going up
    assert ship.angle == pytest.approx(0.0, abs=1e-6)  # art faces up, going up
    assert ship.center_y > -90
    # The world writes positions, never arcade's per-frame velocity.
    assert seeker.change_x == 0 and seeker.change_y == 0

    for _ in range(240):
        world.update(1 / 60)
    assert math.dist(seeker.position, (200, 0)) <= 2.05
    assert math.dist(climber.position, (300, 250)) <= 2.05
    assert seeker_agent.speed < 0.05
    assert seeker.angle == pytest.approx(0.0, abs=1e-6)  # stopped: keeps its heading

    # The list sees the new positions (its spatial hash was told).
    assert arcade.get_sprites_at_point(seeker.position, sprites) == [seeker]
    assert arcade.get_sprites_at_point((0, 0), sprites) == []
    assert [s.position for s in sprites][:2] == [seeker.position, climber.position]

    # A teleport by the game is honoured.
    seeker.position = (0, -300)
    world.update(1 / 60)
    assert seeker.center_y == pytest.approx(-300, abs=1)
    assert arcade.get_sprites_at_point(seeker.position, sprites) == [seeker]

    world.detach(ship)
    where = ship.position
    world.update(1 / 60)
    assert ship.position == where


class _CountingSetter(arcade.SpriteSolidColor):
    """A sprite with a position setter of its own, which counts its calls."""

    writes = 0

    @arcade.SpriteSolidColor.position.setter
    def position(self, value) -> None:
        type(self).writes += 1
        arcade.SpriteSolidColor.position.fset(self, value)


class _CountingHash(arcade.SpriteSolidColor):
    """A plain sprite that counts its spatial hash updates."""

    hash_updates = 0

    def update_spatial_hash(self) -> None:
        type(self).hash_updates += 1
        super().update_spatial_hash()


def _walkers_and_one_standing(standing: arcade.Sprite, hashed: bool):
    sprites = arcade.SpriteList(use_spatial_hash=hashed)
    world = steer.SteeringWorld(seed=0)
    for index in range(20):
        walker = arcade.SpriteSolidColor(8, 8, center_x=0.0, center_y=20.0 * index)
        sprites.append(walker)
        world.attach(walker, steer.Seek((5000.0, 20.0 * index)), max_speed=100.0)
    sprites.append(standing)
    world.attach(standing, steer.Seek(standing.position), max_speed=100.0)
    world.update(1 / 60)
    return world, sprites


@pytest.mark.usefixtures("exchange")
def test_a_standing_sprite_among_walkers_is_not_written_through_its_own_setter() -> None:
    standing = _CountingSetter(8, 8, center_x=-50.0, center_y=-50.0)
    world, sprites = _walkers_and_one_standing(standing, hashed=False)
    _CountingSetter.writes = 0
    for _ in range(5):
        world.update(1 / 60)
    assert _CountingSetter.writes == 0
    assert standing.position == (-50.0, -50.0)
    assert sprites[0].center_x > 1.0


@pytest.mark.usefixtures("exchange")
def test_a_standing_sprite_among_walkers_keeps_its_spatial_hash_entry_untouched() -> None:
    standing = _CountingHash(8, 8, center_x=-50.0, center_y=-50.0)
    world, sprites = _walkers_and_one_standing(standing, hashed=True)
    _CountingHash.hash_updates = 0
    for _ in range(5):
        world.update(1 / 60)
    assert _CountingHash.hash_updates == 0
    assert arcade.get_sprites_at_point((-50.0, -50.0), sprites) == [standing]
    walker = sprites[3]
    assert arcade.get_sprites_at_point(walker.position, sprites) == [walker]


@pytest.mark.usefixtures("exchange")
def test_plain_sprites_standing_among_walkers_keep_their_place_and_buffers_right() -> None:
    standing = arcade.SpriteSolidColor(8, 8, center_x=-50.0, center_y=-50.0)
    standing.angle = 30.0
    world, sprites = _walkers_and_one_standing(standing, hashed=False)
    for _ in range(5):
        world.update(1 / 60)
    assert standing.position == (-50.0, -50.0)
    assert standing.angle == pytest.approx(30.0)
    buffer = [tuple(x) for x in zip(*[iter(sprites._sprite_pos_angle_data)] * 4, strict=False)]
    for sprite in sprites:
        x, y, _, angle = buffer[sprites.sprite_slot[sprite]]
        assert (x, y) == pytest.approx(sprite.position, abs=1e-3)
        assert angle == pytest.approx(sprite.angle, abs=1e-3)
        assert world.agent_of(sprite).position == pytest.approx(sprite.position)
