"""The walls and obstacles as the C reads them: the geometry's shape columns and a dense
grid over them, for the C's own broad phase (``geometry.c``). Made again, and checked once
by the C, when the geometry's shapes change; between changes a step hands the C one
pointer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..geometry._broad_phase import CapsuleGrid
from ..geometry._kernels import AX, AY, BX, BY, NCOL, RAD
from .arrays import FLOAT, INTP, point

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

__all__ = ["NativeGeometry", "dense_grid"]


def dense_grid(geometry: StaticGeometry) -> CapsuleGrid:
    """A grid over ``geometry``'s shapes whose table is a row per cell (the C reads no hashed
    table): the broad phase's own grid where it is dense, else one with coarser cells."""
    grid = geometry.grid
    if grid.table.dense:
        return grid
    cols = geometry.local_frames.cols
    a, b, radius = cols[AX : AY + 1].T, cols[BX : BY + 1].T, cols[RAD]
    while not grid.table.dense:
        grid = CapsuleGrid(a, b, radius, cell_size=2.0 * grid.cell_size)
    return grid


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
        grid = dense_grid(geometry)
        struct.origin_x, struct.origin_y = (float(v) for v in grid.origin)
        struct.cell, struct.nx, struct.ny = grid.cell_size, grid.nx, grid.ny
        cells = grid.nx * grid.ny
        point(ffi, struct, "first", grid.table.first, INTP, (cells,), held)
        point(ffi, struct, "count", grid.table.count, INTP, (cells,), held)
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
