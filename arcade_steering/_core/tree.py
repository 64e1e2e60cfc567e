"""What the core needs of a behaviour tree's nodes, as protocols.

:class:`~arcade_steering.SteeringComponent` implements :class:`Node`; the batches, the agent
table and the context depend on this protocol only, so the component class can name the
context its ``steer`` receives without an import circle.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any, ClassVar, Protocol

__all__ = ["Listener", "Node"]


class Listener(Protocol):
    """What watches a component: told after each change (the batches holding it)."""

    def invalidate(self, structural: bool) -> None: ...


class Node(Protocol):
    """A component as the core sees it."""

    #: The declared parameters, by name.
    params: ClassVar[dict[str, Any]]
    #: Whether the component turns where agents look (:meth:`turn`).
    steers_look: ClassVar[bool]

    @property
    def children(self) -> tuple[Node, ...]: ...

    def shape_key(self) -> Hashable: ...

    def watch(self, listener: Listener) -> None: ...

    def steer(self, ctx: Any) -> Any: ...

    def turn(self, ctx: Any) -> Any: ...

    def iter_tree(self) -> Iterable[Node]: ...
