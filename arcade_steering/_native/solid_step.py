"""The solid step on the native path: one call keeps every solid circle out of the walls and
obstacles as :func:`~arcade_steering.solid.keep_out.keep_out` does, finding each circle's
candidate shapes on the geometry's grid itself (``solid.c``, ``dig_out.c``, ``geometry.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .arrays import FLOAT, INTP, point

if TYPE_CHECKING:
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
        #: How many circles the last call found buried (started inside a shape) and dug out.
        self.buried = 0

    def keep_out(
        self, agents: Any, geometry: StaticGeometry, slots: np.ndarray, start: np.ndarray
    ) -> int:
        """Keep the agents ``slots`` ``(k,)``, moved from ``start`` ``(k, 2)`` px to where
        ``agents`` holds them, out of ``geometry``'s shapes, as ``keep_out`` does.

        Args:
            agents: The ``as_agents`` struct over the agents' columns.
            geometry: The walls and obstacles.
            slots: The solid agents.
            start: Where they began the step.

        Returns:
            The C's status: 0, or a negative ``AS_ERR_*`` code.
        """
        circles = self._ffi.new("as_circles *")
        held: list[Any] = []
        k = len(slots)
        point(self._ffi, circles, "slots", slots, INTP, (k,), held)
        point(self._ffi, circles, "start", start, FLOAT, (k, 2), held)
        circles.k = k
        status = int(self._lib.as_keep_out(agents, self._geometry.struct(geometry), circles))
        self.buried = int(circles.buried)
        return status
