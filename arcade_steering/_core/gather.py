"""Gathering a parameter over the instances of a batch node: as an array, or as groups."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from .batches import BatchNode

__all__ = ["Groups", "gather_array", "gather_groups", "gathered_value"]


class Groups:
    """The agents of a batch grouped by the object one of their parameters holds.

    Iterating gives ``(value, rows)`` pairs: the object and the positions in the batch
    (``(k,)`` int) of the agents holding it, in order of first appearance.
    """

    def __init__(self, pairs: list[tuple[Any, np.ndarray]], n: int) -> None:
        self.pairs = pairs
        self._n = n
        self._index: np.ndarray | None = None

    def __iter__(self) -> Any:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    def __getitem__(self, index: int) -> tuple[Any, np.ndarray]:
        return self.pairs[index]

    @property
    def values(self) -> list[Any]:
        """The distinct objects, in order of first appearance."""
        return [value for value, _ in self.pairs]

    @property
    def index(self) -> np.ndarray:
        """Each agent's group: an index into :attr:`values` ``(n,)`` (read-only)."""
        if self._index is None:
            index = np.zeros(self._n, dtype=np.intp)
            for number, (_, rows) in enumerate(self.pairs[1:], start=1):
                index[rows] = number
            index.flags.writeable = False
            self._index = index
        return self._index


def gathered_value(value: Any) -> Any:
    """The number a batch gathers for a stored value (``None`` means no limit: ``inf``)."""
    return math.inf if value is None else value


def gather_array(node: BatchNode, name: str, n: int) -> np.ndarray:
    """Attribute ``name`` of every agent's component, as floats ``(n,)`` or ``(n, k)``.

    A node whose agents share one instance gets a broadcast (stride 0) of its value: kernels
    can tell and take the cheaper scalar path. Gathered again only after a change.
    """

    def build(node: BatchNode) -> np.ndarray:
        if node.shared:
            value = np.asarray(gathered_value(getattr(node.component, name)), dtype=float)
            return np.broadcast_to(value, (n, *value.shape))
        values = [gathered_value(getattr(c, name)) for c in node.instances]
        array = np.array(values, dtype=float)
        array.flags.writeable = False
        return array

    result: np.ndarray = node.cached(("param", name), build)
    return result


def gather_groups(node: BatchNode, name: str, n: int) -> Groups:
    """Attribute ``name`` of every agent's component, the agents grouped by its value."""

    def build(node: BatchNode) -> Groups:
        if node.shared:
            return Groups([(getattr(node.component, name), np.arange(n))], n)
        members: dict[int, tuple[Any, list[int]]] = {}
        for row, component in enumerate(node.instances):
            value = getattr(component, name)
            members.setdefault(id(value), (value, []))[1].append(row)
        return Groups([(value, np.array(rows)) for value, rows in members.values()], n)

    result: Groups = node.cached(("groups", name), build)
    return result
