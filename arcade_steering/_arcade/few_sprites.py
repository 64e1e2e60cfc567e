"""Reading and writing a few plain sprites one by one.

:mod:`sprite_sync` writes many sprites with one numpy assignment per sprite list, which has a
fixed cost of ~15 µs an update. A few plain ``arcade.Sprite`` objects cost less one by one:
~0.4 µs a sprite, the same fields arcade's setters write (measured with one sprite list: 13
sprites 6 µs against 18 µs in bulk; even near 200). Reading needs no buffer either: arcade keeps
the tuple a position was set to, so a sprite whose ``_position`` is still the tuple the world
wrote has not been moved by the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["FEW", "moved_since", "write_each"]

#: Up to this many sprites, plain ones are read and written one by one.
FEW = 128


def moved_since(sprites: Sequence[Any], written: Sequence[Any] | None) -> list[int]:
    """Which of plain ``sprites`` the game moved since their positions were ``written`` (the
    tuples :func:`write_each` returned; None: unknown, so all of them)."""
    if written is None:
        return list(range(len(sprites)))
    return [
        index
        for index, (sprite, position) in enumerate(zip(sprites, written, strict=True))
        if sprite._position is not position
    ]


def write_each(
    sprites: Sequence[Any],
    positions: list[list[float]],
    angles: list[float],
    rotate: list[bool],
    turned: list[bool],
) -> tuple[list[tuple[float, float]], list[int]]:
    """Set plain sprites' positions, and the angles of those that rotate, as arcade's setters
    do: the sprite, its hit box, its slot in each sprite list's buffer, its spatial hash
    entries. A sprite that neither moves nor ``turned`` is left as it is, as the setters and
    :func:`~arcade_steering._arcade.sprite_sync.write_sprites` leave it.

    Returns:
        The position tuples the sprites now hold, and which sprites were given their angle.
    """
    written, faced = [], []
    for index, (sprite, (x, y), angle, rotates, turns) in enumerate(
        zip(sprites, positions, angles, rotate, turned, strict=True)
    ):
        position = (x, y)
        if position == sprite._position:
            if not turns:
                written.append(sprite._position)
                continue
            position = sprite._position
        hit_box = sprite._hit_box
        sprite._position = hit_box._position = position
        if rotates:
            sprite._angle = hit_box._angle = angle
            faced.append(index)
        hit_box._adjusted_cache_dirty = True
        hashed = False
        for sprite_list in sprite.sprite_lists:
            item = 4 * sprite_list.sprite_slot[sprite]
            data = sprite_list._sprite_pos_angle_data
            data[item] = x
            data[item + 1] = y
            if rotates:
                data[item + 3] = angle
            sprite_list._sprite_pos_angle_changed = True
            hashed = hashed or sprite_list.spatial_hash is not None
        if hashed:
            sprite.update_spatial_hash()
        written.append(position)
    return written, faced
