"""ContextSteering: gets round a U-shaped trap where a weighted blend of seek and avoidance
stays stuck, turns no jerkier than that blend on an open field, is frame-rate independent,
and refuses bad parameters naming them."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.behaviors.context_steering import ContextSteering, choose
from arcade_steering.testing import StubSprite, steering_force

MAX_SPEED, MAX_FORCE, RADIUS = 120.0, 400.0, 10.0
#: Within this many px of the target counts as reached.
REACHED = 10.0


def _u_trap_world(seed: int) -> tuple[steer.SteeringWorld, tuple, tuple]:
    """A world with a U-shaped wall between a start and a goal, the U opening towards the
    start: random width, depth and tilt. Returns ``(world, start, goal)``."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(-0.4, 0.4)
    width, depth = rng.uniform(90.0, 140.0), rng.uniform(60.0, 100.0)
    centre = np.array([500.0, 400.0])
    along = np.array([math.cos(angle), math.sin(angle)])
    across = np.array([-along[1], along[0]])
    corners = [
        centre - depth * along + 0.5 * width * across,
        centre + 0.5 * width * across,
        centre - 0.5 * width * across,
        centre - depth * along - 0.5 * width * across,
    ]
    world = steer.SteeringWorld(seed=0)
    world.add_walls([tuple(c) for c in corners], thickness=4)
    start = tuple(centre - (depth + 200.0) * along)
    goal = tuple(centre + 120.0 * along)
    return world, start, goal


def _seconds_to_reach(behavior, world, start, goal, fps: int = 60, limit: float = 20.0):
    sprite = StubSprite(*start)
    world.attach(sprite, behavior, max_speed=MAX_SPEED, max_force=MAX_FORCE, radius=RADIUS)
    for frame in range(int(limit * fps)):
        world.update(1 / fps)
        if math.dist(sprite.position, goal) < REACHED:
            return frame / fps
    return None


def _blend(goal) -> steer.WeightedBlend:
    return steer.WeightedBlend(
        (steer.Seek(goal), 1.0), (steer.AvoidObstacles(), 1.0), (steer.AvoidWalls(), 1.0)
    )


def test_it_gets_round_a_u_trap_where_the_weighted_blend_stays_stuck() -> None:
    reached, stuck = 0, 0
    for seed in range(10):
        world, start, goal = _u_trap_world(seed)
        if _seconds_to_reach(ContextSteering(goal), world, start, goal) is not None:
            reached += 1
        world, start, goal = _u_trap_world(seed)
        if _seconds_to_reach(_blend(goal), world, start, goal) is None:
            stuck += 1
    assert (reached, stuck) == (10, 10)


def _heading_change_per_second(behavior, target_at, fps: int = 60, seconds: float = 12.0):
    """Mean absolute change of the direction of travel, degrees per second, of an agent
    chasing ``target_at(t)`` on an open field."""
    world = steer.SteeringWorld(seed=0)
    clock = [0.0]
    sprite = StubSprite(0.0, 0.0)
    agent = world.attach(
        sprite, behavior(lambda: target_at(clock[0])), max_speed=MAX_SPEED, max_force=MAX_FORCE
    )
    headings = []
    for _ in range(int(seconds * fps)):
        clock[0] += 1 / fps
        world.update(1 / fps)
        vx, vy = agent.velocity
        if math.hypot(vx, vy) > 1.0:
            headings.append(math.atan2(vy, vx))
    change = np.abs((np.diff(headings) + math.pi) % (2 * math.pi) - math.pi)
    return math.degrees(change.sum()) / seconds


def _circling(t: float) -> tuple[float, float]:
    return (300.0 * math.cos(0.4 * t), 300.0 * math.sin(0.4 * t) + 100.0)


def _zigzag(t: float) -> tuple[float, float]:
    return (60.0 * t, 250.0 if int(t / 2.0) % 2 else -250.0)


@pytest.mark.parametrize("target_at", [_circling, _zigzag])
def test_on_an_open_field_its_heading_is_no_jerkier_than_the_weighted_blend(target_at) -> None:
    ours = _heading_change_per_second(ContextSteering, target_at)
    blend = _heading_change_per_second(_blend, target_at)
    assert ours <= blend * 1.02, (ours, blend)


@pytest.mark.parametrize("fps", [30, 144])
def test_the_trap_is_rounded_alike_at_30_60_and_144_fps(fps) -> None:
    world, start, goal = _u_trap_world(3)
    at_60 = _seconds_to_reach(ContextSteering(goal), world, start, goal, fps=60)
    world, start, goal = _u_trap_world(3)
    other = _seconds_to_reach(ContextSteering(goal), world, start, goal, fps=fps)
    assert at_60 is not None and other is not None
    assert abs(other - at_60) <= 0.1 * at_60, (at_60, other)


def test_with_nothing_in_the_way_it_heads_straight_at_the_target() -> None:
    for angle in np.linspace(0.0, 360.0, 37):  # between ring directions too
        goal = (500 * math.cos(math.radians(angle)), 500 * math.sin(math.radians(angle)))
        force = steering_force(ContextSteering(goal), (0.0, 0.0), (0.0, 0.0), max_speed=100)
        direction = math.degrees(math.atan2(force[1], force[0]))
        assert abs((direction - angle + 180.0) % 360.0 - 180.0) < 1.0, (angle, direction)


def test_it_stops_at_the_target_and_slows_before_it() -> None:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0.0, 0.0)
    agent = world.attach(sprite, ContextSteering((300.0, 0.0)), max_speed=MAX_SPEED)
    for _ in range(600):
        world.update(1 / 60)
    assert math.dist(sprite.position, (300.0, 0.0)) < 3.0
    assert agent.speed < 1.0


def test_it_keeps_off_a_wall_straight_ahead() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((200.0, -300.0), (200.0, 300.0))
    sprite = StubSprite(0.0, 0.0)
    world.attach(sprite, ContextSteering((400.0, 0.0)), max_speed=MAX_SPEED, radius=RADIUS)
    closest = math.inf
    for _ in range(240):
        world.update(1 / 60)
        closest = min(closest, abs(sprite.center_x - 200.0))
    assert closest >= RADIUS  # never touched the wall: went along it, round its end
    assert abs(sprite.center_y) > 60.0


@pytest.mark.parametrize("as_danger", [False, True])
def test_agents_listed_as_danger_are_gone_round_and_others_are_not(as_danger) -> None:
    world = steer.SteeringWorld(seed=0)
    blocker = StubSprite(150.0, 0.0)
    world.attach(blocker, steer.Arrive((150.0, 0.0)), radius=RADIUS)
    sprite = StubSprite(0.0, 0.0)
    agents = [blocker] if as_danger else ()
    behavior = ContextSteering((300.0, 0.0), agents=agents)
    world.attach(sprite, behavior, max_speed=MAX_SPEED, radius=RADIUS)
    closest = math.inf
    for _ in range(300):
        world.update(1 / 60)
        closest = min(closest, math.dist(sprite.position, blocker.position))
    assert math.dist(sprite.position, (300.0, 0.0)) < REACHED  # got there either way
    if as_danger:
        assert closest >= 2 * RADIUS - 0.5, closest
    else:
        assert closest < 2.0, closest  # straight through: only listed agents are danger


def test_masked_directions_lose_to_safe_ones_and_the_choice_leans_away_from_them() -> None:
    interest = np.array([[1.0, 0.9, 0.5, 0.1, 0.0, 0.1, 0.5, 0.9]])
    danger = np.zeros((1, 8))
    straight = np.array([7.9])
    slot, _ = choose(interest, danger, straight)
    assert slot[0] == pytest.approx(7.9)  # straight: both ring directions round it are safe
    danger[0, 0] = danger[0, 1] = 0.5
    slot, chosen = choose(interest, danger, straight)
    assert 6.5 < slot[0] <= 7.5 and chosen[0] == 0.0


def test_agents_on_the_target_or_surrounded_get_finite_forces() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((0.0, 0.0), 30.0)
    world.add_walls([(-20, -20), (20, -20), (20, 20), (-20, 20)], closed=True)
    sprites = [StubSprite(0.0, 0.0), StubSprite(5.0, 5.0), StubSprite(5.0, 5.0)]
    for sprite in sprites:
        world.attach(sprite, ContextSteering((5.0, 5.0)), solid=False)
    for _ in range(30):
        world.update(1 / 60)
    for agent in world.agents:
        assert np.isfinite(agent.force).all() and np.isfinite(agent.position).all()


@pytest.mark.parametrize(
    ("kwargs", "error", "named"),
    [
        ({"directions": 3}, ValueError, "directions"),
        ({"directions": 65}, ValueError, "directions"),
        ({"directions": 8.5}, ValueError, "directions"),
        ({"directions": "16"}, TypeError, "directions"),
        ({"look_ahead": 0.0}, ValueError, "look_ahead"),
        ({"look_ahead": math.nan}, ValueError, "look_ahead"),
        ({"slowing_radius": -1.0}, ValueError, "slowing_radius"),
        ({"tolerance": math.inf}, ValueError, "tolerance"),
        ({"agents": "tanks"}, TypeError, "agents"),
        ({"agents": [(1.0, 2.0)]}, TypeError, "agents"),
    ],
)
def test_bad_parameters_are_refused_naming_them(kwargs, error, named) -> None:
    with pytest.raises(error, match=named):
        ContextSteering((0.0, 0.0), **kwargs)
    component = ContextSteering((0.0, 0.0))
    name, value = next(iter(kwargs.items()))
    before = getattr(component, name)
    with pytest.raises(error, match=named):
        setattr(component, name, value)
    assert getattr(component, name) == before
