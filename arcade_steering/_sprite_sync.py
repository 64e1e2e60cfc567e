"""Reading and writing many sprites' positions and angles in one pass.

``sprite.position = (x, y)`` costs about 0.9 µs in arcade 3.3 (hit box, spatial hash, every
sprite list's buffer, one sprite at a time); for thousands of agents that alone would exceed
the frame budget. For plain ``arcade.Sprite`` objects (setters not overridden) in sprite lists
without a spatial hash, this module does what those setters do, batched: it sets the sprites'
and hit boxes' fields with C-level ``map`` loops and writes each sprite list's position/angle
buffer with one numpy assignment. Anything else (a ``StubSprite``, a subclass with its own
setters, a list with a spatial hash) goes through the public setters. ``tests/test_sprite_sync``
checks that both paths leave sprites and sprite lists in the same state.
"""

from __future__ import annotations

import operator
from collections import deque
from itertools import chain, repeat
from typing import Any

import numpy as np

_get_position = operator.attrgetter("position")
_get_raw_position = operator.attrgetter("_position")
_get_hit_box = operator.attrgetter("_hit_box")
_get_sprite_lists = operator.attrgetter("sprite_lists")

_fast_types: dict[type, tuple[bool, bool]] = {}


def fast_setters(sprite: Any) -> tuple[bool, bool]:
    """Whether this module may replace ``sprite``'s position and angle setters."""
    cls = type(sprite)
    known = _fast_types.get(cls)
    if known is None:
        known = _fast_types[cls] = _inspect_type(cls)
    return known


def read_positions(sprites: np.ndarray, fast: np.ndarray | None = None) -> np.ndarray:
    """Positions ``(n, 2)`` of an object array of sprites.

    Args:
        sprites: The sprites ``(n,)``.
        fast: Which of them have arcade's own position property ``(n,)``; when all do, their
            stored ``_position`` is read without going through the property.
    """
    getter = _get_raw_position if fast is not None and fast.all() else _get_position
    flat = chain.from_iterable(map(getter, sprites))
    return np.fromiter(flat, dtype=float, count=2 * len(sprites)).reshape(len(sprites), 2)


def write_positions(sprites: np.ndarray, positions: np.ndarray, fast: np.ndarray) -> None:
    """Set ``sprite.position`` of each sprite to its row of ``positions`` ``(n, 2)``.

    Args:
        sprites: The sprites ``(n,)``.
        positions: New positions ``(n, 2)``, px.
        fast: Which sprites may be written in bulk (``fast_setters(sprite)[0]``) ``(n,)``.
    """
    values = list(zip(positions[:, 0].tolist(), positions[:, 1].tolist(), strict=True))
    slow = ~fast
    if slow.any():
        for sprite, value in zip(sprites[slow], _pick(values, slow), strict=True):
            sprite.position = value
    if fast.any():
        _write_fast(sprites[fast], _pick(values, fast), positions[fast], "_position", slice(0, 2))


def write_angles(sprites: np.ndarray, angles: np.ndarray, fast: np.ndarray) -> None:
    """Set ``sprite.angle`` (degrees, clockwise) of each sprite to ``angles`` ``(n,)``.

    Args:
        sprites: The sprites ``(n,)``.
        angles: New angles ``(n,)``, degrees clockwise.
        fast: Which sprites may be written in bulk (``fast_setters(sprite)[1]``) ``(n,)``.
    """
    values = angles.tolist()
    slow = ~fast
    if slow.any():
        for sprite, value in zip(sprites[slow], _pick(values, slow), strict=True):
            sprite.angle = value
    if fast.any():
        _write_fast(sprites[fast], _pick(values, fast), angles[fast, None], "_angle", slice(3, 4))


def _write_fast(
    sprites: np.ndarray, values: list[Any], column: np.ndarray, field: str, buffer: slice
) -> None:
    hashed = _write_sprite_lists(sprites, column, buffer)
    _set_all(sprites, field, values)
    hit_boxes = list(map(_get_hit_box, sprites))
    _set_all(hit_boxes, field, values)
    _set_all(hit_boxes, "_adjusted_cache_dirty", repeat(True, len(hit_boxes)))
    for sprite in sprites[hashed]:
        sprite.update_spatial_hash()


def _write_sprite_lists(sprites: np.ndarray, column: np.ndarray, buffer: slice) -> np.ndarray:
    """Write every sprite list's GPU-side buffer; return which sprites need a hash update."""
    hashed = np.zeros(len(sprites), dtype=bool)
    for sprite_list in set(chain.from_iterable(map(_get_sprite_lists, sprites))):
        slot_of = sprite_list.sprite_slot
        slots = np.fromiter(
            map(slot_of.get, sprites, repeat(-1)), dtype=np.intp, count=len(sprites)
        )
        member = slots >= 0
        if sprite_list.spatial_hash is not None:
            hashed |= member
        data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
        data[slots[member], buffer] = column[member]
        sprite_list._sprite_pos_angle_changed = True
    return hashed


def _inspect_type(cls: type) -> tuple[bool, bool]:
    try:
        import arcade
    except ImportError:  # pragma: no cover - arcade is a dependency
        return False, False
    if not issubclass(cls, arcade.BasicSprite):
        return False, False
    position = getattr(cls, "position", None) is arcade.BasicSprite.position
    angle = issubclass(cls, arcade.Sprite) and getattr(cls, "angle", None) is arcade.Sprite.angle
    return position, angle


def _set_all(objects: Any, field: str, values: Any) -> None:
    deque(map(setattr, objects, repeat(field), values), maxlen=0)


def _pick(values: list[Any], mask: np.ndarray) -> list[Any]:
    if mask.all():
        return values
    return [values[i] for i in np.flatnonzero(mask).tolist()]
