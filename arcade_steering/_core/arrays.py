"""AgentArrays: every agent's state in declared numpy columns, one row (slot) per agent.

The same trick as arcade's ``SpriteList``: an agent keeps its row (slot) while attached, a
detached agent's slot is reused, and the columns grow by doubling, so attaching is amortised
O(1). Every column is declared below with its trailing shape, type and the value a free row
holds; the world, the agent views and the per-step frames all read these columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .state import StateStore

__all__ = ["DIGESTED", "HEADING_MIN_SPEED", "PORTABLE", "AgentArrays", "SavedArrays"]

#: Below this speed (px/s) an agent keeps its heading and its sprite does not turn.
HEADING_MIN_SPEED = 1.0
#: Rows the columns start with.
INITIAL_CAPACITY = 64


def column(
    shape: tuple[int, ...] = (), dtype: type = float, fill: Any = 0.0, local: bool = False
) -> Any:
    """Declare a column of :class:`AgentArrays`: ``(capacity, *shape)`` of ``dtype``, free
    rows holding ``fill``; ``local`` for one meaningful in this process only (objects, ids,
    attach numbers), which save files do not write."""
    metadata = {"shape": shape, "dtype": dtype, "fill": fill, "local": local}
    return field(init=False, repr=False, metadata=metadata)


@dataclass(eq=False)
class AgentArrays:
    """Every agent's state, one row per slot; free slots hold each column's fill value.

    Args:
        capacity: Rows to start with.
    """

    capacity: int = INITIAL_CAPACITY
    #: Positions ``(capacity, 2)``, px.
    position: np.ndarray = column((2,))
    #: Velocities ``(capacity, 2)``, px/s.
    velocity: np.ndarray = column((2,))
    #: The steering force applied in the last (sub)step, truncated, ``(capacity, 2)``.
    force: np.ndarray = column((2,))
    #: Unit directions of travel ``(capacity, 2)``, kept while an agent stands still.
    heading: np.ndarray = column((2,))
    #: Unit directions each agent looks ``(capacity, 2)``: its heading, unless a component
    #: of its tree turns where it looks (Face, Scan).
    look: np.ndarray = column((2,))
    #: Turn rates of the look directions, degrees per second counter-clockwise.
    angular_velocity: np.ndarray = column()
    #: Turn-rate limits, degrees per second (inf: none).
    max_turn_rate: np.ndarray = column(fill=np.inf)
    #: Limits of the change of turn rate, degrees per second² (inf: none).
    max_angular_acceleration: np.ndarray = column(fill=np.inf)
    #: The angular acceleration steering asked for in the last (sub)step, degrees per s².
    angular: np.ndarray = column()
    #: Speed limits, px/s.
    max_speed: np.ndarray = column(fill=1.0)
    #: Force limits, px/s² times mass.
    max_force: np.ndarray = column(fill=1.0)
    mass: np.ndarray = column(fill=1.0)
    #: Radii of the agents' circles, px.
    radius: np.ndarray = column()
    #: Seconds in which each agent wants to correct its velocity.
    response_time: np.ndarray = column(fill=0.1)
    #: The way each sprite's art faces, degrees counter-clockwise from +x.
    facing: np.ndarray = column()
    #: The sprites' angles as last written, arcade's clockwise degrees.
    angle: np.ndarray = column()
    #: Whether to turn each sprite to face where it goes.
    rotate: np.ndarray = column(dtype=bool, fill=False)
    #: Whether to keep each agent's circle out of walls and obstacles.
    solid: np.ndarray = column(dtype=bool, fill=False)
    #: A weak reference to each sprite (a zero-argument callable returning it, or None once it
    #: has been garbage collected): the world must not keep a game's dropped sprites alive.
    sprite: np.ndarray = column(dtype=object, fill=None, local=True)
    #: ``id`` of each sprite, while attached.
    sprite_id: np.ndarray = column(dtype=object, fill=None, local=True)
    #: Whether each sprite has arcade's own position / angle setters (written in bulk).
    fast_position: np.ndarray = column(dtype=bool, fill=False, local=True)
    fast_angle: np.ndarray = column(dtype=bool, fill=False, local=True)
    #: A weak reference to each agent's :class:`~arcade_steering.SteeringAgent` view, which
    #: holds its sprite: a game keeping only the agent keeps the sprite attached.
    agent: np.ndarray = column(dtype=object, fill=None, local=True)
    #: The root component of each agent's behaviour tree.
    behavior: np.ndarray = column(dtype=object, fill=None, local=True)
    #: Each tree's shape key, or None until the world groups its agents again.
    shape_key: np.ndarray = column(dtype=object, fill=None, local=True)
    #: A number given to each attach, never reused (-1 for a free slot): an agent view
    #: remembers its agent's, and sees it is stale once the slot holds another (or none).
    generation: np.ndarray = column(dtype=np.int64, fill=-1, local=True)
    #: Per-agent component state, by state key.
    state: StateStore = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for each in _COLUMNS:
            shape, dtype, fill = (
                each.metadata["shape"],
                each.metadata["dtype"],
                each.metadata["fill"],
            )
            setattr(self, each.name, np.full((self.capacity, *shape), fill, dtype=dtype))
        self.state = StateStore()
        self._free = list(range(self.capacity - 1, -1, -1))
        self._attaches = 0
        #: Counts the times the columns were replaced by new arrays (grown, or loaded from a
        #: larger snapshot): what holds their addresses (the native step) looks here.
        self.layout = 0

    def allocate(self) -> int:
        """Take a free slot (doubling the capacity if none is left) and number it."""
        if not self._free:
            self.grow(2 * self.capacity)
        slot = self._free.pop()
        self.generation[slot] = self._attaches
        self._attaches += 1
        return slot

    def release(self, slot: int) -> None:
        """Give ``slot`` back: every column's fill value, state forgotten."""
        for each in _COLUMNS:
            getattr(self, each.name)[slot] = each.metadata["fill"]
        self.state.reset(slot)
        self._free.append(slot)

    def save(self) -> SavedArrays:
        """A copy of every column, the free slots and the per-agent state."""
        return SavedArrays(
            self.capacity,
            tuple(self._free),
            {each.name: getattr(self, each.name).copy() for each in _COLUMNS},
            self.state.snapshot(),
            self._attaches,
        )

    def load(self, saved: SavedArrays, objects: bool = True) -> None:
        """Put back what :meth:`save` copied, keeping the capacity if it grew since.

        Attach numbers are not rewound: views of agents attached after the save stay stale
        (and numbers a snapshot gave agents of its own count as given).

        Args:
            saved: What :meth:`save` returned.
            objects: Whether to put back the object columns too (sprites, views, trees):
                not needed when they hold what they held then.
        """
        capacity = max(self.capacity, saved.capacity)
        # A snapshot read from a file may be larger than the world it is read into.
        in_place = capacity == saved.capacity == self.capacity
        for each in _COLUMNS if objects or not in_place else _NUMBERS:
            old = saved.columns[each.name]
            if in_place:  # the usual case: copy into the columns in place
                np.copyto(getattr(self, each.name), old)
                continue
            column = np.full((capacity, *old.shape[1:]), each.metadata["fill"], dtype=old.dtype)
            column[: saved.capacity] = old
            setattr(self, each.name, column)
        if not in_place:
            self.layout += 1
        self._free = [*saved.free, *range(capacity - 1, saved.capacity - 1, -1)]
        self._attaches = max(self._attaches, saved.attaches)
        self.capacity = capacity
        self.state.restore(saved.state)

    def grow(self, capacity: int) -> None:
        """Make room for ``capacity`` slots, keeping every row."""
        for each in _COLUMNS:
            old = getattr(self, each.name)
            grown = np.full((capacity, *old.shape[1:]), each.metadata["fill"], dtype=old.dtype)
            grown[: self.capacity] = old
            setattr(self, each.name, grown)
        self.layout += 1
        self._free.extend(range(capacity - 1, self.capacity - 1, -1))
        self.capacity = capacity


@dataclass(frozen=True, eq=False)
class SavedArrays:
    """What :meth:`AgentArrays.save` copied."""

    capacity: int
    free: tuple[int, ...]
    columns: dict[str, np.ndarray]
    state: Any
    #: The attach numbers given before it (see the column ``generation``).
    attaches: int


#: The declared columns: the fields with a column's metadata.
_COLUMNS = tuple(each for each in fields(AgentArrays) if "shape" in each.metadata)
#: The columns of numbers (the others hold objects: sprites, views, trees, keys).
_NUMBERS = tuple(each for each in _COLUMNS if each.metadata["dtype"] is not object)
#: The columns that mean the same in any process, by name: ``(trailing shape, dtype, fill)``.
PORTABLE = {
    each.name: (each.metadata["shape"], np.dtype(each.metadata["dtype"]), each.metadata["fill"])
    for each in _COLUMNS
    if not each.metadata["local"]
}
#: What a digest covers of the columns, by name: the portable ones (all of them numbers).
DIGESTED = tuple(PORTABLE)
