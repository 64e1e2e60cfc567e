"""Real arcade sprites in a SpriteList, headless: the world moves and turns them."""

from __future__ import annotations

import math
import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import pytest

import arcade_steering as steer


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
