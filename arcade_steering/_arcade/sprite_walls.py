"""SpriteWalls: steering walls round the union of wall sprites' hit boxes, that follow the sprites
out of the game.

The outline is cut into square chunks, each built from the sprites that reach into it
(:func:`~arcade_steering.geometry.outline.rectangle_outline` with a window): removing a sprite
rebuilds the chunks it reached, not the whole outline.
"""

from __future__ import annotations

import math
import weakref
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import numpy as np
import pymunk

from .._util.validate import check_non_negative, check_positive
from ..geometry import add_shapes
from ..geometry.outline import rectangle_outline
from ..geometry.shapes import WORLD_BOUND, check_space, edge_walls

__all__ = ["SpriteWalls"]

Chunk = tuple[int, int]

#: A sprite reaches into the chunks within this distance of its hit box, px (the margin the
#: outline of a window looks past it; see :func:`rectangle_outline`).
_REACH = 2.0


class SpriteWalls:
    """Walls round the union of wall sprites' hit boxes, in a ``pymunk.Space``.

    Axis-aligned hit boxes (tiles, unrotated sprites) are merged: edges two sprites share are
    dropped and collinear edges joined, so a wall of 40 tiles is a handful of segments. A hit
    box that is not an axis-aligned rectangle (a rotated sprite, a trimmed shape) gets walls
    round its own outline, not merged with its neighbours.

    A sprite that was in a sprite list when it was added and is in none now (shot down with
    ``remove_from_sprite_lists()``) takes its walls with it at the next :meth:`refresh`, and
    puts them back if it is appended to a list again; a
    :class:`~arcade_steering.SteeringWorld` refreshes the ones it made at every update. Only
    the chunks of the outline round those sprites are rebuilt. Moving a wall sprite is not
    noticed: call :meth:`rebuild`.

    Build it with :meth:`SteeringWorld.add_wall_sprites
    <arcade_steering.SteeringWorld.add_wall_sprites>`.

    Args:
        space: The space to hold the walls.
        sprites: The wall sprites (a ``SpriteList``, a scene layer, any iterable of
            ``arcade.Sprite``).
        thickness: Full thickness of the walls in px, >= 0.
        chunk_size: Side of the square chunks the outline is rebuilt by, px, > 0.

    Raises:
        TypeError: ``space`` is not a space, ``sprites`` is not iterable or holds something
            without a ``hit_box``, or a number is not numeric.
        ValueError: A bad ``thickness`` or ``chunk_size``, or a hit box with a non-finite
            point or farther than ``WORLD_BOUND`` from the origin. Nothing is added.
    """

    def __init__(
        self,
        space: pymunk.Space,
        sprites: Iterable[Any],
        thickness: float = 0.0,
        chunk_size: float = 512.0,
    ) -> None:
        check_space(space)
        radius = check_non_negative("thickness", thickness) / 2.0
        if radius > WORLD_BOUND:
            raise ValueError(f"thickness must be at most {WORLD_BOUND:g} px, got {thickness!r}")
        self._chunk_size = check_positive("chunk_size", chunk_size)
        if not isinstance(sprites, Iterable):
            raise TypeError(f"sprites must be an iterable of sprites, got {type(sprites).__name__}")
        self._space, self._radius = space, radius
        #: Every sprite by key, and its hit box: a rectangle row or polygon vertices.
        self._sprites: dict[int, Any] = {}
        self._boxes: dict[int, np.ndarray] = {}
        for key, sprite in enumerate(list(sprites)):
            self._boxes[key] = _hit_box(sprite)
            self._sprites[key] = sprite
        #: The sprites followed in and out of their lists (those in one when given).
        self._listed = {key for key, s in self._sprites.items() if getattr(s, "sprite_lists", None)}
        self._standing = set(self._sprites)
        self._members: dict[Chunk, set[int]] = defaultdict(set)
        self._chunks_of: dict[int, list[Chunk]] = {}
        self._walls: dict[Chunk, list[pymunk.Segment]] = {}
        #: Every wall made, to find them after a snapshot put old ones back in the space.
        self._made: weakref.WeakSet[pymunk.Segment] = weakref.WeakSet()
        self._build_all()

    def __len__(self) -> int:
        """Number of wall sprites standing."""
        return len(self._standing)

    def __repr__(self) -> str:
        return f"SpriteWalls(sprites={len(self)}, walls={len(self.shapes)})"

    @property
    def sprites(self) -> list[Any]:
        """The wall sprites standing (in a sprite list, or never in one), in the order given."""
        return [sprite for key, sprite in self._sprites.items() if key in self._standing]

    @property
    def shapes(self) -> list[pymunk.Segment]:
        """The walls now in the space, chunk by chunk."""
        return [segment for walls in self._walls.values() for segment in walls]

    def refresh(self) -> int:
        """Take out the walls of sprites that left all their sprite lists since the last call,
        and put back those of sprites that are in one again.

        Returns:
            How many sprites left or came back.
        """
        changed = [
            key
            for key in self._listed
            if bool(getattr(self._sprites[key], "sprite_lists", None)) != (key in self._standing)
        ]
        dirty: set[Chunk] = set()
        for key in changed:
            self._standing ^= {key}
            for chunk in self._chunks_of[key]:
                if key in self._standing:
                    self._members[chunk].add(key)
                else:
                    self._members[chunk].discard(key)
                dirty.add(chunk)
        self._build(sorted(dirty))
        return len(changed)

    def rebuild(self) -> None:
        """Build every wall again from the hit boxes of the sprites standing now (after moving
        wall sprites, or after a world's ``restore``, which calls it).

        Raises:
            TypeError, ValueError: As the constructor, for a hit box gone bad. The old walls
                stay.
        """
        boxes = {key: _hit_box(sprite) for key, sprite in self._sprites.items()}
        self.clear()
        self._boxes = boxes
        self._standing = {
            key
            for key, sprite in self._sprites.items()
            if key not in self._listed or getattr(sprite, "sprite_lists", None)
        }
        self._build_all()

    def clear(self) -> None:
        """Take every wall it made out of the space (:meth:`rebuild` puts them back)."""
        made = [segment for segment in self._made if segment.space is self._space]
        if made:
            self._space.remove(*made)
        self._walls.clear()
        self._members.clear()
        self._chunks_of.clear()

    def _build_all(self) -> None:
        """Work out every sprite's chunks, and build the walls of every chunk."""
        for key, box in self._boxes.items():
            self._chunks_of[key] = self._reach(box)
            if key in self._standing:
                for chunk in self._chunks_of[key]:
                    self._members[chunk].add(key)
        self._build(list(self._members))

    def _reach(self, box: np.ndarray) -> list[Chunk]:
        """The chunks a hit box reaches into: all it overlaps (with :data:`_REACH` to spare) if
        it is a rectangle, the one of its first vertex if it is a polygon of its own."""
        size = self._chunk_size
        if box.ndim == 2:
            return [(math.floor(box[0, 0] / size), math.floor(box[0, 1] / size))]
        left, bottom, right, top = box.tolist()
        columns = range(math.floor((left - _REACH) / size), math.floor((right + _REACH) / size) + 1)
        rows = range(math.floor((bottom - _REACH) / size), math.floor((top + _REACH) / size) + 1)
        return [(i, j) for i in columns for j in rows]

    def _remove(self, chunks: list[Chunk]) -> None:
        walls = [segment for chunk in chunks for segment in self._walls.pop(chunk, [])]
        walls = [segment for segment in walls if segment.space is self._space]
        if walls:
            self._space.remove(*walls)

    def _build(self, chunks: list[Chunk]) -> None:
        """Build the walls of ``chunks`` again from their members."""
        self._remove(chunks)
        size = self._chunk_size
        for chunk in chunks:
            members = [self._boxes[key] for key in self._members[chunk]]
            if not members:
                del self._members[chunk]
                continue
            rects = np.array([box for box in members if box.ndim == 1]).reshape(-1, 4)
            window = (
                chunk[0] * size,
                chunk[1] * size,
                (chunk[0] + 1) * size,
                (chunk[1] + 1) * size,
            )
            starts, ends = rectangle_outline(rects, window)
            polygons = [box for box in members if box.ndim == 2]
            if polygons:
                starts = np.concatenate([starts, *polygons])
                ends = np.concatenate([ends, *(np.roll(p, -1, axis=0) for p in polygons)])
            walls = edge_walls(self._space, starts, ends, self._radius)
            add_shapes(self._space, walls)
            self._made.update(walls)
            self._walls[chunk] = walls


def _hit_box(sprite: Any) -> np.ndarray:
    """A sprite's hit box in world px: ``(left, bottom, right, top)`` if it is an axis-aligned
    rectangle (to 1e-6 px), else its distinct vertices ``[k, 2]`` in order."""
    hit_box = getattr(sprite, "hit_box", None)
    if hit_box is None:
        raise TypeError(
            f"sprites must be arcade sprites with a hit_box, got {type(sprite).__name__}"
        )
    points = [(float(x), float(y)) for x, y in hit_box.get_adjusted_points()]
    coordinates = [value for point in points for value in point]
    if not all(math.isfinite(value) for value in coordinates):
        raise ValueError(f"sprites: the hit box of {sprite!r} has a non-finite point")
    if coordinates and max(map(abs, coordinates)) > WORLD_BOUND:
        raise ValueError(f"sprites: the hit box of {sprite!r} lies beyond {WORLD_BOUND:g} px")
    corners = {(round(x, 6), round(y, 6)) for x, y in points}
    xs, ys = sorted({x for x, _ in corners}), sorted({y for _, y in corners})
    if len(corners) == 4 and len(xs) == 2 and len(ys) == 2:
        return np.array((xs[0], ys[0], xs[1], ys[1]))
    distinct = [
        p for p, before in zip(points, points[-1:] + points[:-1], strict=True) if p != before
    ]
    if len(distinct) < 2:
        raise ValueError(f"sprites: the hit box of {sprite!r} has no area and no length")
    return np.array(distinct)
