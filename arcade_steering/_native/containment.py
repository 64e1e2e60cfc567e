"""Containment bound to the native step: its outline, a geometry of its own that the C reads
with its broad phase (made again only when a region changes), and, step by step, the agents
outside their region and the velocity back in, worked out before the call by the numpy
component's own code (:func:`~arcade_steering.behaviors.containment.reentry`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.batches import BatchNode
from ..behaviors.containment import reentry, region_outline
from ..component.context import SteeringContext
from ..component.frame import BatchFrame
from .arrays import BYTE, FLOAT, INTP, point
from .geometry import NativeGeometry

__all__ = ["ContainmentBinding"]


class ContainmentBinding:
    """One Containment leaf's ``as_containment`` entry."""

    def __init__(self, kernel: Any, entry: Any, node: BatchNode) -> None:
        self._ffi, self._entry, self._leaf = kernel.ffi, entry, node
        self._outline = NativeGeometry(kernel)
        self._held: list[Any] = []

    def bind(self, frame: BatchFrame) -> None:
        """This step's outline, regions and re-entries of the leaf's agents."""
        ctx = SteeringContext(frame, self._leaf)
        regions = ctx.params(self._leaf.component).region
        geometry, owner = region_outline(ctx, regions)
        ffi, entry, n = self._ffi, self._entry, len(ctx)
        entry.outline = self._outline.struct(geometry)
        held: list[Any] = []
        point(ffi, entry, "owner", owner, INTP, (len(owner),), held)
        point(ffi, entry, "region", regions.index, INTP, (n,), held)
        out, desired = reentry(ctx, regions)
        outside, back = np.zeros(n, dtype=BYTE), np.zeros((n, 2))
        outside[out], back[out] = 1, desired
        point(ffi, entry, "outside", outside, BYTE, (n,), held)
        point(ffi, entry, "desired", back, FLOAT, (n, 2), held)
        self._held = held

    def store(self) -> None:
        """Nothing: Containment keeps no state."""
