"""Grouping agents into batches by the shape of their behaviour trees.

A batch is the set of agents whose trees have equal :meth:`SteeringComponent.shape_key`.
It mirrors the tree with :class:`BatchNode`s; each node holds, for every agent of the batch,
the component instance standing at that place in the agent's tree.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from ..component import SteeringComponent


class BatchNode:
    """One place in a batch's tree: the instance each agent has there.

    Args:
        index: Pre-order index of this place in the tree (keys per-agent state).
        instances: One component per agent of the batch, in batch order.
    """

    def __init__(self, index: int, instances: Sequence[SteeringComponent]) -> None:
        self.index = index
        self.instances = list(instances)
        self.component = self.instances[0]
        self.shared = all(instance is self.component for instance in self.instances)
        self.children: list[BatchNode] = []
        self._cache: dict[Hashable, tuple[int, Any]] = {}

    def cached(self, key: Hashable, build: Callable[[BatchNode], Any]) -> Any:
        """``build(self)``, recomputed only after a component parameter changed."""
        epoch = SteeringComponent.param_epoch
        hit = self._cache.get(key)
        if hit is not None and hit[0] == epoch:
            return hit[1]
        value = build(self)
        self._cache[key] = (epoch, value)
        return value


class Batch:
    """Agents evaluated together.

    Args:
        slots: Agent rows in the world's arrays, ``(n,)`` int.
        trees: The root component of each of those agents.
    """

    def __init__(self, slots: np.ndarray, trees: Sequence[SteeringComponent]) -> None:
        self.slots = slots
        counter = iter(range(1 << 30))
        self.root = _build_node(list(trees), counter)

    def __len__(self) -> int:
        return len(self.slots)


def _build_node(instances: list[SteeringComponent], counter: Any) -> BatchNode:
    node = BatchNode(next(counter), instances)
    for position in range(len(node.component.children)):
        node.children.append(
            _build_node([instance.children[position] for instance in instances], counter)
        )
    return node


def group_into_batches(
    slots: Sequence[int], trees: Sequence[SteeringComponent], keys: Sequence[Hashable]
) -> list[Batch]:
    """Group agents whose trees share a shape key, keeping the order of first appearance.

    Args:
        slots: Agent rows.
        trees: Each agent's root component.
        keys: Each agent's tree shape key.
    """
    groups: dict[Hashable, list[int]] = {}
    for position, key in enumerate(keys):
        groups.setdefault(key, []).append(position)
    return [
        Batch(
            np.array([slots[p] for p in members], dtype=np.intp),
            [trees[p] for p in members],
        )
        for members in groups.values()
    ]
