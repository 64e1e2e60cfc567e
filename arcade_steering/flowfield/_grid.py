"""Grid kernels for flow fields: passable moves, distance fields and descent directions.

Arrays are indexed ``[row, col]`` (row grows with y). Moves are the 8 neighbours; a
``steps`` array ``(8, rows, cols)`` says whether each move out of each cell is allowed.
Everything is numpy over whole grids; the distance field is Dijkstra's result computed by
repeated relaxation (Bellman-Ford sweeps), no per-cell Python loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The 8 moves ``(drow, dcol)``: 4 orthogonal, then 4 diagonal.
NEIGHBORS = np.array([(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)])
#: Length of each move in cells.
COSTS = np.hypot(NEIGHBORS[:, 0], NEIGHBORS[:, 1])
# Index of the opposite of each move.
_OPPOSITE = np.array([2, 3, 0, 1, 6, 7, 4, 5])


def _shifted(values: np.ndarray, move: np.ndarray, fill: Any) -> np.ndarray:
    """``out[r, c] = values[r + dr, c + dc]``, ``fill`` where that is off the grid."""
    rows, cols = values.shape
    dr, dc = int(move[0]), int(move[1])
    out = np.full_like(values, fill)
    src_r = slice(max(dr, 0), rows + min(dr, 0))
    dst_r = slice(max(-dr, 0), rows + min(-dr, 0))
    src_c = slice(max(dc, 0), cols + min(dc, 0))
    dst_c = slice(max(-dc, 0), cols + min(-dc, 0))
    out[dst_r, dst_c] = values[src_r, src_c]
    return out


def grid_steps(shape: tuple[int, int]) -> np.ndarray:
    """``(8, rows, cols)`` bool: the move stays on the grid."""
    inside = np.ones(shape, dtype=bool)
    return np.stack([_shifted(inside, move, False) for move in NEIGHBORS])


def passable_steps(centers: np.ndarray, geometry: Any) -> np.ndarray:
    """``(8, rows, cols)`` bool: the move stays on the grid and crosses no wall or obstacle.

    Args:
        centers: ``(rows, cols, 2)`` cell centres, px.
        geometry: A synced :class:`~arcade_steering.geometry.StaticGeometry`: the straight
            line between two centres must not hit any of its shapes (either way).
    """
    rows, cols = centers.shape[:2]
    steps = grid_steps((rows, cols))
    if len(geometry) == 0:
        return steps
    for m in (0, 1, 4, 5):  # each pair of opposite moves shares its rays
        src = np.flatnonzero(steps[m])
        if src.size == 0:
            continue
        r, c = np.divmod(src, cols)
        dr, dc = NEIGHBORS[m]
        hit = geometry.raycast(centers[r, c], centers[r + dr, c + dc]).hit
        back = geometry.raycast(centers[r + dr, c + dc], centers[r, c]).hit
        clear = ~(hit | back)
        steps[m][r, c] = clear
        steps[_OPPOSITE[m]][r + dr, c + dc] = clear
    return steps


def free_steps(steps: np.ndarray, blocked: np.ndarray) -> np.ndarray:
    """Moves between free cells only, diagonals only where both cells they pass are free."""
    free = ~blocked
    out = steps & free[None] & np.stack([_shifted(free, move, False) for move in NEIGHBORS])
    for m in range(4, 8):
        dr, dc = NEIGHBORS[m]
        out[m] &= _shifted(free, np.array((dr, 0)), False) & _shifted(
            free, np.array((0, dc)), False
        )
    return out


def relax(distance: np.ndarray, steps: np.ndarray, cell: float, passable: np.ndarray) -> None:
    """Lower ``distance`` in place until no move shortens it (Bellman-Ford on the grid).

    Args:
        distance: ``(rows, cols)`` px, ``inf`` where unknown; finite cells are sources.
        steps: ``(8, rows, cols)`` allowed moves.
        cell: Cell side, px.
        passable: ``(rows, cols)`` cells whose distance may be lowered.
    """
    for _ in range(distance.size + 1):
        best = distance.copy()
        for m, move in enumerate(NEIGHBORS):
            through = _shifted(distance, move, np.inf) + COSTS[m] * cell
            np.minimum(best, np.where(steps[m] & passable, through, np.inf), out=best)
        if np.array_equal(best, distance):
            return
        distance[...] = best


def distance_field(
    shape: tuple[int, int], goal: tuple[int, int], start: float, steps: np.ndarray, cell: float
) -> np.ndarray:
    """``(rows, cols)`` px from each cell to the goal over moves allowed in ``steps``.

    Args:
        shape: ``(rows, cols)``.
        goal: ``(row, col)`` of the goal cell.
        start: Distance from the goal cell's centre to the goal itself, px.
        steps: ``(8, rows, cols)`` allowed moves (between free cells).
        cell: Cell side, px.
    """
    distance = np.full(shape, np.inf)
    distance[goal] = start
    relax(distance, steps, cell, np.ones(shape, dtype=bool))
    return distance


def escape_distances(
    distance: np.ndarray, blocked: np.ndarray, steps: np.ndarray, cell: float
) -> np.ndarray:
    """A level to descend everywhere: the goal distance on free cells that reach the goal,
    and on blocked cells a level above all of those that falls towards the nearest of them.
    """
    reach = np.isfinite(distance) & ~blocked
    top = float(distance[reach].max(initial=0.0)) + 2.0 * cell
    escape = np.where(reach, 0.0, np.inf)
    relax(escape, steps, cell, blocked)
    return np.where(reach, distance, np.where(np.isfinite(escape), top + escape, np.inf))


def descent_directions(level: np.ndarray, steps: np.ndarray, cell: float) -> np.ndarray:
    """``(rows, cols, 2)`` unit ``(dx, dy)`` of the move to the neighbour that minimises its
    level plus the move's length (Dijkstra's parent), where that neighbour's level is lower
    than the cell's own; zero elsewhere (the goal, cells with no way)."""
    neighbor = np.stack([_shifted(level, move, np.inf) for move in NEIGHBORS])
    candidates = np.where(steps, neighbor + COSTS[:, None, None] * cell, np.inf)
    best = np.argmin(candidates, axis=0)
    lower = np.take_along_axis(neighbor, best[None], axis=0)[0] < level
    lower &= np.isfinite(np.take_along_axis(candidates, best[None], axis=0)[0])
    moves = NEIGHBORS[best][..., ::-1] / COSTS[best][..., None]  # (dcol, drow) = (dx, dy)
    return np.where(lower[..., None], moves, 0.0)
