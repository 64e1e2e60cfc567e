"""Per-agent state of components (a wander angle, progress along a path), by state key."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

__all__ = ["StateStore", "digest_state"]


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


#: A state whose name ends so holds identities (``float(id(path))``), which mean something in
#: this process only: digests leave it out (keys are tuples ending with the state's name).
IDENTITY_SUFFIX = "_id"


def digest_state(hasher: Any, snapshot: Any, slots: np.ndarray) -> None:
    """Feed ``hasher`` (a ``hashlib`` hash) a :meth:`StateStore.snapshot`'s state of the
    agents in ``slots``, in that order, key by key (sorted, so equal in any process), but for
    identities."""
    arrays, _ = snapshot
    for key in sorted(arrays, key=repr):
        if isinstance(key, tuple) and str(key[-1]).endswith(IDENTITY_SUFFIX):
            continue
        hasher.update(repr(key).encode())
        hasher.update(arrays[key][slots].tobytes())
