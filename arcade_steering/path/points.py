"""Point lists for paths: checking them, and tidying the corner points of an A* route."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .._util.validate import check_array, check_positive

__all__ = ["check_polyline", "route_points"]


def check_polyline(points: ArrayLike) -> NDArray[np.float64]:
    """A read-only ``(k, 2)`` float copy of ``points`` (k >= 2), else an error naming them."""
    pts = check_array("points", points, ndim=2)
    if pts.shape[1] != 2 or len(pts) < 2:
        raise ValueError(f"points must be at least 2 (x, y) pairs, shape (k, 2); got {pts.shape}")
    pts.setflags(write=False)
    return pts


def route_points(
    points: ArrayLike | None, grid_size: float | None, closed: bool
) -> NDArray[np.float64]:
    """The points of ``arcade.astar_calculate_path``'s result for a path (see
    :meth:`~arcade_steering.Path.from_astar`): moved to cell centres by ``grid_size / 2`` if
    given, without repeated points or interior points on straight runs.

    Raises:
        ValueError: ``points`` is None or has fewer than 2 distinct points, or ``grid_size``
            is not a finite number > 0.
    """
    if points is None:
        raise ValueError("points is None: arcade.astar_calculate_path found no path")
    pts = check_polyline(points)
    if grid_size is not None:
        pts = pts + check_positive("grid_size", grid_size) / 2.0
    pts = _simplify(pts, closed)
    if len(pts) < 2:
        raise ValueError("points holds a single distinct point: a path needs at least two")
    return pts


def _simplify(points: NDArray[np.float64], closed: bool) -> NDArray[np.float64]:
    """Drop repeated points and interior points where the path runs straight on."""
    keep = np.ones(len(points), dtype=bool)
    keep[1:] = np.any(points[1:] != points[:-1], axis=1)
    pts = points[keep]
    if closed and len(pts) > 1 and np.array_equal(pts[0], pts[-1]):
        pts = pts[:-1]
    if len(pts) < 3:
        return pts
    prev = np.roll(pts, 1, axis=0) if closed else pts[:-2]
    nxt = np.roll(pts, -1, axis=0) if closed else pts[2:]
    mid = pts if closed else pts[1:-1]
    a, b = mid - prev, nxt - mid
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    scale = np.hypot(a[:, 0], a[:, 1]) * np.hypot(b[:, 0], b[:, 1])
    straight = (np.abs(cross) <= 1e-9 * scale) & ((a * b).sum(axis=1) > 0.0)  # not a U-turn
    keep = ~straight if closed else np.concatenate(([True], ~straight, [True]))
    return pts[keep]
