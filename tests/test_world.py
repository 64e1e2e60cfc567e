"""SteeringWorld: the update loop, sub-steps, determinism, sprite sync, agents and batches."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT_SLOW = 1 / 30
DT_FAST = 1 / 144


def wander_world(seed: int = 0, count: int = 6) -> tuple[steer.SteeringWorld, list[StubSprite]]:
    world = steer.SteeringWorld(seed=seed)
    sprites = [StubSprite(40.0 * i, 10.0 * i) for i in range(count)]
    wander = steer.Wander()
    for sprite in sprites:
        world.attach(sprite, wander, max_speed=120, max_force=500)
    return world, sprites


def positions(sprites: list[StubSprite]) -> np.ndarray:
    return np.array([sprite.position for sprite in sprites])


def angle_difference(a: float, b: float) -> float:
    """Signed difference of two angles in degrees, in [-180, 180)."""
    return (a - b + 180.0) % 360.0 - 180.0


# -- update(dt) --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [lambda: steer.Arrive((300, 120)), lambda: steer.Wander(), lambda: steer.Seek((-50, 400))],
    ids=["arrive", "wander", "seek"],
)
def test_big_dt_is_split_into_max_step_sub_steps(make) -> None:
    def build() -> tuple[steer.SteeringWorld, list[StubSprite]]:
        world = steer.SteeringWorld(seed=3)
        sprites = [StubSprite(10.0 * i, -5.0 * i) for i in range(4)]
        for sprite in sprites:
            world.attach(sprite, make(), max_speed=150, max_force=600)
        return world, sprites

    big, big_sprites = build()
    big.update(0.5)
    small, small_sprites = build()
    for _ in range(15):
        small.update(1 / 30)
    np.testing.assert_allclose(positions(big_sprites), positions(small_sprites), atol=1e-9)
    np.testing.assert_allclose(
        [a.velocity for a in big.agents], [a.velocity for a in small.agents], atol=1e-9
    )


def test_custom_max_step_splits_into_equal_steps() -> None:
    def build() -> tuple[steer.SteeringWorld, StubSprite]:
        world = steer.SteeringWorld(seed=0, max_step=0.1)
        sprite = StubSprite(0, 0)
        world.attach(sprite, steer.Arrive((200, 0)), max_speed=100)
        return world, sprite

    one, one_sprite = build()
    one.update(0.25)  # more than 2 steps of 0.1: 3 equal steps of 1/12 s
    three, three_sprite = build()
    for _ in range(3):
        three.update(0.25 / 3)
    assert one_sprite.position == pytest.approx(three_sprite.position, abs=1e-9)


@pytest.mark.parametrize("dt", [2.0 + 1e-9, 5.0, 1e9, 1e308, float(2**1023)])
def test_a_huge_dt_is_simulated_as_max_substeps_steps_of_max_step(dt: float) -> None:
    world, sprites = wander_world()
    world.update(dt)  # was ~3e10 sub-steps built in one list (1e9), or an OverflowError
    capped, capped_sprites = wander_world()
    for _ in range(60):  # the default max_substeps of the default max_step, 1/30 s
        capped.update(1 / 30)
    np.testing.assert_allclose(positions(sprites), positions(capped_sprites), atol=1e-9)
    assert np.isfinite(positions(sprites)).all()


def test_max_substeps_bounds_the_steps_of_one_update() -> None:
    def build(**kwargs) -> tuple[steer.SteeringWorld, StubSprite]:
        world = steer.SteeringWorld(seed=0, max_step=0.1, **kwargs)
        sprite = StubSprite(0, 0)
        world.attach(sprite, steer.Seek((1000, 0)), max_speed=100)
        return world, sprite

    world, sprite = build(max_substeps=3)
    assert world.max_substeps == 3
    world.update(10.0)  # 0.3 s simulated: three steps of 0.1
    stepped, stepped_sprite = build()
    for _ in range(3):
        stepped.update(0.1)
    assert sprite.position == stepped_sprite.position
    world.update(0.25)  # within the bound: three equal steps, as before
    stepped.update(0.25)
    assert sprite.position == stepped_sprite.position


@pytest.mark.parametrize("dt", [0.0, -0.1, -1e9])
def test_non_positive_dt_does_nothing(dt: float) -> None:
    world, sprites = wander_world()
    reference, reference_sprites = wander_world()
    for _ in range(5):
        world.update(1 / 60)
        reference.update(1 / 60)
    before = positions(sprites)
    velocities = [agent.velocity for agent in world.agents]
    world.update(dt)
    assert np.array_equal(positions(sprites), before)
    assert [agent.velocity for agent in world.agents] == velocities
    # Not even the random generator advanced: the rest of the run matches a world never told.
    for _ in range(20):
        world.update(1 / 60)
        reference.update(1 / 60)
    assert np.array_equal(positions(sprites), positions(reference_sprites))


@pytest.mark.parametrize("dt", [math.nan, math.inf, -math.inf])
def test_non_finite_dt_raises_and_changes_nothing(dt: float) -> None:
    world, sprites = wander_world()
    world.update(1 / 60)
    before = positions(sprites)
    with pytest.raises(ValueError, match="delta_time"):
        world.update(dt)
    assert np.array_equal(positions(sprites), before)
    world.update(1 / 60)  # still usable
    assert np.isfinite(positions(sprites)).all()


def test_same_seed_and_dt_sequence_is_bitwise_identical() -> None:
    dts = [1 / 60, 1 / 30, 0.1, 1 / 144, 0.0, 0.07] * 15
    runs = []
    for _ in range(2):
        world, sprites = wander_world(seed=42)
        trajectory = []
        for dt in dts:
            world.update(dt)
            trajectory.append(positions(sprites))
        runs.append(np.array(trajectory))
    assert np.array_equal(runs[0], runs[1])


def test_different_seeds_give_different_wanders() -> None:
    ends = []
    for seed in (1, 2):
        world, sprites = wander_world(seed=seed)
        for _ in range(60):
            world.update(1 / 60)
        ends.append(positions(sprites))
    assert np.abs(ends[0] - ends[1]).max() > 10.0


@pytest.mark.parametrize(
    "make",
    [lambda: steer.Seek((400, 300)), lambda: steer.Arrive((400, 300))],
    ids=["seek", "arrive"],
)
def test_trajectory_does_not_depend_on_frame_rate(make, simulate) -> None:
    tracks = {}
    for dt in (DT_SLOW, DT_FAST):
        world = steer.SteeringWorld(seed=0)
        sprite = StubSprite(0, 0)
        world.attach(sprite, make(), max_speed=150, max_force=400)
        tracks[dt] = simulate(world, 4.0, dt)[:, 0]
    for t in (0.5, 1.0, 2.0, 4.0):
        slow = tracks[DT_SLOW][round(t / DT_SLOW) - 1]
        fast = tracks[DT_FAST][round(t / DT_FAST) - 1]
        assert math.dist(slow, fast) < 4.0, (t, slow, fast)


# -- the sprite is the truth -------------------------------------------------------------------


def test_teleported_sprite_carries_on_from_where_it_is(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Arrive((300, 0)), max_speed=100)
    for _ in range(20):
        world.update(1 / 60)
    velocity = agent.velocity
    sprite.position = (300, -400)
    world.update(1 / 60)
    # Moved on from the teleport point, keeping its momentum, not snapped back.
    assert sprite.center_y == pytest.approx(-400, abs=3.0)
    assert sprite.center_x > 300.0
    assert agent.position == pytest.approx(sprite.position)
    assert agent.velocity[0] == pytest.approx(velocity[0], rel=0.2)
    for _ in range(600):
        world.update(1 / 60)
    assert math.dist(sprite.position, (300, 0)) <= 2.5


def test_agent_position_between_updates_is_the_sprites(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Seek((300, 0)))
    world.update(1 / 60)
    sprite.position = (50, 60)
    assert agent.position == (50, 60)


# -- limits ------------------------------------------------------------------------------------


def test_world_truncates_force_and_speed_every_step(world) -> None:
    heavy = steer.WeightedBlend((steer.Seek((1e5, 1e5)), 50.0), (steer.Wander(), 5.0))
    sprites = [StubSprite(0, 0), StubSprite(100, 0), StubSprite(0, 100)]
    limits = [(80.0, 100.0), (200.0, 50.0), (30.0, 1000.0)]
    for sprite, (max_speed, max_force) in zip(sprites, limits, strict=True):
        world.attach(
            sprite, heavy, max_speed=max_speed, max_force=max_force, velocity=(-900.0, 300.0)
        )
    saturated, fastest = set(), set()
    for i, (agent, (max_speed, _)) in enumerate(zip(world.agents, limits, strict=True)):
        assert agent.speed == pytest.approx(max_speed)  # a faster initial velocity is truncated
        fastest.add(i)
    for step in range(240):
        world.update(1 / 30 if step % 3 else 1 / 144)
        for i, (agent, (max_speed, max_force)) in enumerate(zip(world.agents, limits, strict=True)):
            assert math.hypot(*agent.force) <= max_force * (1 + 1e-9)
            assert agent.speed <= max_speed * (1 + 1e-9)
            if math.hypot(*agent.force) == pytest.approx(max_force):
                saturated.add(i)
            if agent.speed == pytest.approx(max_speed):
                fastest.add(i)
    # The limits are reached, not just respected: the drive is strong enough to saturate.
    assert len(saturated) == len(fastest) == 3


def test_mass_divides_the_force(world, simulate) -> None:
    light, heavy = StubSprite(0, 0), StubSprite(0, 100)
    world.attach(light, steer.Seek((1000, 0)), max_speed=1000, max_force=100, mass=1.0)
    world.attach(heavy, steer.Seek((1000, 100)), max_speed=1000, max_force=100, mass=4.0)
    simulate(world, 1.0, 1 / 60)
    # Constant force 100 from rest: x = a t² / 2 (semi-implicit Euler adds a little).
    assert light.center_x == pytest.approx(50.0, rel=0.03)
    assert heavy.center_x == pytest.approx(12.5, rel=0.03)


# -- angles ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("facing", "direction", "expected"),
    [
        ("right", (1, 0), 0.0),
        ("right", (0, 1), -90.0),
        ("right", (0, -1), 90.0),
        ("right", (-1, 0), 180.0),
        ("right", (1, 1), -45.0),
        ("up", (0, 1), 0.0),
        ("up", (1, 0), 90.0),
        ("up", (-1, 0), -90.0),
        ("up", (0, -1), 180.0),
        ("left", (-1, 0), 0.0),
        ("down", (0, -1), 0.0),
        ("down", (1, 0), -90.0),
        (0.0, (0, 1), -90.0),
        (45.0, (1, 0), 45.0),
        (45, (1, 1), 0.0),
        (-30.0, (1, 0), -30.0),
    ],
)
def test_sprite_angle_follows_velocity(world, facing, direction, expected) -> None:
    sprite = StubSprite(0, 0, angle=123.0)
    unit = np.divide(direction, math.hypot(*direction))
    world.attach(
        sprite,
        steer.Seek(tuple(unit * 1e6)),
        max_speed=100,
        velocity=tuple(unit * 100),
        facing=facing,
    )
    for _ in range(3):
        world.update(1 / 60)
    assert sprite.center_x * unit[0] + sprite.center_y * unit[1] > 4.0  # it did move that way
    assert angle_difference(sprite.angle, expected) == pytest.approx(0.0, abs=1e-6)


def test_rotate_false_leaves_the_angle_alone(world) -> None:
    sprite = StubSprite(0, 0, angle=12.5)
    world.attach(sprite, steer.Seek((0, 500)), rotate=False)
    for _ in range(30):
        world.update(1 / 60)
    assert sprite.center_y > 10
    assert sprite.angle == 12.5


def test_agent_at_rest_keeps_its_angle(world) -> None:
    sprite = StubSprite(40, 40, angle=37.0)
    agent = world.attach(sprite, steer.Arrive((40, 40)))
    for _ in range(10):
        world.update(1 / 60)
    assert sprite.angle == pytest.approx(37.0)
    # A crawl below the turning threshold does not turn it either.
    agent.velocity = (0.0, -0.4)
    world.update(1 / 60)
    assert sprite.angle == pytest.approx(37.0)


def test_agent_that_stops_keeps_the_heading_it_arrived_with(world) -> None:
    sprite = StubSprite(0, 0, angle=90.0)
    agent = world.attach(sprite, steer.Arrive((0, 200)), max_speed=120)
    for _ in range(400):
        world.update(1 / 60)
    assert agent.speed < 1e-3
    assert angle_difference(sprite.angle, -90.0) == pytest.approx(0.0, abs=0.5)
    assert agent.heading == pytest.approx((0.0, 1.0), abs=1e-2)


# -- agents: attach, detach, views ---------------------------------------------------------------


def test_attach_detach_agents_and_len(world) -> None:
    sprites = [StubSprite(i, 0) for i in range(3)]
    agents = [world.attach(sprite, steer.Seek((0, 100))) for sprite in sprites]
    assert len(world) == 3
    assert world.agents == agents
    assert [world.agent_of(sprite) for sprite in sprites] == agents
    assert all(agent.sprite is sprite for agent, sprite in zip(agents, sprites, strict=True))
    assert sprites[1] in world

    world.detach(sprites[1])
    assert len(world) == 2
    assert world.agents == [agents[0], agents[2]]
    assert sprites[1] not in world
    with pytest.raises(KeyError):
        world.agent_of(sprites[1])
    with pytest.raises(KeyError):
        world.detach(sprites[1])


def test_detached_sprite_stays_put_and_its_view_is_dead(world) -> None:
    sprite, other = StubSprite(0, 0), StubSprite(0, 50)
    agent = world.attach(sprite, steer.Seek((500, 0)))
    world.attach(other, steer.Seek((500, 50)))
    for _ in range(10):
        world.update(1 / 60)
    world.detach(sprite)
    where = sprite.position
    for _ in range(10):
        world.update(1 / 60)
    assert sprite.position == where
    assert other.center_x > sprite.center_x
    for read in ("position", "velocity", "speed", "heading", "force", "behavior", "sprite"):
        with pytest.raises(RuntimeError, match="detached"):
            getattr(agent, read)
    with pytest.raises(RuntimeError, match="detached"):
        agent.velocity = (1.0, 0.0)
    assert "detached" in repr(agent)


def test_reattached_sprite_starts_fresh(world) -> None:
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((500, 0)))
    for _ in range(10):
        world.update(1 / 60)
    world.detach(sprite)
    agent = world.attach(sprite, steer.Seek((-500, 0)), max_speed=60)
    assert agent.velocity == (0.0, 0.0)
    start = sprite.center_x
    for _ in range(30):
        world.update(1 / 60)
    assert sprite.center_x < start
    assert agent.max_speed == 60


def test_empty_world_updates(world) -> None:
    world.update(1 / 60)
    sprite = StubSprite()
    world.attach(sprite, steer.Seek((10, 0)))
    world.detach(sprite)
    world.update(1 / 60)
    assert len(world) == 0
    assert world.agents == []
    assert sprite.position == (0.0, 0.0)


def test_agent_of_unknown_sprite_raises_key_error(world) -> None:
    world.attach(StubSprite(), steer.Seek((1, 1)))
    with pytest.raises(KeyError):
        world.agent_of(StubSprite())
    with pytest.raises(KeyError):
        world.agent_of("not a sprite")


def test_many_agents_past_the_initial_capacity(world) -> None:
    sprites = [StubSprite(i % 10 * 30, i // 10 * 30) for i in range(150)]
    agents = [world.attach(sprite, steer.Arrive((150, 600))) for sprite in sprites]
    for sprite in sprites[::3]:
        world.detach(sprite)
    kept = [sprite for i, sprite in enumerate(sprites) if i % 3]
    assert len(world) == len(kept)
    for _ in range(300):
        world.update(1 / 30)
    for sprite in kept:
        assert math.dist(sprite.position, (150, 600)) < 3.0
    assert all(world.agent_of(s) is a for s, a in zip(sprites, agents, strict=True) if s in world)


def test_velocity_is_settable(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Seek((500, 0)), max_speed=100)
    agent.velocity = (0.0, 300.0)  # a knock-back, faster than max_speed
    assert agent.velocity == (0.0, 300.0)
    world.update(1 / 60)
    assert agent.speed <= 100 * (1 + 1e-9)
    assert sprite.center_y > 1.0  # carried by the knock-back


def test_initial_velocity_and_limits_are_readable(world) -> None:
    agent = world.attach(
        StubSprite(0, 0, width=30, height=20),
        steer.Seek((1, 0)),
        max_speed=90,
        max_force=250,
        mass=2.0,
        response_time=0.3,
        velocity=(3.0, 4.0),
    )
    assert agent.velocity == (3.0, 4.0)
    assert agent.speed == pytest.approx(5.0)
    assert agent.heading == pytest.approx((0.6, 0.8))
    assert (agent.max_speed, agent.max_force, agent.mass) == (90, 250, 2.0)
    assert agent.response_time == 0.3
    assert agent.radius == 10.0  # half the smaller side


def test_behavior_settable_at_run_time_changes_batch(world) -> None:
    sprites = [StubSprite(0, 20.0 * i) for i in range(5)]
    seek = steer.Seek((400, 0))
    for sprite in sprites:
        world.attach(sprite, seek, max_speed=100)
    assert len(world._agents.batches()) == 1
    for _ in range(30):
        world.update(1 / 60)
    agent = world.agent_of(sprites[2])
    flee = steer.Flee((400, 0))
    agent.behavior = flee
    assert agent.behavior is flee
    assert len(world._agents.batches()) == 2
    x = sprites[2].center_x
    for _ in range(90):
        world.update(1 / 60)
    assert sprites[2].center_x < x - 20  # turned round and fled
    assert all(sprites[i].center_x > x + 100 for i in (0, 1, 3, 4))
    agent.behavior = seek
    assert len(world._agents.batches()) == 1


# -- batching ----------------------------------------------------------------------------------


def arrive_tree(i: int) -> steer.SteeringComponent:
    return steer.Arrive((300 + 7 * i, -200 + 11 * i), slowing_radius=40 + 3 * i, tolerance=i % 4)


def blend_tree(i: int) -> steer.SteeringComponent:
    return steer.PriorityBlend(
        steer.Flee((100 + i, 100), panic_distance=None if i % 5 == 0 else 30 + i),
        steer.WeightedBlend(
            (steer.Arrive((400 - 5 * i, 300), slowing_radius=50 + i), 1.0 + i / 10),
            (steer.Seek((0, 300 + i)), 0.1 * (i % 3)),
        ),
        threshold=1e-3 * (i + 1),
    )


@pytest.mark.parametrize("make", [arrive_tree, blend_tree], ids=["arrive", "blend"])
def test_same_shape_shares_one_batch_and_equals_agents_alone(make, simulate) -> None:
    count = 50

    def options(i: int) -> dict:
        return {"max_speed": 80 + 3 * i, "max_force": 200 + 10 * i, "response_time": 0.05 + i / 500}

    def start(i: int) -> StubSprite:
        return StubSprite(10.0 * (i % 7), 13.0 * (i // 7))

    together = steer.SteeringWorld(seed=0)
    sprites = [start(i) for i in range(count)]
    for i, sprite in enumerate(sprites):
        together.attach(sprite, make(i), **options(i))
    assert len(together._agents.batches()) == 1
    batched = simulate(together, 1.0, 1 / 60)

    for i in range(count):
        alone = steer.SteeringWorld(seed=0)
        sprite = start(i)
        alone.attach(sprite, make(i), **options(i))
        np.testing.assert_allclose(simulate(alone, 1.0, 1 / 60)[:, 0], batched[:, i], atol=1e-7)


def test_different_shapes_get_different_batches(world) -> None:
    p = (100, 100)
    trees = [
        steer.Seek(p),
        steer.Seek((5, 5)),  # same shape as the first
        steer.Arrive(p),
        steer.Flee(p),
        steer.WeightedBlend((steer.Seek(p), 1.0), (steer.Flee(p), 1.0)),
        steer.WeightedBlend((steer.Seek(p), 2.0), (steer.Flee((0, 0), 50), 0.5)),  # same as above
        steer.WeightedBlend((steer.Seek(p), 1.0), (steer.Arrive(p), 1.0)),
        steer.WeightedBlend((steer.Seek(p), 1.0), (steer.Flee(p), 1.0), (steer.Seek(p), 1.0)),
        steer.PriorityBlend(steer.Flee(p, 10), steer.Arrive(p)),
        steer.PriorityBlend(steer.Arrive(p), steer.Flee(p, 10)),
    ]
    sprites = [StubSprite(i, 0) for i in range(len(trees))]
    for sprite, tree in zip(sprites, trees, strict=True):
        world.attach(sprite, tree)
    batches = world._agents.batches()
    assert len(batches) == len(trees) - 2
    assert sorted(len(batch) for batch in batches) == [1] * 6 + [2, 2]
    world.update(1 / 60)


def test_changing_one_agents_parameters_inside_a_shared_batch(world) -> None:
    arrives = [steer.Arrive((100.0 * i, 200.0)) for i in range(3)]
    sprites = [StubSprite(100.0 * i, 0.0) for i in range(3)]
    for sprite, arrive in zip(sprites, arrives, strict=True):
        world.attach(sprite, arrive)
    assert len(world._agents.batches()) == 1
    for _ in range(30):
        world.update(1 / 60)
    arrives[1].target = (100.0, -200.0)
    arrives[2].slowing_radius = 5.0
    assert len(world._agents.batches()) == 1
    for _ in range(400):
        world.update(1 / 60)
    assert math.dist(sprites[0].position, (0, 200)) <= 2.05
    assert math.dist(sprites[1].position, (100, -200)) <= 2.05
    assert math.dist(sprites[2].position, (200, 200)) <= 2.05


@pytest.mark.parametrize(
    ("angle", "facing", "heading"),
    [
        (0.0, "right", (1, 0)),
        (90.0, "right", (0, -1)),
        (-90.0, "right", (0, 1)),
        (0.0, "up", (0, 1)),
    ],
)
def test_heading_of_a_still_agent_comes_from_the_sprite_angle(world, angle, facing, heading):
    agent = world.attach(StubSprite(0, 0, angle=angle), steer.Wander(), facing=facing)
    assert agent.heading == pytest.approx(heading, abs=1e-12)
    # Wander starts out ahead of that heading, not at a random direction of the plane.
    world.update(1 / 60)
    assert np.dot(agent.velocity, heading) > 0


def test_a_stopped_agent_keeps_its_angle_number_not_just_its_direction(world) -> None:
    sprite = StubSprite(0, 0, angle=200.0)
    world.attach(sprite, steer.Arrive((0, 0)))
    world.update(1 / 60)
    assert sprite.angle == 200.0


def test_an_initial_velocity_below_the_turning_speed_does_not_turn_the_sprite(world) -> None:
    sprite = StubSprite(0, 0, angle=30.0)
    world.attach(sprite, steer.Arrive((0, 0)), velocity=(0.0, 0.5))
    world.update(1 / 60)
    assert sprite.angle == 30.0


def test_subclass_of_a_builtin_with_plain_attributes_is_not_batched_across_instances(
    world,
) -> None:
    class Offset(steer.Seek):
        def __init__(self, target, dx):
            super().__init__(target)
            self.dx = dx

        def steer(self, ctx):
            return super().steer(ctx) + np.array([self.dx, 0.0])

    sprites = [StubSprite(0, 0), StubSprite(0, 0)]
    for sprite, dx in zip(sprites, (0.0, 500.0), strict=True):
        world.attach(sprite, Offset((0, 100), dx))
    world.update(1 / 60)
    assert len(world._agents.batches()) == 2
    first, second = world.agents
    assert second.velocity[0] > first.velocity[0] + 1.0


def test_steering_force_sees_current_neighbours_on_a_shared_world() -> None:
    from arcade_steering.testing import steering_force

    world = steer.SteeringWorld()
    sprite = StubSprite(10, 0)
    world.attach(sprite, steer.Seek((10, 0)))
    first = steering_force(steer.Separation(50), position=(0, 0), world=world)
    second = steering_force(steer.Separation(50), position=(20, 0), world=world)
    assert first[0] < 0 < second[0]


def test_steering_force_sees_walls_added_since_the_last_update() -> None:
    from arcade_steering.testing import steering_force

    world = steer.SteeringWorld()
    world.add_wall((30, -100), (30, 100))
    force = steering_force(steer.AvoidWalls(), position=(0, 0), velocity=(200, 0), world=world)
    assert force[0] < 0


def _wandering_world() -> tuple[steer.SteeringWorld, list[StubSprite]]:
    world = steer.SteeringWorld(seed=4)
    sprites = [StubSprite(20.0 * i, 0.0) for i in range(5)]
    path = steer.Path([(0, 0), (300, 0), (300, 200)], radius=10)
    for index, sprite in enumerate(sprites):
        behavior = steer.Wander() if index % 2 else steer.FollowPath(path)
        world.attach(sprite, behavior, max_speed=80)
    for _ in range(10):
        world.update(1 / 60)
    return world, sprites


@pytest.mark.parametrize("helper", ["batch_forces", "forces_one_by_one"])
def test_asking_for_forces_leaves_the_world_to_go_on_as_before(helper: str) -> None:
    # They used to advance wander angles, path progress and the random generator, so a game
    # (or a test) that asked went on differently from one that did not.
    import arcade_steering.testing as testing

    asked, asked_sprites = _wandering_world()
    alone, alone_sprites = _wandering_world()
    getattr(testing, helper)(asked)
    for _ in range(30):
        asked.update(1 / 60)
        alone.update(1 / 60)
    assert [s.position for s in asked_sprites] == [s.position for s in alone_sprites]
