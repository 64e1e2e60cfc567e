"""Helpers for unit-testing steering components without a window.

Example:
    >>> import arcade_steering as steer
    >>> from arcade_steering.testing import steering_force
    >>> steering_force(steer.Seek((100, 0)), position=(0, 0), max_speed=50).round(1).tolist()
    [500.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from ._core.batches import Batch
from .component import SteeringComponent
from .context import BatchFrame, evaluate
from .debug import DebugRecorder
from .world import SteeringWorld


class StubSprite:
    """A stand-in for ``arcade.Sprite`` with no texture, window or GL.

    It has what the world reads and writes: ``position``, ``center_x``, ``center_y``,
    ``angle`` (degrees, clockwise, as arcade's), ``width`` and ``height``.

    Args:
        x: Initial ``center_x``, px.
        y: Initial ``center_y``, px.
        angle: Initial angle, degrees clockwise.
        width: Width, px.
        height: Height, px.
    """

    def __init__(
        self,
        x: float = 0.0,
        y: float = 0.0,
        angle: float = 0.0,
        width: float = 16,
        height: float = 16,
    ) -> None:
        self.center_x = float(x)
        self.center_y = float(y)
        self.angle = float(angle)
        self.width = width
        self.height = height

    @property
    def position(self) -> tuple[float, float]:
        """``(center_x, center_y)``."""
        return self.center_x, self.center_y

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        self.center_x, self.center_y = float(value[0]), float(value[1])

    def __repr__(self) -> str:
        return f"StubSprite(x={self.center_x:.2f}, y={self.center_y:.2f}, angle={self.angle:.1f})"


def steering_force(
    component: SteeringComponent,
    position: tuple[float, float] = (0.0, 0.0),
    velocity: tuple[float, float] = (0.0, 0.0),
    *,
    world: SteeringWorld | None = None,
    dt: float = 1 / 60,
    **attach_options: Any,
) -> np.ndarray:
    """The force ``(2,)`` that ``component`` gives one agent in the given state.

    The agent is a :class:`StubSprite` attached to ``world`` (a fresh ``SteeringWorld(seed=0)``
    when None) for the call and detached after. Nothing moves.

    Args:
        component: The component under test.
        position: The agent's position, px.
        velocity: The agent's velocity, px/s.
        world: A world holding walls, obstacles or other agents the component should see.
        dt: The step the component is told about, seconds.
        **attach_options: Passed to :meth:`SteeringWorld.attach` (``max_speed``, ``radius``, …).
    """
    world = SteeringWorld(seed=0) if world is None else world
    sprite = StubSprite(*position)
    agent = world.attach(sprite, component, velocity=velocity, **attach_options)
    try:
        batch = Batch(np.array([agent._slot], dtype=np.intp), [component])
        return _evaluate(world, batch, dt)[0]
    finally:
        world.detach(sprite)


def batch_forces(
    world: SteeringWorld, dt: float = 1 / 60, debug: DebugRecorder | None = None
) -> dict[int, np.ndarray]:
    """Every agent's force ``(2,)`` now, evaluated batch by batch as ``update`` does.

    Nothing changes: agents stay where they are, and their components' state (wander angles,
    path progress) and the world's random generator are as they were. Keys are the agents'
    rows in the world, the same as :func:`forces_one_by_one`'s, so the two can be compared: a
    component is batched correctly when both agree (one that draws random numbers, such as
    Wander, only in distribution: a batch draws its agents' numbers together).
    """
    with _as_it_was(world):
        forces: dict[int, np.ndarray] = {}
        for batch in world._current_batches():
            force = _evaluate(world, batch, dt, debug)
            forces.update(zip(batch.slots.tolist(), force, strict=True))
    return forces


def forces_one_by_one(world: SteeringWorld, dt: float = 1 / 60) -> dict[int, np.ndarray]:
    """Every agent's force ``(2,)`` now, each agent evaluated as a batch of its own.

    Nothing changes, as with :func:`batch_forces`.
    """
    with _as_it_was(world):
        forces: dict[int, np.ndarray] = {}
        for agent in world.agents:
            batch = Batch(np.array([agent._slot], dtype=np.intp), [agent.behavior])
            force = _evaluate(world, batch, dt)
            forces[agent._slot] = force[0]
    return forces


def _evaluate(
    world: SteeringWorld, batch: Batch, dt: float, debug: DebugRecorder | None = None
) -> np.ndarray:
    """Forces ``(k, 2)`` of one batch, on the walls and obstacles the space holds now (an
    update would have brought the world's mirror of them up to date first)."""
    world._geometry.sync(world._space)
    return evaluate(BatchFrame(world, batch.slots, dt, debug), batch.root)


@contextmanager
def _as_it_was(world: SteeringWorld) -> Iterator[None]:
    """Evaluate components on ``world`` and then put back their per-agent state and the
    world's random generator, so the game goes on as if nothing had been asked."""
    world._neighbors = None  # the last update's index is stale: agents may have moved since
    states = world._states.snapshot()
    generator = world.rng.bit_generator.state
    try:
        yield
    finally:
        world._states.restore(states)
        world.rng.bit_generator.state = generator
        world._neighbors = None
