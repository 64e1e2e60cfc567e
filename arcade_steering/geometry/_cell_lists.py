"""Listing grid cells and their items in bulk: the cells of boxes, the cells thin rays cross
(lines of sight visit the cells along them, not every cell of their bounding boxes), and
runs of items."""

from __future__ import annotations

import numpy as np

__all__ = ["crossed_cells", "expand_boxes", "expand_runs"]

#: A segment within this much of a cell (in cells) counts as crossing it.
_EDGE = 1e-9


def crossed_cells(
    origin: np.ndarray, cell_size: float, nx: int, ny: int, starts: np.ndarray, ends: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(ray, cell)``: the number ``column * ny + row`` of every cell of an ``nx`` by ``ny``
    grid that each segment ``starts -> ends`` ``[n, 2]`` crosses or touches, rays ascending.

    One column of cells at a time, and in each the run of cells the segment's y spans there.

    Args:
        origin: The grid's lower-left corner, px.
        cell_size: Its cells' side, px.
        nx: Columns.
        ny: Rows.
        starts: Segment starts ``[n, 2]``, px.
        ends: Segment ends ``[n, 2]``, px.
    """
    scale = 1.0 / cell_size
    g0 = (starts - origin) * scale
    g1 = (ends - origin) * scale
    flip = (g0[:, 0] > g1[:, 0])[:, None]  # x ascending
    a, b = np.where(flip, g1, g0), np.where(flip, g0, g1)
    x0, y0, x1, y1 = a[:, 0], a[:, 1], b[:, 0], b[:, 1]
    dx = x1 - x0
    slope = (y1 - y0) / np.where(dx > 0.0, dx, 1.0)
    # Within _EDGE of a cell counts as in it: a contact on a cell's border lies in either.
    c0 = np.maximum(np.floor(x0 - _EDGE), 0.0).astype(np.intp)
    c1 = np.minimum(np.floor(x1 + _EDGE), nx - 1.0).astype(np.intp)
    ray, column = _runs(c0, c1)
    # The y span in each column: from the segment's ends, or where it crosses the column's
    # borders.
    x0, y0, slope = x0[ray], y0[ray], slope[ray]
    ya = np.where(column <= x0, y0, y0 + (column - x0) * slope)
    right = column + 1.0
    yb = np.where(right >= x1[ray], y1[ray], y0 + (right - x0) * slope)
    r0 = np.maximum(np.floor(np.minimum(ya, yb) - _EDGE), 0.0).astype(np.intp)
    r1 = np.minimum(np.floor(np.maximum(ya, yb) + _EDGE), ny - 1.0).astype(np.intp)
    run, row = _runs(r0, r1)
    return ray.take(run), column.take(run) * ny + row


def _runs(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(owner, value)``: each whole number from ``lo[i]`` to ``hi[i]``, tagged with i."""
    count = np.maximum(hi - lo + 1, 0)
    owner = np.repeat(np.arange(len(count)), count)
    end = np.cumsum(count)
    return owner, np.arange(len(owner)) + np.repeat(lo - (end - count), count)


def expand_boxes(
    ix0: np.ndarray, iy0: np.ndarray, ix1: np.ndarray, iy1: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """List every cell of every box ``[ix0, ix1] x [iy0, iy1]`` (empty boxes give none).

    Returns:
        ``(owner, cx, cy)``: the box index and cell coordinates of each listed cell.
    """
    w = ix1 - ix0 + 1
    h = iy1 - iy0 + 1
    count = np.where((w > 0) & (h > 0), w * h, 0)
    owner = np.repeat(np.arange(len(count)), count)
    k = np.arange(len(owner)) - np.repeat(np.cumsum(count) - count, count)
    w_owner = w[owner]
    return owner, ix0[owner] + k % w_owner, iy0[owner] + k // w_owner


def expand_runs(
    owner: np.ndarray, first: np.ndarray, count: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(owner[i], j)`` for every i and every ``j`` in ``first[i]:first[i] + count[i]``."""
    end = np.cumsum(count)
    rows = np.repeat(owner, count)
    index = np.arange(int(end[-1]) if len(end) else 0) + np.repeat(first - (end - count), count)
    return rows, index
