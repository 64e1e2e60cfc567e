"""Grouping agents into batches by the shape of their behaviour trees.

A batch is the set of agents whose trees have equal :meth:`SteeringComponent.shape_key`.
It mirrors the tree with :class:`BatchNode`s; each node holds, for every agent of the batch,
the component instance standing at that place in the agent's tree, and caches what it
gathered from them until one of them changes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from .._util.vec import span
from .tree import Node


class BatchNode:
    """One place in a batch's tree: the instance each agent has there.

    Args:
        index: Pre-order index of this place in the tree (keys per-agent state).
        instances: One component per agent of the batch, in batch order.
        reshaped: Called when one of the instances changes a structural parameter: the
            agents must be grouped again.
    """

    def __init__(self, index: int, instances: Sequence[Node], reshaped: Callable[[], None]) -> None:
        self.index = index
        self.instances = list(instances)
        self.component = self.instances[0]
        self.shared = all(instance is self.component for instance in self.instances)
        self.children: list[BatchNode] = []
        #: Whether a component at or below this place turns where the agents look.
        self.turns = False
        self._cache: dict[Hashable, Any] = {}
        #: The parameters gathered so far, by name; dropped with the caches on a change.
        self.gathered: dict[str, Any] = {}
        self._reshaped = reshaped
        distinct = [self.component] if self.shared else list({id(c): c for c in instances}.values())
        for instance in distinct:
            instance.watch(self)

    def invalidate(self, structural: bool) -> None:
        """An instance changed: forget what was gathered (and regroup if ``structural``)."""
        self._cache.clear()
        self.gathered = {}
        if structural:
            self._reshaped()

    def cached(self, key: Hashable, build: Callable[[BatchNode], Any]) -> Any:
        """``build(self)``, kept until one of the instances changes."""
        try:
            return self._cache[key]
        except KeyError:
            value = self._cache[key] = build(self)
            return value


class Batch:
    """Agents evaluated together.

    Args:
        slots: Agent rows in the world's arrays, ``(n,)`` int.
        trees: The root component of each of those agents.
        reshaped: See :class:`BatchNode`.
    """

    def __init__(
        self,
        slots: np.ndarray,
        trees: Sequence[Node],
        reshaped: Callable[[], None] = lambda: None,
    ) -> None:
        self.slots = slots
        #: ``slots`` as a slice when they are consecutive (written faster), else ``slots``.
        self.index = span(slots)
        counter = iter(range(1 << 30))
        self.root = _build_node(list(trees), counter, reshaped)
        #: Whether a component of the tree turns where the agents look.
        self.turns = self.root.turns

    def __len__(self) -> int:
        return len(self.slots)


def _build_node(instances: list[Node], counter: Any, reshaped: Callable[[], None]) -> BatchNode:
    node = BatchNode(next(counter), instances, reshaped)
    for position in range(len(node.component.children)):
        node.children.append(
            _build_node([instance.children[position] for instance in instances], counter, reshaped)
        )
    node.turns = node.component.steers_look or any(child.turns for child in node.children)
    return node


def group_into_batches(
    slots: Sequence[int],
    trees: Sequence[Node],
    keys: Sequence[Hashable],
    reshaped: Callable[[], None] = lambda: None,
) -> list[Batch]:
    """Group agents whose trees share a shape key, keeping the order of first appearance.

    Args:
        slots: Agent rows.
        trees: Each agent's root component.
        keys: Each agent's tree shape key.
        reshaped: See :class:`BatchNode`.
    """
    groups: dict[Hashable, list[int]] = {}
    for position, key in enumerate(keys):
        groups.setdefault(key, []).append(position)
    return [
        Batch(
            np.array([slots[p] for p in members], dtype=np.intp),
            [trees[p] for p in members],
            reshaped,
        )
        for members in groups.values()
    ]
