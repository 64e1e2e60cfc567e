"""AvoidWalls and AvoidObstacles: trajectories around walls and obstacles, limits, batching."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.debug import BOX_COLOR, FEELER_COLOR, HIT_COLOR, THREAT_COLOR
from arcade_steering.testing import StubSprite, steering_force

DT = 1 / 60


def crossings(before: np.ndarray, after: np.ndarray, a: tuple, b: tuple) -> int:
    """How many motions ``before[i] -> after[i]`` cross the segment ``a -> b``."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)

    def side(p: np.ndarray, q: np.ndarray, r: np.ndarray) -> np.ndarray:
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))  # fmt: skip

    s1 = side(before, after, a) * side(before, after, b)
    s2 = side(a, b, before) * side(a, b, after)
    return int(((s1 < 0) & (s2 < 0)).sum())


def positions(world: steer.SteeringWorld) -> np.ndarray:
    return np.array([agent.position for agent in world.agents], dtype=float)


def force_of(component, position, velocity, world, **options) -> np.ndarray:
    """``steering_force`` in ``world``, with its geometry synced first as ``update`` does."""
    world.geometry  # noqa: B018 - the property syncs the mirror of the space
    return steering_force(component, position, velocity, world=world, **options)


def avoid_and(*drive: steer.SteeringComponent) -> steer.PriorityBlend:
    return steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), *drive)


# --------------------------------------------------------------------------- walls


@pytest.mark.parametrize("seed", [0, 1])
def test_fast_agents_never_cross_a_long_wall(seed: int) -> None:
    """40 agents at 300 px/s seek targets behind a wall without solid collisions: the feelers
    alone stop them, since by default they reach the stopping distance."""
    world = steer.SteeringWorld(seed=seed)
    wall = ((-1000.0, 0.0), (1000.0, 0.0))
    world.add_wall(*wall)
    rng = np.random.default_rng(seed)
    sprites = []  # the game holds its sprites: the world only holds them weakly
    for _ in range(40):
        sprite = StubSprite(rng.uniform(-300, 300), rng.uniform(-300, -150))
        sprites.append(sprite)
        heading = rng.uniform(0, 2 * math.pi)
        behavior = steer.PriorityBlend(
            steer.AvoidWalls(), steer.Seek(tuple(rng.uniform((-300, 30), (300, 300))))
        )
        world.attach(
            sprite,
            behavior,
            max_speed=300,
            max_force=400,
            solid=False,
            velocity=(300 * math.cos(heading), 300 * math.sin(heading)),
        )
    before = positions(world)
    closest = np.inf
    for _ in range(360):
        world.update(DT)
        after = positions(world)
        assert crossings(before, after, *wall) == 0
        closest = min(closest, np.abs(after[:, 1]).min())
        before = after
    assert (before[:, 1] < 0).all()
    assert closest > 8.0  # never even touched it (radius 8)


def test_agent_steers_around_a_short_wall_to_its_target() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-80, 0), (120, 0), thickness=6)
    sprite = StubSprite(0, -200)
    world.attach(sprite, avoid_and(steer.Arrive((0, 200))), max_speed=200, max_force=400)
    for _ in range(60 * 8):
        world.update(DT)
    assert math.dist(sprite.position, (0, 200)) < 5.0


@pytest.mark.parametrize("solid", [False, True])
def test_head_on_meeting_with_a_wall_does_not_deadlock(solid: bool) -> None:
    """Straight at the middle of a wall, target right behind it: the slide along the wall
    takes the agent round an end."""
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-100, 0), (100, 0))
    sprite = StubSprite(0, -300)
    world.attach(sprite, avoid_and(steer.Arrive((0, 300))), max_speed=200, solid=solid)
    for _ in range(60 * 10):
        world.update(DT)
    assert math.dist(sprite.position, (0, 300)) < 5.0


def test_removing_a_wall_lets_agents_through() -> None:
    world = steer.SteeringWorld(seed=0)
    wall = world.add_wall((-1000, 0), (1000, 0))
    sprites = [StubSprite(x, -200) for x in (-50, 0, 50)]
    for sprite in sprites:
        world.attach(sprite, avoid_and(steer.Seek((sprite.center_x, 300))), max_speed=150)
    for _ in range(120):
        world.update(DT)
    assert all(s.center_y < 0 for s in sprites)
    world.remove_shape(wall)
    for _ in range(240):
        world.update(DT)
    assert all(s.center_y > 200 for s in sprites)


def test_walls_added_to_a_shared_physics_engine_space_are_avoided() -> None:
    arcade = pytest.importorskip("arcade")
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, space=engine.space)
    assert world.space is engine.space
    wall = ((-500.0, 0.0), (500.0, 0.0))
    world.add_wall(*wall)
    sprites = [StubSprite(x, -150) for x in (-60, 0, 60)]
    for sprite in sprites:
        world.attach(sprite, avoid_and(steer.Seek((0, 200))), max_speed=250, solid=False)
    before = positions(world)
    for _ in range(240):
        engine.step(DT)
        world.update(DT)
        after = positions(world)
        assert crossings(before, after, *wall) == 0
        before = after


def test_agents_with_different_wall_parameters_share_a_batch_and_match_alone() -> None:
    """Per-agent parameters are gathered into arrays: one batch, same forces as one by one."""

    def build(specs: list[tuple]) -> tuple[steer.SteeringWorld, list[StubSprite]]:
        world = steer.SteeringWorld(seed=0)
        world.add_walls([(-300, 60), (300, 60), (300, -300)], thickness=4)
        world.add_obstacle((0, 140), 30)
        sprites = []
        for x, vx, vy, params in specs:
            sprite = StubSprite(x, 0)
            behavior = steer.PriorityBlend(steer.AvoidWalls(**params), steer.Seek((x, 400)))
            world.attach(sprite, behavior, max_speed=220, velocity=(vx, vy))
            sprites.append(sprite)
        return world, sprites

    specs = [
        (-100, 0, 200, {}),
        (0, 50, 180, {"length": 80.0, "side_angle": 30.0}),
        (100, -40, 200, {"side_ratio": 0.9, "side_angle": 60.0}),
        (250, 200, 20, {"length": 20.0}),
    ]
    world, sprites = build(specs)
    assert len(world._agents.batches()) == 1
    for _ in range(40):
        world.update(DT)
    together = np.array([s.position for s in sprites])
    for index, spec in enumerate(specs):
        alone_world, alone = build([spec])
        for _ in range(40):
            alone_world.update(DT)
        np.testing.assert_allclose(alone[0].position, together[index], atol=1e-9)


def test_avoid_walls_is_silent_away_from_walls_and_when_standing_still() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-100, 0), (100, 0))
    avoid = steer.AvoidWalls()
    far = force_of(avoid, (0, -200), (0, 100), world, radius=8)
    np.testing.assert_array_equal(far, (0.0, 0.0))
    # Standing next to the wall: no feeler at zero speed.
    beside = force_of(avoid, (0, -9), (0, 0), world, radius=8)
    np.testing.assert_array_equal(beside, (0.0, 0.0))
    # Heading for it, close: pushed back along its normal (towards -y) and braking.
    near = force_of(avoid, (0, -40), (0, 200), world, radius=8, max_force=400)
    assert near[1] < -100.0
    assert np.hypot(*near) <= 400.0 + 1e-9


def test_feelers_sweep_the_agent_radius_so_wall_ends_do_not_slip_between() -> None:
    """A wall end just beside the centre line is caught: a thin ray would miss it."""
    world = steer.SteeringWorld(seed=0)
    world.add_wall((5, 40), (300, 40))
    force = force_of(steer.AvoidWalls(), (0, 0), (0, 200), world, radius=8)
    assert np.hypot(*force) > 1.0


def test_thick_walls_count() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-100, 0), (100, 0), thickness=60)
    sprite = StubSprite(0, -200)
    world.attach(sprite, avoid_and(steer.Seek((0, 0))), max_speed=200, solid=False)
    for _ in range(240):
        world.update(DT)
        assert sprite.center_y < -30 - 8 + 1e-6 or abs(sprite.center_x) > 100


@pytest.mark.parametrize(
    ("make", "name", "error"),
    [
        (lambda: steer.AvoidWalls(length=0), "length", ValueError),
        (lambda: steer.AvoidWalls(length=-5), "length", ValueError),
        (lambda: steer.AvoidWalls(length=math.nan), "length", ValueError),
        (lambda: steer.AvoidWalls(length="far"), "length", TypeError),
        (lambda: steer.AvoidWalls(side_angle=120), "side_angle", ValueError),
        (lambda: steer.AvoidWalls(side_angle=-1), "side_angle", ValueError),
        (lambda: steer.AvoidWalls(side_ratio=1.5), "side_ratio", ValueError),
        (lambda: steer.AvoidWalls(side_ratio=math.inf), "side_ratio", ValueError),
        (lambda: steer.AvoidObstacles(length=0), "length", ValueError),
        (lambda: steer.AvoidObstacles(min_length=-1), "min_length", ValueError),
        (lambda: steer.AvoidObstacles(buffer=math.nan), "buffer", ValueError),
        (lambda: steer.AvoidObstacles(buffer=None), "buffer", TypeError),
        (lambda: steer.AvoidObstacles(braking=1.5), "braking", ValueError),
    ],
)
def test_bad_parameters_are_refused_naming_them(make, name: str, error: type) -> None:
    with pytest.raises(error, match=name):
        make()


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda w: w.add_wall((math.nan, 0), (1, 1)), "a"),
        (lambda w: w.add_wall((0, 0), (math.inf, 1)), "b"),
        (lambda w: w.add_wall((0, 0), (1, 1), thickness=-1), "thickness"),
        (lambda w: w.add_walls([(0, 0), (1, math.nan)]), "points"),
        (lambda w: w.add_obstacle((0, 0), 0), "radius"),
        (lambda w: w.add_obstacle((0, 0), -3), "radius"),
        (lambda w: w.add_obstacle((math.nan, 0), 3), "center"),
    ],
)
def test_world_refuses_bad_walls_and_obstacles(call, name: str) -> None:
    world = steer.SteeringWorld(seed=0)
    with pytest.raises(ValueError, match=name):
        call(world)
    assert len(world.space.shapes) == 0


# --------------------------------------------------------------------------- obstacles


def obstacle_field(seed: int) -> tuple[steer.SteeringWorld, np.ndarray]:
    world = steer.SteeringWorld(seed=seed)
    rng = np.random.default_rng(seed)
    circles = []
    for i in range(4):
        for j in range(3):
            centre = (150 + 100 * i + rng.uniform(-15, 15), -100 + 100 * j + rng.uniform(-15, 15))
            radius = rng.uniform(20, 35)
            world.add_obstacle(centre, radius)
            circles.append((*centre, radius))
    return world, np.array(circles)


@pytest.mark.parametrize("solid", [False, True])
def test_agents_cross_a_field_of_obstacles(solid: bool) -> None:
    world, circles = obstacle_field(0)
    rng = np.random.default_rng(5)
    targets = np.column_stack((np.full(20, 650.0), rng.uniform(-190, 190, 20)))
    sprites = [StubSprite(0, -190 + 20 * i) for i in range(len(targets))]
    for sprite, target in zip(sprites, targets, strict=True):
        behavior = steer.PriorityBlend(steer.AvoidObstacles(), steer.Arrive(tuple(target)))
        world.attach(sprite, behavior, max_speed=200, max_force=400, solid=solid)
    reached = np.zeros(20, dtype=bool)
    deepest = 0.0
    for _ in range(60 * 12):
        world.update(DT)
        p = positions(world)
        gap = np.hypot(p[:, None, 0] - circles[:, 0], p[:, None, 1] - circles[:, 1])
        deepest = max(deepest, float((circles[:, 2] + 8.0 - gap).max()))
        reached |= np.hypot(*(p - targets).T) < 10.0
    assert reached.sum() >= 18
    assert deepest < (1e-6 if solid else 0.25 * 8.0)


@pytest.mark.parametrize("solid", [False, True])
def test_head_on_meeting_with_an_obstacle_does_not_deadlock(solid: bool) -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0, 0), 60)
    sprite = StubSprite(0, -300)
    world.attach(sprite, avoid_and(steer.Arrive((0, 300))), max_speed=200, solid=solid)
    for _ in range(60 * 10):
        world.update(DT)
        assert math.hypot(*sprite.position) > 60 + 8 - 1e-6
    assert math.dist(sprite.position, (0, 300)) < 5.0


def _pass_an_obstacle(braking: float, dt: float = DT) -> tuple[float, float]:
    """A boat at 120 px/s seeks past a round obstacle right on its lane: seconds until it is
    past, and its lowest speed alongside."""
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((320, 200), 40)
    boat = StubSprite(0, 200)
    behavior = steer.PriorityBlend(steer.AvoidObstacles(braking=braking), steer.Seek((800, 200)))
    agent = world.attach(boat, behavior, max_speed=120, max_force=400, solid=False)
    slowest = math.inf
    for step in range(1, round(12 / dt) + 1):
        world.update(dt)
        if 200 < boat.center_x < 380:
            slowest = min(slowest, agent.speed)
        if boat.center_x > 420:
            return step * dt, slowest
    return math.inf, slowest


def test_braking_gives_up_a_share_of_the_speed_not_nearly_all_of_it() -> None:
    # Braking used to take its share of the speed the agent had at each step, so it
    # compounded nearly to a stop (16 px/s alongside, 1.4x as long to get past).
    free, _ = _pass_an_obstacle(braking=0.0)
    braked, slowest = _pass_an_obstacle(braking=0.5)
    assert braked < 1.3 * free
    assert slowest > 0.25 * 120


def test_full_braking_still_gets_round() -> None:
    seconds, slowest = _pass_an_obstacle(braking=1.0)  # it stopped dead in front before
    assert seconds < 6.0
    assert slowest >= 0.25 * 120 * 0.9  # a quarter of max_speed, less the turn's dip


def test_braking_round_an_obstacle_does_not_depend_on_the_frame_rate() -> None:
    slow, _ = _pass_an_obstacle(braking=0.5, dt=1 / 30)
    fast, _ = _pass_an_obstacle(braking=0.5, dt=1 / 144)
    assert abs(slow - fast) < 0.25


def test_the_side_chosen_round_an_obstacle_is_kept() -> None:
    """Dead ahead, the agent picks a side and keeps it while that obstacle is the threat."""
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0, 0), 50)
    sprite = StubSprite(0, -250)
    world.attach(sprite, avoid_and(steer.Seek((0, 250))), max_speed=180)
    xs = []
    for _ in range(150):
        world.update(DT)
        if abs(sprite.center_y) < 60:
            xs.append(sprite.center_x)
    assert xs and (np.sign(xs) == np.sign(xs[-1])).all()


def test_avoid_obstacles_is_silent_without_a_threat() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0, 100), 20)
    avoid = steer.AvoidObstacles()
    beside = force_of(avoid, (60, 100), (0, 150), world, radius=8)
    np.testing.assert_array_equal(beside, (0.0, 0.0))
    behind = force_of(avoid, (0, 160), (0, 150), world, radius=8)
    np.testing.assert_array_equal(behind, (0.0, 0.0))
    ahead = force_of(avoid, (0, 30), (0, 150), world, radius=8)
    assert np.hypot(*ahead) > 1.0


def test_an_agent_inside_an_obstacle_steers_out() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0, 0), 50)
    force = force_of(steer.AvoidObstacles(), (10, 5), (0, 0), world, radius=8)
    assert force[0] > 0 and force[1] > 0  # out along the gradient, away from the centre
    sprite = StubSprite(10, 5)
    world.attach(sprite, steer.AvoidObstacles(), solid=False)
    for _ in range(120):
        world.update(DT)
    assert math.hypot(*sprite.position) > 50 + 8


# --------------------------------------------------------------------------- degenerate


@pytest.mark.parametrize("solid", [False, True])
@pytest.mark.parametrize(
    "start",
    [(0.0, 0.0), (100.0, 0.0), (-100.0, 0.0), (100.0, 100.0), (300.0, 300.0), (300.0, 0.0)],
)
def test_no_nan_on_walls_ends_corners_and_obstacle_centres(start, solid: bool) -> None:
    """On a wall, at a wall's end, in a corner of two walls, on an obstacle's centre."""
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-100, 0), (100, 0))
    world.add_walls([(100, 100), (200, 100), (100, 200)], closed=True, thickness=2)
    world.add_walls([(100, 0), (100, 100)])
    world.add_obstacle((300, 300), 30)
    world.add_obstacle((300, 0), 10)
    sprites = [StubSprite(*start), StubSprite(*start)]
    world.attach(sprites[0], avoid_and(steer.Seek((0, 400))), solid=solid)
    world.attach(sprites[1], avoid_and(steer.Wander()), solid=solid, velocity=(30, -40))
    for _ in range(90):
        world.update(DT)
        for agent in world.agents:
            assert np.isfinite(agent.position).all() and np.isfinite(agent.velocity).all()
            assert np.isfinite(agent.force).all()


def test_components_with_no_agents_near_anything_return_exact_zeros() -> None:
    for component in (steer.AvoidWalls(), steer.AvoidObstacles()):
        np.testing.assert_array_equal(steering_force(component, (5, 5), (100, 0)), (0, 0))


def test_debug_overlay_records_feelers_hits_boxes_and_threats() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-100, 40), (100, 40))
    world.add_obstacle((0, -60), 20)
    up, down = StubSprite(0, 0), StubSprite(10, 0)
    world.attach(up, avoid_and(steer.Seek((0, 300))), velocity=(0, 200), max_speed=200)
    world.attach(down, avoid_and(steer.Seek((0, -300))), velocity=(0, -200), max_speed=200)
    world._debug_wanted = True  # what draw_debug() does, without a window
    world.update(DT)
    recorded = world._debug
    for color in (FEELER_COLOR, HIT_COLOR, BOX_COLOR, THREAT_COLOR):
        assert color in recorded.segments, color
    assert HIT_COLOR in recorded.dots


@pytest.mark.parametrize("make", [steer.AvoidWalls, steer.AvoidObstacles])
def test_contract_shapes_coincident_agents_and_batches_of_one(make) -> None:
    """(n, 2) finite forces for n = 0, 1 and coincident agents; a batch equals its members
    run one by one."""
    from arcade_steering._core.batches import Batch
    from arcade_steering.component.context import evaluate
    from arcade_steering.component.frame import BatchFrame

    world = steer.SteeringWorld(seed=0)
    world.add_wall((-50, 30), (50, 30))
    world.add_obstacle((0, 60), 15)
    world.geometry  # noqa: B018 - sync, as update() does
    component = make()
    states = [((0.0, 0.0), (0.0, 150.0)), ((0.0, 0.0), (0.0, 150.0)), ((40.0, 10.0), (-90, 90))]
    agents = [world.attach(StubSprite(*p), component, velocity=v, max_speed=200) for p, v in states]
    slots = np.array([agent._slot for agent in agents])
    frame = world._frame(DT, None)
    empty = evaluate(BatchFrame(frame, slots[:0]), Batch(slots[:0], [component]).root)
    assert empty.shape == (0, 2)
    together = evaluate(BatchFrame(frame, slots), Batch(slots, [component] * 3).root)
    assert together.shape == (3, 2) and np.isfinite(together).all()
    np.testing.assert_array_equal(together[0], together[1])
    assert np.hypot(*together[0]) > 0.0
    for index, slot in enumerate(slots):
        one = np.array([slot])
        alone = evaluate(BatchFrame(frame, one), Batch(one, [component]).root)
        np.testing.assert_allclose(alone[0], together[index], atol=1e-9)


def test_obstacles_are_put_in_agents_frames_with_the_same_rounding_on_every_machine() -> None:
    """numpy's complex product fuses a multiply and an add on AVX-512 machines: an obstacle
    exactly abeam came out 4.8e-16 ahead there (a threat) and 0 elsewhere (none), and not as
    the native step rounds; so did an agent exactly touching an obstacle. Found by the native
    step's fuzzed worlds."""
    from arcade_steering.behaviors._avoid_kernels import in_frame, lengths_of

    centre, position = (
        complex(87.81021008988043, 29.97817091119191),
        complex(70.96243604682464, -23.247914890436025),
    )
    offset = np.array([centre - position])
    heading = np.array([complex(-0.95337909366654, 0.3017752537229766)])
    rounded_apart = offset.real * heading.real + offset.imag * heading.imag
    assert rounded_apart[0] == 0.0
    assert in_frame(offset, heading).real[0] == 0.0

    rng = np.random.default_rng(5)
    offset = rng.normal(0, 100, 1000) + 1j * rng.normal(0, 100, 1000)
    heading = np.exp(1j * rng.uniform(-np.pi, np.pi, 1000))
    local = in_frame(offset, heading)
    assert (
        local.real.tobytes() == (offset.real * heading.real + offset.imag * heading.imag).tobytes()
    )
    assert (
        local.imag.tobytes() == (offset.imag * heading.real - offset.real * heading.imag).tobytes()
    )
    assert np.allclose(local, offset * heading.conj(), rtol=0, atol=1e-12)
    # Distances too (numpy's complex abs fuses multiply-adds there as well).
    x, y = local.real, local.imag
    assert lengths_of(local).tobytes() == np.sqrt(x * x + y * y).tobytes()
    assert np.allclose(lengths_of(local), np.abs(local), rtol=1e-15, atol=0)
