"""Level files from players and modders: files outside the map's folder, devices, data bombs,
malformed maps and limits all raise ``LevelError`` naming the file, layer and object, and
leave the world exactly as it was."""

from __future__ import annotations

import base64
import gzip
import json
import os
import subprocess
import sys
import textwrap
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import arcade
import pytest
from levels import (
    WALL,
    map_data,
    object_layer,
    tile_layer,
    tiled_object,
    tileset_data,
    write_map,
    write_png,
)

import arcade_steering as steer
from arcade_steering.tiled import LevelError, LevelLimits, load_level

WALLS_ONLY = ("walls",)

#: Paths opened while :func:`_opened` records (an audit hook cannot be removed, so it stays
#: installed from the first use on, and records only inside the context manager).
_recording: list[str] | None = None
_hooked = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _recording is not None and isinstance(args[0], (str, Path)):
        _recording.append(os.path.realpath(args[0]))


@contextmanager
def _opened() -> Iterator[list[str]]:
    """``with _opened() as paths:`` lists the files opened inside."""
    global _recording, _hooked
    if not _hooked:
        sys.addaudithook(_audit)
        _hooked = True
    _recording = []
    try:
        yield _recording
    finally:
        _recording = None


@pytest.fixture
def world() -> steer.SteeringWorld:
    """A world with one wall already, to see that a failed load leaves it alone."""
    world = steer.SteeringWorld()
    world.add_wall((0, 0), (10, 0))
    return world


def _refuses(path: Path, world: steer.SteeringWorld, match: str, **kwargs: Any) -> str:
    """Load ``path``, expect a LevelError matching ``match``; the world must be unchanged."""
    before = list(world.space.shapes)
    with pytest.raises(LevelError, match=match) as caught:
        load_level(path, world, required=WALLS_ONLY, **kwargs)
    assert world.space.shapes == before
    return str(caught.value)


def _with_tileset(folder: Path, tileset: dict, gid: int = 1) -> Path:
    """A map with a tile layer drawing tile ``gid`` of ``tileset`` and one wall."""
    return write_map(
        folder,
        {"walls": [WALL]},
        extra_layers=[tile_layer([gid] + [0] * 199)],
        tilesets=[tileset],
    )


# -- files outside the map's folder ----------------------------------------------------------


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    """``tmp_path/mods/one``: a mod's folder; ``tmp_path/secret.*`` lie outside it."""
    write_png(tmp_path / "secret.png")
    (tmp_path / "secret.tsj").write_text(json.dumps(tileset_data("secret.png")))
    (tmp_path / "secret.tj").write_text(json.dumps({"type": "template", "object": WALL}))
    folder = tmp_path / "mods" / "one"
    folder.mkdir(parents=True)
    return folder


@pytest.mark.parametrize(
    "reference",
    [
        "../../secret.tsj",
        "{tmp}/secret.tsj",
        "link.tsj",  # a symbolic link inside the folder, to the file outside
        "file://{tmp}/secret.tsj",
        "https://example.com/secret.tsj",
    ],
)
def test_a_tileset_outside_the_folder_is_refused_unopened(
    mod: Path, world: steer.SteeringWorld, reference: str
) -> None:
    tmp = mod.parent.parent
    (mod / "link.tsj").symlink_to(tmp / "secret.tsj")
    reference = reference.format(tmp=tmp)
    path = _with_tileset(mod, {"firstgid": 1, "source": reference})
    with _opened() as opened:
        message = _refuses(path, world, "outside|URL")
    # The message names the file and the tileset; a long reference is shortened in it.
    assert message.startswith(f"{path}: tileset 1: tileset '")
    assert not any("secret" in name for name in opened)


def test_an_image_or_template_outside_the_folder_is_refused(
    mod: Path, world: steer.SteeringWorld
) -> None:
    path = _with_tileset(mod, tileset_data("../../secret.png", firstgid=1))
    _refuses(path, world, "tileset 1: image '../../secret.png' is outside")
    used = tiled_object(id=7, name="door", template="../../secret.tj", x=5, y=5)
    path = write_map(mod, {"walls": [used]})
    _refuses(path, world, r"layer 'walls', object 7 'door': template '../../secret.tj' is outside")


def test_a_wider_root_allows_files_in_it(mod: Path) -> None:
    tmp = mod.parent.parent
    path = _with_tileset(mod, {"firstgid": 1, "source": "../../secret.tsj"})
    level = load_level(path, steer.SteeringWorld(), required=WALLS_ONLY, root=tmp)
    assert len(level.tilemap.sprite_lists["ground"]) == 1
    assert len(level.walls) == 1


def test_an_embedded_tilesets_image_is_read_from_the_maps_folder_not_the_current_one(
    mod: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # arcade looks for a relative image in the current folder first.
    write_png(mod / "tiles.png", (64, 16))
    write_png(mod.parent / "tiles.png", (128, 128))
    monkeypatch.chdir(mod.parent)
    path = _with_tileset(mod, tileset_data("tiles.png", firstgid=1))
    with _opened() as opened:
        level = load_level(path, steer.SteeringWorld(), required=WALLS_ONLY)
    assert str(mod / "tiles.png") in opened
    assert str(mod.parent / "tiles.png") not in opened
    assert len(level.tilemap.sprite_lists["ground"]) == 1


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_devices_and_fifos_are_refused_without_reading(
    tmp_path: Path, world: steer.SteeringWorld, device: str
) -> None:
    os.mkfifo(tmp_path / "pipe.tsj")  # opening a FIFO to read would wait for a writer
    for reference in (device, "pipe.tsj"):
        path = _with_tileset(tmp_path, {"firstgid": 1, "source": reference})
        _refuses(path, world, "is not a regular file", root="/")
    path = _with_tileset(tmp_path, tileset_data(device, firstgid=1))
    _refuses(path, world, f"tileset 1: image '{device}': is not a regular file", root="/")


def test_dev_zero_tileset_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    # Before: pytiled_parser read /dev/zero's first line (all of it) until memory ran out.
    # Run in a child with 2 GiB of address space, so that a regression fails, not the machine.
    path = _with_tileset(tmp_path, {"firstgid": 1, "source": "/dev/zero"})
    script = textwrap.dedent(
        f"""
        import resource, sys
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        import arcade_steering as steer
        from arcade_steering.tiled import LevelError, load_level
        for options in ({{}}, {{"root": "/"}}):
            try:
                load_level({str(path)!r}, steer.SteeringWorld(), required=("walls",), **options)
            except LevelError as error:
                print("LevelError:", error)
        """
    )
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,  # import arcade_steering as this process does, not from the folder
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.count("LevelError:") == 2, result.stdout


def test_a_map_naming_itself_as_its_tileset_is_refused(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    path = _with_tileset(tmp_path, {"firstgid": 1, "source": "map.tmj"})
    _refuses(path, world, "tileset: is a map, not a tileset")


def test_a_template_using_a_template_is_refused(tmp_path: Path, world: steer.SteeringWorld) -> None:
    inner = {"type": "template", "object": WALL}
    (tmp_path / "inner.tj").write_text(json.dumps(inner))
    outer = {"type": "template", "object": {**WALL, "template": "outer.tj"}}
    (tmp_path / "outer.tj").write_text(json.dumps(outer))
    path = write_map(tmp_path, {"walls": [tiled_object(id=3, template="outer.tj")]})
    _refuses(path, world, "template used by layer 'walls', object 3: a template cannot use")


# -- the world is unchanged -------------------------------------------------------------------


def test_a_map_failing_after_its_first_walls_adds_nothing(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    # Before: the first wall was added, then the second raised a ValueError.
    same = tiled_object(id=2, name="dot", polyline=[{"x": 5, "y": 5}, {"x": 5, "y": 5}])
    obstacle = tiled_object("ellipse", id=3, width=10, height=4)
    for layers in ({"walls": [WALL, same]}, {"walls": [WALL], "obstacles": [obstacle]}):
        path = write_map(tmp_path, layers)
        _refuses(path, world, r"layer '(walls|obstacles)', object [23]")


# -- values: type, finiteness, range ----------------------------------------------------------


def _spawn(**fields: Any) -> dict:
    return tiled_object("point", id=4, name="flag", **fields)


@pytest.mark.parametrize(
    ("objects", "message"),
    [
        ({"spawns": [_spawn(x=3, y=float("nan"))]}, r"'spawns', object 4 'flag': .*'y'"),
        ({"spawns": [_spawn(x=float("inf"))]}, r"'spawns', object 4 'flag': .*'x'"),
        ({"spawns": [_spawn(x=1e300)]}, r"object 4 'flag': 'x' is 1e\+300"),
        ({"spawns": [_spawn(x=10**80)]}, r"object 4 'flag': 'x' is 1000"),
        ({"spawns": [_spawn(x=10**2000)]}, r"map.tmj: has a number of more than 1000 digits"),
        # Too large for a float, short enough to read: refused by name, not an OverflowError.
        ({"spawns": [_spawn(x=10**400)]}, r"object 4 'flag': 'x' is 1000"),
        ({"walls": [{**WALL, "id": 6, "rotation": -(10**400)}]}, r"object 6: 'rotation' is -1000"),
        (
            {"walls": [tiled_object(id=6, polyline=[{"x": 0, "y": 0}, {"x": 10**400, "y": 0}])]},
            r"'walls', object 6: polyline point \(1000",
        ),
        (
            {
                "walls": [
                    {
                        **WALL,
                        "id": 6,
                        "properties": [{"name": "n", "type": "int", "value": 10**400}],
                    }
                ]
            },
            r"'walls', object 6: property 'n' must be finite",
        ),
        ({"spawns": [_spawn(x="12")]}, r"object 4 'flag': 'x' must be a number, got a string"),
        ({"spawns": [_spawn(x=[1])]}, r"'x' must be a number, got a list"),
        (
            {
                "paths": [
                    tiled_object(
                        id=5,
                        name="loop",
                        polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 0}, {"x": 9, "y": 9}],
                        properties=[{"name": "closed", "type": "string", "value": "false"}],
                    )
                ]
            },
            r"'paths', object 5 'loop': property 'closed' must be a bool.*'false'",
        ),
        (
            {
                "walls": [
                    tiled_object(
                        id=6,
                        polyline=[{"x": 0, "y": 0}, {"x": 9, "y": float("nan")}],
                    )
                ]
            },
            r"'walls', object 6: polyline point \(9, nan\) is not finite",
        ),
        (
            {"walls": [tiled_object(id=6, polyline=[{"x": 0, "y": 0}, [9, 9]])]},
            r"'walls', object 6: 'polyline' must hold \{x, y\} objects, got a list",
        ),
        (
            {"walls": [tiled_object(id=6, polyline=[{"x": 0}])]},
            r"'walls', object 6: 'polyline' has a point without 'x' and 'y'",
        ),
        (
            {
                "walls": [
                    {**WALL, "id": 6, "properties": [{"name": "n", "type": "int", "value": 1e400}]}
                ]
            },
            r"'walls', object 6: property 'n' must be finite",
        ),
        (
            {
                "walls": [
                    {
                        **WALL,
                        "id": 6,
                        "properties": [{"name": "thickness", "type": "string", "value": "big"}],
                    },
                ]
            },
            r"'walls', object 6: property 'thickness' must be a number, got str",
        ),
        (
            {"walls": [{k: v for k, v in WALL.items() if k != "x"}]},
            r"'walls', object 1: needs 'x'",
        ),
        ({"walls": [{**WALL, "id": "one"}]}, r"layer 'walls': 'id' must be a number"),
    ],
)
def test_bad_values_name_file_layer_and_object(
    tmp_path: Path, world: steer.SteeringWorld, objects: dict, message: str
) -> None:
    path = write_map(tmp_path, {"walls": [], **objects})
    text = _refuses(path, world, message)
    assert text.startswith(f"{path}: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty first line"),
        ("\n{}", "empty first line"),
        ("{", "is not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"width": 1' + "0" * 5000 + "}", "has a number of more than 1000 digits"),
        ("[]", "must be a JSON object, got a list"),
        ('<?xml version="1.0" encoding="UTF-o8"?>\n<map/>', "is not valid XML: unknown encoding"),
        ("<map><layer>", "is not valid XML: no element found"),
        (b"\xff\xfe{}", "is not UTF-8"),
        ('{"type": "tileset"}', "is a tileset, not a map"),
        (json.dumps({**map_data({}), "infinite": True}), "infinite map"),
        (json.dumps({**map_data({}), "width": 0}), "'width' is 0, not from 1"),
        (json.dumps({**map_data({}), "width": 10**6, "height": 10**6}), "LevelLimits.tiles"),
        (
            json.dumps(map_data({}, [tile_layer([0] * 200, width=20, height=10)] * 3)),
            "layer 'ground': more than 500 tile layer cells",
        ),
        (json.dumps({**map_data({}), "layers": {"a": 1}}), "'layers' must be a list"),
        (json.dumps({**map_data({}), "layers": [{"type": "x"}]}), "layer type 'x' is none"),
        (
            json.dumps({k: v for k, v in map_data({}).items() if k != "orientation"}),
            "map: needs 'orientation'",
        ),
    ],
)
def test_malformed_files_raise_level_error_naming_the_file(
    tmp_path: Path, world: steer.SteeringWorld, text: str | bytes, message: str
) -> None:
    # Before: IndexError, KeyError, RecursionError, ValueError, AttributeError, ...
    path = tmp_path / "map.tmj"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    limits = LevelLimits(tiles=500)  # a 20 x 10 map's 200 cells, and two layers of them
    assert _refuses(path, world, message, limits=limits).startswith(f"{path}: ")


def test_a_missing_map_is_a_level_error(tmp_path: Path, world: steer.SteeringWorld) -> None:
    _refuses(tmp_path / "nowhere.tmj", world, "nowhere.tmj: cannot be read")


def test_a_tile_layer_of_wrong_size_or_ids_is_refused(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    tileset = tileset_data("tiles.png", firstgid=1)
    write_png(tmp_path / "tiles.png")
    for data, message in (
        ([1] * 199, "layer 'ground': has 199 tile ids for 20 x 10 cells"),
        ([1.5] + [0] * 199, "layer 'ground': tile id 1.5 is not a whole number"),
        ([-1] + [0] * 199, "tile id -1"),
        ([2**40] + [0] * 199, "tile id 1099511627776"),
    ):
        path = write_map(tmp_path, {"walls": [WALL]}, [tile_layer(data)], [tileset])
        _refuses(path, world, message)


# -- data bombs and limits --------------------------------------------------------------------


@pytest.mark.parametrize("compression", ["zlib", "gzip"])
def test_compressed_tile_data_bombs_are_refused_quickly(
    tmp_path: Path, world: steer.SteeringWorld, compression: str
) -> None:
    # 200 cells need 800 bytes; these unpack to 64 MiB (64 KiB compressed).
    pack = zlib.compress if compression == "zlib" else gzip.compress
    bomb = pack(bytes(64 << 20))
    # gzip allows several members: a valid first member, then the bomb.
    if compression == "gzip":
        bomb = gzip.compress(bytes(800)) + bomb
    encoded = base64.b64encode(bomb).decode()
    layer = tile_layer(encoded, encoding="base64", compression=compression)
    path = write_map(tmp_path, {"walls": [WALL]}, [layer])
    _refuses(path, world, f"layer 'ground': {compression} tile data does not end after 800 bytes")


def test_good_compressed_tile_data_loads(tmp_path: Path) -> None:
    write_png(tmp_path / "tiles.png")
    cells = bytes(4 * 200)
    for compression, pack in (("zlib", zlib.compress), ("gzip", gzip.compress), ("", bytes)):
        layer = tile_layer(
            base64.b64encode(pack(cells)).decode(), encoding="base64", compression=compression
        )
        tileset = tileset_data("tiles.png", firstgid=1)
        path = write_map(tmp_path, {"walls": [WALL]}, [layer], [tileset])
        load_level(path, steer.SteeringWorld(), required=WALLS_ONLY)


@pytest.mark.parametrize(
    "xml",
    [
        # billion laughs: entities of entities
        '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa">'
        + "".join(
            f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
            for p, c in zip("abcdefgh", "bcdefghi", strict=True)
        )
        + ']>\n<map name="&i;"/>',
        # an external entity
        '<?xml version="1.0"?>\n<!DOCTYPE map [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
        "<map>&x;</map>",
    ],
    ids=["billion-laughs", "external-entity"],
)
def test_xml_with_a_dtd_is_refused(tmp_path: Path, world: steer.SteeringWorld, xml: str) -> None:
    path = tmp_path / "map.tmx"
    path.write_text(xml)
    _refuses(path, world, "DOCTYPE or ENTITY")


def _group(depth: int) -> dict:
    layer = object_layer("walls", [WALL])
    for level in range(depth):
        layer = {"id": 20 + level, "name": f"g{level}", "type": "group", "opacity": 1,
                 "visible": True, "layers": [layer]}  # fmt: skip
    return layer


def test_deeply_nested_groups_are_refused(tmp_path: Path, world: steer.SteeringWorld) -> None:
    path = write_map(tmp_path, {}, [_group(17)])
    _refuses(path, world, "groups nest more than 16 deep")
    level = load_level(write_map(tmp_path, {}, [_group(16)]), world, required=WALLS_ONLY)
    assert len(level.walls) == 1


@pytest.mark.parametrize(
    ("limits", "message"),
    [
        (LevelLimits(points=2), r"object 1: a polyline of 3 points, more than 2"),
        (LevelLimits(objects=1), r"layer 'walls': more than 1 objects"),
        (LevelLimits(file_bytes=100), r"map.tmj: has \d+ bytes, more than 100"),
        (LevelLimits(coordinate=20), r"object 1: polyline point \(30, 0\) is not finite"),
        (LevelLimits(layers=1), r"more than 1 layers"),
        (LevelLimits(walls=2), r"layer 'walls': 3 wall segments, more than 2"),
        (LevelLimits(properties=1), r"has 2 properties, more than 1"),
    ],
)
def test_limits_refuse_and_can_be_raised(
    tmp_path: Path, world: steer.SteeringWorld, limits: LevelLimits, message: str
) -> None:
    wall = {
        **WALL,
        "polyline": [{"x": 0, "y": 0}, {"x": 30, "y": 0}, {"x": 30, "y": 9}],
        "properties": [
            {"name": "thickness", "type": "float", "value": 2},
            {"name": "note", "type": "string", "value": "outer"},
        ],
    }
    path = write_map(tmp_path, {"walls": [wall, {**WALL, "id": 2}], "spawns": []})
    message = _refuses(path, world, message, limits=limits)
    assert "LevelLimits." in message
    level = load_level(path, world, required=WALLS_ONLY)
    assert len(level.walls) == 3


def test_images_are_capped_in_pixels(tmp_path: Path, world: steer.SteeringWorld) -> None:
    write_png(tmp_path / "tiles.png", (64, 16))
    path = _with_tileset(tmp_path, tileset_data("tiles.png", firstgid=1))
    _refuses(path, world, "more than 1,000 image pixels", limits=LevelLimits(image_pixels=1000))
    (tmp_path / "tiles.png").write_bytes(b"GIF89a not really")
    _refuses(path, world, "image 'tiles.png' is not a PNG, JPEG")


def test_a_template_used_many_times_counts_every_read(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    # pytiled_parser reads a template again for every object using it.
    polyline = [{"x": i, "y": i % 2} for i in range(1000)]
    template = {"type": "template", "object": {**WALL, "polyline": polyline}}
    (tmp_path / "long.tj").write_text(json.dumps(template))
    uses = [tiled_object(id=i, template="long.tj") for i in range(1, 1002)]
    path = write_map(tmp_path, {"walls": uses})
    _refuses(
        path, world, r"template used by layer 'walls', object 1001: more than 1,000,000 points"
    )


@pytest.mark.parametrize("limit", ["points", "coordinate", "files"])
@pytest.mark.parametrize("value", [0, -1, "10", True, float("nan")])
def test_limits_are_checked(limit: str, value: Any) -> None:
    with pytest.raises((TypeError, ValueError), match=f"LevelLimits.{limit}"):
        LevelLimits(**{limit: value})
    if limit != "coordinate":
        with pytest.raises(TypeError, match=f"LevelLimits.{limit}"):
            LevelLimits(**{limit: 1.5})


def test_root_and_limits_arguments_are_checked(tmp_path: Path) -> None:
    path = write_map(tmp_path, {"walls": [WALL]})
    world = steer.SteeringWorld()
    with pytest.raises(TypeError, match="limits"):
        load_level(path, world, limits={"points": 3})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="root"):
        load_level(path, world, root=3)  # type: ignore[arg-type]
    with pytest.raises(LevelError, match=r"root .*: is not a folder"):
        load_level(path, world, root=path)
    tilemap = load_level(path, world, required=WALLS_ONLY).tilemap
    with pytest.raises(ValueError, match="root applies to a map read from a file"):
        load_level(tilemap, world, root=tmp_path)


# -- linear time ------------------------------------------------------------------------------


def _straight_polyline(tmp_path: Path, points: int) -> Path:
    line = [{"x": x * 0.01, "y": 0} for x in range(points)]
    return write_map(tmp_path, {"walls": [tiled_object(polyline=line)]})


def test_a_long_straight_wall_loads_in_linear_time(tmp_path: Path) -> None:
    # Before: 40,000 edges of a straight line took 15 s to add (pymunk's tree degenerated,
    # growing as deep as there were edges). Now the middle edge goes in first, then the
    # middles of the halves, which keeps the tree shallow: checked by the order of addition,
    # not by a clock (benchmarks/level_load.py times it).
    path = _straight_polyline(tmp_path, 40_001)
    world = steer.SteeringWorld()
    level = load_level(path, world, required=WALLS_ONLY)
    assert len(level.walls) == 40_000 == len(world.space.shapes)
    order = {id(shape): index for index, shape in enumerate(world.space.shapes)}
    added = [order[id(wall)] for wall in level.walls]  # when each edge, in line order, went in
    assert added[20_000] == 0  # the middle first
    assert {added[10_000], added[30_000]} == {1, 2}  # then the middles of the halves


@pytest.mark.slow
def test_a_300000_point_polyline_loads_without_crashing(tmp_path: Path) -> None:
    # Before: the interpreter crashed (pymunk's tree recursion overflowed the C stack).
    path = _straight_polyline(tmp_path, 300_000)
    script = textwrap.dedent(
        f"""
        import arcade_steering as steer
        from arcade_steering.tiled import LevelLimits, load_level
        limits = LevelLimits(points=300_000, walls=300_000)
        level = load_level({str(path)!r}, steer.SteeringWorld(), required=("walls",),
                           limits=limits)
        print(len(level.walls))
        """
    )
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["299999"]


def test_a_missing_file_outside_the_folder_is_outside_not_missing(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    # Whether a file outside the root exists is not for a map to find out.
    path = _with_tileset(tmp_path / "mod", {"firstgid": 1, "source": "../nothing/here.tsj"})
    _refuses(path, world, "is outside")
    os.symlink("loop", tmp_path / "mod" / "loop")
    path = _with_tileset(tmp_path / "mod", {"firstgid": 1, "source": "loop"})
    _refuses(path, world, "tileset 'loop' does not exist")


def test_a_missing_image_is_refused_only_if_a_layer_draws_it(
    tmp_path: Path, world: steer.SteeringWorld
) -> None:
    # Tiled keeps the tiles of deleted images; arcade opens only the images it draws.
    write_png(tmp_path / "crate.png", (16, 16))
    tileset = {
        "firstgid": 1,
        "name": "things",
        "columns": 0,
        "margin": 0,
        "spacing": 0,
        "tilecount": 2,
        "tilewidth": 16,
        "tileheight": 16,
        "tiles": [
            {"id": 0, "image": "crate.png", "imagewidth": 16, "imageheight": 16},
            {"id": 1, "image": "gone.png", "imagewidth": 16, "imageheight": 16},
        ],
    }
    level = load_level(_with_tileset(tmp_path, tileset, gid=1), world, required=WALLS_ONLY)
    assert len(level.tilemap.sprite_lists["ground"]) == 1
    _refuses(_with_tileset(tmp_path, tileset, gid=2), world, "tile gid 2 .* image is missing")


@pytest.mark.parametrize(
    "name",
    ["map.json", "pymunk_test_map.json", "test_map_7.json", "test_objects.json", "level_2.json"],
)
def test_arcades_sample_maps_load_with_their_assets_as_root(name: str) -> None:
    # Real maps: tilesets in other files, images in a sibling folder, tiles without images.
    handle = f":resources:tiled_maps/{name}"
    assets = arcade.resources.resolve(handle).parent.parent
    with pytest.raises(LevelError, match="is outside"):
        load_level(handle, steer.SteeringWorld(), required=())
    level = load_level(handle, steer.SteeringWorld(), required=(), root=assets)
    assert sum(len(sprites) for sprites in level.tilemap.sprite_lists.values()) > 0
