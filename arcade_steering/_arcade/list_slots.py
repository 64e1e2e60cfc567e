"""Where sprites sit in their sprite lists, and those lists' position/angle buffers.

Every position setter of an ``arcade.Sprite`` also writes the sprite's slot in each of its
sprite lists' buffers (float32 x, y, depth, angle per slot). :class:`ListSlots` finds those slots
for many sprites at once, so the world can read which sprites the game moved, and write many
positions and angles with one numpy assignment per list.
"""

from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any

import numpy as np

from .._util.masks import every

__all__ = ["ListSlots", "Membership", "buffer_of", "position_pairs"]

_get_sprite_lists = operator.attrgetter("sprite_lists")


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
        if not self.lists:
            return np.ones(len(written), dtype=bool)
        held = [
            buffer_of(each.sprite_list).view(np.complex64).take(each.position_items)
            for each in self.lists
        ]
        members = self._all_members
        expected = position_pairs(written.astype(np.float32))
        found = held[0] if len(held) == 1 else np.concatenate(held)
        if len(members) == len(written) and self._in_order:  # each sprite once, in order
            return found != expected
        moved = np.ones(len(written), dtype=bool)  # until a buffer shows otherwise
        moved[members] = found != expected.take(members)
        return moved

    @functools.cached_property
    def _all_members(self) -> np.ndarray:
        """Every list's members, one list after the other."""
        return np.concatenate([each.members for each in self.lists])

    @functools.cached_property
    def _in_order(self) -> bool:
        """Whether :attr:`_all_members` is ``0, 1, 2, ...`` (every sprite in one list, the
        lists holding them in order: one list of them all, or a leader's and its squad's)."""
        members = self._all_members
        return every(members == np.arange(len(members)))


def buffer_of(sprite_list: Any) -> np.ndarray:
    """A sprite list's position/angle buffer as float32 ``(4 capacity,)``: x, y, depth and
    angle of each slot in turn. As complex64, slot ``s``'s position is item ``2 s``."""
    return np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32)


def position_pairs(xy: np.ndarray) -> np.ndarray:
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
