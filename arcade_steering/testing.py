"""Helpers for unit-testing steering components without a window.

Example:
    >>> import arcade_steering as steer
    >>> from arcade_steering.testing import steering_force
    >>> steering_force(steer.Seek((100, 0)), position=(0, 0), max_speed=50).round(1).tolist()
    [500.0, 0.0]
"""

from __future__ import annotations

from numbers import Real
from typing import Any

import numpy as np

from ._util.validate import check_point
from .component.base import SteeringComponent
from .debug import DebugRecorder
from .world import SteeringWorld, check_world


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
        self.center_x = _number("x", x)
        self.center_y = _number("y", y)
        self.angle = _number("angle", angle)
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
    world = SteeringWorld(seed=0) if world is None else check_world(world)
    sprite = StubSprite(*check_point("position", position))
    world.attach(sprite, component, velocity=velocity, **attach_options)
    try:
        force: np.ndarray = world.steering_forces(dt, alone=True)[-1]
        return force
    finally:
        world.detach(sprite)


def batch_forces(
    world: SteeringWorld, dt: float = 1 / 60, debug: DebugRecorder | None = None
) -> dict[int, np.ndarray]:
    """Every agent's force ``(2,)`` now, evaluated batch by batch as ``update`` does.

    Nothing changes (see :meth:`SteeringWorld.steering_forces`). Keys are the agents' places
    in ``world.agents``, the same as :func:`forces_one_by_one`'s, so the two can be compared:
    a component is batched correctly when both agree (one that draws random numbers, such as
    Wander, only in distribution: a batch draws its agents' numbers together).
    """
    return dict(enumerate(check_world(world).steering_forces(dt, debug=debug)))


def forces_one_by_one(world: SteeringWorld, dt: float = 1 / 60) -> dict[int, np.ndarray]:
    """Every agent's force ``(2,)`` now, each agent evaluated as a batch of its own.

    Nothing changes, as with :func:`batch_forces`.
    """
    return dict(enumerate(check_world(world).steering_forces(dt, alone=True)))


def _number(name: str, value: Any) -> float:
    """``value`` as a float, NaN and inf included (a sprite takes them), or ``TypeError``."""
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r:.24}")
    return float(value)
