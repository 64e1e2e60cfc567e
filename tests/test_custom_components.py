"""The complete example of docs/custom-components.md (``Orbit``): short, batched across
instances, the same batched as alone, and checked like the built-in components."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

PAGE = Path(__file__).resolve().parent.parent / "docs" / "custom-components.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.M | re.S)
(EXAMPLE,) = [block for block in BLOCKS if "class Orbit(" in block]


def _orbit_class() -> type[Any]:
    namespace: dict[str, Any] = {"__name__": "docs_orbit"}
    exec(compile(EXAMPLE, "custom-components.md, Orbit", "exec"), namespace)
    return namespace["Orbit"]  # type: ignore[no-any-return]


Orbit = _orbit_class()

#: (start, centre, radius, speed) of four agents, each with an Orbit of its own.
MOONS = [
    ((0.0, 0.0), (10.0, 10.0), 20.0, 30.0),
    ((130.0, 0.0), (100.0, 0.0), 40.0, 60.0),
    ((0.0, 170.0), (0.0, 100.0), 60.0, 90.0),
    ((300.0, 200.0), (250.0, 250.0), 80.0, 120.0),
]


def _world_of_orbits(
    velocities: list[tuple[float, float]] | None = None,
) -> tuple[steer.SteeringWorld, list[StubSprite], list[Any]]:
    """The world, the sprites (keep them: the world holds sprites weakly) and their Orbits."""
    world = steer.SteeringWorld(seed=0)
    sprites, orbits = [], []
    for index, (start, center, radius, speed) in enumerate(MOONS):
        sprite = StubSprite(*start)
        orbit = Orbit(center, radius=radius, speed=speed)
        velocity = (0.0, 0.0) if velocities is None else velocities[index]
        world.attach(sprite, orbit, max_speed=150, max_force=2000, velocity=velocity)
        sprites.append(sprite)
        orbits.append(orbit)
    return world, sprites, orbits


def test_the_example_is_under_40_lines() -> None:
    assert len(EXAMPLE.splitlines()) < 40


def test_the_example_declares_three_parameters() -> None:
    assert list(Orbit.params) == ["center", "radius", "speed"]
    assert repr(Orbit((1, 2), radius=3)) == "Orbit(center=(1, 2), radius=3.0, speed=80.0)"


def test_instances_with_different_values_share_one_batch() -> None:
    world, _sprites, orbits = _world_of_orbits()  # held: the world holds sprites weakly
    assert len({id(orbit) for orbit in orbits}) == len(MOONS)
    assert len(world._agents.batches()) == 1


@pytest.mark.parametrize("moving", [False, True])
def test_batched_forces_are_each_agents_alone(moving: bool) -> None:
    velocities = [(20.0, -10.0), (0.0, 50.0), (-30.0, 0.0), (5.0, 5.0)] if moving else None
    world, sprites, _ = _world_of_orbits(velocities)  # the world holds sprites weakly
    assert len(world) == len(sprites)
    together = world.steering_forces()
    alone = world.steering_forces(alone=True)
    assert together.shape == (len(MOONS), 2)
    assert np.abs(together).max() > 0
    np.testing.assert_allclose(together, alone, rtol=1e-12, atol=1e-9)


def test_each_agent_gets_its_own_values() -> None:
    """Batched, each agent's force is the one its own Orbit gives it in a world of its own."""
    world, _sprites, orbits = _world_of_orbits()  # held: the world holds sprites weakly
    together = world.steering_forces()
    for index, ((start, _, _, _), orbit) in enumerate(zip(MOONS, orbits, strict=True)):
        own = steer.SteeringWorld(seed=0)
        sprite = StubSprite(*start)
        own.attach(sprite, orbit, max_speed=150, max_force=2000)
        np.testing.assert_allclose(together[index], own.steering_forces()[0], atol=1e-9)


def test_a_parameter_assigned_later_is_used_and_the_batch_kept() -> None:
    world, _sprites, orbits = _world_of_orbits()  # held: the world holds sprites weakly
    before = world.steering_forces()
    orbits[1].speed = 10.0
    assert len(world._agents.batches()) == 1
    after = world.steering_forces()
    np.testing.assert_allclose(after, world.steering_forces(alone=True), atol=1e-9)
    assert not np.allclose(after[1], before[1])
    np.testing.assert_allclose(after[[0, 2, 3]], before[[0, 2, 3]])


def test_every_agent_settles_on_its_own_circle() -> None:
    world, sprites, _ = _world_of_orbits()
    for _ in range(10 * 60):
        world.update(1 / 60)
    for sprite, agent, (_, center, radius, speed) in zip(sprites, world.agents, MOONS, strict=True):
        assert math.dist(sprite.position, center) == pytest.approx(radius, abs=3.0)
        assert agent.speed == pytest.approx(speed, abs=2.0)


def test_an_instance_with_undeclared_state_is_batched_alone_and_still_right() -> None:
    world, _sprites, orbits = _world_of_orbits()  # held: the world holds sprites weakly
    orbits[2].note = "hand-written"  # an attribute that is no parameter
    assert len(world._agents.batches()) == 2
    np.testing.assert_allclose(
        world.steering_forces(), world.steering_forces(alone=True), atol=1e-9
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"radius": 0}, ValueError, "radius"),
        ({"radius": -5}, ValueError, "radius"),
        ({"radius": math.nan}, ValueError, "radius"),
        ({"radius": "far"}, TypeError, "radius"),
        ({"speed": 0}, ValueError, "speed"),
        ({"speed": math.inf}, ValueError, "speed"),
        ({"speed": None}, TypeError, "speed"),
    ],
)
def test_bad_values_are_refused_naming_the_parameter(
    kwargs: dict[str, Any], error: type[Exception], name: str
) -> None:
    with pytest.raises(error, match=name):
        Orbit((0, 0), **kwargs)
    orbit = Orbit((0, 0), radius=50, speed=40)
    with pytest.raises(error, match=name):
        setattr(orbit, *next(iter(kwargs.items())))
    assert (orbit.radius, orbit.speed) == (50, 40)  # nothing changed on refusal


@pytest.mark.parametrize("center", ["moon", None, (0, math.nan), (1, 2, 3)])
def test_a_bad_center_is_refused_naming_it(center: Any) -> None:
    with pytest.raises((TypeError, ValueError), match="center"):
        Orbit(center)


def test_center_is_required() -> None:
    with pytest.raises(TypeError, match="center"):
        Orbit()
