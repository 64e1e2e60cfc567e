"""RowPlan: what every update reads of all agents that changes only when agents come or go."""

from __future__ import annotations

import numpy as np

from .._util.masks import every, some
from .._util.vec import span
from .arrays import AgentArrays

__all__ = ["RowPlan"]


class RowPlan:
    """The attached agents' rows and their columns fixed at attach time, gathered once.

    An :class:`~arcade_steering._core.agents.AgentTable` builds one when first asked after
    agents were attached or detached, so an update does not gather these (and test them) again.

    Args:
        arrays: The agents' columns.
        rows: The attached slots in attach order ``(n,)``.

    Attributes:
        rows: The attached slots ``(n,)``.
        index: ``rows`` as a slice when they are consecutive (no agent detached, the usual
            case): numpy writes a slice several times faster than it scatters rows.
        fast_position: Which sprites' positions may be read and written in bulk ``(n,)``.
        fast_angle: Which sprites' angles may be written in bulk ``(n,)``.
        all_fast_position: Whether all of ``fast_position`` are.
        all_fast: Whether all of ``fast_position`` and ``fast_angle`` are.
        rotate: Which sprites turn to face where they go ``(n,)``.
        all_rotate: Whether all of ``rotate`` are.
        facing: The way each sprite's art faces, degrees ``(n,)``.
        solid: Which agents are kept out of walls and obstacles ``(n,)``.
        all_solid: Whether all of ``solid`` are.
        any_solid: Whether any of ``solid`` is.
    """

    def __init__(self, arrays: AgentArrays, rows: np.ndarray) -> None:
        self.rows = rows
        self.index = span(rows)
        self.fast_position = arrays.fast_position[rows]
        self.fast_angle = arrays.fast_angle[rows]
        self.all_fast_position = every(self.fast_position)
        self.all_fast = self.all_fast_position and every(self.fast_angle)
        self.rotate = arrays.rotate[rows]
        self.all_rotate = every(self.rotate)
        self.facing = arrays.facing[rows]
        self.solid = arrays.solid[rows]
        self.all_solid = every(self.solid)
        self.any_solid = some(self.solid)
