"""Reading and writing many sprites' positions and angles in one pass.

``sprite.position = (x, y)`` costs about 0.9 µs in arcade 3.3 (hit box, spatial hash, every
sprite list's buffer, one sprite at a time); for thousands of agents that alone would exceed
the frame budget. For plain ``arcade.Sprite`` objects (setters not overridden), this module
does what those setters do, batched: it sets the sprites' and hit boxes' fields in one plain
loop and writes each sprite list's position/angle buffer with one numpy assignment.
Anything else (a ``StubSprite``, a subclass with its own setters) goes through the public
setters; sprites in a list with a spatial hash get their hash entry updated one by one.
``tests/test_sprite_sync`` checks that both paths leave sprites and sprite lists in the same
state.

Reading is cheaper still: every position setter also writes the sprite's list buffer (float32),
so a sprite whose buffer entry still holds what the world last wrote has not been moved by the
game, and only the others are read one by one.
"""

from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, repeat
from typing import Any

import numpy as np

_get_position = operator.attrgetter("position")
_get_raw_position = operator.attrgetter("_position")
_get_sprite_lists = operator.attrgetter("sprite_lists")

_fast_types: dict[type, tuple[bool, bool]] = {}


def fast_setters(sprite: Any) -> tuple[bool, bool]:
    """Whether this module may replace ``sprite``'s position and angle setters."""
    cls = type(sprite)
    known = _fast_types.get(cls)
    if known is None:
        known = _fast_types[cls] = _inspect_type(cls)
    return known


@dataclass(frozen=True)
class Membership:
    """The sprites of one sprite list among a sequence of sprites, and their buffer slots.

    Attributes:
        sprite_list: The sprite list (a weak proxy: a world keeps last update's lists to try
            first, and must not keep a list, and so its sprites, alive).
        members: Indices ``(k,)`` into the sequence of the sprites it holds.
        slots: Their slots in the list's buffers ``(k,)``.
    """

    sprite_list: Any
    members: np.ndarray
    slots: np.ndarray

    @functools.cached_property
    def position_items(self) -> np.ndarray:
        """Where the members' positions are in the list's buffer as complex64 ``(k,)``."""
        return 2 * self.slots

    @functools.cached_property
    def angle_items(self) -> np.ndarray:
        """Where the members' angles are in the list's buffer as float32 ``(k,)``."""
        return 4 * self.slots + 3

    def held_slots(self, sprites: list[Any]) -> list[Any]:
        """Each member's slot in the list now (None for one it no longer holds), read from
        the list's own table: the same int objects while nothing moved, so comparing two
        readings is a pass of identity checks."""
        return list(map(self.sprite_list.sprite_slot.get, self._members_of(sprites)))

    @functools.cached_property
    def _members_of(self) -> Callable[[list[Any]], Sequence[Any]]:
        """A function picking the members out of the sprites, in one C-level call."""
        members = self.members.tolist()
        if len(members) == 1:
            only = members[0]
            return lambda sprites: (sprites[only],)
        return operator.itemgetter(*members) if members else lambda sprites: ()


@dataclass(frozen=True)
class ListSlots:
    """Where each of a sequence of sprites sits in every sprite list that holds one of them.

    Found each update (sprites join and leave lists between updates), then shared by the read
    and the write of that update. The cost grows with the memberships, not with sprites times
    lists: twenty squads in twenty lists cost about what one list of them all does. While no
    list changed, last update's places are kept as they are.

    Holds no sprite and no sprite list alive.

    Attributes:
        lists: One :class:`Membership` per sprite list holding any of them.
    """

    lists: list[Membership]
    #: Each list's :meth:`Membership.held_slots` when the places were found, and the index by
    #: id they were found with: while all are the same, so are the places.
    seen: tuple[list[list[Any]], dict[int, int] | None] = field(
        default=([], None), repr=False, compare=False
    )

    @classmethod
    def of(
        cls,
        sprites: Sequence[Any],
        previous: ListSlots | None = None,
        index_of_id: dict[int, int] | None = None,
    ) -> ListSlots:
        """The places of ``sprites`` ``(n,)`` in their sprite lists.

        Args:
            sprites: The sprites.
            previous: The places found last update: returned as they are if ``index_of_id``
                is the same object and no list changed; else their lists are tried first, and
                kept when they hold every membership the sprites report.
            index_of_id: Each sprite's index in ``sprites`` by its ``id``, if the caller keeps
                one (and replaces it, never edits it, when the sprites change); else it is
                built when needed.
        """
        sprites = list(sprites)
        if previous is not None and previous._still_holds(sprites, index_of_id):
            return previous
        ids: Callable[[], dict[int, int]] = functools.cache(
            lambda: (
                dict(zip(map(id, sprites), range(len(sprites)), strict=True))
                if index_of_id is None
                else index_of_id
            )
        )
        known = [] if previous is None else _alive(each.sprite_list for each in previous.lists)
        lists = None
        if known:
            lists = [each for each in _memberships(known, sprites, ids) if len(each.members)]
            if sum(len(each.members) for each in lists) != _membership_count(sprites):
                lists = None
        if lists is None:
            try:
                sprite_lists = set(chain.from_iterable(map(_get_sprite_lists, sprites)))
            except AttributeError:
                sprite_lists = set(
                    chain.from_iterable(getattr(s, "sprite_lists", ()) for s in sprites)
                )
            lists = _memberships([weakref.proxy(each) for each in sprite_lists], sprites, ids)
        if index_of_id is None:
            return cls(lists)
        return cls(lists, ([each.held_slots(sprites) for each in lists], index_of_id))

    def _still_holds(self, sprites: list[Any], index_of_id: dict[int, int] | None) -> bool:
        """Whether these places are still right: the same sprites, each still at its slot in
        each of its lists, and in no other list (a sprite that left one list for another
        is no longer found in the first)."""
        held, seen_index = self.seen
        if index_of_id is None or seen_index is not index_of_id:
            return False
        try:
            for each, slots in zip(self.lists, held, strict=True):
                if each.held_slots(sprites) != slots:
                    return False
        except ReferenceError:  # a list is gone
            return False
        return sum(len(each.members) for each in self.lists) == _membership_count(sprites)

    def select(self, mask: np.ndarray) -> ListSlots:
        """The places of the sprites where ``mask`` ``(n,)`` is true."""
        renumber = np.cumsum(mask) - 1
        lists = []
        for each in self.lists:
            keep = mask.take(each.members)
            members = renumber.take(each.members[keep])
            lists.append(Membership(each.sprite_list, members, each.slots[keep]))
        return ListSlots(lists)

    def moved(self, written: np.ndarray) -> np.ndarray:
        """Which sprites may have been moved since their positions ``written`` ``(n, 2)``.

        True for a sprite whose list buffer holds another position, and for one in no list.
        Any list holding a sprite will do: every position setter writes all of them.
        """
        moved = np.ones(len(written), dtype=bool)  # until a buffer shows otherwise
        if not self.lists:
            return moved
        held = [
            _buffer(each.sprite_list).view(np.complex64).take(each.position_items)
            for each in self.lists
        ]
        members = self._all_members
        expected = _pairs(written.astype(np.float32)).take(members)
        moved[members] = np.concatenate(held) != expected
        return moved

    @functools.cached_property
    def _all_members(self) -> np.ndarray:
        """Every list's members, one list after the other."""
        return np.concatenate([each.members for each in self.lists])


def read_positions(sprites: Sequence[Any], fast: np.ndarray | None = None) -> np.ndarray:
    """Positions ``(n, 2)`` of a sequence of sprites.

    Args:
        sprites: The sprites ``(n,)``: a list iterates about twice as fast as an object array.
        fast: Which of them have arcade's own position property ``(n,)``; when all do, their
            stored ``_position`` is read without going through the property.
    """
    getter = _get_raw_position if fast is not None and fast.all() else _get_position
    flat = chain.from_iterable(map(getter, sprites))
    return np.fromiter(flat, dtype=float, count=2 * len(sprites)).reshape(len(sprites), 2)


def write_sprites(
    sprites: Sequence[Any],
    positions: np.ndarray,
    fast_position: np.ndarray,
    angles: np.ndarray,
    turn: np.ndarray,
    fast_angle: np.ndarray,
    list_slots: ListSlots | None = None,
) -> None:
    """Set each sprite's ``position``, and its ``angle`` where ``turn``, in one pass.

    Args:
        sprites: The sprites ``(n,)``; a list is fastest.
        positions: New positions ``(n, 2)``, px.
        fast_position: Which sprites' positions may be written in bulk ``(n,)``.
        angles: New angles ``(n,)``, degrees clockwise.
        turn: Which sprites get their angle written ``(n,)``.
        fast_angle: Which sprites' angles may be written in bulk ``(n,)``.
        list_slots: The sprites' places in their sprite lists, if already known.
    """
    sprites = list(sprites)
    values = list(zip(*positions.T.tolist(), strict=True))  # tuples, as arcade keeps them
    if not fast_position.all():
        for index in np.flatnonzero(~fast_position).tolist():
            sprites[index].position = values[index]
    if not fast_angle.all():
        for index in np.flatnonzero(turn & ~fast_angle).tolist():
            sprites[index].angle = float(angles[index])
    moves, turns = fast_position, turn & fast_angle
    bulk = moves | turns
    if not bulk.any():
        return
    if list_slots is None:
        list_slots = ListSlots.of(sprites)
    hashed = _write_sprite_lists(list_slots, bulk, positions, moves, angles, turns)
    if not bulk.all():
        sprites, values = _pick(sprites, bulk), _pick(values, bulk)
        angles, moves, turns, hashed = angles[bulk], moves[bulk], turns[bulk], hashed[bulk]
    if moves.all() and turns.all():  # the usual case: one pass, no masks
        _move_and_turn(sprites, values, angles.tolist())
    else:
        if moves.any():
            _move(_pick(sprites, moves), _pick(values, moves))
        if turns.any():
            _turn(_pick(sprites, turns), angles[turns].tolist())
    if hashed.any():
        for sprite in _pick(sprites, hashed):
            sprite.update_spatial_hash()


def _write_sprite_lists(
    list_slots: ListSlots,
    bulk: np.ndarray,
    positions: np.ndarray,
    moves: np.ndarray,
    angles: np.ndarray,
    turns: np.ndarray,
) -> np.ndarray:
    """Write every sprite list's GPU-side buffer; return which sprites need a hash update."""
    hashed = np.zeros(len(bulk), dtype=bool)
    pairs = _pairs(positions.astype(np.float32))
    every = bool(moves.all() and turns.all())  # the usual case: no masks to apply
    for each in list_slots.lists:
        sprite_list, members = each.sprite_list, each.members
        if sprite_list.spatial_hash is not None:
            hashed[members[bulk.take(members)]] = True
        buffer = _buffer(sprite_list)
        if every:
            buffer.view(np.complex64)[each.position_items] = pairs.take(members)
            buffer[each.angle_items] = angles.take(members)
        else:
            moved, turned = moves.take(members), turns.take(members)
            buffer.view(np.complex64)[each.position_items[moved]] = pairs.take(members[moved])
            buffer[each.angle_items[turned]] = angles.take(members[turned])
        sprite_list._sprite_pos_angle_changed = True
    return hashed


def _buffer(sprite_list: Any) -> np.ndarray:
    """A sprite list's position/angle buffer as float32 ``(4 capacity,)``: x, y, depth and
    angle of each slot in turn. As complex64, slot ``s``'s position is item ``2 s``."""
    return np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32)


def _pairs(xy: np.ndarray) -> np.ndarray:
    """Each row's first two float32 values as one complex64 ``(n,)``: one item per position."""
    return xy.view(np.complex64)[:, 0]


def _memberships(
    sprite_lists: list[Any], sprites: list[Any], index_of_id: Callable[[], dict[int, int]]
) -> list[Membership]:
    """Which of ``sprites`` each sprite list holds.

    A list much shorter than the sprites (a squad's among many agents) is looked up from its
    own side, all such lists in one pass; a longer one from the sprites' side.
    """
    n = len(sprites)
    found: dict[int, Membership] = {}
    short = [index for index, each in enumerate(sprite_lists) if 2 * len(each.sprite_slot) <= n]
    if short:
        tables = [sprite_lists[index].sprite_slot for index in short]
        sizes = list(map(len, tables))
        total = sum(sizes)
        held = map(index_of_id().get, map(id, chain.from_iterable(tables)), repeat(-1))
        members = np.fromiter(held, np.intp, total)
        slots = np.fromiter(chain.from_iterable(map(dict.values, tables)), np.intp, total)
        every = bool((members >= 0).all())
        stop = 0
        for index, size in zip(short, sizes, strict=True):
            start, stop = stop, stop + size
            own, at = members[start:stop], slots[start:stop]
            if not every:
                keep = own >= 0
                own, at = own[keep], at[keep]
            found[index] = Membership(sprite_lists[index], own, at)
    for index, sprite_list in enumerate(sprite_lists):
        if index not in found:
            table = sprite_list.sprite_slot
            slots = np.fromiter(map(table.get, sprites, repeat(-1)), np.intp, n)
            members = np.flatnonzero(slots >= 0)
            found[index] = Membership(sprite_list, members, slots.take(members))
    return [found[index] for index in range(len(sprite_lists))]


def _membership_count(sprites: list[Any]) -> int:
    """How many sprite lists hold each sprite, summed; -1 if some are not arcade sprites."""
    try:
        return sum([len(sprite.sprite_lists) for sprite in sprites])  # faster than map()
    except AttributeError:  # a StubSprite, say
        return -1


def _alive(proxies: Any) -> list[Any]:
    """The weak proxies whose sprite lists still exist."""
    alive = []
    for proxy in proxies:
        try:
            proxy.sprite_slot  # noqa: B018 - raises ReferenceError once the list is gone
        except ReferenceError:
            continue
        alive.append(proxy)
    return alive


def _pick(items: list[Any], mask: np.ndarray) -> list[Any]:
    """The items where the bool array ``mask`` is true."""
    return list(compress(items, mask.tolist()))


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


# What arcade's position and angle setters do to a plain sprite and its hit box, its sprite
# lists aside. Python loops: the interpreter specialises these attribute stores, which makes a
# loop several times faster than setattr() mapped over the sprites (85 us against 340 us for
# the five fields of 1,000 sprites, Python 3.11).


def _move_and_turn(sprites: list[Any], positions: list[Any], angles: list[float]) -> None:
    for sprite, position, angle in zip(sprites, positions, angles, strict=True):
        hit_box = sprite._hit_box
        sprite._position = hit_box._position = position
        sprite._angle = hit_box._angle = angle
        hit_box._adjusted_cache_dirty = True


def _move(sprites: list[Any], positions: list[Any]) -> None:
    for sprite, position in zip(sprites, positions, strict=True):
        hit_box = sprite._hit_box
        sprite._position = hit_box._position = position
        hit_box._adjusted_cache_dirty = True


def _turn(sprites: list[Any], angles: list[float]) -> None:
    for sprite, angle in zip(sprites, angles, strict=True):
        hit_box = sprite._hit_box
        sprite._angle = hit_box._angle = angle
        hit_box._adjusted_cache_dirty = True
