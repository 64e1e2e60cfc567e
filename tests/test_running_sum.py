"""RunningSum: children's forces added in priority order until the force budget is spent."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite, steering_force


class Push(steer.SteeringComponent):
    """A constant force, to read the sum off."""

    force: tuple[float, float] = steer.params.point()

    def steer(self, ctx):
        return np.broadcast_to(np.asarray(self.force, dtype=float), (len(ctx), 2)).copy()


def force_of(blend: steer.SteeringComponent, max_force: float = 1e6) -> np.ndarray:
    return steering_force(blend, position=(0, 0), max_force=max_force)


def test_forces_that_fit_the_budget_are_added_whole() -> None:
    blend = steer.RunningSum(Push((30.0, 0.0)), Push((0.0, 40.0)), budget=100.0)
    np.testing.assert_allclose(force_of(blend), [30.0, 40.0])


def test_the_first_children_get_what_they_ask_the_later_ones_what_is_left() -> None:
    blend = steer.RunningSum(Push((60.0, 0.0)), Push((0.0, 100.0)), Push((-50, 0)), budget=100.0)
    force = force_of(blend)
    # 60 east is whole; north gets the 40 left; nothing is left for the third.
    np.testing.assert_allclose(force, [60.0, 40.0], atol=1e-9)


def test_a_first_child_over_budget_takes_all_of_it() -> None:
    blend = steer.RunningSum(Push((300.0, 400.0)), Push((0.0, -100.0)), budget=50.0)
    np.testing.assert_allclose(force_of(blend), [30.0, 40.0])


def test_no_budget_means_each_agents_max_force() -> None:
    blend = steer.RunningSum(Push((300.0, 0.0)), Push((0.0, 300.0)))
    np.testing.assert_allclose(force_of(blend, max_force=500.0), [300.0, 200.0])
    # a budget above max_force counts as max_force
    over = steer.RunningSum(Push((300.0, 0.0)), Push((0.0, 300.0)), budget=1e4)
    np.testing.assert_allclose(force_of(over, max_force=500.0), [300.0, 200.0])


@pytest.mark.parametrize("seed", range(5))
def test_the_sum_never_exceeds_the_budget(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(50):
        pushes = [Push(tuple(rng.normal(0, 200, 2))) for _ in range(rng.integers(1, 6))]
        budget = float(rng.uniform(1, 300))
        force = force_of(steer.RunningSum(*pushes, budget=budget))
        assert np.hypot(*force) <= budget * (1 + 1e-12)
        assert np.isfinite(force).all()


def test_a_silent_child_does_not_use_the_budget_and_zero_forces_give_zero() -> None:
    blend = steer.RunningSum(Push((0.0, 0.0)), Push((10.0, 0.0)), budget=5.0)
    np.testing.assert_allclose(force_of(blend), [5.0, 0.0])
    assert np.array_equal(force_of(steer.RunningSum(Push((0.0, 0.0)))), [0.0, 0.0])


def test_an_agent_seeks_while_separation_nudges_it_and_never_exceeds_the_budget() -> None:
    world = steer.SteeringWorld(seed=0)
    mate = StubSprite(0.0, 10.0)
    world.attach(mate, steer.Wander(), max_speed=1e-6)
    ship = StubSprite(0.0, 0.0)
    blend = steer.RunningSum(steer.Separation(30.0), steer.Seek((300.0, 0.0)), budget=150.0)
    agent = world.attach(ship, blend, max_speed=100.0, max_force=400.0)
    for _ in range(120):
        world.update(1 / 60)
        assert np.hypot(*agent.force) <= 150.0 * (1 + 1e-12)
    assert ship.center_x > 60.0  # the Seek drives it while Separation pushes
    assert ship.center_y < -5.0  # pushed away from its mate on the way


def test_tree_data_round_trips_it() -> None:
    tree = steer.RunningSum(steer.AvoidWalls(), steer.Seek((5.0, 6.0)), budget=120.0)
    again = steer.from_dict(steer.to_dict(tree))
    assert repr(again) == repr(tree)
    assert again.budget == 120.0


@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda: steer.RunningSum(), ValueError, "components needs at least one"),
        (lambda: steer.RunningSum("seek"), TypeError, r"components\[0\] must be a Steering"),
        (lambda: steer.RunningSum(steer.Wander(), budget=0.0), ValueError, "budget"),
        (lambda: steer.RunningSum(steer.Wander(), budget=float("nan")), ValueError, "budget"),
        (lambda: steer.RunningSum(steer.Wander(), budget="big"), TypeError, "budget"),
    ],
)
def test_bad_arguments_are_refused_naming_them(call, error, says) -> None:
    with pytest.raises(error, match=says):
        call()


def test_it_runs_on_numpy_and_says_so() -> None:
    world = steer.SteeringWorld()
    ship = StubSprite()  # the world holds sprites weakly: keep it
    world.attach(ship, steer.RunningSum(steer.Seek((10.0, 0.0))))
    report = world.native_report()
    batch = report.batches[0]
    assert not batch.native
    if report.native:  # the extension is there: the batch says what keeps it on numpy
        assert "RunningSum" in batch.reason


def _walls_scene_crossings(behavior, updates: int, agents: int) -> tuple[int, float]:
    """Wall crossings of ``agents`` agents steered by ``behavior(target)`` in the walls
    benchmark's field (100 short walls, 50 obstacles, closed by four walls), and the largest
    force any of them got. The agents are not solid: only avoidance keeps them out of walls."""
    sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "benchmarks"))
    import maze_soak  # counts crossings of walls' core lines
    from scenarios._field import BORDER, SIZE, scatter

    rng = np.random.default_rng(3)
    field = scatter(rng, 100, (60, 200), 50, (15, 40))
    world = field.world()
    border = np.concatenate((BORDER, np.roll(BORDER, -1, axis=0)), axis=1)
    walls = np.concatenate((field.walls.reshape(-1, 4), border))
    sprites = [StubSprite(*rng.uniform(20, SIZE - 20, 2)) for _ in range(agents)]
    targets = rng.uniform(50, SIZE - 50, (agents, 2)).tolist()
    for sprite, target in zip(sprites, targets, strict=True):
        options = {"max_speed": 150.0, "max_force": 300.0, "solid": False}
        world.attach(sprite, behavior(tuple(target)), **options)
    crossed, strongest = 0, 0.0
    before = np.array([sprite.position for sprite in sprites])
    for _ in range(updates):
        world.update(1 / 60)
        after = np.array([sprite.position for sprite in sprites])
        crossed += maze_soak.crossings(before, after, walls)
        strongest = max(strongest, max(np.hypot(*agent.force) for agent in world.agents))
        before = after
    return crossed, strongest


def test_wall_avoidance_is_never_starved_by_a_strong_seek_beside_it() -> None:
    # A Seek asking for up to 20 times the budget, beside wall and obstacle avoidance, agents
    # not solid: only avoidance keeps them out of walls. Served first, AvoidWalls crosses no
    # more often than it does when it alone decides (PriorityBlend, the walls benchmark's tree:
    # 1 crossing in 60,000 agent-steps, an agent squeezed along a wall); in a weighted sum the
    # Seek drowns it (about 300).
    def strong_seek(target):
        return steer.WeightedBlend((steer.Seek(target), 20.0))

    def running_sum(target):
        avoid = (steer.AvoidWalls(), steer.AvoidObstacles())
        return steer.RunningSum(*avoid, strong_seek(target), budget=300.0)

    def alone(target):
        return steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek(target))

    def weighted(target):
        avoid = ((steer.AvoidWalls(), 1.0), (steer.AvoidObstacles(), 1.0))
        return steer.WeightedBlend(*avoid, (steer.Seek(target), 20.0))

    crossed, strongest = _walls_scene_crossings(running_sum, updates=600, agents=100)
    assert strongest <= 300.0 * (1 + 1e-12)
    assert crossed <= _walls_scene_crossings(alone, updates=600, agents=100)[0]
    assert _walls_scene_crossings(weighted, updates=600, agents=100)[0] > 50 * max(crossed, 1)
