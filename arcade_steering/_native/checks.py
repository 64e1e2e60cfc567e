"""What every binding of the native step checks before an array's address goes to C."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BYTE", "FLOAT", "INT32", "INTP", "checked", "point_at"]

FLOAT, INTP, INT32, BYTE = (np.dtype(t) for t in (np.float64, np.intp, np.int32, np.uint8))


def checked(name: str, array: np.ndarray, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    """``array`` if it is C-contiguous with this dtype and shape.

    Raises:
        ValueError: It is not: its address must not go to the C.
    """
    if array.dtype != dtype or array.shape != shape or not array.flags.c_contiguous:
        raise ValueError(
            f"native step: {name} must be a C-contiguous {dtype} array of shape {shape}, got "
            f"{array.dtype} {array.shape} (contiguous: {array.flags.c_contiguous})"
        )
    return array


def point_at(
    ffi: Any,
    struct: Any,
    member: str,
    values: np.ndarray,
    dtype: np.dtype,
    shape: tuple[int, ...],
    held: list,
    writable: bool = False,
) -> np.ndarray:
    """Point ``struct.member`` at ``values`` as a C-contiguous ``dtype`` array of ``shape``
    (checked; NULL when empty), which ``held`` keeps alive with its buffer; returns it."""
    array = checked(member, np.ascontiguousarray(values, dtype), dtype, shape)
    kind = "intptr_t[]" if dtype == INTP else "double[]"
    buffer = ffi.from_buffer(kind, array, require_writable=writable) if array.size else ffi.NULL
    held.append((array, buffer))
    setattr(struct, member, buffer)
    return array
