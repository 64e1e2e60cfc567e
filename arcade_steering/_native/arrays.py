"""Arrays on their way to the C: checked (dtype, shape, contiguity) before their address is
taken, as the native step's C trusts the sizes it is given."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["BYTE", "FLOAT", "INT32", "INTP", "checked", "point"]

FLOAT, INTP, INT32, BYTE = (np.dtype(t) for t in (np.float64, np.intp, np.int32, np.uint8))
#: The C type of each.
_C_TYPES = {FLOAT: "double[]", INTP: "intptr_t[]", INT32: "int32_t[]", BYTE: "uint8_t[]"}


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


def point(
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
    buffer = ffi.NULL
    if array.size:
        buffer = ffi.from_buffer(_C_TYPES[dtype], array, require_writable=writable)
    held.append((array, buffer))
    setattr(struct, member, buffer)
    return array
