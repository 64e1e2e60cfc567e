"""Static pymunk.Poly shapes are walls: the mirror holds their edges, feelers, the solid step and
line of sight meet them, and a PymunkPhysicsEngine's static wall sprites block agents with no
extra call. Shapes steering does not see are listed in ``geometry.ignored``."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pymunk
import pytest

import arcade_steering as steer
from arcade_steering.geometry import KIND_WALL, StaticGeometry
from arcade_steering.testing import StubSprite

DT = 1 / 60
RADIUS = StubSprite(0, 0).width / 2


def box(space: pymunk.Space, center: tuple[float, float], size: tuple[float, float], **kw):
    body = pymunk.Body(body_type=pymunk.Body.STATIC)
    body.position = center
    poly = pymunk.Poly.create_box(body, size, **kw)
    space.add(body, poly)
    return poly


def test_a_static_polygon_is_mirrored_as_its_edges_in_world_coordinates() -> None:
    space = pymunk.Space()
    body = pymunk.Body(body_type=pymunk.Body.STATIC)
    body.position = (100, 50)
    body.angle = math.pi / 2
    poly = pymunk.Poly(body, [(0, 0), (20, 0), (0, 10)], radius=2)
    space.add(body, poly)
    geo = StaticGeometry(space)
    assert len(geo) == 3 and geo.shapes == [poly, poly, poly]
    assert (geo.kind == KIND_WALL).all()
    corners = {tuple(np.round(p, 9)) for p in geo.segment_a}
    assert corners == {(100.0, 50.0), (100.0, 70.0), (90.0, 50.0)}
    # Each edge runs to the next edge's start: a closed outline.
    np.testing.assert_allclose(geo.segment_b, np.roll(geo.segment_a, -1, axis=0), atol=1e-9)
    np.testing.assert_array_equal(geo.segment_radius, [2.0, 2.0, 2.0])


def test_rays_and_nearest_meet_a_polygon_with_its_radius() -> None:
    space = pymunk.Space()
    poly = box(space, (0, 0), (40, 20), radius=3)
    geo = StaticGeometry(space)
    # The third ray starts inside: the outline is a closed loop of walls, met on the way out.
    hits = geo.raycast([[-100, 0], [0, 100], [0, 0]], [[100, 0], [0, -100], [0, 100]])
    assert hits.hit.tolist() == [True, True, True]
    np.testing.assert_allclose(hits.point, [[-23, 0], [0, 13], [0, 7]], atol=1e-6)
    assert geo.shapes[hits.shape[0]] is poly
    near = geo.nearest([[0, 30]], max_distance=50)
    # The same distance pymunk reports.
    expected = space.point_query_nearest((0, 30), 50, pymunk.ShapeFilter()).distance
    assert near.distance[0] == pytest.approx(expected, abs=1e-9)


def test_ignored_lists_what_queries_do_not_see() -> None:
    space = pymunk.Space()
    wall = box(space, (0, 0), (10, 10))
    dynamic = pymunk.Body(1, 1)
    moving = pymunk.Poly.create_box(dynamic, (5, 5))
    sensor = pymunk.Poly.create_box(space.static_body, (5, 5))
    sensor.sensor = True
    space.add(dynamic, moving, sensor)
    geo = StaticGeometry(space)
    assert geo.static_shapes == (wall,)
    assert geo.ignored == (moving, sensor)


def test_the_world_reports_its_ignored_shapes() -> None:
    engine = arcade.PymunkPhysicsEngine()
    world = steer.SteeringWorld(seed=0, space=engine.space)
    player = arcade.SpriteSolidColor(20, 20, color=arcade.color.BLUE)
    engine.add_sprite(player)
    assert world.geometry.ignored == (engine.get_physics_object(player).shape,)


def gap_to_box(sprite: StubSprite, half_width: float, half_height: float) -> float:
    """Distance from the sprite's centre to a box centred on the origin, px (0 inside)."""
    dx = max(abs(sprite.center_x) - half_width, 0.0)
    dy = max(abs(sprite.center_y) - half_height, 0.0)
    return math.hypot(dx, dy)


def seeker_through(space_setup, solid: bool = True) -> StubSprite:
    world = steer.SteeringWorld(seed=0)
    space_setup(world.space)
    sprite = StubSprite(-200, 0)
    behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek((200, 0)))
    world.attach(sprite, behavior, max_speed=200, max_force=600, solid=solid)
    for _ in range(240):
        world.update(DT)
        assert solid is False or gap_to_box(sprite, 20, 200) >= RADIUS - 1e-6
    return sprite


def test_an_agent_no_longer_walks_through_a_static_box_in_its_way() -> None:
    # The issue: a static Poly.create_box across the way; the agent went straight through.
    sprite = seeker_through(lambda space: box(space, (0, 0), (40, 400)))
    assert sprite.center_x > 100  # round the end, on to the goal


def test_feelers_alone_turn_an_agent_before_a_polygon() -> None:
    # Without the solid step only the feelers keep it out: they see the polygon too.
    world = steer.SteeringWorld(seed=0)
    box(world.space, (0, 0), (40, 40))
    sprite = StubSprite(-200, 5)
    behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek((200, 5)))
    world.attach(sprite, behavior, max_speed=120, max_force=600, solid=False)
    inside = 0
    for _ in range(400):
        world.update(DT)
        inside += abs(sprite.center_x) < 20 and abs(sprite.center_y) < 20
    assert inside == 0


def test_line_of_sight_is_blocked_by_a_polygon() -> None:
    world = steer.SteeringWorld(seed=0)
    box(world.space, (0, 0), (20, 20))
    seen = world.can_see([(-50, 0), (-50, 50)], [(50, 0), (50, 50)], length=500)
    assert seen.tolist() == [[False, True], [True, True]]


def test_the_physics_engines_static_wall_sprites_block_agents_with_no_extra_call() -> None:
    engine = arcade.PymunkPhysicsEngine()
    walls = arcade.SpriteList()
    for row in range(12):  # a 32 px column of tiles from y=-192 to 192
        tile = arcade.SpriteSolidColor(32, 32, color=arcade.color.GRAY)
        tile.position = (0, -176 + 32 * row)
        walls.append(tile)
    engine.add_sprite_list(walls, body_type=arcade.PymunkPhysicsEngine.STATIC)
    world = steer.SteeringWorld(seed=0, space=engine.space)
    sprites = [StubSprite(-150, y) for y in (-100, 0, 60)]
    for sprite in sprites:
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek((150, sprite.center_y)))
        world.attach(sprite, behavior, max_speed=300, max_force=900)
    for _ in range(180):
        world.update(DT)
        for sprite in sprites:
            assert gap_to_box(sprite, 16, 192) >= RADIUS - 1e-6
    assert any(sprite.center_x > 0 for sprite in sprites)  # round the end, not through


class Press(steer.SteeringComponent):
    """Full force along the wall and a little into it: slides an agent along a wall."""

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        return np.tile((0.98, -0.2), (len(ctx), 1)) * ctx.max_force[:, None]


def slide_speeds(build, fps: int) -> tuple[np.ndarray, np.ndarray]:
    """Speeds and heights of an agent pressed along the top of a wall at y = 16."""
    world = steer.SteeringWorld(seed=0)
    build(world.space)
    sprite = StubSprite(10, 16 + RADIUS + 1)
    world.attach(sprite, Press(), max_speed=200, max_force=800)
    speeds, heights = [], []
    for _ in range(6 * fps):
        world.update(1 / fps)
        if 200 < sprite.center_x < 1100:
            speeds.append(math.hypot(*world.agent_of(sprite).velocity))
            heights.append(sprite.center_y)
    return np.array(speeds), np.array(heights)


@pytest.mark.parametrize("fps", [30, 144])
def test_sliding_along_a_row_of_40_tile_polygons_has_no_dip_at_the_seams(fps: int) -> None:
    def tiles(space: pymunk.Space) -> None:
        for column in range(40):
            box(space, (16 + 32 * column, 0), (32, 32))

    def one_segment(space: pymunk.Space) -> None:
        space.add(pymunk.Segment(space.static_body, (0, 16), (1280, 16), 0))

    speeds, heights = slide_speeds(tiles, fps)
    reference, _ = slide_speeds(one_segment, fps)
    assert len(speeds) > 100
    assert speeds.min() >= 0.99 * reference.max()
    np.testing.assert_allclose(heights, 16 + RADIUS, atol=0.01)  # on the wall, never in it


def test_the_debug_overlay_draws_a_polygons_outline(monkeypatch: pytest.MonkeyPatch) -> None:
    world = steer.SteeringWorld(seed=0)
    box(world.space, (50, 50), (20, 10))
    drawn: list[tuple[float, float]] = []
    monkeypatch.setattr(arcade, "draw_lines", lambda points, *_: drawn.extend(points))
    world.draw_debug()
    pairs = {tuple(sorted(map(tuple, np.round(drawn[i : i + 2], 9)))) for i in (0, 2, 4, 6)}
    assert pairs == {
        ((40.0, 45.0), (60.0, 45.0)),
        ((60.0, 45.0), (60.0, 55.0)),
        ((40.0, 55.0), (60.0, 55.0)),
        ((40.0, 45.0), (40.0, 55.0)),
    }
