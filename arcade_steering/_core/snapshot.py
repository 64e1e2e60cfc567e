"""Snapshots of a world: everything an update reads, copied, to go back to later."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import count
from typing import Any, NoReturn

import numpy as np
import pymunk

from ..geometry import StaticGeometry, free_removed
from .agents import AgentTable, SavedTable
from .arrays import DIGESTED
from .motion import MotionTracker
from .state import digest_state
from .sync import SpriteSync

__all__ = ["WorldSnapshot", "load_world", "new_world_number", "restore_shapes", "save_world"]

#: Numbers for worlds: unlike ``id``, never reused in a process, so a snapshot of a world that
#: is gone can't be taken for one of a new world at the same address.
_world_numbers = count()


def new_world_number() -> int:
    """A number for a new world, never given before in this process."""
    return next(_world_numbers)


@dataclass(frozen=True, eq=False)
class WorldSnapshot:
    """A world's state at one moment, from :meth:`SteeringWorld.snapshot`.

    It holds the agents' columns and per-agent component state, who was attached (sprites
    weakly: one garbage collected since is not brought back), the random generator, the
    velocity estimates of moving targets and the walls and obstacles of the space. Restore it
    into the world it came from with :meth:`SteeringWorld.restore`, as often as you like.
    It lives in its process: to write a world to a file, use :func:`~arcade_steering.save_world`.
    """

    agents: SavedTable
    rng: Mapping[str, Any]
    tracker: dict[int, list[Any]]
    shapes: tuple[pymunk.Shape, ...]
    #: The number of the world it came from (see :func:`new_world_number`).
    world_id: int

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError(
            "a WorldSnapshot can't be pickled: it holds the game's sprites and shapes by "
            "reference, for this process only. To write a world to a file (or send it to "
            "another process), use steer.save_world(world, ...) and steer.load_world(world, "
            "...): see the page 'Saving, loading and replays'"
        )

    def __copy__(self) -> WorldSnapshot:
        return self  # it never changes: a copy would be the same

    def __deepcopy__(self, memo: Any) -> WorldSnapshot:
        return self

    def digest(self) -> str:
        """A short hash of what the world's future depends on: every agent's columns of
        numbers (in attach order: motion, limits, where it looks and how fast it turns), its
        components' per-agent state, the random generator, the velocity estimates of moving
        targets and the number of walls and obstacles. Equal for worlds in the same state, in
        any process; replays compare them."""
        slots = np.fromiter(self.agents.order, dtype=np.intp, count=len(self.agents.order))
        hasher = hashlib.blake2b(digest_size=16)
        for name in DIGESTED:
            hasher.update(self.agents.arrays.columns[name][slots].tobytes())
        columns = self.agents.arrays.columns
        digest_state(hasher, self.agents.arrays.state, slots, columns["behavior"])
        for _, position, velocity, unasked in self.tracker.values():
            hasher.update(repr((position, velocity.tolist(), unasked)).encode())
        hasher.update(repr((self.rng, len(self.shapes))).encode())
        return hasher.hexdigest()


def restore_shapes(
    space: pymunk.Space,
    now: tuple[pymunk.Shape, ...],
    saved: tuple[pymunk.Shape, ...],
    owns_space: bool = False,
) -> None:
    """Make ``space``'s static walls and obstacles ``saved`` again, in the same order.

    Args:
        space: The world's space.
        now: Its static segments and circles now, in order.
        saved: Those of the snapshot, in order.
        owns_space: Whether the world owns ``space``: then pymunk is let free the shapes
            removed (see :func:`~arcade_steering.geometry.free_removed`).
    """
    if now == saved:
        return
    # The mirror lists shapes in the space's order: put back the saved order, not only the set.
    for shape in now:
        space.remove(shape)
    for shape in saved:
        space.add(shape)
    if owns_space:
        free_removed(space, [shape for shape in now if shape.space is None])


def save_world(
    table: AgentTable,
    rng: np.random.Generator,
    tracker: MotionTracker,
    geometry: StaticGeometry,
    world_id: int,
) -> WorldSnapshot:
    """A snapshot of a world's parts (its geometry synced with its space)."""
    return WorldSnapshot(
        table.save(), rng.bit_generator.state, tracker.save(), geometry.static_shapes, world_id
    )


def load_world(
    snapshot: WorldSnapshot,
    world_id: int,
    space: pymunk.Space,
    geometry: StaticGeometry,
    table: AgentTable,
    rng: np.random.Generator,
    tracker: MotionTracker,
    sync: SpriteSync,
    *,
    owns_space: bool = False,
) -> None:
    """Put a snapshot back into the world it came from (its geometry synced with its space):
    walls and obstacles, agents, generator and tracker, and write every sprite.

    Raises:
        TypeError: ``snapshot`` is not a snapshot.
        ValueError: It is a snapshot of another world, or it would attach again a sprite
            another world steers now. Nothing changes.
    """
    if not isinstance(snapshot, WorldSnapshot):
        raise TypeError(f"snapshot must be a WorldSnapshot, got {type(snapshot).__name__}")
    if snapshot.world_id != world_id:
        raise ValueError("snapshot is of another world: restore it into the world it came from")
    table.check_load(snapshot.agents)
    restore_shapes(space, geometry.static_shapes, snapshot.shapes, owns_space)
    table.drop_collected()
    table.load(snapshot.agents)
    rng.bit_generator.state = snapshot.rng
    tracker.load(snapshot.tracker)
    sprites = table.sprites()
    sync.show(table.arrays, table.plan, sprites, sync.places(sprites, table.row_of_id))
