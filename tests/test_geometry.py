"""Tests for arcade_steering.geometry: shape helpers, the static mirror and batched queries.

The batched queries are checked against pymunk's own single queries on seeded random worlds.
pymunk's ``segment_query`` with ``radius > 0`` misses shapes (Chipmunk2D issue 138), so swept
circles are checked against thin rays on a copy of the world whose shapes are grown instead.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pymunk
import pytest
from conftest import short_and_long
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_steering import geometry
from arcade_steering.geometry import (
    GEOMETRY_FILTER,
    KIND_NONE,
    KIND_OBSTACLE,
    KIND_WALL,
    WALL_CATEGORY,
    WALL_COLLISION_TYPE,
    StaticGeometry,
    add_obstacle,
    add_wall,
    add_walls,
    remove_shape,
)
from arcade_steering.geometry import _broad_phase as _grid

ANY = pymunk.ShapeFilter()  # a query filter that sees every (non-sensor) shape
RAY_FIELDS = geometry.RayHits._fields
NEAREST_FIELDS = geometry.NearestHits._fields


# --------------------------------------------------------------------------- helpers


def random_world(
    seed: int, n_walls: int = 40, n_circles: int = 20, size: float = 600.0
) -> tuple[pymunk.Space, np.random.Generator]:
    """A space with thin and thick walls and circles, plus the generator that made it."""
    rng = np.random.default_rng(seed)
    space = pymunk.Space()
    for _ in range(n_walls):
        a = rng.uniform(0, size, 2)
        angle, length = rng.uniform(0, 2 * math.pi), rng.uniform(20, 200)
        b = a + length * np.array([math.cos(angle), math.sin(angle)])
        thickness = rng.uniform(1, 16) if rng.random() < 0.5 else 0.0
        add_wall(space, a, b, thickness=thickness)
    for _ in range(n_circles):
        add_obstacle(space, rng.uniform(0, size, 2), rng.uniform(4, 40))
    return space, rng


def random_rays(
    rng: np.random.Generator, n: int, size: float, max_length: float = 120.0
) -> tuple[np.ndarray, np.ndarray]:
    starts = rng.uniform(-20, size + 20, (n, 2))
    angle = rng.uniform(0, 2 * math.pi, n)
    length = rng.uniform(0, max_length, n)
    ends = starts + length[:, None] * np.stack((np.cos(angle), np.sin(angle)), axis=1)
    return starts, ends


def grown_copy(geo: StaticGeometry, inflate: float) -> tuple[pymunk.Space, list[pymunk.Shape]]:
    """A fresh space holding geo's shapes, in geo's order, with radii grown by ``inflate``."""
    space = pymunk.Space()
    body = space.static_body
    shapes: list[pymunk.Shape] = []
    for a, b, r in zip(geo.segment_a, geo.segment_b, geo.segment_radius, strict=True):
        shapes.append(pymunk.Segment(body, tuple(a), tuple(b), float(r) + inflate))
    for c, r in zip(geo.circle_center, geo.circle_radius, strict=True):
        shapes.append(pymunk.Circle(body, float(r) + inflate, tuple(c)))
    space.add(*shapes)
    return space, shapes


def check_rays_against_pymunk(
    geo: StaticGeometry, starts: np.ndarray, ends: np.ndarray, inflate: float
) -> tuple[int, int]:
    """Compare a batched raycast with pymunk ray by ray; returns (hits, starts inside)."""
    hits = geo.raycast(starts, ends, inflate=inflate)
    oracle, shapes = grown_copy(geo, inflate)
    index = {id(s): i for i, s in enumerate(shapes)}
    n_hit = n_inside = 0
    for i, (s, e) in enumerate(zip(starts, ends, strict=True)):
        s_t, e_t = tuple(s), tuple(e)
        at_start = oracle.point_query_nearest(s_t, 0.0, ANY)
        if at_start is not None and at_start.distance < 0:
            # pymunk reports a zero normal (or an exit) for rays starting inside.
            n_inside += 1
            assert hits.hit[i] and hits.alpha[i] == 0.0, i
            np.testing.assert_allclose(hits.point[i], s, atol=1e-9)
            np.testing.assert_allclose(hits.normal[i], at_start.gradient, atol=1e-7)
            assert hits.shape[i] == index[id(at_start.shape)], i
            continue
        q = oracle.segment_query_first(s_t, e_t, 0.0, ANY)
        if hits.hit[i] and missed_cap(oracle, shapes[hits.shape[i]], s, e, hits, i, q):
            n_hit += 1
            continue
        if q is None:
            assert not hits.hit[i], (i, hits.alpha[i])
            assert hits.alpha[i] == 1.0 and hits.shape[i] == -1
            assert hits.kind[i] == KIND_NONE
            np.testing.assert_allclose(hits.point[i], e, atol=1e-9)
            np.testing.assert_array_equal(hits.normal[i], (0.0, 0.0))
            continue
        n_hit += 1
        assert hits.hit[i], (i, q)
        assert hits.alpha[i] == pytest.approx(q.alpha, rel=1e-9, abs=1e-9), i
        np.testing.assert_allclose(hits.point[i], q.point, atol=1e-6)
        np.testing.assert_allclose(hits.normal[i], q.normal, atol=1e-6)
        assert hits.shape[i] == index[id(q.shape)], i
        expected_kind = KIND_WALL if isinstance(q.shape, pymunk.Segment) else KIND_OBSTACLE
        assert hits.kind[i] == expected_kind
    return n_hit, n_inside


def missed_cap(
    oracle: pymunk.Space,
    shape: pymunk.Shape,
    start: np.ndarray,
    end: np.ndarray,
    hits: geometry.RayHits,
    i: int,
    q: pymunk.SegmentQueryInfo | None,
) -> bool:
    """Whether pymunk missed an end cap of a thick segment that we hit first, checked with
    pymunk's exact point queries instead.

    Chipmunk's ray-vs-thick-segment test only tries the round caps when the ray's line misses
    the flat face, so a ray that clips a cap and then leaves through the face is reported at
    the exit, or not at all.
    """
    if not isinstance(shape, pymunk.Segment) or shape.radius == 0:
        return False
    if q is not None and hits.alpha[i] > q.alpha - 1e-9:
        return False
    contact = hits.point[i]
    info = shape.point_query(tuple(contact))
    assert abs(info.distance) < 1e-6
    np.testing.assert_allclose(hits.normal[i], info.gradient, atol=1e-6)
    a, b = np.array(shape.a), np.array(shape.b)
    along = np.dot(contact - a, b - a) / np.dot(b - a, b - a)
    assert along <= 0 or along >= 1, "only a cap contact can be missed"
    for t in np.linspace(0.0, hits.alpha[i], 200, endpoint=False):
        before = oracle.point_query_nearest(tuple(start + t * (end - start)), 0.0, ANY)
        assert before is None or before.distance > -1e-6
    return True


# --------------------------------------------------------------------------- shape helpers


def test_add_wall_makes_a_filtered_static_segment() -> None:
    space = pymunk.Space()
    wall = add_wall(space, (10, 20), (110, 20), thickness=6)
    assert isinstance(wall, pymunk.Segment)
    assert wall.body is space.static_body
    assert wall in space.shapes
    assert wall.radius == 3.0
    assert (tuple(wall.a), tuple(wall.b)) == ((10, 20), (110, 20))
    assert wall.filter == GEOMETRY_FILTER
    assert wall.collision_type == WALL_COLLISION_TYPE


def test_helpers_use_world_coordinates_when_the_static_body_moved() -> None:
    space = pymunk.Space()
    space.static_body.position = (100, 50)
    space.static_body.angle = 0.5
    add_wall(space, (0, 0), (30, 40))
    add_obstacle(space, (5, 5), 2)
    geo = StaticGeometry(space)
    np.testing.assert_allclose(geo.segment_a, [[0, 0]], atol=1e-9)
    np.testing.assert_allclose(geo.segment_b, [[30, 40]], atol=1e-9)
    np.testing.assert_allclose(geo.circle_center, [[5, 5]], atol=1e-9)


def test_geometry_filter_finds_our_shapes_with_pymunk_queries() -> None:
    space = pymunk.Space()
    add_wall(space, (0, 0), (100, 0))
    post = add_obstacle(space, (50, 50), 10)
    assert space.point_query_nearest((50, 45), 20, GEOMETRY_FILTER).shape is post
    hit = space.segment_query_first((20, 10), (20, -10), 0, GEOMETRY_FILTER)
    assert hit is not None and hit.alpha == pytest.approx(0.5)


@pytest.mark.parametrize("opt_out", [False, True])
def test_physics_bodies_hit_walls_unless_they_leave_the_wall_category(opt_out: bool) -> None:
    """The documented collision choice: default-filtered bodies are blocked by walls."""
    space = pymunk.Space()
    space.gravity = (0, -900)
    add_wall(space, (-100, 0), (100, 0), thickness=4)
    body = pymunk.Body(1, 100)
    body.position = (0, 30)
    ball = pymunk.Circle(body, 5)
    if opt_out:
        ball.filter = pymunk.ShapeFilter(
            categories=pymunk.ShapeFilter.ALL_CATEGORIES() & ~WALL_CATEGORY
        )
    space.add(body, ball)
    for _ in range(120):
        space.step(1 / 60)
    if opt_out:
        assert body.position.y < -100
    else:
        assert body.position.y == pytest.approx(7.0, abs=1.0)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"a": (math.nan, 0), "b": (1, 0)}, ValueError, "a"),
        ({"a": (0, 0), "b": (math.inf, 0)}, ValueError, "b"),
        ({"a": (0, 0), "b": (0, 0)}, ValueError, "b"),
        ({"a": (0, 0, 0), "b": (1, 0)}, ValueError, "a"),
        ({"a": "ab", "b": (1, 0)}, TypeError, "a"),
        ({"a": (0, 0), "b": None}, TypeError, "b"),
        ({"a": (0, 0), "b": (1, 0), "thickness": -1.0}, ValueError, "thickness"),
        ({"a": (0, 0), "b": (1, 0), "thickness": math.nan}, ValueError, "thickness"),
        ({"a": (0, 0), "b": (1, 0), "thickness": math.inf}, ValueError, "thickness"),
        ({"a": (0, 0), "b": (1, 0), "thickness": "2"}, TypeError, "thickness"),
    ],
)
def test_add_wall_rejects_bad_input_and_adds_nothing(
    kwargs: dict, error: type[Exception], name: str
) -> None:
    space = pymunk.Space()
    with pytest.raises(error, match=rf"\b{name}\b"):
        add_wall(space, **kwargs)
    assert space.shapes == []


def test_add_walls_builds_a_polyline_skipping_repeated_points() -> None:
    space = pymunk.Space()
    points = [(0, 0), (100, 0), (100, 0), (100, 100), (0, 100)]
    walls = add_walls(space, points, thickness=2)
    assert [(tuple(w.a), tuple(w.b)) for w in walls] == [
        ((0, 0), (100, 0)),
        ((100, 0), (100, 100)),
        ((100, 100), (0, 100)),
    ]
    assert all(w.radius == 1.0 and w.filter == GEOMETRY_FILTER for w in walls)
    assert set(space.shapes) == set(walls)


def test_add_walls_closed_adds_the_closing_wall_once() -> None:
    space = pymunk.Space()
    square = np.array([(0, 0), (10, 0), (10, 10), (0, 10)], dtype=float)
    assert len(add_walls(space, square, closed=True)) == 4
    # Already closed by the caller: no zero-length closing wall.
    assert len(add_walls(space, [*square.tolist(), [0, 0]], closed=True)) == 4
    # Two distinct points make one wall, not the same wall twice.
    assert len(add_walls(space, [(0, 0), (5, 5)], closed=True)) == 1
    assert len(space.shapes) == 9


@pytest.mark.parametrize(
    ("points", "thickness", "error", "name"),
    [
        ([(0, 0)], 0.0, ValueError, "points"),
        ([], 0.0, ValueError, "points"),
        ([(3, 3), (3, 3), (3, 3)], 0.0, ValueError, "points"),
        ([(0, 0), (1, 0), (math.nan, 2)], 0.0, ValueError, "points"),
        ([(0, 0), (1, 0, 2)], 0.0, (ValueError, TypeError), "points"),
        ([(0, 0), (1, 0)], -2.0, ValueError, "thickness"),
        ("abc", 0.0, TypeError, "points"),
    ],
)
def test_add_walls_rejects_bad_input_and_adds_nothing(
    points: object, thickness: float, error: type[Exception], name: str
) -> None:
    space = pymunk.Space()
    with pytest.raises(error, match=rf"\b{name}\b"):
        add_walls(space, points, thickness=thickness)
    assert space.shapes == []


def test_add_obstacle_makes_a_filtered_static_circle() -> None:
    space = pymunk.Space()
    post = add_obstacle(space, (40, 60), 12.5)
    assert isinstance(post, pymunk.Circle)
    assert post.body is space.static_body
    assert (tuple(post.offset), post.radius) == ((40, 60), 12.5)
    assert post.filter == GEOMETRY_FILTER
    assert post in space.shapes


@pytest.mark.parametrize(
    ("center", "radius", "error", "name"),
    [
        ((0, 0), 0.0, ValueError, "radius"),
        ((0, 0), -3.0, ValueError, "radius"),
        ((0, 0), math.nan, ValueError, "radius"),
        ((0, 0), None, TypeError, "radius"),
        ((math.nan, 0), 5.0, ValueError, "center"),
        ((1,), 5.0, ValueError, "center"),
    ],
)
def test_add_obstacle_rejects_bad_input_and_adds_nothing(
    center: object, radius: object, error: type[Exception], name: str
) -> None:
    space = pymunk.Space()
    with pytest.raises(error, match=rf"\b{name}\b"):
        add_obstacle(space, center, radius)
    assert space.shapes == []


def test_helpers_require_a_space() -> None:
    with pytest.raises(TypeError, match="space"):
        add_wall(None, (0, 0), (1, 0))
    with pytest.raises(TypeError, match="space"):
        StaticGeometry().sync("not a space")


def test_remove_shape() -> None:
    space = pymunk.Space()
    wall = add_wall(space, (0, 0), (1, 0))
    post = add_obstacle(space, (5, 5), 1)
    remove_shape(space, wall)
    assert space.shapes == [post]
    with pytest.raises(ValueError, match="shape"):
        remove_shape(space, wall)
    with pytest.raises(ValueError, match="shape"):
        remove_shape(pymunk.Space(), post)
    with pytest.raises(TypeError, match="shape"):
        remove_shape(space, "wall")
    assert space.shapes == [post]


# --------------------------------------------------------------------------- the mirror


def test_mirror_includes_user_static_shapes_and_ignores_the_rest() -> None:
    space = pymunk.Space()
    ours = add_wall(space, (0, 0), (10, 0), thickness=2)
    # A user's own static body, moved and turned: mirrored in world coordinates.
    other = pymunk.Body(body_type=pymunk.Body.STATIC)
    other.position = (100, 100)
    other.angle = math.pi / 2
    user_segment = pymunk.Segment(other, (0, 0), (10, 0), 1)
    user_circle = pymunk.Circle(other, 4, (10, 0))
    # Not mirrored: a sensor, dynamic and kinematic bodies' shapes (polygons: test_poly_walls).
    sensor = pymunk.Circle(space.static_body, 3, (50, 50))
    sensor.sensor = True
    dynamic = pymunk.Body(1, 1)
    kinematic = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    space.add(other, user_segment, user_circle, sensor, dynamic, kinematic)
    space.add(pymunk.Circle(dynamic, 5), pymunk.Segment(kinematic, (0, 0), (5, 5), 1))

    geo = StaticGeometry(space)
    assert len(geo) == 3
    assert geo.shapes[:2] == [ours, user_segment] or geo.shapes[:2] == [user_segment, ours]
    assert geo.shapes[2] is user_circle
    row = geo.shapes.index(user_segment)
    np.testing.assert_allclose(geo.segment_a[row], (100, 100), atol=1e-9)
    np.testing.assert_allclose(geo.segment_b[row], (100, 110), atol=1e-9)
    assert geo.segment_radius[row] == 1.0
    np.testing.assert_allclose(geo.circle_center, [[100, 110]], atol=1e-9)
    np.testing.assert_array_equal(geo.circle_radius, [4.0])
    np.testing.assert_array_equal(geo.kind, [KIND_WALL, KIND_WALL, KIND_OBSTACLE])
    assert geo.segment_a.shape == (2, 2) and geo.circle_radius.shape == (1,)
    with pytest.raises(ValueError):
        geo.segment_a[0, 0] = 1.0  # read-only views


def test_sync_rebuilds_only_when_static_shapes_change() -> None:
    space = pymunk.Space()
    add_wall(space, (0, 0), (100, 0))
    geo = StaticGeometry()
    assert geo.sync(space) is True
    assert geo.sync(space) is False
    assert geo.sync(space) is False

    probe = np.array([[50.0, 40.0]])
    assert not geo.nearest(probe, 20.0).found[0]
    post = add_obstacle(space, (50, 50), 15)
    assert geo.sync(space) is True
    near = geo.nearest(probe, 20.0)
    assert near.found[0] and geo.shapes[near.shape[0]] is post
    assert near.distance[0] == pytest.approx(-5.0)
    assert geo.sync(space) is False

    # A dynamic shape coming and going does not rebuild the mirror.
    body = pymunk.Body(1, 1)
    ball = pymunk.Circle(body, 3)
    space.add(body, ball)
    assert geo.sync(space) is False
    space.remove(ball)
    assert geo.sync(space) is False
    # ...but a static one added together with a dynamic one does.
    space.add(ball)
    other = add_wall(space, (0, 200), (100, 200))
    assert geo.sync(space) is True and other in geo.shapes
    remove_shape(space, other)
    assert geo.sync(space) is True and other not in geo.shapes

    remove_shape(space, post)
    assert geo.sync(space) is True
    assert not geo.nearest(probe, 20.0).found[0]
    assert len(geo) == 1


def test_sync_force_picks_up_a_moved_static_body() -> None:
    space = pymunk.Space()
    body = pymunk.Body(body_type=pymunk.Body.STATIC)
    space.add(body, pymunk.Circle(body, 5))
    geo = StaticGeometry(space)
    body.position = (30, 0)
    space.reindex_static()
    assert geo.sync(space) is False  # documented: in-place changes are not noticed
    assert geo.sync(space, force=True) is True
    np.testing.assert_allclose(geo.circle_center, [[30, 0]])


# --------------------------------------------------------------------------- raycast


@pytest.mark.parametrize("seed", range(4))
def test_raycast_agrees_with_pymunk_thin_rays(seed: int) -> None:
    space, rng = random_world(seed)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 600, 600.0)
    n_hit, n_inside = check_rays_against_pymunk(geo, starts, ends, 0.0)
    assert n_hit > 50 and n_inside > 10  # the world is dense enough to test both


@pytest.mark.parametrize(("seed", "inflate"), [(10, 3.0), (11, 8.0), (12, 20.0)])
def test_raycast_swept_circles_agree_with_pymunk_on_grown_shapes(seed: int, inflate: float) -> None:
    space, rng = random_world(seed)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 500, 600.0)
    n_hit, n_inside = check_rays_against_pymunk(geo, starts, ends, inflate)
    assert n_hit > 50 and n_inside > 10


def test_raycast_per_row_inflate_matches_scalar_calls() -> None:
    space, rng = random_world(20)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 400, 600.0)
    inflate = rng.choice([0.0, 5.0, 12.0], size=400)
    mixed = geo.raycast(starts, ends, inflate=inflate)
    for value in (0.0, 5.0, 12.0):
        rows = inflate == value
        alone = geo.raycast(starts[rows], ends[rows], inflate=value)
        for field in RAY_FIELDS:
            np.testing.assert_array_equal(getattr(mixed, field)[rows], getattr(alone, field))


def test_long_rays_across_the_world_agree_with_pymunk() -> None:
    space, rng = random_world(30, n_walls=60, n_circles=30, size=1500.0)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 200, 1500.0, max_length=2000.0)
    check_rays_against_pymunk(geo, starts, ends, 0.0)
    check_rays_against_pymunk(geo, starts, ends, 6.0)


def test_raycast_from_inside_reports_the_outward_normal() -> None:
    space = pymunk.Space()
    wall = add_wall(space, (0, 0), (100, 0), thickness=10)
    post = add_obstacle(space, (200, 0), 20)
    geo = StaticGeometry(space)
    starts = np.array([[50.0, 2.0], [50.0, -3.0], [210.0, 0.0], [-2.0, 1.0]])
    ends = starts + np.array([0.0, 30.0])
    hits = geo.raycast(starts, ends)
    assert hits.hit.all()
    np.testing.assert_array_equal(hits.alpha, 0.0)
    np.testing.assert_array_equal(hits.point, starts)
    np.testing.assert_allclose(
        hits.normal, [[0, 1], [0, -1], [1, 0], [-2 / math.sqrt(5), 1 / math.sqrt(5)]]
    )
    assert [geo.shapes[i] for i in hits.shape] == [wall, wall, post, wall]


def test_raycast_inside_overlapping_shapes_takes_the_deepest() -> None:
    space = pymunk.Space()
    add_obstacle(space, (0, 0), 10)
    deep = add_obstacle(space, (12, 0), 10)
    geo = StaticGeometry(space)
    hits = geo.raycast([[9.0, 0.0]], [[0.0, 0.0]])
    assert geo.shapes[hits.shape[0]] is deep
    np.testing.assert_allclose(hits.normal[0], (-1, 0))


def test_raycast_on_a_surface_hits_only_when_moving_in() -> None:
    space = pymunk.Space()
    add_obstacle(space, (0, 0), 10)
    add_wall(space, (100, 0), (200, 0), thickness=4)
    geo = StaticGeometry(space)
    starts = np.array([[10.0, 0.0], [10.0, 0.0], [10.0, 0.0], [150.0, 2.0], [150.0, 2.0]])
    ends = starts + np.array([[-5.0, 0.0], [5.0, 0.0], [0.0, 5.0], [0.0, -1.0], [10.0, 0.0]])
    hits = geo.raycast(starts, ends)
    np.testing.assert_array_equal(hits.hit, [True, False, False, True, False])
    np.testing.assert_allclose(hits.normal[[0, 3]], [[1, 0], [0, 1]])


def test_zero_length_rays_are_point_tests() -> None:
    space, rng = random_world(40)
    geo = StaticGeometry(space)
    points = rng.uniform(0, 600, (500, 2))
    for inflate in (0.0, 7.0):
        hits = geo.raycast(points, points, inflate=inflate)
        oracle, _ = grown_copy(geo, inflate)
        inside = [
            (q := oracle.point_query_nearest(tuple(p), 0.0, ANY)) is not None and q.distance < 0
            for p in points
        ]
        np.testing.assert_array_equal(hits.hit, inside)
        assert 20 < sum(inside) < 480
        np.testing.assert_array_equal(hits.alpha[hits.hit], 0.0)
        np.testing.assert_array_equal(hits.alpha[~hits.hit], 1.0)
        np.testing.assert_array_equal(hits.point, points)
        norms = np.hypot(*hits.normal[hits.hit].T)
        np.testing.assert_allclose(norms, 1.0)


def test_raycast_kinds_select_walls_or_obstacles() -> None:
    space, rng = random_world(50)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 300, 600.0)
    everything = geo.raycast(starts, ends, 4.0)
    walls = geo.raycast(starts, ends, 4.0, kinds="walls")
    obstacles = geo.raycast(starts, ends, 4.0, kinds="obstacles")
    assert set(walls.kind[walls.hit]) == {KIND_WALL}
    assert set(obstacles.kind[obstacles.hit]) == {KIND_OBSTACLE}
    np.testing.assert_array_equal(everything.alpha, np.minimum(walls.alpha, obstacles.alpha))
    np.testing.assert_array_equal(everything.hit, walls.hit | obstacles.hit)
    # Each kind alone against pymunk's per-shape queries on the grown shapes.
    _, grown = grown_copy(geo, 4.0)
    for hits, kind in ((walls, KIND_WALL), (obstacles, KIND_OBSTACLE)):
        for i in range(0, 300, 7):
            best = 1.0
            for shape, shape_kind in zip(grown, geo.kind, strict=True):
                q = shape.segment_query(tuple(starts[i]), tuple(ends[i]), 0.0)
                inside = shape.point_query(tuple(starts[i])).distance < 0
                if shape_kind == kind and (inside or q.shape is not None):
                    best = min(best, 0.0 if inside else q.alpha)
            assert hits.alpha[i] == pytest.approx(best, abs=1e-9)


def test_grid_and_exhaustive_search_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    space, rng = random_world(60, n_walls=80, n_circles=40, size=900.0)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 1000, 900.0)
    inflate = rng.uniform(0, 15, 1000)
    grid_rays = geo.raycast(starts, ends, inflate)
    grid_near = geo.nearest(starts, 40.0)
    monkeypatch.setattr(_grid, "_BRUTE_FORCE_MAX", 10**9)
    all_rays = geo.raycast(starts, ends, inflate)
    all_near = geo.nearest(starts, 40.0)
    for field in RAY_FIELDS:
        np.testing.assert_array_equal(getattr(grid_rays, field), getattr(all_rays, field))
    for field in NEAREST_FIELDS:
        np.testing.assert_array_equal(getattr(grid_near, field), getattr(all_near, field))


# --------------------------------------------------------------------------- nearest


def check_nearest_against_pymunk(
    geo: StaticGeometry, space: pymunk.Space, points: np.ndarray, reach: np.ndarray
) -> int:
    near = geo.nearest(points, reach)
    found = 0
    for i, p in enumerate(points):
        q = space.point_query_nearest(tuple(p), float(reach[i]), ANY)
        if q is None:
            assert not near.found[i]
            assert near.distance[i] == reach[i] and near.shape[i] == -1
            assert near.kind[i] == KIND_NONE
            np.testing.assert_array_equal(near.point[i], p)
            np.testing.assert_array_equal(near.normal[i], (0, 0))
            continue
        found += 1
        assert near.found[i]
        assert geo.shapes[near.shape[i]] is q.shape
        assert near.distance[i] == pytest.approx(q.distance, abs=1e-9)
        np.testing.assert_allclose(near.point[i], q.point, atol=1e-6)
        np.testing.assert_allclose(near.normal[i], q.gradient, atol=1e-6)
    return found


@pytest.mark.parametrize("seed", range(4))
def test_nearest_agrees_with_pymunk(seed: int) -> None:
    space, rng = random_world(100 + seed)
    geo = StaticGeometry(space)
    points = rng.uniform(-30, 630, (600, 2))
    reach = np.full(600, 25.0) if seed % 2 else rng.uniform(0, 60, 600)
    found = check_nearest_against_pymunk(geo, space, points, reach)
    near = geo.nearest(points, reach)
    assert 100 < found < 600 and (near.distance < 0).sum() > 20


def test_nearest_on_the_core_uses_pymunk_directions() -> None:
    space = pymunk.Space()
    wall = add_wall(space, (0, 0), (100, 0), thickness=6)
    add_obstacle(space, (300, 300), 10)
    geo = StaticGeometry(space)
    near = geo.nearest([[40.0, 0.0], [300.0, 300.0]], 5.0)
    np.testing.assert_allclose(near.normal, [tuple(wall.normal), (0, 1)])
    np.testing.assert_allclose(near.distance, [-3.0, -10.0])
    np.testing.assert_allclose(near.point, [[40, -3], [300, 310]])
    q = space.point_query_nearest((40, 0), 5, ANY)
    np.testing.assert_allclose(near.normal[0], q.gradient)


def test_nearest_kinds_and_max_distance_boundary() -> None:
    space = pymunk.Space()
    add_wall(space, (0, 0), (100, 0))
    add_obstacle(space, (50, 30), 5)
    geo = StaticGeometry(space)
    p = np.array([[50.0, 20.0]])
    assert geo.nearest(p, 10.0).kind[0] == KIND_OBSTACLE
    assert geo.nearest(p, 20.0, kinds="walls").distance[0] == 20.0
    assert geo.nearest(p, 20.0, kinds="walls").found[0]  # exactly at max_distance: found
    assert not geo.nearest(p, 19.9, kinds="walls").found[0]
    assert not geo.nearest(p, 4.9, kinds="obstacles").found[0]


# --------------------------------------------------------------------------- edge cases


def test_empty_queries_and_empty_worlds() -> None:
    space, _ = random_world(200)
    for geo in (StaticGeometry(space), StaticGeometry(pymunk.Space()), StaticGeometry()):
        rays = geo.raycast(np.zeros((0, 2)), np.zeros((0, 2)), inflate=np.zeros(0))
        near = geo.nearest([], np.zeros(0))
        assert [a.shape for a in rays] == [(0,), (0,), (0, 2), (0, 2), (0,), (0,)]
        assert [a.shape for a in near] == [(0,), (0,), (0, 2), (0, 2), (0,), (0,)]
    geo = StaticGeometry(pymunk.Space())
    rays = geo.raycast([[0, 0]], [[10, 0]], 5.0)
    assert not rays.hit[0] and rays.alpha[0] == 1.0
    near = geo.nearest([[0, 0]], 5.0)
    assert not near.found[0] and near.distance[0] == 5.0


def test_a_grid_whose_width_is_a_whole_number_of_cells_only_by_rounding() -> None:
    # 92.7 px wide in cells of 0.75 * 41.2 px: 92.7 divided by the cell rounds to 3.0, the
    # far edge's column (one past the last), while 92.7 // cell is 2.0: three columns.
    a, b, radius = np.array([[-38.7, 0.0]]), np.array([[50.0, 0.0]]), np.array([2.0])
    grid = _grid.CapsuleGrid(a, b, radius, cell_size=0.75 * 41.2)
    assert grid.nx == 3
    rows, items = grid.pairs(np.array([[51.0, -1.0]]), np.array([[52.0, 1.0]]))
    assert rows.tolist() == [0] and items.tolist() == [0]


def test_far_apart_shapes_keep_the_grid_small() -> None:
    space = pymunk.Space()
    for i in range(12):
        add_obstacle(space, (i * 1e6, -i * 1e6), 3)
    geo = StaticGeometry(space)
    assert len(geo._broad.grid.table) <= 1 << 18  # table rows, whatever the extent
    points = np.array([[5e6, -5e6 + 10], [0.0, 0.0], [1e9, 1e9]])
    near = geo.nearest(points, 20.0)
    np.testing.assert_array_equal(near.found, [True, True, False])
    np.testing.assert_allclose(near.distance[:2], [7.0, -3.0])


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda g: g.raycast([[0, 0]], [[1, 1], [2, 2]]), "ends"),
        (lambda g: g.raycast([[0, 0, 0]], [[1, 1, 1]]), "starts"),
        (lambda g: g.raycast([[math.nan, 0]], [[1, 1]]), "starts"),
        (lambda g: g.raycast([[0, 0]], [[math.inf, 1]]), "ends"),
        (lambda g: g.raycast([[0, 0]], [[1, 1]], inflate=-1), "inflate"),
        (lambda g: g.raycast([[0, 0]], [[1, 1]], inflate=[1, 2]), "inflate"),
        (lambda g: g.raycast([[0, 0]], [[1, 1]], kinds="wall"), "kinds"),
        (lambda g: g.nearest([[0, 0]], math.inf), "max_distance"),
        (lambda g: g.nearest([[0, 0]], -1.0), "max_distance"),
        (lambda g: g.nearest([[0, 0]], 1.0, kinds=None), "kinds"),
        (lambda g: g.nearest([0, 0], 1.0), "points"),
    ],
)
def test_queries_reject_bad_input(call, name: str) -> None:
    space, _ = random_world(300)
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        call(StaticGeometry(space))


coords = st.floats(-50, 50, allow_nan=False).map(lambda v: round(v, 1))  # collisions likely


@short_and_long("examples", 30, 150)
def test_outputs_are_finite_and_well_formed(examples: int) -> None:
    """Coincident, on-the-line and zero-length cases never give NaN, inf or bad normals."""

    @settings(max_examples=examples, deadline=None)
    @given(
        walls=st.lists(st.tuples(coords, coords, coords, coords, st.sampled_from([0, 0, 2, 5]))),
        circles=st.lists(st.tuples(coords, coords, st.sampled_from([0.5, 3, 10]))),
        rays=st.lists(st.tuples(coords, coords, coords, coords), min_size=1, max_size=30),
        inflate=st.sampled_from([0.0, 0.0, 1.0, 4.0]),
    )
    def check(walls, circles, rays, inflate) -> None:
        space = pymunk.Space()
        body = space.static_body
        for ax, ay, bx, by, r in walls:  # the user's own shapes may be zero-length
            space.add(pymunk.Segment(body, (ax, ay), (bx, by), r))
        for cx, cy, r in circles:
            add_obstacle(space, (cx, cy), r)
        geo = StaticGeometry(space)
        r = np.array(rays, dtype=float)
        hits = geo.raycast(r[:, :2], r[:, 2:], inflate)
        near = geo.nearest(r[:, :2], 30.0)
        for result in (hits, near):
            for array in result:
                assert np.isfinite(array).all()
        assert ((hits.alpha >= 0) & (hits.alpha <= 1)).all()
        for result, ok in ((hits, hits.hit), (near, near.found)):
            np.testing.assert_allclose(np.hypot(*result.normal[ok].T), 1.0)
            np.testing.assert_array_equal(result.normal[~ok], 0.0)
            assert ((result.shape >= 0) == ok).all()
        # The first contact is on the grown surface (or inside, at alpha 0).
        hit = hits.hit & (hits.alpha > 0)
        if hit.any():
            surface = geo.nearest(hits.point[hit], 1e9).distance - inflate
            np.testing.assert_allclose(surface, 0.0, atol=1e-6)

    check()


def test_geometry_modules_do_not_import_arcade() -> None:
    """pymunk sits behind geometry.py; arcade stays out of it and its kernels."""
    import inspect

    from arcade_steering.geometry import _capsules as _capsule_queries
    from arcade_steering.geometry import _kernels as _geometry_kernels

    for module in (geometry, _capsule_queries, _geometry_kernels, _grid):
        source = inspect.getsource(module)
        assert "import arcade\n" not in source and "from arcade import" not in source
        if module is not geometry:
            assert "import pymunk" not in source, module.__name__


# --------------------------------------------------------------------------- hot-path API


def test_one_cell_lookup_and_box_grid_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Short queries look up one cell of a grid of grown shapes; long ones visit every cell
    of their box. Both must find the same first contacts and nearest surfaces."""
    space, rng = random_world(61, n_walls=80, n_circles=40, size=900.0)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 800, 900.0, max_length=40.0)
    inflate = rng.uniform(0, 10, 800)
    short_rays = geo.raycast(starts, ends, inflate)
    short_near = geo.nearest(starts, 12.0)
    monkeypatch.setattr(_grid, "_HALO_MAX", -1.0)
    box_rays = geo.raycast(starts, ends, inflate)
    box_near = geo.nearest(starts, 12.0)
    for field in RAY_FIELDS:
        np.testing.assert_array_equal(getattr(short_rays, field), getattr(box_rays, field))
    for field in NEAREST_FIELDS:
        np.testing.assert_array_equal(getattr(short_near, field), getattr(box_near, field))
    assert short_rays.hit.sum() > 50


def test_candidates_list_each_shape_once_ascending_however_far_they_reach() -> None:
    """Short queries look up one cell, long ones (beyond 256 px) every cell of their box:
    both list a point's shapes once each, ascending, so the first of equal contacts (the
    solid step's, the native step's) does not depend on how far the other points reach."""
    space, rng = random_world(63, n_walls=60, n_circles=30, size=800.0)
    geo = StaticGeometry(space)
    points = rng.uniform(-20, 820, (300, 2))
    for reach in (rng.uniform(0, 40, 300), rng.uniform(0, 600, 300)):
        rows, shapes = geo.candidates(points, reach)
        assert (np.diff(rows) >= 0).all()
        same_point = np.diff(rows) == 0
        assert (np.diff(shapes)[same_point] > 0).all()
        assert len(rows) > 300


def test_candidates_list_every_shape_within_reach() -> None:
    space, rng = random_world(62, n_walls=60, n_circles=30, size=800.0)
    geo = StaticGeometry(space)
    points = rng.uniform(-20, 820, (500, 2))
    reach = rng.uniform(0, 40, 500)
    for kinds in ("all", "walls", "obstacles"):
        rows, shapes = geo.candidates(points, reach, kinds)
        assert (np.diff(rows) >= 0).all()
        listed = set(zip(rows.tolist(), shapes.tolist(), strict=True))
        first, stop = geo._kind_rows(kinds)
        for i, p in enumerate(points):
            for j in range(first, stop):
                if geo.shapes[j].point_query(tuple(p)).distance <= reach[i]:
                    assert (i, j) in listed, (kinds, i, j)


def test_pair_queries_match_the_full_queries() -> None:
    """cast_pairs / near_pairs over pairs() candidates give what raycast / nearest give."""
    space, rng = random_world(63)
    geo = StaticGeometry(space)
    starts, ends = random_rays(rng, 400, 600.0, max_length=30.0)
    mid = (starts + ends) / 2
    reach = np.hypot(*(ends - starts).T) / 2 + 5.0
    rows, shapes = geo.pairs(mid[:, 0], mid[:, 1], reach)
    by_pairs = geo.cast_pairs(starts, ends, 5.0, rows, shapes)
    full = geo.raycast(starts, ends, 5.0)
    for field in RAY_FIELDS:
        np.testing.assert_array_equal(getattr(by_pairs, field), getattr(full, field))
    rows, shapes = geo.pairs(starts[:, 0], starts[:, 1], 20.0)
    near = geo.near_pairs(starts, 20.0, rows, shapes)
    full = geo.nearest(starts, 20.0)
    for field in NEAREST_FIELDS:
        np.testing.assert_array_equal(getattr(near, field), getattr(full, field))
    a, radius = geo.capsules(np.arange(len(geo)))
    np.testing.assert_array_equal(
        np.column_stack((a.real, a.imag))[geo.kind == KIND_OBSTACLE], geo.circle_center
    )
    np.testing.assert_array_equal(radius[geo.kind == KIND_WALL], geo.segment_radius)


@pytest.mark.parametrize("seed", [65, 66])
def test_cast_fans_match_one_ray_at_a_time(seed: int) -> None:
    """Fans of rays from shared starts (thin and thick walls, starts inside shapes) hit what
    raycast hits, with the same contacts and normals."""
    space, rng = random_world(seed)
    geo = StaticGeometry(space)
    n = 300
    origins = rng.uniform(-20, 620, (n, 2))
    angle = rng.uniform(0, 2 * math.pi, (3, n))
    length = rng.uniform(0, 40, (3, n))
    length[:, :5] = 0.0  # point tests
    rays = length * np.exp(1j * angle)
    inflate = rng.uniform(0, 8, n)
    inflate[:20] = 0.0
    rows, shapes = geo.pairs(origins[:, 0], origins[:, 1], 40.0 + inflate)
    heads = np.unique(rows)  # origins with candidates, numbered 0..k-1
    keep = np.isin(rows, heads)
    local = np.searchsorted(heads, rows[keep])
    z = origins[heads, 0] + 1j * origins[heads, 1]
    alpha, normal, shape = geo.cast_fans(z, rays[:, heads], inflate[heads], local, shapes[keep])
    starts = np.tile(origins[heads], (3, 1))
    ends = starts + np.column_stack((rays[:, heads].real.ravel(), rays[:, heads].imag.ravel()))
    full = geo.raycast(starts, ends, np.tile(inflate[heads], 3))
    assert full.hit.sum() > 50
    np.testing.assert_array_equal(shape.ravel(), full.shape)
    np.testing.assert_allclose(alpha.ravel(), full.alpha, atol=1e-12)
    np.testing.assert_allclose(normal.ravel().real, full.normal[:, 0], atol=1e-9)
    np.testing.assert_allclose(normal.ravel().imag, full.normal[:, 1], atol=1e-9)


def test_overlaps_and_frames_agree_with_pymunk() -> None:
    space, rng = random_world(64)
    geo = StaticGeometry(space)
    points = rng.uniform(-20, 620, (300, 2))
    radius = rng.uniform(0, 30, 300)
    rows, shapes = geo.pairs(points[:, 0], points[:, 1], radius)
    depth, normal = geo.overlaps(points, radius, rows, shapes)
    for i, j, d, n in zip(rows, shapes, depth, normal, strict=True):
        info = geo.shapes[j].point_query(tuple(points[i]))
        assert d == pytest.approx(radius[i] - info.distance, abs=1e-9)
        np.testing.assert_allclose(n, info.gradient, atol=1e-7)
    start, direction, length = geo.frames(np.arange(len(geo)))
    ends = start + length * direction
    np.testing.assert_allclose(ends[: len(geo.segment_b)].real, geo.segment_b[:, 0], atol=1e-9)
    np.testing.assert_allclose(ends[: len(geo.segment_b)].imag, geo.segment_b[:, 1], atol=1e-9)
    np.testing.assert_allclose(np.abs(direction), 1.0)


def test_a_ray_all_but_parallel_to_a_core_is_no_contact_and_no_warning() -> None:
    # Its rate towards the core line is so small that the slab's entry time overflows to inf
    # (once found by the property tests as a RuntimeWarning): inf is "never enters".
    from arcade_steering.geometry._kernels import ray_keys_local

    starts = np.array([5.0 + 100.0j, -30.0 + 100.0j])
    rays = np.array([1.0 - 1e-308j, 1e-300 - 1e-308j])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        keys = ray_keys_local(starts, rays, np.array([10.0, 10.0]), np.array([1.0, 1.0]))
    assert np.isinf(keys).all()
