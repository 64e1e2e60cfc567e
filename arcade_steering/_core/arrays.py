"""Column arrays with fixed slots, a free list and capacity doubling.

The same trick as arcade's ``SpriteList``: an agent keeps its row (slot) while attached, a
detached agent's slot is reused, and arrays grow by doubling so attaching is amortised O(1).
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np


class SlotArrays:
    """Named arrays sharing one first dimension (the slot), plus a free list.

    Args:
        columns: ``name -> (trailing shape, dtype, fill)`` for each column.
        capacity: Initial number of slots.
    """

    def __init__(
        self, columns: dict[str, tuple[tuple[int, ...], type, object]], capacity: int = 64
    ) -> None:
        self._columns = columns
        self.capacity = capacity
        self.arrays = {
            name: np.full((capacity, *shape), fill, dtype=dtype)
            for name, (shape, dtype, fill) in columns.items()
        }
        self._free = list(range(capacity - 1, -1, -1))

    def allocate(self) -> int:
        """Take a free slot, doubling the capacity if none is left."""
        if not self._free:
            self._grow(self.capacity * 2)
        return self._free.pop()

    def release(self, slot: int) -> None:
        """Give ``slot`` back and reset its row to each column's fill value."""
        for name, (_, _, fill) in self._columns.items():
            self.arrays[name][slot] = fill
        self._free.append(slot)

    def _grow(self, capacity: int) -> None:
        for name, (shape, dtype, fill) in self._columns.items():
            grown = np.full((capacity, *shape), fill, dtype=dtype)
            grown[: self.capacity] = self.arrays[name]
            self.arrays[name] = grown
        self._free.extend(range(capacity - 1, self.capacity - 1, -1))
        self.capacity = capacity


class StateStore:
    """Per-agent component state: one array ``(capacity, *shape)`` per state key."""

    def __init__(self) -> None:
        self._arrays: dict[Hashable, np.ndarray] = {}
        self._fills: dict[Hashable, float] = {}
        self.capacity = 0

    def array(self, key: Hashable, fill: float, shape: tuple[int, ...]) -> np.ndarray:
        """The array for ``key``, created full of ``fill`` on first use."""
        array = self._arrays.get(key)
        if array is None:
            array = np.full((self.capacity, *shape), fill, dtype=float)
            self._arrays[key] = array
            self._fills[key] = fill
        elif array.shape[1:] != tuple(shape):
            raise ValueError(f"state {key!r} has shape {array.shape[1:]}, not {tuple(shape)}")
        return array

    def snapshot(self) -> tuple[dict[Hashable, np.ndarray], dict[Hashable, float]]:
        """A copy of every state, for :meth:`restore`."""
        return {key: array.copy() for key, array in self._arrays.items()}, dict(self._fills)

    def restore(self, snapshot: tuple[dict[Hashable, np.ndarray], dict[Hashable, float]]) -> None:
        """Put back the states of a :meth:`snapshot`; states made since are dropped."""
        arrays, fills = snapshot
        self._arrays = {key: array.copy() for key, array in arrays.items()}
        self._fills = dict(fills)

    def reset(self, slot: int) -> None:
        """Forget every state of ``slot`` (a new agent, or a new behaviour)."""
        for key, array in self._arrays.items():
            array[slot] = self._fills[key]

    def resize(self, capacity: int) -> None:
        """Match the world's slot capacity."""
        for key, array in self._arrays.items():
            if len(array) < capacity:
                grown = np.full((capacity, *array.shape[1:]), self._fills[key], dtype=float)
                grown[: len(array)] = array
                self._arrays[key] = grown
        self.capacity = capacity
