"""SteeringWorld(physics=engine): agents an arcade.PymunkPhysicsEngine owns are steered through
their bodies, with a real engine: they arrive, push and are stopped by boxes and walls, face
their heading through the engine's resync, and stay finite."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60
MOMENT_INF = arcade.PymunkPhysicsEngine.MOMENT_INF


def max_overlap(closing_speed: float, acceleration: float) -> float:
    """How deep a driven body may sink into what it runs into, px: not deeply.

    pymunk moves bodies before it solves contacts, so a body meeting a wall sinks in up to one
    step of its closing speed; one pressed on by steering sinks until pymunk's overlap
    correction (10 % per 1/60 s step by default, ``space.collision_bias``) cancels the push
    steering adds each step: ``10 * acceleration * dt**2``. Plus slop.
    """
    return max(closing_speed * DT, 10 * acceleration * DT**2) + 0.5


def agent_sprite(x: float, y: float, size: int = 20, angle: float = 0.0) -> arcade.Sprite:
    sprite = arcade.SpriteSolidColor(size, size, color=arcade.color.BLUE)
    sprite.position = (x, y)
    sprite.angle = angle
    return sprite


def crate(engine: arcade.PymunkPhysicsEngine, x: float, y: float, **kw) -> arcade.Sprite:
    box = arcade.SpriteSolidColor(40, 40, color=arcade.color.BROWN)
    box.position = (x, y)
    engine.add_sprite(box, **kw)
    return box


def frame(world: steer.SteeringWorld, engine: arcade.PymunkPhysicsEngine, dt: float = DT) -> None:
    """One game frame in the documented order: steer, then step the engine."""
    world.update(dt)
    engine.step(dt)


def overlap(a: pymunk.Shape, b: pymunk.Shape) -> float:
    """How deep two shapes overlap, px (0 if they don't).

    The sign of pymunk's contact distance depends on the order Chipmunk puts the two shape
    types in (a poly against a segment comes out positive), so take its size.
    """
    points = a.shapes_collide(b).points
    return max((abs(point.distance) for point in points), default=0.0)


def angle_difference(a: float, b: float) -> float:
    return (a - b + 180.0) % 360.0 - 180.0


# -- driving --------------------------------------------------------------------------------------


def test_agents_arrive_through_the_engine() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    targets = [(400.0, 300.0), (100.0, 350.0), (250.0, 50.0)]
    sprites = [agent_sprite(50.0 + 60 * i, 100.0) for i in range(3)]
    for sprite, target in zip(sprites, targets, strict=True):
        engine.add_sprite(sprite, moment_of_inertia=MOMENT_INF)
        world.attach(sprite, steer.Arrive(target), max_speed=150, max_force=600)
    for _ in range(8 * 60):
        frame(world, engine)
    for sprite, target in zip(sprites, targets, strict=True):
        assert math.dist(sprite.position, target) <= 2.0 + 1e-6
        body = engine.get_physics_object(sprite).body
        assert body.velocity.length < 1.0
        assert tuple(body.position) == pytest.approx(sprite.position)


def test_free_motion_through_the_engine_matches_the_world_moving_the_sprite() -> None:
    """With nothing to collide with, body velocity = steering's velocity: the same path."""
    engine = arcade.PymunkPhysicsEngine()
    driven_world = steer.SteeringWorld(seed=0, physics=engine)
    plain_world = steer.SteeringWorld(seed=0)
    driven, plain = agent_sprite(0, 0, angle=30), StubSprite(0, 0, angle=30)
    engine.add_sprite(driven)
    quarry = StubSprite(300, 0)
    for world, sprite in ((driven_world, driven), (plain_world, plain)):
        world.attach(sprite, steer.Pursue(quarry), max_speed=120, max_force=300)
    for step in range(240):
        quarry.position = (300 + 100 * math.cos(step / 40), 150 * math.sin(step / 40))
        frame(driven_world, engine)
        plain_world.update(DT)
        assert driven.position == pytest.approx(plain.position, abs=1e-6)
        assert angle_difference(driven.angle, plain.angle) == pytest.approx(0.0, abs=1e-6)
    assert driven_world.agent_of(driven).velocity == pytest.approx(
        plain_world.agent_of(plain).velocity, abs=1e-6
    )


def test_update_sets_body_velocity_and_leaves_the_sprite_to_the_engine() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100)
    engine.add_sprite(sprite)
    agent = world.attach(sprite, steer.Seek((500, 100)), max_speed=200, max_force=600)
    world.update(DT)
    assert sprite.position == (100, 100)  # not moved by the world
    body = engine.get_physics_object(sprite).body
    assert tuple(body.velocity) == pytest.approx(agent.velocity)
    assert body.velocity.x == pytest.approx(600 * DT)  # max_force * dt from rest, world space
    engine.step(DT)
    assert sprite.position == pytest.approx((100 + 600 * DT * DT, 100))


def test_a_turning_agent_s_sprite_is_turned_but_not_moved_by_the_world() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100)
    engine.add_sprite(sprite)
    world.attach(sprite, steer.Seek((100, 500)), max_force=2000)
    engine.get_physics_object(sprite).body.velocity = (50, 0)
    world.update(DT)
    assert sprite.position == (100, 100)
    assert -90 < sprite.angle < -1  # turning left towards +y: arcade angles go clockwise
    engine.step(DT)
    assert sprite.position != (100, 100)


def test_the_world_keeps_up_when_the_engine_does_not_step() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100)
    engine.add_sprite(sprite)
    agent = world.attach(sprite, steer.Seek((500, 100)), max_force=400)
    for _ in range(3):
        world.update(DT)
    assert sprite.position == (100, 100)
    assert agent.velocity == pytest.approx((3 * 400 * DT, 0))  # each update on the body's last
    engine.step(DT)
    assert sprite.position == pytest.approx((100 + 3 * 400 * DT * DT, 100))
    world.update(DT)  # reads the position the engine gave the sprite
    engine.step(DT)
    assert sprite.position == pytest.approx((100 + (3 + 4) * 400 * DT * DT, 100))


def test_velocity_is_read_back_from_the_body() -> None:
    """Velocities the engine changed (a collision, a kick) are where steering starts from."""
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100)
    engine.add_sprite(sprite)
    agent = world.attach(sprite, steer.Seek((500, 100)), max_speed=200, max_force=60)
    body = engine.get_physics_object(sprite).body
    body.velocity = (0.0, 150.0)  # a kick from the game, in world space
    world.update(DT)
    assert agent.velocity[1] > 140.0  # kept most of the kick: force 60 turns it slowly
    assert tuple(body.velocity) == pytest.approx(agent.velocity)


def test_world_shares_the_engine_space_and_its_walls_block_the_bodies() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    assert world.space is engine.space and world.physics is engine
    wall = world.add_wall((300, 0), (300, 400), thickness=8)
    assert wall in engine.space.shapes
    sprite = agent_sprite(100, 200)
    engine.add_sprite(sprite, moment_of_inertia=MOMENT_INF)
    world.attach(sprite, steer.Seek((600, 200)), max_speed=200, max_force=800)
    shape = engine.get_physics_object(sprite).shape
    for _ in range(4 * 60):
        frame(world, engine)
        assert overlap(shape, wall) < max_overlap(200, 800)
    # Against the wall's near face (300 - 4 - 10), pressed in by the steady push.
    assert 284.0 < sprite.position[0] < 286.0 + 10 * 800 * DT**2 + 0.2


def test_own_space_is_kept_when_given() -> None:
    engine = arcade.PymunkPhysicsEngine()
    space = pymunk.Space()
    world = steer.SteeringWorld(space=space, physics=engine)
    assert world.space is space and world.physics is engine


def test_agents_push_a_light_box_and_never_overlap_it_deeply() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    box = crate(engine, 300, 200, mass=2.0)
    box_shape = engine.get_physics_object(box).shape
    pushers = [agent_sprite(100, 190 + 20 * i) for i in range(2)]
    for sprite in pushers:
        engine.add_sprite(sprite, moment_of_inertia=MOMENT_INF)
        world.attach(sprite, steer.Seek((700, sprite.position[1])), max_speed=120, max_force=600)
    shapes = [engine.get_physics_object(sprite).shape for sprite in pushers]
    for _ in range(3 * 60):
        frame(world, engine)
        assert max(overlap(shape, box_shape) for shape in shapes) < max_overlap(120, 600)
    assert box.position[0] > 400.0  # pushed well along
    assert abs(box.position[1] - 200.0) < 40.0
    # The pushers stay behind the box they push.
    assert all(sprite.position[0] < box.position[0] - 20 for sprite in pushers)


def test_a_box_the_agent_cannot_move_stops_it() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    box = crate(engine, 300, 200, body_type=arcade.PymunkPhysicsEngine.KINEMATIC)
    box_shape = engine.get_physics_object(box).shape
    sprite = agent_sprite(100, 200)
    engine.add_sprite(sprite, moment_of_inertia=MOMENT_INF)
    agent = world.attach(sprite, steer.Seek((700, 200)), max_speed=150, max_force=600)
    body = engine.get_physics_object(sprite).body
    shape = engine.get_physics_object(sprite).shape
    for _ in range(3 * 60):
        frame(world, engine)
        assert overlap(shape, box_shape) < max_overlap(150, 600)
    assert box.position == (300, 200)
    assert 269.0 < sprite.position[0] < 270.0 + 10 * 600 * DT**2 + 0.2  # touching: 300 - 20 - 10
    assert abs(body.velocity.x) < 1.0  # the engine stopped it...
    world.update(DT)
    assert agent.velocity[0] <= 600 * DT + 1.0  # ...and steering starts again from that


def test_driven_agent_pushes_other_driven_agents_but_not_through_them() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprites = [agent_sprite(100, 200), agent_sprite(400, 200)]
    for sprite, target in zip(sprites, [(500, 200), (0, 200)], strict=True):
        engine.add_sprite(sprite, moment_of_inertia=MOMENT_INF)
        world.attach(sprite, steer.Seek(target), max_speed=150, max_force=600)
    a, b = (engine.get_physics_object(s).shape for s in sprites)
    for _ in range(3 * 60):
        frame(world, engine)
        assert overlap(a, b) < max_overlap(300, 600)
    assert sprites[0].position[0] < sprites[1].position[0]  # head on: neither passed the other


def test_finite_over_many_frames_with_odd_dt() -> None:
    engine = arcade.PymunkPhysicsEngine(damping=0.9)
    world = steer.SteeringWorld(seed=3, physics=engine)
    world.add_walls([(0, 0), (600, 0), (600, 400), (0, 400)], closed=True, thickness=10)
    rng = np.random.default_rng(3)
    crates = [crate(engine, x, y, mass=1.5) for x, y in rng.uniform(80, 320, (6, 2))]
    sprites = []
    for index, (x, y) in enumerate(rng.uniform(40, 360, (12, 2))):
        sprite = agent_sprite(x, y, size=14)
        sprites.append(sprite)
        if index % 3:  # one in three is moved by the world, not the engine
            engine.add_sprite(sprite)
        world.attach(
            sprite,
            steer.PriorityBlend(steer.AvoidWalls(), steer.Wander()),
            max_speed=float(rng.uniform(80, 220)),
        )
        if index == 0:  # two agents on the same spot
            sprite.position = sprites[0].position
    backlog = 0.0
    for dt in [*rng.uniform(0.0, 0.1, 800), 0.0, -0.1, 0.25, 1e-6, 1 / 7]:
        world.update(dt)
        # The engine at a constant 1/60 s, as arcade advises: Chipmunk scales its cached
        # impulses by the ratio of successive steps, so a 1e-6 s step followed by a long one
        # blows the bodies apart, whatever steers them.
        backlog += max(dt, 0.0)
        while backlog >= DT:
            engine.step(DT)
            backlog -= DT
    every = np.array([s.position for s in sprites + crates])
    assert np.isfinite(every).all()
    assert np.isfinite([a.velocity for a in world.agents]).all()
    assert np.isfinite([s.angle for s in sprites]).all()
    inside = (every > -20).all(axis=1) & (every[:, 0] < 620) & (every[:, 1] < 420)
    assert inside.all()  # the walls held bodies and agents in


# -- facing ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("facing", ["right", "up"])
@pytest.mark.parametrize("moment", [None, MOMENT_INF], ids=["box-moment", "moment-inf"])
def test_sprite_angle_faces_the_heading_as_a_plain_agents_does(facing: str, moment) -> None:
    engine = arcade.PymunkPhysicsEngine()
    driven_world = steer.SteeringWorld(seed=0, physics=engine)
    plain_world = steer.SteeringWorld(seed=0)
    driven, plain = agent_sprite(200, 200, angle=25), StubSprite(200, 200, angle=25)
    engine.add_sprite(driven, moment_of_inertia=moment)
    for world, sprite in ((driven_world, driven), (plain_world, plain)):
        world.attach(sprite, steer.Wander(), max_speed=100, facing=facing)
    for _ in range(300):
        frame(driven_world, engine)
        plain_world.update(DT)
        assert angle_difference(driven.angle, plain.angle) == pytest.approx(0.0, abs=1e-6)
    assert math.degrees(-engine.get_physics_object(driven).body.angle) == pytest.approx(
        driven.angle
    )


def test_a_resting_agent_keeps_its_angle_through_the_resync() -> None:
    """add_sprite gives the body +radians(sprite.angle); the resync would flip the sprite to
    -angle (arcade issue 1887). A steered agent at rest keeps the angle it had."""
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100, angle=40)
    engine.add_sprite(sprite)
    world.attach(sprite, steer.Arrive((100, 100)))
    for _ in range(10):
        frame(world, engine)
    assert sprite.angle == pytest.approx(40.0)


def test_rotate_false_leaves_the_body_angle_to_the_engine() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 100)
    engine.add_sprite(sprite)
    world.attach(sprite, steer.Seek((100, 400)), rotate=False)
    body = engine.get_physics_object(sprite).body
    body.angular_velocity = 1.0
    for _ in range(30):
        frame(world, engine)
    assert body.angle == pytest.approx(0.5)  # spun by the engine, untouched by the world
    assert sprite.angle == pytest.approx(-math.degrees(0.5))


# -- mixing, falling back -------------------------------------------------------------------------


def test_agents_not_in_the_engine_move_exactly_as_before() -> None:
    engine = arcade.PymunkPhysicsEngine()
    mixed = steer.SteeringWorld(seed=5, physics=engine)
    plain = steer.SteeringWorld(seed=5)
    walls = [(0, 0), (500, 0), (500, 500), (0, 500)]
    mixed.add_walls(walls, closed=True)
    plain.add_walls(walls, closed=True)
    free_mixed = [StubSprite(100 + 50 * i, 250) for i in range(4)]
    free_plain = [StubSprite(100 + 50 * i, 250) for i in range(4)]
    body_sprite = agent_sprite(250, 100)
    engine.add_sprite(body_sprite)
    mixed.attach(body_sprite, steer.Wander(), max_speed=150)
    for mixed_sprite, plain_sprite in zip(free_mixed, free_plain, strict=True):
        mixed.attach(mixed_sprite, steer.Seek((600, 600)), max_speed=150)
        plain.attach(plain_sprite, steer.Seek((600, 600)), max_speed=150)
    for _ in range(200):
        frame(mixed, engine)
        plain.update(DT)
    np.testing.assert_array_equal(
        [s.position for s in free_mixed], [s.position for s in free_plain]
    )
    assert all(s.position[0] < 500 for s in free_mixed)  # solid: still kept out of the walls


def test_removed_from_the_engine_the_world_moves_the_sprite_itself() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    wall = world.add_wall((400, 0), (400, 400), thickness=4)
    sprite = agent_sprite(100, 200)
    engine.add_sprite(sprite)
    agent = world.attach(sprite, steer.Seek((700, 200)), max_speed=150, max_force=600)
    for _ in range(60):
        frame(world, engine)
    velocity = agent.velocity
    engine.remove_sprite(sprite)
    before = sprite.position
    world.update(DT)  # no engine step: the world moved it
    assert sprite.position[0] == pytest.approx(before[0] + agent.velocity[0] * DT)
    assert agent.velocity[0] >= velocity[0] - 1e-9  # carried on from the body's velocity
    for _ in range(4 * 60):
        world.update(DT)
    # Solid again: the world keeps its circle (radius 10) out of the wall.
    assert sprite.position[0] <= 400 - 2 - 10 + 1e-6
    assert wall in world.space.shapes


def test_sprite_added_to_the_engine_later_is_driven_from_then_on() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, physics=engine)
    sprite = agent_sprite(100, 200)
    agent = world.attach(sprite, steer.Seek((700, 200)), max_speed=150)
    world.update(DT)
    assert sprite.position[0] > 100  # moved by the world
    engine.add_sprite(sprite)
    before = sprite.position
    world.update(DT)
    assert sprite.position == before  # now the engine's to move
    assert engine.get_physics_object(sprite).body.velocity.x == pytest.approx(agent.velocity[0])


# -- the argument ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad",
    ["engine", 5, object(), pymunk.Space(), arcade.PhysicsEngineSimple(arcade.Sprite(), [])],
    ids=["str", "int", "object", "space", "simple-engine"],
)
def test_bad_physics_is_refused_naming_the_parameter(bad) -> None:
    with pytest.raises(TypeError, match="physics"):
        steer.SteeringWorld(physics=bad)


def test_bad_physics_is_refused_before_anything_changes() -> None:
    space = pymunk.Space()
    with pytest.raises(TypeError, match="physics"):
        steer.SteeringWorld(space=space, physics=space)
    assert not space.shapes and not space.bodies


def test_physics_is_keyword_only() -> None:
    engine = arcade.PymunkPhysicsEngine()
    with pytest.raises(TypeError):
        steer.SteeringWorld(0, None, 1 / 30, engine)  # type: ignore[misc]


# -- the example ----------------------------------------------------------------------------------


def test_example_squad_pushes_the_crates_and_the_mixed_squad_passes_through() -> None:
    from arcade_steering.examples import physics as example
    from arcade_steering.examples._base import run_frames

    pushed = example.make_scene(800, 500, mode="push")
    start = np.array([crate.position for crate in pushed.crates])
    run_frames(pushed, 5 * 60)
    moved = np.hypot(*(np.array([crate.position for crate in pushed.crates]) - start).T)
    assert moved.max() > 100.0  # shoved along by the squad
    assert all(sprite in pushed.engine.sprites for sprite in pushed.sprites)
    bodies = [pushed.engine.get_physics_object(sprite).body for sprite in pushed.sprites]
    np.testing.assert_allclose(
        [tuple(body.position) for body in bodies], [s.position for s in pushed.sprites]
    )

    mixed = example.make_scene(800, 500, mode="mixed")
    free = [sprite for sprite in mixed.sprites if sprite not in mixed.engine.sprites]
    assert len(free) == example.SQUAD // 2
    run_frames(mixed, 5 * 60)
    # Not in the engine: straight through the crates to the far slots.
    assert all(sprite.position[0] > 0.8 * mixed.width for sprite in free)
