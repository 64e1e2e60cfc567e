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


def write_sprites(
    sprites: np.ndarray,
    positions: np.ndarray,
    fast_position: np.ndarray,
    angles: np.ndarray,
    turn: np.ndarray,
    fast_angle: np.ndarray,
) -> None:
    """Set each sprite's ``position``, and its ``angle`` where ``turn``, in one pass.

    Args:
        sprites: The sprites ``(n,)`` (object array).
        positions: New positions ``(n, 2)``, px.
        fast_position: Which sprites' positions may be written in bulk ``(n,)``.
        angles: New angles ``(n,)``, degrees clockwise.
        turn: Which sprites get their angle written ``(n,)``.
        fast_angle: Which sprites' angles may be written in bulk ``(n,)``.
    """
    xs, ys = positions[:, 0].tolist(), positions[:, 1].tolist()
    values = list(zip(xs, ys, strict=True))
    for index in np.flatnonzero(~fast_position).tolist():
        sprites[index].position = values[index]
    for index in np.flatnonzero(turn & ~fast_angle).tolist():
        sprites[index].angle = float(angles[index])
    moves, turns = fast_position, turn & fast_angle
    bulk = moves | turns
    if not bulk.any():
        return
    if not bulk.all():
        sprites, positions, angles = sprites[bulk], positions[bulk], angles[bulk]
        values = [values[i] for i in np.flatnonzero(bulk).tolist()]
        moves, turns = moves[bulk], turns[bulk]
    hashed = _write_sprite_lists(sprites, positions, angles, moves, turns)
    hit_boxes = np.fromiter(map(_get_hit_box, sprites), dtype=object, count=len(sprites))
    if moves.all():
        _set_all(sprites, "_position", values)
        _set_all(hit_boxes, "_position", values)
    elif moves.any():
        moved_values = [values[i] for i in np.flatnonzero(moves).tolist()]
        _set_all(sprites[moves], "_position", moved_values)
        _set_all(hit_boxes[moves], "_position", moved_values)
    if turns.any():
        turned_values = angles[turns].tolist()
        _set_all(sprites[turns], "_angle", turned_values)
        _set_all(hit_boxes[turns], "_angle", turned_values)
    _set_all(hit_boxes, "_adjusted_cache_dirty", repeat(True, len(hit_boxes)))
    for sprite in sprites[hashed]:
        sprite.update_spatial_hash()


def _write_sprite_lists(
    sprites: np.ndarray,
    positions: np.ndarray,
    angles: np.ndarray,
    moves: np.ndarray,
    turns: np.ndarray,
) -> np.ndarray:
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
        moved, turned = member & moves, member & turns
        data[slots[moved], 0:2] = positions[moved]
        data[slots[turned], 3] = angles[turned]
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
