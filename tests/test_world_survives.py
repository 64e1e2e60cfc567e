"""The world survives its game's mistakes: sprites dropped in any order, game code that
raises during an update, copies, pickles and threads."""

from __future__ import annotations

import copy
import gc
import math
import pickle
import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from conftest import short_and_long

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60


class _Holder(steer.SteeringComponent):
    """Seeks nowhere; keeps a sprite in an attribute of its own (not a declared target)."""

    def __init__(self, sprite: Any) -> None:
        self.sprite = sprite

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        return np.zeros((len(ctx), 2))


class _RaisingSprite(StubSprite):
    """A sprite whose position setter raises while ``fail`` is set."""

    fail = True

    @property
    def position(self) -> tuple[float, float]:
        return (self.center_x, self.center_y)

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        if self.fail:
            raise OSError("the game's setter failed")
        self.center_x, self.center_y = value


def _collect(world: steer.SteeringWorld) -> None:
    gc.collect()
    world.update(DT)


# -- sprites dropped together ----------------------------------------------------------------


def test_a_hunter_and_its_prey_dropped_in_the_same_frame_are_both_detached() -> None:
    world = steer.SteeringWorld(seed=0)
    bystander = StubSprite(300, 300)
    world.attach(bystander, steer.Seek((0, 0)))
    hunter, prey = StubSprite(0, 0), StubSprite(50, 0)
    world.attach(hunter, steer.Pursue(prey))
    world.attach(prey, steer.Seek((100, 100)))
    world.update(DT)
    del hunter, prey
    _collect(world)  # used to raise AttributeError: the prey died while the hunter was dropped
    world.update(DT)
    assert world.agents[0].sprite is bystander and len(world) == 1


def test_a_pursuit_and_an_evasion_aiming_at_each_other_are_collected() -> None:
    world = steer.SteeringWorld(seed=0)
    hunter, prey = StubSprite(0, 0), StubSprite(50, 0)
    world.attach(hunter, steer.Pursue(prey))
    world.attach(prey, steer.Evade(hunter))
    world.update(DT)
    del hunter, prey
    _collect(world)
    assert len(world) == 0  # the targets used to keep both alive


def test_a_sprite_whose_last_holder_was_another_agents_behaviour_is_dropped_too() -> None:
    world = steer.SteeringWorld(seed=0)
    chain = [StubSprite(i, 0) for i in range(4)]
    world.attach(chain[-1], steer.Seek((0, 0)))
    for index in range(len(chain) - 1):
        world.attach(chain[index], _Holder(chain[index + 1]))  # a strong hold of the game's
    world.update(DT)
    del chain, index
    _collect(world)
    assert len(world) == 0


@short_and_long("waves", 5, 50)
def test_churn_of_hunters_and_prey_leaves_no_dead_agent(waves: int) -> None:
    world = steer.SteeringWorld(seed=0)
    for wave in range(waves):
        pairs = [(StubSprite(i, wave), StubSprite(i + 40, wave)) for i in range(10)]
        for hunter, prey in pairs:
            world.attach(hunter, steer.FollowLeader(prey))
            world.attach(
                prey, steer.PriorityBlend(steer.EvadeSightCone(hunter), steer.Evade(hunter))
            )
        world.update(DT)
        del pairs, hunter, prey
        gc.collect()
    world.update(DT)
    assert len(world) == 0


# -- targets held weakly ---------------------------------------------------------------------

_AIMING: dict[str, Callable[[Any], steer.SteeringComponent]] = {
    "Seek": steer.Seek,
    "Flee": steer.Flee,
    "Arrive": steer.Arrive,
    "Pursue": steer.Pursue,
    "Evade": steer.Evade,
    "FollowLeader": steer.FollowLeader,
    "OffsetPursuit": lambda target: steer.OffsetPursuit(target, (-20, 0)),
    "EvadeSightCone": steer.EvadeSightCone,
    "Hide": steer.Hide,
    "Interpose": lambda target: steer.Interpose(target, (0, 0)),
    "MatchVelocity": steer.MatchVelocity,
}


@pytest.mark.parametrize("attached", [False, True], ids=["moved-by-game", "attached"])
@pytest.mark.parametrize("name", list(_AIMING))
def test_a_gone_target_is_collected_and_gives_no_force(name: str, attached: bool) -> None:
    world = steer.SteeringWorld(seed=0)
    target = StubSprite(30, 0)
    if attached:
        world.attach(target, steer.Seek((100, 0)))
    component = _AIMING[name](target)
    agent = world.attach(StubSprite(0, 0), component, velocity=(50, 0))
    for _ in range(3):
        target.center_x += 1
        world.update(DT)  # tracked (a sprite the game moves), batched, looked up
    held = weakref.ref(target)
    del target
    _collect(world)
    assert held() is None, "the world kept a target the game dropped"
    assert world.steering_forces().tolist() == [[0.0, 0.0]]
    position, velocity = agent.position, agent.velocity
    world.update(DT)
    assert agent.velocity == velocity  # no force: it coasts
    assert agent.position == pytest.approx(np.add(position, np.multiply(velocity, DT)))
    assert "None" in repr(component)
    first = next(iter(type(component).params))
    assert getattr(component, first) is None


def test_a_callable_target_is_held_strongly() -> None:
    world = steer.SteeringWorld(seed=0)
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek(lambda: (100.0, 0.0)))
    gc.collect()
    world.update(DT)
    assert sprite.center_x > 0.0


def test_the_world_holds_no_among_group_between_updates() -> None:
    class Squad(list):  # a list the game can weakly reference
        pass

    world = steer.SteeringWorld(seed=0)
    squad = Squad([StubSprite(0, 0), StubSprite(10, 0)])
    agents = [world.attach(sprite, steer.Separation(30, among=squad)) for sprite in squad]
    world.update(DT)
    for agent in agents:
        agent.behavior = steer.Seek((0, 0))
    held = weakref.ref(squad)
    del squad
    gc.collect()
    assert held() is None


# -- game code raising during an update ------------------------------------------------------


def _wanderer_and_chaser(calls: list[int], fail_on: int) -> tuple[steer.SteeringWorld, list]:
    world = steer.SteeringWorld(seed=3, max_step=1 / 120)

    def aim() -> tuple[float, float]:
        calls.append(1)
        if len(calls) == fail_on:
            raise KeyError("the game's target failed")
        return (200.0, 50.0)

    sprites = [StubSprite(0, 0), StubSprite(50, 50)]
    world.attach(sprites[0], steer.Wander(), velocity=(30, 10))
    world.attach(sprites[1], steer.Seek(aim), velocity=(0, -20))
    return world, sprites


def _state(world: steer.SteeringWorld) -> tuple[Any, ...]:
    arrays, rows = world._agents.arrays, world._agents.rows
    sprites = [agent.sprite.position for agent in world.agents]
    states = {key: arrays.state.read(key, rows).tolist() for key in arrays.state.snapshot()}
    columns = [getattr(arrays, name)[rows].tolist() for name in ("position", "velocity")]
    return sprites, columns, repr(states), world.rng.bit_generator.state


@pytest.mark.parametrize("fail_on", [2, 3], ids=["first-substep", "second-substep"])
def test_a_raising_callable_target_leaves_every_agent_unstepped(fail_on: int) -> None:
    calls: list[int] = []
    world, sprites = _wanderer_and_chaser(calls, fail_on)
    world.update(DT / 2)  # one call: the wanderer's state exists
    before = _state(world)
    with pytest.raises(KeyError, match="target failed"):
        world.update(DT)  # two substeps
    assert _state(world) == before
    world.update(DT)  # the next update works, and is the one that would have run
    calls_twin: list[int] = []
    twin, twins = _wanderer_and_chaser(calls_twin, 0)
    twin.update(DT / 2)
    twin.update(DT)
    assert _state(world) == _state(twin) and len(sprites) == len(twins) == 2


def test_a_raising_position_setter_stops_no_other_sprite() -> None:
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(0, 0), _RaisingSprite(0, 50), StubSprite(0, 100)]
    for sprite in sprites:
        world.attach(sprite, steer.Seek((500, 0)), rotate=False)
    with pytest.raises(OSError, match="setter failed"):
        world.update(DT)
    assert sprites[0].center_x > 0.0 and sprites[2].center_x > 0.0
    assert sprites[1].center_x == 0.0
    _RaisingSprite.fail = False
    try:
        world.update(DT)
    finally:
        _RaisingSprite.fail = True
    assert sprites[1].center_x > 0.0


# -- copies, pickles, threads ----------------------------------------------------------------


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, pickle.dumps])
def test_copying_or_pickling_a_world_says_what_to_do_instead(how: Callable[[Any], Any]) -> None:
    world = steer.SteeringWorld(seed=0)
    agent = world.attach(StubSprite(0, 0), steer.Seek((1, 1)))
    for subject in (world, agent):
        with pytest.raises(TypeError, match="attach the sprites"):
            how(subject)


def test_an_update_from_a_second_thread_during_an_update_raises() -> None:
    world = steer.SteeringWorld(seed=0)
    errors: list[BaseException] = []
    tried: list[bool] = []

    def other_thread() -> None:
        try:
            world.update(DT)
        except BaseException as error:
            errors.append(error)

    def aim() -> tuple[float, float]:
        if not tried:  # while the first update runs, another thread tries one
            tried.append(True)
            thread = threading.Thread(target=other_thread)
            thread.start()
            thread.join(timeout=10)
        return (0.0, 0.0)

    sprite = StubSprite(10, 0)
    world.attach(sprite, steer.Seek(aim))
    world.update(DT)
    assert len(errors) == 1 and isinstance(errors[0], RuntimeError)
    assert "another thread" in str(errors[0]) and "one world per thread" in str(errors[0])
    world.update(DT)  # and the world is free again


def test_updating_or_attaching_from_inside_an_update_raises() -> None:
    world = steer.SteeringWorld(seed=0)
    seen: list[str] = []

    def aim() -> tuple[float, float]:
        for call in (
            lambda: world.update(DT),
            lambda: world.attach(StubSprite(), steer.Seek((0, 0))),
        ):
            with pytest.raises(RuntimeError, match="during the world's own update") as info:
                call()
            seen.append(str(info.value))
        return (0.0, 0.0)

    sprite = StubSprite(10, 0)
    world.attach(sprite, steer.Seek(aim))
    world.update(DT)
    assert len(seen) == 2 and len(world) == 1


@pytest.mark.parametrize(
    ("add", "name"),
    [
        (lambda w: w.add_wall((-1e308, 0), (1e308, 0)), "a"),
        (lambda w: w.add_wall((0, 0), (0, 2e8)), "b"),
        (lambda w: w.add_walls([(0, 0), (5e8, 0)]), "points"),
        (lambda w: w.add_obstacle((1e9, 0), 10), "center"),
        (lambda w: w.add_obstacle((0, 0), 1e308), "radius"),
        (lambda w: w.add_wall((0, 0), (10, 0), thickness=1e300), "thickness"),
    ],
)
def test_walls_and_obstacles_beyond_the_world_bound_are_refused(add, name) -> None:
    # They used to be accepted, and then every update raised ValueError from the grid.
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((100, 0)))
    with pytest.raises(ValueError, match=rf"^{name} must"):
        add(world)
    assert len(world.space.shapes) == 0
    world.update(1 / 60)
    assert sprite.center_x > 0.0


@pytest.mark.parametrize(
    ("gives", "error"),
    [((1.0, 2.0, 3.0), ValueError), ("ab", TypeError), (("a", "b"), TypeError), (None, TypeError)],
)
def test_a_callable_target_that_gives_no_point_is_refused_naming_it(gives, error) -> None:
    # (1, 2, 3) used to steer to (1, 2), silently; "ab" raised float()'s own message.
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek(lambda: gives))
    with pytest.raises(error, match=r"^target gave"):
        world.update(1 / 60)
    assert sprite.position == (0.0, 0.0)


def test_a_callable_target_at_nan_gives_no_force() -> None:
    world = steer.SteeringWorld()
    agent = world.attach(StubSprite(0, 0), steer.Arrive(lambda: (math.nan, 0.0)), velocity=(50, 0))
    world.update(1 / 60)
    assert agent.force == (0.0, 0.0)
    assert agent.velocity == (50.0, 0.0)


@pytest.mark.parametrize("limit", [1e200, 1e308])
def test_huge_limits_behave_like_no_limit(limit) -> None:
    # max_speed = max_force = 1e308 used to overflow to no motion at all.
    sprite = StubSprite(0, 0)
    world = steer.SteeringWorld()
    agent = world.attach(sprite, steer.Seek((100.0, 0.0)), max_speed=limit, max_force=limit)
    world.update(1 / 60)
    assert sprite.center_x > 1e6 and math.isfinite(sprite.center_x)
    assert agent.max_speed == agent.max_force == 1e12
