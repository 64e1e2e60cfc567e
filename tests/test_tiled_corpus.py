"""A corpus of broken level files: every one loads or raises ``LevelError``, never anything
else, never hangs, and a refused one leaves the world as it was.

Each example is a small valid level (object layers of every kind, tile layers in every
encoding, group layers, an embedded and an external tileset, an object template and their
images) written as Tiled JSON or XML, then broken: a value anywhere replaced by a nasty one
(wrong type, missing, NaN, huge, negative, deeply nested, a path out of the folder or to a
device), a key dropped, the text cut short or given a byte it should not have, a DTD added.

The default run (``pytest``) tries ``LEVEL_CORPUS_EXAMPLES`` examples per format (50), the
same ones every run; ``pytest -m slow`` tries thirty times as many, new ones each run.
"""

from __future__ import annotations

import base64
import copy
import json
import math
import os
import signal
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from levels import map_data, object_layer, tile_layer, tiled_object, tileset_data, write_png

import arcade_steering as steer
from arcade_steering.tiled import LAYERS, LevelError, load_level

EXAMPLES = int(os.environ.get("LEVEL_CORPUS_EXAMPLES", "50"))
#: Longest a load may take before it counts as a hang, seconds.
HANG = 20

DEEP: list[Any] = []
for _ in range(60):
    DEEP = [DEEP]

NASTY: list[Any] = [
    None,
    True,
    False,
    "",
    "abc",
    "x" * 5000,
    "\x00",
    -1,
    0,
    2**31,
    2**64,
    10**300,
    1e308,
    -1e308,
    float("nan"),
    float("inf"),
    -float("inf"),
    0.5,
    [],
    {},
    DEEP,
    [{"x": 1}],
    {"x": "y"},
    "../../etc/passwd",
    "/etc/passwd",
    "/dev/zero",
    "file:///etc/passwd",
    "https://example.com/tiles.png",
    ".",
    "map.tmj",
    "map.tmx",
    "tiles.png",
    "ts.tsj",
    "wall.tj",
    "#ff00ff",
    "#zz",
    "1e999",
    "nan",
    "1,2 3",
]


def _objects() -> dict[str, list[dict]]:
    line = [{"x": 0, "y": 0}, {"x": 40, "y": 0}, {"x": 40, "y": 30}]
    return {
        "walls": [
            tiled_object(id=1, name="border", polyline=line),
            tiled_object(id=2, polygon=line, properties=[_prop("thickness", "float", 4)]),
            tiled_object(id=3, x=100, y=40, width=20, height=10, rotation=30),
            tiled_object(id=4, template="wall.tj", x=10, y=90),
        ],
        "obstacles": [tiled_object("ellipse", id=5, x=50, y=60, width=20, height=20)],
        "paths": [
            tiled_object(
                id=6,
                name="patrol",
                polyline=line,
                properties=[_prop("closed", "bool", True), _prop("radius", "int", 12)],
            )
        ],
        "spawns": [tiled_object("point", id=7, name="flag", x=5, y=150)],
    }


def _prop(name: str, kind: str, value: Any) -> dict:
    return {"name": name, "type": kind, "value": value}


def _documents() -> dict[str, Any]:
    """The valid level: the map, its external tileset and its template, as JSON trees."""
    objects = _objects()
    walls = object_layer(
        "walls", objects.pop("walls"), 1, properties=[_prop("c", "color", "#ff112233")]
    )
    group = {"id": 2, "name": "more", "type": "group", "opacity": 1, "visible": True}
    group["layers"] = [
        object_layer(name, items, 3 + i) for i, (name, items) in enumerate(objects.items())
    ]
    cells = [1, 2, 3, 4, 5, 6, 0, 0] + [0] * 192
    packed = b"".join(gid.to_bytes(4, "little") for gid in cells)
    layers = [
        walls,
        group,
        tile_layer(cells),
        {
            **tile_layer(base64.b64encode(zlib.compress(packed)).decode()),
            "id": 10,
            "name": "zipped",
            "encoding": "base64",
            "compression": "zlib",
        },
        {
            "id": 11,
            "name": "sky",
            "type": "imagelayer",
            "image": "sky.png",
            "opacity": 1,
            "visible": True,
            "x": 0,
            "y": 0,
        },
    ]
    data = map_data({}, layers, [tileset_data("tiles.png", firstgid=1)])
    data["tilesets"].append({"firstgid": 5, "source": "ts.tsj"})
    tileset = tileset_data("tiles.png", name="external")
    tileset["tiles"] = [{"id": 0, "animation": [{"tileid": 1, "duration": 100}]}]
    template = {
        "type": "template",
        "object": tiled_object(polyline=[{"x": 0, "y": 0}, {"x": 9, "y": 9}]),
    }
    return {"map": data, "tileset": tileset, "template": template}


# -- mutations --------------------------------------------------------------------------------


def _slots(tree: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) in ``tree``, depth first."""
    found = []
    stack = [tree]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            found.append((node, key))
            if isinstance(value, (dict, list)):
                stack.append(value)
    return found


@st.composite
def _mutation(draw: st.DrawFn) -> tuple[str, ...]:
    kind = draw(st.sampled_from(["replace", "replace", "replace", "drop", "text"]))
    document = draw(st.sampled_from(["map", "map", "map", "tileset", "template"]))
    where = draw(st.integers(0, 10_000))
    value = draw(st.sampled_from(NASTY) | st.integers() | st.floats() | st.text(max_size=8))
    return kind, document, where, value


def _mutate(documents: dict[str, Any], mutation: tuple[Any, ...]) -> str | None:
    """Apply a tree mutation; a text one is returned for after writing."""
    kind, document, where, value = mutation
    if kind == "text":
        return f"{where}:{value!r}"
    slots = _slots(documents[document])
    if not slots:
        return None
    container, key = slots[where % len(slots)]
    if kind == "drop":
        del container[key]
    else:
        container[key] = copy.deepcopy(value)  # NASTY's lists and dicts are shared
    return None


def _damage_text(text: str, how: str) -> str:
    """Cut the text, add a stray character, or add a DTD, at a position from ``how``."""
    where, _, value = how.partition(":")
    position = int(where) % (len(text) + 1)
    action = int(where) % 3
    if action == 0:
        return text[:position]
    if action == 1:
        return text[:position] + (value[1:2] or "\x00") + text[position:]
    dtd = '<!DOCTYPE map [<!ENTITY e "&#x26;e;">]>\n'
    return text.replace("?>\n", "?>\n" + dtd, 1) if text.startswith("<") else dtd + text


# -- writing ----------------------------------------------------------------------------------


def _json_text(tree: Any) -> str:
    return json.dumps(tree, default=str)


def _xml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return str(value)


def _attrs(node: dict, skip: tuple[str, ...] = ()) -> str:
    pairs = [
        f" {key}={quoteattr(_xml_value(value))}"
        for key, value in node.items()
        if not isinstance(value, (dict, list)) and key not in skip and key.isidentifier()
    ]
    return "".join(pairs)


def _xml_properties(node: dict) -> str:
    props = node.get("properties")
    if not isinstance(props, list):
        return ""
    items = "".join(
        f"<property{_attrs({**prop, 'value': _xml_property_value(prop.get('value'))})}/>"
        for prop in props
        if isinstance(prop, dict)
    )
    return f"<properties>{items}</properties>"


def _xml_property_value(value: Any) -> str:
    """TMX writes a bool property as "true" or "false"."""
    return str(value).lower() if isinstance(value, bool) else _xml_value(value)


def _xml_object(obj: Any) -> str:
    if not isinstance(obj, dict):
        return f"<object id={quoteattr(str(obj))}/>"
    inner = _xml_properties(obj)
    for flag in ("ellipse", "point"):
        if obj.get(flag):
            inner += f"<{flag}/>"
    for kind in ("polyline", "polygon"):
        points = obj.get(kind)
        if isinstance(points, list):
            text = " ".join(
                f"{_xml_value(p.get('x'))},{_xml_value(p.get('y'))}"
                if isinstance(p, dict)
                else str(p)
                for p in points
            )
            inner += f"<{kind} points={quoteattr(text)}/>"
    skip = ("ellipse", "point", "type")
    return f"<object{_attrs(obj, skip)}>{inner}</object>"


def _xml_tileset(tileset: Any, tag_attrs: str = "") -> str:
    if not isinstance(tileset, dict):
        return f"<tileset firstgid={quoteattr(str(tileset))}/>"
    inner = _xml_properties(tileset)
    if "image" in tileset:
        inner += f'<image source={quoteattr(_xml_value(tileset["image"]))} width="64" height="16"/>'
    for tile in tileset.get("tiles") or []:
        if isinstance(tile, dict):
            frames = "".join(
                f"<frame{_attrs(f)}/>" for f in tile.get("animation") or [] if isinstance(f, dict)
            )
            inner += f"<tile{_attrs(tile)}><animation>{frames}</animation></tile>"
    return f"<tileset{tag_attrs}{_attrs(tileset, ('image', 'type'))}>{inner}</tileset>"


def _xml_layer(layer: Any) -> str:
    if not isinstance(layer, dict):
        return f"<objectgroup name={quoteattr(str(layer))}/>"
    kind = layer.get("type")
    skip = ("type", "data", "encoding", "compression", "image", "x", "y")
    inner = _xml_properties(layer)
    if kind == "objectgroup":
        objects = layer.get("objects")
        inner += "".join(_xml_object(o) for o in objects) if isinstance(objects, list) else ""
        return f"<objectgroup{_attrs(layer, skip)}>{inner}</objectgroup>"
    if kind == "group":
        layers = layer.get("layers")
        inner += "".join(_xml_layer(sub) for sub in layers) if isinstance(layers, list) else ""
        return f"<group{_attrs(layer, skip)}>{inner}</group>"
    if kind == "imagelayer":
        inner += f"<image source={quoteattr(_xml_value(layer.get('image')))}/>"
        return f"<imagelayer{_attrs(layer, skip)}>{inner}</imagelayer>"
    data = layer.get("data")
    if isinstance(data, list):
        text, encoding = ",".join(_xml_value(gid) for gid in data), ' encoding="csv"'
    else:
        text, encoding = (
            _xml_value(data),
            f" encoding={quoteattr(_xml_value(layer.get('encoding')))}",
        )
    if "compression" in layer:
        encoding += f" compression={quoteattr(_xml_value(layer['compression']))}"
    return f"<layer{_attrs(layer, skip)}>{inner}<data{encoding}>{text}</data></layer>"


def _xml_map(data: Any) -> str:
    if not isinstance(data, dict):
        return f'<?xml version="1.0"?>\n<map>{data!s}</map>'
    tilesets = "".join(
        (
            f"<tileset firstgid={quoteattr(_xml_value(t.get('firstgid')))}"
            f" source={quoteattr(_xml_value(t['source']).replace('.tsj', '.tsx'))}/>"
        )
        if isinstance(t, dict) and "source" in t
        else _xml_tileset(t)
        for t in (data.get("tilesets") or [])
    )
    layers = data.get("layers")
    body = "".join(_xml_layer(layer) for layer in layers) if isinstance(layers, list) else ""
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<map{_attrs(data, ("type",))}>'
        f"{_xml_properties(data)}{tilesets}{body}</map>\n"
    )


def _xml_template(template: Any) -> str:
    obj = template.get("object") if isinstance(template, dict) else template
    return f'<?xml version="1.0"?>\n<template>{_xml_object(obj)}</template>\n'


def _write(folder: Path, documents: dict[str, Any], xml: bool, damage: str | None) -> Path:
    write_png(folder / "tiles.png")
    write_png(folder / "sky.png", (32, 32))
    if xml:
        documents["map"]["layers"][0]["objects"][3]["template"] = "wall.tx"
        texts = {
            "map.tmx": _xml_map(documents["map"]),
            "ts.tsx": '<?xml version="1.0"?>\n' + _xml_tileset(documents["tileset"]),
            "wall.tx": _xml_template(documents["template"]),
        }
    else:
        texts = {
            "map.tmj": _json_text(documents["map"]),
            "ts.tsj": _json_text(documents["tileset"]),
            "wall.tj": _json_text(documents["template"]),
        }
    for name, text in texts.items():
        if damage is not None and name.startswith("map"):
            text = _damage_text(text, damage)
        (folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    return folder / ("map.tmx" if xml else "map.tmj")


# -- the check --------------------------------------------------------------------------------


class _HangError(Exception):
    pass


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    def alarm(*_: object) -> None:
        raise _HangError(f"a load took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _loads_or_refuses(xml: bool, mutations: list[tuple[Any, ...]], required: bool) -> None:
    documents = _documents()
    if xml:  # the external tileset and the template are XML too
        documents["map"]["tilesets"][1]["source"] = "ts.tsx"
    damage = None
    for mutation in mutations:
        damage = _mutate(documents, mutation) or damage
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "level"
        folder.mkdir()
        try:
            path = _write(folder, documents, xml, damage)
        except (KeyError, IndexError, TypeError, AttributeError):
            path = folder / ("map.tmx" if xml else "map.tmj")  # the mutation broke the writer
            path.write_text(_json_text(documents["map"])[:500])
        world = steer.SteeringWorld()
        world.add_wall((0, 0), (10, 0))
        before = list(world.space.shapes)
        try:
            with _time_limit(HANG):
                load_level(path, world, required=LAYERS if required else ())
        except LevelError as error:
            assert str(error).startswith(str(folder)), str(error)
            assert world.space.shapes == before


_CASES = st.tuples(st.lists(_mutation(), min_size=0, max_size=4), st.booleans())


def _run(xml: bool, examples: int, derandomize: bool) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=derandomize,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(_CASES)
    def check(case: tuple[list[tuple[Any, ...]], bool]) -> None:
        _loads_or_refuses(xml, *case)

    check()


@pytest.mark.parametrize("xml", [False, True], ids=["json", "xml"])
def test_the_valid_level_loads(xml: bool) -> None:
    documents = _documents()
    if xml:
        documents["map"]["tilesets"][1]["source"] = "ts.tsx"
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), documents, xml, None)
        level = load_level(path, steer.SteeringWorld())
    assert len(level.walls) == 2 + 3 + 4 + 1 and len(level.obstacles) == 1
    assert level.paths["patrol"].closed and level.spawns == {"flag": [(5.0, 10.0)]}
    assert len(level.tilemap.sprite_lists["ground"]) == 6


@pytest.mark.parametrize("xml", [False, True], ids=["json", "xml"])
def test_broken_levels_load_or_raise_level_error(xml: bool) -> None:
    _run(xml, EXAMPLES, derandomize=True)


@pytest.mark.slow
@pytest.mark.parametrize("xml", [False, True], ids=["json", "xml"])
def test_many_broken_levels_load_or_raise_level_error(xml: bool) -> None:
    _run(xml, 30 * EXAMPLES, derandomize=False)
