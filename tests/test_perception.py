"""Perception: ``StaticGeometry.blocked``, ``SteeringWorld.can_see`` and EvadeSightCone's
``occluded``, checked against pymunk's own segment queries."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering.geometry import GEOMETRY_FILTER, StaticGeometry, add_obstacle, add_wall
from arcade_steering.testing import StubSprite

SIZE = 800.0


def cluttered_world(seed: int, walls: int = 60, obstacles: int = 25) -> steer.SteeringWorld:
    """Thin and thick walls and round obstacles at random."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=0)
    for _ in range(walls):
        a = rng.uniform(0, SIZE, 2)
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(20, 200)
        b = a + length * np.array([math.cos(angle), math.sin(angle)])
        thickness = rng.uniform(1, 16) if rng.random() < 0.5 else 0.0
        world.add_wall(tuple(a), tuple(b), thickness=thickness)
    for _ in range(obstacles):
        world.add_obstacle(tuple(rng.uniform(0, SIZE, 2)), rng.uniform(4, 40))
    return world


# -- blocked: the line-of-sight ray cast -----------------------------------------------------


def test_blocked_agrees_with_raycast_on_rays_of_every_length() -> None:
    world = cluttered_world(1)
    geo = world.geometry
    rng = np.random.default_rng(2)
    for longest in (10.0, 150.0, 600.0, 3000.0):
        starts = rng.uniform(-200, SIZE + 200, (2000, 2))
        angle = rng.uniform(0, 2 * math.pi, 2000)
        reach = rng.uniform(0, longest, 2000)
        ends = starts + reach[:, None] * np.column_stack((np.cos(angle), np.sin(angle)))
        for kinds in ("walls", "obstacles", "all"):
            expected = geo.raycast(starts, ends, kinds=kinds).hit
            np.testing.assert_array_equal(geo.blocked(starts, ends, kinds), expected)
            assert 0 < expected.sum() < len(expected)


def test_blocked_finds_contacts_on_grid_lines_and_corners() -> None:
    """Rays along cell borders, through cell corners, vertical, diagonal at 45 degrees,
    zero-length and far outside the grid find what the full ray cast finds."""
    space = pymunk.Space()
    for x in range(0, 801, 100):  # a lattice of short posts and walls on round coordinates
        for y in range(0, 801, 100):
            add_obstacle(space, (x, y), 5.0)
            add_wall(space, (x + 20, y), (x + 60, y))
            add_wall(space, (x, y + 20), (x, y + 60), thickness=4.0)
    geo = StaticGeometry(space)
    cell = 100.0 * np.arange(-1, 10)
    rays = []
    for c in cell:
        rays += [((c, -150), (c, 950)), ((-150, c), (950, c)), ((c, c), (c + 300, c + 300))]
        rays += [((c + 10, 0), (c + 10, 900)), ((c, c), (c, c)), ((c + 50, c), (c + 50, c))]
        rays += [((c, 0), (c + 800, 800)), ((c + 800, 0), (c, 800)), ((c, 80), (c + 40, 80))]
    rays += [((-5000, -5000), (-4000, -4000)), ((-5000, 400), (5000, 400))]
    starts, ends = (np.array(side, dtype=float) for side in zip(*rays, strict=True))
    for kinds in ("walls", "obstacles", "all"):
        expected = geo.raycast(starts, ends, kinds=kinds).hit
        np.testing.assert_array_equal(geo.blocked(starts, ends, kinds), expected)


def test_blocked_among_a_handful_of_shapes_and_none() -> None:
    space = pymunk.Space()
    geo = StaticGeometry(space)
    assert geo.blocked(np.zeros((3, 2)), np.ones((3, 2))).tolist() == [False] * 3
    add_wall(space, (0, -10), (0, 10))
    geo.sync(space)
    hit = geo.blocked(np.array([[-5.0, 0.0], [-5.0, 20.0]]), np.array([[5.0, 0.0], [5.0, 20.0]]))
    assert hit.tolist() == [True, False]
    assert geo.blocked(np.zeros((0, 2)), np.zeros((0, 2))).shape == (0,)


# -- can_see against pymunk --------------------------------------------------------------------


def thick_cap_touched(shape: pymunk.Shape, start: np.ndarray, end: np.ndarray) -> bool:
    """Whether the segment start-end comes within a thick wall's radius of one of its ends:
    Chipmunk's ray test misses some such contacts (see tests/test_geometry.py missed_cap)."""
    if not isinstance(shape, pymunk.Segment) or shape.radius == 0.0:
        return False
    d = end - start
    for cap in (np.array(shape.a), np.array(shape.b)):
        t = np.clip(np.dot(cap - start, d) / max(np.dot(d, d), 1e-300), 0.0, 1.0)
        if np.hypot(*(start + t * d - cap)) <= shape.radius:
            return True
    return False


def pymunk_sees(
    space: pymunk.Space,
    eye: np.ndarray,
    heading: np.ndarray,
    point: np.ndarray,
    length: float,
    half_angle: float,
    kinds: tuple[type, ...],
) -> tuple[bool, bool]:
    """The reference, one pair at a time: the cone by trigonometry, the view by pymunk.

    Returns:
        Whether it sees, and whether a Chipmunk cap miss had to be corrected.
    """
    offset = point - eye
    distance = math.hypot(*offset)
    turn = abs(math.atan2(heading[0] * offset[1] - heading[1] * offset[0], heading @ offset))
    if distance > length or (distance > 0 and turn > math.radians(half_angle)):
        return False, False
    found = space.segment_query_first(tuple(eye), tuple(point), 0.0, GEOMETRY_FILTER)
    if found is not None and isinstance(found.shape, kinds):
        return False, False
    # The first shape may be of a kind that does not count: look at every one on the way.
    hits = space.segment_query(tuple(eye), tuple(point), 0.0, GEOMETRY_FILTER)
    if any(isinstance(hit.shape, kinds) for hit in hits):
        return False, False
    capped = any(
        isinstance(shape, kinds) and thick_cap_touched(shape, eye, point) for shape in space.shapes
    )
    return not capped, capped


@pytest.mark.parametrize(
    ("length", "half_angle", "walls", "obstacles"),
    [(350.0, 50.0, True, False), (2000.0, 180.0, True, True), (500.0, 120.0, False, True)],
)
def test_can_see_agrees_with_pymunk_on_ten_thousand_pairs(
    length: float, half_angle: float, walls: bool, obstacles: bool
) -> None:
    world = cluttered_world(7)
    rng = np.random.default_rng(8)
    eyes = rng.uniform(0, SIZE, (100, 2))
    angle = rng.uniform(-math.pi, math.pi, 100)
    observers = [StubSprite(x, y) for x, y in eyes.tolist()]
    for sprite, a in zip(observers, angle.tolist(), strict=True):
        world.attach(sprite, steer.Seek((0.0, 0.0)), velocity=(10 * math.cos(a), 10 * math.sin(a)))
    targets = rng.uniform(-50, SIZE + 50, (100, 2))
    seen = world.can_see(observers, targets, length, half_angle, walls=walls, obstacles=obstacles)
    assert seen.shape == (100, 100)
    kinds = ((pymunk.Segment,) if walls else ()) + ((pymunk.Circle,) if obstacles else ())
    headings = np.column_stack((np.cos(angle), np.sin(angle)))
    capped = 0
    for i in range(100):
        for j in range(100):
            expected, fixed = pymunk_sees(
                world.space, eyes[i], headings[i], targets[j], length, half_angle, kinds
            )
            capped += fixed
            assert seen[i, j] == expected, (i, j)
    assert 0.02 < seen.mean() < 0.9
    assert capped < 20  # the correction is for the odd grazing ray, not a second oracle


# -- can_see: what it takes and what it gives ----------------------------------------------------


@pytest.fixture
def corridor() -> tuple[steer.SteeringWorld, StubSprite, StubSprite]:
    """A guard at the origin walking +x, a wall across x = 100, a post at (0, 100)."""
    world = steer.SteeringWorld(seed=0)
    world.add_wall((100, -50), (100, 50))
    world.add_obstacle((0, 100), 10)
    guard, other = StubSprite(0, 0), StubSprite(-60, 0)
    world.attach(guard, steer.Seek((50, 0)), velocity=(30, 0))
    world.attach(other, steer.Seek((-50, 0)), velocity=(-30, 0))
    return world, guard, other


def test_can_see_shapes_follow_the_arguments(corridor) -> None:
    world, guard, other = corridor
    assert world.can_see(guard, (50, 0), 200, 30) is True
    assert world.can_see(guard, (150, 0), 200, 30) is False  # behind the wall
    assert world.can_see(guard, (150, 0), 200, 30, walls=False) is True
    assert world.can_see(guard, (0, 50), 200, 30) is False  # outside the cone
    assert world.can_see(guard, (0, 50), 200, 90) is True  # on its border
    np.testing.assert_array_equal(world.can_see(guard, [(50, 0), (150, 0)], 200, 30), [1, 0])
    np.testing.assert_array_equal(world.can_see([guard, other], (-90, 0), 200, 30), [0, 1])
    both = world.can_see([guard, other], np.array([[50.0, 0.0], [-90.0, 0.0]]), 200, 30)
    np.testing.assert_array_equal(both, [[1, 0], [0, 1]])
    assert world.can_see([], [(1, 1)], 100).shape == (0, 1)
    assert world.can_see(guard, [], 100).shape == (0,)


@pytest.mark.parametrize("half_angle", [30.0, 85.9, 86.0, 90.0, 135.0, 180.0])
def test_the_cone_holds_the_points_within_its_angle_all_round(corridor, half_angle) -> None:
    """Points every degree round the guard (half a degree off each whole one, so none lies on
    the border) are seen exactly within ``half_angle`` of where it looks, behind it too for
    the wide views; the guard's own position is seen whatever the view."""
    world, guard, _ = corridor
    off_axis = np.arange(-180.0, 180.0) + 0.5
    points = 40.0 * np.column_stack((np.cos(np.radians(off_axis)), np.sin(np.radians(off_axis))))
    seen = world.can_see(guard, points, 50.0, half_angle, walls=False)
    np.testing.assert_array_equal(seen, np.abs(off_axis) <= half_angle)
    assert world.can_see(guard, guard.position, 50.0, half_angle) is True


def test_can_see_takes_agents_sprite_lists_and_unattached_sprites(corridor) -> None:
    world, guard, other = corridor
    agent = world.agent_of(guard)
    stranger = arcade.Sprite(center_x=60, center_y=0)
    crowd = arcade.SpriteList()
    crowd.extend([stranger, arcade.Sprite(center_x=60, center_y=200)])
    assert world.can_see(agent, stranger, 100, 20) is True
    np.testing.assert_array_equal(world.can_see(guard, crowd, 300, 20), [True, False])
    np.testing.assert_array_equal(world.can_see(crowd, guard, 150), [True, False])
    assert world.can_see(guard, world.agent_of(other), 100) is True
    assert world.can_see(guard, other, 100, 30) is False  # behind its back


def test_can_see_reads_where_the_game_moved_the_sprites(corridor) -> None:
    world, guard, _ = corridor
    assert world.can_see(guard, (50, 0), 200, 30) is True
    guard.position = (200, 0)  # beyond the wall now
    assert world.can_see(guard, (50, 0), 200, 180) is False


def test_an_observer_standing_still_keeps_looking_where_it_went(corridor) -> None:
    world, guard, _ = corridor
    for _ in range(120):  # Seek((50, 0)) from the origin: it stops on the point... nearly
        world.update(1 / 60)
    world.agent_of(guard).velocity = (0.0, 0.0)
    world.update(1 / 60)
    assert world.can_see(guard, (90, 0), 100, 10) is True
    assert world.can_see(guard, (-10, 0), 100, 10) is False


def test_obstacles_hide_only_when_asked(corridor) -> None:
    world, guard, _ = corridor
    assert world.can_see(guard, (0, 150), 200) is True
    assert world.can_see(guard, (0, 150), 200, obstacles=True) is False
    assert world.can_see(guard, (0, 150), 200, walls=False, obstacles=True) is False


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"length": -1.0}, ValueError, "length"),
        ({"length": float("nan")}, ValueError, "length"),
        ({"length": "far"}, TypeError, "length"),
        ({"half_angle": 0.0}, ValueError, "half_angle"),
        ({"half_angle": 181.0}, ValueError, "half_angle"),
        ({"half_angle": None}, TypeError, "half_angle"),
        ({"walls": 1}, TypeError, "walls"),
        ({"obstacles": "yes"}, TypeError, "obstacles"),
        ({"observers": None}, TypeError, "observers"),
        ({"observers": 5}, TypeError, "observers"),
        ({"observers": "ab"}, TypeError, "observers"),
        ({"observers": (1.0, 2.0)}, ValueError, "observers"),  # a point: no facing, 30 deg
        ({"observers": [StubSprite(), (1.0, 2.0)]}, ValueError, "observers"),  # no facing
        ({"targets": [StubSprite(), "ab"]}, TypeError, "targets"),
        ({"targets": (1.0, None)}, TypeError, "targets"),
        ({"targets": [(0.0, 1.0), (2.0,)]}, ValueError, "targets"),
        ({"targets": [(0.0, float("nan"))]}, ValueError, "targets"),
        ({"targets": np.zeros((2, 3))}, ValueError, "targets"),
        ({"targets": [[None, 1.0]]}, TypeError, "targets"),
        ({"targets": StubSprite(float("inf"), 0.0)}, ValueError, "targets"),
    ],
)
def test_can_see_refuses_bad_input_naming_the_parameter(corridor, kwargs, error, name) -> None:
    world, guard, _ = corridor
    args = {"observers": guard, "targets": (10.0, 0.0), "length": 100.0, "half_angle": 30.0}
    with pytest.raises(error, match=name):
        world.can_see(**{**args, **kwargs})


class Placed:
    """A sprite-like whose ``position`` is whatever the game gave it."""

    def __init__(self, position: object) -> None:
        self.position = position


BAD_POSITIONS = [
    (None, TypeError, r" must be an \(x, y\) pair, got NoneType"),
    ((1.0,), ValueError, r" must be an \(x, y\) pair of 2 coordinates, got 1"),
    ((1.0, 2.0, 3.0), ValueError, r" must be an \(x, y\) pair of 2 coordinates, got 3"),
    ({"x": 1.0, "y": 2.0}, TypeError, r" must be an \(x, y\) pair, got dict"),
    ("ab", TypeError, r" must be an \(x, y\) pair, got str"),
    (("a", "b"), TypeError, r"\[0\] \(x\) must be a number, got str"),
]


@pytest.mark.parametrize(("position", "error", "message"), BAD_POSITIONS)
def test_sprites_with_bad_positions_are_refused_as_attach_refuses_them(
    corridor, position, error, message
) -> None:
    world, guard, _ = corridor
    with pytest.raises(error, match=r"^sprite.position" + message):
        steer.SteeringWorld().attach(Placed(position), steer.Wander())
    with pytest.raises(error, match=r"^targets.position" + message):
        world.can_see(guard, Placed(position), 100)
    with pytest.raises(error, match=r"^observers.position" + message):
        world.can_see(Placed(position), (0, 0), 100)
    with pytest.raises(error, match=r"^targets\[1\].position" + message):
        world.can_see(guard, [guard, Placed(position)], 100)


def test_a_tuple_of_three_numbers_is_a_bad_point_not_three_targets(corridor) -> None:
    world, guard, _ = corridor
    pair = r"^targets must be an \(x, y\) pair of 2 coordinates, got "
    with pytest.raises(ValueError, match=pair + "3$"):
        world.can_see(guard, (1, 2, 3), length=10)
    with pytest.raises(ValueError, match=pair + "1$"):
        world.can_see(guard, [5.0], length=10)


def test_points_and_unattached_sprites_see_all_round_only(corridor) -> None:
    world, _, _ = corridor
    assert world.can_see((0, 0), (50, 0), 100) is True
    assert world.can_see(StubSprite(0, 0), (150, 0), 200) is False
    with pytest.raises(ValueError, match="observers"):
        world.can_see(StubSprite(0, 0), (50, 0), 100, 179.0)


def test_a_detached_agent_cannot_look(corridor) -> None:
    world, guard, _ = corridor
    agent = world.agent_of(guard)
    world.detach(guard)
    with pytest.raises(RuntimeError, match="detached"):
        world.can_see(agent, (10, 0), 100)


# -- EvadeSightCone(occluded=True) -------------------------------------------------------------


def cone_forces(occluded: bool) -> np.ndarray:
    """A leader walking +x towards a wall at x = 60; followers in its cone before and behind
    the wall, and one out of the cone."""
    world = steer.SteeringWorld(seed=0)
    world.add_wall((60, -100), (60, 100))
    leader = StubSprite(0, 0)
    world.attach(leader, steer.Seek((1000, 0)), velocity=(50, 0))
    cone = steer.EvadeSightCone(leader, length=150, half_angle=30, occluded=occluded)
    followers = [StubSprite(x, y) for x, y in ((40, 5), (100, 5), (100, -20), (0, 90))]
    for sprite in followers:
        world.attach(sprite, cone, velocity=(50, 0))
    return world.steering_forces()[1:]


def test_a_follower_behind_a_wall_does_not_dodge_when_occluded() -> None:
    seen, hidden = cone_forces(False), cone_forces(True)
    np.testing.assert_array_equal(hidden[0], seen[0])  # before the wall: the same push
    assert (np.hypot(*seen[1:3].T) > 0).all()  # through the wall, by default
    np.testing.assert_array_equal(hidden[1:3], 0.0)  # hidden by it
    np.testing.assert_array_equal(hidden[3], 0.0)
    np.testing.assert_array_equal(seen[3], 0.0)
