"""load_level(wall_layers=...): the tiles of a tile layer, named or marked with a ``walls``
property, are walls, merged into their outline, and agents steer round them."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from levels import HEIGHT, tile_layer, tileset_data, write_map, write_png

import arcade_steering as steer
from arcade_steering.testing import StubSprite
from arcade_steering.tiled import LevelError, load_level

TILE = 16


def wall_map(folder: Path, cells: list[tuple[int, int]], **layer_fields) -> Path:
    """A 20 x 10 map whose tile layer "Walls" has a tile at each ``(column, row)`` (Tiled's
    rows, from the top)."""
    data = [0] * 200
    for column, row in cells:
        data[row * 20 + column] = 1
    write_png(folder / "tiles.png")
    layer = tile_layer(data, **{"name": "Walls", **layer_fields})
    return write_map(
        folder, {}, extra_layers=[layer], tilesets=[tileset_data("tiles.png", firstgid=1)]
    )


def test_a_named_tile_layer_becomes_its_merged_outline(tmp_path: Path) -> None:
    row = [(column, 4) for column in range(2, 18)]  # 16 tiles from x = 32 to 288
    world = steer.SteeringWorld(seed=0)
    level = load_level(wall_map(tmp_path, row), world, required=(), wall_layers=("Walls",))
    walls = level.tile_walls["Walls"]
    assert len(walls) == 16
    assert len(walls.shapes) == 4
    top, bottom = HEIGHT - 4 * TILE, HEIGHT - 5 * TILE  # Tiled's y points down
    assert {(*s.a, *s.b) for s in walls.shapes} == {
        (32.0, bottom, 288.0, bottom),
        (32.0, top, 288.0, top),
        (32.0, bottom, 32.0, top),
        (288.0, bottom, 288.0, top),
    }


def test_a_walls_property_marks_a_tile_layer_and_agents_steer_round_it(tmp_path: Path) -> None:
    column = [(10, row) for row in range(0, 8)]  # x from 160 to 176, y from 32 to the top
    world = steer.SteeringWorld(seed=0)
    path = wall_map(tmp_path, column, properties=[{"name": "walls", "type": "bool", "value": True}])
    level = load_level(path, world, required=())
    assert len(level.tile_walls["Walls"].shapes) == 4
    sprite = StubSprite(40, 120)
    radius = sprite.width / 2
    behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek((280, 120)))
    world.attach(sprite, behavior, max_speed=150, max_force=600)
    for _ in range(600):
        world.update(1 / 60)
        dx = max(abs(sprite.center_x - 168) - 8, 0.0)
        dy = max(32 - sprite.center_y, sprite.center_y - HEIGHT, 0.0)
        assert math.hypot(dx, dy) >= radius - 1e-6
    assert sprite.center_x > 200  # round an end of the wall


def test_removing_a_tile_from_the_layer_opens_the_wall(tmp_path: Path) -> None:
    row = [(column, 4) for column in range(2, 18)]
    world = steer.SteeringWorld(seed=0)
    level = load_level(wall_map(tmp_path, row), world, required=(), wall_layers=("Walls",))
    tiles = level.tilemap.sprite_lists["Walls"]
    middle = min(tiles, key=lambda tile: abs(tile.center_x - 160))
    middle.remove_from_sprite_lists()
    world.update(1 / 60)
    assert len(level.tile_walls["Walls"].shapes) == 8  # two walls of 7 and 8 tiles


@pytest.mark.parametrize(
    ("names", "fields", "message"),
    [
        (("Nope",), {}, "layer 'Nope': named in wall_layers, missing from the map"),
        (
            (),
            {"properties": [{"name": "walls", "type": "string", "value": "yes"}]},
            "layer 'Walls': property 'walls' must be a bool, got str",
        ),
    ],
)
def test_bad_wall_layers_are_refused_and_leave_the_world_alone(
    tmp_path: Path, names: tuple[str, ...], fields: dict, message: str
) -> None:
    world = steer.SteeringWorld(seed=0)
    with pytest.raises(LevelError, match=message):
        load_level(wall_map(tmp_path, [(0, 0)], **fields), world, required=(), wall_layers=names)
    assert list(world.space.shapes) == []
    world.update(1 / 60)


def test_an_object_layer_cannot_be_a_wall_tile_layer(tmp_path: Path) -> None:
    path = write_map(tmp_path, {"walls": []})
    with pytest.raises(LevelError, match="layer 'walls': walls from tiles need a tile layer"):
        load_level(path, steer.SteeringWorld(), required=(), wall_layers=("walls",))


def test_wall_layers_must_be_a_tuple_of_names(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="wall_layers must be a tuple of layer names"):
        load_level(wall_map(tmp_path, []), steer.SteeringWorld(), wall_layers="Walls")
