"""world.add_wall_sprites: walls round the union of wall sprites' hit boxes, merged, that follow
the sprites out of their lists, and what it costs."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60
TILE = 32
RADIUS = StubSprite(0, 0).width / 2


def wall_tiles(cells, size: int = TILE) -> arcade.SpriteList:
    """A sprite list of ``size`` px square tiles whose lower-left corners are at ``cells``
    times ``size``."""
    tiles = arcade.SpriteList()
    for column, row in cells:
        tile = arcade.SpriteSolidColor(size, size, color=arcade.color.GRAY)
        tile.position = ((column + 0.5) * size, (row + 0.5) * size)
        tiles.append(tile)
    return tiles


def segments(walls: steer.SpriteWalls) -> set[tuple[float, ...]]:
    return {(*s.a, *s.b) for s in walls.shapes}


def test_a_row_of_40_tiles_is_four_walls_and_no_seam() -> None:
    world = steer.SteeringWorld(seed=0)
    walls = world.add_wall_sprites(wall_tiles([(i, 0) for i in range(40)]))
    assert len(walls) == 40
    # 40 tiles x 32 px = 1,280 px, cut once where it crosses a 512 px chunk border.
    assert len(walls.shapes) <= 8
    lengths = [math.dist(s.a, s.b) for s in walls.shapes]
    assert sum(lengths) == pytest.approx(2 * 1280 + 2 * 32)
    assert all(s.a[0] in (0, 1280) or s.a[1] in (0, 32) for s in walls.shapes)
    assert world.geometry.static_shapes == tuple(world.space.shapes)


def test_walls_from_sprites_block_agents_and_keep_their_speed_along_the_seams() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall_sprites(wall_tiles([(i, -1) for i in range(40)]))  # top at y = 0

    class Press(steer.SteeringComponent):
        def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
            return np.tile((0.98, -0.2), (len(ctx), 1)) * ctx.max_force[:, None]

    sprite = StubSprite(10, RADIUS + 1)
    world.attach(sprite, Press(), max_speed=200, max_force=800)
    speeds = []
    for _ in range(400):
        world.update(DT)
        assert sprite.center_x > 1280 or sprite.center_y >= RADIUS - 1e-3
        if 200 < sprite.center_x < 1100:
            speeds.append(math.hypot(*world.agent_of(sprite).velocity))
    assert len(speeds) > 100 and min(speeds) >= 0.99 * max(speeds)


def test_a_sprite_removed_from_its_lists_takes_its_walls_at_the_next_update() -> None:
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(0, row) for row in range(-5, 5)])  # a wall x in [0, 32], y in +-160
    walls = world.add_wall_sprites(tiles)
    sprite = StubSprite(-100, 16)
    world.attach(sprite, steer.Seek((200, 16)), max_speed=200, max_force=2000)
    for _ in range(60):
        world.update(DT)
    assert sprite.center_x == pytest.approx(-RADIUS, abs=0.01)
    door = tiles[5]  # the tile from y = 0 to 32, in front of the agent
    door.remove_from_sprite_lists()
    world.update(DT)
    assert len(walls) == 9
    assert sprite.center_x > -RADIUS + 0.1  # through the gap from the very next update
    assert world.agent_of(sprite).velocity[0] > 0
    for _ in range(60):
        world.update(DT)
    assert sprite.center_x > 100
    # The rest of the wall stands: two walls of 5 and 4 tiles.
    perimeters = 2 * (32 + 160) + 2 * (32 + 128)
    assert sum(math.dist(s.a, s.b) for s in walls.shapes) == pytest.approx(perimeters)


def test_1000_tiles_become_a_few_walls_and_each_removed_tile_rebuilds_one_chunk() -> None:
    # The time budgets (outline, one removal) are checked by benchmarks/wall_sources.py --check.
    cells = [(column, row) for column in range(40) for row in range(25)]  # 1,000 tiles
    tiles = wall_tiles(cells)
    world = steer.SteeringWorld(seed=0)
    walls = world.add_wall_sprites(tiles)
    assert len(walls.shapes) <= 4 * 9  # a 1280 x 800 block cut into 512 px chunks
    rng = np.random.default_rng(1)
    chosen = [tiles[i] for i in rng.choice(len(tiles), 50, replace=False)]
    for tile in chosen:
        tile.remove_from_sprite_lists()
        assert walls.refresh() == 1
    # Each hole is now open: a point in its middle is inside a hollow ring of walls.
    world.update(DT)
    for tile in chosen:
        near = world.geometry.nearest([tile.position], max_distance=TILE)
        assert near.distance[0] == pytest.approx(TILE / 2, abs=1e-9) or near.distance[0] < TILE / 2


def test_a_rotated_sprite_is_walled_round_its_own_outline() -> None:
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(0, 0), (1, 0)])
    tiles[1].angle = 45
    walls = world.add_wall_sprites(tiles)
    square = [s for s in walls.shapes if s.a[0] in (0, 32) and s.b[0] in (0, 32)]
    assert len(walls.shapes) == 4 + len(tiles[1].hit_box.get_adjusted_points())
    assert len(square) >= 2
    corners = {tuple(np.round(p, 6)) for p in tiles[1].hit_box.get_adjusted_points()}
    assert corners <= {tuple(np.round(s.a, 6)) for s in walls.shapes}


def test_remove_wall_sprites_takes_them_all_out_for_good() -> None:
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(0, 0), (1, 0)])
    walls = world.add_wall_sprites(tiles, thickness=4)
    assert {s.radius for s in walls.shapes} == {2.0}
    world.remove_wall_sprites(walls)
    assert list(world.space.shapes) == [] and walls.shapes == []
    world.update(DT)
    assert len(world.geometry) == 0
    with pytest.raises(ValueError, match="not added by this world"):
        world.remove_wall_sprites(walls)


def test_rebuild_follows_moved_sprites() -> None:
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(0, 0)])
    walls = world.add_wall_sprites(tiles)
    tiles[0].position = (116, 16)
    walls.rebuild()
    assert segments(walls) == {
        (100.0, 0.0, 132.0, 0.0),
        (100.0, 32.0, 132.0, 32.0),
        (100.0, 0.0, 100.0, 32.0),
        (132.0, 0.0, 132.0, 32.0),
    }


@pytest.mark.parametrize(
    ("sprites", "thickness", "error", "message"),
    [
        ([StubSprite(0, 0)], 0.0, TypeError, "sprites must be arcade sprites with a hit_box"),
        (5, 0.0, TypeError, "sprites must be an iterable"),
        ([], -1.0, ValueError, "thickness"),
        ([], "thick", TypeError, "thickness"),
    ],
)
def test_bad_input_adds_nothing(sprites, thickness, error, message) -> None:
    world = steer.SteeringWorld(seed=0)
    good = wall_tiles([(0, 0)])
    with pytest.raises(error, match=message):
        world.add_wall_sprites([*good, *sprites] if sprites != 5 else sprites, thickness)
    assert list(world.space.shapes) == []
    world.update(DT)


def test_a_sprite_put_back_in_a_list_gets_its_walls_back() -> None:
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(i, 0) for i in range(5)])
    walls = world.add_wall_sprites(tiles)
    whole = segments(walls)
    middle = tiles[2]
    middle.remove_from_sprite_lists()
    world.update(DT)
    assert len(walls) == 4 and len(walls.shapes) == 8
    tiles.append(middle)
    world.update(DT)
    assert len(walls) == 5 and segments(walls) == whole


def test_restoring_a_snapshot_builds_the_walls_of_the_sprites_standing() -> None:
    # Before: the restored space held walls the SpriteWalls had already replaced, and the next
    # knocked-down tile made pymunk fail to remove walls that were no longer in the space.
    world = steer.SteeringWorld(seed=0)
    tiles = wall_tiles([(i, 0) for i in range(10)])
    walls = world.add_wall_sprites(tiles)
    world.update(DT)
    snapshot = world.snapshot()
    knocked = tiles[3]
    knocked.remove_from_sprite_lists()
    world.update(DT)
    tiles.append(knocked)  # the game puts its sprites back, then the world
    world.restore(snapshot)
    assert set(world.space.shapes) == set(walls.shapes) and len(walls.shapes) == 4
    tiles[6].remove_from_sprite_lists()
    world.update(DT)
    assert set(world.space.shapes) == set(walls.shapes) and len(walls.shapes) == 8
    assert world.geometry.static_shapes == tuple(world.space.shapes)
