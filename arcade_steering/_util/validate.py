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

#: Exact types accepted without the (slow) abstract-base-class checks: numbers, and pairs.
_PLAIN_NUMBERS = frozenset({float, int, np.float64})
_PLAIN_PAIRS = frozenset({tuple, list, np.ndarray})


def check_real(name: str, value: Any) -> float:
    """Return ``value`` as a finite float, or raise naming ``name``."""
    if type(value) not in _PLAIN_NUMBERS and (
        isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer))
    ):
        raise TypeError(f"{name} must be a number, got {_described(value)}")
    try:
        result = float(value)
    except OverflowError:  # a whole number beyond any float (valid JSON: 10**400)
        digits = _digits(value)
        raise ValueError(f"{name} is too large: a whole number of {digits} digits") from None
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite, got {result}")
    return result


def finite_float(value: Any) -> float | None:
    """``value`` as a float if it is a finite number (not a bool) that a float can hold, else
    None: for numbers read from files, where a whole number of 400 digits is valid JSON."""
    if not _is_number(value):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _described(value: Any) -> str:
    """``value``'s type, and a short string itself (``str '100'``: a number typed as text)."""
    kind = type(value).__name__
    return f"{kind} {value!r}" if isinstance(value, str) and len(value) <= 24 else kind


def check_positive(name: str, value: Any) -> float:
    """Return ``value`` as a finite float > 0, or raise naming ``name``."""
    result = check_real(name, value)
    if result <= 0.0:
        raise ValueError(f"{name} must be > 0, got {result}")
    return result


#: Speed and force limits above this count as this: no limit in practice (a speed of 1e12 px/s
#: crosses any level in one frame), and the arithmetic on them stays finite.
LIMIT = 1e12


def check_limit(name: str, value: Any) -> float:
    """Return ``value`` as a finite float > 0, at most :data:`LIMIT`, or raise naming ``name``."""
    return min(check_positive(name, value), LIMIT)


def check_non_negative(name: str, value: Any) -> float:
    """Return ``value`` as a finite float >= 0, or raise naming ``name``."""
    result = check_real(name, value)
    if result < 0.0:
        raise ValueError(f"{name} must be >= 0, got {result}")
    return result


def check_seed(name: str, value: Any) -> int | None:
    """Return ``value`` if it is a whole number >= 0 or None (a random generator's seed)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
        raise TypeError(f"{name} must be an int or None, got {type(value).__name__}")
    if value is not None and value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}")
    return None if value is None else int(value)


def check_count(name: str, value: Any) -> int:
    """Return ``value`` if it is a whole number >= 1 (an int, not a bool), or raise naming
    ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number (an int), got {type(value).__name__}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")
    return int(value)


def check_bool(name: str, value: Any) -> bool:
    """Return ``value`` if it is a bool, or raise ``TypeError`` naming ``name``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}")
    return bool(value)


def check_point(name: str, value: Any) -> tuple[float, float]:
    """Return ``value`` as a finite ``(x, y)`` tuple, or raise naming ``name``."""
    if type(value) not in _PLAIN_PAIRS and (
        isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray))
    ):
        raise TypeError(f"{name} must be an (x, y) pair, got {type(value).__name__}")
    if len(value) != 2:
        raise ValueError(f"{name} must be an (x, y) pair of 2 coordinates, got {len(value)}")
    return check_real(f"{name}[0] (x)", value[0]), check_real(f"{name}[1] (y)", value[1])


def check_position(name: str, sprite: Any) -> tuple[float, float]:
    """Return a sprite-like's ``position`` as a finite ``(x, y)`` tuple, or raise naming
    ``name.position`` (None, one or three coordinates, a dict, strings)."""
    return check_point(f"{name}.position", sprite.position)


def check_points(name: str, value: Any, minimum: int = 0) -> np.ndarray:
    """Return ``value`` as a finite float array of shape ``(k, 2)``, or raise naming ``name``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of (x, y) points, got {type(value).__name__}")
    points = check_array(name, value) if len(value) else np.zeros((0, 2))
    if points.ndim != 2 or points.shape[1] != 2:
        raise ValueError(f"{name} must have shape (k, 2), got {points.shape}")
    if len(points) < minimum:
        raise ValueError(f"{name} needs at least {minimum} points, got {len(points)}")
    return points


def check_rows(name: str, value: Any, columns: str) -> np.ndarray:
    """Return ``value`` as a finite float array ``(n, k)`` of rows ``columns`` (``"(x, y)"``,
    ``k`` names), an empty sequence as ``(0, k)``; raise naming ``name``."""
    width = columns.count(",") + 1
    try:
        rows = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be {columns} rows of numbers") from None
    if rows.size == 0:
        rows = rows.reshape(0, width)
    if rows.ndim != 2 or rows.shape[1] != width:
        raise ValueError(f"{name} must have shape (n, {width}), got {rows.shape}")
    if not np.isfinite(rows).all():
        raise ValueError(f"{name} must be finite")
    return rows


def check_choice(name: str, value: Any, choices: Sequence[str]) -> str:
    """Return ``value`` if it is one of ``choices``, or raise naming ``name``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {list(choices)}, got {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def check_array(
    name: str, value: Any, ndim: int | None = None, allow_inf: bool = False
) -> np.ndarray:
    """Return ``value`` as a new float64 array, or raise naming ``name``.

    Args:
        name: The parameter's name, for the message.
        value: Numbers, nested sequences of numbers or an array.
        ndim: The number of dimensions required, or None for any (a scalar included).
        allow_inf: Whether ``inf`` and ``-inf`` are allowed (NaN never is).

    Raises:
        TypeError: ``value`` is not made of numbers (None, a string, strings, bools or other
            objects inside it), or ``ndim`` is given and ``value`` is a lone number or object.
        ValueError: ``value`` is ragged, has another number of dimensions or holds NaN (or
            inf, unless allowed).
    """
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be numbers, got {type(value).__name__}")
    try:
        array = np.array(value)
    except ValueError:  # nested sequences of different lengths
        raise ValueError(
            f"{name} must be regular (not ragged) nested sequences of numbers"
        ) from None
    if ndim is not None and ndim > 0 and array.ndim == 0:
        raise TypeError(f"{name} must be a sequence, got {type(value).__name__}")
    if array.dtype.kind == "O":  # mixed objects; astype(float) would let None through as NaN
        if not all(_is_number(item) for item in array.flat):
            raise TypeError(f"{name} must be made of numbers only")
        array = array.astype(np.float64)
    elif array.dtype.kind in "iuf":
        array = array.astype(np.float64, copy=False)
    else:  # bool, complex, str, bytes, dates, records
        raise TypeError(f"{name} must be made of numbers, got {array.dtype} values")
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{name} must have {ndim} dimensions, got shape {array.shape}")
    finite = np.isfinite(array)
    if not finite.all() and not (allow_inf and not np.isnan(array).any()):
        raise ValueError(f"{name} must be finite (no NaN{'' if allow_inf else ' or inf'})")
    return array


def _digits(value: Any) -> int:
    """The decimal digits of a whole number, without building its text (quadratic for huge
    numbers on Python 3.10)."""
    return int(abs(int(value)).bit_length() * math.log10(2)) + 1


def _is_number(value: Any) -> bool:
    return not isinstance(value, (bool, np.bool_)) and isinstance(
        value, (Real, np.floating, np.integer)
    )
