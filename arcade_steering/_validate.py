"""Argument checks shared by every public constructor and method.

Each check raises ``TypeError`` for a value of the wrong type and ``ValueError`` for a value
of the right type but out of range, and the message always names the parameter.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Real
from typing import Any

import numpy as np


def check_real(name: str, value: Any) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    result = float(value)
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite, got {result}")
    return result


def check_positive(name: str, value: Any) -> float:
    """Return ``value`` as a finite float > 0, or raise naming ``name``."""
    result = check_real(name, value)
    if result <= 0.0:
        raise ValueError(f"{name} must be > 0, got {result}")
    return result


def check_non_negative(name: str, value: Any) -> float:
    """Return ``value`` as a finite float >= 0, or raise naming ``name``."""
    result = check_real(name, value)
    if result < 0.0:
        raise ValueError(f"{name} must be >= 0, got {result}")
    return result


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool, or raise ``TypeError`` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def check_point(name: str, value: Any) -> tuple[float, float]:
    """Return ``value`` as a finite ``(x, y)`` tuple, or raise naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be an (x, y) pair, got {type(value).__name__}")
    if len(value) != 2:
        raise ValueError(f"{name} must have 2 coordinates, got {len(value)}")
    x = check_real(name, value[0])
    y = check_real(name, value[1])
    return x, y


def check_points(name: str, value: Any, minimum: int = 0) -> np.ndarray:
    """Return ``value`` as a finite float array of shape ``(k, 2)``, or raise naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of (x, y) points, got {type(value).__name__}")
    try:
        points = np.array(value, dtype=float)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{name} must be a sequence of (x, y) points") from error
    if points.size == 0:
        points = points.reshape(0, 2)
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"{name} must have shape (k, 2), got {points.shape}")
    if len(points) < minimum:
        raise ValueError(f"{name} needs at least {minimum} points, got {len(points)}")
    if not np.isfinite(points).all():
        raise ValueError(f"{name} must contain only finite coordinates")
    return points


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``choices``, or raise naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {list(choices)}, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value
