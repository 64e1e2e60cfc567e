"""A batch's program bound to the C structs, and, step by step, what its leaves read: moving
targets, neighbour pairs, the walls and obstacles, paths, leaders, sight cones, and the
per-agent state the C writes in place, stored back after the call as the numpy components
store it. Every array is checked (dtype, shape, contiguity) before its address goes to C."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._core.batches import Batch, BatchNode
from .._core.gather import gather_groups
from .._util.masks import some
from ..behaviors.sight_cone import EvadeSightCone
from ..component.context import SteeringContext
from ..component.frame import BatchFrame, StepFrame
from .among import among_labels
from .arrays import BYTE, FLOAT, INT32, INTP, checked, point
from .containment import ContainmentBinding
from .follow import bind_leaders, path_binding
from .geometry import NativeGeometry
from .program import Program
from .wander import bind_wanders
from .waypoints import WaypointBinding

__all__ = ["BoundProgram"]

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


class BoundProgram:
    """A program and the C structs over its arrays; per step, its moving targets and pairs."""

    def __init__(self, kernel: Any, program: Program, batch: Batch) -> None:
        n, t = len(batch), len(program.targets)
        self.program = program
        self._ffi = ffi = kernel.ffi
        self._targets = program.static_targets.copy()
        self._gone = np.zeros((t, n), dtype=BYTE)
        self._pairs = ffi.new("as_pairs[]", max(len(program.neighbor_leaves), 1))
        self._obstacles = ffi.new("as_obstacles[]", max(len(program.avoiders), 1))
        self._held: list[Any] = []
        self._held_obstacles: list[Any] = []
        self._paths = ffi.new("as_paths[]", max(len(program.followers), 1))
        self._followers = [
            path_binding(ffi, self._paths[k], node) for k, node in enumerate(program.followers)
        ]
        self._leaders = ffi.new("as_leaders[]", max(len(program.leaders), 1))
        self._held_leaders: list[Any] = []
        # Each AvoidObstacles leaf's context, state arrays and whether some agent had a
        # threat before this step: what store_state needs after it.
        self._states: list[tuple[SteeringContext, dict[str, np.ndarray], bool]] = []
        self._sight_cones = ffi.new("as_sight_cones[]", max(len(program.sight_cones), 1))
        # Each EvadeSightCone leaf's context and state arrays, stored back after the step.
        self._sight_states: list[tuple[SteeringContext, dict[str, np.ndarray]]] = []
        self._held_sight_cones: list[Any] = []
        self._scans = ffi.new("as_scan[]", max(len(program.scanners), 1))
        # Each Scan leaf's context and phases, stored back after the step.
        self._scan_states: list[tuple[SteeringContext, np.ndarray]] = []
        self._held_scans: list[Any] = []
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
        struct.paths, struct.n_paths = self._paths, len(program.followers)
        struct.leaders, struct.n_leaders = self._leaders, len(program.leaders)
        struct.scans, struct.n_scans = self._scans, len(program.scanners)
        self._wanders = ffi.new("as_wander[]", max(len(program.wanders), 1))
        self._held_wanders: list[Any] = []
        struct.wanders, struct.n_wanders = self._wanders, len(program.wanders)
        self._waypoints = ffi.new("as_waypoints[]", max(len(program.waypoints), 1))
        struct.waypoints, struct.n_waypoints = self._waypoints, len(program.waypoints)
        self._containments = ffi.new("as_containment[]", max(len(program.containments), 1))
        struct.containments = self._containments
        struct.n_containments = len(program.containments)
        # The FollowWaypoints and Containment leaves' bindings: bound each step, stored after.
        self._bindings: list[WaypointBinding | ContainmentBinding] = [
            WaypointBinding(ffi, self._waypoints[k], node)
            for k, node in enumerate(program.waypoints)
        ]
        self._bindings += [
            ContainmentBinding(kernel, self._containments[k], node)
            for k, node in enumerate(program.containments)
        ]
        # Whether a leaf reads the batch's agents as a numpy component sees them (a flocking
        # rule only where it takes numpy's pairs: _bind_pairs sees to that).
        self._reads_batch = any(
            (
                *(program.avoiders, program.sight_cones, program.followers, program.leaders),
                *(program.scanners, program.wanders, self._bindings),
            )
        )
        self._struct = struct

    def for_step(self, frame: StepFrame, batch: Batch, geometry: NativeGeometry) -> Any:
        """The program's struct with this step's moving targets, neighbour pairs and what
        else its leaves read; ``geometry`` holds the walls and obstacles as the C reads them."""
        program = self.program
        for number, table in enumerate(program.targets):
            if table.moving:
                self._targets[number] = table.positions(frame)
                self._gone[number] = table.gone(frame) if table.may_be_gone(frame) else 0
        if program.avoiders or program.walls or program.sight_cones:
            self._struct.geometry = geometry.struct(frame.geometry)
        if program.neighbor_leaves:
            self._bind_pairs(frame, batch)
        if not self._reads_batch:
            return self._struct
        # What the leaves read of the batch, as the numpy components see it: one frame for all.
        batch_frame = BatchFrame(frame, batch.slots, batch.index)
        if program.avoiders:
            self._bind_obstacles(batch_frame)
        if program.sight_cones:
            self._bind_sight_cones(batch_frame)
        for binding in self._followers:
            binding.bind(batch_frame)
        self._held_leaders = bind_leaders(self._ffi, self._leaders, program.leaders, batch_frame)
        self._bind_scans(batch_frame)
        self._held_wanders = bind_wanders(self._ffi, self._wanders, program.wanders, batch_frame)
        for each in self._bindings:
            each.bind(batch_frame)
        return self._struct

    def store_state(self) -> None:
        """Each AvoidObstacles leaf's state, as its numpy steer stores it: all of it when an
        agent has a threat; else only the threats forgotten, if some agent had one. Each
        FollowPath leaf's progress, each Scan leaf's phase, each FollowWaypoints leaf's
        waypoints."""
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
        for binding in self._followers:
            binding.store()
        for ctx, phase in self._scan_states:  # Scan stores its phase every step
            ctx.set_state("phase", phase)
        self._scan_states = []
        for each in self._bindings:
            each.store()

    def _bind_obstacles(self, batch_frame: BatchFrame) -> None:
        """Each AvoidObstacles leaf's state, to read and write in place (the C finds the
        obstacles near each agent itself)."""
        ffi, n = self._ffi, len(batch_frame.slots)
        held: list[Any] = []
        self._states = []
        for number, node in enumerate(self.program.avoiders):
            ctx = SteeringContext(batch_frame, node)
            entry = self._obstacles[number]
            state = {
                name: point(ffi, entry, member, ctx.state(name, fill), FLOAT, (n,), held, True)
                for name, member, fill in _OBSTACLE_STATE
            }
            self._states.append((ctx, state, some(state["shape"] >= 0.0)))
        self._held_obstacles = held

    def _bind_scans(self, batch_frame: BatchFrame) -> None:
        """Each Scan leaf's phase, to read and write in place."""
        held: list[Any] = []
        self._scan_states = []
        for number, node in enumerate(self.program.scanners):
            ctx = SteeringContext(batch_frame, node)
            phase = ctx.state("phase", fill=0.0)
            shape = (len(batch_frame.slots),)
            phase = point(self._ffi, self._scans[number], "phase", phase, FLOAT, shape, held, True)
            self._scan_states.append((ctx, phase))
        self._held_scans = held

    def _bind_sight_cones(self, batch_frame: BatchFrame) -> None:
        """Each EvadeSightCone leaf's leaders (velocities, and slots where they are agents:
        their positions are its target's), its state to read and write in place, and whether
        walls hide its followers (the C casts the lines of sight it needs)."""
        frame, n = batch_frame.step, len(batch_frame.slots)
        held: list[Any] = []
        self._sight_states = []
        for number, (node, leader) in enumerate(self.program.sight_cones):
            table, entry = self.program.targets[leader], self._sight_cones[number]
            slots = table.slots(frame).take(table.inverse)
            point(self._ffi, entry, "velocity", table.velocities(frame), FLOAT, (n, 2), held)
            point(self._ffi, entry, "leader", slots, INTP, (n,), held)
            ctx = SteeringContext(batch_frame, node)
            state = {
                name: point(
                    self._ffi, entry, member, ctx.state(name, shape=(2,)), FLOAT, (n, 2), held, True
                )
                for name, member in _SIGHT_CONE_STATE
            }
            self._sight_states.append((ctx, state))
            entry.occluded = cast(EvadeSightCone, node.component).occluded
        self._held_sight_cones = held

    def _bind_pairs(self, frame: StepFrame, batch: Batch) -> None:
        """Each flocking rule's neighbour pairs, asked as Separation.steer asks; among every
        agent of the world, or among groups no agent is in two of (labelled), left to the C,
        which finds them on a grid of its own (and sums them in the world's order, as the
        numpy index does for up to 64 agents)."""
        ffi = self._ffi
        world = frame.agents.rows
        world_buffer = ffi.from_buffer("intptr_t[]", checked("world", world, INTP, (len(world),)))
        self._struct.world, self._struct.n_world = world_buffer, len(world)
        held: list[Any] = [(world, world_buffer)]
        batch_frame = None
        for number, node in enumerate(self.program.neighbor_leaves):
            entry = self._pairs[number]
            entry.everyone = self.program.among_all[number]
            entry.label = entry.asked = ffi.NULL
            if entry.everyone or self._bind_labels(frame, batch, node, entry, held):
                entry.query = entry.other = entry.offset = entry.distance = ffi.NULL
                entry.count = 0
                continue
            if batch_frame is None:  # numpy's pairs, asked as Separation.steer asks
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

    def _bind_labels(
        self, frame: StepFrame, batch: Batch, node: BatchNode, entry: Any, held: list[Any]
    ) -> bool:
        """Point a rule among groups at its labels for the C (see :func:`among_labels`);
        False where numpy's pairs are needed."""
        groups = gather_groups(node, "among", len(batch))
        labelled = among_labels(frame, groups)
        if labelled is None:
            return False
        labels, asked = labelled
        point(self._ffi, entry, "label", labels, INTP, (len(frame.agents.rows),), held)
        point(self._ffi, entry, "asked", asked, INTP, (len(batch),), held)
        entry.groups = len(groups)
        return True
