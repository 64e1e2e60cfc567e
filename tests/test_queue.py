"""Queue: agents brake behind those ahead of them and go again when the way clears.

Kernels first, then trajectories: a file stopping behind a standing agent and walking on when
it leaves, two agents closing in on one spot, a crowd at a doorway one agent wide.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.behaviors.queueing import Queue, gives_way, lane_gaps, safe_speeds
from arcade_steering.testing import StubSprite

DT = 1 / 60
RADIUS = 10.0
#: The most two agents may overlap, px (the issue's figure).
OVERLAP = 2.0

# -- kernels ---------------------------------------------------------------------------------


def test_lane_gaps_measure_the_way_left_along_the_heading() -> None:
    offset = np.array([[50.0, 0.0], [50.0, 12.0], [50.0, 30.0], [-50.0, 0.0], [10.0, 0.0]])
    heading = np.tile([1.0, 0.0], (5, 1))
    still = np.zeros(5)
    along, gap, in_lane = lane_gaps(offset, heading, np.full(5, 22.0), still, np.full(5, 50.0))
    assert along.tolist() == [50.0, 50.0, 50.0, -50.0, 10.0]
    assert gap[0] == pytest.approx(28.0)  # straight ahead: the centre distance less 22
    assert gap[1] == pytest.approx(50.0 - math.sqrt(22.0**2 - 12.0**2))  # off-centre
    assert gap[2] == math.inf and gap[3] == math.inf  # beside the lane, behind
    assert gap[4] == pytest.approx(-12.0)  # closer than the clearance already
    assert in_lane.tolist() == [True, True, False, True, True]


def test_lane_gaps_see_an_agent_crossing_the_lane() -> None:
    """30 px to the side and 50 ahead, crossing at 60 px/s: level with it in 1 s at 50 px/s,
    by when it is 30 px to the other side; it is in the way, though not in the lane now."""
    offset = np.array([[50.0, 30.0], [50.0, 30.0], [50.0, 30.0]])
    heading = np.tile([1.0, 0.0], (3, 1))
    crossing = np.array([-60.0, 60.0, -60.0])  # across, away, across
    speed = np.array([50.0, 50.0, 0.0])  # a standing agent looks a second ahead
    _, gap, in_lane = lane_gaps(offset, heading, np.full(3, 22.0), crossing, speed)
    assert gap.tolist() == [28.0, math.inf, 28.0]
    assert not in_lane.any()


def test_of_two_agents_exactly_one_gives_way() -> None:
    mine = np.array([5.0, 3.0, 4.0, 4.0])
    theirs = np.array([-5.0, 4.0, 4.0, 4.0])
    slots, others = np.array([0, 0, 1, 0]), np.array([1, 1, 0, 1])
    assert gives_way(mine, theirs, slots, others).tolist() == [True, False, True, False]
    # Swapping the roles swaps the answers: never both, never neither.
    assert gives_way(theirs, mine, others, slots).tolist() == [False, True, False, True]


def test_safe_speeds_let_an_agent_stop_where_the_one_ahead_stops() -> None:
    gap = np.array([0.0, 50.0, 50.0, -5.0, np.inf])
    ahead = np.array([0.0, 0.0, 30.0, 40.0, 0.0])
    safe = safe_speeds(gap, ahead, np.full(5, 100.0))
    assert safe[:4] == pytest.approx(
        [0.0, 100.0, math.sqrt(30.0**2 + 100.0**2), 40.0 - 10.0 * math.sqrt(10.0)]
    )
    assert safe[4] == math.inf
    assert safe_speeds(np.array([10.0]), np.array([-50.0]), np.array([5.0]))[0] == 10.0


# -- trajectories ----------------------------------------------------------------------------


def _file(world: steer.SteeringWorld, behavior, count: int = 5) -> list[StubSprite]:
    """``count`` agents in a row on y = 0 heading east, 30 px apart, the first at x = 0."""
    sprites = [StubSprite(-30.0 * i, 0.0) for i in range(count)]
    for sprite in sprites:
        world.attach(
            sprite,
            behavior(sprites),
            max_speed=100,
            max_force=400,
            radius=RADIUS,
            velocity=(100.0, 0.0),
        )
    return sprites


def _gaps(sprites: list[StubSprite]) -> np.ndarray:
    """Distances between the circles of each pair, px (negative: overlapping)."""
    points = np.array([sprite.position for sprite in sprites])
    distance = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1))
    return distance[np.triu_indices(len(points), 1)] - 2 * RADIUS


def _queueing(goal):
    """Queue first, then the drive with Separation, which keeps them apart while they stand."""
    return lambda group: steer.PriorityBlend(
        Queue(), steer.WeightedBlend((steer.Arrive(goal), 1.0), (steer.Separation(26.0), 2.0))
    )


def test_a_file_stops_behind_a_standing_agent_and_walks_on_when_it_leaves() -> None:
    world = steer.SteeringWorld(seed=0)
    blocker = StubSprite(200.0, 0.0)
    agent = world.attach(blocker, steer.Arrive((200.0, 0.0)), radius=RADIUS, max_speed=100)
    walkers = _file(world, _queueing((600.0, 0.0)))
    closest = math.inf
    for _ in range(int(3.0 / DT)):
        world.update(DT)
        closest = min(closest, _gaps([blocker, *walkers]).min())
    # They stand in a line behind it, each at least the margin from the one ahead.
    xs = [sprite.center_x for sprite in walkers]
    assert xs == sorted(xs, reverse=True) and xs[0] < 200.0
    assert closest > -OVERLAP
    waiting = [sprite.center_x for sprite in walkers]
    for _ in range(int(1.0 / DT)):
        world.update(DT)
        closest = min(closest, _gaps([blocker, *walkers]).min())
    assert np.subtract([sprite.center_x for sprite in walkers], waiting) == pytest.approx(
        [0.0] * 5, abs=1.0
    )  # they wait
    agent.behavior = steer.Arrive((900.0, 0.0))  # the way clears
    for _ in range(int(4.0 / DT)):
        world.update(DT)
        closest = min(closest, _gaps([blocker, *walkers]).min())
    assert min(sprite.center_x for sprite in walkers) > 400.0
    assert closest > -OVERLAP


def test_without_queue_the_file_walks_into_the_standing_agent() -> None:
    """The figure above is Queue's doing: Arrive alone runs the file over the blocker."""
    world = steer.SteeringWorld(seed=0)
    blocker = StubSprite(200.0, 0.0)
    world.attach(blocker, steer.Arrive((200.0, 0.0)), radius=RADIUS)
    walkers = _file(world, lambda group: steer.Arrive((600.0, 0.0)))
    closest = math.inf
    for _ in range(int(3.0 / DT)):
        world.update(DT)
        closest = min(closest, _gaps([blocker, *walkers]).min())
    assert closest < -RADIUS


def test_a_file_keeps_the_pace_of_a_slower_agent_ahead() -> None:
    world = steer.SteeringWorld(seed=0)
    slow = StubSprite(100.0, 0.0)
    world.attach(slow, steer.Seek((5000.0, 0.0)), radius=RADIUS, max_speed=40, velocity=(40, 0))
    walkers = _file(world, _queueing((5000.0, 0.0)))
    for _ in range(int(4.0 / DT)):
        world.update(DT)
        assert _gaps([slow, *walkers]).min() > -OVERLAP
    start = [sprite.center_x for sprite in walkers]
    for _ in range(int(1.0 / DT)):
        world.update(DT)
        assert _gaps([slow, *walkers]).min() > -OVERLAP
    pace = np.subtract([sprite.center_x for sprite in walkers], start)
    assert pace == pytest.approx([40.0] * 5, abs=2.0)  # px in the last second


def test_two_agents_closing_in_on_one_spot_take_turns() -> None:
    """Mirror images of each other: the one in the higher slot gives way, and they pass
    the point one after the other without touching."""
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(0.0, 60.0), StubSprite(0.0, -60.0)]
    goal = (100.0, 0.0)
    for sprite in sprites:
        tree = steer.PriorityBlend(
            Queue(among=sprites),
            steer.FollowWaypoints([goal, (600.0, 0.0)], mode="once", arrive_radius=5.0),
        )
        world.attach(sprite, tree, max_speed=80, max_force=300, radius=RADIUS)
    closest, passed = math.inf, {}
    for step in range(int(6.0 / DT)):
        world.update(DT)
        closest = min(closest, _gaps(sprites).min())
        for index, sprite in enumerate(sprites):
            if sprite.center_x > goal[0] and index not in passed:
                passed[index] = step
    assert closest >= 0.0
    assert passed[0] < passed[1]  # the first slot went first


def test_queue_is_silent_with_nobody_ahead() -> None:
    world = steer.SteeringWorld(seed=0)
    behind = StubSprite(-100.0, 0.0)
    world.attach(behind, steer.Seek((-500.0, 0.0)), radius=RADIUS)
    beside = StubSprite(0.0, 40.0)
    world.attach(beside, steer.Seek((500.0, 40.0)), radius=RADIUS)
    me = StubSprite(0.0, 0.0)
    world.attach(me, Queue(), radius=RADIUS, velocity=(100.0, 0.0))
    assert world.steering_forces(DT)[-1].tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"distance": 0}, ValueError, "distance"),
        ({"distance": math.nan}, ValueError, "distance"),
        ({"margin": -1}, ValueError, "margin"),
        ({"margin": "2"}, TypeError, "margin"),
        ({"among": 5}, TypeError, "among"),
    ],
)
def test_queue_refuses_bad_input(kwargs, error, name) -> None:
    with pytest.raises(error, match=name):
        Queue(**kwargs)


# -- a crowd at a doorway one agent wide -----------------------------------------------------

WALL_X, DOOR_Y = 400.0, 300.0
#: Two agents cannot pass side by side (40 px); one passes with 3 px to spare on each side.
DOOR = 26.0
CROWD_ROWS, CROWD_COLUMNS, CROWD_SPACING = 6, 5, 24.0
FRONT_X = 250.0
SPEED, FORCE = 100.0, 400.0


def _doorway_world() -> tuple[steer.SteeringWorld, steer.Path]:
    """A room 600 px high split by a wall at x = 400 with a door at y = 300, and the route
    through the door."""
    world = steer.SteeringWorld(seed=0)
    world.add_walls([(-800, 0), (3000, 0), (3000, 600), (-800, 600)], closed=True)
    world.add_wall((WALL_X, 0.0), (WALL_X, DOOR_Y - DOOR / 2))
    world.add_wall((WALL_X, DOOR_Y + DOOR / 2), (WALL_X, 600.0))
    return world, steer.Path([(-800.0, DOOR_Y), (2900.0, DOOR_Y)], radius=4.0)


def _through_the_door(
    starts: list[tuple[float, float]], behavior, seconds: float = 20.0
) -> tuple[float, float, int]:
    """Walk agents from ``starts`` through the door, each with ``behavior(route, sprites)``.

    Returns:
        When the last one was through (inf if not within ``seconds``), the most two of them
        ever overlapped (px), and how many times one crossed the wall's line outside the door.
    """
    world, route = _doorway_world()
    sprites = [StubSprite(x, y) for x, y in starts]
    tree = behavior(route, sprites)
    for sprite in sprites:
        world.attach(sprite, tree, max_speed=SPEED, max_force=FORCE, radius=RADIUS)
    before = np.array([sprite.position for sprite in sprites])
    overlap, through_wall = 0.0, 0
    for step in range(1, int(seconds / DT) + 1):
        world.update(DT)
        now = np.array([sprite.position for sprite in sprites])
        overlap = max(overlap, -_gaps(sprites).min())
        crossed = (before[:, 0] < WALL_X) & (now[:, 0] >= WALL_X)
        through_wall += int(np.count_nonzero(np.abs(now[crossed, 1] - DOOR_Y) > DOOR / 2))
        before = now
        if (now[:, 0] > WALL_X + RADIUS).all():
            return step * DT, overlap, through_wall
    return math.inf, overlap, through_wall


def _crowd() -> list[tuple[float, float]]:
    """Six rows of five, 24 px apart, the front row 150 px before the wall."""
    return [
        (FRONT_X - row * CROWD_SPACING, DOOR_Y + (column - 2) * CROWD_SPACING)
        for row in range(CROWD_ROWS)
        for column in range(CROWD_COLUMNS)
    ]


def _queueing_crowd(route: steer.Path, crowd: list[StubSprite]) -> steer.SteeringComponent:
    return steer.PriorityBlend(
        Queue(among=crowd),
        steer.WeightedBlend(
            (steer.FollowPath(route), 1.0),
            (steer.Separation(24.0, among=crowd), 2.0),
            (steer.AvoidWalls(), 1.0),
        ),
    )


def test_thirty_agents_pass_a_doorway_one_agent_wide_nearly_as_fast_as_a_single_file() -> None:
    """The issue's figure: all through within 1.2 times the time the same 30 agents take
    walking it alone in a single file (lined up on the door's axis, 2 px apart, the first as
    far from the door as the crowd's front row, steered by the route alone), no two ever
    overlapping by more than 2 px, none through a wall. Measured: 1.14 (9.2 s against 8.1 s),
    no overlap at all. (At 30 updates a second, 1.25.)"""
    single_file = [(FRONT_X - i * (2 * RADIUS + 2.0), DOOR_Y) for i in range(30)]
    alone, _, _ = _through_the_door(single_file, lambda route, _: steer.FollowPath(route))
    assert alone == pytest.approx(8.1, abs=0.1)
    crowd, overlap, through_wall = _through_the_door(_crowd(), _queueing_crowd)
    assert crowd <= 1.2 * alone
    assert overlap <= OVERLAP
    assert through_wall == 0


def test_without_queue_the_crowd_pushes_through_each_other_at_the_door() -> None:
    def pushing(route: steer.Path, crowd: list[StubSprite]) -> steer.SteeringComponent:
        return _queueing_crowd(route, crowd).children[1]

    _, overlap, _ = _through_the_door(_crowd(), pushing)
    assert overlap > 3 * OVERLAP
