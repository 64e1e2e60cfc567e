"""Behaviours by their trajectories: Seek, Arrive, Pursue, Flee, Evade, Wander, and targets."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite, steering_force


def run_until(world: steer.SteeringWorld, done, seconds: float, dt: float = 1 / 60, each=None):
    """Update until ``done()``; the time it took, or None if it never happened."""
    for step in range(round(seconds / dt)):
        if each is not None:
            each(dt)
        world.update(dt)
        if done():
            return (step + 1) * dt
    return None


# -- Seek --------------------------------------------------------------------------------------


def test_seek_reaches_its_target(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Seek((300, -400)), max_speed=200, max_force=600)
    took = run_until(world, lambda: math.dist(sprite.position, (300, -400)) < 5.0, 5.0)
    assert took is not None
    assert 2.5 < took < 3.5  # 500 px at 200 px/s, plus the speed-up
    assert agent.speed == pytest.approx(200.0, rel=0.05)


def test_seek_from_rest_is_max_speed_over_response_time() -> None:
    force = steering_force(steer.Seek((100, 0)), position=(0, 0), max_speed=50)
    np.testing.assert_allclose(force, [500.0, 0.0])
    force = steering_force(steer.Seek((3, -30)), position=(3, 10), max_speed=60, response_time=0.2)
    np.testing.assert_allclose(force, [0.0, -300.0], atol=1e-12)


def test_seek_on_course_is_silent() -> None:
    force = steering_force(steer.Seek((500, 0)), position=(0, 0), velocity=(80, 0), max_speed=80)
    np.testing.assert_allclose(force, [0.0, 0.0], atol=1e-9)


# -- Arrive ------------------------------------------------------------------------------------


def arrive_run(
    start: tuple[float, float],
    target: tuple[float, float],
    seconds: float,
    dt: float = 1 / 60,
    *,
    slowing_radius: float = 100.0,
    tolerance: float = 2.0,
    **options,
) -> tuple[float, float, float]:
    """Largest signed distance past the target along the approach, final distance, speed."""
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(*start)
    agent = world.attach(
        sprite,
        steer.Arrive(target, slowing_radius=slowing_radius, tolerance=tolerance),
        **options,
    )
    approach = np.subtract(target, start) / math.dist(target, start)
    beyond = -math.inf
    for _ in range(round(seconds / dt)):
        world.update(dt)
        beyond = max(beyond, float(np.dot(np.subtract(sprite.position, target), approach)))
    return beyond, math.dist(sprite.position, target), agent.speed


@pytest.mark.parametrize("dt", [1 / 30, 1 / 60, 1 / 144])
@pytest.mark.parametrize(
    ("seconds", "options"),
    [
        (5.0, {}),
        (5.0, {"slowing_radius": 10.0}),
        (5.0, {"slowing_radius": 0.5, "max_speed": 300, "max_force": 3000}),
        (12.0, {"max_force": 40.0}),
        (12.0, {"slowing_radius": 10.0, "max_force": 40.0}),
        (10.0, {"max_force": 100.0, "response_time": 0.5}),
        (5.0, {"tolerance": 0.0}),
    ],
    ids=["default", "small-radius", "tiny-radius", "low-force", "small-low", "slow", "tol0"],
)
def test_arrive_stops_on_target_without_overshoot(dt, seconds, options) -> None:
    tolerance = options.get("tolerance", 2.0)
    beyond, distance, speed = arrive_run((0, 0), (240, 180), seconds, dt, **options)
    assert beyond < 0.02
    assert distance <= tolerance + 0.05
    assert speed < 0.05


def test_arrive_takes_the_straight_line(world) -> None:
    sprite = StubSprite(-100, 50)
    world.attach(sprite, steer.Arrive((200, 50)))
    for _ in range(240):
        world.update(1 / 60)
        assert sprite.center_y == pytest.approx(50.0, abs=1e-9)
    assert sprite.center_x == pytest.approx(200.0, abs=2.0)


def test_arrive_follows_a_moved_sprite_target(world) -> None:
    goal = StubSprite(100, 0)
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Arrive(goal))
    for _ in range(180):
        world.update(1 / 60)
    assert math.dist(sprite.position, goal.position) <= 2.05
    goal.position = (-200, 300)
    for _ in range(400):
        world.update(1 / 60)
    assert math.dist(sprite.position, goal.position) <= 2.05


def test_arrive_at_an_attached_sprite(world) -> None:
    leader = StubSprite(0, 0)
    follower = StubSprite(-200, -100)
    world.attach(leader, steer.Arrive((300, 100)), max_speed=80)
    world.attach(follower, steer.Arrive(leader, tolerance=5.0), max_speed=160)
    for _ in range(600):
        world.update(1 / 60)
    assert math.dist(leader.position, (300, 100)) <= 2.05
    assert math.dist(follower.position, leader.position) <= 5.05


def test_callable_target_is_read_every_update(world) -> None:
    goal = [(200.0, 0.0)]
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Arrive(lambda: goal[0]))
    for _ in range(240):
        world.update(1 / 60)
    assert math.dist(sprite.position, goal[0]) <= 2.05
    goal[0] = (200.0, -150.0)
    for _ in range(240):
        world.update(1 / 60)
    assert math.dist(sprite.position, goal[0]) <= 2.05


# -- Pursue ------------------------------------------------------------------------------------


def chase_time(make, mode: str, dt: float = 1 / 60) -> float | None:
    """Seconds ``make(quarry)`` takes to catch a quarry crossing at 100 px/s, or None.

    ``mode``: "moved" (a sprite the test moves), "attached" (the world moves it) or
    "callable" (a function giving the moved sprite's position).
    """
    world = steer.SteeringWorld(seed=0)
    quarry = StubSprite(-100, 300)
    hunter = StubSprite(0, 0)
    if mode == "attached":
        world.attach(quarry, steer.Seek((1e6, 300)), max_speed=100, velocity=(100, 0))

    def move(step_dt: float) -> None:
        if mode != "attached":
            quarry.center_x += 100 * step_dt

    aim = (lambda: quarry.position) if mode == "callable" else quarry
    world.attach(hunter, make(aim), max_speed=150, max_force=600)
    return run_until(
        world, lambda: math.dist(hunter.position, quarry.position) < 10.0, 10.0, dt, move
    )


@pytest.mark.parametrize("mode", ["moved", "attached", "callable"])
@pytest.mark.parametrize("dt", [1 / 30, 1 / 60])
def test_pursue_catches_a_moving_sprite_sooner_than_seek(mode, dt) -> None:
    pursue = chase_time(steer.Pursue, mode, dt)
    seek = chase_time(steer.Seek, mode, dt)
    assert pursue is not None
    assert seek is not None
    assert pursue < 0.85 * seek


def test_pursue_aims_where_an_attached_quarry_will_be(world) -> None:
    quarry = StubSprite(200, 0)
    world.attach(quarry, steer.Seek((200, 1e6)), max_speed=50, velocity=(0, 50))
    force = steering_force(
        steer.Pursue(quarry, max_prediction=1.0), position=(0, 0), world=world, max_speed=100
    )
    # Look-ahead min(200 / 100, 1.0) = 1 s: aim at (200, 50).
    desired = np.array([200.0, 50.0]) / math.hypot(200, 50) * 100
    np.testing.assert_allclose(force, desired / 0.1)


def test_pursue_of_a_still_quarry_is_seek() -> None:
    quarry = StubSprite(50, 80)
    pursue = steering_force(steer.Pursue(quarry), position=(0, 0), velocity=(10, 0))
    seek = steering_force(steer.Seek(quarry), position=(0, 0), velocity=(10, 0))
    np.testing.assert_allclose(pursue, seek)


# -- Flee and Evade ----------------------------------------------------------------------------


def test_flee_acts_only_inside_panic_distance() -> None:
    flee = steer.Flee((0, 0), panic_distance=100)
    for position, velocity in [((150, 0), (0, 0)), ((0, -101), (30, 40)), ((100, 0), (-5, 0))]:
        force = steering_force(flee, position=position, velocity=velocity)
        assert force.tolist() == [0.0, 0.0]
    force = steering_force(flee, position=(60, 0), max_speed=100)
    np.testing.assert_allclose(force, [1000.0, 0.0])
    force = steering_force(flee, position=(0, 99.9), velocity=(20, 0), max_speed=100)
    assert force[1] > 0 and force[0] < 0


def test_flee_without_panic_distance_acts_everywhere() -> None:
    force = steering_force(steer.Flee((0, 0)), position=(1e5, 0), max_speed=10)
    np.testing.assert_allclose(force, [100.0, 0.0])


def test_flee_ends_beyond_panic_distance(world) -> None:
    threat = (100, 100)
    sprites = [StubSprite(100 + dx, 100 + dy) for dx, dy in [(20, 0), (-5, 30), (0, -60)]]
    for sprite in sprites:
        world.attach(sprite, steer.Flee(threat, panic_distance=150), max_speed=120)
    for _ in range(180):
        world.update(1 / 60)
    for sprite in sprites:
        assert math.dist(sprite.position, threat) > 150


def test_evade_acts_only_inside_threat_range() -> None:
    threat = StubSprite(0, 0)
    evade = steer.Evade(threat, threat_range=80)
    for position, velocity in [((100, 0), (0, 0)), ((0, 80), (10, 10))]:
        assert steering_force(evade, position=position, velocity=velocity).tolist() == [0.0, 0.0]
    force = steering_force(evade, position=(-40, 0), max_speed=100)
    np.testing.assert_allclose(force, [-1000.0, 0.0])


def test_evade_flees_from_where_the_threat_will_be(world) -> None:
    threat = StubSprite(-100, 50)
    world.attach(threat, steer.Seek((1e6, 50)), max_speed=200, velocity=(200, 0))
    force = steering_force(
        steer.Evade(threat, threat_range=500, max_prediction=0.5),
        position=(0, 0),
        world=world,
        max_speed=100,
    )
    # Look-ahead min(|(-100, 50)| / 100, 0.5) = 0.5 s: the threat will be at (0, 50).
    np.testing.assert_allclose(force, [0.0, -1000.0], atol=1e-9)


def test_evade_ends_beyond_threat_range(world) -> None:
    threat = StubSprite(0, 0)
    sprites = [StubSprite(30, 0), StubSprite(0, -50)]
    for sprite in sprites:
        world.attach(sprite, steer.Evade(threat, threat_range=120), max_speed=120)

    def approach(dt: float) -> None:
        threat.center_x += 20 * dt

    run_until(world, lambda: False, 3.0, each=approach)
    for sprite in sprites:
        assert math.dist(sprite.position, threat.position) > 120


# -- never NaN ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda p: steer.Flee(p),
        lambda p: steer.Flee(p, panic_distance=50),
        lambda p: steer.Evade(p),
        lambda p: steer.Evade(p, threat_range=50),
    ],
    ids=["flee", "flee-panic", "evade", "evade-range"],
)
def test_coincident_agents_fleeing_their_own_point_split_up(world, make) -> None:
    sprites = [StubSprite(5, 5), StubSprite(5, 5), StubSprite(5, 5)]
    for sprite in sprites:
        world.attach(sprite, make((5, 5)), max_speed=100)
    for _ in range(60):
        world.update(1 / 60)
    where = np.array([sprite.position for sprite in sprites])
    assert np.isfinite(where).all()
    assert all(math.dist(p, (5, 5)) > 40 for p in where)
    assert min(math.dist(a, b) for i, a in enumerate(where) for b in where[i + 1 :]) > 20


@pytest.mark.parametrize(
    "make",
    [lambda p: steer.Seek(p), lambda p: steer.Arrive(p), lambda p: steer.Pursue(StubSprite(*p))],
    ids=["seek", "arrive", "pursue"],
)
def test_agent_on_its_target_stays_finite(world, make) -> None:
    sprite = StubSprite(7, -3)
    agent = world.attach(sprite, make((7, -3)))
    for _ in range(30):
        world.update(1 / 60)
    assert sprite.position == (7, -3)
    assert agent.force == (0.0, 0.0)
    assert math.isfinite(sprite.angle)


def test_tiny_limits_are_fine(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(
        sprite,
        steer.WeightedBlend((steer.Arrive((100, 0)), 1.0), (steer.Wander(), 1.0)),
        max_speed=1e-9,
        max_force=1e-12,
        mass=1e-6,
        response_time=1e-9,
    )
    for _ in range(60):
        world.update(1 / 60)
    assert np.isfinite(sprite.position).all()
    assert agent.speed <= 1e-9 * (1 + 1e-9)
    assert np.isfinite(agent.force).all()


# -- Wander ------------------------------------------------------------------------------------


def wander_track(seed: int, dt: float = 1 / 60, seconds: float = 2.0) -> np.ndarray:
    world = steer.SteeringWorld(seed=seed)
    sprites = [StubSprite(0, 0), StubSprite(100, 0), StubSprite(0, 100)]
    for sprite in sprites:
        world.attach(sprite, steer.Wander(radius=25, distance=50, jitter=2.5), max_speed=90)
    track = []
    for _ in range(round(seconds / dt)):
        world.update(dt)
        track.append([sprite.position for sprite in sprites])
    return np.array(track)


def test_wander_is_reproducible_for_a_seed() -> None:
    assert np.array_equal(wander_track(7), wander_track(7))
    assert np.abs(wander_track(7) - wander_track(8)).max() > 10.0


def test_wander_moves_and_turns() -> None:
    track = wander_track(3, seconds=4.0)
    steps = np.diff(track, axis=0)
    headings = np.arctan2(steps[..., 1], steps[..., 0])
    turned = np.abs(np.angle(np.exp(1j * (headings[-1] - headings[30]))))
    assert (np.linalg.norm(track[-1] - track[0], axis=1) > 30).all()
    assert (turned > 0.05).any()


def heading_spread(dt: float, seed: int, count: int = 300, seconds: float = 2.0) -> float:
    """RMS heading (radians from +x) of agents that all started heading +x."""
    world = steer.SteeringWorld(seed=seed)
    wander = steer.Wander(radius=10, distance=100, jitter=2.0)
    agents = [
        world.attach(StubSprite(0, 0), wander, max_speed=100, velocity=(100, 0))
        for _ in range(count)
    ]
    for _ in range(round(seconds / dt)):
        world.update(dt)
    angles = np.array([math.atan2(a.heading[1], a.heading[0]) for a in agents])
    return float(np.sqrt(np.mean(angles**2)))


def test_wander_randomness_does_not_depend_on_frame_rate() -> None:
    slow = np.mean([heading_spread(1 / 30, seed) for seed in (0, 1)])
    fast = np.mean([heading_spread(1 / 144, seed) for seed in (0, 1)])
    assert slow > 0.3  # it does wander
    assert fast == pytest.approx(slow, rel=0.15)
