"""rectangle_outline: the outline of a union of axis-aligned rectangles, with no edge between
two of them, collinear edges joined, windows that tile it exactly, and its cost."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_steering.geometry import rectangle_outline
from arcade_steering.geometry.outline import MAX_CELLS

TILE = 32.0


def tiles(cells: np.ndarray, size: float = TILE) -> np.ndarray:
    """``(left, bottom, right, top)`` of the tiles at grid ``cells`` ``[n, 2]``."""
    low = np.asarray(cells, dtype=float).reshape(-1, 2) * size
    return np.concatenate((low, low + size), axis=1)


def unit_edges(a: np.ndarray, b: np.ndarray) -> set[tuple[int, int, int, int]]:
    """The unit-long pieces of integer axis-aligned segments (each segment cut at every unit)."""
    pieces = set()
    for (ax, ay), (bx, by) in zip(a.round().astype(int), b.round().astype(int), strict=True):
        if ay == by:
            pieces |= {(x, ay, x + 1, ay) for x in range(min(ax, bx), max(ax, bx))}
        else:
            pieces |= {(ax, y, ax, y + 1) for y in range(min(ay, by), max(ay, by))}
    return pieces


def raster_outline(rects: np.ndarray) -> set[tuple[int, int, int, int]]:
    """The unit edges between a covered and an uncovered unit cell, by brute force."""
    covered = {
        (x, y)
        for left, bottom, right, top in rects.astype(int)
        for x in range(left, right)
        for y in range(bottom, top)
    }
    edges = set()
    for x, y in covered:
        for neighbour, edge in (
            ((x, y - 1), (x, y, x + 1, y)),
            ((x, y + 1), (x, y + 1, x + 1, y + 1)),
            ((x - 1, y), (x, y, x, y + 1)),
            ((x + 1, y), (x + 1, y, x + 1, y + 1)),
        ):
            if neighbour not in covered:
                edges.add(edge)
    return edges


def test_two_tiles_make_one_rectangle_and_a_row_of_40_four_segments() -> None:
    a, b = rectangle_outline(tiles([[0, 0], [1, 0]]))
    assert {(*p, *q) for p, q in zip(a.tolist(), b.tolist(), strict=True)} == {
        (0, 0, 64, 0),
        (0, 32, 64, 32),
        (0, 0, 0, 32),
        (64, 0, 64, 32),
    }
    a, b = rectangle_outline(tiles([[i, 0] for i in range(40)]))
    assert len(a) == 4
    assert np.hypot(*(b - a).T).sum() == pytest.approx(2 * (40 * TILE + TILE))


def test_an_empty_input_gives_no_segments() -> None:
    a, b = rectangle_outline([])
    assert a.shape == b.shape == (0, 2)


def test_a_hollow_square_has_an_inner_and_an_outer_outline() -> None:
    ring = [[x, y] for x in range(5) for y in range(5) if x in (0, 4) or y in (0, 4)]
    a, b = rectangle_outline(tiles(ring))
    assert len(a) == 8  # 4 sides outside, 4 inside, no seam between the 16 tiles
    length = np.hypot(*(b - a).T).sum()
    assert length == pytest.approx(4 * 5 * TILE + 4 * 3 * TILE)


def test_tiles_placed_by_adding_up_sizes_meet_without_slivers() -> None:
    size = 32 * 0.3  # 9.6: the sums below are a rounding error off the products
    lefts = np.cumsum([0.0] + [size] * 29)
    rects = np.column_stack((lefts, np.zeros(30), lefts + size, np.full(30, size)))
    assert not np.array_equal(np.arange(30) * size, lefts)  # they are a rounding error apart
    a, _ = rectangle_outline(rects)
    assert len(a) == 4


def test_1000_tiles_on_a_32_px_grid_leave_no_segment_between_two() -> None:
    # The 50 ms budget of this outline is checked by benchmarks/wall_sources.py --check.
    rng = np.random.default_rng(0)
    cells = np.column_stack(np.divmod(rng.choice(60 * 60, 1000, replace=False), 60))
    rects = tiles(cells)
    a, b = rectangle_outline(rects)
    # Every segment has a wall tile on one side of its middle and none on the other.
    middle = (a + b) / 2
    normal = np.column_stack(((b - a)[:, 1], -(b - a)[:, 0]))
    normal /= np.hypot(*normal.T)[:, None]
    occupied = {tuple(cell) for cell in cells.tolist()}

    def solid(points: np.ndarray) -> np.ndarray:
        cells = np.floor(points / TILE).astype(int).tolist()
        return np.array([tuple(cell) in occupied for cell in cells])

    assert (solid(middle + normal) != solid(middle - normal)).all()
    # And the outline is all there: its length is that of the tiles' unshared edges.
    unit_a, unit_b = a / TILE, b / TILE
    assert unit_edges(unit_a, unit_b) == raster_outline(tiles(cells, 1.0))
    # Collinear edges are joined: no segment starts on its line where another one ends.
    horizontal = a[:, 1] == b[:, 1]
    for is_h in (True, False):
        chosen = horizontal == is_h
        line = (a[chosen, 1] if is_h else a[chosen, 0]).tolist()
        low = (a[chosen, 0] if is_h else a[chosen, 1]).tolist()
        high = (b[chosen, 0] if is_h else b[chosen, 1]).tolist()
        ends = set(zip(line, high, strict=True))
        assert not any((ln, lo) in ends for ln, lo in zip(line, low, strict=True))


rect_strategy = st.tuples(
    st.integers(0, 12), st.integers(0, 12), st.integers(1, 6), st.integers(1, 6)
).map(lambda r: (r[0], r[1], r[0] + r[2], r[1] + r[3]))


@settings(max_examples=60, deadline=None)
@given(st.lists(rect_strategy, max_size=8))
def test_the_outline_is_the_boundary_of_the_union_of_any_rectangles(rects: list) -> None:
    boxes = np.array(rects, dtype=float).reshape(-1, 4)
    a, b = rectangle_outline(boxes)
    assert unit_edges(a, b) == raster_outline(boxes)


@settings(max_examples=40, deadline=None)
@given(st.lists(rect_strategy, max_size=8), st.integers(2, 7))
def test_windows_that_tile_the_plane_add_up_to_the_outline(rects: list, size: int) -> None:
    boxes = np.array(rects, dtype=float).reshape(-1, 4)
    whole = rectangle_outline(boxes)
    pieces: list[tuple[int, int, int, int]] = []
    for left in range(-size, 20, size):
        for bottom in range(-size, 20, size):
            a, b = rectangle_outline(boxes, (left, bottom, left + size, bottom + size))
            assert (a >= (left, bottom)).all() and (b <= (left + size, bottom + size)).all()
            pieces += [
                piece
                for segment in zip(a, b, strict=True)
                for piece in unit_edges(*map(np.atleast_2d, segment))
            ]
    assert len(pieces) == len(set(pieces))  # each piece in one window only
    assert set(pieces) == unit_edges(*whole)


@pytest.mark.parametrize(
    ("rects", "window", "error", "message"),
    [
        ("abc", None, TypeError, "rects must be"),
        ([[0, 0, 1]], None, ValueError, r"rects must have shape \(n, 4\)"),
        ([[0, 0, np.nan, 1]], None, ValueError, "rects must be finite"),
        ([[0, 0, 0, 1]], None, ValueError, "right > left"),
        ([[0, 0, 2e8, 1]], None, ValueError, "rects must lie within"),
        ([[0, 0, 1, 1]], (0, 0, 0, 1), ValueError, "window must have right > left"),
        ([[0, 0, 1, 1]], "w", TypeError, "window must be"),
    ],
)
def test_bad_input_is_refused_naming_the_parameter(rects, window, error, message) -> None:
    with pytest.raises(error, match=message):
        rectangle_outline(rects, window)


def test_too_many_distinct_coordinates_are_refused_before_allocating() -> None:
    side = int(np.sqrt(MAX_CELLS)) // 2 + 2
    offsets = np.arange(side, dtype=float) * 1.5
    rects = np.column_stack((offsets, offsets, offsets + 1, offsets + 1))
    with pytest.raises(ValueError, match="more than"):
        rectangle_outline(rects)
