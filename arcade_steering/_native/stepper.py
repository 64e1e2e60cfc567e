"""NativeStep: runs the batches the native step covers and the integrator in the extension.

The world hands a :class:`NativeStep` to every step frame; the step asks it first for each
batch (:meth:`NativeStep.steer`) and for the integrator (:meth:`NativeStep.integrate`), and
runs numpy where it answers False. Every array is checked (dtype, shape, contiguity) before
its address goes to C (here, and in :mod:`bound` for what a batch's leaves read), and the C
checks every index it reads against the sizes it is given.
"""

from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.arrays import HEADING_MIN_SPEED
from .._core.batches import Batch
from ..component.frame import StepFrame
from .arrays import FLOAT, INTP, checked
from .bound import BoundProgram
from .geometry import NativeGeometry
from .program import NotCoveredError, compile_batch
from .report import NativeBatch, NativeReport
from .solid_step import NativeSolid

if TYPE_CHECKING:
    from .._core.arrays import AgentArrays
    from .._core.plan import RowPlan

__all__ = ["SWITCH", "NativeStep"]

#: The environment variable that switches the native step off: ``ARCADE_STEERING_NATIVE=0``.
SWITCH = "ARCADE_STEERING_NATIVE"
#: The agents' columns the C reads and writes, in as_agents' order, and their trailing shape.
_COLUMNS = (
    ("position", (2,)),
    ("velocity", (2,)),
    ("force", (2,)),
    ("heading", (2,)),
    ("look", (2,)),
    ("max_speed", ()),
    ("max_force", ()),
    ("mass", ()),
    ("radius", ()),
    ("response_time", ()),
    ("angular", ()),
    ("angular_velocity", ()),
    ("max_turn_rate", ()),
    ("max_angular_acceleration", ()),
)
_WRITTEN = {"position", "velocity", "force", "heading", "look", "angular", "angular_velocity"}
#: kernel.h's error codes.
_ERRORS = {
    -1: "a slot outside the agents' columns",
    -2: "an instruction out of range",
    -3: "a program that under- or overflows its stack",
    -4: "neighbour pairs out of order or out of range",
    -5: "an obstacle set's state missing",
    -6: "a leader's slot out of range, or a sight cone's state missing",
    -7: "the walls and obstacles inconsistent, or missing",
    -8: "a path or segment out of range, or a path's arrays missing",
    -9: "a leader's arrays missing",
    -10: "a solid circle's arrays missing",
    -11: "the agents' turn columns or a Scan's phase missing",
    -12: "a Wander, FollowWaypoints or Containment leaf's arrays missing, or a waypoint list "
    "or index out of range",
}


class NativeStep:
    """The extension, or why it is not there, and the batches' compiled programs."""

    def __init__(self, kernel: Any, reason: str) -> None:
        self._kernel = kernel
        #: Why the native step is not available; empty when it is.
        self.reason = reason
        self._programs: weakref.WeakKeyDictionary[Batch, BoundProgram | str] = (
            weakref.WeakKeyDictionary()
        )
        # The agents' columns, the as_agents struct over them and its buffers, and the
        # columns' layout they were taken at (AgentArrays.layout).
        self._agents: tuple[AgentArrays, int, Any, list[Any]] | None = None
        # The plan whose rows the integrator was last given, and the buffer over them.
        self._rows: tuple[RowPlan, Any] | None = None
        self._solid: NativeSolid | None = None
        self._geometry: NativeGeometry | None = None

    @classmethod
    def load(cls) -> NativeStep:
        """The extension, unless ``ARCADE_STEERING_NATIVE=0`` or it is not built."""
        if os.environ.get(SWITCH, "").strip() == "0":
            return cls(None, f"switched off: {SWITCH}=0")
        try:
            from . import _kernel  # type: ignore[attr-defined]
        except ImportError as error:
            return cls(None, f"the extension is not built ({error})")
        return cls(_kernel, "")

    @property
    def available(self) -> bool:
        """Whether the extension is loaded and switched on."""
        return self._kernel is not None

    # -- the step ---------------------------------------------------------------------------

    def steer(self, frame: StepFrame, batch: Batch) -> bool:
        """Write the batch's forces into ``frame.arrays.force``, if its tree is covered."""
        if frame.debug is not None:  # the overlay records what the numpy components see
            return False
        bound = self._bound(batch)
        if isinstance(bound, str):
            return False
        agents = self._agents_of(frame.arrays)
        program = bound.for_step(frame, batch, self._native_geometry())
        self._raise_on(
            self._kernel.lib.as_steer(agents, bound.slots, len(batch), program, frame.dt)
        )
        bound.store_state()
        return True

    def integrate(self, frame: StepFrame, driven: np.ndarray | None) -> bool:
        """Move every agent and keep the solid ones out of the walls and obstacles, if none
        is driven by a physics engine."""
        if _integration_blocker(driven):
            return False
        plan, lib = frame.agents.plan, self._kernel.lib
        rows = self._rows
        if rows is None or rows[0] is not plan:
            checked("rows", plan.rows, INTP, (len(plan.rows),))
            rows = self._rows = (plan, self._kernel.ffi.from_buffer("intptr_t[]", plan.rows))
        agents, n = self._agents_of(frame.arrays), len(plan.rows)
        if not (len(frame.geometry) and plan.any_solid):
            self._raise_on(lib.as_integrate(agents, rows[1], n, frame.dt, HEADING_MIN_SPEED))
            return True
        start = np.empty((n, 2))
        start_buffer = self._kernel.ffi.from_buffer("double[]", start)
        self._raise_on(lib.as_move(agents, rows[1], n, frame.dt, start_buffer))
        solid = plan.solid
        slots, begin = (plan.rows, start) if plan.all_solid else (plan.rows[solid], start[solid])
        if self._solid is None:
            self._solid = NativeSolid(self._kernel, self._native_geometry())
        self._raise_on(self._solid.keep_out(agents, frame.geometry, slots, begin))
        self._raise_on(lib.as_turn(agents, rows[1], n, HEADING_MIN_SPEED))
        return True

    def turn_looks(self, frame: StepFrame, slots: np.ndarray, looks: np.ndarray) -> None:
        """Put the looks of ``slots`` back to ``looks`` ``(k, 2)``, where they were before
        :meth:`integrate` turned them to the headings, and turn them by ``arrays.angular``
        within each agent's limits (``integrate.turn_looks``)."""
        k, ffi = len(slots), self._kernel.ffi
        slots = checked("slots", np.ascontiguousarray(slots, INTP), INTP, (k,))
        looks = checked("looks", looks, FLOAT, (k, 2))
        agents = self._agents_of(frame.arrays)
        saved = ffi.from_buffer("double[]", looks)
        self._raise_on(
            self._kernel.lib.as_turn_looks(
                agents, ffi.from_buffer("intptr_t[]", slots), k, frame.dt, saved
            )
        )

    # -- what runs where --------------------------------------------------------------------

    def report(self, batches: list[Batch], debug: bool, driven: bool) -> NativeReport:
        """Which path each batch and the integrator run (see :class:`NativeReport`)."""
        rows = []
        for batch in batches:
            reason = self.reason
            if not reason:
                bound = self._bound(batch)
                reason = bound if isinstance(bound, str) else ""
            if debug and not reason:
                reason = "the debug overlay is on"
            rows.append(NativeBatch(len(batch), repr(batch.root.component), not reason, reason))
        driving = np.ones(1, bool) if driven else None
        integration = self.reason or _integration_blocker(driving)
        return NativeReport(self.available, self.reason, tuple(rows), integration)

    # -- internals --------------------------------------------------------------------------

    def _bound(self, batch: Batch) -> BoundProgram | str:
        """The batch's program bound to the extension, or why it has none."""
        bound = self._programs.get(batch)
        if bound is None or (not isinstance(bound, str) and not bound.program.current()):
            try:
                bound = BoundProgram(self._kernel, compile_batch(batch), batch)
            except NotCoveredError as why:
                bound = str(why)
            self._programs[batch] = bound
        return bound

    def _native_geometry(self) -> NativeGeometry:
        """The walls and obstacles as the C reads them, made on first use."""
        if self._geometry is None:
            self._geometry = NativeGeometry(self._kernel)
        return self._geometry

    def _agents_of(self, arrays: AgentArrays) -> Any:
        """The ``as_agents`` struct over ``arrays``' columns, made again when they were
        replaced (grown, restored: ``arrays.layout`` counts it). The struct's buffers keep
        the columns it points at alive."""
        cached = self._agents
        if cached is not None and cached[0] is arrays and cached[1] == arrays.layout:
            return cached[2]
        ffi = self._kernel.ffi
        struct = ffi.new("as_agents *")
        keep = []
        capacity = len(arrays.position)
        for name, shape in _COLUMNS:
            column = checked(name, getattr(arrays, name), FLOAT, (capacity, *shape))
            buffer = ffi.from_buffer("double[]", column, require_writable=name in _WRITTEN)
            keep.append(buffer)
            setattr(struct, name, buffer)
        struct.capacity = capacity
        self._agents = (arrays, arrays.layout, struct, keep)
        return struct

    @staticmethod
    def _raise_on(status: int) -> None:
        if status:
            raise RuntimeError(f"native step refused its input: {_ERRORS.get(status, status)}")


def _integration_blocker(driven: np.ndarray | None) -> str:
    """Why the integrator must run on numpy, or ``""``."""
    if driven is not None:
        return "a physics engine drives agents"
    return ""
