"""Adding many walls at once: linear time whatever their layout, all or nothing."""

from __future__ import annotations

import pymunk
import pytest

from arcade_steering import geometry


def test_a_long_straight_polyline_adds_in_linear_time() -> None:
    # One shape after the other along a line made pymunk's tree as deep as the line:
    # 40,000 edges took 15 s (quadratic), and 300,000 overflowed the C stack.
    space = pymunk.Space()
    # The middle edge goes in first, then the middles of the halves: a shallow tree. Checked
    # by the order of addition, not by a clock (the machine may be busy).
    points = [(float(x), 0.0) for x in range(40_001)]
    walls = geometry.add_walls(space, points)
    assert len(walls) == 40_000 and len(space.shapes) == 40_000
    order = {id(shape): index for index, shape in enumerate(space.shapes)}
    assert order[id(walls[20_000])] == 0
    assert {order[id(walls[10_000])], order[id(walls[30_000])]} == {1, 2}
    hit = space.point_query_nearest((20_000.5, 0.2), 1.0, geometry.GEOMETRY_FILTER)
    assert hit is not None and hit.shape in walls


def test_add_shapes_adds_every_shape_once() -> None:
    space = pymunk.Space()
    shapes = [*geometry.wall_segments(space, [(0, 0), (10, 0), (10, 10)], closed=True)]
    shapes.append(geometry.obstacle_circle(space, (5, 5), 2))
    assert not space.shapes
    geometry.add_shapes(space, shapes)
    assert set(space.shapes) == set(shapes) and len(space.shapes) == 4


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda space, ok: [ok, "wall"], TypeError, "pymunk.Shape"),
        (lambda space, ok: [ok, geometry.add_wall(space, (0, 5), (5, 5))], ValueError, "space"),
        (lambda space, ok: [ok, ok], ValueError, "twice"),
    ],
)
def test_add_shapes_refuses_before_adding_anything(make, error, message) -> None:
    space = pymunk.Space()
    ok = geometry.obstacle_circle(space, (0, 0), 1)
    shapes = make(space, ok)
    before = list(space.shapes)
    with pytest.raises(error, match=message):
        geometry.add_shapes(space, shapes)
    assert space.shapes == before and ok.space is None


def test_walls_on_a_moved_static_body_stay_where_they_were_asked() -> None:
    space = pymunk.Space()
    space.static_body.position = (100, 50)
    space.static_body.angle = 0.5
    walls = geometry.add_walls(space, [(0, 0), (10, 0), (10, 10)], closed=True)
    ends = [tuple(round(c, 9) for c in wall.body.local_to_world(wall.a)) for wall in walls]
    assert ends == [(0, 0), (10, 0), (10, 10)]
