"""Bad input that the table (``test_bad_input_table.py``) can't express: values that must be
accepted, odd targets of every aiming component, and refusals followed by a run that shows
the agent carries on (the table updates once; these run to the goal)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

NAN, INF = math.nan, math.inf
P = (100.0, 50.0)

#: Targets no aiming component takes, beyond the table's (which it tries on every one).
ODD_TARGETS = [
    ({"x": 1, "y": 2}, TypeError),
    (object(), TypeError),
    (("a", "b"), TypeError),
    (np.array([1.0, NAN]), ValueError),
]


@pytest.mark.parametrize(("target", "error"), ODD_TARGETS)
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
def test_odd_targets_are_refused_naming_the_parameter(make, name, target, error) -> None:
    with pytest.raises(error, match=name):
        make(target)


@pytest.mark.parametrize(
    "target",
    [P, [1, 2], np.array([3.0, 4.0]), (np.float32(1), np.int64(2)), StubSprite(), lambda: P],
)
def test_good_targets_are_accepted(target) -> None:
    steer.Seek(target)


def test_optional_limits_accept_none() -> None:
    assert steer.Flee(P, panic_distance=None).panic_distance is None
    assert steer.Evade(P, threat_range=None).threat_range is None


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("max_speed", NAN, ValueError),
        ("velocity", (1.0, 2.0, 3.0), ValueError),
        ("facing", "sideways", ValueError),
        ("solid", None, TypeError),
    ],
)
def test_a_refused_attach_leaves_the_sprite_free_to_be_attached_and_steered(
    world, name, value, error
) -> None:
    other = StubSprite(0, 100)  # the world holds sprites weakly: the test keeps it
    world.attach(other, steer.Seek(P))
    sprite = StubSprite(0, 0)
    with pytest.raises(error, match=name):
        world.attach(sprite, steer.Seek(P), **{name: value})
    assert len(world) == 1 and sprite not in world
    agent = world.attach(sprite, steer.Seek((500, 0)))
    for _ in range(10):
        world.update(1 / 60)
    assert sprite.center_x > 0
    assert agent.max_speed == 200.0 and agent.max_force == 400.0


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
