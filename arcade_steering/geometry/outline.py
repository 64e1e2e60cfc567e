"""The outline of a union of axis-aligned rectangles, as few segments as it takes.

Wall tiles are rectangles on a grid. Their union's outline has no edge where two tiles meet and
one segment per straight run of wall, so a wall of 40 tiles is 4 segments, not 160. The
rectangles' corner coordinates split the plane into a grid of cells (any sizes, not only one
tile size); a cell is solid if a rectangle covers it, an outline edge lies between a solid cell
and an empty one, and consecutive edges on one grid line are one segment.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._util.validate import check_rows
from .shapes import WORLD_BOUND

__all__ = ["SNAP", "rectangle_outline"]

#: Rectangle coordinates closer than this, px, are taken as one: tiles placed by adding up
#: sizes such as 32 * 0.3 meet at coordinates a rounding error apart, which would leave slivers.
SNAP = 1e-3

#: At most this many grid cells (distinct x coordinates times distinct y coordinates): 16 MB.
MAX_CELLS = 4_000_000

#: How far past a window its rectangles are kept, px: any positive amount keeps the outline
#: on the window's border right.
_MARGIN = 1.0


def rectangle_outline(
    rects: Sequence[Sequence[float]] | np.ndarray,
    window: Sequence[float] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The outline of the union of axis-aligned rectangles, as segments.

    Edges two rectangles share are dropped and collinear edges that touch are one segment:
    a row of 40 tiles gives 4 segments, a solid block of 1,000 tiles its 4 sides. Where two
    rectangles touch only at a corner, the outline runs straight through it. Coordinates
    closer than :data:`SNAP` are taken as equal.

    With ``window`` only the part of the outline in it is returned, cut at its sides, so that
    the outlines of the windows of a tiling add up to the whole outline, each piece once:
    horizontal edges with ``bottom <= y < top`` and vertical ones with ``left <= x < right``.
    Rectangles outside the window do not change the result.

    Args:
        rects: ``[n, 4]`` rows ``(left, bottom, right, top)`` in px, ``right > left`` and
            ``top > bottom``; ``n`` may be 0.
        window: ``(left, bottom, right, top)`` px, or None for the whole outline.

    Returns:
        ``(a, b)``: ``[m, 2]`` px first and second ends of the segments, horizontal ones first,
        each running left to right or bottom to top.

    Raises:
        TypeError: ``rects`` or ``window`` is not numeric.
        ValueError: A bad shape, a non-finite coordinate or one farther than
            :data:`WORLD_BOUND` from the origin, an empty rectangle or window, or more than
            :data:`MAX_CELLS` cells (spread the rectangles over windows).
    """
    boxes = _boxes(rects, "rects")
    if window is not None:
        (frame,) = _boxes([window], "window")
        boxes = _clip(boxes, frame - np.array([_MARGIN, _MARGIN, -_MARGIN, -_MARGIN]))
    if not len(boxes):
        return np.zeros((0, 2)), np.zeros((0, 2))
    xs, left, right = _snapped(boxes[:, 0], boxes[:, 2])
    ys, bottom, top = _snapped(boxes[:, 1], boxes[:, 3])
    if len(xs) * len(ys) > MAX_CELLS:
        raise ValueError(
            f"rects make a grid of {len(xs)} x {len(ys)} cells, more than {MAX_CELLS:,}"
        )
    solid = np.zeros((len(xs) + 1, len(ys) + 1), dtype=np.int32)  # a difference array
    np.add.at(solid, (left, bottom), 1)
    np.add.at(solid, (right, bottom), -1)
    np.add.at(solid, (left, top), -1)
    np.add.at(solid, (right, top), 1)
    cells = np.pad(solid.cumsum(0).cumsum(1)[:-2, :-2] > 0, 1)  # an empty ring round the grid
    across_y = cells[1:-1, 1:] != cells[1:-1, :-1]  # [x cell, y line]: a horizontal edge
    across_x = cells[1:, 1:-1] != cells[:-1, 1:-1]  # [x line, y cell]: a vertical edge
    line, start, stop = _runs(across_y.T)
    horizontal: tuple[np.ndarray, ...] = (xs[start], ys[line], xs[stop], ys[line])
    line, start, stop = _runs(across_x)
    vertical: tuple[np.ndarray, ...] = (xs[line], ys[start], xs[line], ys[stop])
    if window is not None:
        horizontal = _in_window(horizontal, frame, along=0)
        vertical = _in_window(vertical, frame, along=1)
    ends = np.concatenate((np.column_stack(horizontal), np.column_stack(vertical)))
    return ends[:, :2], ends[:, 2:]


def _boxes(value: object, name: str) -> np.ndarray:
    """Validate ``[n, 4]`` finite, non-empty ``(left, bottom, right, top)`` rows."""
    boxes = check_rows(name, value, "(left, bottom, right, top)")
    if len(boxes) and np.abs(boxes).max() > WORLD_BOUND:
        raise ValueError(f"{name} must lie within {WORLD_BOUND:g} px of the origin")
    if not ((boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])).all():
        raise ValueError(f"{name} must have right > left and top > bottom in every row")
    return boxes


def _clip(boxes: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """``boxes`` cut to ``frame``, those left empty dropped."""
    low = np.maximum(boxes[:, :2], frame[:2])
    high = np.minimum(boxes[:, 2:], frame[2:])
    keep = (high > low).all(axis=1)
    return np.concatenate((low[keep], high[keep]), axis=1)


def _snapped(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct coordinates of ``low`` and ``high`` (those within :data:`SNAP` as one)
    ascending, and the index of each ``low`` and ``high`` value among them."""
    values = np.concatenate((low, high))
    order = np.sort(values)
    group = np.concatenate(([0], np.cumsum(np.diff(order) > SNAP)))
    firsts = np.concatenate(([True], np.diff(group) > 0))
    index = group[np.searchsorted(order, values)]
    return order[firsts], index[: len(low)], index[len(low) :]


def _runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of True along each row of ``mask``: row, first column and one past the last."""
    steps = np.diff(np.pad(mask, ((0, 0), (1, 1))).astype(np.int8), axis=1)
    line, start = np.nonzero(steps == 1)
    stop = np.nonzero(steps == -1)[1]
    return line, start, stop


def _in_window(
    edges: tuple[np.ndarray, ...], frame: np.ndarray, along: int
) -> tuple[np.ndarray, ...]:
    """The parts of edges ``(x0, y0, x1, y1)`` parallel to axis ``along`` that belong to
    ``frame``: on a line across it (half-open, the far side excluded), cut to its sides."""
    across = 1 - along
    line = edges[across]
    keep = (line >= frame[across]) & (line < frame[across + 2])
    low = np.maximum(edges[along][keep], frame[along])
    high = np.minimum(edges[along + 2][keep], frame[along + 2])
    long_enough = high > low
    kept = [part[keep][long_enough] for part in edges]
    kept[along], kept[along + 2] = low[long_enough], high[long_enough]
    return tuple(kept)
