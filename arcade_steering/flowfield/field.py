"""FlowField: a grid of unit directions over a rectangle, e.g. "the way to the goal".

Built from a function, or as a distance field towards a goal around the walls and obstacles
of a space, so that any number of agents can head for one goal without a path each.

>>> field = FlowField.from_function(lambda x, y: (np.ones_like(x), np.zeros_like(y)),
...                                 bounds=(0, 100, 0, 50), cell_size=10)
>>> field.shape, field.direction_at([(33.0, 12.0)]).tolist()
((5, 10), [[1.0, 0.0]])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pymunk

from .._util.validate import check_array, check_point, check_positive
from ._grid import (
    descent_directions,
    distance_field,
    escape_distances,
    free_steps,
    grid_steps,
    passable_steps,
)

__all__ = ["FlowField"]


def _bounds(bounds: Any) -> tuple[float, float, float, float]:
    """``(left, right, bottom, top)`` from a 4-tuple (arcade's LRBT order) or an arcade Rect."""
    if all(hasattr(bounds, side) for side in ("left", "right", "bottom", "top")):
        bounds = (bounds.left, bounds.right, bounds.bottom, bounds.top)
    if isinstance(bounds, (str, bytes)) or not hasattr(bounds, "__len__") or len(bounds) != 4:
        raise TypeError("bounds must be (left, right, bottom, top) or an arcade Rect")
    left, right = check_point("bounds (left, right)", bounds[:2])
    bottom, top = check_point("bounds (bottom, top)", bounds[2:])
    if right <= left or top <= bottom:
        raise ValueError(f"bounds must have left < right and bottom < top, got {tuple(bounds)}")
    return left, right, bottom, top


class FlowField:
    """Unit directions on a grid of square cells; queried at any point, ``(n, 2)`` at a time.

    Cell ``(row, col)`` covers ``origin + (col, row) * cell_size`` to one ``cell_size`` further;
    its direction holds at its centre. Points outside the grid take the nearest edge cell's.

    Args:
        directions: ``(rows, cols, 2)`` directions (normalised here; zero where there is no
            way, e.g. at the goal).
        origin: ``(x, y)`` of the grid's lower-left corner, px.
        cell_size: Side of a cell, px.
        goal: The point the field leads to, or None.
        distance: ``(rows, cols)`` distance (px) from each cell's centre to ``goal`` along the
            field, ``inf`` where unreachable; or None.

    Raises:
        TypeError, ValueError: A parameter has the wrong type, shape or value.
    """

    def __init__(
        self,
        directions: Any,
        origin: tuple[float, float] | np.ndarray = (0.0, 0.0),
        cell_size: float = 32.0,
        goal: tuple[float, float] | None = None,
        distance: Any = None,
    ) -> None:
        dirs = check_array("directions", directions, ndim=3)
        if dirs.shape[2] != 2 or dirs.shape[0] < 1 or dirs.shape[1] < 1:
            raise ValueError(f"directions must have shape (rows, cols, 2), got {dirs.shape}")
        norm = np.hypot(dirs[..., 0], dirs[..., 1])
        np.divide(dirs, norm[..., None], out=dirs, where=norm[..., None] > 1e-12)
        dirs[norm <= 1e-12] = 0.0
        self._origin = np.array(check_point("origin", origin))
        self._cell = check_positive("cell_size", cell_size)
        self._goal = None if goal is None else np.array(check_point("goal", goal))
        if distance is not None:
            distance = check_array("distance", distance, ndim=2, allow_inf=True)
            if distance.shape != dirs.shape[:2]:
                raise ValueError(f"distance must have shape {dirs.shape[:2]}, got {distance.shape}")
            distance.flags.writeable = False
        self._distance = distance
        dirs.flags.writeable = False
        self._dirs = dirs
        self._blocked: np.ndarray | None = None

    @classmethod
    def from_function(
        cls, fn: Callable[..., Any], bounds: Any, cell_size: float = 32.0
    ) -> FlowField:
        """Sample ``fn(x, y) -> (dx, dy)`` at every cell centre of ``bounds``.

        ``fn`` is first called once with arrays of all the centres' ``x`` and ``y``; if that
        fails or gives the wrong shape it is called per cell with floats.

        Args:
            fn: Direction at a point (any length; normalised here).
            bounds: ``(left, right, bottom, top)`` px (arcade's LRBT order) or an arcade Rect.
            cell_size: Side of a cell, px.
        """
        if not callable(fn):
            raise TypeError(f"fn must be callable, got {type(fn).__name__}")
        origin, shape, cell = _grid(bounds, cell_size)
        centers = _centers(origin, shape, cell).reshape(-1, 2)
        x, y = centers[:, 0].copy(), centers[:, 1].copy()
        try:
            values = np.asarray(fn(x, y), dtype=float)
            values = values.T if values.shape == (2, len(x)) else values
            if values.shape != (len(x), 2):
                raise ValueError("not vectorised")
        except Exception:  # fn is not vectorised: per cell
            values = np.array([fn(px, py) for px, py in centers.tolist()], dtype=float)
            if values.shape != (len(x), 2):
                raise ValueError("fn must return (dx, dy) pairs") from None
        return cls(values.reshape(*shape, 2), origin, cell)

    @classmethod
    def towards(
        cls,
        goal: tuple[float, float],
        world: Any,
        bounds: Any,
        cell_size: float = 32.0,
        clearance: float | None = None,
    ) -> FlowField:
        """The way to ``goal`` around the walls and obstacles of a world (8-neighbour grid).

        A cell is blocked when the nearest wall or obstacle surface is closer to its centre
        than ``clearance``; moves between cells never cross a wall, and diagonal moves never
        cut a blocked corner. Distances to the goal are found over the free cells (Dijkstra,
        by repeated relaxation in numpy); every cell points to its neighbour nearest the
        goal. Blocked cells point out towards the nearest free cell that reaches the goal;
        cells that cannot reach it have no direction.

        Args:
            goal: ``(x, y)`` px, inside ``bounds``.
            world: A :class:`~arcade_steering.SteeringWorld` or a ``pymunk.Space``.
            bounds: ``(left, right, bottom, top)`` px or an arcade Rect.
            cell_size: Side of a cell, px.
            clearance: Distance (px) cell centres keep from walls and obstacles; None for
                half the cell diagonal (cells a wall passes through are blocked). Use at
                least the agents' radius.

        Raises:
            TypeError: ``world`` is neither a SteeringWorld nor a ``pymunk.Space``, or a
                parameter has the wrong type.
            ValueError: ``goal`` lies outside ``bounds``, or a parameter has a bad value.
        """
        from ..geometry import StaticGeometry
        from ..world import SteeringWorld

        if isinstance(world, SteeringWorld):
            space = world.space
        elif isinstance(world, pymunk.Space):
            space = world
        else:
            raise TypeError(
                f"world must be a SteeringWorld or a pymunk.Space, got {type(world).__name__}"
            )
        goal_xy = np.array(check_point("goal", goal))
        origin, shape, cell = _grid(bounds, cell_size)
        clear = cell * math.sqrt(0.5) if clearance is None else clearance
        clear = check_positive("clearance", clear)
        goal_cell = np.floor((goal_xy - origin) / cell).astype(int)[::-1]
        if not (0 <= goal_cell[0] < shape[0] and 0 <= goal_cell[1] < shape[1]):
            raise ValueError(f"goal must lie inside bounds, got {tuple(goal_xy)}")
        geometry = StaticGeometry(space)
        centers = _centers(origin, shape, cell)
        near = geometry.nearest(centers.reshape(-1, 2), clear)
        blocked = near.found.reshape(shape)
        blocked[tuple(goal_cell)] = False
        steps = passable_steps(centers, geometry)
        free = free_steps(steps, blocked)
        start = float(np.hypot(*(centers[tuple(goal_cell)] - goal_xy)))
        distance = distance_field(shape, tuple(goal_cell), start, free, cell)
        # Out of a blocked cell: not through a wall, but any way out of a shape it lies in.
        inside = (near.found & (near.distance < 0.0)).reshape(shape)
        escape = steps | (inside[None] & grid_steps(shape))
        level = escape_distances(distance, blocked, escape, cell)
        moves = np.where(blocked[None], escape, free)
        directions = descent_directions(level, moves, cell)
        field = cls(directions, origin, cell, tuple(goal_xy), distance)
        blocked.flags.writeable = False
        field._blocked = blocked
        return field

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, cols)`` of the grid."""
        return self._dirs.shape[:2]

    @property
    def origin(self) -> tuple[float, float]:
        """Lower-left corner of the grid, px."""
        return float(self._origin[0]), float(self._origin[1])

    @property
    def cell_size(self) -> float:
        """Side of a cell, px."""
        return self._cell

    @property
    def directions(self) -> np.ndarray:
        """``(rows, cols, 2)`` unit directions (zero where there is no way); read-only."""
        return self._dirs

    @property
    def goal(self) -> tuple[float, float] | None:
        """The point the field leads to, or None."""
        return None if self._goal is None else (float(self._goal[0]), float(self._goal[1]))

    @property
    def distance(self) -> np.ndarray | None:
        """``(rows, cols)`` px to the goal from each cell centre, ``inf`` where unreachable."""
        return self._distance

    @property
    def blocked(self) -> np.ndarray | None:
        """``(rows, cols)`` bool, cells too near a wall or obstacle (``towards`` only)."""
        return self._blocked

    def centers(self) -> np.ndarray:
        """``(rows, cols, 2)`` cell centres, px."""
        return _centers(self._origin, self.shape, self._cell)

    def cell_of(self, points: Any) -> np.ndarray:
        """``(n, 2)`` int ``(row, col)`` of the cells holding ``points`` ``(n, 2)`` (clamped)."""
        p = np.asarray(points, dtype=float).reshape(-1, 2)
        col_row = np.floor((p - self._origin) / self._cell).astype(np.intp)
        rows, cols = self.shape
        return np.column_stack(
            (np.clip(col_row[:, 1], 0, rows - 1), np.clip(col_row[:, 0], 0, cols - 1))
        )

    def direction_at(self, points: Any, interpolate: bool = True) -> np.ndarray:
        """Unit directions ``(n, 2)`` at ``points`` ``(n, 2)``.

        Bilinear between the four nearest cell centres, then normalised; where they cancel
        out (or with ``interpolate=False``), the holding cell's direction. Zero only where
        the cell has none.
        """
        p = np.asarray(points, dtype=float).reshape(-1, 2)
        cell = self.cell_of(p)
        own = self._dirs[cell[:, 0], cell[:, 1]]
        if not interpolate:
            return own.copy()
        rows, cols = self.shape
        # In cell-centre units, clamped to the grid's outermost centres: beyond them (the outer
        # half of an edge cell, or off the grid) the edge cells' directions hold unblended.
        u = np.clip((p - self._origin) / self._cell - 0.5, 0.0, (cols - 1, rows - 1))
        lo = np.floor(u)
        f = u - lo
        c0 = lo[:, 0].astype(np.intp)
        r0 = lo[:, 1].astype(np.intp)
        c1, r1 = np.minimum(c0 + 1, cols - 1), np.minimum(r0 + 1, rows - 1)
        fx, fy = f[:, :1], f[:, 1:]
        blend = (1 - fy) * ((1 - fx) * self._dirs[r0, c0] + fx * self._dirs[r0, c1]) + fy * (
            (1 - fx) * self._dirs[r1, c0] + fx * self._dirs[r1, c1]
        )
        norm = np.hypot(blend[:, 0], blend[:, 1])
        ok = norm > 1e-6
        out = own.copy()
        out[ok] = blend[ok] / norm[ok, None]
        return out

    def distance_at(self, points: Any) -> np.ndarray:
        """``(n,)`` px to the goal from the cells holding ``points`` (``inf`` if unreachable;
        ``inf`` everywhere for a field without a goal)."""
        cell = self.cell_of(points)
        if self._distance is None:
            return np.full(len(cell), np.inf)
        return self._distance[cell[:, 0], cell[:, 1]]

    def __repr__(self) -> str:
        goal = "" if self._goal is None else f", goal={self.goal}"
        return f"FlowField(shape={self.shape}, cell_size={self._cell:g}{goal})"


def _grid(bounds: Any, cell_size: float) -> tuple[np.ndarray, tuple[int, int], float]:
    left, right, bottom, top = _bounds(bounds)
    cell = check_positive("cell_size", cell_size)
    shape = (max(1, math.ceil((top - bottom) / cell)), max(1, math.ceil((right - left) / cell)))
    if shape[0] * shape[1] > 4_000_000:
        raise ValueError(f"cell_size {cell} makes {shape[0]} x {shape[1]} cells: too many")
    return np.array((left, bottom)), shape, cell


def _centers(origin: np.ndarray, shape: tuple[int, int], cell: float) -> np.ndarray:
    rows, cols = shape
    x = origin[0] + (np.arange(cols) + 0.5) * cell
    y = origin[1] + (np.arange(rows) + 0.5) * cell
    return np.stack(np.meshgrid(x, y), axis=-1)
