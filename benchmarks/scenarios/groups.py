"""Groups: a flock (separation, alignment, cohesion) and squads following leaders.

"squads-20x50" (20 squads of 50, each with its own leader and SpriteList) must cost about the
same as "crowd-1x1000" (one leader, 999 followers, the same behaviour): per-squad leaders and
``among=`` lists batch into one evaluation.
"""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Results, Scenario, make_sprites, median_of

#: Agents per 900 px² at the start (about one per 30 x 30 px).
SPACING = 30.0
FLOCK_RADIUS = 40.0


def build_flock(count: int) -> steer.SteeringWorld:
    """``count`` agents from random headings, one flock behaviour shared by all."""
    rng = np.random.default_rng(2)
    world = steer.SteeringWorld(seed=0)
    side = SPACING * np.sqrt(count)
    flock = steer.WeightedBlend(
        (steer.Separation(FLOCK_RADIUS), 1.5),
        (steer.Alignment(FLOCK_RADIUS), 1.0),
        (steer.Cohesion(FLOCK_RADIUS), 1.0),
    )
    angles = rng.uniform(-np.pi, np.pi, count)
    for sprite, angle in zip(make_sprites(count, rng, (0, 0), (side, side)), angles, strict=True):
        velocity = (60.0 * np.cos(angle), 60.0 * np.sin(angle))
        world.attach(sprite, flock, max_speed=80.0, max_force=300.0, velocity=velocity)
    return world


def _build_squads(squads: int, size: int) -> steer.SteeringWorld:
    """``squads`` leaders wandering, each followed by ``size - 1`` followers of its own."""
    rng = np.random.default_rng(3)
    world = steer.SteeringWorld(seed=0)
    side = SPACING * np.sqrt(squads * size)
    wander = steer.Wander()
    for sprites in np.array_split(
        np.array(make_sprites(squads * size, rng, (0, 0), (side, side)), dtype=object), squads
    ):
        leader, squad = sprites[0], list(sprites[1:])
        world.attach(leader, wander, max_speed=50.0, max_force=200.0)
        follower = steer.PriorityBlend(
            steer.EvadeSightCone(leader),
            steer.WeightedBlend(
                (steer.FollowLeader(leader), 1.0), (steer.Separation(30.0, among=squad), 1.5)
            ),
        )
        for sprite in squad:
            world.attach(sprite, follower, max_speed=80.0, max_force=300.0)
    return world


def build_squads(count: int) -> steer.SteeringWorld:
    """20 squads of ``count / 20``: each leader with its own followers."""
    return _build_squads(20, count // 20)


def build_crowd(count: int) -> steer.SteeringWorld:
    """One leader and ``count - 1`` followers with the squads' behaviour."""
    return _build_squads(1, count)


SCENARIOS = [
    Scenario("flock", (1000, 5000), build_flock),
    Scenario("squads-20x50", (1000,), build_squads),
    Scenario("crowd-1x1000", (1000,), build_crowd),
]

BUDGETS = {
    ("flock", 1000): 2.0,
    ("flock", 5000): 10.0,
}

#: Twenty squads may cost at most this much more than one crowd of the same size.
SQUADS_VS_CROWD_RATIO = 1.5


def squads_cost_like_a_crowd(results: Results) -> list[str]:
    """Per-squad leaders and among= lists batch: 20 squads within 1.5x of one crowd."""
    squads = median_of(results, "squads-20x50", 1000)
    crowd = median_of(results, "crowd-1x1000", 1000)
    if squads is not None and crowd is not None and squads > SQUADS_VS_CROWD_RATIO * crowd:
        return [f"squads-20x50 is {squads / crowd:.2f}x crowd-1x1000"]
    return []


CHECKS = [squads_cost_like_a_crowd]
