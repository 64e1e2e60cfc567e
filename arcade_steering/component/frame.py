"""The frames a component's context reads: what one (sub)step shares, what one batch sees."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .._core.agents import AgentTable
from .._core.motion import MotionTracker
from .._core.neighborhood import Neighborhood

if TYPE_CHECKING:
    from .._core.batches import Batch
    from ..debug import DebugRecorder
    from ..geometry import StaticGeometry

__all__ = ["BatchFrame", "NativeHook", "StepFrame"]


class NativeHook(Protocol):
    """What a step asks of the native step (``arcade_steering._native``) before numpy."""

    def steer(self, frame: StepFrame, batch: Batch) -> bool:
        """Write the batch's forces (and turns) natively; False to leave them to numpy."""
        ...

    def integrate(self, frame: StepFrame, driven: np.ndarray | None) -> bool:
        """Move every agent natively; False to leave it to numpy."""
        ...

    def turn_looks(self, frame: StepFrame, slots: np.ndarray, looks: np.ndarray) -> None:
        """After a native :meth:`integrate`: put the looks of ``slots`` back to ``looks``
        and turn them natively."""
        ...


class StepFrame:
    """What every batch of one (sub)step shares: the agents, the step, randomness, geometry,
    neighbours, moving targets' velocities and the debug recorder.

    Args:
        agents: The world's agents.
        dt: The (sub)step, seconds.
        rng: The world's seeded generator.
        geometry: The world's walls and obstacles, synced with its space.
        neighborhood: The world's neighbour index and groups, started for this step.
        tracker: Velocities of moving targets the world does not move itself.
        debug: Where to record debug shapes, or None.
        native: The native step, asked first for each batch and the integrator; None for
            numpy only.
    """

    def __init__(
        self,
        agents: AgentTable,
        dt: float,
        rng: np.random.Generator,
        geometry: StaticGeometry,
        neighborhood: Neighborhood,
        tracker: MotionTracker,
        debug: DebugRecorder | None,
        native: NativeHook | None = None,
    ) -> None:
        self.agents = agents
        self.arrays = agents.arrays
        self.dt = dt
        self.rng = rng
        self.geometry = geometry
        self.neighborhood = neighborhood
        self.tracker = tracker
        self.debug = debug
        self.native = native


class BatchFrame:
    """The arrays of one batch for one (sub)step, shared by every node of its tree.

    Arrays are read-only copies: a component returns forces and never moves agents itself.

    Args:
        step: The (sub)step.
        slots: The batch's agents' slots ``(n,)``.
        index: ``slots`` or, when they are consecutive, the same as a slice (faster to write);
            None for ``slots``.
    """

    def __init__(
        self, step: StepFrame, slots: np.ndarray, index: np.ndarray | slice | None = None
    ) -> None:
        arrays = step.arrays
        self.step = step
        self.slots = slots
        self.index = slots if index is None else index
        self.position = _frozen(arrays.position.take(slots, axis=0))
        self.velocity = _frozen(arrays.velocity.take(slots, axis=0))
        self.max_speed = _frozen(arrays.max_speed[slots])
        self.max_force = _frozen(arrays.max_force[slots])
        self.mass = _frozen(arrays.mass[slots])
        self.radius = _frozen(arrays.radius[slots])
        # A response time shorter than the step would overshoot: never react faster than dt.
        self.response_time = _frozen(np.maximum(arrays.response_time[slots], step.dt))
        self.heading = _frozen(arrays.heading.take(slots, axis=0))
        #: Neighbour answers already given to this batch's components, by question.
        self.answers: dict[Any, Any] = {}

    # Where the agents look, read only by the components that turn it.

    @cached_property
    def look(self) -> np.ndarray:
        return _frozen(self.step.arrays.look.take(self.slots, axis=0))

    @cached_property
    def angular_velocity(self) -> np.ndarray:
        return _frozen(self.step.arrays.angular_velocity[self.slots])

    @cached_property
    def max_turn_rate(self) -> np.ndarray:
        return _frozen(self.step.arrays.max_turn_rate[self.slots])

    @cached_property
    def max_angular_acceleration(self) -> np.ndarray:
        return _frozen(self.step.arrays.max_angular_acceleration[self.slots])


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array
