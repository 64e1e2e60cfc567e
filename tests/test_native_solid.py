"""The solid step on the native path against numpy's: fuzzed worlds of solid agents among
thick and thin walls, polygons, obstacles, corners and wedges, some spawned buried, some
fast enough to tunnel, agree over many steps; no agent crosses a wall; each path is
deterministic; the C refuses candidates out of range and writes nothing.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: The world's extent, px: walls and agents within it.
SPREAD = 300.0


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def add_geometry(world: steer.SteeringWorld, rng: np.random.Generator) -> list[tuple]:
    """Random walls (thin and thick), closed polygons, corners, wedges and obstacles; returns
    the thin walls' ends, which no agent may cross."""
    thin = []
    for _ in range(int(rng.integers(1, 12))):
        a, b = rng.uniform(-SPREAD, SPREAD, (2, 2))
        thickness = float(rng.choice([0.0, 0.0, rng.uniform(1, 30)]))
        world.add_wall(tuple(a), tuple(b), thickness=thickness)
        if thickness == 0.0:
            thin.append((a, b))
    for _ in range(int(rng.integers(0, 3))):  # a closed polygon
        centre, size = rng.uniform(-SPREAD, SPREAD, 2), float(rng.uniform(20, 120))
        angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 7))))
        points = centre + size * np.column_stack((np.cos(angles), np.sin(angles)))
        world.add_walls([tuple(p) for p in points], closed=True, thickness=float(rng.choice([0, 4])))
    for _ in range(int(rng.integers(0, 3))):  # a corner or a narrow wedge
        apex = rng.uniform(-SPREAD, SPREAD, 2)
        turn = float(rng.uniform(0, 2 * np.pi))
        spread = float(rng.choice([np.pi / 2, rng.uniform(0.05, 0.6)]))
        ends = [apex + 150 * np.array([np.cos(turn + s), np.sin(turn + s)]) for s in (0, spread)]
        world.add_walls([tuple(ends[0]), tuple(apex), tuple(ends[1])])
    for _ in range(int(rng.choice([0, 4, 30]))):
        world.add_obstacle(tuple(rng.uniform(-SPREAD, SPREAD, 2)), float(rng.uniform(2, 50)))
    return thin


def solid_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], list[tuple]]:
    """Solid agents seeking, fleeing, arriving, some buried, some at tunnelling speeds."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    thin = add_geometry(world, rng)
    n = int(rng.integers(1, 80))
    sprites = [StubSprite(*rng.uniform(-SPREAD, SPREAD, 2)) for _ in range(n)]
    for sprite in sprites:
        target = tuple(rng.uniform(-SPREAD, SPREAD, 2))
        kind = rng.integers(3)
        leaf = (steer.Seek, steer.Flee, steer.Arrive)[kind](target)
        if rng.random() < 0.3:
            leaf = steer.WeightedBlend((leaf, 1.0), (steer.Separation(30), 2.0))
        fast = rng.random() < 0.2  # far more than a radius a step: would tunnel unswept
        world.attach(
            sprite,
            leaf,
            max_speed=float(rng.uniform(4000, 20000) if fast else rng.uniform(20, 400)),
            max_force=float(rng.uniform(100, 50000)),
            radius=float(rng.choice([0.0, rng.uniform(1, 25)])),
            velocity=tuple(rng.uniform(-300, 300, 2)),
            solid=bool(rng.random() < 0.9),
        )
    return world, sprites, thin


def record(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool, steps: int = 60):
    """Positions and velocities ``(steps, n, 4)``, and the thin walls."""
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    world, sprites, thin = solid_world(seed)
    report = world.native_report()
    assert (report.integration == "") == native, str(report)
    rng = np.random.default_rng(seed + 1000)
    out = []
    for step in range(steps):
        world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 7 else 1 / 120)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity] for a in agents])
    return np.array(out), thin


SEEDS = [*range(12), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(12, 60))]


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_solid_worlds_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native, _ = record(seed, monkeypatch, native=True)
    numpy, _ = record(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)
