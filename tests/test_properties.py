"""Property-based invariants and one contract suite over every public component.

Invariants after every update: positions and velocities finite, speed <= max_speed and the
applied force <= max_force (both + 1e-9 relative). Contract (STYLE.md item 10): output shape
(n, 2), finite when agents coincide, N = 0 and N = 1, batch result equals agents one by one.
"""

from __future__ import annotations

import arcade
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arcade_steering as steer
from arcade_steering import testing
from arcade_steering._core.batches import Batch
from arcade_steering.component.context import evaluate
from arcade_steering.component.frame import BatchFrame
from arcade_steering.component.registry import Things, example
from arcade_steering.testing import StubSprite
from arcade_steering.tree_data import BUILT_IN

#: Examples per component in the property test (keeps the file well under a minute).
EXAMPLES = 15
DTS = (0.0, 1e-9, 1 / 60, 0.2, 1.0)

#: Every built-in component, from the registry: a new one is tested here with its example.
COMPONENTS = sorted(BUILT_IN)
#: Trees that draw random numbers: a batch draws all its agents' numbers at once, so only
#: the distribution (not each value) matches agents run one by one.
RANDOM = {"Wander", "WeightedBlend"}


def make(name: str, leader: object, draw=None) -> steer.SteeringComponent:
    """A component of class ``name`` with parameters drawn by ``draw`` (or defaults): its
    registered example, or one of the variants below that reach its corner cases."""

    def pick(*options):
        return options[0] if draw is None else draw(st.sampled_from(options))

    target = pick((50.0, 20.0), leader, lambda: (-30.0, 40.0), (0.0, 0.0))
    path = steer.Path(
        pick([(0, 0), (100, 0), (100, 100)], [(0, 0), (0, 0), (50, 0)]),
        radius=pick(20.0, 0.0),
        closed=pick(False, True),
    )
    among = pick(None, [leader])
    small = pick(1e-9, 1.0, 100.0)
    variants = {
        "Alignment": lambda: steer.Alignment(pick(50.0, 1e-9), among=among),
        "Arrive": lambda: steer.Arrive(target, slowing_radius=pick(100.0, 1e-9), tolerance=0.0),
        "AvoidAgents": lambda: steer.AvoidAgents(horizon=pick(1.0, 1e-9), margin=0.0),
        "AvoidObstacles": lambda: steer.AvoidObstacles(),
        "AvoidWalls": lambda: steer.AvoidWalls(),
        "Cohesion": lambda: steer.Cohesion(pick(50.0, 1e-9), among=among),
        "Containment": lambda: steer.Containment(
            pick(
                arcade.LRBT(-150, 150, -150, 150),
                [(-100, -100), (100, -100), (100, 100), (0, 0), (-100, 100)],
            ),
            length=pick(None, 1e-9),
        ),
        "ContextSteering": lambda: steer.ContextSteering(
            target,
            directions=pick(16, 4, 64),
            look_ahead=pick(160.0, 1e-9),
            tolerance=0.0,
            agents=pick((), None, [leader]),
        ),
        "Evade": lambda: steer.Evade(target, max_prediction=small),
        "EvadeSightCone": lambda: steer.EvadeSightCone(
            leader, half_angle=pick(30.0, 180.0), occluded=pick(False, True)
        ),
        "Flee": lambda: steer.Flee(target, panic_distance=pick(None, 1e-9, 80.0)),
        "FollowFlowField": lambda: steer.FollowFlowField(
            steer.FlowField(np.ones((3, 4, 2)), origin=(-50, -50), cell_size=32.0)
        ),
        "Face": lambda: steer.Face(target, tolerance=pick(0.5, 0.0)),
        "LookWhereYouAreGoing": lambda: steer.LookWhereYouAreGoing(),
        "Scan": lambda: steer.Scan(pick(45.0, 0.0, 180.0), period=pick(4.0, 1e-9)),
        "FollowLeader": lambda: steer.FollowLeader(leader, distance=pick(40.0, 0.0)),
        "FollowPath": lambda: steer.FollowPath(path, always=pick(False, True)),
        "FollowWaypoints": lambda: steer.FollowWaypoints(
            path, mode=pick("loop", "pingpong", "once")
        ),
        "Hide": lambda: steer.Hide(target, reach=pick(250.0, 1e-9), distance=pick(10.0, 0.0)),
        "Interpose": lambda: steer.Interpose(leader, target),
        "Jump": lambda: steer.Jump(
            pick((0.0, 0.0), (-40.0, 0.0)),
            pick((120.0, 30.0), (0.0, 0.0), (-300.0, -50.0)),
            gravity=pick(900.0, 1e-9),
            jump_speed=pick(500.0, 1e-9),
            run_speed=pick(250.0, 1e-9),
            takeoff_window=pick(8.0, 1e-9),
        ),
        "MatchVelocity": lambda: steer.MatchVelocity(pick(leader, lambda: (-30.0, 40.0))),
        "OffsetPursuit": lambda: steer.OffsetPursuit(leader, (-20.0, pick(0.0, 15.0))),
        "Pursue": lambda: steer.Pursue(target, max_prediction=small),
        "Queue": lambda: steer.Queue(among=among, distance=pick(60.0, 1e-9), margin=pick(2.0, 0.0)),
        "Seek": lambda: steer.Seek(target),
        "Separation": lambda: steer.Separation(pick(30.0, 1e-9), among=among),
        "StayOnPath": lambda: steer.StayOnPath(path),
        "Wander": lambda: steer.Wander(radius=pick(30.0, 0.0), jitter=pick(3.0, 0.0)),
        "WeightedBlend": lambda: steer.WeightedBlend(
            (steer.Seek(target), 1.0),
            (steer.PriorityBlend(steer.Separation(30.0), steer.Wander()), -2.0),
        ),
        "PriorityBlend": lambda: steer.PriorityBlend(
            steer.AvoidWalls(),
            steer.WeightedBlend((steer.Arrive(target), 1.0), (steer.Cohesion(40.0), 0.5)),
        ),
    }
    if name in variants:
        return variants[name]()
    field = steer.FlowField(np.ones((3, 4, 2)), origin=(-50, -50), cell_size=32.0)
    return example(name, Things(point=target, leader=leader, path=path, field=field))


def furnish(world: steer.SteeringWorld) -> None:
    world.add_walls([(-200, -200), (200, -200), (200, 200), (-200, 200)], closed=True)
    world.add_wall((-50, 60), (50, 60))
    world.add_obstacle((30, -40), 15.0)


coords = st.sampled_from([0.0, 10.0, -10.0, 59.5, 60.0, 30.0, -199.0]) | st.floats(-190, 190)
speeds = st.sampled_from([0.0, 1e-9, 150.0]) | st.floats(0, 150)


@pytest.mark.parametrize("name", COMPONENTS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_invariants_hold_after_every_update(name, data) -> None:
    world = steer.SteeringWorld(seed=data.draw(st.integers(0, 3)))
    if data.draw(st.booleans()):
        furnish(world)
    n = data.draw(st.integers(1, 5))
    coincide = data.draw(st.booleans())
    sprites = [StubSprite(data.draw(coords), data.draw(coords)) for _ in range(n)]
    if coincide:
        for sprite in sprites:
            sprite.position = sprites[0].position
    leader = sprites[0]
    for i, sprite in enumerate(sprites):
        behavior = make(name, leader, data.draw) if i else steer.Wander()
        max_speed = data.draw(st.sampled_from([1e-6, 150.0, 1e4]))
        max_force = data.draw(st.sampled_from([1e-6, 400.0, 1e6]))
        angle = data.draw(st.floats(-np.pi, np.pi))
        speed = data.draw(speeds)
        world.attach(
            sprite,
            behavior,
            max_speed=max_speed,
            max_force=max_force,
            velocity=(speed * np.cos(angle), speed * np.sin(angle)),
            mass=data.draw(st.sampled_from([1.0, 1e-3, 50.0])),
            response_time=data.draw(st.sampled_from([0.1, 1e-6, 5.0])),
            radius=data.draw(st.sampled_from([0.0, 8.0, 30.0])),
            solid=data.draw(st.booleans()),
        )
    for dt in data.draw(st.lists(st.sampled_from(DTS), min_size=1, max_size=6)):
        world.update(dt)
        for agent in world.agents:
            assert np.isfinite(agent.position).all() and np.isfinite(agent.velocity).all()
            assert agent.speed <= agent.max_speed * (1 + 1e-9)
            assert np.hypot(*agent.force) <= agent.max_force * (1 + 1e-9)


# -- the contract suite ------------------------------------------------------------------------


def batch_forces(world, agents, component) -> np.ndarray:
    """``component``'s forces for exactly ``agents``, as one batch (even an empty one)."""
    slots = np.array([world._agents.slot_of(agent.sprite) for agent in agents], dtype=np.intp)
    batch = Batch(slots, [component] * max(len(slots), 1))
    world.geometry  # noqa: B018 - sync, as update() does
    world._neighborhood.start_update()
    return evaluate(BatchFrame(world._frame(1 / 60, None), slots), batch.root)


@pytest.mark.parametrize("walls", [False, True])
@pytest.mark.parametrize("name", COMPONENTS)
def test_contract(name, walls) -> None:
    world = steer.SteeringWorld(seed=0)
    if walls:
        furnish(world)
    leader = StubSprite(5.0, 5.0)
    world.attach(leader, steer.Seek((100.0, 0.0)), velocity=(50.0, 0.0))
    world.geometry  # noqa: B018 - sync, as update() does
    component = make(name, leader)
    states = [
        ((0.0, 0.0), (0.0, 100.0)),
        ((0.0, 0.0), (0.0, 100.0)),
        ((40.0, 10.0), (-90, 90)),
        ((5.0, 5.0), (0.0, 0.0)),
    ]
    sprites = [StubSprite(*p) for p, _ in states]
    agents = [
        world.attach(s, component, velocity=v, max_speed=200)
        for s, (_, v) in zip(sprites, states, strict=True)
    ]
    assert batch_forces(world, [], component).shape == (0, 2)

    def fresh() -> None:  # the same random draws and per-agent state for both passes
        world.rng = np.random.default_rng(7)
        for agent in agents:
            world._agents.arrays.state.reset(world._agents.slot_of(agent.sprite))

    fresh()
    together = batch_forces(world, agents, component)
    fresh()
    assert together.shape == (len(agents), 2)
    assert np.isfinite(together).all()
    for i, agent in enumerate(agents):  # a batch of one gives the same as the batch
        alone = batch_forces(world, [agent], component)
        assert alone.shape == (1, 2)
        assert np.isfinite(alone).all()
        if name not in RANDOM:
            np.testing.assert_allclose(alone[0], together[i], rtol=1e-9, atol=1e-9)
    for _ in range(20):
        world.update(1 / 60)
        for agent in world.agents:
            assert agent.speed <= agent.max_speed * (1 + 1e-9)
            assert np.hypot(*agent.force) <= agent.max_force * (1 + 1e-9)
            assert np.isfinite(agent.position).all()


@pytest.mark.parametrize("name", COMPONENTS)
def test_contract_piled_on_the_leader(name) -> None:
    """Alone, or five agents piled on one spot with the leader, standing still: finite forces
    at any dt, a batch steering as its agents one by one, finite positions after."""
    leader = StubSprite(50, 50)
    alone = testing.steering_force(make(name, leader), (10, 10))
    assert alone.shape == (2,) and np.isfinite(alone).all()
    for dt in (1 / 60, 0.2):
        world = steer.SteeringWorld(seed=0)
        world.attach(leader, steer.Seek((50, 50)))
        component = make(name, leader)
        sprites = [StubSprite(50, 50) for _ in range(5)]
        for sprite in sprites:
            world.attach(sprite, component, radius=6)
        together, one_by_one = testing.batch_forces(world), testing.forces_one_by_one(world)
        assert all(np.isfinite(force).all() for force in together.values())
        if name not in RANDOM:
            assert all(np.allclose(together[i], one_by_one[i]) for i in together)
        for _ in range(10):
            world.update(dt)
        assert np.isfinite([sprite.position for sprite in sprites]).all()
        world.detach(leader)
