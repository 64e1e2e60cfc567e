"""Fuzzed worlds for a behaviour newly in the native step: its leaves in random trees with the
other covered components and both blends, among targets of every kind (fixed points, an agent,
a sprite the game moves, one that stands, one that goes away, a callable), recorded step by
step on either path.
"""

from __future__ import annotations

import gc
from collections.abc import Callable

import numpy as np
import pytest
from test_native import random_leaf

import arcade_steering as steer
from arcade_steering.testing import StubSprite

#: Makes a leaf of the behaviour under test from the scene's random generator and targets.
LeafMaker = Callable[[np.random.Generator, "Scene"], steer.SteeringComponent]


class Scene:
    """A fuzzed world of agents whose trees hold ``own`` leaves; :meth:`run` steps it."""

    def __init__(self, seed: int, own: LeafMaker, steps: int = 60) -> None:
        rng = np.random.default_rng(seed)
        self.rng, self.steps = rng, steps
        self.world = steer.SteeringWorld(seed=seed)
        self.spread = spread = float(rng.choice([50.0, 200.0, 2000.0]))
        n = int(rng.integers(1, 60) if seed % 4 else rng.integers(65, 120))
        self.sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
        self.mover = StubSprite(*rng.uniform(-spread, spread, 2))
        self.doomed: StubSprite | None = StubSprite(*rng.uniform(-spread, spread, 2))
        mover = self.mover
        #: Targets of every kind; ``moving`` those that are not fixed points.
        self.moving: list = [self.sprites[0], mover, StubSprite(*rng.uniform(-spread, spread, 2))]
        self.moving += [self.doomed, lambda: (mover.center_y, mover.center_x)]
        self.points = [tuple(rng.uniform(-spread, spread, 2)) for _ in range(2)]
        shared = self.tree(own, 3)
        for index, sprite in enumerate(self.sprites):
            self.world.attach(
                sprite,
                shared if index % 3 else self.tree(own, 3),
                max_speed=float(rng.uniform(10, 400)),
                max_force=float(rng.uniform(10, 2000)),
                mass=float(rng.uniform(0.2, 5)),
                response_time=float(rng.choice([0.001, 0.1, 0.7])),
                velocity=tuple(rng.uniform(-300, 300, 2)) if rng.random() < 0.8 else (0, 0),
                radius=float(rng.uniform(0, 20)),
            )
        if rng.random() < 0.3:
            for _ in range(int(rng.integers(1, 10))):
                self.world.add_obstacle(tuple(rng.uniform(-spread, spread, 2)), 20.0)

    @property
    def targets(self) -> list:
        """Every target still there: the fixed points and the moving ones."""
        return [*self.points, *(each for each in self.moving if each is not None)]

    def tree(self, own: LeafMaker, depth: int) -> steer.SteeringComponent:
        """A random tree of the covered components, ``own`` leaves often among them."""
        rng = self.rng
        if depth == 0 or rng.random() < 0.35:
            if rng.random() < 0.5:
                return own(rng, self)
            return random_leaf(rng, self.targets)
        children = [self.tree(own, depth - 1) for _ in range(rng.integers(1, 4))]
        if rng.random() < 0.5:
            return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))
        return steer.PriorityBlend(*children, threshold=float(rng.choice([0.0, 1e-3, 50.0])))

    def run(self, every_step: Callable[[int], None] | None = None) -> np.ndarray:
        """Positions, velocities, forces and headings ``(steps, n, 8)``: the mover moves, a
        target goes away half-way, ``every_step(step)`` runs before each update."""
        rng, out = self.rng, []
        for step in range(self.steps):
            self.mover.center_x += 12.0 * np.sign(np.sin(step / 7.0)) + float(rng.uniform(-2, 2))
            if step == self.steps // 2:
                self.doomed = None
                self.moving[3] = None
                gc.collect()
            if every_step is not None:
                every_step(step)
            self.world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
            agents = [self.world.agent_of(sprite) for sprite in self.sprites]
            out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
        return np.array(out)


def on_path(monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    """Worlds made from now on run natively, or on numpy only."""
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")


def run_scene(
    seed: int, own: LeafMaker, monkeypatch: pytest.MonkeyPatch, native: bool
) -> np.ndarray:
    """:class:`Scene` ``seed`` run on one path, every batch on it (checked by the report)."""
    on_path(monkeypatch, native)
    scene = Scene(seed, own)
    report = scene.world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return scene.run()
