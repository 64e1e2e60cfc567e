"""The one place our radians meet arcade's clockwise degrees."""

from __future__ import annotations

import numpy as np

#: Art facing named by ``attach(facing=...)``: degrees counter-clockwise from +x.
FACINGS = {"right": 0.0, "up": 90.0, "left": 180.0, "down": 270.0}


def arcade_angle(heading: np.ndarray, facing: np.ndarray) -> np.ndarray:
    """Arcade ``sprite.angle`` (degrees, clockwise) that points art along a heading.

    Args:
        heading: Directions of travel ``(n, 2)`` (need not be unit length, must be non-zero).
        facing: Direction the unrotated art faces, degrees counter-clockwise from +x, ``(n,)``
            (0 for art drawn facing right, 90 for art drawn facing up).

    Returns:
        Angles ``(n,)`` in degrees in [-180, 180): ``facing - degrees(atan2(hy, hx))``.
    """
    degrees = facing - np.degrees(np.arctan2(heading[:, 1], heading[:, 0]))
    return (degrees + 180.0) % 360.0 - 180.0
