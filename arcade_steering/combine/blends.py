"""WeightedBlend and PriorityBlend: the weighted sum of the children's forces, and the first
child that has something to say."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core.batches import BatchNode
from .._core.gather import gather_array
from .._util.masks import some
from .._util.validate import check_real
from .._util.vec import lengths, truncate, where_rows
from ..behaviors.avoid import AvoidWalls
from ..behaviors.group import Separation
from ..behaviors.seek import Seek
from ..component.base import Combiner, SteeringComponent, check_component
from ..component.context import SteeringContext
from ..component.params import Param, param
from ..component.registry import Arguments, built_in


class _Weights(Param):
    """One finite weight per child of the blend, gathered as ``(n, children)``."""

    def validate(self, instance: Any, values: Any) -> tuple[float, ...]:
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
            raise TypeError(f"weights must be a sequence of numbers, got {type(values).__name__}")
        checked = tuple(check_real(f"weights[{i}]", value) for i, value in enumerate(values))
        children = len(instance.children)
        if len(checked) != children:
            raise ValueError(f"weights needs {children} values, got {len(checked)}")
        return checked

    def per_agent(self, node: BatchNode, n: int) -> np.ndarray:
        return gather_array(node, self.name, n)


def _weights() -> Any:
    """The ``weights`` field of :class:`WeightedBlend`."""
    return _Weights()


@built_in(lambda the: Arguments((Seek(the.point), 1.0), (Separation(30.0), 2.0)))
class WeightedBlend(Combiner):
    """The weighted sum of the children's forces, truncated to each agent's ``max_force``.

    Args:
        *weighted: ``(component, weight)`` pairs; weights are finite numbers (negative ones
            invert a child, e.g. a negative Cohesion).

    Example:
        ``WeightedBlend((FollowLeader(leader), 1.0), (Separation(30), 1.5))``
    """

    #: One weight per child, in order.
    weights: tuple[float, ...] = _weights()

    def __init__(self, *weighted: tuple[SteeringComponent, float]) -> None:
        if not weighted:
            raise ValueError("weighted needs at least one (component, weight) pair")
        children, weights = [], []
        for index, pair in enumerate(weighted):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise TypeError(f"weighted[{index}] must be a (component, weight) pair")
            children.append(check_component(f"weighted[{index}] component", pair[0]))
            weights.append(check_real(f"weighted[{index}] weight", pair[1]))
        self.adopt("weighted", children)
        self.weights = tuple(weights)

    @classmethod
    def from_children(
        cls, children: list[SteeringComponent], values: dict[str, Any]
    ) -> SteeringComponent:
        """The blend of ``children`` with ``values["weights"]``, one weight per child."""
        weights = values.get("weights")
        if not isinstance(weights, tuple) or len(weights) != len(children):
            raise ValueError(f"weights must be a list of {len(children)} numbers, one per child")
        return cls(*zip(children, weights, strict=True))

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        weights = ctx.params(self).weights
        total = np.zeros((len(ctx), 2))
        for index in range(len(self._children)):
            total += weights[:, index, None] * ctx.child(index)
        return truncate(total, ctx.max_force)

    def turn(self, ctx: SteeringContext) -> np.ndarray | None:
        """The weighted sum of the turns of the children that turn (None if none does)."""
        weights = ctx.params(self).weights
        total = None
        for index in range(len(self._children)):
            turn = ctx.child_turn(index)
            if turn is not None:
                weighted = weights[:, index] * turn
                total = weighted if total is None else total + weighted
        return total

    def __repr__(self) -> str:
        pairs = ", ".join(
            f"({c!r}, {w})" for c, w in zip(self._children, self.weights, strict=True)
        )
        return f"WeightedBlend({pairs})"


@built_in(lambda the: Arguments(AvoidWalls(), Seek(the.point)))
class PriorityBlend(Combiner):
    """The force of the first child whose force exceeds ``threshold``; zero if none does.

    Order matters: put the components that are silent most of the time first (AvoidWalls,
    AvoidObstacles, EvadeSightCone, Flee with a panic distance) and the always-on drive
    (Seek, Arrive, FollowPath) last. A Seek that is on course returns about zero, so placed
    first it would hand over to the next child whenever it is content.

    Every child is evaluated for every agent, so per-agent state (path progress, wander) keeps
    advancing while a higher-priority child is in charge.

    Args:
        *components: Children in order of priority.
        threshold: Force magnitude (px/s² times mass) above which a child takes charge.
    """

    threshold: float = param(default=1e-3, ge=0.0, kw_only=True)

    def __init__(self, *components: SteeringComponent, threshold: float = 1e-3) -> None:
        self.adopt("components", components)
        self.threshold = threshold

    def steer(self, ctx: SteeringContext) -> np.ndarray:
        threshold = ctx.params(self).threshold
        result = np.zeros((len(ctx), 2))
        undecided = np.ones(len(ctx), dtype=bool)
        for index in range(len(self._children)):
            force = ctx.child(index)  # every child steers: its per-agent state advances
            if not some(undecided):
                continue
            takes = undecided & (lengths(force) > threshold)
            if not some(takes):  # the usual case for the first children: silent
                continue
            result = where_rows(takes, force, result)  # masked (n, 2) writes are slow
            undecided &= ~takes
        return result

    def turn(self, ctx: SteeringContext) -> np.ndarray | None:
        """The turn of the first child whose turn exceeds ``threshold`` (degrees per s²),
        agent by agent; None if no child turns."""
        threshold = ctx.params(self).threshold
        result = None
        undecided = np.ones(len(ctx), dtype=bool)
        for index in range(len(self._children)):
            turn = ctx.child_turn(index)
            if turn is None:
                continue
            takes = undecided & (np.abs(turn) > threshold)
            result = np.where(takes, turn, 0.0 if result is None else result)
            undecided &= ~takes
        return result
