"""Bad arguments: the right exception, a message naming the parameter, and nothing changed."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

NAN, INF = math.nan, math.inf
P = (100.0, 50.0)

# -- attach ------------------------------------------------------------------------------------

ATTACH_CASES = [
    # (keyword, value, exception, parameter named in the message)
    *[
        (name, value, ValueError, name)
        for name in ("max_speed", "max_force", "mass", "response_time")
        for value in (0, 0.0, -1.0, NAN, INF, -INF)
    ],
    *[
        (name, value, TypeError, name)
        for name in ("max_speed", "max_force", "mass", "response_time")
        for value in ("fast", None, True, (1, 2))
    ],
    ("radius", -1.0, ValueError, "radius"),
    ("radius", NAN, ValueError, "radius"),
    ("radius", "big", TypeError, "radius"),
    ("facing", "sideways", ValueError, "facing"),
    ("facing", "Right", ValueError, "facing"),
    ("facing", NAN, ValueError, "facing"),
    ("facing", None, TypeError, "facing"),
    ("velocity", (NAN, 0.0), ValueError, "velocity"),
    ("velocity", (1.0, 2.0, 3.0), ValueError, "velocity"),
    ("velocity", 5.0, TypeError, "velocity"),
    ("velocity", "xy", TypeError, "velocity"),
    ("rotate", "yes", TypeError, "rotate"),
    ("rotate", 1, TypeError, "rotate"),
    ("solid", None, TypeError, "solid"),
]


def assert_world_untouched(world: steer.SteeringWorld, sprite: StubSprite, count: int) -> None:
    """The refused call left no trace: same size, sprite free to attach properly."""
    assert len(world) == count
    assert sprite not in world
    with pytest.raises(KeyError):
        world.agent_of(sprite)
    agent = world.attach(sprite, steer.Seek((sprite.center_x + 500, sprite.center_y)))
    assert len(world) == count + 1
    assert world.agents[-1] is agent
    start = sprite.center_x
    for _ in range(10):
        world.update(1 / 60)
    assert sprite.center_x > start
    assert agent.max_speed == 200.0 and agent.max_force == 400.0


@pytest.mark.parametrize(("name", "value", "error", "match"), ATTACH_CASES)
def test_attach_refuses_bad_values(world, name, value, error, match) -> None:
    other = StubSprite(0, 100)
    world.attach(other, steer.Seek(P))
    sprite = StubSprite(0, 0)
    with pytest.raises(error, match=match):
        world.attach(sprite, steer.Seek(P), **{name: value})
    assert_world_untouched(world, sprite, 1)


@pytest.mark.parametrize(
    "behavior", ["seek", None, steer.Seek, lambda ctx: np.zeros((len(ctx), 2)), 3]
)
def test_attach_refuses_a_behavior_that_is_not_a_component(world, behavior) -> None:
    sprite = StubSprite()
    with pytest.raises(TypeError, match="behavior"):
        world.attach(sprite, behavior)
    assert_world_untouched(world, sprite, 0)


def test_attach_refuses_a_sprite_twice(world) -> None:
    sprite = StubSprite(0, 0)
    agent = world.attach(sprite, steer.Seek(P), max_speed=50)
    with pytest.raises(ValueError, match="already attached"):
        world.attach(sprite, steer.Flee(P), max_speed=999)
    assert len(world) == 1
    assert world.agent_of(sprite) is agent
    assert agent.max_speed == 50
    assert isinstance(agent.behavior, steer.Seek)


def test_attach_refuses_a_sprite_without_a_position(world) -> None:
    with pytest.raises(TypeError, match="sprite"):
        world.attach(object(), steer.Seek(P))
    assert len(world) == 0


def test_attach_refuses_a_sprite_at_nan(world) -> None:
    sprite = StubSprite(NAN, 0)
    with pytest.raises(ValueError, match="position"):
        world.attach(sprite, steer.Seek(P))
    assert len(world) == 0
    sprite.position = (0, 0)
    world.attach(sprite, steer.Seek(P))
    assert len(world) == 1


# -- the world ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"max_step": 0}, ValueError, "max_step"),
        ({"max_step": -0.1}, ValueError, "max_step"),
        ({"max_step": NAN}, ValueError, "max_step"),
        ({"max_step": INF}, ValueError, "max_step"),
        ({"max_step": "1/30"}, TypeError, "max_step"),
        ({"max_substeps": 0}, ValueError, "max_substeps"),
        ({"max_substeps": 2.5}, TypeError, "max_substeps"),
        ({"max_substeps": True}, TypeError, "max_substeps"),
        ({"max_substeps": None}, TypeError, "max_substeps"),
        ({"seed": "abc"}, TypeError, "seed"),
        ({"seed": 1.5}, TypeError, "seed"),
        ({"seed": True}, TypeError, "seed"),
    ],
)
def test_world_refuses_bad_arguments(kwargs, error, match) -> None:
    with pytest.raises(error, match=match):
        steer.SteeringWorld(**kwargs)


def test_update_refuses_a_non_number(world) -> None:
    with pytest.raises(TypeError, match="delta_time"):
        world.update("0.1")
    with pytest.raises(ValueError, match="delta_time"):
        world.update(NAN)


# -- targets -----------------------------------------------------------------------------------

BAD_TARGETS = [
    ("x", TypeError),
    (5, TypeError),
    (None, TypeError),
    ({"x": 1, "y": 2}, TypeError),
    (object(), TypeError),
    ((1,), ValueError),
    ((1, 2, 3), ValueError),
    ((NAN, 0), ValueError),
    ((0, INF), ValueError),
    (("a", "b"), TypeError),
    (np.array([1.0, NAN]), ValueError),
]


@pytest.mark.parametrize(("target", "error"), BAD_TARGETS)
@pytest.mark.parametrize(
    ("make", "name"),
    [
        (steer.Seek, "target"),
        (steer.Flee, "target"),
        (steer.Arrive, "target"),
        (steer.Pursue, "quarry"),
        (steer.Evade, "threat"),
    ],
)
def test_bad_targets_are_refused(make, name, target, error) -> None:
    with pytest.raises(error, match=name):
        make(target)


@pytest.mark.parametrize(
    "target",
    [P, [1, 2], np.array([3.0, 4.0]), (np.float32(1), np.int64(2)), StubSprite(), lambda: P],
)
def test_good_targets_are_accepted(target) -> None:
    steer.Seek(target)


def test_target_reassignment_refused_keeps_the_old_target() -> None:
    seek = steer.Seek(P)
    with pytest.raises(TypeError, match="target"):
        seek.target = "x"
    with pytest.raises(ValueError, match="target"):
        seek.target = (NAN, 1)
    assert seek.target == P


# -- component parameters ----------------------------------------------------------------------


def arrive(**kwargs):
    return steer.Arrive(P, **kwargs)


def flee(**kwargs):
    return steer.Flee(P, **kwargs)


def pursue(**kwargs):
    return steer.Pursue(P, **kwargs)


def evade(**kwargs):
    return steer.Evade(P, **kwargs)


def priority(**kwargs):
    return steer.PriorityBlend(steer.Seek(P), **kwargs)


PARAM_CASES = [
    # (factory taking the parameter as a keyword, parameter, bad value, exception)
    (arrive, "slowing_radius", -1.0, ValueError),
    (arrive, "slowing_radius", 0.0, ValueError),
    (arrive, "slowing_radius", NAN, ValueError),
    (arrive, "slowing_radius", "far", TypeError),
    (arrive, "tolerance", -0.5, ValueError),
    (arrive, "tolerance", INF, ValueError),
    (flee, "panic_distance", -5.0, ValueError),
    (flee, "panic_distance", 0.0, ValueError),
    (flee, "panic_distance", NAN, ValueError),
    (flee, "panic_distance", "near", TypeError),
    (pursue, "max_prediction", -1.0, ValueError),
    (evade, "threat_range", 0.0, ValueError),
    (evade, "max_prediction", NAN, ValueError),
    (steer.Wander, "radius", -1.0, ValueError),
    (steer.Wander, "distance", -1.0, ValueError),
    (steer.Wander, "jitter", -0.1, ValueError),
    (steer.Wander, "jitter", INF, ValueError),
    (steer.Wander, "radius", None, TypeError),
    (priority, "threshold", -1.0, ValueError),
    (priority, "threshold", NAN, ValueError),
]


@pytest.mark.parametrize(("factory", "name", "value", "error"), PARAM_CASES)
def test_bad_parameter_refused_at_construction(factory, name, value, error) -> None:
    with pytest.raises(error, match=name):
        factory(**{name: value})


@pytest.mark.parametrize(("factory", "name", "value", "error"), PARAM_CASES)
def test_bad_parameter_assignment_keeps_the_old_value(factory, name, value, error) -> None:
    component = factory()
    old = getattr(component, name)
    with pytest.raises(error, match=name):
        setattr(component, name, value)
    assert getattr(component, name) == old


def test_refused_assignment_leaves_an_attached_agent_running(world) -> None:
    arrive = steer.Arrive((200, 0), slowing_radius=80)
    sprite = StubSprite(0, 0)
    world.attach(sprite, arrive)
    for _ in range(20):
        world.update(1 / 60)
    with pytest.raises(ValueError, match="slowing_radius"):
        arrive.slowing_radius = -1
    assert arrive.slowing_radius == 80
    for _ in range(300):
        world.update(1 / 60)
    assert math.dist(sprite.position, (200, 0)) <= 2.05


def test_optional_limits_accept_none() -> None:
    assert steer.Flee(P, panic_distance=None).panic_distance is None
    assert steer.Evade(P, threat_range=None).threat_range is None


# -- combiners ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((), ValueError, "weighted"),
        (("x",), TypeError, "weighted"),
        ((steer.Seek(P),), TypeError, "weighted"),
        (((steer.Seek(P), 1.0, 2.0),), TypeError, "weighted"),
        ((("seek", 1.0),), TypeError, "component"),
        (((steer.Seek(P), 1.0), (steer.Seek, 1.0)), TypeError, "component"),
        (((steer.Seek(P), NAN),), ValueError, "weight"),
        (((steer.Seek(P), "1"),), TypeError, "weight"),
    ],
)
def test_weighted_blend_refuses_bad_children(args, error, match) -> None:
    with pytest.raises(error, match=match):
        steer.WeightedBlend(*args)


def test_weights_assignment_refused_keeps_the_old_weights() -> None:
    blend = steer.WeightedBlend((steer.Seek(P), 1.0), (steer.Flee(P), 2.0))
    with pytest.raises(ValueError, match="weights"):
        blend.weights = (1.0,)
    with pytest.raises(ValueError, match="weights"):
        blend.weights = (1.0, NAN)
    with pytest.raises(TypeError, match="weights"):
        blend.weights = (1.0, "2")
    assert blend.weights == (1.0, 2.0)


@pytest.mark.parametrize(
    ("args", "error"),
    [((), ValueError), (("seek",), TypeError), ((steer.Seek(P), None), TypeError)],
)
def test_priority_blend_refuses_bad_children(args, error) -> None:
    with pytest.raises(error, match="components"):
        steer.PriorityBlend(*args)


# -- agent setters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("max_speed", 0.0, ValueError),
        ("max_speed", NAN, ValueError),
        ("max_force", -1.0, ValueError),
        ("mass", 0.0, ValueError),
        ("response_time", INF, ValueError),
        ("radius", -2.0, ValueError),
        ("velocity", (NAN, 0.0), ValueError),
        ("velocity", "fast", TypeError),
        ("behavior", "seek", TypeError),
        ("behavior", None, TypeError),
    ],
)
def test_agent_setters_refuse_bad_values(world, name, value, error) -> None:
    agent = world.attach(StubSprite(), steer.Seek(P), velocity=(1.0, 2.0))
    old = getattr(agent, name)
    with pytest.raises(error, match=name):
        setattr(agent, name, value)
    assert getattr(agent, name) == old
    world.update(1 / 60)
