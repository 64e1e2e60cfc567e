"""Tests for arcade_steering.path.Path: geometry, queries, windowed projection, validation."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_steering.path import WINDOW_BACK_FRACTION, Path, PathProjection

SQUARE = [(0, 0), (100, 0), (100, 100), (0, 100)]
# Zig-zag with right-to-left, vertical and diagonal segments: the "compare x only" bug fails here.
ZIGZAG = [(0, 0), (200, 0), (50, 80), (50, 200), (50, 120), (300, 300), (300, 10), (-40, 10)]
# Figure-eight whose two branches cross mid-segment at the origin.
EIGHT = [(100, 100), (200, 0), (100, -100), (-100, 100), (-200, 0), (-100, -100)]
R2 = math.sqrt(2.0)
EIGHT_CROSS_1 = 100 * R2 * 3  # distance of the crossing on branch 1 (segment 2)
EIGHT_CROSS_2 = 100 * R2 * 7  # ... and on branch 2 (segment 5)


def brute_force(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Per point, per segment reference: the smallest distance to the segments."""
    best = np.full(len(points), np.inf)
    for n, p in enumerate(points):
        for a, b in zip(starts, ends, strict=True):
            ab = b - a
            denom = float(ab @ ab)
            u = 0.0 if denom == 0.0 else min(1.0, max(0.0, float((p - a) @ ab) / denom))
            best[n] = min(best[n], float(np.linalg.norm(p - (a + u * ab))))
    return best


# -- geometry ------------------------------------------------------------------------------------


def test_lengths_open_and_closed() -> None:
    open_path = Path(SQUARE)
    assert open_path.segment_count == 3 and len(open_path) == 4
    assert open_path.length == pytest.approx(300.0)
    np.testing.assert_allclose(open_path.cumulative, [0, 100, 200, 300])
    closed = Path(SQUARE, closed=True)
    assert closed.segment_count == 4 and closed.length == pytest.approx(400.0)
    np.testing.assert_allclose(closed.segment_lengths, [100] * 4)
    np.testing.assert_allclose(closed.ends[-1], (0, 0))
    np.testing.assert_allclose(closed.starts, SQUARE)
    assert closed.closed and not open_path.closed


def test_point_and_direction_open_clamps() -> None:
    path = Path(SQUARE)
    np.testing.assert_allclose(
        path.point_at([-50, 0, 50, 100, 150, 300, 999]),
        [(0, 0), (0, 0), (50, 0), (100, 0), (100, 50), (0, 100), (0, 100)],
    )
    np.testing.assert_allclose(
        path.direction_at([-1, 50, 150, 250, 999]), [(1, 0), (1, 0), (0, 1), (-1, 0), (-1, 0)]
    )
    np.testing.assert_allclose(path.point_at(150.0), (100, 50))  # scalar in, (2,) out


def test_point_and_direction_closed_wraps() -> None:
    path = Path(SQUARE, closed=True)
    np.testing.assert_allclose(
        path.point_at([-50, 350, 400, 450, 1250]), [(0, 50), (0, 50), (0, 0), (50, 0), (50, 0)]
    )
    np.testing.assert_allclose(path.direction_at([-10, 390, 410]), [(0, -1), (0, -1), (1, 0)])


def test_radius_at_and_per_segment_radii() -> None:
    path = Path(SQUARE, radius=5.0, closed=True, radii=[1, 2, 3, 4])
    np.testing.assert_allclose(path.radius_at([50, 150, 250, 350, 450, -10]), [1, 2, 3, 4, 1, 4])
    np.testing.assert_allclose(path.project([(50, -3), (103, 50)]).radius, [1, 2])
    path.radius = 7.0  # a uniform radius replaces the per-segment ones
    np.testing.assert_allclose(path.radii, [7] * 4)
    path.radii = [9, 9, 8, 8]
    np.testing.assert_allclose(path.radius_at([250]), [8])
    path.radii = None
    np.testing.assert_allclose(path.radius_at([250]), [7])


def test_arrays_are_read_only() -> None:
    path = Path(SQUARE)
    for array in (path.points, path.starts, path.ends, path.cumulative, path.radii):
        with pytest.raises(ValueError):
            array[0] = 1.0


def test_repr() -> None:
    assert repr(Path(SQUARE, closed=True)) == "Path(4 points, length=400.0, radius=20, closed=True)"


# -- projection ----------------------------------------------------------------------------------


@pytest.mark.parametrize("closed", [False, True])
def test_projection_matches_brute_force(closed: bool) -> None:
    rng = np.random.default_rng(1)
    path = Path(ZIGZAG, closed=closed)
    queries = rng.uniform(-100, 400, size=(400, 2))
    proj = path.project(queries)
    assert isinstance(proj, PathProjection)
    np.testing.assert_allclose(proj.offset, brute_force(queries, path.starts, path.ends), atol=1e-9)
    np.testing.assert_allclose(np.linalg.norm(queries - proj.point, axis=1), proj.offset, atol=1e-9)
    np.testing.assert_allclose(path.point_at(proj.distance), proj.point, atol=1e-9)
    seg, d = proj.segment, proj.distance
    if closed:  # the end of the closing segment is distance 0 again
        d = np.where(d < path.cumulative[seg] - 1e-9, d + path.length, d)
    assert np.all(path.cumulative[seg] - 1e-9 <= d) and np.all(d <= path.cumulative[seg + 1] + 1e-9)


def test_projection_on_right_to_left_and_vertical_segments() -> None:
    path = Path([(300, 0), (0, 0), (0, 200)])
    proj = path.project([(120, 30), (-20, 150), (400, 5), (-5, -5)])
    np.testing.assert_allclose(proj.point, [(120, 0), (0, 150), (300, 0), (0, 0)])
    np.testing.assert_allclose(proj.distance, [180, 450, 0, 300])
    np.testing.assert_allclose(proj.offset, [30, 20, 100.124922, math.hypot(5, 5)])


def test_zero_length_segments_never_nan() -> None:
    path = Path([(0, 0), (0, 0), (10, 0), (10, 0), (10, 0), (10, 10), (10, 10)], closed=False)
    assert path.segment_count == 6
    np.testing.assert_allclose(path.directions, [(1, 0), (1, 0), (1, 0), (0, 1), (0, 1), (0, 1)])
    d = np.linspace(-5, 30, 71)
    for array in (path.point_at(d), path.direction_at(d), path.radius_at(d)):
        assert np.isfinite(array).all()
    q = np.array([(0, 0), (10, 0), (10, 10), (5, 5), (-3, 4)], dtype=float)
    proj = path.project(q)
    assert all(np.isfinite(a).all() for a in proj)
    np.testing.assert_allclose(proj.offset, brute_force(q, path.starts, path.ends))
    dot = Path([(5, 5), (5, 5)], closed=True)
    assert dot.length == 0.0
    assert np.isfinite(dot.direction_at([0, 3])).all()
    np.testing.assert_allclose(dot.point_at([-1, 7]), [(5, 5), (5, 5)])
    np.testing.assert_allclose(dot.project([(8, 9)], near=[2], window=10).offset, [5])
    np.testing.assert_allclose(dot.distance_between([1], [3]), [2])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=2, max_size=8),
    st.booleans(),
    st.lists(st.tuples(st.floats(-9, 9), st.floats(-9, 9)), min_size=1, max_size=5),
    st.floats(-50, 50),
    st.floats(0, 20),
)
def test_degenerate_paths_are_finite_and_exact(pts, closed, queries, near, window) -> None:
    # Small integer grids make repeated points and zero-length segments common.
    path = Path(pts, closed=closed)
    q = np.array(queries, dtype=float)
    for proj in (path.project(q), path.project(q, near=near, window=window)):
        assert all(np.isfinite(a).all() for a in proj)
        np.testing.assert_allclose(np.linalg.norm(q - proj.point, axis=1), proj.offset, atol=1e-9)
    np.testing.assert_allclose(
        path.project(q).offset, brute_force(q, path.starts, path.ends), atol=1e-9
    )


def test_windowed_projection_matches_dense_sampling() -> None:
    rng = np.random.default_rng(7)
    for closed in (False, True):
        path = Path(ZIGZAG, closed=closed)
        near = rng.uniform(-50, path.length + 50, 200)
        window = 150.0
        q = rng.uniform(-100, 400, size=(200, 2))
        proj = path.project(q, near=near, window=window)
        for i in range(len(q)):
            at = float(np.clip(near[i], 0, path.length)) if not closed else near[i]
            samples = np.linspace(at - WINDOW_BACK_FRACTION * window, at + window, 20001)
            if not closed:
                samples = np.clip(samples, 0, path.length)
            ref = np.linalg.norm(path.point_at(samples) - q[i], axis=1).min()
            assert proj.offset[i] == pytest.approx(ref, abs=0.02)
            step = path.distance_between(at, proj.distance[i])
            assert -WINDOW_BACK_FRACTION * window - 1e-9 <= step <= window + 1e-9


def test_figure_eight_crossing_keeps_the_current_branch() -> None:
    path = Path(EIGHT, closed=True)
    crossing = np.array([(0.0, 0.0)])
    free = path.project(crossing)
    assert free.offset[0] == pytest.approx(0.0, abs=1e-9)
    one = path.project(crossing, near=[EIGHT_CROSS_1 - 30], window=100)
    two = path.project(crossing, near=[EIGHT_CROSS_2 - 30], window=100)
    assert one.segment[0] == 2 and one.distance[0] == pytest.approx(EIGHT_CROSS_1)
    assert two.segment[0] == 5 and two.distance[0] == pytest.approx(EIGHT_CROSS_2)
    # Just off the crossing, nearer branch 2: the free search jumps, the window does not.
    off = np.array([(3.0, 5.0)])
    assert path.project(off).segment[0] == 5
    assert path.project(off, near=EIGHT_CROSS_1 - 30, window=100).segment[0] == 2


def test_follower_goes_round_the_eight_branch_by_branch() -> None:
    path = Path(EIGHT, closed=True)
    rng = np.random.default_rng(3)
    step, progress, worst_free = 6.0, 0.0, 0.0
    for d in np.arange(step, 2 * path.length, step):
        q = path.point_at([d]) + rng.normal(0.0, 2.0, size=(1, 2))
        proj = path.project(q, near=[progress], window=4 * step)
        assert abs(path.distance_between(d, proj.distance[0])) < 20.0  # tracks its branch
        assert (
            path.distance_between(progress, proj.distance[0])
            >= -WINDOW_BACK_FRACTION * 4 * step - 1e-9
        )
        progress = float(proj.distance[0])
        free = path.project(q).distance[0]
        worst_free = max(worst_free, abs(float(path.distance_between(d, free))))
    assert worst_free > 400.0  # the nearest-segment-anew search does jump branches


def test_window_wraps_across_the_seam_of_a_closed_path() -> None:
    path = Path(SQUARE, closed=True)
    behind = path.project([(-2, 5)], near=[5], window=40)  # 5 px behind the start, near=5
    assert behind.distance[0] == pytest.approx(395.0) and behind.segment[0] == 3
    ahead = path.project([(10, 3)], near=[395], window=40)
    assert ahead.distance[0] == pytest.approx(10.0) and ahead.segment[0] == 0
    # Outside the window behind: the nearest point allowed is the window's back edge.
    far_back = path.project([(0, 60)], near=[5], window=40)
    assert far_back.distance[0] == pytest.approx(395.0)
    # A window longer than the loop searches everything.
    whole = path.project([(0, 60)], near=[5], window=400)
    assert whole.distance[0] == pytest.approx(340.0)


def test_zero_window_pins_the_projection_to_near() -> None:
    for closed in (False, True):
        path = Path(ZIGZAG, closed=closed)
        near = np.linspace(0, path.length, 57)
        q = np.random.default_rng(5).uniform(-100, 400, size=(57, 2))
        proj = path.project(q, near=near, window=0.0)
        np.testing.assert_allclose(proj.point, path.point_at(near), atol=1e-9)
        scalar = path.project(q, near=10.0, window=0.0)  # a scalar near serves every query
        np.testing.assert_allclose(scalar.point, np.broadcast_to(path.point_at(10.0), (57, 2)))


def test_window_on_open_path_clamps_near() -> None:
    path = Path(SQUARE)
    proj = path.project([(50, 0)], near=[1000], window=40)  # near clamps to the end (0, 100)
    np.testing.assert_allclose(proj.point, [(10, 100)])
    proj = path.project([(50, 100)], near=[-1000], window=40)
    np.testing.assert_allclose(proj.point, [(40, 0)])


def test_distance_between() -> None:
    closed = Path(SQUARE, closed=True)
    np.testing.assert_allclose(
        closed.distance_between([390, 10, 0], [10, 390, 150]), [20, -20, 150]
    )
    np.testing.assert_allclose(Path(SQUARE).distance_between([290, 10], [10, 290]), [-280, 280])


# -- moving geometry and validation ----------------------------------------------------------------


def test_moving_points_recompute_and_bump_version() -> None:
    path = Path(SQUARE, radius=3.0)
    version = path.version
    path.points = [(0, 0), (0, 50), (0, 50), (30, 90)]
    assert path.version == version + 1
    assert path.length == pytest.approx(100.0)
    np.testing.assert_allclose(path.point_at([75]), [(15, 70)])
    np.testing.assert_allclose(path.project([(-4, 20)]).offset, [4])
    path.points = [(0, 0), (10, 0)]  # fewer segments: fine with a uniform radius
    assert path.segment_count == 1 and path.radii.tolist() == [3.0]
    path.radius = 4.0
    path.radii = [5.0]
    assert path.version == version + 4


def test_moving_points_with_radii_must_keep_the_segment_count() -> None:
    path = Path(SQUARE, radii=[1, 2, 3])
    path.points = np.array(SQUARE) + 10  # same count: fine
    with pytest.raises(ValueError, match="points"):
        path.points = SQUARE[:3]
    assert path.segment_count == 3 and path.radii.tolist() == [1, 2, 3]
    np.testing.assert_allclose(path.points, np.array(SQUARE) + 10)
    path.radii = None
    path.points = SQUARE[:3]
    assert path.segment_count == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"points": [(0, 0)]}, ValueError, "points"),
        ({"points": []}, ValueError, "points"),
        ({"points": [(0, 0), (math.nan, 1)]}, ValueError, "points"),
        ({"points": [(0, 0), (math.inf, 1)]}, ValueError, "points"),
        ({"points": [(0, 0, 0), (1, 1, 1)]}, ValueError, "points"),
        ({"points": [(0, 0), (1,)]}, ValueError, "points"),
        ({"points": [(0, 0), (object(), 1)]}, TypeError, "points"),
        # A wrong type is a TypeError, a wrong shape or value a ValueError.
        ({"points": None}, TypeError, "points"),
        ({"points": 5}, TypeError, "points"),
        ({"points": "abcd"}, TypeError, "points"),
        ({"points": [("a", "b"), (1, 2)]}, TypeError, "points"),
        ({"points": [(0, 0), (None, 1)]}, TypeError, "points"),
        ({"points": [(0, 0), (1, 2, 3)]}, ValueError, "points"),
        ({"radius": -1.0}, ValueError, "radius"),
        ({"radius": math.nan}, ValueError, "radius"),
        ({"radius": math.inf}, ValueError, "radius"),
        ({"radius": "wide"}, TypeError, "radius"),
        ({"radius": True}, TypeError, "radius"),
        ({"radius": None}, TypeError, "radius"),
        ({"radii": [1, 2]}, ValueError, "radii"),
        ({"radii": [1, 2, 3, 4]}, ValueError, "radii"),
        ({"radii": [1, -2, 3]}, ValueError, "radii"),
        ({"radii": [1, math.nan, 3]}, ValueError, "radii"),
        ({"radii": 5.0}, TypeError, "radii"),
        ({"radii": ["a", "b", "c"]}, TypeError, "radii"),
        ({"radii": [[1, 2, 3]]}, ValueError, "radii"),
        ({"closed": None}, TypeError, "closed"),
        ({"closed": 1}, TypeError, "closed"),
        ({"closed": "yes"}, TypeError, "closed"),
    ],
)
def test_bad_arguments(kwargs: dict, error: type, name: str) -> None:
    args = {"points": SQUARE} | kwargs
    with pytest.raises(error, match=name):
        Path(**args)


@pytest.mark.parametrize(
    ("attribute", "value", "error"),
    [
        ("points", [(0, 0)], ValueError),
        ("points", [(0, 0), (math.nan, 0)], ValueError),
        ("points", "abc", TypeError),
        ("points", None, TypeError),
        ("points", [(0, 0), (1, 2, 3)], ValueError),
        ("radii", ["a", "b", "c"], TypeError),
        ("radius", -3.0, ValueError),
        ("radius", "x", TypeError),
        ("radii", [1.0], ValueError),
        ("radii", [1.0, -1.0, 1.0], ValueError),
    ],
)
def test_refused_setter_leaves_path_unchanged(attribute: str, value, error: type) -> None:
    path = Path(SQUARE, radius=6.0)
    before = (path.points.copy(), path.radii.copy(), path.cumulative.copy(), path.version)
    with pytest.raises(error, match=attribute):
        setattr(path, attribute, value)
    np.testing.assert_array_equal(path.points, before[0])
    np.testing.assert_array_equal(path.radii, before[1])
    np.testing.assert_array_equal(path.cumulative, before[2])
    assert path.version == before[3] and path.radius == 6.0


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda p: p.point_at([math.nan]), "distance"),
        (lambda p: p.direction_at([math.inf]), "distance"),
        (lambda p: p.project([(0, 0, 0)]), "points"),
        (lambda p: p.project([(0, math.nan)]), "points"),
        (lambda p: p.project([(0, 0)], near=[0]), "window"),
        (lambda p: p.project([(0, 0)], window=10), "near"),
        (lambda p: p.project([(0, 0)], near=[0], window=-1), "window"),
        (lambda p: p.project([(0, 0)], near=[math.nan], window=1), "near"),
        (lambda p: p.project([(0, 0)], near=[0, 1], window=1), "near"),
        (lambda p: p.distance_between([0], [math.nan]), "d_to"),
        (lambda p: Path(SQUARE, closed=True).project([(0, 0)], near=math.nan, window=1e4), "near"),
    ],
)
def test_bad_query_arguments(call, name: str) -> None:
    with pytest.raises(ValueError, match=name):
        call(Path(SQUARE))


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda p: p.point_at("far"), "distance"),
        (lambda p: p.point_at(None), "distance"),
        (lambda p: p.radius_at([object()]), "distance"),
        (lambda p: p.project("points"), "points"),
        (lambda p: p.project(5.0), "points"),
        (lambda p: p.project([(0, 0)], near=["a"], window=1), "near"),
        (lambda p: p.project([(0, 0)], near=[0], window="wide"), "window"),
        (lambda p: p.distance_between(None, [0]), "d_from"),
    ],
)
def test_query_arguments_of_the_wrong_type(call, name: str) -> None:
    with pytest.raises(TypeError, match=name):
        call(Path(SQUARE))


# -- from_astar ------------------------------------------------------------------------------------


def test_from_astar_none_and_single_point() -> None:
    with pytest.raises(ValueError, match=r"points.*no path"):
        Path.from_astar(None)
    with pytest.raises(ValueError, match="points"):
        Path.from_astar([(10, 10)])
    with pytest.raises(ValueError, match="points"):
        Path.from_astar([(10, 10), (10, 10)])
    with pytest.raises(ValueError, match="grid_size"):
        Path.from_astar([(0, 0), (10, 0)], grid_size=0)
    with pytest.raises(TypeError, match="points"):
        Path.from_astar("abcd")
    with pytest.raises(TypeError, match="grid_size"):
        Path.from_astar([(0, 0), (10, 0)], grid_size="10")
    with pytest.raises(TypeError, match="closed"):  # refused before the points are simplified
        Path.from_astar([(0, 0), (10, 0)], closed="yes")


def test_from_astar_grid_size_and_collinear_removal() -> None:
    corners = [(0, 0), (10, 0), (20, 0), (20, 0), (30, 10), (40, 20), (40, 30), (40, 20)]
    path = Path.from_astar(corners, radius=4.0, grid_size=10)
    np.testing.assert_allclose(path.points, [(5, 5), (25, 5), (45, 25), (45, 35), (45, 25)])
    assert path.radius == 4.0 and not path.closed
    plain = Path.from_astar(corners)  # without grid_size the corners are kept
    np.testing.assert_allclose(plain.points[0], (0, 0))
    loop = Path.from_astar([(0, 0), (10, 0), (10, 10), (0, 10), (0, 5), (0, 0)], closed=True)
    np.testing.assert_allclose(loop.points, [(0, 0), (10, 0), (10, 10), (0, 10)])


def test_from_astar_with_real_arcade_result() -> None:
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    arcade = pytest.importorskip("arcade")
    grid = 10
    walls = arcade.SpriteList()
    for cy in range(6):  # a wall of tiles in cell column 3, rows 0-5 (lower-left on the grid)
        wall = arcade.SpriteSolidColor(grid, grid, color=arcade.color.WHITE)
        wall.position = (3 * grid + grid / 2, cy * grid + grid / 2)
        walls.append(wall)
    mover = arcade.SpriteSolidColor(grid, grid, color=arcade.color.WHITE)
    barriers = arcade.AStarBarrierList(mover, walls, grid, 0, 8 * grid, 0, 8 * grid)
    corners = arcade.astar_calculate_path((15, 15), (65, 15), barriers, diagonal_movement=False)
    assert corners[0] == (10, 10) and corners[-1] == (60, 10)  # arcade returns grid corners
    path = Path.from_astar(corners, grid_size=grid)
    np.testing.assert_allclose(path.points[[0, -1]], [(15, 15), (65, 15)])  # cell centres
    assert len(path) < len(corners)
    turns = np.diff(path.points, axis=0)
    assert np.all((turns[:, 0] == 0) != (turns[:, 1] == 0))  # only axis-aligned runs remain
    # Walking the path never enters a wall tile.
    walk = path.point_at(np.linspace(0, path.length, 400))
    inside = (np.abs(walk[:, 0] - 35) < 5) & (walk[:, 1] < 60)
    assert not inside.any()
    assert arcade.astar_calculate_path((15, 15), (15, 15), barriers) == [(10, 10)]
    with pytest.raises(ValueError, match="points"):
        Path.from_astar(arcade.astar_calculate_path((15, 15), (15, 15), barriers), grid_size=grid)
