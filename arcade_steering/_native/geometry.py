"""The walls and obstacles as the C reads them: the geometry's shape columns and its broad
phase's grid over them (its cell table dense or hashed), for the C's own queries
(``geometry.c``). Bound again, and checked once by the C, when the geometry's shapes change;
between changes a step hands the C one pointer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..geometry._kernels import NCOL
from .arrays import FLOAT, INTP, point

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

__all__ = ["NativeGeometry"]


class NativeGeometry:
    """The ``as_geometry`` struct over a world's walls and obstacles, kept while they last.

    Args:
        kernel: The extension (its ``ffi`` and ``lib``).
    """

    def __init__(self, kernel: Any) -> None:
        self._ffi, self._lib = kernel.ffi, kernel.lib
        # The shape columns the struct was made from, the struct, and what it points at.
        self._cached: tuple[np.ndarray, Any, list[Any]] | None = None

    def struct(self, geometry: StaticGeometry) -> Any:
        """The ``as_geometry`` struct over ``geometry``'s shapes now.

        Raises:
            RuntimeError: The C found the struct inconsistent (a bug, never the game's).
        """
        cols, start_z, turn_z = geometry.local_frames
        cached = self._cached
        if cached is not None and cached[0] is cols:
            return cached[1]
        ffi, m = self._ffi, cols.shape[1]
        struct = ffi.new("as_geometry *")
        held: list[Any] = []
        shapes = struct.shapes
        point(ffi, shapes, "cols", cols, FLOAT, (NCOL, m), held)
        for name, values in (("start", start_z), ("turn", turn_z)):
            points = np.column_stack((values.real, values.imag))
            point(ffi, shapes, name, points, FLOAT, (m, 2), held)
        shapes.m = m
        struct.n_walls = len(geometry.segment_radius)
        grid = geometry.grid  # the broad phase's, its table dense or hashed
        struct.origin_x, struct.origin_y = (float(v) for v in grid.origin)
        struct.cell, struct.nx, struct.ny = grid.cell_size, grid.nx, grid.ny
        table = grid.table
        rows = struct.rows = len(table)
        struct.keys, struct.shift, struct.probes = self._ffi.NULL, 0, 0
        if table.hashed is not None:
            keys, struct.shift, struct.probes = table.hashed
            point(ffi, struct, "keys", keys, INTP, (rows,), held)
        point(ffi, struct, "first", table.first, INTP, (rows,), held)
        point(ffi, struct, "count", table.count, INTP, (rows,), held)
        items = grid.cell_items
        point(ffi, struct, "items", items, INTP, (len(items),), held)
        struct.listings = len(items)
        for name in ("seen", "found"):
            point(ffi, struct, name, np.zeros(m, dtype=INTP), INTP, (m,), held, True)
        status = self._lib.as_check_geometry(struct)
        if status:
            raise RuntimeError(f"native step refused its geometry (status {status})")
        held.append(struct)
        self._cached = (cols, struct, held)
        return struct
