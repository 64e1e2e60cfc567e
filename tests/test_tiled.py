"""The Tiled level reader: the demo level, coordinates, and bad maps with clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from levels import HEIGHT
from levels import tiled_object as _object
from levels import write_map as _write_map

import arcade_steering as steer
from arcade_steering.tiled import LevelError, load_level

DEMO_LEVEL = Path(__file__).parent.parent / "arcade_steering" / "demo" / "level.tmj"


def test_demo_level_loads_with_walls_obstacles_route_and_spawns() -> None:
    world = steer.SteeringWorld()
    level = load_level(DEMO_LEVEL, world)
    assert (level.width, level.height) == (1280.0, 720.0)
    assert len(level.walls) == 14 and len(level.obstacles) == 6
    assert len(world.geometry) == 20
    patrol = level.paths["patrol"]
    assert patrol.closed and patrol.radius == 24.0
    assert level.spawns["leader"] == [(200.0, 150.0)]
    assert len(level.spawns["flag"]) == 8
    border = level.walls[0]
    assert (tuple(border.a), tuple(border.b), border.radius) == ((8, 8), (1272, 8), 3.0)


def test_y_axis_is_flipped_and_shapes_converted(tmp_path: Path) -> None:
    path = _write_map(
        tmp_path,
        {
            "walls": [
                _object(
                    x=10,
                    y=20,
                    polyline=[{"x": 0, "y": 0}, {"x": 30, "y": 0}],
                    properties=[{"name": "thickness", "type": "float", "value": 4}],
                ),
                _object(id=2, x=100, y=40, width=20, height=10),
            ],
            "obstacles": [_object("ellipse", id=3, x=50, y=60, width=20, height=20)],
            "paths": [
                _object(
                    id=4,
                    name="loop",
                    x=0,
                    y=0,
                    polygon=[{"x": 10, "y": 10}, {"x": 90, "y": 10}, {"x": 90, "y": 90}],
                )
            ],
            "spawns": [
                _object("point", id=5, name="flag", x=5, y=150),
                _object("point", id=6, name="flag", x=7, y=140),
            ],
        },
    )
    world = steer.SteeringWorld()
    level = load_level(path, world)
    wall = level.walls[0]
    assert (tuple(wall.a), tuple(wall.b), wall.radius) == ((10, HEIGHT - 20), (40, HEIGHT - 20), 2)
    rectangle = [tuple(segment.a) for segment in level.walls[1:]]
    assert rectangle == [(100, 120), (120, 120), (120, 110), (100, 110)]
    (circle,) = level.obstacles
    assert (tuple(circle.offset), circle.radius) == ((60, HEIGHT - 70), 10)
    assert level.paths["loop"].closed
    assert level.paths["loop"].points.tolist() == [[10, 150], [90, 150], [90, 70]]
    assert level.spawns == {"flag": [(5.0, 10.0), (7.0, 20.0)]}


def test_rotated_rectangle_turns_clockwise_on_screen(tmp_path: Path) -> None:
    path = _write_map(tmp_path, {"walls": [_object(x=50, y=50, width=20, height=10, rotation=90)]})
    level = load_level(path, steer.SteeringWorld(), required=("walls",))
    corners = [tuple(round(c, 6) for c in segment.a) for segment in level.walls]
    # Tiled rotates about the top-left corner, clockwise on its y-down screen.
    assert corners == [(50, 110), (50, 90), (40, 90), (40, 110)]


@pytest.mark.parametrize(
    ("layers", "message"),
    [
        ({"walls": []}, "layer 'obstacles': missing"),
        (
            {"walls": [_object("point", name="p")], "obstacles": [], "paths": [], "spawns": []},
            "layer 'walls', object 1 'p': must be a polyline",
        ),
        (
            {
                "walls": [],
                "obstacles": [_object("ellipse", x=0, y=0, width=20, height=10)],
                "paths": [],
                "spawns": [],
            },
            "layer 'obstacles', object 1: ellipse 20x10 is not a circle",
        ),
        (
            {
                "walls": [],
                "obstacles": [],
                "spawns": [],
                "paths": [_object(polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 0}])],
            },
            "layer 'paths', object 1: needs a name",
        ),
        (
            {
                "walls": [],
                "obstacles": [],
                "spawns": [],
                "paths": [
                    _object(name="a", polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 0}]),
                    _object(id=2, name="a", polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 0}]),
                ],
            },
            "layer 'paths', object 2 'a': a path named 'a' exists",
        ),
        (
            {
                "walls": [
                    _object(
                        polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 0}],
                        properties=[{"name": "thickness", "type": "float", "value": -2}],
                    )
                ],
                "obstacles": [],
                "paths": [],
                "spawns": [],
            },
            "layer 'walls', object 1: property 'thickness' must be >= 0",
        ),
        (
            {
                "walls": [],
                "obstacles": [],
                "paths": [],
                "spawns": [_object(name="x", width=5, height=5)],
            },
            "layer 'spawns', object 1 'x': must be a point",
        ),
    ],
)
def test_bad_maps_name_layer_and_object_and_leave_the_world_alone(
    tmp_path: Path, layers: dict, message: str
) -> None:
    world = steer.SteeringWorld()
    world.add_wall((0, 0), (10, 0))
    with pytest.raises(LevelError, match=message.replace("(", r"\(")):
        load_level(_write_map(tmp_path, layers), world)
    assert len(world.geometry) == 1
    assert len(world.space.shapes) == 1


def test_a_tile_layer_named_like_a_steering_layer_is_refused(tmp_path: Path) -> None:
    tiles = {
        "id": 8,
        "name": "walls",
        "type": "tilelayer",
        "width": 20,
        "height": 10,
        "data": [0] * 200,
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
    }
    path = _write_map(tmp_path, {}, extra_layers=[tiles])
    with pytest.raises(LevelError, match="layer 'walls': must be an object layer"):
        load_level(path, steer.SteeringWorld())


def test_wrong_argument_types() -> None:
    with pytest.raises(TypeError, match="world"):
        load_level(DEMO_LEVEL, object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="source"):
        load_level(42, steer.SteeringWorld())  # type: ignore[arg-type]
