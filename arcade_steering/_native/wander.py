"""Wander bound to the native step, step by step: each agent's angle on its wander circle,
walked in Python before the call by the numpy component's own walk
(:func:`~arcade_steering.behaviors.wander.wander_angles`), so both paths draw the same numbers
from the world's generator in the same order; the C seeks the point at that angle."""

from __future__ import annotations

from typing import Any, cast

from .._core.batches import BatchNode
from ..behaviors.wander import Wander, wander_angles
from ..component.context import SteeringContext
from ..component.frame import BatchFrame
from .arrays import FLOAT, point

__all__ = ["bind_wanders"]


def bind_wanders(ffi: Any, entries: Any, nodes: list[BatchNode], frame: BatchFrame) -> list:
    """Walk each Wander leaf's angles (and store them, as its steer does) in the order the
    numpy path evaluates the leaves, into ``entries``; returns what keeps them alive."""
    held: list[Any] = []
    for number, node in enumerate(nodes):
        ctx = SteeringContext(frame, node)
        jitter = ctx.params(cast(Wander, node.component)).jitter
        angle = wander_angles(ctx, jitter)
        point(ffi, entries[number], "angle", angle, FLOAT, (len(ctx),), held)
    return held
