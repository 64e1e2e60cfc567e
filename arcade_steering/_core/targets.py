"""Targets: fixed points, sprites (anything with ``.position``) and zero-argument callables.

A component stores each target as a :class:`TargetRef`; a batch node gathers its agents'
targets into a :class:`TargetTable`, which reads every distinct target's position (and, for
moving ones, velocity) once per step.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .._util.validate import check_point
from .motion import read_position

if TYPE_CHECKING:
    from .batches import BatchNode
    from .frame import StepFrame


class HasPosition(Protocol):
    """Anything with an ``(x, y)`` ``position``: an ``arcade.Sprite``, a ``StubSprite``."""

    @property
    def position(self) -> tuple[float, float]: ...


#: What a component accepts as a target.
TargetLike = tuple[float, float] | Sequence[float] | HasPosition | Callable[[], Sequence[float]]


class TargetRef:
    """A validated target.

    Args:
        value: An ``(x, y)`` pair, an object with ``.position``, or a zero-argument callable
            returning ``(x, y)``.
        name: The parameter name used in error messages.

    Raises:
        TypeError: ``value`` is none of the above.
        ValueError: A point has NaN/inf or not two coordinates.
    """

    __slots__ = ("point", "source", "value")

    def __init__(self, value: Any, name: str = "target") -> None:
        if isinstance(value, TargetRef):
            value = value.value
        self.value = value
        #: The fixed point, or None for a moving target.
        self.point: tuple[float, float] | None = None
        #: The object to track (a sprite or a callable), or None for a fixed point.
        self.source: Any = None
        if hasattr(value, "position") or callable(value):
            self.source = value
        elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, (str, bytes)):
            self.point = check_point(name, value)
        else:
            raise TypeError(
                f"{name} must be an (x, y) point, an object with .position or a "
                f"zero-argument callable, got {type(value).__name__}"
            )

    @property
    def moving(self) -> bool:
        """True for sprites and callables, whose position is read every update."""
        return self.source is not None

    def __repr__(self) -> str:
        return f"TargetRef({self.value!r})"


class TargetTable:
    """The distinct targets of a batch node and which agent aims at which.

    Args:
        node: The batch node.
        param: The target parameter (anything with ``ref(component) -> TargetRef``).
        n: The batch's size.
    """

    def __init__(self, node: BatchNode, param: Any, n: int) -> None:
        instances = [node.component] if node.shared else node.instances
        index: dict[Hashable, int] = {}
        refs = []
        inverse = np.empty(len(instances), dtype=np.intp)
        for row, component in enumerate(instances):
            ref = param.ref(component)
            key = ("point", ref.point) if ref.point is not None else ("source", id(ref.source))
            if key not in index:
                index[key] = len(refs)
                refs.append(ref)
            inverse[row] = index[key]
        self.static = np.array([ref.point or (0.0, 0.0) for ref in refs], dtype=float)
        self.moving = [(j, ref.source) for j, ref in enumerate(refs) if ref.moving]
        #: The distinct targets' sources (None for fixed points), in table order.
        self.sources = [ref.source for ref in refs]
        # A shared node: n rows (the batch's size, as the other gathered parameters count).
        self.inverse = np.zeros(n, dtype=np.intp) if node.shared else inverse
        self._split: tuple[np.ndarray, np.ndarray, list[tuple[int, Any]]] | None = None

    def positions(self, step: StepFrame) -> np.ndarray:
        """Every agent's target position ``(n, 2)`` px, read now."""
        if not self.moving:
            return self.static.take(self.inverse, axis=0)
        points = self.static.copy()
        targets, slots, others = self._agents(step)
        points[targets] = step.arrays.position.take(slots, axis=0)
        for j, source in others:
            points[j] = read_position(source)
        return points.take(self.inverse, axis=0)

    def velocities(self, step: StepFrame) -> np.ndarray:
        """Every agent's target velocity ``(n, 2)`` px/s: the world's for attached sprites,
        estimated from position changes between updates for other moving targets, zero for
        fixed points."""
        velocities = np.zeros_like(self.static)
        if self.moving:
            targets, slots, others = self._agents(step)
            velocities[targets] = step.arrays.velocity.take(slots, axis=0)
            for j, source in others:
                velocities[j] = step.tracker.velocity(source)
        return velocities.take(self.inverse, axis=0)

    def slots(self, step: StepFrame) -> np.ndarray:
        """Each distinct target's slot in the world's arrays ``(t,)``, -1 where the target is
        no attached agent."""
        slots = np.full(len(self.sources), -1, dtype=np.intp)
        targets, found, _ = self._agents(step)
        slots[targets] = found
        return slots

    def _agents(self, step: StepFrame) -> tuple[np.ndarray, np.ndarray, list[tuple[int, Any]]]:
        """The moving targets that are the world's agents (``(k,)`` target numbers and their
        slots), and the others. Looked up once: a table lives as long as its batch, and the
        world regroups its batches whenever an agent is attached or detached."""
        if self._split is None:
            targets, slots, others = [], [], []
            for j, source in self.moving:
                slot = step.agents.slot_of(source)
                if slot is not None:
                    targets.append(j)
                    slots.append(slot)
                else:
                    others.append((j, source))
            self._split = (np.array(targets, dtype=np.intp), np.array(slots, dtype=np.intp), others)
        return self._split
