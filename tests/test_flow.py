"""FlowField and FollowFlowField: fields from functions, distance fields around walls and
obstacles, agents reaching a goal around a wall, batching, bad input."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60
BOUNDS = (0, 400, 0, 400)  # left, right, bottom, top


def walled_world() -> steer.SteeringWorld:
    """A wall from the floor to y=300 at x=200: the goal on the right is reached over it."""
    world = steer.SteeringWorld(seed=0)
    if hasattr(world, "add_wall"):
        world.add_wall((200, 0), (200, 300), thickness=4)
    else:
        world.space.add(pymunk.Segment(world.space.static_body, (200, 0), (200, 300), 2))
    return world


def test_from_function_vectorised_and_per_point_agree() -> None:
    def swirl(x, y):
        return -(y - 200.0), x - 200.0

    def swirl_point(x: float, y: float):
        if not isinstance(x, float):
            raise TypeError("floats only")
        return -(y - 200.0), x - 200.0

    a = steer.FlowField.from_function(swirl, BOUNDS, cell_size=25)
    b = steer.FlowField.from_function(swirl_point, BOUNDS, cell_size=25)
    assert a.shape == (16, 16)
    np.testing.assert_allclose(a.directions, b.directions)
    np.testing.assert_allclose(np.hypot(*a.directions.reshape(-1, 2).T), 1.0)
    expected = np.array([-12.5, 112.5]) / math.hypot(12.5, 112.5)  # at a cell centre
    np.testing.assert_allclose(a.direction_at([(312.5, 212.5)], interpolate=False)[0], expected)


def test_interpolation_is_unit_and_clamped_outside() -> None:
    east = steer.FlowField.from_function(lambda x, y: (np.ones_like(x), np.zeros_like(y)), BOUNDS)
    points = [(-500.0, 37.0), (1e4, 1e4), (123.4, 321.0)]
    np.testing.assert_allclose(east.direction_at(points), [(1, 0)] * 3)
    # Between a cell pointing east and one pointing north, the blend points north-east.
    dirs = np.zeros((1, 2, 2))
    dirs[0, 0], dirs[0, 1] = (1, 0), (0, 1)
    field = steer.FlowField(dirs, origin=(0, 0), cell_size=10)
    mid = field.direction_at([(10.0, 5.0)])[0]
    np.testing.assert_allclose(mid, (math.sqrt(0.5), math.sqrt(0.5)))


def test_the_outer_half_of_an_edge_cell_and_beyond_take_the_edge_cell_unblended() -> None:
    # East, north, west along a row; and east below west in a column. The left and bottom
    # edges used to blend in the next cell (x=2.5 pointed mostly north, far left north-east).
    row = steer.FlowField(np.array([[(1, 0), (0, 1), (-1, 0)]]), origin=(0, 0), cell_size=10)
    np.testing.assert_allclose(
        row.direction_at([(2.5, 5.0), (4.9, 5.0), (-10.0, 5.0), (-1000.0, 5.0)]), [(1, 0)] * 4
    )
    np.testing.assert_allclose(row.direction_at([(27.5, 5.0), (99.0, -50.0)]), [(-1, 0)] * 2)
    column = steer.FlowField(np.array([[(1, 0)], [(-1, 0)]]), origin=(0, 0), cell_size=10)
    np.testing.assert_allclose(column.direction_at([(5.0, 2.5), (5.0, -30.0)]), [(1, 0)] * 2)
    np.testing.assert_allclose(column.direction_at([(5.0, 17.5), (5.0, 80.0)]), [(-1, 0)] * 2)
    # Inside, between centres, it still blends.
    np.testing.assert_allclose(row.direction_at([(10.0, 5.0)])[0], (math.sqrt(0.5), math.sqrt(0.5)))


def test_towards_goes_around_the_wall_and_never_through_it() -> None:
    world = walled_world()
    field = steer.FlowField.towards((350, 150), world, BOUNDS, cell_size=20, clearance=12)
    assert field.goal == (350.0, 150.0)
    rows, cols = field.shape
    blocked = field.blocked
    assert blocked[:, 9:11].sum() >= 15 and not blocked[:, :8].any()
    # Left of the wall the distance exceeds the straight line: the way leads over the top.
    left = field.distance_at([(150, 150)])[0]
    assert left > 200 + 100  # the straight line is 200 px
    # Following the field cell by cell from the left reaches the goal without crossing.
    cell = field.cell_of([(30, 30)])[0]
    goal = tuple(field.cell_of([field.goal])[0])
    for _ in range(rows * cols):
        if tuple(cell) == goal:
            break
        step = np.rint(field.directions[cell[0], cell[1]] * math.sqrt(2)).clip(-1, 1)
        nxt = cell + step[::-1].astype(int)
        x0, x1 = sorted((cell[1], nxt[1]))
        assert not (x0 <= 9 < x1 and nxt[0] * 20 + 10 < 300), "crossed the wall"
        cell = nxt
    assert tuple(cell) == goal


def test_agents_reach_the_goal_around_a_wall() -> None:
    world = walled_world()
    field = steer.FlowField.towards((350, 150), world, BOUNDS, cell_size=20, clearance=14)
    follow = steer.FollowFlowField(field)
    sprites = [StubSprite(40, y) for y in (40, 150, 260, 370)]
    for sprite in sprites:
        world.attach(sprite, follow, max_speed=100, max_force=500, radius=6)
    for _ in range(round(20 / DT)):
        world.update(DT)
        for sprite in sprites:  # never on the wrong side of the wall below its top
            x, y = sprite.position
            assert not (195 < x < 205 and y < 300)
    for sprite in sprites:
        np.testing.assert_allclose(sprite.position, (350, 150), atol=3.0)


def test_obstacles_block_cells_and_an_enclosed_goal_is_unreachable() -> None:
    world = steer.SteeringWorld(seed=0)
    space = world.space
    space.add(pymunk.Circle(space.static_body, 40, (100, 100)))
    field = steer.FlowField.towards((300, 300), world, BOUNDS, cell_size=20)
    assert field.blocked[field.cell_of([(100, 100)])[0][0], field.cell_of([(100, 100)])[0][1]]
    inside = field.direction_at([(100, 100)], interpolate=False)[0]
    assert np.hypot(*inside) == pytest.approx(1.0)  # blocked cells point out
    # A box round the goal: nothing outside can reach it, so no directions there.
    box = [(260, 260), (340, 260), (340, 340), (260, 340), (260, 260)]
    for a, b in itertools.pairwise(box):
        space.add(pymunk.Segment(space.static_body, a, b, 1))
    boxed = steer.FlowField.towards((300, 300), world, BOUNDS, cell_size=20, clearance=5)
    assert not boxed.direction_at([(50, 350)], interpolate=False).any()
    assert np.isinf(boxed.distance_at([(50, 350)])[0])
    # An agent there brakes and stays put: finite and still.
    sprite = StubSprite(50, 350)
    world.attach(sprite, steer.FollowFlowField(boxed))
    for _ in range(30):
        world.update(DT)
    np.testing.assert_allclose(sprite.position, (50, 350))


def test_agents_on_different_fields_share_a_batch_and_match_agents_run_alone() -> None:
    world = walled_world()
    east = steer.FlowField.from_function(lambda x, y: (1.0, 0.2), BOUNDS, 50)
    to_goal = steer.FlowField.towards((350, 150), world, BOUNDS, cell_size=20, clearance=14)

    def make():
        return [
            (steer.FollowFlowField(to_goal), (40.0, 40.0)),
            (steer.FollowFlowField(east), (10.0, 380.0)),
            (steer.FollowFlowField(to_goal, slowing_radius=50), (60.0, 300.0)),
        ]

    together = []
    for component, start in make():
        together.append(StubSprite(*start))
        world.attach(together[-1], component, max_speed=100, max_force=500, solid=False)
    assert len(world._agents.batches()) == 1
    for _ in range(300):
        world.update(DT)
    for (component, start), sprite in zip(make(), together, strict=True):
        alone = steer.SteeringWorld(seed=0)
        single = StubSprite(*start)
        alone.attach(single, component, max_speed=100, max_force=500, solid=False)
        for _ in range(300):
            alone.update(DT)
        np.testing.assert_allclose(single.position, sprite.position, atol=1e-6)


@pytest.mark.parametrize(
    ("make", "error", "name"),
    [
        (lambda: steer.FollowFlowField("north"), TypeError, "field"),
        (lambda: steer.FlowField(np.zeros((3, 3))), ValueError, "directions"),
        (lambda: steer.FlowField(np.full((2, 2, 2), np.nan)), ValueError, "directions"),
        (lambda: steer.FlowField("abc"), TypeError, "directions"),
        (lambda: steer.FlowField(None), TypeError, "directions"),
        (lambda: steer.FlowField([[(1, 0), (1, 0)], [(1, 0)]]), ValueError, "directions"),
        (lambda: steer.FlowField(np.ones((2, 2, 2)), distance="ab"), TypeError, "distance"),
        (lambda: steer.FlowField(np.ones((2, 2, 2)), distance=np.ones(4)), ValueError, "distance"),
        (lambda: steer.FlowField.towards((10, 10), None, BOUNDS), TypeError, "world"),
        (lambda: steer.FlowField.towards((10, 10), "world", BOUNDS), TypeError, "world"),
        (lambda: steer.FlowField(np.ones((2, 2, 2)), cell_size=0), ValueError, "cell_size"),
        (lambda: steer.FlowField.from_function(3, BOUNDS), TypeError, "fn"),
        (
            lambda: steer.FlowField.from_function(lambda x, y: (x, y), (0, 0, 0, 9)),
            ValueError,
            "bounds",
        ),
        (
            lambda: steer.FlowField.from_function(lambda x, y: (x, y), (0, 1, 0)),
            TypeError,
            "bounds",
        ),
        (
            lambda: steer.FlowField.towards((999, 0), steer.SteeringWorld(), BOUNDS),
            ValueError,
            "goal",
        ),
        (
            lambda: steer.FlowField.towards((10, 10), steer.SteeringWorld(), BOUNDS, clearance=-1),
            ValueError,
            "clearance",
        ),
        (
            lambda: steer.FlowField.towards((np.nan, 0), steer.SteeringWorld(), BOUNDS),
            ValueError,
            "goal",
        ),
    ],
)
def test_bad_arguments_are_refused_naming_the_parameter(make, error, name) -> None:
    with pytest.raises(error, match=name):
        make()


def test_field_copies_its_arrays_and_takes_inf_distances() -> None:
    directions = np.ones((2, 2, 2))
    distance = np.array([[0.0, 1.0], [np.inf, 2.0]])  # inf: unreachable cells
    field = steer.FlowField(directions, distance=distance)
    np.testing.assert_array_equal(directions, np.ones((2, 2, 2)))  # normalised a copy
    assert field.distance is not None and np.isinf(field.distance[1, 0])
    distance[0, 0] = 5.0
    assert field.distance[0, 0] == 0.0


def test_towards_takes_a_pymunk_space_too() -> None:
    world = steer.SteeringWorld()
    world.add_obstacle((150, 150), 30)
    by_world = steer.FlowField.towards((10, 10), world, BOUNDS, cell_size=20)
    by_space = steer.FlowField.towards((10, 10), world.space, BOUNDS, cell_size=20)
    np.testing.assert_array_equal(by_world.directions, by_space.directions)
