"""What the solid step's parts share: the contact skin, complex vectors, the slide.

2-D vectors are complex numbers ``x + iy`` here: one numpy call per vector operation, since
at these sizes the count of calls, not the rows, sets the cost.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SKIN", "TOUCH", "slide", "without_inward"]

#: Gap (px) left between an agent's circle and a surface it stopped at, so the next sweep
#: starts outside rather than exactly on it.
SKIN = 1e-3
#: A shape within this distance (px) of a circle touches it: a constraint on its pushes.
TOUCH = 2 * SKIN


def without_inward(vectors: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """``vectors`` without their part against the outward unit ``normal`` (complex ``(k,)``;
    a zero normal leaves them as they are)."""
    into = (vectors * normal.conj()).real
    np.minimum(into, 0.0, out=into)
    return vectors - normal * into


def slide(vectors: np.ndarray, normal: np.ndarray, before: np.ndarray | None) -> np.ndarray:
    """``vectors`` (``(k,)`` or ``(m, k)``) along the surface of ``normal`` (their part into
    it removed), or zero where that still goes into the surface met just ``before`` (complex
    ``(k,)``, 0 or None for none): in 2-D, two surfaces meeting at a corner leave no way on,
    and projecting onto each in turn would only zig-zag into the corner."""
    along = without_inward(vectors, normal)
    if before is not None:
        into_before = (along * before.conj()).real < -1e-12 * np.abs(along)
        along[into_before] = 0.0
    return along
