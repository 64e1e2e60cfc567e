"""FollowPath, StayOnPath and the leaves reading a moving target (FollowLeader, OffsetPursuit,
Pursue, Evade, MatchVelocity, Interpose) bound to the native step, step by step: their paths, the
agents' progress along them and their leaders, as the numpy components read them, in checked
arrays the C reads (and, for the progress, writes in place)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .._core.batches import BatchNode
from ..behaviors._follow import FollowState
from ..behaviors.leader import FollowLeader, OffsetPursuit, follow_heading, pursuit_heading
from ..behaviors.paths import FollowPath, FollowSetup, follow_setup, path_pack, store_follow
from ..component.context import SteeringContext
from ..component.frame import BatchFrame
from ..component.targets import Targets
from ..path.pack import PathPack
from .arrays import BYTE, FLOAT, INTP, point

__all__ = ["AT_END", "FollowBinding", "PathBinding", "bind_leaders", "path_binding"]

#: FollowPath.at_end as the C numbers it.
AT_END = {"stop": 0, "loop": 1, "reverse": 2}


class PathBinding:
    """One StayOnPath leaf's ``as_paths`` entry: its paths (bound again only when they change)
    and, each step, each agent's path."""

    def __init__(self, ffi: Any, entry: Any, node: BatchNode) -> None:
        self._ffi = ffi
        self._entry = entry
        self._leaf = node
        entry.at_end = AT_END["stop"]  # unused, in range
        self._pack: PathPack | None = None
        self._pack_held: list[Any] = []
        self._held: list[Any] = []

    def bind(self, frame: BatchFrame) -> None:
        """This step's paths of the leaf's agents."""
        ctx = SteeringContext(frame, self._leaf)
        pack, which = path_pack(ctx, ctx.params(self._leaf.component).path)
        self._held = self._bind_paths(pack, which, len(ctx))

    def store(self) -> None:
        """Nothing: StayOnPath keeps no state."""

    def _bind_paths(self, pack: PathPack, which: np.ndarray, n: int) -> list[Any]:
        """Bind ``pack`` if it changed, and ``which``; returns what keeps ``which`` alive."""
        if pack is not self._pack:
            self._bind_pack(pack)
        held: list[Any] = []
        point(self._ffi, self._entry, "which", which, INTP, (n,), held)
        return held

    def _bind_pack(self, pack: PathPack) -> None:
        ffi, entry = self._ffi, self._entry
        p, segments = len(pack.paths), pack.table.shape[1]
        held: list[Any] = []
        point(ffi, entry, "table", pack.table, FLOAT, (7, segments), held)
        point(ffi, entry, "key", pack.key, FLOAT, (segments,), held)
        for name in ("length", "base", "period"):
            point(ffi, entry, name, getattr(pack, name), FLOAT, (p,), held)
        for name in ("closed", "looped"):
            point(ffi, entry, name, getattr(pack, name), BYTE, (p,), held)
        point(ffi, entry, "ends", pack.ends, FLOAT, (p, 2, 2), held)
        entry.segments, entry.paths, entry.any_open = segments, p, pack.any_open
        self._pack, self._pack_held = pack, held


class FollowBinding(PathBinding):
    """One FollowPath leaf's ``as_paths`` entry: its paths and, each step, its agents' state,
    stored back after the call as FollowPath stores it."""

    def __init__(self, ffi: Any, entry: Any, node: BatchNode) -> None:
        super().__init__(ffi, entry, node)
        # The program emits FollowPath leaves for exactly that class.
        component = self._component = cast(FollowPath, node.component)
        entry.always = bool(component.always)
        entry.at_end = AT_END[component.at_end]
        self._step: tuple[SteeringContext, FollowSetup, FollowState, np.ndarray] | None = None

    def bind(self, frame: BatchFrame) -> None:
        """This step's paths and state of the leaf's agents, read as FollowPath.steer reads
        them."""
        ctx = SteeringContext(frame, self._leaf)
        setup = follow_setup(ctx, self._component)
        ffi, entry, n = self._ffi, self._entry, len(ctx)
        held = self._bind_paths(setup.pack, setup.which, n)
        if setup.path_velocity is None:
            entry.path_velocity = ffi.NULL
        else:
            point(ffi, entry, "path_velocity", setup.path_velocity, FLOAT, (n, 2), held)
        # Copies the C writes in place (``sense`` may be the gathered ``direction``).
        state = FollowState(*(np.array(values, dtype=FLOAT) for values in setup.state))
        for name, values in zip(FollowState._fields, state, strict=True):
            point(ffi, entry, name, values, FLOAT, (n,), held, writable=True)
        normal = point(ffi, entry, "normal", np.zeros((n, 2)), FLOAT, (n, 2), held, True)
        self._held = held
        self._step = (ctx, setup, state, normal)

    def store(self) -> None:
        """Store the agents' new state, as FollowPath.steer stores it."""
        if self._step is not None:
            ctx, setup, state, normal = self._step
            store_follow(ctx, self._component, setup, state, normal)
        self._step = None


def path_binding(ffi: Any, entry: Any, node: BatchNode) -> PathBinding:
    """The binding of a FollowPath or StayOnPath leaf to ``entry``."""
    kind = FollowBinding if isinstance(node.component, FollowPath) else PathBinding
    return kind(ffi, entry, node)


#: How the leaves that read their leader's heading find it (the others' is not read).
_HEADINGS: dict[type, Callable[[SteeringContext, Targets], np.ndarray]] = {
    FollowLeader: follow_heading,
    OffsetPursuit: pursuit_heading,
}


def bind_leaders(
    ffi: Any, entries: Any, leaves: list[tuple[BatchNode, str]], frame: BatchFrame
) -> list:
    """Each leader-reading leaf's leaders (its moving target, the parameter named beside it)
    this step, read as its steer reads them, into ``entries``; returns what keeps their
    arrays alive."""
    held: list[Any] = []
    for number, (node, name) in enumerate(leaves):
        ctx = SteeringContext(frame, node)
        leader = getattr(ctx.params(node.component), name)
        entry, n = entries[number], len(ctx)
        point(ffi, entry, "position", leader.position, FLOAT, (n, 2), held)
        point(ffi, entry, "velocity", leader.velocity, FLOAT, (n, 2), held)
        heading = _HEADINGS.get(type(node.component))
        headings = np.zeros((n, 2)) if heading is None else heading(ctx, leader)
        point(ffi, entry, "heading", headings, FLOAT, (n, 2), held)
        point(ffi, entry, "gone", leader.gone, BYTE, (n,), held)
    return held
