"""Neighbour queries between agents: a spatial index built once per update, flat pair answers.

:class:`NeighborIndex` indexes every agent's position on a uniform grid; a query asks, for a
batch of agents at once, which others lie within a radius (or which ``k`` are nearest), and
answers with :class:`NeighborPairs`, flat arrays that reduce per asking agent without Python
loops.
"""

from .index import NeighborIndex
from .pairs import NeighborPairs

__all__ = ["NeighborIndex", "NeighborPairs"]
