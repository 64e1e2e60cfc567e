"""A hand-written, per-agent, pure-Python peer of the library's steering, for benchmarks.

What a competent arcade game developer would write without ``arcade_steering``: an
:class:`Agent` object per sprite holding floats, a behaviour object per agent and behaviour
(state such as path progress lives on it), ``math`` only, a dict spatial hash rebuilt every
step for neighbours, walls and obstacles as capsules in a uniform grid of cells, and a solid
step that sweeps each move against the nearby shapes and slides along them, so no agent
crosses a wall. Positions are read from the sprites and written back with angles (arcade's
clockwise degrees) through arcade's own setters, every update.

The formulas mirror the library's (``benchmarks/small_worlds.py --check`` and
``tests/test_peer.py`` show the two behave alike), so timing one against the other compares
two implementations of the same behaviour. Two differences a developer would make are kept:
a :class:`PriorityBlend` stops at the first child that answers (the library evaluates every
child for every agent, in batches), and every move is swept (the library sweeps only moves
longer than the agent's radius and pushes the shorter ones out).
"""

from .behaviors import (
    Arrive,
    AvoidObstacles,
    AvoidWalls,
    EvadeSightCone,
    FollowLeader,
    FollowPath,
    PriorityBlend,
    Separation,
    WeightedBlend,
)
from .geometry import Level, Route, Shape, obstacle, wall
from .world import Agent, World

__all__ = [
    "Agent",
    "Arrive",
    "AvoidObstacles",
    "AvoidWalls",
    "EvadeSightCone",
    "FollowLeader",
    "FollowPath",
    "Level",
    "PriorityBlend",
    "Route",
    "Separation",
    "Shape",
    "WeightedBlend",
    "World",
    "obstacle",
    "wall",
]
