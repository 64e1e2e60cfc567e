"""Rollback: the cost of ``world.snapshot()`` and of ``world.restore(snapshot)``.

A squad of wanderers keeping apart (``WeightedBlend((Wander(), 1), (Separation(20), 1))``, real
sprites in a SpriteList) runs for a second; then, each round, the world is saved, updated
once, and restored: the row's ``median_ms`` is the restore (every sprite moved back),
``snapshot_ms`` the save. Netcode rolls back like this every frame a late input arrives.
"""

from __future__ import annotations

import gc
import time
from typing import Any

import numpy as np

import arcade_steering as steer

from . import Scenario, make_sprites

ROUNDS = 200


def build(count: int) -> steer.SteeringWorld:
    world = steer.SteeringWorld(seed=1)
    side = 25.0 * np.sqrt(count)
    behavior = steer.WeightedBlend((steer.Wander(), 1.0), (steer.Separation(20.0), 1.0))
    for sprite in make_sprites(count, np.random.default_rng(1), 0.0, side):
        world.attach(sprite, behavior, max_speed=60.0, radius=6.0)
    return world


def run(count: int, quick: bool) -> dict[str, Any]:
    world = build(count)
    for _ in range(5 if quick else 60):
        world.update(1 / 60)
    saves, restores = [], []
    gc.disable()
    try:
        for _ in range(10 if quick else ROUNDS):
            start = time.perf_counter()
            saved = world.snapshot()
            saves.append(time.perf_counter() - start)
            world.update(1 / 60)
            start = time.perf_counter()
            world.restore(saved)
            restores.append(time.perf_counter() - start)
    finally:
        gc.enable()
    restore_ms, snapshot_ms = np.array(restores) * 1e3, np.array(saves) * 1e3
    return {
        "median_ms": round(float(np.median(restore_ms)), 4),
        "p95_ms": round(float(np.percentile(restore_ms, 95)), 4),
        "snapshot_ms": round(float(np.median(snapshot_ms)), 4),
    }


SCENARIOS = [Scenario("restore", (100, 1_000), build, run=run)]
#: The save/load issue's goal: snapshot and restore of 1,000 agents under 0.5 ms each.
BUDGETS = {("restore", 1_000): 0.5}
