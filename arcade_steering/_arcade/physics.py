"""Steering sprites that an :class:`arcade.PymunkPhysicsEngine` owns, through their bodies.

``SteeringWorld(physics=engine)`` uses this module. An agent whose sprite is in the engine
(``engine.sprites``) is *driven*: each update the world reads its body's velocity (world space,
px/s, after the engine's collisions), steers as for any agent, and writes the new velocity back
to the body instead of moving the sprite. The engine then moves it and collides it with
everything else in its space. Agents whose sprites are not in the engine are moved by the world
as usual; a sprite removed from the engine falls back to that at the next update.

Two quirks of arcade 3.3.3's engine decide how this is done:

- ``engine.apply_force`` applies the force at a *local* point (``apply_force_at_local_point``),
  so it is rotated by the body's angle. Steering is in world space, so the world sets
  ``body.velocity`` directly (the velocity steering integrated, as it would for an agent of its
  own); pymunk's contact solver runs after that within ``engine.step``, so collisions still hold.
- The engine's angles disagree in sign (arcade issue 1887): ``add_sprite`` and ``set_rotation``
  set ``body.angle = radians(sprite.angle)``, but ``resync_sprites`` sets
  ``sprite.angle = -degrees(body.angle)``. pymunk's angles are counter-clockwise and arcade's
  clockwise, so the resync is the right one. For an agent with ``rotate=True`` the world sets
  ``body.angle = -radians(angle)`` and ``body.angular_velocity = 0``, so the resync after
  ``engine.step`` gives the sprite the angle that faces its heading.

The per-body work is two short Python loops, about 2 µs per driven agent (a velocity read and
a velocity write, ~1 µs each through pymunk's cffi properties), 3.5 µs with ``rotate=True``
(the angle and the spin too). For comparison, the engine's own ``resync_sprites`` costs about
2.5 µs per sprite and ``step`` with it about 7 µs. Everything else stays batched.
"""

from __future__ import annotations

import math
from itertools import chain
from typing import Any

import numpy as np
import pymunk

__all__ = ["check_engine", "driven_bodies", "read_velocities", "world_space", "write_bodies"]


def check_engine(name: str, engine: Any) -> Any:
    """Return ``engine`` if it is an ``arcade.PymunkPhysicsEngine``, or raise naming ``name``.

    Raises:
        TypeError: ``engine`` is anything else.
    """
    from arcade import PymunkPhysicsEngine  # arcade only when an engine is given

    if not isinstance(engine, PymunkPhysicsEngine):
        raise TypeError(
            f"{name} must be an arcade.PymunkPhysicsEngine or None, got {type(engine).__name__}"
        )
    return engine


def world_space(space: Any, engine: Any) -> pymunk.Space:
    """The space a world keeps its walls in: ``space`` if given, else the engine's, else new.

    Raises:
        TypeError: ``space`` is neither a ``pymunk.Space`` nor None.
    """
    if space is not None and not isinstance(space, pymunk.Space):
        raise TypeError(f"space must be a pymunk.Space or None, got {type(space).__name__}")
    if space is None and engine is not None:
        return engine.space
    return pymunk.Space() if space is None else space


def driven_bodies(engine: Any, sprites: list[Any]) -> tuple[np.ndarray, list[pymunk.Body]]:
    """Which of ``sprites`` the engine holds, and their bodies.

    Args:
        engine: The ``arcade.PymunkPhysicsEngine``.
        sprites: The agents' sprites ``(n,)``.

    Returns:
        A mask ``(n,)`` of the sprites with a body in the engine, and those bodies ``(k,)`` in
        order.
    """
    objects = list(map(engine.sprites.get, sprites))
    bodies = [None if each is None else each.body for each in objects]
    mask = np.fromiter((body is not None for body in bodies), dtype=bool, count=len(bodies))
    return mask, [body for body in bodies if body is not None]


def read_velocities(bodies: list[pymunk.Body]) -> np.ndarray:
    """The bodies' velocities ``(k, 2)``, world space, px/s."""
    flat = chain.from_iterable(body.velocity for body in bodies)
    return np.fromiter(flat, dtype=float, count=2 * len(bodies)).reshape(len(bodies), 2)


def write_bodies(
    bodies: list[pymunk.Body], velocity: np.ndarray, angle: np.ndarray, rotate: np.ndarray
) -> None:
    """Set the bodies' velocities and, where ``rotate``, their angles.

    Args:
        bodies: The driven bodies ``(k,)``.
        velocity: World-space velocities ``(k, 2)``, px/s.
        angle: arcade sprite angles ``(k,)``, degrees clockwise, written as
            ``body.angle = -radians(angle)`` so that the engine's resync gives them back.
        rotate: Which bodies to turn ``(k,)``; they also stop spinning.
    """
    for body, (vx, vy), degrees, turn in zip(
        bodies, velocity.tolist(), angle.tolist(), rotate.tolist(), strict=True
    ):
        body.velocity = (vx, vy)
        if turn:
            body.angle = -math.radians(degrees)
            body.angular_velocity = 0.0
