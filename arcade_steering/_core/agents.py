"""AgentTable: which sprites are attached, in which slot, with which behaviour, in what order.

The table owns the :class:`~arcade_steering._core.arrays.AgentArrays` and the bookkeeping
around them: sprites by ``id`` (held weakly), the attach order (the agents' *rows*: an agent's
row is its position in that order), and the batches their behaviour trees fall into. Attaching
and detaching are amortised O(1): what depends on every agent (the rows, the sprites' weak
references, the batches) is worked out again when next asked for, not on every change.
"""

from __future__ import annotations

import operator
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from itertools import count, repeat
from typing import Any

import numpy as np

from .arrays import AgentArrays, SavedArrays
from .batches import Batch, group_into_batches
from .owners import check_free, hold, release
from .plan import RowPlan
from .tree import Node

__all__ = ["AgentTable", "SavedTable", "new_layout"]

# Calls each weak reference in one C-level pass (operator.call is Python >= 3.11).
_call = getattr(operator, "call", None)

#: Numbers for the tables' layouts (who is attached, in what order, with which tree): a fresh
#: one for every change, never reused, so two equal numbers mean the same layout.
_layouts = count()


@dataclass(frozen=True, eq=False)
class SavedTable:
    """What :meth:`AgentTable.save` copied."""

    arrays: SavedArrays
    slot_of: dict[int, int]
    order: dict[int, None]
    #: The table's layout number then.
    layout: int
    #: Makes the table's reference to a sprite (weak, reporting its death to the table).
    reference: Callable[[Any], Any]


def new_layout() -> int:
    """A layout number never given before (for a table's snapshot built from a file)."""
    return next(_layouts)


class AgentTable:
    """The attached agents of one world."""

    def __init__(self) -> None:
        self.arrays = AgentArrays()
        #: Bumped whenever agents are attached or detached (caches keyed on membership).
        self.version = 0
        # id(sprite) -> slot. A sprite's weak reference reports its death here (before its
        # id can be reused), and the world drops such agents before it next looks anything up.
        self._slot_of: dict[int, int] = {}
        self._collected: list[Any] = []
        # Makes the table's reference to a sprite; holds the list, not the table (snapshots
        # keep it, and must not keep a dropped world's table alive).
        self._reference = partial(_weak, collected=self._collected.append)
        # The attached slots in attach order (a dict: O(1) removal, insertion order kept).
        self._order: dict[int, None] = {}
        self._rows: np.ndarray | None = None
        self._plan: RowPlan | None = None
        self._row_of_slot: np.ndarray | None = None
        self._refs: list[Any] | None = None
        self._row_of_id: dict[int, int] | None = None
        self._batches: list[Batch] | None = []
        self._shapes_stale = False
        self._layout = next(_layouts)
        # The last save's copies of the bookkeeping, shared by saves while the layout holds.
        self._saved_layout: tuple[int, dict[int, int], dict[int, None]] | None = None

    # -- membership -------------------------------------------------------------------------

    def add(self, sprite: Any, behavior: Node) -> int:
        """Give ``sprite`` a slot (its other columns are the caller's to fill)."""
        arrays = self.arrays
        slot = arrays.allocate()
        arrays.sprite[slot] = self._reference(sprite)
        arrays.sprite_id[slot] = id(sprite)
        arrays.behavior[slot] = behavior
        self._slot_of[id(sprite)] = slot
        self._order[slot] = None
        hold(self, [id(sprite)])
        self._changed()
        return slot

    def remove(self, slots: list[int]) -> None:
        """Detach the agents in ``slots``; their views go stale (see ``generation``)."""
        arrays = self.arrays
        release(self, [arrays.sprite_id[slot] for slot in slots])
        for slot in slots:
            del self._slot_of[arrays.sprite_id[slot]]
            del self._order[slot]
            arrays.release(slot)
        self._changed()

    def save(self) -> SavedTable:
        """A copy of every agent's columns and of who is attached, in what order."""
        if self._saved_layout is None or self._saved_layout[0] != self._layout:
            self._saved_layout = (self._layout, dict(self._slot_of), dict(self._order))
        _, slot_of, order = self._saved_layout
        return SavedTable(self.arrays.save(), slot_of, order, self._layout, self._reference)

    def load(self, saved: SavedTable) -> None:
        """Put back a :meth:`save`: the agents attached then, as they were. Agents whose
        sprites were garbage collected since are dropped."""
        behavior = self.arrays.behavior
        same_agents = same_trees = saved.layout == self._layout
        if not same_trees:  # maybe changed and changed back: compare
            self._plan = None  # an agent detached and attached again may differ in its options
            same_agents = saved.order == self._order and saved.slot_of == self._slot_of
            # Components compare by identity: one C-level pass over the column.
            same_trees = same_agents and bool((behavior == saved.arrays.columns["behavior"]).all())
        # The same agents with the same trees: the object columns (sprites, views, trees)
        # hold what they held then, and every sprite is alive or already reported dead.
        self.arrays.load(saved.arrays, objects=not same_trees)
        if same_trees:
            self._layout = saved.layout
            return
        if not same_agents:  # what depends on who is attached is worked out again
            release(self, self._slot_of)
            self._slot_of = dict(saved.slot_of)
            self._order = dict(saved.order)
            self._changed()
        else:
            self._batches = None
        self._layout = saved.layout
        sprite = self.arrays.sprite
        gone = [slot for slot in self._order if sprite[slot]() is None]
        if gone:
            self.remove(gone)
        if not same_agents:
            hold(self, self._slot_of)

    def check_load(self, saved: SavedTable) -> None:
        """Raise if :meth:`load` would attach again a sprite another world steers now.

        Raises:
            ValueError: It would.
        """
        if saved.layout == self._layout:
            return
        sprite = saved.arrays.columns["sprite"]
        for slot in saved.order:
            held = sprite[slot]()
            if held is not None and self.slot_of(held) is None:
                check_free(self, held)

    def release_all(self) -> None:
        """Let other worlds attach this table's sprites (its world is gone)."""
        release(self, self._slot_of)

    def drop_collected(self) -> None:
        """Detach the agents whose sprites were garbage collected since the last call."""
        # Dropping an agent lets go of its behaviour, which may have held the last reference
        # to another attached sprite (a hunter's prey): that one dies meanwhile, and is
        # dropped by the next round.
        while self._collected:
            self._collected.clear()
            sprite = self.arrays.sprite
            self.remove([slot for slot in self._order if sprite[slot]() is None])

    def slot_of(self, sprite: Any) -> int | None:
        """The slot of ``sprite`` if it is attached (by identity, not equality), else None."""
        slot = self._slot_of.get(id(sprite))
        if slot is None or self.arrays.sprite[slot]() is not sprite:
            return None
        return slot

    def require(self, sprite: Any) -> int:
        """The slot of ``sprite``, which must be attached (agents whose sprites were collected
        are dropped first).

        Raises:
            KeyError: It is not.
        """
        self.drop_collected()
        slot = self.slot_of(sprite)
        if slot is None:
            raise KeyError("sprite is not attached to this world")
        return slot

    def slots_of(self, members: Any) -> np.ndarray:
        """The slots of the attached agents among ``members`` (sprites; others are skipped)."""
        slots = np.fromiter(map(self._slot_of.get, map(id, members), repeat(-1)), dtype=np.intp)
        return slots[slots >= 0]

    def slots_by_id(self, ids: list[int]) -> np.ndarray:
        """The slot of each ``id`` ``(k,)``, -1 for ids of no attached sprite."""
        return np.fromiter(map(self._slot_of.get, ids, repeat(-1)), np.intp, len(ids))

    @property
    def order(self) -> list[int]:
        """The attached slots, in the order they were attached."""
        return list(self._order)

    def __len__(self) -> int:
        return len(self._order)

    # -- what depends on every agent, worked out when asked ---------------------------------

    @property
    def rows(self) -> np.ndarray:
        """The attached slots in attach order ``(n,)`` int."""
        if self._rows is None:
            self._rows = np.fromiter(self._order, dtype=np.intp, count=len(self._order))
        return self._rows

    @property
    def plan(self) -> RowPlan:
        """The rows and what an update reads of them, gathered again only after a change."""
        if self._plan is None:
            self._plan = RowPlan(self.arrays, self.rows)
        return self._plan

    @property
    def row_of_slot(self) -> np.ndarray:
        """Each slot's row ``(capacity,)`` (meaningful for attached slots only)."""
        if self._row_of_slot is None:
            rows = self.rows
            self._row_of_slot = np.zeros(self.arrays.capacity, dtype=np.intp)
            self._row_of_slot[rows] = np.arange(len(rows))
        return self._row_of_slot

    @property
    def row_of_id(self) -> dict[int, int]:
        """Each agent's row by its sprite's ``id`` (a new dict whenever agents change)."""
        if self._row_of_id is None:
            ids = map(self.arrays.sprite_id.__getitem__, self._order)
            self._row_of_id = dict(zip(ids, range(len(self._order)), strict=True))
        return self._row_of_id

    def motion(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions, velocities and accelerations (force over mass) ``(n, 2)``, in rows."""
        arrays, rows = self.arrays, self.rows
        acceleration = arrays.force.take(rows, axis=0) / arrays.mass[rows, None]
        return arrays.position.take(rows, axis=0), arrays.velocity.take(rows, axis=0), acceleration

    def sprites(self) -> list[Any]:
        """The sprites in row order: strong references, for the length of an update."""
        if self._refs is None:
            self._refs = [self.arrays.sprite[slot] for slot in self._order]
        if _call is not None:
            return list(map(_call, self._refs))
        return [ref() for ref in self._refs]

    # -- behaviours and batches -------------------------------------------------------------

    def set_behavior(self, slot: int, behavior: Node) -> None:
        """Give an agent a new behaviour tree; its per-agent state restarts."""
        self.arrays.behavior[slot] = behavior
        self.arrays.shape_key[slot] = None
        self.arrays.state.reset(slot)
        self._batches = None
        self._layout = next(_layouts)

    def batches(self) -> list[Batch]:
        """The agents grouped by the shape of their trees, again only after a change."""
        arrays = self.arrays
        if self._shapes_stale:
            self._shapes_stale = False
            arrays.shape_key[self.rows] = None
            self._batches = None
        if self._batches is None:
            order = self.order
            keys = arrays.shape_key
            for slot in order:
                if keys[slot] is None:
                    keys[slot] = arrays.behavior[slot].shape_key()
            self._batches = group_into_batches(
                order, [arrays.behavior[s] for s in order], [keys[s] for s in order], self._reshape
            )
        return self._batches

    def _reshape(self) -> None:
        """A component changed how it computes: every tree's shape is found again."""
        self._shapes_stale = True

    def _changed(self) -> None:
        self.version += 1
        self._layout = next(_layouts)
        self._rows = self._row_of_slot = self._plan = None
        self._refs = None
        self._row_of_id = None
        self._batches = None


def _weak(sprite: Any, collected: Callable[[Any], None]) -> Any:
    """A zero-argument callable returning ``sprite``, or None once it has been collected.

    ``collected(ref)`` is called when the sprite dies, before its id can be reused. A sprite
    that can't be weakly referenced (``__slots__`` without ``__weakref__``) is held strongly.
    """
    try:
        return weakref.ref(sprite, collected)
    except TypeError:
        return repeat(sprite).__next__
