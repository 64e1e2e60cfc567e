"""Per-agent state of components (a wander angle, progress along a path), by state key.

Each state key holds rows for the agents that use it only, not for every slot of the world:
a tree of 500 stateful components given to one agent beside 2,000 others costs 500 rows, not
500 arrays of 2,000. A key's rows are kept in slot order (its *members*); a batch finds its
agents' rows by a binary search, kept until the members change.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from .._util.vec import put_rows, span

__all__ = ["StateColumn", "StateStore", "digest_state", "set_rows"]

#: Slots arrays a column keeps the rows of (the batches sharing a key are few).
_ROWS_KEPT = 8


class StateColumn:
    """One state key's rows: ``values[i]`` belongs to the agent in slot ``members[i]``.

    Args:
        fill: What an agent's row holds before anything is stored.
        shape: The trailing shape of a row.
    """

    def __init__(
        self,
        fill: float,
        shape: tuple[int, ...],
        of: tuple[np.ndarray, np.ndarray, dict] | None = None,
    ) -> None:
        self.fill = fill
        # Rows of the slots arrays asked for since the members last changed, by id(slots):
        # a batch's slots are one array for as long as the batch lives.
        self._rows: dict[int, tuple[np.ndarray, np.ndarray | slice]] = {}
        if of is None:
            self.members = np.zeros(0, dtype=np.intp)
            self.values = np.full((0, *shape), fill, dtype=float)
        else:  # a copy's
            self.members, self.values, self._rows = of

    def copy(self) -> StateColumn:
        """An independent copy (an update makes one of every column, to undo a failed step).

        ``members`` is never written in place (a change makes a new array), so the copy
        shares it, and the rows found for it."""
        of = (self.members, self.values.copy(), dict(self._rows))
        return StateColumn(self.fill, self.values.shape[1:], of)

    def rows(self, slots: np.ndarray) -> np.ndarray | slice:
        """The rows of ``slots`` ``(n,)`` (unique slots), made (with ``fill``) where missing;
        a slice when they are consecutive (the usual case: a batch's agents are the members)."""
        cached = self._rows.get(id(slots))
        if cached is not None and cached[0] is slots:
            return cached[1]
        found, _ = self.find(slots)
        if not found.all():
            self._join(slots[~found])
        rows = span(np.searchsorted(self.members, slots))
        if len(self._rows) >= _ROWS_KEPT:  # slots arrays made for one call (alone=True)
            self._rows.clear()
        self._rows[id(slots)] = (slots, rows)
        return rows

    def read(self, slots: np.ndarray) -> np.ndarray:
        """The rows of ``slots`` (a batch's), a copy ``(n, *shape)``."""
        rows, values = self.rows(slots), self.values
        if isinstance(rows, slice):
            return values[rows].copy()
        # numpy copies rows (n, 2) faster with take(), single values faster by indexing.
        return values.take(rows, axis=0) if values.ndim > 1 else values[rows]

    def write(self, slots: np.ndarray, values: np.ndarray) -> None:
        """Store ``values`` ``(n, *shape)`` in the rows of ``slots`` (a batch's)."""
        rows = self.rows(slots)
        if self.values.shape[1:] == (2,):
            put_rows(self.values, rows, values)
        else:
            self.values[rows] = values

    def find(self, slots: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Which of ``slots`` are members ``(n,)`` bool, and the rows of those."""
        rows = np.searchsorted(self.members, slots)
        found = rows < len(self.members)
        found[found] = self.members[rows[found]] == slots[found]
        return found, rows[found]

    def drop(self, slot: int) -> bool:
        """Forget ``slot``'s row; whether the column is empty now."""
        row = int(np.searchsorted(self.members, slot))
        if row < len(self.members) and self.members[row] == slot:
            self.members = np.delete(self.members, row)
            self.values = np.delete(self.values, row, axis=0)
            self._rows.clear()
        return not len(self.members)

    def _join(self, slots: np.ndarray) -> None:
        members = np.union1d(self.members, slots)
        values = np.full((len(members), *self.values.shape[1:]), self.fill, dtype=float)
        values[np.searchsorted(members, self.members)] = self.values
        self.members, self.values = members, values
        self._rows.clear()


class StateStore:
    """Per-agent component state: one :class:`StateColumn` per state key."""

    def __init__(self) -> None:
        self._columns: dict[Hashable, StateColumn] = {}

    def column(self, key: Hashable, fill: float, shape: tuple[int, ...]) -> StateColumn:
        """The column for ``key``, created (rows full of ``fill``) on first use."""
        column = self._columns.get(key)
        if column is None:
            column = self._columns[key] = StateColumn(fill, tuple(shape))
        elif column.values.shape[1:] != tuple(shape):
            shown = column.values.shape[1:]
            raise ValueError(f"state {key!r} has shape {shown}, not {tuple(shape)}")
        return column

    def read(self, key: Hashable, slots: np.ndarray) -> np.ndarray | None:
        """The state ``key`` of ``slots`` (a copy; ``fill`` for agents without a row), or None
        if no agent has it."""
        column = self._columns.get(key)
        if column is None:
            return None
        slots = np.asarray(slots, dtype=np.intp)
        found, rows = column.find(slots)
        values = np.full((len(slots), *column.values.shape[1:]), column.fill)
        values[found] = column.values[rows]
        return values

    def snapshot(self) -> dict[Hashable, StateColumn]:
        """A copy of every state, for :meth:`restore`."""
        return {key: column.copy() for key, column in self._columns.items()}

    def restore(self, snapshot: dict[Hashable, StateColumn]) -> None:
        """Put back the states of a :meth:`snapshot`; states made since are dropped."""
        self._columns = {key: column.copy() for key, column in snapshot.items()}

    def reset(self, slot: int) -> None:
        """Forget every state of ``slot`` (a new agent, or a new behaviour)."""
        for key in [key for key, column in self._columns.items() if column.drop(slot)]:
            del self._columns[key]


def digest_state(
    hasher: Any, snapshot: dict[Hashable, StateColumn], slots: np.ndarray, trees: np.ndarray
) -> None:
    """Feed ``hasher`` (a ``hashlib`` hash) a :meth:`StateStore.snapshot`'s state of the
    agents in ``slots``, in that order, key by key (sorted, so equal in any process): the rows
    that differ from the state's fill, wherever they are kept. States that hold identities of
    this process (``SteeringComponent.identity_state``) are left out.

    Args:
        hasher: What to feed.
        snapshot: The states.
        slots: The attached agents' slots, in attach order.
        trees: Each slot's behaviour tree (the ``behavior`` column).
    """
    listed: dict[int, list[Any]] = {}
    for key in sorted(snapshot, key=repr):
        column = snapshot[key]
        found, rows = column.find(slots)
        if _holds_identities(key, slots[found][:1], trees, listed):
            continue
        kept = set_rows(column.values[rows], column.fill)
        hasher.update(repr(key).encode())
        hasher.update(np.flatnonzero(found)[kept].tobytes())
        hasher.update(column.values[rows[kept]].tobytes())


def set_rows(values: np.ndarray, fill: float) -> np.ndarray:
    """Which rows of ``values`` ``(n, *shape)`` hold something else than ``fill`` ``(n,)``."""
    same = (values == fill) | (np.isnan(values) & np.isnan(fill))
    return ~same.all(axis=tuple(range(1, same.ndim)))


def _holds_identities(
    key: Hashable, slots: np.ndarray, trees: np.ndarray, listed: dict[int, list[Any]]
) -> bool:
    """Whether the state ``key`` of the component at its place in the tree of ``slots[0]``
    (if any) holds identities."""
    if not len(slots) or not (isinstance(key, tuple) and len(key) == 3):
        return False
    node, kind, name = key
    tree = trees[slots[0]]
    if id(tree) not in listed:
        listed[id(tree)] = list(tree.iter_tree())
    nodes = listed[id(tree)]
    if not (isinstance(node, int) and node < len(nodes) and type(nodes[node]).__name__ == kind):
        return False
    return bool(nodes[node].identity_state(name) is not None)
