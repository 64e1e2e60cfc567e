"""The walls and obstacles of a :class:`~arcade_steering.SteeringWorld`: adding and removing
them in its ``pymunk.Space``, the numpy mirror its queries run on, and lines of sight."""

from __future__ import annotations

from typing import Any

import pymunk

from . import geometry
from ._arcade.sprite_walls import SpriteWalls
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
    _sprite_walls: list[SpriteWalls]

    def _hold_scene(self, space: pymunk.Space, owns: bool) -> None:
        """Start with the walls and obstacles of ``space``; ``owns``: the space is the world's
        own (none given), so the world may step it."""
        self._space = space
        self._owns_space = owns
        self._geometry = StaticGeometry()
        self._sprite_walls = []

    @property
    def space(self) -> pymunk.Space:
        """The ``pymunk.Space`` holding walls and obstacles (static Segments and Circles).

        Static segments, polygons and circles added to it directly count too, from the next
        update.
        """
        return self._space

    @property
    def geometry(self) -> StaticGeometry:
        """The numpy mirror of the space's static shapes that batched queries run on."""
        self._geometry.sync(self._space)
        return self._geometry

    def add_wall(
        self, a: tuple[float, float], b: tuple[float, float] | None = None, thickness: float = 0.0
    ) -> pymunk.Segment:
        """Add a wall from ``a`` to ``b`` (px), ``thickness`` px thick, as a ``pymunk.Segment``.

        ``b`` is required; its default only lets a missing ``b`` be told apart from a ready
        ``pymunk.Segment`` given as ``a``, which ``world.space.add(segment)`` adds.

        Raises:
            TypeError: ``a`` is a pymunk shape, ``b`` is missing, or a value is not numeric.
            ValueError: A point is NaN/inf, ``a == b``, or ``thickness`` is negative.
        """
        _refuse_shape("add_wall", "a", a)
        if b is None:
            raise TypeError("add_wall needs b, the wall's second end as an (x, y) pair in px")
        return geometry.add_wall(self._space, a, b, thickness)

    def add_walls(
        self, points: Any, closed: bool = False, thickness: float = 0.0
    ) -> list[pymunk.Segment]:
        """Add a polyline of walls through ``points``; ``closed`` joins the last to the first."""
        if isinstance(points, (list, tuple)) and points:
            _refuse_shape("add_walls", "points[0]", points[0])
        return geometry.add_walls(self._space, points, closed, thickness)

    def add_obstacle(
        self, center: tuple[float, float], radius: float | None = None
    ) -> pymunk.Circle:
        """Add a round obstacle (a ``pymunk.Circle``) of ``radius`` px at ``center``.

        ``radius`` is required; its default only lets a missing ``radius`` be told apart from a
        ready ``pymunk.Circle`` given as ``center``, which ``world.space.add(circle)`` adds.

        Raises:
            TypeError: ``center`` is a pymunk shape, ``radius`` is missing, or a value is not
                numeric.
            ValueError: ``center`` is NaN/inf or ``radius`` <= 0.
        """
        _refuse_shape("add_obstacle", "center", center)
        if radius is None:
            raise TypeError("add_obstacle needs radius, the obstacle's radius in px (> 0)")
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

    def add_wall_sprites(self, sprites: Any, thickness: float = 0.0) -> SpriteWalls:
        """Add walls round the union of wall sprites' hit boxes (a ``SpriteList``, a Tiled tile
        layer, ``scene["Walls"]``): shared edges dropped, collinear ones joined. A sprite the
        game takes out of all its sprite lists takes its walls with it at the next update.
        See "Walls from sprites" on the page "Walls and obstacles".

        Raises:
            TypeError: ``sprites`` holds something without a ``hit_box``.
            ValueError: A bad ``thickness`` or hit box. Nothing is added.
        """
        walls = SpriteWalls(self._space, sprites, thickness)
        self._sprite_walls.append(walls)
        return walls

    def remove_wall_sprites(self, walls: SpriteWalls) -> None:
        """Take the walls of :meth:`add_wall_sprites` out of the space, for good.

        Raises:
            TypeError: ``walls`` is not a ``SpriteWalls``.
            ValueError: ``walls`` is not this world's.
        """
        if not isinstance(walls, SpriteWalls):
            raise TypeError(f"walls must be a SpriteWalls, got {type(walls).__name__}")
        if not any(walls is mine for mine in self._sprite_walls):
            raise ValueError("walls were not added by this world's add_wall_sprites")
        walls.clear()
        self._sprite_walls = [mine for mine in self._sprite_walls if mine is not walls]

    def _refresh_sprite_walls(self, rebuild: bool = False) -> None:
        """Follow wall sprites the game took out of their lists (or put back); ``rebuild``
        builds them all again (after a snapshot put the space's walls back)."""
        for walls in self._sprite_walls:
            if rebuild:
                walls.rebuild()
            else:
                walls.refresh()

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


def _refuse_shape(method: str, name: str, value: Any) -> None:
    """Refuse a ready pymunk shape where ``method`` takes points, saying how to add one."""
    if isinstance(value, pymunk.Shape):
        raise TypeError(
            f"{method} takes points in px, not shapes: {name} is a pymunk.{type(value).__name__}; "
            "add a ready shape with world.space.add(shape)"
        )


# Python names the class that defines a method in its argument errors ("WorldShapes.add_wall()
# missing 1 required positional argument"): name the one the game knows instead.
for _method in vars(WorldShapes).values():
    if callable(_method):
        _method.__qualname__ = f"SteeringWorld.{_method.__name__}"
