"""A batch's behaviour tree compiled to a flat postfix program for the native step.

Leaves push a force, blends pop their children's and push one: ``PriorityBlend(Flee(a),
WeightedBlend((Arrive(b), 1), (Separation(30), 2)))`` compiles to ``FLEE ARRIVE SEPARATION
WEIGHTED(2) PRIORITY(2)``. Each instruction is four ``int32``: the opcode and three operands
(a target, a pair set or a child count; the first of its parameter columns). Every number
parameter becomes a column of one ``(n, columns)`` float matrix, one row per agent.

A program lives as long as the parameters it gathered: each place of the tree holds a token
in its cache, which a change of a parameter drops (:meth:`Program.current`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._core.batches import Batch, BatchNode
from .._core.gather import gather_array, gather_groups
from ..behaviors.avoid import AvoidObstacles, AvoidWalls
from ..behaviors.containment import Containment
from ..behaviors.group import Alignment, Cohesion, Separation
from ..behaviors.leader import FollowLeader, OffsetPursuit
from ..behaviors.look import Face, LookWhereYouAreGoing, Scan
from ..behaviors.paths import FollowPath, StayOnPath
from ..behaviors.seek import Arrive, Evade, Flee, Pursue, Seek
from ..behaviors.sight_cone import EvadeSightCone
from ..behaviors.tactics import Interpose, MatchVelocity
from ..behaviors.wander import Wander
from ..behaviors.waypoints import FollowWaypoints
from ..combine import PriorityBlend, WeightedBlend
from ..component.targets import TargetTable

__all__ = ["MAX_STACK", "NotCoveredError", "Program", "compile_batch"]

#: Opcodes, as kernel.h defines them.
SEEK, FLEE, ARRIVE, SEPARATION, WEIGHTED, PRIORITY, AVOID_OBSTACLES = 1, 2, 3, 4, 5, 6, 7
AVOID_WALLS, FOLLOW_PATH, FOLLOW_LEADER, OFFSET_PURSUIT, STAY_ON_PATH = 8, 9, 10, 11, 12
EVADE_SIGHT_CONE, ALIGNMENT, COHESION, PURSUE, EVADE, MATCH_VELOCITY = 13, 14, 15, 16, 17, 18
FACE, LOOK_WHERE_YOU_ARE_GOING, SCAN = 20, 21, 22
INTERPOSE, WANDER, FOLLOW_WAYPOINTS, CONTAINMENT = 23, 24, 25, 26
#: kernel.h's AS_MAX_STACK: the deepest stack, and the most leaves of one kind reading data of
#: their own (flocking rules, AvoidObstacles, AvoidWalls, paths, leaders, Scan, Wander,
#: FollowWaypoints, Containment), of a program.
MAX_STACK = 32
#: What a place of the tree holds while a program built from it is current.
_TOKEN = ("native program",)


class NotCoveredError(Exception):
    """The batch's tree has what the native step does not run; the message says what."""


@dataclass
class Program:
    """A batch's tree as the native step runs it.

    Attributes:
        ops: Instructions ``(m, 4)`` int32: opcode and three operands.
        params: Every agent's number parameters ``(n, columns)`` float.
        targets: The tables of the Seek, Flee and Arrive leaves, in operand order.
        static_targets: Their targets ``(t, n, 2)`` for fixed points (moving ones: per step).
        neighbor_leaves: The Separation, Alignment and Cohesion leaves' places, in operand
            order.
        among_all: For each, whether all its agents' neighbours are every agent (``among``
            None): the C can then find them itself.
        avoiders: The AvoidObstacles leaves' places, in operand order.
        depth: The deepest stack the program needs.
        sight_cones: The EvadeSightCone leaves' places and their leader's target number, in
            operand order.
        walls: The AvoidWalls leaves' places, in operand order.
        followers: The FollowPath and StayOnPath leaves' places, in operand order.
        leaders: The leaves reading a moving target's position and velocity (FollowLeader,
            OffsetPursuit, Pursue, Evade, MatchVelocity, Interpose) and the name of that
            target's parameter, in operand order.
        scanners: The Scan leaves' places, in operand order.
        wanders: The Wander leaves' places, in operand order (the order numpy evaluates them,
            and so draws their random numbers).
        waypoints: The FollowWaypoints leaves' places, in operand order.
        containments: The Containment leaves' places, in operand order.
    """

    ops: np.ndarray
    params: np.ndarray
    targets: list[TargetTable]
    static_targets: np.ndarray
    neighbor_leaves: list[BatchNode]
    among_all: list[bool]
    avoiders: list[BatchNode]
    depth: int
    tokens: list[tuple[BatchNode, object]] = field(default_factory=list)
    sight_cones: list[tuple[BatchNode, int]] = field(default_factory=list)
    walls: list[BatchNode] = field(default_factory=list)
    followers: list[BatchNode] = field(default_factory=list)
    leaders: list[tuple[BatchNode, str]] = field(default_factory=list)
    scanners: list[BatchNode] = field(default_factory=list)
    wanders: list[BatchNode] = field(default_factory=list)
    waypoints: list[BatchNode] = field(default_factory=list)
    containments: list[BatchNode] = field(default_factory=list)

    def current(self) -> bool:
        """Whether no parameter the program gathered has changed since."""
        return all(node.cached(_TOKEN, _new_token) is token for node, token in self.tokens)


def _new_token(_: BatchNode) -> object:
    return object()


class _Compiler:
    """Walks a batch's tree in post-order, emitting instructions and parameter columns."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.ops: list[tuple[int, int, int, int]] = []
        self.columns: list[np.ndarray] = []
        self.targets: list[TargetTable] = []
        self.neighbor_leaves: list[BatchNode] = []
        self.among_all: list[bool] = []
        self.avoiders: list[BatchNode] = []
        self.walls: list[BatchNode] = []
        self.followers: list[BatchNode] = []
        self.leaders: list[tuple[BatchNode, str]] = []
        self.scanners: list[BatchNode] = []
        self.wanders: list[BatchNode] = []
        self.waypoints: list[BatchNode] = []
        self.containments: list[BatchNode] = []
        self.tokens: list[tuple[BatchNode, object]] = []
        self.sight_cones: list[tuple[BatchNode, int]] = []
        self.depth = self.deepest = 0

    def column(self, node: BatchNode, name: str) -> int:
        values = gather_array(node, name, self.n)
        first = sum(1 if each.ndim == 1 else each.shape[1] for each in self.columns)
        self.columns.append(values)
        return first

    def leaf(self, leaves: list[BatchNode], op: int, node: BatchNode, *names: str) -> None:
        """Emit a leaf that reads data of its own each step: its place in ``leaves`` is its
        operand a, the first of its parameter columns ``names`` its operand b."""
        leaves.append(node)
        self.emit(op, len(leaves) - 1, self.gather(node, names))

    def gather(self, node: BatchNode, names: tuple[str, ...]) -> int:
        """Gather the parameter columns ``names``; returns the first's number (0 for none)."""
        first = self.column(node, names[0]) if names else 0
        for name in names[1:]:
            self.column(node, name)
        return first

    def target(self, node: BatchNode, name: str = "target") -> int:
        table = type(node.component).params[name].per_agent(node, self.n)
        self.targets.append(table)
        return len(self.targets) - 1

    def emit(self, op: int, a: int = 0, b: int = 0, c: int = 0, pops: int = 0) -> None:
        self.ops.append((op, a, b, c))
        self.depth += 1 - pops
        self.deepest = max(self.deepest, self.depth)

    def visit(self, node: BatchNode) -> None:
        for child in node.children:
            self.visit(child)
        emit = _EMITTERS.get(type(node.component))
        if emit is None:
            raise NotCoveredError(f"{type(node.component).__name__} has no native step yet")
        emit(self, node)
        self.tokens.append((node, node.cached(_TOKEN, _new_token)))

    def program(self) -> Program:
        params = np.zeros((self.n, 0))
        if self.columns:
            params = np.column_stack([np.asarray(each, dtype=float) for each in self.columns])
        static = np.zeros((len(self.targets), self.n, 2))
        for number, table in enumerate(self.targets):
            static[number] = table.static.take(table.inverse, axis=0)
        return Program(
            np.array(self.ops, dtype=np.int32).reshape(-1, 4),
            np.ascontiguousarray(params, dtype=float),
            self.targets,
            static,
            self.neighbor_leaves,
            self.among_all,
            self.avoiders,
            self.deepest,
            self.tokens,
            sight_cones=self.sight_cones,
            walls=self.walls,
            followers=self.followers,
            leaders=self.leaders,
            scanners=self.scanners,
            wanders=self.wanders,
            waypoints=self.waypoints,
            containments=self.containments,
        )


def _seek(compiler: _Compiler, node: BatchNode) -> None:
    compiler.emit(SEEK, compiler.target(node))


def _flee(compiler: _Compiler, node: BatchNode) -> None:
    compiler.emit(FLEE, compiler.target(node), compiler.column(node, "panic_distance"))


def _arrive(compiler: _Compiler, node: BatchNode) -> None:
    target = compiler.target(node)
    first = compiler.column(node, "slowing_radius")
    compiler.column(node, "tolerance")
    compiler.emit(ARRIVE, target, first)


def _group_rule(op: int) -> Callable[[_Compiler, BatchNode], None]:
    """The emitter of a flocking rule (Separation, Alignment, Cohesion): its pair set."""

    def emit(compiler: _Compiler, node: BatchNode) -> None:
        if np.isfinite(gather_array(node, "fov", compiler.n)).any():
            name = type(node.component).__name__
            raise NotCoveredError(f"{name} with a field of view has no native step yet")
        compiler.among_all.append(gather_groups(node, "among", compiler.n).values == [None])
        compiler.leaf(compiler.neighbor_leaves, op, node, "radius")

    return emit


def _evade_sight_cone(compiler: _Compiler, node: BatchNode) -> None:
    leader = compiler.target(node, "leader")
    compiler.sight_cones.append((node, leader))
    first = compiler.column(node, "length")
    compiler.column(node, "half_angle")
    compiler.column(node, "max_prediction")
    compiler.emit(EVADE_SIGHT_CONE, leader, first, len(compiler.sight_cones) - 1)


def _reading(leaves: str, op: int, *names: str) -> Callable[[_Compiler, BatchNode], None]:
    """The emitter of a leaf that reads data of its own each step (``leaves``: the list of
    the compiler that keeps its kind), with the parameter columns ``names``."""

    def emit(compiler: _Compiler, node: BatchNode) -> None:
        compiler.leaf(getattr(compiler, leaves), op, node, *names)

    return emit


def _face(compiler: _Compiler, node: BatchNode) -> None:
    compiler.emit(FACE, compiler.target(node), compiler.column(node, "tolerance"))


def _look_where_you_are_going(compiler: _Compiler, node: BatchNode) -> None:
    compiler.emit(LOOK_WHERE_YOU_ARE_GOING, 0, compiler.column(node, "tolerance"))


def _leader(op: int, name: str, *columns: str) -> Callable[[_Compiler, BatchNode], None]:
    """The emitter of a leaf that reads its moving target ``name`` into a leader set, with
    the parameter columns ``columns``."""

    def emit(compiler: _Compiler, node: BatchNode) -> None:
        compiler.leaders.append((node, name))
        compiler.emit(op, len(compiler.leaders) - 1, compiler.gather(node, columns))

    return emit


def _interpose(compiler: _Compiler, node: BatchNode) -> None:
    """Interpose: two leader sets, its targets ``a`` (operand a) and ``b`` (operand c)."""
    compiler.leaders += [(node, "a"), (node, "b")]
    first = compiler.gather(node, ("max_prediction", "slowing_radius", "tolerance"))
    compiler.emit(INTERPOSE, len(compiler.leaders) - 2, first, len(compiler.leaders) - 1)


def _weighted(compiler: _Compiler, node: BatchNode) -> None:
    k = len(node.children)
    compiler.emit(WEIGHTED, k, compiler.column(node, "weights"), pops=k)


def _priority(compiler: _Compiler, node: BatchNode) -> None:
    k = len(node.children)
    compiler.emit(PRIORITY, k, compiler.column(node, "threshold"), pops=k)


#: The components the native step runs, by exact class (a subclass may steer otherwise).
_EMITTERS: dict[type, Callable[[_Compiler, BatchNode], None]] = {
    Seek: _seek,
    Flee: _flee,
    Arrive: _arrive,
    Separation: _group_rule(SEPARATION),
    Alignment: _group_rule(ALIGNMENT),
    Cohesion: _group_rule(COHESION),
    AvoidObstacles: _reading(
        "avoiders", AVOID_OBSTACLES, "length", "min_length", "buffer", "braking"
    ),
    EvadeSightCone: _evade_sight_cone,
    AvoidWalls: _reading("walls", AVOID_WALLS, "length", "side_angle", "side_ratio"),
    FollowPath: _reading(
        "followers",
        FOLLOW_PATH,
        *("prediction", "look_ahead", "min_look_ahead", "slowing_radius", "tolerance"),
    ),
    StayOnPath: _reading("followers", STAY_ON_PATH, "prediction"),
    FollowLeader: _leader(FOLLOW_LEADER, "leader", "distance", "slowing_radius", "tolerance"),
    OffsetPursuit: _leader(
        OFFSET_PURSUIT, "leader", "offset", "max_prediction", "slowing_radius", "tolerance"
    ),
    Pursue: _leader(PURSUE, "quarry", "max_prediction"),
    Evade: _leader(EVADE, "threat", "threat_range", "max_prediction"),
    MatchVelocity: _leader(MATCH_VELOCITY, "target"),
    Interpose: _interpose,
    Wander: _reading("wanders", WANDER, "radius", "distance"),
    Containment: _reading("containments", CONTAINMENT, "length", "side_angle", "side_ratio"),
    FollowWaypoints: _reading(
        "waypoints", FOLLOW_WAYPOINTS, "arrive_radius", "slowing_radius", "tolerance"
    ),
    Face: _face,
    LookWhereYouAreGoing: _look_where_you_are_going,
    Scan: _reading("scanners", SCAN, "half_angle", "period", "tolerance"),
    WeightedBlend: _weighted,
    PriorityBlend: _priority,
}


def compile_batch(batch: Batch) -> Program:
    """The batch's tree as a program.

    Raises:
        NotCoveredError: A component has no native step, or the tree is too deep for it.
    """
    compiler = _Compiler(len(batch))
    compiler.visit(batch.root)
    leaves = max(
        len(compiler.neighbor_leaves),
        len(compiler.avoiders),
        len(compiler.walls),
        len(compiler.followers),
        len(compiler.leaders),
        len(compiler.scanners),
        len(compiler.wanders),
        len(compiler.waypoints),
        len(compiler.containments),
    )
    if compiler.deepest > MAX_STACK or leaves > MAX_STACK:
        raise NotCoveredError(f"the tree is deeper than the native step's {MAX_STACK} levels")
    return compiler.program()
