"""Degenerate set-ups (issue #8): agents on shapes' centres, ends and corners, dt of zero,
repeated path points, two-point loops, walls thicker than long, coincident agents, and
agents chasing themselves. Everything stays finite; solid agents end outside every shape."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

STEPS = 300
DT = 1 / 60
RADIUS = 8.0


def assert_finite(world: steer.SteeringWorld) -> None:
    """Every agent's state finite and its speed within its limit."""
    for agent in world.agents:
        state = (*agent.position, *agent.velocity, *agent.force, *agent.heading)
        assert np.isfinite(state).all(), agent
        assert agent.speed <= agent.max_speed * (1 + 1e-9), agent


def clearance(world: steer.SteeringWorld, agent: steer.SteeringAgent) -> float:
    """Signed distance from the agent's circle to the nearest surface (negative: overlap)."""
    near = world.geometry.nearest(np.array([agent.position]), agent.radius + 1.0)
    if not near.found[0]:
        return math.inf
    return float(near.distance[0]) - agent.radius


def run(world: steer.SteeringWorld, steps: int = STEPS, dt: float = DT) -> None:
    """``steps`` updates; positions checked after each (NaN in a velocity reaches the position
    on the next step and stays), the whole state every 50 and at the end."""
    sprites = [agent.sprite for agent in world.agents]
    for step in range(steps):
        world.update(dt)
        assert np.isfinite([sprite.position for sprite in sprites]).all(), step
        if step % 50 == 0:
            assert_finite(world)
    assert_finite(world)


# -- agents on the geometry ------------------------------------------------------------------
# Each place builds its shapes around ``(x, y)`` and gives the spot to put agents on.


def on_obstacle_centre(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_obstacle((x, y), 20)
    return x, y


def on_wall_centre_line(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_wall((x - 100, y), (x + 100, y))
    return x, y


def on_thick_wall_centre_line(
    world: steer.SteeringWorld, x: float, y: float
) -> tuple[float, float]:
    world.add_wall((x - 100, y), (x + 100, y), thickness=12)
    return x + 37.5, y


def at_wall_end(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_wall((x, y), (x + 150, y))
    return x, y


def at_far_wall_end(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_wall((x - 150, y + 40), (x, y), thickness=6)
    return x, y


def in_polyline_corner(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_walls([(x + 150, y), (x, y), (x, y + 150)])
    return x, y


def in_corner_of_two_walls(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    # Two separate segments meeting at a point (not one polyline), the inside a right angle.
    world.add_wall((x, y), (x + 150, y), thickness=4)
    world.add_wall((x, y + 150), (x, y), thickness=4)
    return x, y


def in_closed_box_corner(world: steer.SteeringWorld, x: float, y: float) -> tuple[float, float]:
    world.add_walls([(x, y), (x + 60, y), (x + 60, y + 60), (x, y + 60)], closed=True)
    return x + 60, y + 60


PLACES = [
    on_obstacle_centre,
    on_wall_centre_line,
    on_thick_wall_centre_line,
    at_wall_end,
    at_far_wall_end,
    in_polyline_corner,
    in_corner_of_two_walls,
    in_closed_box_corner,
]

BEHAVIORS = {
    "AvoidWalls": lambda x, y: steer.AvoidWalls(),
    "AvoidObstacles": lambda x, y: steer.AvoidObstacles(),
    "Seek": lambda x, y: steer.Seek((x + 30.0, y + 30.0)),  # through the shape from most spots
    "Priority": lambda x, y: steer.PriorityBlend(
        steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek((x - 30.0, y - 40.0))
    ),
}
VELOCITIES = {"still": (0.0, 0.0), "moving": (0.0, -80.0)}


def test_agents_on_the_geometry_stay_finite_and_solid_ones_get_out() -> None:
    # Every place, 1000 px apart, in one world, with every behaviour, solid or not, still or
    # moving: without group behaviours the agents do not see each other, and one batch per
    # tree over all places keeps the test fast.
    world = steer.SteeringWorld(seed=0)
    agents = {}
    for i, place in enumerate(PLACES):
        x, y = place(world, 1000.0 * i, 500.0)
        for behavior, make in BEHAVIORS.items():
            for solid in (True, False):
                for moving, velocity in VELOCITIES.items():
                    agents[place.__name__, behavior, solid, moving] = world.attach(
                        StubSprite(x, y),
                        make(x, y),
                        radius=RADIUS,
                        solid=solid,
                        velocity=velocity,
                        max_speed=150,
                        max_force=600,
                    )
    solid = {label: agent for label, agent in agents.items() if label[2]}
    world.update(DT)
    assert_finite(world)
    for label, agent in solid.items():  # pushed out by the very first step: a hard constraint
        assert clearance(world, agent) >= -1e-6, label
    run(world, STEPS - 1)
    for label, agent in solid.items():
        assert clearance(world, agent) >= -1e-6, label


# -- dt of zero ------------------------------------------------------------------------------


def wander_world(seed: int = 3) -> tuple[steer.SteeringWorld, list[StubSprite]]:
    """A world of four wanderers; keep the sprites (the world holds them weakly)."""
    world = steer.SteeringWorld(seed=seed)
    world.add_wall((-300, -120), (300, -120))
    sprites = [StubSprite(20.0 * i, 0.0) for i in range(4)]
    for sprite in sprites:
        world.attach(
            sprite,
            steer.WeightedBlend((steer.Wander(), 1.0), (steer.Separation(40.0), 1.0)),
            velocity=(30.0, 5.0),
        )
    return world, sprites


def state(world: steer.SteeringWorld) -> list[tuple]:
    return [(a.position, a.velocity, a.force, a.heading) for a in world.agents]


@pytest.mark.parametrize("dt", [0.0, -0.0, -1 / 60, -1e9])
def test_a_sequence_of_empty_steps_changes_nothing(dt) -> None:
    world, _sprites = wander_world()
    run(world, 5)
    before = state(world)
    draws = world.rng.bit_generator.state
    for _ in range(50):
        world.update(dt)
    assert state(world) == before
    assert world.rng.bit_generator.state == draws  # not even a random number drawn


def test_empty_steps_interleaved_give_the_same_run() -> None:
    plain, _kept = wander_world()
    gappy, _also_kept = wander_world()
    for _ in range(40):
        plain.update(DT)
        for dt in (0.0, -0.0, -1.0, 0.0):
            gappy.update(dt)
        gappy.update(DT)
    assert state(plain) == state(gappy)


@pytest.mark.parametrize("dt", [1e-300, 5e-324, 1e-12])
def test_vanishing_steps_stay_finite(dt) -> None:
    world, sprites = wander_world()
    start = [s.position for s in sprites]
    run(world, 50, dt)
    for sprite, (x, y) in zip(sprites, start, strict=True):
        assert math.dist(sprite.position, (x, y)) < 1e-6


def test_a_huge_step_is_split_and_stays_finite() -> None:
    world, _sprites = wander_world()
    world.max_step = 0.05
    world.update(3.0)  # 60 sub-steps
    assert_finite(world)


# -- paths: repeated points, two-point loops ---------------------------------------------------

REPEATED = [(0, 0), (0, 0), (100, 0), (100, 0), (100, 0), (100, 100), (100, 100)]
DISTINCT = [(0, 0), (100, 0), (100, 100)]
PATH_STEPS = 200  # round the corner and (closed) on along the way back


def path_followers(path: steer.Path) -> dict[str, steer.SteeringComponent]:
    return {
        "FollowPath": steer.FollowPath(path),
        "FollowPath-always": steer.FollowPath(path, always=True),
        "FollowPath-loop": steer.FollowPath(path, at_end="loop"),
        "FollowPath-reverse": steer.FollowPath(path, at_end="reverse"),
        "FollowPath-backwards": steer.FollowPath(path, direction=-1),
        "StayOnPath": steer.PriorityBlend(steer.StayOnPath(path), steer.Seek((100.0, 100.0))),
    }


def trajectories(points, closed: bool, make) -> dict[str, np.ndarray]:
    """Positions ``(PATH_STEPS, 2)`` of one follower per entry of ``make(path)``, in one world."""
    path = steer.Path(points, radius=10.0, closed=closed)
    world = steer.SteeringWorld(seed=0)
    sprites = {}
    for name, component in make(path).items():
        sprites[name] = StubSprite(-5.0, 3.0)
        world.attach(sprites[name], component, max_speed=120)
    seen = {name: np.empty((PATH_STEPS, 2)) for name in sprites}
    for step in range(PATH_STEPS):
        world.update(DT)
        assert_finite(world)
        for name, sprite in sprites.items():
            seen[name][step] = sprite.position
    return seen


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_repeated_path_points_change_nothing_for_path_followers(closed) -> None:
    path = steer.Path(REPEATED, radius=10.0, closed=closed)
    assert np.isfinite(path.directions).all()
    assert path.length == steer.Path(DISTINCT, closed=closed).length
    repeated = trajectories(REPEATED, closed, path_followers)
    distinct = trajectories(DISTINCT, closed, path_followers)
    for name, seen in repeated.items():
        np.testing.assert_allclose(seen, distinct[name], atol=1e-9, err_msg=name)
        if name != "FollowPath-backwards":  # along the first leg and round the corner
            assert seen[:, 0].max() > 80.0 and seen[:, 1].max() > 50.0, name


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_repeated_path_points_change_nothing_for_waypoints(closed) -> None:
    def make(path: steer.Path) -> dict[str, steer.SteeringComponent]:
        return {
            mode: steer.FollowWaypoints(path, arrive_radius=10.0, mode=mode)
            for mode in ("loop", "pingpong", "once")
        }

    repeated = trajectories(REPEATED, closed, make)
    distinct = trajectories(DISTINCT, closed, make)
    for name, seen in repeated.items():
        np.testing.assert_allclose(seen, distinct[name], atol=1e-6, err_msg=name)


def test_repeated_waypoints_are_all_visited_and_stay_finite() -> None:
    seen = trajectories(
        REPEATED,
        False,
        lambda path: {
            mode: steer.FollowWaypoints(path, arrive_radius=10.0, mode=mode)
            for mode in ("loop", "pingpong", "once")
        },
    )
    for name, points in seen.items():
        for corner in DISTINCT:
            assert np.hypot(*(points - corner).T).min() < 12.0, (name, corner)
    # "once" brakes for its last point from the first of its repeats on, as it would for one
    # point, and comes to rest on it.
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(-5.0, 3.0)
    agent = world.attach(
        sprite, steer.FollowWaypoints(REPEATED, arrive_radius=10.0, mode="once"), max_speed=120
    )
    for _ in range(2 * PATH_STEPS):
        world.update(DT)
    assert math.dist(sprite.position, (100, 100)) < 3.0 and agent.speed < 1.0


def test_a_path_of_one_repeated_point_holds_the_agent_there() -> None:
    path = steer.Path([(50, 50), (50, 50), (50, 50)], radius=5.0)
    assert path.length == 0.0
    world = steer.SteeringWorld(seed=0)
    components = {
        "FollowPath": steer.FollowPath(path),
        "StayOnPath": steer.StayOnPath(path),
        "FollowWaypoints": steer.FollowWaypoints(path),
    }
    sprites = {name: StubSprite(0, 0) for name in components}
    for name, component in components.items():
        world.attach(sprites[name], component)
    far = dict.fromkeys(components, 0.0)
    for step in range(STEPS):
        world.update(DT)
        if step >= 100:
            for name, sprite in sprites.items():
                far[name] = max(far[name], math.dist(sprite.position, (50, 50)))
    assert_finite(world)
    assert far["FollowPath"] < 3.0  # arrives at the end, which is the start
    # StayOnPath only corrects once outside the 5 px tube: a damped swing through the point.
    assert far["StayOnPath"] < 50.0
    assert math.dist(sprites["StayOnPath"].position, (50, 50)) < 10.0
    # Seeks the one point over and over at full speed: swings through it (speed² / accel ~ 50 px).
    assert far["FollowWaypoints"] < 60.0


LOOP = steer.Path([(0, 0), (200, 0)], radius=8.0, closed=True)


def two_point_loop_run(component: steer.SteeringComponent, velocity=(0.0, 0.0)) -> np.ndarray:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(20.0, 4.0)
    world.attach(sprite, component, max_speed=150, velocity=velocity)
    seen = []
    for _ in range(STEPS):
        world.update(DT)
        assert_finite(world)
        seen.append(sprite.position)
    return np.array(seen)


@pytest.mark.parametrize("always", [False, True])
def test_follow_path_on_a_closed_two_point_path_goes_there_and_back(always) -> None:
    seen = two_point_loop_run(steer.FollowPath(LOOP, always=always))
    assert np.abs(seen[:, 1]).max() < 40.0  # on the one line the loop runs along
    out = int(np.argmax(seen[:, 0] > 180.0))
    assert seen[out, 0] > 180.0, "never reached the far end"
    assert seen[out:, 0].min() < 40.0, "never came back along the loop"


def test_follow_waypoints_on_a_closed_two_point_path_shuttles() -> None:
    seen = two_point_loop_run(steer.FollowWaypoints(LOOP, arrive_radius=10.0))
    assert np.abs(seen[:, 1]).max() < 20.0
    out = int(np.argmax(seen[:, 0] > 185.0))
    assert seen[out, 0] > 185.0
    assert seen[out:, 0].min() < 15.0


def test_stay_on_path_on_a_closed_two_point_path_keeps_to_the_line() -> None:
    # StayOnPath only corrects; the agent moves by its own velocity along the loop's line.
    seen = two_point_loop_run(steer.StayOnPath(LOOP), velocity=(0.0, 90.0))
    assert np.abs(seen[30:, 1]).max() < 40.0  # brought back into the tube and kept there
    seen = two_point_loop_run(steer.StayOnPath(LOOP), velocity=(60.0, 0.0))
    assert seen[-1, 0] > seen[0, 0] + 100.0  # moves along it
    assert np.abs(seen[:, 1]).max() <= 8.0 + 1e-9


# -- a wall thicker than it is long ----------------------------------------------------------


THICK_WALL_CASES = {
    "inside, on its centre line": ((2.0, 0.0), lambda: steer.Seek((2.0, 200.0))),
    "seeking straight through": ((-100.0, 3.0), lambda: steer.Seek((100.0, 0.0))),
    "avoiding on the way through": (
        (-100.0, 3.0),
        lambda: steer.PriorityBlend(steer.AvoidWalls(), steer.Seek((100.0, 0.0))),
    ),
    "on an end point, deep inside": ((0.0, 0.0), lambda: steer.AvoidWalls()),
    "on the other end point": ((4.0, 0.0), lambda: steer.AvoidObstacles()),
}


def test_a_wall_thicker_than_long() -> None:
    world = steer.SteeringWorld(seed=0)
    wall = world.add_wall((0, 0), (4, 0), thickness=60)
    assert wall.radius > math.dist(wall.a, wall.b)
    agents = {}
    for name, (start, behavior) in THICK_WALL_CASES.items():
        for solid in (True, False):
            agents[name, solid] = world.attach(
                StubSprite(*start), behavior(), radius=RADIUS, solid=solid
            )
    for _ in range(STEPS // 50):
        run(world, 50)
        for (name, solid), agent in agents.items():
            if solid:
                assert clearance(world, agent) >= -1e-6, name
    # A ghost goes through it; a solid agent seeking through it got round it.
    assert agents["seeking straight through", False].position[0] > 90.0
    assert agents["seeking straight through", True].position[0] > 30.0


# -- coincident agents -----------------------------------------------------------------------

GROUP = {
    "Separation": lambda leader: steer.Separation(30.0),
    "Alignment": lambda leader: steer.Alignment(30.0),
    "Cohesion": lambda leader: steer.Cohesion(30.0),
    "AvoidAgents": lambda leader: steer.AvoidAgents(),
    "Queue": lambda leader: steer.Queue(),
    "Separation-fov": lambda leader: steer.Separation(30.0, fov=90.0),
    "Flock": lambda leader: steer.WeightedBlend(
        (steer.Separation(30.0), 2.0), (steer.Alignment(40.0), 1.0), (steer.Cohesion(50.0), 1.0)
    ),
    "FollowLeader": lambda leader: steer.FollowLeader(leader),
    "EvadeSightCone": lambda leader: steer.EvadeSightCone(leader),
    "OffsetPursuit": lambda leader: steer.OffsetPursuit(leader, (-20.0, 10.0)),
    "Pursue": lambda leader: steer.Pursue(leader),
    "Evade": lambda leader: steer.Evade(leader, threat_range=50.0),
    "Hide": lambda leader: steer.Hide(leader),
    "Interpose": lambda leader: steer.Interpose(leader, (0.0, 0.0)),
    "MatchVelocity": lambda leader: steer.MatchVelocity(leader),
    "Containment": lambda leader: steer.Containment([(0, 0), (50, 0), (50, 50), (0, 50)]),
}


@pytest.mark.parametrize("name", list(GROUP))
def test_coincident_agents(name) -> None:
    # Two clusters far apart: one standing still, one moving, each on one spot with its leader.
    world = steer.SteeringWorld(seed=0)
    clusters = []
    for spot, velocity in (((10.0, 10.0), (0.0, 0.0)), ((900.0, 900.0), (40.0, -10.0))):
        sprites = [StubSprite(*spot) for _ in range(6)]
        leader = sprites[0]
        world.attach(leader, steer.Wander(jitter=0.0, radius=0.0), velocity=velocity)
        for sprite in sprites[1:]:
            world.attach(sprite, GROUP[name](leader), velocity=velocity, radius=RADIUS)
        clusters.append(sprites)
    run(world, 90)
    if name in ("Separation", "AvoidAgents", "Flock"):
        for sprites in clusters:
            points = np.array([s.position for s in sprites[1:]])
            gaps = np.hypot(*(points[:, None] - points[None]).transpose(2, 0, 1))
            assert gaps[np.triu_indices(len(points), 1)].min() > 1.0  # they came apart


def test_coincident_agents_with_every_rule_in_one_tree() -> None:
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(0.0, 0.0) for _ in range(5)]
    leader = sprites[0]
    world.attach(leader, steer.Seek((100.0, 0.0)))
    tree = steer.PriorityBlend(
        steer.EvadeSightCone(leader),
        steer.AvoidAgents(),
        steer.WeightedBlend(
            (steer.FollowLeader(leader), 1.0),
            (steer.Separation(25.0), 2.0),
            (steer.Alignment(25.0), 0.5),
            (steer.Cohesion(25.0), 0.5),
        ),
    )
    for sprite in sprites[1:]:
        world.attach(sprite, tree)
    run(world, 200)


# -- an agent whose target is itself ---------------------------------------------------------

SELF = {
    "Seek": lambda me: steer.Seek(me),
    "Flee": lambda me: steer.Flee(me),
    "Flee-panic": lambda me: steer.Flee(me, panic_distance=50.0),
    "Arrive": lambda me: steer.Arrive(me),
    "Pursue": lambda me: steer.Pursue(me),
    "Evade": lambda me: steer.Evade(me),
    "Evade-range": lambda me: steer.Evade(me, threat_range=50.0),
    "FollowLeader": lambda me: steer.FollowLeader(me),
    "FollowLeader-0": lambda me: steer.FollowLeader(me, distance=0.0),
    "OffsetPursuit": lambda me: steer.OffsetPursuit(me, (-20.0, 0.0)),
    "EvadeSightCone": lambda me: steer.EvadeSightCone(me),
    "Separation-among-self": lambda me: steer.Separation(30.0, among=[me]),
    "Cohesion-among-self": lambda me: steer.Cohesion(30.0, among=[me]),
    "Callable-self": lambda me: steer.Seek(lambda: me.position),
    "Hide-self": lambda me: steer.Hide(me),
    "Interpose-self": lambda me: steer.Interpose(me, me),
    "MatchVelocity-self": lambda me: steer.MatchVelocity(me),
}


@pytest.mark.parametrize("velocity", [(0.0, 0.0), (60.0, 30.0)], ids=["still", "moving"])
def test_an_agent_whose_target_is_itself(velocity) -> None:
    world = steer.SteeringWorld(seed=0)
    sprites = {}
    for i, (name, make) in enumerate(SELF.items()):
        sprites[name] = me = StubSprite(25.0 + 200.0 * i, -10.0)  # far apart: no neighbours
        world.attach(me, make(me), velocity=velocity)
    run(world, 150)
    if velocity == (0.0, 0.0):
        for name in ("Seek", "Arrive", "Callable-self"):  # its target is where it is: it stays
            assert sprites[name].position == (25.0 + 200.0 * list(SELF).index(name), -10.0)
