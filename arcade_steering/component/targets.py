"""Targets: fixed points, sprites (anything with ``.position``) and zero-argument callables.

A component stores each target as a :class:`TargetRef`; a batch node gathers its agents'
targets into a :class:`TargetTable`, which reads every distinct target's position (and, for
moving ones, velocity) once per step.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .._util.masks import some
from .._util.validate import check_point

if TYPE_CHECKING:
    from .._core.batches import BatchNode
    from .frame import StepFrame


class HasPosition(Protocol):
    """Anything with an ``(x, y)`` ``position``: an ``arcade.Sprite``, a ``StubSprite``."""

    @property
    def position(self) -> tuple[float, float]: ...


#: What a component accepts as a target.
TargetLike = tuple[float, float] | Sequence[float] | HasPosition | Callable[[], Sequence[float]]


class TargetRef:
    """A validated target.

    A sprite is held weakly (the world must not keep a game's dropped sprites alive): once it
    is garbage collected the target is *gone* (:attr:`gone`, and :attr:`value` is None). A
    callable is held strongly: ``lambda: player.position`` would otherwise die at once.

    Args:
        value: An ``(x, y)`` pair, an object with ``.position``, or a zero-argument callable
            returning ``(x, y)``.
        name: The parameter name used in error messages.

    Raises:
        TypeError: ``value`` is none of the above.
        ValueError: A point has NaN/inf or not two coordinates.
    """

    __slots__ = ("_fixed", "_get", "point")

    def __init__(self, value: Any, name: str = "target") -> None:
        #: The fixed point, or None for a moving target.
        self.point: tuple[float, float] | None = None
        # A fixed point as the game gave it (it holds no sprite), or None.
        self._fixed: Any = None
        # Returns the sprite or callable to track (None once a sprite was collected), or None
        # for a fixed point.
        self._get: Callable[[], Any] | None = None
        if isinstance(value, TargetRef):
            self.point, self._fixed, self._get = value.point, value._fixed, value._get
        elif hasattr(value, "position"):
            self._get = hold_weakly(value)
        elif callable(value):
            self._get = repeat(value).__next__
        elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, (str, bytes)):
            self.point = check_point(name, value)
            self._fixed = value
        else:
            raise TypeError(
                f"{name} must be an (x, y) point, an object with .position or a "
                f"zero-argument callable, got {type(value).__name__}"
            )

    @property
    def source(self) -> Any:
        """The object to track (a sprite or a callable); None for a fixed point or a gone
        sprite."""
        return None if self._get is None else self._get()

    @property
    def value(self) -> Any:
        """What was assigned: the point, the callable, the sprite (None once it is gone)."""
        return self._fixed if self._get is None else self._get()

    @property
    def moving(self) -> bool:
        """True for sprites and callables, whose position is read every update."""
        return self._get is not None

    @property
    def gone(self) -> bool:
        """True for a sprite that has been garbage collected since it was assigned."""
        return self._get is not None and self._get() is None

    def __repr__(self) -> str:
        return f"TargetRef({self.value!r})"


def hold_weakly(value: Any) -> Callable[[], Any]:
    """A zero-argument callable returning ``value``, or None once it has been collected
    (held strongly if it can't be weakly referenced: ``__slots__`` without ``__weakref__``)."""
    try:
        return weakref.ref(value)
    except TypeError:
        return repeat(value).__next__


def read_target(source: Any, name: str) -> tuple[float, float]:
    """Where a moving target is now: its ``position``, or what the callable returns.

    NaN is passed on (the agents aiming at it get no force); anything but a pair of numbers is
    refused, as it would be when given to the component.

    Raises:
        TypeError: The target gave something other than numbers.
        ValueError: It gave other than two of them.
    """
    value = source.position if hasattr(source, "position") else source()
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} gave {value!r}: a target must give an (x, y) pair")
    if len(value) != 2:
        raise ValueError(f"{name} gave {len(value)} coordinates: a target must give (x, y)")
    try:
        return float(value[0]), float(value[1])
    except (TypeError, ValueError):
        raise TypeError(f"{name} gave {value!r}: a target must give two numbers") from None


class TargetTable:
    """The distinct targets of a batch node and which agent aims at which.

    Args:
        node: The batch node.
        param: The target parameter (anything with ``ref(component) -> TargetRef``).
        n: The batch's size.
    """

    def __init__(self, node: BatchNode, param: Any, n: int) -> None:
        self._name = param.name
        instances = [node.component] if node.shared else node.instances
        index: dict[Hashable, int] = {}
        refs: list[TargetRef] = []
        inverse = np.empty(len(instances), dtype=np.intp)
        for row, component in enumerate(instances):
            ref = param.ref(component)
            key = ("point", ref.point) if ref.point is not None else ("source", id(ref.source))
            if key not in index:
                index[key] = len(refs)
                refs.append(ref)
            inverse[row] = index[key]
        self.static = np.array([ref.point or (0.0, 0.0) for ref in refs], dtype=float)
        # The moving targets' numbers and references (sprites held weakly: read when used).
        self.moving = [(j, ref) for j, ref in enumerate(refs) if ref.moving]
        self._refs = refs
        # A shared node: n rows (the batch's size, as the other gathered parameters count).
        self.inverse = np.zeros(n, dtype=np.intp) if node.shared else inverse
        self._split: tuple[np.ndarray, np.ndarray, list[tuple[int, TargetRef]]] | None = None
        self._slots: np.ndarray | None = None

    @property
    def sources(self) -> list[Any]:
        """The distinct targets' sources (None for fixed points and gone sprites), in table
        order."""
        return [ref.source for ref in self._refs]

    def positions(self, step: StepFrame) -> np.ndarray:
        """Every agent's target position ``(n, 2)`` px, read now; ``(0, 0)`` for a gone
        target (see :meth:`gone`)."""
        if not self.moving:
            return self.static.take(self.inverse, axis=0)
        points = self.static.copy()
        targets, slots, others = self._agents(step)
        points[targets] = step.arrays.position.take(slots, axis=0)
        for j, ref in others:
            source = ref.source
            if source is not None:
                points[j] = read_target(source, self._name)
        return points.take(self.inverse, axis=0)

    def velocities(self, step: StepFrame) -> np.ndarray:
        """Every agent's target velocity ``(n, 2)`` px/s: the world's for attached sprites,
        estimated from position changes between updates for other moving targets, zero for
        fixed points and gone targets."""
        return self.distinct_velocities(step).take(self.inverse, axis=0)

    def distinct_velocities(self, step: StepFrame) -> np.ndarray:
        """Each distinct target's velocity ``(t, 2)`` px/s, in table order (see
        :meth:`velocities`)."""
        velocities = np.zeros_like(self.static)
        if self.moving:
            targets, slots, others = self._agents(step)
            velocities[targets] = step.arrays.velocity.take(slots, axis=0)
            for j, ref in others:
                source = ref.source
                if source is not None:
                    velocities[j] = step.tracker.velocity(source)
        return velocities

    def gone(self, step: StepFrame) -> np.ndarray:
        """Which agents' targets are sprites that have been garbage collected ``(n,)``."""
        dead = np.zeros(len(self._refs), dtype=bool)
        if self.moving:
            for j, ref in self._agents(step)[2]:
                dead[j] = ref.gone
        return dead[self.inverse]

    def may_be_gone(self, step: StepFrame) -> bool:
        """Whether a target may be gone: one is a sprite the world does not hold (an attached
        agent's sprite lives as long as the update)."""
        return bool(self.moving) and bool(self._agents(step)[2])

    def slots(self, step: StepFrame) -> np.ndarray:
        """Each distinct target's slot in the world's arrays ``(t,)``, -1 where the target is
        no attached agent (read-only: worked out once, as :meth:`_agents` is)."""
        if self._slots is None:
            slots = np.full(len(self._refs), -1, dtype=np.intp)
            targets, found, _ = self._agents(step)
            slots[targets] = found
            slots.flags.writeable = False
            self._slots = slots
        return self._slots

    def _agents(
        self, step: StepFrame
    ) -> tuple[np.ndarray, np.ndarray, list[tuple[int, TargetRef]]]:
        """The moving targets that are the world's agents (``(k,)`` target numbers and their
        slots), and the others. Looked up once: a table lives as long as its batch, and the
        world regroups its batches whenever an agent is attached or detached (an attached
        sprite that dies is detached before the next step)."""
        if self._split is None:
            targets, slots, others = [], [], []
            for j, ref in self.moving:
                source = ref.source
                slot = None if source is None else step.agents.slot_of(source)
                if slot is not None:
                    targets.append(j)
                    slots.append(slot)
                else:
                    others.append((j, ref))
            self._split = (np.array(targets, dtype=np.intp), np.array(slots, dtype=np.intp), others)
        return self._split


class Targets:
    """Every agent's target for one step: ``position`` and ``velocity`` ``(n, 2)``, read when
    first asked for."""

    def __init__(self, table: TargetTable, step: StepFrame) -> None:
        self._table = table
        self._step = step
        self._position: np.ndarray | None = None
        self._velocity: np.ndarray | None = None
        self._distinct_velocity: np.ndarray | None = None

    @property
    def position(self) -> np.ndarray:
        """Positions ``(n, 2)`` px, read now."""
        if self._position is None:
            self._position = self._table.positions(self._step)
        return self._position

    @property
    def velocity(self) -> np.ndarray:
        """Velocities ``(n, 2)`` px/s (see :meth:`SteeringContext.target_velocity`)."""
        if self._velocity is None:
            self._velocity = self.distinct_velocity.take(self._table.inverse, axis=0)
        return self._velocity

    @property
    def distinct_velocity(self) -> np.ndarray:
        """Each distinct target's velocity ``(t, 2)`` px/s, one row per :attr:`sources`
        entry: work done once per target, not once per agent, reads these."""
        if self._distinct_velocity is None:
            self._distinct_velocity = self._table.distinct_velocities(self._step)
        return self._distinct_velocity

    @property
    def sources(self) -> list[Any]:
        """The distinct moving targets (sprites, callables; None for fixed points and gone
        sprites)."""
        return self._table.sources

    @property
    def gone(self) -> np.ndarray:
        """Which agents' targets are sprites that have been garbage collected ``(n,)``: their
        positions read as ``(0, 0)`` and velocities as zero. The built-in behaviours give
        those agents no force."""
        return self._table.gone(self._step)

    def silence(self, force: np.ndarray) -> np.ndarray:
        """``force`` ``(n, 2)`` with the rows of agents whose target is gone set to zero."""
        if not self._table.may_be_gone(self._step):  # points, agents and callables stay
            return force
        gone = self.gone
        if some(gone):
            force[gone] = 0.0
        return force

    @property
    def which(self) -> np.ndarray:
        """Each agent's target: an index into :attr:`sources` ``(n,)``."""
        return self._table.inverse

    @property
    def slots(self) -> np.ndarray:
        """Each distinct target's slot in the world's arrays, -1 for no attached agent
        (read-only)."""
        return self._table.slots(self._step)
