"""Tiled files for the level tests: objects, layers, maps, tilesets and images written to a
folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import PIL.Image

HEIGHT = 160  # the maps' height in px: 10 x 16 px tiles


def tiled_object(kind: str | None = None, **fields: Any) -> dict:
    """A Tiled JSON object with every key pytiled_parser needs; ``kind`` "ellipse" or
    "point" sets that flag."""
    obj = {
        "id": fields.pop("id", 1),
        "name": "",
        "type": "",
        "rotation": 0,
        "visible": True,
        "x": 0,
        "y": 0,
        "width": 0,
        "height": 0,
    }
    if kind in ("ellipse", "point"):
        obj[kind] = True
    obj.update(fields)
    return obj


def object_layer(name: str, objects: list[dict], layer_id: int = 1, **fields: Any) -> dict:
    return {
        "id": layer_id,
        "name": name,
        "type": "objectgroup",
        "draworder": "topdown",
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        "objects": objects,
        **fields,
    }


def map_data(layers: dict[str, list[dict]], extra_layers: Any = (), tilesets: Any = ()) -> dict:
    """A 20 x 10 map of 16 px tiles with an object layer per ``layers`` item."""
    data = {
        "height": 10,
        "width": 20,
        "tilewidth": 16,
        "tileheight": 16,
        "infinite": False,
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "tiledversion": "1.10.2",
        "type": "map",
        "version": "1.10",
        "nextlayerid": 9,
        "nextobjectid": 99,
        "tilesets": list(tilesets),
        "layers": list(extra_layers),
    }
    for index, (name, objects) in enumerate(layers.items(), start=1):
        data["layers"].append(object_layer(name, objects, index))
    return data


def write_map(
    folder: Path,
    layers: dict[str, list[dict]],
    extra_layers: Any = (),
    tilesets: Any = (),
    name: str = "map.tmj",
) -> Path:
    """Write :func:`map_data` as ``folder/name``; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(map_data(layers, extra_layers, tilesets)))
    return path


def tileset_data(image: str, name: str = "tiles", firstgid: int | None = None) -> dict:
    """A tileset of four 16 px tiles in one 64 x 16 image."""
    data = {
        "name": name,
        "columns": 4,
        "image": image,
        "imagewidth": 64,
        "imageheight": 16,
        "margin": 0,
        "spacing": 0,
        "tilecount": 4,
        "tilewidth": 16,
        "tileheight": 16,
        "type": "tileset",
    }
    return data if firstgid is None else {"firstgid": firstgid, **data}


def tile_layer(data: Any, **fields: Any) -> dict:
    """A 20 x 10 tile layer named "ground"."""
    return {
        "id": 8,
        "name": "ground",
        "type": "tilelayer",
        "width": 20,
        "height": 10,
        "data": data,
        "opacity": 1,
        "visible": True,
        "x": 0,
        "y": 0,
        **fields,
    }


def write_png(path: Path, size: tuple[int, int] = (64, 16)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    PIL.Image.new("RGBA", size, (200, 100, 50, 255)).save(path)
    return path


WALL = tiled_object(polyline=[{"x": 0, "y": 0}, {"x": 30, "y": 0}])
