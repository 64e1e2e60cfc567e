"""Velocity estimates for moving targets the world does not move itself."""

from __future__ import annotations

import math
import weakref
from itertools import repeat
from typing import Any

import numpy as np

__all__ = ["FORGET_AFTER", "MotionTracker", "hold_source", "read_position"]

#: Updates a tracked object may go unasked before the tracker forgets it.
FORGET_AFTER = 3


def read_position(source: Any) -> tuple[float, float]:
    """Position of a sprite-like object or a zero-argument callable, as floats."""
    position = source.position if hasattr(source, "position") else source()
    return float(position[0]), float(position[1])


class MotionTracker:
    """Estimates velocities (px/s) of sprites and callables from their position changes.

    Sprites are held weakly, as everywhere in the world: one that is collected is forgotten.
    """

    def __init__(self) -> None:
        # id(source) -> [source getter, last position, velocity, updates since last asked]
        self._entries: dict[int, list[Any]] = {}

    def velocity(self, source: Any) -> np.ndarray:
        """Estimated velocity of ``source`` ``(2,)``; zero until it has been seen twice."""
        entry = self._entries.get(id(source))
        if entry is None or entry[0]() is not source:
            entry = [hold_source(source), read_position(source), np.zeros(2), 0]
            self._entries[id(source)] = entry
        entry[3] = 0
        return entry[2]

    def save(self) -> dict[int, list[Any]]:
        """A copy of what the tracker knows, for :meth:`load`."""
        return {key: [src, pos, vel.copy(), n] for key, (src, pos, vel, n) in self._entries.items()}

    def load(self, saved: dict[int, list[Any]]) -> None:
        """Know again what a :meth:`save` copied."""
        self._entries = {
            key: [src, pos, vel.copy(), n] for key, (src, pos, vel, n) in saved.items()
        }

    def sample(self, dt: float) -> None:
        """Read every tracked source once per update of ``dt`` seconds."""
        for key, entry in list(self._entries.items()):
            entry[3] += 1
            source = entry[0]()
            if entry[3] > FORGET_AFTER or source is None:
                del self._entries[key]
                continue
            position = read_position(source)
            if all(map(math.isfinite, position)):
                entry[2] = (np.subtract(position, entry[1])) / dt
                entry[1] = position


def hold_source(source: Any) -> Any:
    """A getter of ``source``: weak for a sprite, strong for a callable (the game's lambda)."""
    if hasattr(source, "position"):
        try:
            return weakref.ref(source)
        except TypeError:
            pass
    return repeat(source).__next__
