"""Formations: slot offsets for :class:`~arcade_steering.OffsetPursuit`.

Every offset is ``(ahead, left)`` px in the leader's frame (the world offset when the leader
faces +x), so ``ahead`` is negative behind the leader. Give follower ``i`` the ``i``-th slot::

    for follower, offset in zip(squad, formations.wedge(len(squad), spacing=30)):
        world.attach(follower, steer.OffsetPursuit(leader, offset))

Example:
    >>> line(3, 20.0)
    [(-20.0, 20.0), (-20.0, 0.0), (-20.0, -20.0)]
    >>> column(2, 25.0)
    [(-25.0, 0.0), (-50.0, 0.0)]
"""

from __future__ import annotations

import math
from numbers import Integral

from ._util.validate import check_positive

__all__ = ["column", "line", "wedge"]

Offset = tuple[float, float]


def line(n: int, spacing: float) -> list[Offset]:
    """``n`` slots abreast, one ``spacing`` behind the leader, left to right, centred.

    Args:
        n: Number of slots (>= 0).
        spacing: Distance between neighbouring slots and from the leader's rank, px (> 0).
    """
    n, spacing = _check(n, spacing)
    middle = (n - 1) / 2.0
    return [(-spacing, (middle - i) * spacing) for i in range(n)]


def column(n: int, spacing: float) -> list[Offset]:
    """``n`` slots in single file behind the leader, ``spacing`` apart, nearest first.

    Args:
        n: Number of slots (>= 0).
        spacing: Distance between consecutive slots, px (> 0).
    """
    n, spacing = _check(n, spacing)
    return [(-(i + 1) * spacing, 0.0) for i in range(n)]


def wedge(n: int, spacing: float) -> list[Offset]:
    """``n`` slots in a V opening behind the leader, arms at 45 degrees, left arm first.

    Slots alternate left and right; consecutive slots on an arm are ``spacing`` apart, and the
    first two are ``spacing`` from the leader.

    Args:
        n: Number of slots (>= 0).
        spacing: Distance between consecutive slots on an arm, px (> 0).
    """
    n, spacing = _check(n, spacing)
    step = spacing * math.sqrt(0.5)
    return [
        (-(i // 2 + 1) * step, (1 if i % 2 == 0 else -1) * (i // 2 + 1) * step) for i in range(n)
    ]


def _check(n: int, spacing: float) -> tuple[int, float]:
    if isinstance(n, bool) or not isinstance(n, Integral):
        raise TypeError(f"n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    return int(n), check_positive("spacing", spacing)
