"""FollowWaypoints: the three modes visit waypoints in order, "once" stops on the last,
batching across waypoint lists, moving Paths as waypoints, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60
POINTS = [(0, 0), (200, 0), (200, 200), (0, 200)]


def track(component: steer.FollowWaypoints, start=(0.0, 0.0), seconds: float = 30.0):
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(*start)
    world.attach(sprite, component, max_speed=120, max_force=600)
    out = np.empty((round(seconds / DT), 2))
    for step in range(len(out)):
        world.update(DT)
        out[step] = sprite.position
    return out


def visits(positions: np.ndarray, points, within: float) -> list[int]:
    """The waypoints the track comes within ``within`` px of, in order, repeats collapsed."""
    pts = np.asarray(points, dtype=float)
    order: list[int] = []
    for position in positions:
        near = np.flatnonzero(np.hypot(*(pts - position).T) <= within)
        if near.size and (not order or order[-1] != near[0]):
            order.append(int(near[0]))
    return order


def test_loop_goes_round_and_round() -> None:
    order = visits(track(steer.FollowWaypoints(POINTS, arrive_radius=20)), POINTS, 20)
    assert len(order) >= 12
    assert order[:12] == [0, 1, 2, 3] * 3


def test_pingpong_walks_back_and_forth() -> None:
    order = visits(track(steer.FollowWaypoints(POINTS, 20, mode="pingpong")), POINTS, 20)
    assert order[:10] == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3]


def test_once_arrives_and_stops_at_the_last() -> None:
    positions = track(steer.FollowWaypoints(POINTS, 20, mode="once"), seconds=15)
    assert visits(positions, POINTS, 20) == [0, 1, 2, 3]
    np.testing.assert_allclose(positions[-1], POINTS[-1], atol=2.5)
    assert np.hypot(*(positions[-1] - positions[-60])) < 0.5  # at rest for the last second


def test_a_path_serves_as_moving_waypoints() -> None:
    path = steer.Path(POINTS, closed=True)
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.FollowWaypoints(path, 20, mode="once"), max_speed=120)
    base = np.array(POINTS, dtype=float)
    for step in range(720):
        path.points = base + np.array([0.1, 0.05]) * min(step, 600)  # moves, then rests
        world.update(DT)
    np.testing.assert_allclose(sprite.position, path.points[-1], atol=2.5)
    assert path.points[-1][0] > 50  # where the last point moved to, not where it was


def test_agents_with_own_lists_share_a_batch_and_match_agents_run_alone() -> None:
    # (The mode is structural: agents with different modes are batched apart.)
    def make():
        return [
            (steer.FollowWaypoints(POINTS, 20), (0.0, 0.0)),
            (steer.FollowWaypoints(POINTS[::-1], 30), (50.0, 50.0)),
            (steer.FollowWaypoints([(0, 0), (300, 50), (100, 100)], 15), (9.0, 9.0)),
        ]

    world = steer.SteeringWorld(seed=0)
    sprites = []
    for component, start in make():
        sprites.append(StubSprite(*start))
        world.attach(sprites[-1], component, max_speed=100, max_force=500)
    assert len(world._agents.batches()) == 1
    for _ in range(500):
        world.update(DT)
    for (component, start), together in zip(make(), sprites, strict=True):
        alone = steer.SteeringWorld(seed=0)
        sprite = StubSprite(*start)
        alone.attach(sprite, component, max_speed=100, max_force=500)
        for _ in range(500):
            alone.update(DT)
        np.testing.assert_allclose(sprite.position, together.position, atol=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"points": [(0, 0)]}, ValueError, "points"),
        ({"points": []}, ValueError, "points"),
        ({"points": [(0, 0), (np.nan, 0)]}, ValueError, "points"),
        ({"points": [(0, 0), (np.inf, 0)]}, ValueError, "points"),
        ({"points": "abc"}, TypeError, "points"),
        ({"points": None}, TypeError, "points"),
        ({"points": 5}, TypeError, "points"),
        ({"points": [("a", "b"), (1, 2)]}, TypeError, "points"),
        ({"points": [(0, 0, 0), (1, 1, 1)]}, ValueError, "points"),
        ({"points": [(0, 0), (1, 2, 3)]}, ValueError, "points"),
        ({"arrive_radius": 0}, ValueError, "arrive_radius"),
        ({"arrive_radius": -5}, ValueError, "arrive_radius"),
        ({"arrive_radius": "big"}, TypeError, "arrive_radius"),
        ({"mode": "bounce"}, ValueError, "mode"),
        ({"mode": 1}, TypeError, "mode"),
    ],
)
def test_bad_arguments_are_refused_naming_the_parameter(kwargs, error, name) -> None:
    arguments = {"points": POINTS, **kwargs}
    with pytest.raises(error, match=name):
        steer.FollowWaypoints(**arguments)


def test_a_refused_mode_changes_nothing() -> None:
    component = steer.FollowWaypoints(POINTS, mode="once")
    with pytest.raises(ValueError, match="mode"):
        component.mode = "shuffle"
    assert component.mode == "once"


@pytest.mark.parametrize("mode", ["loop", "pingpong", "once"])
def test_waypoints_within_reach_are_all_passed_in_one_step(mode) -> None:
    # The agent stands on the first three points: it must head for the fourth at once, not
    # seek, one step each, the points it is standing on (a zero force: it would not move).
    points = [(0, 0), (0, 0), (5, 0), (200, 0), (200, 200)]
    world = steer.SteeringWorld(seed=0)
    agents = []
    for start in ((0.0, 0.0), (2.0, 0.0)):  # two agents of one batch, each its own index
        agents.append(
            world.attach(
                StubSprite(*start), steer.FollowWaypoints(points, 10.0, mode), max_speed=120
            )
        )
    world.update(DT)
    for agent in agents:
        assert agent.velocity[0] > 0.0 and agent.velocity[1] == 0.0


def test_advance_reached_stops_after_one_lap_when_every_point_is_within_reach() -> None:
    from arcade_steering.behaviors.waypoints import advance_reached, final_run

    points = np.array([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (50.0, 0.0), (50.0, 0.0)])
    first = np.array([0, 0, 3])
    count = np.array([3.0, 3.0, 2.0])
    position = np.array([(0.0, 0.0), (100.0, 0.0), (50.0, 0.0)])
    for mode in ("loop", "pingpong", "once"):
        index, sense = advance_reached(
            points, first, count, np.zeros(3), np.ones(3), position, np.full(3, 5.0), mode
        )
        assert index[1] == 0.0 and sense[1] == 1.0  # nothing within reach: unchanged
        assert 0.0 <= index[0] < 3.0 and 0.0 <= index[2] < 2.0
        if mode == "once":
            assert index[0] == 2.0 and index[2] == 1.0
    np.testing.assert_array_equal(final_run(points, np.array([0, 3])), [2.0, 0.0])
