"""Solid agents: keep_out and the world's collision step, at any speed and step."""

from __future__ import annotations

import math

import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering.geometry import StaticGeometry, add_obstacle, add_wall, add_walls
from arcade_steering.solid.keep_out import keep_out
from arcade_steering.testing import StubSprite

DT = 1 / 60


class Push(steer.SteeringComponent):
    """Full force one way: drives agents into walls."""

    def __init__(self, direction: tuple[float, float]) -> None:
        self.direction = direction

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        return np.tile(self.direction, (len(ctx), 1)) * ctx.max_force[:, None]


def geometry_of(*build) -> StaticGeometry:
    space = pymunk.Space()
    for make in build:
        make(space)
    return StaticGeometry(space)


# --------------------------------------------------------------------------- keep_out


def test_a_60_px_step_does_not_tunnel_through_a_1_px_wall() -> None:
    geo = geometry_of(lambda s: add_wall(s, (0, -100), (0, 100), thickness=1))
    start = np.array([[-30.0, 0.0], [-30.0, 50.0], [-30.0, 99.0]])
    end = start + np.array([60.0, 0.0])
    velocity = np.tile([3600.0, 0.0], (3, 1))
    position, velocity = keep_out(geo, start, end, velocity, np.full(3, 5.0))
    np.testing.assert_allclose(position[:, 0], -0.5 - 5.0, atol=1e-2)
    assert (position[:, 0] < -5.5).all()
    np.testing.assert_allclose(velocity, 0.0, atol=1e-9)


def test_motion_along_a_wall_slides_instead_of_stopping() -> None:
    geo = geometry_of(lambda s: add_wall(s, (-500, 0), (500, 0)))
    start = np.array([[0.0, 20.0], [0.0, 9.0]])
    end = start + np.array([[40.0, -40.0], [3.0, -2.0]])  # a long and a short move into the wall
    velocity = np.array([[2400.0, -2400.0], [180.0, -120.0]])
    position, velocity = keep_out(geo, start, end, velocity, np.full(2, 8.0))
    np.testing.assert_allclose(position[:, 1], 8.0, atol=1e-2)
    np.testing.assert_allclose(position[:, 0], [40.0, 3.0], atol=1e-6)
    np.testing.assert_allclose(velocity, [[2400.0, 0.0], [180.0, 0.0]], atol=1e-9)


def test_a_circle_driven_into_a_corner_stays_out_of_both_walls() -> None:
    geo = geometry_of(lambda s: add_walls(s, [(0, 100), (0, 0), (100, 0)]))
    start = np.array([[20.0, 20.0], [30.0, 12.0], [9.0, 9.0]])
    end = start + np.array([[-40.0, -40.0], [-50.0, -3.0], [-2.0, -2.0]])
    position, _ = keep_out(geo, start, end, np.zeros((3, 2)), np.full(3, 8.0))
    assert (position >= 8.0 - 1e-6).all(), position


def test_a_circle_starting_inside_is_pushed_out_along_the_gradient() -> None:
    geo = geometry_of(lambda s: add_obstacle(s, (0, 0), 50))
    start = np.array([[10.0, 0.0], [0.0, 0.0], [0.0, -45.0]])
    position, _ = keep_out(geo, start, start + 1.0, np.zeros((3, 2)), np.full(3, 6.0))
    distance = np.hypot(*position.T)
    assert (distance >= 56.0 - 1e-6).all(), distance
    assert position[0, 0] > 50 and position[2, 1] < -50  # out the nearer way


def test_buried_and_clear_circles_move_together_as_each_group_alone() -> None:
    # The sweep of the clear circles and the dig-out of the buried ones cast their rounds
    # in one kernel pass: each must get back the keys of its own pairs, and nothing else.
    rng = np.random.default_rng(11)
    geo = geometry_of(
        lambda s: add_walls(s, [(0, 0), (400, 0), (400, 400), (0, 400)], closed=True),
        lambda s: add_wall(s, (200, 0), (120, 260), thickness=2),
        lambda s: add_obstacle(s, (300, 300), 40),
        lambda s: add_obstacle(s, (90, 320), 25),
    )
    clear = rng.uniform(30, 370, (40, 2))
    clear = clear[geo.nearest(clear, 60.0).distance > 21.0]
    buried = np.array([[300.0, 330.0], [280.0, 290.0], [95.0, 300.0], [330.0, 340.0]])
    start = np.concatenate((clear, buried))
    end = start + rng.uniform(-60, 60, start.shape)
    velocity = (end - start) * 60.0
    radius = rng.uniform(2, 20, len(start))
    together = keep_out(geo, start, end, velocity, radius)
    groups = (np.arange(len(clear)), np.arange(len(clear), len(start)))
    for rows in groups:
        alone = keep_out(geo, start[rows], end[rows], velocity[rows], radius[rows])
        np.testing.assert_array_equal(together[0][rows], alone[0])
        np.testing.assert_array_equal(together[1][rows], alone[1])
    assert (geo.nearest(buried, 100.0).distance < radius[len(clear) :]).all()  # buried
    assert (np.abs(together[0] - end).sum(axis=1) > 1e-6).sum() >= 8  # many met something


@pytest.mark.parametrize("seed", range(4))
def test_a_circle_is_kept_out_alike_however_far_the_others_move(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One circle moving more than 256 px sends the whole step's broad phase to the box grid
    (the others' queries too): every other circle must end where it ends without it, buried
    ones pushed out of two shapes included."""
    rng = np.random.default_rng(seed)
    space = pymunk.Space()
    for _ in range(40):
        a = rng.uniform(0, 600, 2)
        add_wall(space, a, a + rng.uniform(-200, 200, 2), thickness=float(rng.choice([0, 12])))
    for _ in range(20):
        add_obstacle(space, rng.uniform(0, 600, 2), float(rng.uniform(4, 40)))
    geo = StaticGeometry(space)
    start = rng.uniform(0, 600, (300, 2))
    end = start + rng.normal(0.0, 20.0, (300, 2))
    velocity = rng.normal(0.0, 200.0, (300, 2))
    radius = rng.uniform(0.0, 25.0, 300)
    alone = keep_out(geo, start, end, velocity, radius)
    fast = [
        np.concatenate((column, row))
        for column, row in zip(
            (start, end, velocity, radius),
            ([[300, 300]], [[900, 300]], [[36000, 0]], [5.0]),
            strict=True,
        )
    ]
    beside = keep_out(geo, *fast)
    np.testing.assert_array_equal(beside[0][:300], alone[0])
    np.testing.assert_array_equal(beside[1][:300], alone[1])
    assert (geo.nearest(start, 30.0).distance < radius).sum() > 20  # many start buried


def test_keep_out_leaves_free_motion_and_empty_input_alone() -> None:
    geo = geometry_of(lambda s: add_wall(s, (0, 0), (10, 0)))
    start = np.array([[100.0, 100.0]])
    end = np.array([[150.0, 90.0]])
    position, velocity = keep_out(geo, start, end, np.array([[5.0, 6.0]]), np.array([4.0]))
    np.testing.assert_array_equal(position, end)
    np.testing.assert_array_equal(velocity, [[5.0, 6.0]])
    empty = np.zeros((0, 2))
    assert keep_out(geo, empty, empty, empty, np.zeros(0))[0].shape == (0, 2)
    nothing = StaticGeometry(pymunk.Space())
    np.testing.assert_array_equal(keep_out(nothing, start, end, end, np.ones(1))[0], end)


def shape_depths(geometry: StaticGeometry, points: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """How deep circles at ``points`` are in each shape, ``(n, m)`` px, measured by pymunk."""
    distance = [[shape.point_query(tuple(p)).distance for shape in geometry.shapes] for p in points]
    return radius[:, None] - np.array(distance)


def test_buried_circles_go_no_deeper_into_what_they_overlap_and_touch_nothing_new() -> None:
    # Random walls (0-6 px thick) and obstacles, circles dropped anywhere, many buried. Each
    # shape's depth is measured by pymunk, not by the solid step's own kernels.
    rng = np.random.default_rng(7)
    buried = 0
    for _ in range(30):
        space = pymunk.Space()
        for _ in range(rng.integers(2, 8)):
            a = rng.uniform(0, 100, 2)
            b = a + rng.normal(0, 40, 2)
            add_wall(space, tuple(a), tuple(b), thickness=float(rng.choice([0.0, 2.0, 6.0])))
        for _ in range(rng.integers(0, 5)):
            add_obstacle(space, tuple(rng.uniform(0, 100, 2)), float(rng.uniform(3, 25)))
        geometry = StaticGeometry(space)
        start = rng.uniform(-10, 110, (100, 2))
        radius = rng.uniform(0, 15, 100)
        end = start + rng.normal(0, 6, (100, 2))
        position = keep_out(geometry, start, end, (end - start) * 60, radius)[0]
        before = shape_depths(geometry, start, radius)
        after = shape_depths(geometry, position, radius)
        inside = before >= 0.0
        buried += int(inside.any(axis=1).sum())
        assert (after[inside] <= before[inside] + 1e-7).all()
        assert (after[~inside] <= 1e-7).all()
    assert buried > 1000


@pytest.mark.parametrize("radius", [0.0, 4.0])
def test_keep_out_is_finite_on_cores_ends_and_centres(radius: float) -> None:
    geo = geometry_of(
        lambda s: add_wall(s, (0, 0), (100, 0)),
        lambda s: add_walls(s, [(0, 50), (0, 0)]),
        lambda s: add_obstacle(s, (200, 0), 10),
    )
    start = np.array([[50.0, 0.0], [0.0, 0.0], [100.0, 0.0], [200.0, 0.0], [0.0, 25.0]])
    for move in ([0.0, 0.0], [5.0, 5.0], [-30.0, 0.0], [0.0, -30.0]):
        position, velocity = keep_out(
            geo, start, start + move, np.tile(move, (5, 1)), np.full(5, radius)
        )
        assert np.isfinite(position).all() and np.isfinite(velocity).all()


# --------------------------------------------------------------------------- in the world


def test_agents_at_2000_px_per_second_never_leave_a_closed_box() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_walls([(0, 0), (400, 0), (400, 300), (0, 300)], closed=True)
    world.add_obstacle((200, 150), 40)
    world.add_wall((100, 50), (100, 250), thickness=1)
    rng = np.random.default_rng(0)
    sprites = []
    for _ in range(30):
        sprite = StubSprite(*rng.uniform((20, 20), (80, 280)))
        velocity = tuple(rng.uniform(-2000, 2000, 2))
        world.attach(
            sprite, steer.Wander(jitter=8), max_speed=2000, max_force=40000, velocity=velocity
        )
        sprites.append(sprite)
    for _ in range(400):
        world.update(float(rng.uniform(0.0, 0.1)))
        p = np.array([s.position for s in sprites])
        assert (p > 8.0 - 1e-6).all() and (p[:, 0] < 392 + 1e-6).all()
        assert (p[:, 1] < 292 + 1e-6).all()
        assert (np.hypot(p[:, 0] - 200, p[:, 1] - 150) > 48 - 1e-6).all()


def test_solid_false_agents_pass_through_and_solid_ones_slide() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-500, 0), (500, 0))
    ghost, solid = StubSprite(0, -50), StubSprite(50, -50)
    world.attach(ghost, Push((0.6, 0.8)), max_speed=300, solid=False)
    world.attach(solid, Push((0.6, 0.8)), max_speed=300)
    for _ in range(60):
        world.update(DT)
    assert ghost.center_y > 100
    assert solid.center_y == pytest.approx(-8.0, abs=0.01)
    assert solid.center_x > 150  # slid along the wall rather than stopping
    agent = world.agent_of(solid)
    assert agent.velocity[1] == pytest.approx(0.0, abs=1e-6) and agent.velocity[0] > 0


def test_an_agent_starting_inside_an_obstacle_gets_out() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0, 0), 40)
    sprites = [StubSprite(0, 0), StubSprite(15, -10)]
    for sprite in sprites:
        world.attach(sprite, steer.Seek((0, 0)), max_speed=100)
    for _ in range(30):
        world.update(DT)
        for sprite in sprites:
            assert math.hypot(*sprite.position) >= 48 - 1e-6


def test_static_shapes_added_to_the_space_directly_count_from_the_next_update() -> None:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0, -30)
    world.attach(sprite, Push((0.0, 1.0)), max_speed=200)
    world.update(DT)
    segment = pymunk.Segment(world.space.static_body, (-100, 0), (100, 0), 0)
    world.space.add(segment)
    for _ in range(60):
        world.update(DT)
    assert sprite.center_y == pytest.approx(-8.0, abs=0.01)
    world.space.remove(segment)
    for _ in range(30):
        world.update(DT)
    assert sprite.center_y > 0
