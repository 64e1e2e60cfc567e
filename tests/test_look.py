"""Where agents look: Face, LookWhereYouAreGoing and Scan turn the look direction within the
turn limits, the sprite follows the look, blends combine turns, and an agent whose tree does
not turn looks where it goes, bit for bit as before."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.behaviors import look as look_module
from arcade_steering.testing import StubSprite


def _angle(vector: tuple[float, float]) -> float:
    """Degrees counter-clockwise from +x."""
    return math.degrees(math.atan2(vector[1], vector[0]))


def _gap(a: float, b: float) -> float:
    return abs((a - b + 180.0) % 360.0 - 180.0)


@pytest.mark.parametrize("fps", [30, 60, 144])
@pytest.mark.parametrize("turn", [90.0, 179.0, -120.0])
def test_face_turns_onto_its_target_in_the_time_the_turn_rate_allows(fps, turn) -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    target = (100 * math.cos(math.radians(turn)), 100 * math.sin(math.radians(turn)))
    agent = world.attach(sprite, steer.Face(target), max_turn_rate=90.0)
    assert agent.look == (1.0, 0.0)
    elapsed, rates = 0.0, []
    while _gap(_angle(agent.look), turn) > 2.0 and elapsed < 5.0:
        world.update(1 / fps)
        elapsed += 1 / fps
        rates.append(abs(agent.angular_velocity))
    allowed = abs(turn) / 90.0
    assert elapsed <= allowed + 0.2, elapsed
    assert max(rates) <= 90.0 + 1e-9
    for _ in range(fps):  # and stays there, no wobble
        world.update(1 / fps)
        assert _gap(_angle(agent.look), turn) <= 2.0
    # The sprite faces where the agent looks (arcade's angle is clockwise).
    assert _gap(-sprite.angle, turn) <= 2.0
    assert agent.position == (0.0, 0.0)  # Face gives no force


def test_the_angular_acceleration_limit_holds_and_face_brakes_in_time() -> None:
    world = steer.SteeringWorld()
    agent = world.attach(
        StubSprite(0, 0), steer.Face((0, 100)), max_turn_rate=180.0, max_angular_acceleration=360.0
    )
    previous, worst_change, overshoot = 0.0, 0.0, 0.0
    for _ in range(180):
        world.update(1 / 60)
        worst_change = max(worst_change, abs(agent.angular_velocity - previous) * 60)
        previous = agent.angular_velocity
        overshoot = max(overshoot, _angle(agent.look) - 90.0)
        assert abs(agent.angular_velocity) <= 180.0 + 1e-9
    assert worst_change <= 360.0 + 1e-6
    assert overshoot < 2.0
    assert _gap(_angle(agent.look), 90.0) < 0.6


def test_an_agent_walks_one_way_and_watches_another() -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    watched = StubSprite(0, 300)
    tree = steer.WeightedBlend((steer.Seek((1000, 0)), 1.0), (steer.Face(watched), 1.0))
    agent = world.attach(sprite, tree, max_speed=100, max_turn_rate=120)
    for _ in range(120):
        world.update(1 / 60)
        watched.position = (sprite.position[0], 300.0)  # keeps abreast, to the left
    assert agent.heading == pytest.approx((1.0, 0.0), abs=1e-6)
    assert _gap(_angle(agent.look), 90.0) < 1.0
    assert sprite.center_x > 150


def test_look_where_you_are_going_turns_smoothly_onto_the_heading() -> None:
    world = steer.SteeringWorld()
    seek = steer.Seek((1000, 0))
    tree = steer.WeightedBlend((seek, 1.0), (steer.LookWhereYouAreGoing(), 1.0))
    agent = world.attach(StubSprite(0, 0), tree, max_speed=100, max_turn_rate=60)
    for _ in range(60):
        world.update(1 / 60)
    seek.target = (-1000, 0)  # about turn: the heading flips within a few frames
    looks = []
    for _ in range(300):
        world.update(1 / 60)
        looks.append(_angle(agent.look))
        assert abs(agent.angular_velocity) <= 60 + 1e-9
    steps = np.abs(np.diff(np.unwrap(np.radians(looks))))
    assert np.degrees(steps).max() <= 1.0 + 1e-9  # 60 deg/s at 60 FPS
    assert _gap(looks[-1], 180.0) < 1.0


def test_without_a_turning_component_the_look_is_the_heading_bit_for_bit() -> None:
    world = steer.SteeringWorld(seed=3)
    agents = [
        world.attach(StubSprite(10 * i, 0), steer.Wander(), max_speed=80, max_turn_rate=10)
        for i in range(5)
    ]
    for _ in range(120):
        world.update(1 / 60)
        for agent in agents:
            assert agent.look == agent.heading


def test_scan_sweeps_either_side_of_the_heading() -> None:
    world = steer.SteeringWorld()
    tree = steer.WeightedBlend((steer.Seek((5000, 0)), 1.0), (steer.Scan(50.0, period=2.0), 1.0))
    agent = world.attach(StubSprite(0, 0), tree, max_speed=60)
    offsets = []
    for _ in range(8 * 60):
        world.update(1 / 60)
        offsets.append(_angle(agent.look) - _angle(agent.heading))
    late = np.array(offsets[120:])  # the heading has settled
    assert 45.0 <= late.max() <= 51.0
    assert -51.0 <= late.min() <= -45.0
    crossings = np.flatnonzero(np.diff(np.sign(late)) > 0)  # one a sweep
    assert np.diff(crossings).mean() == pytest.approx(120, abs=3)


def test_priority_blend_takes_the_first_turn_and_weighted_blend_adds_them() -> None:
    world = steer.SteeringWorld()
    first = world.attach(
        StubSprite(0, 0), steer.PriorityBlend(steer.Face((0, 100)), steer.Face((0, -100)))
    )
    after_walls = world.attach(
        StubSprite(20, 0), steer.PriorityBlend(steer.AvoidWalls(), steer.Face((20, -100)))
    )
    summed = world.attach(
        StubSprite(50, 0),
        steer.WeightedBlend((steer.Face((50, 100)), 1.0), (steer.Seek((50, 0)), 1.0)),
    )
    world.update(1 / 60)
    assert first.angular_velocity > 0  # towards (0, 100), counter-clockwise
    for _ in range(120):
        world.update(1 / 60)
    assert _gap(_angle(after_walls.look), -90.0) < 1.0  # AvoidWalls has no opinion on looks
    assert _gap(_angle(summed.look), 90.0) < 1.0


def test_agents_turn_the_same_batched_as_alone() -> None:
    targets = [(100, 40), (-30, 80), (0, -100), (60, 60), (5, 0)]

    def looks(together: bool) -> list[tuple[float, float]]:
        worlds = [steer.SteeringWorld()] if together else [steer.SteeringWorld() for _ in targets]
        agents = []
        for index, point in enumerate(targets):
            world = worlds[0 if together else index]
            tree = steer.WeightedBlend((steer.Face(point), 1.0), (steer.Scan(30.0), 0.5))
            agents.append(world.attach(StubSprite(0, 0), tree, max_turn_rate=45 + 10 * index))
        for _ in range(90):
            for world in worlds:
                world.update(1 / 60)
        return [agent.look for agent in agents]

    assert looks(together=True) == looks(together=False)


def test_coincident_targets_and_agents_turn_nowhere_and_stay_finite() -> None:
    world = steer.SteeringWorld()
    agent = world.attach(StubSprite(0, 0), steer.Face((0, 0)))
    world.update(1 / 60)
    assert agent.look == (1.0, 0.0)
    assert agent.angular_velocity == 0.0


@pytest.mark.usefixtures("both_paths")
@pytest.mark.parametrize("look", [(-1.0, 0.0), (-0.6, -0.8), (0.0, -1.0), (-0.6, 0.8)])
def test_a_target_on_the_agent_keeps_its_look_whichever_way_it_looks(look) -> None:
    """A zero direction over a look to -x gave a quotient of signed zeros whose angle is
    180°: the agent turned round."""
    world = steer.SteeringWorld()
    agent = world.attach(StubSprite(10, 10), steer.Face((10, 10)))
    agent.look = look
    for _ in range(10):
        world.update(1 / 60)
    assert agent.look == pytest.approx(look, abs=1e-15)
    assert agent.angular_velocity == 0.0


def test_the_angles_of_turns_are_the_c_librarys_atan2_bit_for_bit() -> None:
    """What the native step's C computes, so both paths turn to the same bits (numpy's own
    arctan2 rounds otherwise on AVX-512 CPUs)."""
    rng = np.random.default_rng(5)
    scale = 10.0 ** rng.uniform(-30, 30, (2, 4000))
    z = rng.normal(size=4000) * scale[0] + 1j * rng.normal(size=4000) * scale[1]
    angles = look_module._angle_of(z)
    assert [math.atan2(4.0 * v.imag, 4.0 * v.real) for v in z] == angles.tolist()


def test_snapshots_hold_where_agents_look() -> None:
    world = steer.SteeringWorld()
    agent = world.attach(StubSprite(0, 0), steer.Scan(60.0, period=1.0), max_turn_rate=200)
    for _ in range(20):
        world.update(1 / 60)
    saved = world.snapshot()
    first = []
    for _ in range(30):
        world.update(1 / 60)
        first.append((agent.look, agent.angular_velocity))
    world.restore(saved)
    again = []
    for _ in range(30):
        world.update(1 / 60)
        again.append((agent.look, agent.angular_velocity))
    assert first == again


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"max_turn_rate": 0}, ValueError, "max_turn_rate"),
        ({"max_turn_rate": -5.0}, ValueError, "max_turn_rate"),
        ({"max_turn_rate": float("nan")}, ValueError, "max_turn_rate"),
        ({"max_turn_rate": "fast"}, TypeError, "max_turn_rate"),
        ({"max_angular_acceleration": 0.0}, ValueError, "max_angular_acceleration"),
    ],
)
def test_bad_turn_limits_are_refused_naming_the_option(options, error, message) -> None:
    world = steer.SteeringWorld()
    with pytest.raises(error, match=message):
        world.attach(StubSprite(0, 0), steer.Face((1, 1)), **options)
    assert len(world) == 0


def test_the_agent_view_reads_and_sets_look_and_limits() -> None:
    world = steer.SteeringWorld()
    agent = world.attach(StubSprite(0, 0), steer.Face((0, 10)))
    assert agent.max_turn_rate is None
    assert agent.max_angular_acceleration is None
    agent.max_turn_rate = 30
    agent.max_angular_acceleration = 100
    assert (agent.max_turn_rate, agent.max_angular_acceleration) == (30.0, 100.0)
    agent.look = (0, -3)
    assert agent.look == (0.0, -1.0)
    with pytest.raises(ValueError, match="look must not be"):
        agent.look = (0, 0)
    with pytest.raises(ValueError, match="max_turn_rate"):
        agent.max_turn_rate = -1
    agent.max_turn_rate = None
    assert agent.max_turn_rate is None


def test_evade_sight_cone_follows_where_a_leader_looks() -> None:
    world = steer.SteeringWorld()
    leader = StubSprite(0, 0)
    world.attach(leader, steer.Face((0, 100)), velocity=(0.0, 0.0))  # heads east, looks north
    follower = StubSprite(0, 60)
    world.attach(follower, steer.EvadeSightCone(leader, length=120, half_angle=20), max_speed=50)
    start = follower.position
    for _ in range(60):
        world.update(1 / 60)
    assert world.agent_of(leader).heading == (1.0, 0.0)
    assert abs(follower.position[0] - start[0]) > 10  # pushed out sideways of the look


def test_can_see_looks_where_the_agent_looks() -> None:
    world = steer.SteeringWorld()
    guard = StubSprite(0, 0)
    world.attach(guard, steer.Face((0, 100)))  # heads east, turns to look north
    ahead, north = (80.0, 0.0), (0.0, 80.0)
    assert world.can_see(guard, [ahead, north], 100, 30).tolist() == [True, False]
    for _ in range(60):
        world.update(1 / 60)
    assert world.agent_of(guard).heading == (1.0, 0.0)
    assert world.can_see(guard, [ahead, north], 100, 30).tolist() == [False, True]
