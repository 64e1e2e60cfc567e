"""Walls and obstacles in a save: written by their geometry, matched by it when read."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import pymunk

from ..geometry import obstacle_circle, wall_segments
from ._format import SaveFileError

__all__ = ["match_shapes", "write_shapes"]

Geometry = tuple[Any, ...]


def _geometry(shape: pymunk.Shape) -> Geometry:
    """``("wall", ax, ay, bx, by, radius)`` or ``("obstacle", x, y, radius)``, world px."""
    body = shape.body
    if isinstance(shape, pymunk.Segment):
        a, b = body.local_to_world(shape.a), body.local_to_world(shape.b)
        return ("wall", float(a.x), float(a.y), float(b.x), float(b.y), float(shape.radius))
    centre = body.local_to_world(shape.offset)
    return ("obstacle", float(centre.x), float(centre.y), float(shape.radius))


def write_shapes(shapes: tuple[pymunk.Shape, ...]) -> list[list[Any]]:
    """The static walls and obstacles of a snapshot, in order, as JSON lists.

    Raises:
        SaveFileError: A shape has a coordinate that is not finite.
    """
    written = [list(_geometry(shape)) for shape in shapes]
    for index, entry in enumerate(written):
        if not all(map(math.isfinite, entry[1:])):
            raise SaveFileError(f"save.shapes[{index}]: {entry[0]} is not finite: {entry}")
    return written


def match_shapes(
    data: Any, space: pymunk.Space, now: tuple[pymunk.Shape, ...]
) -> tuple[pymunk.Shape, ...]:
    """The shapes a save's walls and obstacles are in ``space``: each one the world holds
    with the same geometry (the first unused, in order), or a new one (not added yet).

    Args:
        data: The save's ``shapes`` list.
        space: The world's space (new shapes go on its static body).
        now: The world's static walls and obstacles now, in order.

    Raises:
        SaveFileError: An entry is malformed; the message names it.
    """
    if not isinstance(data, list):
        raise SaveFileError("save.shapes must be a list")
    held: dict[Geometry, list[pymunk.Shape]] = defaultdict(list)
    for shape in reversed(now):  # popped from the end: the first in order comes first
        held[_geometry(shape)].append(shape)
    shapes = []
    for index, entry in enumerate(data):
        key = _check(entry, f"save.shapes[{index}]")
        matches = held.get(key)
        shapes.append(matches.pop() if matches else _build(space, key, f"save.shapes[{index}]"))
    return tuple(shapes)


def _check(entry: Any, where: str) -> Geometry:
    sizes = {"wall": 6, "obstacle": 4}
    kind = entry[0] if isinstance(entry, list) and entry and isinstance(entry[0], str) else ""
    if kind not in sizes or sizes[kind] != len(entry):
        raise SaveFileError(
            f'{where} must be ["wall", ax, ay, bx, by, radius] or ["obstacle", x, y, radius]'
        )
    numbers = entry[1:]
    if (
        not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            for v in numbers
        )
        or numbers[-1] < 0
    ):
        raise SaveFileError(f"{where}: coordinates must be finite numbers, the radius >= 0")
    return (entry[0], *map(float, numbers))


def _build(space: pymunk.Space, key: Geometry, where: str) -> pymunk.Shape:
    try:
        if key[0] == "wall":
            (segment,) = wall_segments(space, [key[1:3], key[3:5]], thickness=2.0 * key[5])
            return segment
        return obstacle_circle(space, key[1:3], key[3])
    except ValueError as error:
        raise SaveFileError(f"{where}: {error}") from None
