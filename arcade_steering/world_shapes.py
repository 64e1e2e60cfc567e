"""The walls and obstacles of a :class:`~arcade_steering.SteeringWorld`: adding and removing
them in its ``pymunk.Space``, the numpy mirror its queries run on, and lines of sight."""

from __future__ import annotations

from typing import Any

import pymunk

from . import geometry
from ._core.agents import AgentTable
from ._core.perception import can_see
from .geometry import StaticGeometry

__all__ = ["WorldShapes"]


class WorldShapes:
    """The part of :class:`~arcade_steering.SteeringWorld` that holds its walls and obstacles."""

    _space: pymunk.Space
    _owns_space: bool
    _geometry: StaticGeometry
    _agents: AgentTable

    @property
    def space(self) -> pymunk.Space:
        """The ``pymunk.Space`` holding walls and obstacles (static Segments and Circles).

        Static segments and circles added to it directly count too, from the next update.
        """
        return self._space

    @property
    def geometry(self) -> StaticGeometry:
        """The numpy mirror of the space's static shapes that batched queries run on."""
        self._geometry.sync(self._space)
        return self._geometry

    def add_wall(
        self, a: tuple[float, float], b: tuple[float, float], thickness: float = 0.0
    ) -> pymunk.Segment:
        """Add a wall from ``a`` to ``b`` (px), ``thickness`` px thick, as a ``pymunk.Segment``.

        Raises:
            ValueError: A point is NaN/inf, ``a == b``, or ``thickness`` is negative.
        """
        return geometry.add_wall(self._space, a, b, thickness)

    def add_walls(
        self, points: Any, closed: bool = False, thickness: float = 0.0
    ) -> list[pymunk.Segment]:
        """Add a polyline of walls through ``points``; ``closed`` joins the last to the first."""
        return geometry.add_walls(self._space, points, closed, thickness)

    def add_obstacle(self, center: tuple[float, float], radius: float) -> pymunk.Circle:
        """Add a round obstacle (a ``pymunk.Circle``) of ``radius`` px at ``center``.

        Raises:
            ValueError: ``center`` is NaN/inf or ``radius`` <= 0.
        """
        return geometry.add_obstacle(self._space, center, radius)

    def remove_shape(self, shape: pymunk.Shape) -> None:
        """Remove a wall or obstacle from the space.

        pymunk frees a removed shape at the space's next ``step``: the world steps a space of
        its own for that (by zero seconds, which moves nothing); a space the game gave it is
        the game's to step.
        """
        geometry.remove_shape(self._space, shape)
        if self._owns_space:
            geometry.free_removed(self._space, [shape])

    def can_see(
        self,
        observers: Any,
        targets: Any,
        length: float,
        half_angle: float = 180.0,
        *,
        walls: bool = True,
        obstacles: bool = False,
    ) -> Any:
        """Which observers see which targets: within ``length`` px and ``half_angle`` degrees
        of the observer's heading, with no wall (none with ``walls=False``; no obstacle either
        with ``obstacles=True``) between their centres. Observers: attached sprites or agents
        (or, all round at ``half_angle=180``, any sprites or ``(x, y)`` points); targets:
        sprites, agents or points; one, or a sequence (a ``SpriteList``, an ``(n, 2)`` array).
        See "Line of sight" on the page "Walls and obstacles".

        Returns:
            bool ``(observers, targets)``, every pair tested; the axis of a lone observer or
            target (not in a sequence) is dropped, down to a ``bool`` for one of each.
        """
        args = (observers, targets, length, half_angle, walls, obstacles)
        return can_see(self._agents, self.geometry, *args)
