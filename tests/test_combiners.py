"""WeightedBlend, PriorityBlend, nesting, and user components written as in DESIGN.md."""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite, steering_force


def truncated(force: np.ndarray, limit: float) -> np.ndarray:
    length = float(np.hypot(*force))
    return force if length <= limit else force * (limit / length)


class Drift(steer.SteeringComponent):
    """Steer every agent of the batch east at 50 px/s."""

    def steer(self, ctx):
        # ctx.position, ctx.velocity: (n, 2); ctx.max_speed, ctx.max_force, ctx.response_time: (n,)
        desired = np.zeros((len(ctx), 2))
        desired[:, 0] = 50.0
        return (desired - ctx.velocity) / ctx.response_time[:, None]


# -- WeightedBlend -----------------------------------------------------------------------------


def test_weighted_blend_is_the_weighted_sum() -> None:
    state = {"position": (10, 20), "velocity": (5, -3), "max_speed": 40, "max_force": 1e6}
    seek, flee = steer.Seek((100, 0)), steer.Flee((0, 80))
    blend = steer.WeightedBlend((seek, 0.75), (flee, -0.5))
    expected = 0.75 * steering_force(seek, **state) - 0.5 * steering_force(flee, **state)
    np.testing.assert_allclose(steering_force(blend, **state), expected)


def test_weighted_blend_truncates_to_max_force() -> None:
    blend = steer.WeightedBlend((steer.Seek((100, 0)), 10.0), (steer.Seek((0, 100)), 10.0))
    force = steering_force(blend, max_speed=100, max_force=50)
    np.testing.assert_allclose(force, [50 / math.sqrt(2), 50 / math.sqrt(2)])


def test_weights_are_settable() -> None:
    blend = steer.WeightedBlend((steer.Seek((100, 0)), 1.0), (steer.Seek((0, 100)), 1.0))
    blend.weights = (0.0, 2.0)
    assert blend.weights == (0.0, 2.0)
    np.testing.assert_allclose(steering_force(blend, max_speed=10, max_force=1e6), [0.0, 200.0])


def test_changed_weights_reach_an_attached_batch(world) -> None:
    blend = steer.WeightedBlend((steer.Seek((1000, 0)), 1.0), (steer.Seek((0, 1000)), 0.0))
    sprite = StubSprite(0, 0)
    world.attach(sprite, blend, max_speed=100)
    for _ in range(30):
        world.update(1 / 60)
    assert abs(sprite.center_y) < 1e-9
    blend.weights = (0.0, 1.0)
    for _ in range(60):
        world.update(1 / 60)
    assert sprite.center_y > 20


# -- PriorityBlend -----------------------------------------------------------------------------


def test_priority_blend_hands_over_when_a_child_is_silent() -> None:
    flee, arrive = steer.Flee((0, 0), panic_distance=100), steer.Arrive((400, 0))
    blend = steer.PriorityBlend(flee, arrive)
    outside = {"position": (200, 50), "velocity": (10, 0)}
    np.testing.assert_allclose(steering_force(blend, **outside), steering_force(arrive, **outside))
    inside = {"position": (50, 50), "velocity": (10, 0)}
    np.testing.assert_allclose(steering_force(blend, **inside), steering_force(flee, **inside))
    assert np.hypot(*steering_force(blend, **inside)) > 100


def test_priority_blend_is_zero_when_every_child_is_silent() -> None:
    blend = steer.PriorityBlend(steer.Flee((0, 0), panic_distance=10), steer.Arrive((300, 0)))
    assert steering_force(blend, position=(300, 0)).tolist() == [0.0, 0.0]


def test_priority_blend_threshold() -> None:
    # Seek on course but slightly slow: a small force, taken only with a low threshold.
    state = {"position": (0, 0), "velocity": (99.99, 0), "max_speed": 100}
    small = steering_force(steer.Seek((500, 0)), **state)
    low = steer.PriorityBlend(steer.Seek((500, 0)), steer.Seek((0, 500)), threshold=1e-3)
    high = steer.PriorityBlend(steer.Seek((500, 0)), steer.Seek((0, 500)), threshold=1.0)
    np.testing.assert_allclose(steering_force(low, **state), small)
    np.testing.assert_allclose(
        steering_force(high, **state), steering_force(steer.Seek((0, 500)), **state)
    )


def test_flee_first_then_arrive_trajectories(world) -> None:
    mine = (0, 0)
    far, near = StubSprite(200, 0), StubSprite(30, 10)
    for sprite in (far, near):
        world.attach(
            sprite,
            steer.PriorityBlend(steer.Flee(mine, panic_distance=100), steer.Arrive((400, 0))),
            max_speed=150,
        )
    closest = math.inf
    first_step = None
    for _ in range(360):
        world.update(1 / 60)
        closest = min(closest, math.dist(far.position, mine))
        if first_step is None:
            first_step = near.position
    # Outside the panic distance: a plain arrival.
    assert closest >= 200 - 1e-9
    assert math.dist(far.position, (400, 0)) <= 2.05
    # Inside it: the first move is away from the mine, then it arrives as well.
    assert math.dist(first_step, mine) > math.dist((30, 10), mine)
    assert math.dist(near.position, (400, 0)) <= 2.05


def test_flee_first_then_arrive_inside_panic_settles_at_the_border(world) -> None:
    # The target lies inside the panic circle: the agent cannot have it, it hovers at the edge.
    sprite = StubSprite(60, 0)
    world.attach(
        sprite,
        steer.PriorityBlend(steer.Flee((0, 0), panic_distance=100), steer.Arrive((50, 0))),
        max_speed=100,
    )
    for _ in range(300):
        world.update(1 / 60)
    assert 85 < math.dist(sprite.position, (0, 0)) < 115


# -- nesting -----------------------------------------------------------------------------------


def nested() -> tuple[steer.SteeringComponent, ...]:
    flee, seek_a = steer.Flee((0, 0), panic_distance=60), steer.Seek((300, 0))
    inner = steer.WeightedBlend((flee, 2.0), (seek_a, 0.5))
    arrive = steer.Arrive((200, 200))
    middle = steer.PriorityBlend(inner, arrive)
    seek_d = steer.Seek((0, 300))
    outer = steer.WeightedBlend((middle, 0.5), (seek_d, 0.25))
    return outer, flee, seek_a, arrive, seek_d


@pytest.mark.parametrize("position", [(20, 10), (150, 150), (-40, 0)])
def test_nested_blends_compose(position) -> None:
    outer, flee, seek_a, arrive, seek_d = nested()
    state = {"position": position, "velocity": (12, -7), "max_speed": 90, "max_force": 300}
    f = {c: steering_force(c, **state) for c in (flee, seek_a, arrive, seek_d)}
    inner = truncated(2.0 * f[flee] + 0.5 * f[seek_a], 300)
    middle = inner if np.hypot(*inner) > 1e-3 else f[arrive]
    expected = truncated(0.5 * middle + 0.25 * f[seek_d], 300)
    np.testing.assert_allclose(steering_force(outer, **state), expected)


def test_nested_blends_run_batched_and_alone_alike(simulate) -> None:
    starts = [(20, 10), (150, 150), (-40, 0), (0, 5), (80, -30)]
    together = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(*start) for start in starts]
    for sprite in sprites:
        together.attach(sprite, nested()[0], max_speed=90, max_force=300)
    assert len(together._agents.batches()) == 1
    batched = simulate(together, 1.5, 1 / 60)
    for i, start in enumerate(starts):
        alone = steer.SteeringWorld(seed=0)
        sprite = StubSprite(*start)
        alone.attach(sprite, nested()[0], max_speed=90, max_force=300)
        np.testing.assert_allclose(simulate(alone, 1.5, 1 / 60)[:, 0], batched[:, i], atol=1e-7)
    assert np.isfinite(batched).all()


# -- user components ---------------------------------------------------------------------------


def test_user_component_from_the_design_works_batched(world) -> None:
    drift = Drift()
    sprites = [StubSprite(0, 30.0 * i) for i in range(10)]
    for sprite in sprites:
        world.attach(sprite, drift, max_speed=100)
    assert len(world._agents.batches()) == 1
    for _ in range(120):
        world.update(1 / 60)
    for i, agent in enumerate(world.agents):
        assert agent.velocity == pytest.approx((50.0, 0.0), abs=1e-6)
        assert agent.sprite.center_y == 30.0 * i
        assert agent.sprite.center_x == pytest.approx(50.0 * 2.0 - 5.0, abs=1.5)
    np.testing.assert_allclose(steering_force(Drift(), velocity=(10, 10)), [400.0, -100.0])


def test_user_component_instances_and_blends(world) -> None:
    sprites = [StubSprite(0, 0), StubSprite(0, 100), StubSprite(0, 200)]
    world.attach(sprites[0], Drift())
    world.attach(sprites[1], Drift())
    world.attach(sprites[2], steer.WeightedBlend((Drift(), 1.0), (steer.Seek((0, 1000)), 0.0)))
    # Instances with no state of their own share a batch (there is nothing to tell apart).
    assert len(world._agents.batches()) == 2
    for _ in range(120):
        world.update(1 / 60)
    assert all(s.center_x == pytest.approx(sprites[0].center_x) for s in sprites)
    assert sprites[2].center_y == 200


def test_component_with_wrong_shape_is_reported(world) -> None:
    class Broken(steer.SteeringComponent):
        """Returns one force for the whole batch."""

        def steer(self, ctx):
            return np.zeros(2)

    sprite = StubSprite()
    world.attach(sprite, Broken())
    with pytest.raises(ValueError, match=r"Broken\.steer returned shape"):
        world.update(1 / 60)


def test_base_component_must_be_overridden(world) -> None:
    sprite = StubSprite()
    world.attach(sprite, steer.SteeringComponent())
    with pytest.raises(NotImplementedError, match="steer"):
        world.update(1 / 60)
