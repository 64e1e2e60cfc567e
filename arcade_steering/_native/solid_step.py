"""The solid step on the native path: numpy's broad phase lists each solid circle's
candidate shapes, as :func:`~arcade_steering.solid.keep_out.keep_out` lists them; the C
sweeps, slides and digs out (``solid.c``, ``dig_out.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._util.vec import as_complex
from ..solid.dig_out import DIG_REACH
from .arrays import FLOAT, INTP, point

if TYPE_CHECKING:
    from .._core.arrays import AgentArrays
    from ..geometry import StaticGeometry
    from .geometry import NativeGeometry

__all__ = ["NativeSolid"]


class NativeSolid:
    """Keeps solid agents out of the walls and obstacles, in the extension.

    Args:
        kernel: The extension (its ``ffi`` and ``lib``).
        geometry: The walls and obstacles as the C reads them.
    """

    def __init__(self, kernel: Any, geometry: NativeGeometry) -> None:
        self._ffi, self._lib = kernel.ffi, kernel.lib
        self._geometry = geometry

    def keep_out(
        self,
        agents: Any,
        arrays: AgentArrays,
        geometry: StaticGeometry,
        slots: np.ndarray,
        start: np.ndarray,
    ) -> int:
        """Keep the agents ``slots`` ``(k,)``, moved from ``start`` ``(k, 2)`` px to where
        ``arrays`` holds them, out of ``geometry``'s shapes, as ``keep_out`` does.

        Args:
            agents: The ``as_agents`` struct over ``arrays``' columns.
            arrays: The agents' columns.
            geometry: The walls and obstacles.
            slots: The solid agents.
            start: Where they began the step.

        Returns:
            The C's status: 0, or a negative ``AS_ERR_*`` code.
        """
        source = as_complex(start)
        place = as_complex(arrays.position.take(slots, axis=0))
        radius = arrays.radius[slots]
        rows, shapes = geometry.pairs(source.real, source.imag, np.abs(place - source) + radius)
        if len(rows) == 0:
            return 0
        frames = self._ffi.addressof(self._geometry.struct(geometry), "shapes")
        held: list[Any] = []
        k = len(slots)
        deepest = np.empty(k)
        circles = self._circles(slots, start, rows, shapes, held)
        buried = self._lib.as_keep_out(
            agents, frames, circles, self._ffi.from_buffer("double[]", deepest)
        )
        if buried <= 0:
            return int(buried)
        # Buried circles: a broad phase of their own, reaching as far as dig_out may push.
        which = (deepest >= 0.0).nonzero()[0]
        depth = deepest[which]
        room = np.abs(place[which] - source[which])
        room += radius[which]
        room += depth
        room += DIG_REACH
        room += radius[which]
        rows, shapes = geometry.pairs(source.real[which], source.imag[which], room)
        circles = self._circles(slots[which], start[which], rows, shapes, held)
        return int(
            self._lib.as_dig_out(agents, frames, circles, self._ffi.from_buffer("double[]", depth))
        )

    def _circles(
        self,
        slots: np.ndarray,
        start: np.ndarray,
        rows: np.ndarray,
        shapes: np.ndarray,
        held: list[Any],
    ) -> Any:
        """The ``as_circles`` struct over the circles and their candidates (checked)."""
        struct = self._ffi.new("as_circles *")
        k, p = len(slots), len(rows)
        point(self._ffi, struct, "slots", slots, INTP, (k,), held)
        point(self._ffi, struct, "start", start, FLOAT, (k, 2), held)
        point(self._ffi, struct, "rows", rows, INTP, (p,), held)
        point(self._ffi, struct, "shapes", shapes, INTP, (p,), held)
        struct.k, struct.count = k, p
        held.append(struct)
        return struct
