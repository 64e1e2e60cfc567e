"""FollowWaypoints bound to the native step, step by step: its lists, read as the numpy
component reads them (:func:`~arcade_steering.behaviors.waypoints.waypoint_lists`, a Path's
points every step), and its agents' state, which the C advances in place and which is stored
back after the call as the numpy component stores it."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from .._core.batches import BatchNode
from ..behaviors.waypoints import FollowWaypoints, final_run, waypoint_lists
from ..component.context import SteeringContext
from ..component.frame import BatchFrame
from .arrays import FLOAT, INTP, point

__all__ = ["MODES", "WaypointBinding"]

#: FollowWaypoints.mode as the C numbers it.
MODES = {"loop": 0, "pingpong": 1, "once": 2}


class WaypointBinding:
    """One FollowWaypoints leaf's ``as_waypoints`` entry."""

    def __init__(self, ffi: Any, entry: Any, node: BatchNode) -> None:
        self._ffi, self._entry, self._leaf = ffi, entry, node
        # The program emits FollowWaypoints leaves for exactly that class.
        self._mode = cast(FollowWaypoints, node.component).mode
        entry.mode = MODES[self._mode]
        self._held: list[Any] = []
        self._step: tuple[SteeringContext, np.ndarray] | None = None

    def bind(self, frame: BatchFrame) -> None:
        """This step's lists and the agents' state, to read and write in place."""
        ctx = SteeringContext(frame, self._leaf)
        lists = waypoint_lists(ctx.params(self._leaf.component).points, len(ctx))
        ffi, entry, n = self._ffi, self._entry, len(ctx)
        held: list[Any] = []
        m = len(lists.points)
        point(ffi, entry, "points", lists.points, FLOAT, (m, 2), held)
        point(ffi, entry, "first", lists.first, INTP, (n,), held)
        point(ffi, entry, "count", lists.counts, FLOAT, (n,), held)
        entry.final = ffi.NULL
        if self._mode == "once":
            final = final_run(lists.points, lists.starts)[lists.which]
            point(ffi, entry, "final", final, FLOAT, (n,), held)
        state = ctx.state("waypoint", shape=(2,))
        point(ffi, entry, "state", state, FLOAT, (n, 2), held, writable=True)
        entry.m, entry.passes = m, int(lists.counts.max(initial=0.0))
        self._held, self._step = held, (ctx, state)

    def store(self) -> None:
        """Store the agents' new waypoint index and sense, as FollowWaypoints.steer does."""
        if self._step is not None:
            ctx, state = self._step
            ctx.set_state("waypoint", state)
        self._step = None
