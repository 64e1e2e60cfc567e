"""NativeStep: runs the batches the native step covers and the integrator in the extension.

The world hands a :class:`NativeStep` to every step frame; the step asks it first for each
batch (:meth:`NativeStep.steer`) and for the integrator (:meth:`NativeStep.integrate`), and
runs numpy where it answers False. Every array is checked here (dtype, shape, contiguity)
before its address goes to C, and the C checks every index it reads against the sizes it
is given.
"""

from __future__ import annotations

import os
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.arrays import HEADING_MIN_SPEED
from .._core.batches import Batch
from .._util.masks import some
from .._util.vec import as_complex
from ..behaviors._avoid_kernels import lengths_of
from ..behaviors.avoid import obstacle_candidates
from ..component.context import SteeringContext
from ..component.frame import BatchFrame, StepFrame
from .checks import BYTE, FLOAT, INT32, INTP, checked
from .checks import point_at as _point
from .program import NotCoveredError, Program, compile_batch
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
)
_WRITTEN = {"position", "velocity", "force", "heading", "look"}
#: kernel.h's error codes.
_ERRORS = {
    -1: "a slot outside the agents' columns",
    -2: "an instruction out of range",
    -3: "a program that under- or overflows its stack",
    -4: "neighbour pairs out of order or out of range",
    -5: "obstacle candidates out of order, or their state missing",
    -6: "a leader's slot out of range, or a sight cone's state missing",
    -7: "solid-step candidates out of order, or a shape out of range",
}
#: The fields of as_pairs, from NeighborPairs: dtype and trailing shape.
_PAIR_FIELDS: tuple[tuple[str, np.dtype, tuple[int, ...]], ...] = (
    ("query", INTP, ()),
    ("other", INTP, ()),
    ("offset", FLOAT, (2,)),
    ("distance", FLOAT, ()),
)

#: AvoidObstacles' state: its name, the as_obstacles member over it, and its fill.
_OBSTACLE_STATE = (("shape", "chosen", -1.0), ("side", "side", 0.0), ("cruise", "cruise", np.nan))
#: EvadeSightCone's state (each NaN until known): its name and the as_sight_cones member.
_SIGHT_CONE_STATE = (
    ("leader_heading", "heading"),
    ("leader_velocity", "velocity_before"),
    ("leader_look", "look_before"),
)


class NativeStep:
    """The extension, or why it is not there, and the batches' compiled programs."""

    def __init__(self, kernel: Any, reason: str) -> None:
        self._kernel = kernel
        #: Why the native step is not available; empty when it is.
        self.reason = reason
        self._programs: weakref.WeakKeyDictionary[Batch, _Bound | str] = weakref.WeakKeyDictionary()
        # The agents' columns, the as_agents struct over them and its buffers, and the
        # columns' layout they were taken at (AgentArrays.layout).
        self._agents: tuple[AgentArrays, int, Any, list[Any]] | None = None
        # The plan whose rows the integrator was last given, and the buffer over them.
        self._rows: tuple[RowPlan, Any] | None = None
        self._solid: NativeSolid | None = None

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
        program = bound.for_step(frame, batch)
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
            self._solid = NativeSolid(self._kernel)
        self._raise_on(self._solid.keep_out(agents, frame.arrays, frame.geometry, slots, begin))
        self._raise_on(lib.as_turn(agents, rows[1], n, HEADING_MIN_SPEED))
        return True

    # -- what runs where --------------------------------------------------------------------

    def report(
        self, batches: list[Batch], plan: RowPlan, shapes: int, debug: bool, driven: bool
    ) -> NativeReport:
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

    def _bound(self, batch: Batch) -> _Bound | str:
        """The batch's program bound to the extension, or why it has none."""
        bound = self._programs.get(batch)
        if bound is None or (not isinstance(bound, str) and not bound.program.current()):
            try:
                bound = _Bound(self._kernel.ffi, compile_batch(batch), batch)
            except NotCoveredError as why:
                bound = str(why)
            self._programs[batch] = bound
        return bound

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


class _Bound:
    """A program and the C structs over its arrays; per step, its moving targets and pairs."""

    def __init__(self, ffi: Any, program: Program, batch: Batch) -> None:
        n, t = len(batch), len(program.targets)
        self.program = program
        self._ffi = ffi
        self._targets = program.static_targets.copy()
        self._gone = np.zeros((t, n), dtype=BYTE)
        self._pairs = ffi.new("as_pairs[]", max(len(program.neighbor_leaves), 1))
        self._obstacles = ffi.new("as_obstacles[]", max(len(program.avoiders), 1))
        self._held: list[Any] = []
        self._held_obstacles: list[Any] = []
        # Each AvoidObstacles leaf's context, state arrays and whether some agent had a
        # threat before this step: what store_state needs after it.
        self._states: list[tuple[SteeringContext, dict[str, np.ndarray], bool]] = []
        self._sight_cones = ffi.new("as_sight_cones[]", max(len(program.sight_cones), 1))
        # Each EvadeSightCone leaf's context and state arrays, stored back after the step.
        self._sight_states: list[tuple[SteeringContext, dict[str, np.ndarray]]] = []
        self._held_sight_cones: list[Any] = []
        slots = checked("slots", batch.slots, INTP, (n,))
        ops = checked("ops", program.ops, INT32, (len(program.ops), 4))
        params = checked("params", program.params, FLOAT, (n, program.params.shape[1]))
        checked("targets", self._targets, FLOAT, (t, n, 2))
        self.slots = ffi.from_buffer("intptr_t[]", slots)
        struct = ffi.new("as_program *")
        self._keep = [
            ffi.from_buffer("int32_t[]", ops),
            ffi.from_buffer("double[]", params),
            ffi.from_buffer("double[]", self._targets),
            ffi.from_buffer("uint8_t[]", self._gone),
        ]
        struct.ops, struct.params, struct.targets, struct.gone = self._keep
        struct.n_ops, struct.n_params, struct.n_targets = len(ops), params.shape[1], t
        struct.pairs, struct.n_pairs = self._pairs, len(program.neighbor_leaves)
        struct.obstacles, struct.n_obstacles = self._obstacles, len(program.avoiders)
        struct.sight_cones, struct.n_sight_cones = self._sight_cones, len(program.sight_cones)
        self._struct = struct

    def for_step(self, frame: StepFrame, batch: Batch) -> Any:
        """The program's struct with this step's moving targets and neighbour pairs."""
        for number, table in enumerate(self.program.targets):
            if table.moving:
                self._targets[number] = table.positions(frame)
                self._gone[number] = table.gone(frame) if table.may_be_gone(frame) else 0
        if self.program.neighbor_leaves:
            self._bind_pairs(frame, batch)
        if self.program.avoiders:
            self._bind_obstacles(frame, batch)
        if self.program.sight_cones:
            self._bind_sight_cones(frame, batch)
        return self._struct

    def store_state(self) -> None:
        """Each AvoidObstacles leaf's state, as its numpy steer stores it: all of it when an
        agent has a threat; else only the threats forgotten, if some agent had one."""
        for number, (ctx, state, had_threats) in enumerate(self._states):
            if self._obstacles[number].threats:
                for name, values in state.items():
                    ctx.set_state(name, values)
            elif had_threats:
                ctx.set_state("shape", state["shape"])
        self._states = []
        for ctx, state in self._sight_states:  # EvadeSightCone stores all of it every step
            for name, values in state.items():
                ctx.set_state(name, values)
        self._sight_states = []

    def _bind_obstacles(self, frame: StepFrame, batch: Batch) -> None:
        """Each AvoidObstacles leaf's candidates, found as its numpy steer finds them (the
        same broad phase, so the same order), and its state to read and write in place."""
        ffi = self._ffi
        batch_frame = BatchFrame(frame, batch.slots, batch.index)
        n = len(batch)
        held: list[Any] = []
        self._states = []
        for number, node in enumerate(self.program.avoiders):
            ctx = SteeringContext(batch_frame, node)
            params = ctx.params(node.component)
            speed = lengths_of(as_complex(ctx.velocity))
            length, _, rows, shapes = obstacle_candidates(ctx, params, speed)
            centre, size = ctx.geometry.capsules(shapes)
            entry = self._obstacles[number]
            entry.count = p = len(rows)
            candidates = {
                "query": (rows, INTP, ()),
                "shape": (shapes, FLOAT, ()),
                "centre": (np.column_stack((centre.real, centre.imag)), FLOAT, (2,)),
                "size": (size, FLOAT, ()),
            }
            for name, (values, dtype, shape) in candidates.items():
                _point(ffi, entry, name, values, dtype, (p, *shape), held)
            _point(ffi, entry, "length", length, FLOAT, (n,), held)
            state = {
                name: _point(ffi, entry, member, ctx.state(name, fill), FLOAT, (n,), held, True)
                for name, member, fill in _OBSTACLE_STATE
            }
            self._states.append((ctx, state, some(state["shape"] >= 0.0)))
        self._held_obstacles = held

    def _bind_sight_cones(self, frame: StepFrame, batch: Batch) -> None:
        """Each EvadeSightCone leaf's leaders (velocities, and slots where they are agents:
        their positions are its target's) and its state to read and write in place."""
        batch_frame = BatchFrame(frame, batch.slots, batch.index)
        n = len(batch)
        held: list[Any] = []
        self._sight_states = []
        for number, (node, leader) in enumerate(self.program.sight_cones):
            table, entry = self.program.targets[leader], self._sight_cones[number]
            slots = table.slots(frame).take(table.inverse)
            _point(self._ffi, entry, "velocity", table.velocities(frame), FLOAT, (n, 2), held)
            _point(self._ffi, entry, "leader", slots, INTP, (n,), held)
            ctx = SteeringContext(batch_frame, node)
            state = {
                name: _point(
                    self._ffi, entry, member, ctx.state(name, shape=(2,)), FLOAT, (n, 2), held, True
                )
                for name, member in _SIGHT_CONE_STATE
            }
            self._sight_states.append((ctx, state))
        self._held_sight_cones = held

    def _bind_pairs(self, frame: StepFrame, batch: Batch) -> None:
        """Each flocking rule's neighbour pairs, asked as Separation.steer asks; among every
        agent of the world, left to the C, which finds them on a grid of its own (and sums
        them in the world's order, as the numpy index does for up to 64 agents)."""
        ffi = self._ffi
        world = frame.agents.rows
        world_buffer = ffi.from_buffer("intptr_t[]", checked("world", world, INTP, (len(world),)))
        self._struct.world, self._struct.n_world = world_buffer, len(world)
        held: list[Any] = [(world, world_buffer)]
        batch_frame = None
        for number, node in enumerate(self.program.neighbor_leaves):
            entry = self._pairs[number]
            entry.everyone = self.program.among_all[number]
            if entry.everyone:
                entry.query = entry.other = entry.offset = entry.distance = ffi.NULL
                entry.count = 0
                continue
            if batch_frame is None:
                batch_frame = BatchFrame(frame, batch.slots, batch.index)
            params = SteeringContext(batch_frame, node).params(node.component)
            pairs = SteeringContext(batch_frame, node).neighbors(params.radius, params.among)
            p = len(pairs)
            for name, dtype, shape in _PAIR_FIELDS:
                array = np.ascontiguousarray(getattr(pairs, name), dtype)
                checked(name, array, dtype, (p, *shape))
                kind = "intptr_t[]" if dtype == INTP else "double[]"
                buffer = ffi.from_buffer(kind, array) if p else ffi.NULL
                held.append((array, buffer))
                setattr(entry, name, buffer)
            entry.count = p
        self._held = held  # alive until the next step replaces them
