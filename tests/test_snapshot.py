"""World snapshots: restoring one and updating gives the same bits as the first time."""

from __future__ import annotations

import gc

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DTS = [1 / 60, 1 / 60, 1 / 25, 1 / 60, 1 / 144, 1 / 30]


def _world() -> tuple[steer.SteeringWorld, list[StubSprite], dict]:
    """Every family of component, walls and obstacles, a moving target the game moves."""
    world = steer.SteeringWorld(seed=11)
    world.add_walls([(-300, -200), (300, -200), (300, 200), (-300, 200)], closed=True)
    world.add_wall((-100, 60), (100, 60))
    obstacle = world.add_obstacle((60, -60), 18)
    path = steer.Path([(-200, -120), (200, -120), (200, 120), (-200, 120)], radius=20, closed=True)
    field = steer.FlowField.towards((150, 0), world, (-300, 300, -200, 200), cell_size=40)
    mouse = StubSprite(0, 150)  # moved by the game, not attached: its velocity is estimated
    leader = StubSprite(-150, -120)
    sprites = [leader]
    squad: list[StubSprite] = []
    world.attach(leader, steer.FollowPath(path), max_speed=90)
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
    ]
    for i in range(18):
        sprite = StubSprite(-120 + 14 * i, -60 + (i % 5) * 20)
        squad.append(sprite)
        sprites.append(sprite)
        world.attach(sprite, builders[i % len(builders)](i), max_speed=80 + i, max_turn_rate=200)
    return world, sprites, {"mouse": mouse, "obstacle": obstacle, "squad": squad}


def _run(world: steer.SteeringWorld, sprites: list, mouse: StubSprite, frames: int) -> np.ndarray:
    out = []
    for frame in range(frames):
        mouse.position = (np.cos(frame * 0.1) * 120, 150 - frame)  # the game moves it
        world.update(DTS[frame % len(DTS)])
        out.append([(*sprite.position, sprite.angle) for sprite in sprites])
    return np.array(out)


def test_restore_then_update_gives_the_same_bits_despite_churn() -> None:
    world, sprites, extra = _world()
    mouse = extra["mouse"]
    _run(world, sprites, mouse, 40)
    mouse_at = mouse.position
    snapshot = world.snapshot()
    first = _run(world, sprites, mouse, 50)
    # Churn: agents attached and detached, walls and obstacles added and removed.
    newcomer = StubSprite(10, 10)
    world.attach(newcomer, steer.Seek((100, 100)))
    world.detach(sprites[4])
    world.remove_shape(extra["obstacle"])
    world.add_obstacle((-60, 0), 30)
    world.add_wall((0, -150), (0, -100))
    _run(world, sprites[:4] + sprites[5:], mouse, 20)
    for attempt in range(2):  # a snapshot can be restored again and again
        mouse.position = mouse_at
        world.restore(snapshot)
        assert newcomer not in world and sprites[4] in world
        again = _run(world, sprites, mouse, 50)
        np.testing.assert_array_equal(again, first, err_msg=f"restore {attempt}")


def test_restore_moves_the_sprites_back_and_revives_the_right_views() -> None:
    world = steer.SteeringWorld(seed=0)
    kept, dropped = StubSprite(0, 0), StubSprite(50, 0)
    kept_agent = world.attach(kept, steer.Seek((300, 0)))
    dropped_agent = world.attach(dropped, steer.Seek((300, 0)))
    snapshot = world.snapshot()
    for _ in range(30):
        world.update(1 / 60)
    world.detach(dropped)
    later = world.attach(StubSprite(9, 9), steer.Seek((0, 0)))  # may take the freed slot
    world.restore(snapshot)
    assert kept.position == (0.0, 0.0) and dropped.position == (50.0, 0.0)
    assert kept_agent.velocity == (0.0, 0.0)
    assert dropped_agent.position == (50.0, 0.0)  # detached after the snapshot: back again
    with pytest.raises(RuntimeError, match="detached"):
        later.velocity  # noqa: B018 - attached after the snapshot: gone again
    assert len(world) == 2


def test_a_sprite_collected_since_the_snapshot_stays_gone() -> None:
    world = steer.SteeringWorld(seed=0)
    kept = StubSprite(0, 0)
    world.attach(kept, steer.Seek((100, 0)))
    gone = StubSprite(10, 0)
    world.attach(gone, steer.Seek((100, 0)))
    snapshot = world.snapshot()
    world.detach(gone)
    del gone
    gc.collect()
    world.restore(snapshot)
    assert len(world) == 1
    world.update(1 / 60)  # and the world goes on
    assert kept.center_x > 0.0


def test_restore_refuses_what_is_no_snapshot_of_this_world() -> None:
    world, other = steer.SteeringWorld(), steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((100, 0)))
    with pytest.raises(TypeError, match="snapshot must be a WorldSnapshot"):
        world.restore({"agents": []})
    with pytest.raises(ValueError, match="another world"):
        world.restore(other.snapshot())
    assert sprite in world and len(world) == 1


def test_a_grown_world_restores_a_snapshot_from_when_it_was_small() -> None:
    world = steer.SteeringWorld(seed=0)
    first = [StubSprite(i, 0) for i in range(3)]
    for sprite in first:
        world.attach(sprite, steer.Wander())
    snapshot = world.snapshot()
    reference = _positions_after(world, first, 20)
    many = [StubSprite(i, 40) for i in range(200)]  # the columns grow past their capacity
    for sprite in many:
        world.attach(sprite, steer.Wander())
    world.restore(snapshot)
    assert len(world) == 3
    np.testing.assert_array_equal(_positions_after(world, first, 20), reference)


def _positions_after(world: steer.SteeringWorld, sprites: list, frames: int) -> np.ndarray:
    for _ in range(frames):
        world.update(1 / 60)
    return np.array([sprite.position for sprite in sprites])


def test_restore_undoes_a_new_behaviour_and_a_later_snapshot_brings_it_back() -> None:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Seek((100, 0)))
    before = world.snapshot()
    for _ in range(5):
        world.update(1 / 60)
    flee = steer.Flee((100, 0))
    agent.behavior = flee
    after, speed = world.snapshot(), agent.velocity[0]
    world.restore(before)
    assert isinstance(agent.behavior, steer.Seek)
    world.restore(after)
    assert agent.behavior is flee
    world.update(1 / 60)
    assert agent.velocity[0] < speed  # brakes to flee: the restored tree steers


def test_restore_shows_real_sprites_as_they_were_saved() -> None:
    import arcade

    world = steer.SteeringWorld(seed=0)
    sprites = arcade.SpriteList()
    for i in range(20):
        sprite = arcade.SpriteSolidColor(8, 8, center_x=10.0 * i, center_y=0.0)
        sprites.append(sprite)
        world.attach(sprite, steer.Wander(), max_speed=50, rotate=i % 2 == 0)
    for _ in range(10):
        world.update(1 / 60)
    shown = [(sprite.position, sprite.angle) for sprite in sprites]
    snapshot = world.snapshot()
    for _ in range(10):
        world.update(1 / 60)
    world.restore(snapshot)
    assert [(sprite.position, sprite.angle) for sprite in sprites] == shown
    # The lists' buffers were written too: an update sees no sprite moved by the game.
    world.update(1 / 60)
    world.restore(snapshot)
    assert [(sprite.position, sprite.angle) for sprite in sprites] == shown


def test_restore_after_the_agent_was_attached_again_with_other_options() -> None:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((0, 100)), rotate=True)
    for _ in range(5):
        world.update(1 / 60)
    saved_angle = sprite.angle
    snapshot = world.snapshot()
    world.detach(sprite)
    world.attach(sprite, steer.Seek((0, 100)), rotate=False)  # same slot, not turned by us
    world.update(1 / 60)
    sprite.angle = 45.0  # the game turns it itself
    world.restore(snapshot)
    assert sprite.angle == saved_angle  # turned by the world again, as when saved
