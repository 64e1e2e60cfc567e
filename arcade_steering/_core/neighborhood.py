"""Neighborhood: the neighbour index of a (sub)step and the membership of ``among`` groups.

The index over every agent's position is built on first use in each (sub)step and shared by
every component; so are the indexes of where everybody will be a little ahead
(:meth:`Neighborhood.index_ahead`, for predictive avoidance). Which agents belong to an
``among`` group is read once per update (so sprites added to a SpriteList later count);
squads' labels are kept while the same agents are attached and the groups hold the same members.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from typing import Any

import numpy as np

from .._util.masks import every
from ..neighbors import NeighborIndex, NeighborPairs
from .agents import AgentTable
from .gather import Groups

__all__ = [
    "AmongLayout",
    "Neighborhood",
    "distinct",
    "in_asked_group",
    "kth_distance",
    "union_of",
]

#: Sets of ``among`` groups whose labels are kept (one per batch node asking, usually).
_LABEL_CACHE_SIZE = 32


class Neighborhood:
    """Who is near whom, for one world.

    Args:
        table: The world's agents.
    """

    def __init__(self, table: AgentTable) -> None:
        self._table = table
        # Labels found by labels(), by the groups' ids, with the members' sizes and ids they
        # were found from; dropped when agents change.
        self._labels: dict[tuple[int, ...], tuple[list[int], list[int], np.ndarray | None]] = {}
        self._labels_version = -1
        self._masks: dict[int, tuple[Any, np.ndarray]] = {}
        self._index: NeighborIndex | None = None
        self._ahead: dict[float, NeighborIndex] = {}

    def start_update(self) -> None:
        """Read group memberships afresh (once per update)."""
        self._masks.clear()
        if self._labels_version != self._table.version:
            self._labels_version = self._table.version
            self._labels.clear()
        self.start_step()

    def end_update(self) -> None:
        """Let go of the groups read this update: between updates the world holds no
        ``among`` group (nor, through it, any sprite) of its own."""
        self._masks.clear()
        self.start_step()

    @contextmanager
    def updating(self) -> Iterator[None]:
        """:meth:`start_update` now, :meth:`end_update` on leaving, even by an exception."""
        self.start_update()
        try:
            yield
        finally:
            self.end_update()

    def start_step(self) -> None:
        """Agents have moved: indexes are built again when next asked for."""
        self._index = None
        self._ahead.clear()

    def index(self) -> NeighborIndex:
        """The index over every agent's position (in row order), built once per (sub)step."""
        if self._index is None:
            table = self._table
            self._index = NeighborIndex(table.arrays.position[table.rows])
        return self._index

    def index_ahead(self, ahead: float) -> NeighborIndex:
        """The index over where every agent will be ``ahead`` seconds from now if it keeps
        its velocity, built once per (sub)step and ``ahead``."""
        index = self._ahead.get(ahead)
        if index is None:
            velocity = self._table.arrays.velocity.take(self._table.rows, axis=0)
            index = self._ahead[ahead] = NeighborIndex(self.index().positions + velocity * ahead)
        return index

    def mask(self, among: Any) -> np.ndarray | None:
        """Which agents (rows) belong to ``among`` (sprites); None for every agent."""
        if among is None:
            return None
        hit = self._masks.get(id(among))
        if hit is None or hit[0] is not among:
            table = self._table
            mask = np.zeros(len(table), dtype=bool)
            mask[table.row_of_slot[table.slots_of(among)]] = True
            hit = self._masks[id(among)] = (among, mask)
        return hit[1]

    def labels(self, groups: list[Any]) -> np.ndarray | None:
        """Each agent's group ``(n,)`` among ``groups`` (-1 for none), read in one pass; None
        if a group is None (every agent) or an agent is in two of them."""
        if any(group is None for group in groups):
            return None
        try:  # lists and SpriteLists: no copies of them
            sizes = list(map(len, groups))
        except TypeError:  # a collection without len(): read once
            groups = [list(group) for group in groups]
            sizes = list(map(len, groups))
        ids = list(map(id, chain.from_iterable(groups)))
        # Squads rarely change: the same members (by id) as last time, and the same agents
        # (a collected agent is detached, which drops this cache, before its id is reused),
        # give the same labels, without looking every member up again.
        key = tuple(map(id, groups))
        seen = self._labels.get(key)
        if seen is not None and seen[0] == sizes and seen[1] == ids:
            return seen[2]
        table = self._table
        slots = table.slots_by_id(ids)
        label = np.repeat(np.arange(len(groups)), sizes)
        attached = slots >= 0
        rows = table.row_of_slot.take(slots[attached])
        labels = np.full(len(table), -1, dtype=np.intp)
        labels[rows] = label[attached]
        labels.flags.writeable = False  # shared by the updates that reuse it
        found = labels if np.count_nonzero(labels >= 0) == len(rows) else None  # None: in two
        if len(self._labels) >= _LABEL_CACHE_SIZE:
            self._labels.clear()
        self._labels[key] = (sizes, ids, found)
        return found


class AmongLayout:
    """Who in a batch node asks about which group, worked out once per batch (and again
    after a parameter changed), not every step.

    Attributes:
        values: The distinct groups asked about.
        asked: Each agent's group, an index into ``values`` ``(n,)`` (read-only).
        key: The groups (by id) and who asks about each (by content): Separation, Alignment
            and Cohesion are different nodes with equal groups, and share one answer.
    """

    def __init__(self, groups: Groups, n: int) -> None:
        self.values = groups.values
        self.asked = groups.index
        self.key = tuple((id(value), rows.tobytes()) for value, rows in groups)


def in_asked_group(
    pairs: NeighborPairs, masks: list[np.ndarray | None], asked: np.ndarray, agents: int
) -> np.ndarray:
    """Which pairs have their ``other`` among the group their asking agent names (for
    groups that overlap, or include "every agent").

    Args:
        pairs: Pairs over the whole index (``other`` = row in the index).
        masks: Each group's members over the index rows, None for "every agent".
        asked: Each asking agent's group ``(n,)``.
        agents: The index's size.
    """
    table = np.ones((len(masks), agents), dtype=bool)
    for index, mask in enumerate(masks):
        if mask is not None:
            table[index] = mask
    return table[asked.take(pairs.query), pairs.other]


def union_of(masks: list[np.ndarray | None]) -> np.ndarray | None:
    """The agents ``(n,)`` in any of the ``masks`` (each ``(n,)``, None for every agent);
    None if one of them is None."""
    present = [mask for mask in masks if mask is not None]
    if len(present) < len(masks):
        return None
    return present[0] if len(present) == 1 else np.logical_or.reduce(present)


def distinct(values: np.ndarray) -> list[tuple[float, np.ndarray | None]]:
    """Each distinct value of ``values`` ``(n,)`` and the rows holding it (None: all rows)."""
    first = float(values[0])
    if every(values == first):
        return [(first, None)]
    return [(float(value), np.flatnonzero(values == value)) for value in np.unique(values)]


def kth_distance(query: np.ndarray, dist2: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Each asking agent's distance to its k-th neighbour, px; inf if it has fewer.

    Pairs are grouped by ``query`` (0..len(k)-1), nearest first.
    """
    count = np.bincount(query, minlength=len(k))
    kth = np.full(len(k), np.inf)
    full = np.flatnonzero(count >= k)
    kth[full] = np.sqrt(dist2.take(np.cumsum(count).take(full) - 1))
    return kth
