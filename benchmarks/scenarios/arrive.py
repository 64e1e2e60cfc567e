"""Arrive with one shared target vs one target per agent: batching must make them cost alike."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Results, Scenario, make_sprites, median_of


def build_arrive_shared(count: int) -> steer.SteeringWorld:
    """Every agent shares one Arrive at a point across the field: all keep moving."""
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    arrive = steer.Arrive((1900.0, 1000.0), slowing_radius=150.0)
    for sprite in make_sprites(count, rng, (0, 0), (400, 2000)):
        world.attach(sprite, arrive, max_speed=60.0, max_force=300.0)
    return world


def build_arrive_own(count: int) -> steer.SteeringWorld:
    """Every agent has its own Arrive target across the field."""
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    sprites = make_sprites(count, rng, (0, 0), (400, 2000))
    targets = rng.uniform((1500, 0), (2000, 2000), (count, 2)).tolist()
    for sprite, target in zip(sprites, targets, strict=True):
        arrive = steer.Arrive(tuple(target), slowing_radius=150.0)
        world.attach(sprite, arrive, max_speed=60.0, max_force=300.0)
    return world


SCENARIOS = [
    Scenario("arrive-shared", (100, 1000, 5000), build_arrive_shared),
    Scenario("arrive-own", (100, 1000, 5000), build_arrive_own),
]

BUDGETS = {
    ("arrive-shared", 1000): 1.0,
    ("arrive-own", 1000): 1.0,
    ("arrive-shared", 5000): 5.0,
    ("arrive-own", 5000): 5.0,
}

#: Per-agent targets may cost at most this much more than one shared target.
OWN_VS_SHARED_RATIO = 1.5


def own_targets_cost_like_shared(results: Results) -> list[str]:
    """Batching by shape: per-agent targets within 1.5x of one shared target."""
    failures = []
    for n in (1000, 5000):
        own = median_of(results, "arrive-own", n)
        shared = median_of(results, "arrive-shared", n)
        if own is not None and shared is not None and own > OWN_VS_SHARED_RATIO * shared:
            failures.append(f"arrive-own N={n} is {own / shared:.2f}x arrive-shared")
    return failures


CHECKS = [own_targets_cost_like_shared]
