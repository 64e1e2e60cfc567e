"""Each update's exchange with the game: positions the game gave its sprites (and velocities a
physics engine gave its bodies) in, the agents' new positions, angles and velocities out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pymunk

from .._arcade.angles import arcade_angle
from .._arcade.few_sprites import FEW, moved_since, write_each
from .._arcade.list_slots import ListSlots
from .._arcade.physics import driven_bodies, read_velocities, write_bodies
from .._arcade.sprite_sync import pick, read_positions, write_sprites
from .._util.masks import every, some
from .._util.vec import put_rows
from .arrays import AgentArrays
from .plan import RowPlan

__all__ = ["DrivenBodies", "SpriteSync"]

#: When all but at most 1 in this many sprites changed, the unchanged ones are written too
#: (where nobody can tell): a masked write's fixed cost exceeds writing a few more sprites.
_REWRITE_SHARE = 8


class SpriteSync:
    """Reads the positions a game gave its sprites and writes the agents' back, each update.

    A few plain arcade sprites are read and written one by one (:mod:`few_sprites`), others
    in bulk (:mod:`sprite_sync`), which keeps last update's places of the sprites in their
    sprite lists to try first.
    """

    def __init__(self) -> None:
        self._list_slots: ListSlots | None = None
        # The plan of the few sprites last written one by one, and the tuples written.
        self._written: tuple[RowPlan, list[Any]] | None = None

    def places(self, sprites: list[Any], row_of_id: dict[int, int]) -> ListSlots:
        """Where ``sprites`` (in row order) sit in their sprite lists now."""
        self._list_slots = ListSlots.of(sprites, self._list_slots, row_of_id)
        return self._list_slots

    def pull(
        self,
        arrays: AgentArrays,
        plan: RowPlan,
        sprites: list[Any],
        row_of_id: dict[int, int],
        engine: bool,
    ) -> np.ndarray | None:
        """Take positions from the sprites a game moved since the last update.

        Args:
            arrays: The agents' columns.
            plan: The table's plan of the attached rows ``(n,)``.
            sprites: Their sprites ``(n,)``.
            row_of_id: Each sprite's index in ``sprites`` by its ``id``.
            engine: Whether a physics engine may move some of them.

        Returns:
            The sprites' positions ``(n, 2)``, finite or not (only finite ones are taken),
            for :meth:`push`; None for a few plain sprites, exchanged one by one.
        """
        if plan.all_fast and len(sprites) <= FEW and not engine:
            self._pull_each(arrays, plan, sprites)
            return None
        self._written = None
        rows, fast = plan.rows, plan.fast_position
        pulled = arrays.position.take(rows, axis=0)
        list_slots = self.places(sprites, row_of_id)
        if plan.all_fast_position:  # plain arcade sprites: their buffers show which ones moved
            mask = list_slots.moved(pulled)
            if not some(mask):
                return pulled
            moved = np.flatnonzero(mask)
            values = read_positions(pick(sprites, mask), fast[moved])
        else:
            moved = np.arange(len(rows))
            values = read_positions(sprites, fast)
        pulled[moved] = values
        finite = np.isfinite(values).all(axis=1)
        put_rows(arrays.position, rows[moved[finite]], values[finite])
        return pulled

    def _pull_each(self, arrays: AgentArrays, plan: RowPlan, sprites: list[Any]) -> None:
        written = self._written
        moved = moved_since(sprites, written[1] if written and written[0] is plan else None)
        if not moved:
            return
        values = read_positions([sprites[index] for index in moved], plan.fast_position[moved])
        finite = np.isfinite(values).all(axis=1)
        put_rows(arrays.position, plan.rows[moved][finite], values[finite])

    def push(
        self,
        arrays: AgentArrays,
        plan: RowPlan,
        sprites: list[Any],
        pulled: np.ndarray | None,
        driven: np.ndarray | None,
    ) -> None:
        """Write positions and angles back: a few plain sprites every one, else only sprites
        whose values changed.

        Args:
            arrays: The agents' columns.
            plan: The table's plan of the attached rows ``(n,)``.
            sprites: Their sprites ``(n,)``.
            pulled: What :meth:`pull` returned.
            driven: Which agents a physics engine moves (their positions are its own), or None.
        """
        rows = plan.rows
        if pulled is None:
            self._push_each(arrays, plan, sprites)
            return
        list_slots = self._list_slots
        assert list_slots is not None  # pull found them
        position = arrays.position.take(rows, axis=0)
        if driven is not None:  # the engine moves these (to where the world expects)
            position[driven] = pulled[driven]
        # Rows as complex numbers: one comparison per agent for both coordinates.
        moved = position.view(np.complex128)[:, 0] != pulled.view(np.complex128)[:, 0]
        rotating = plan.rotate
        angle, turned = _angles(arrays, plan)
        changed = moved | turned
        if every(changed) or _rewrite_unchanged(plan, changed, list_slots):
            # Every rotating sprite gets its angle (at most 1e-9 degrees off for one that did
            # not turn): without a mask the usual case, all rotating, writes angles in bulk.
            if plan.all_rotate:
                arrays.angle[plan.index] = angle
            else:
                arrays.angle[rows[rotating]] = angle[rotating]
            write_sprites(
                sprites, position, plan.fast_position, angle, rotating, plan.fast_angle, list_slots
            )
        elif some(changed):
            faced = rotating & changed
            arrays.angle[rows[faced]] = angle[faced]
            write_sprites(
                pick(sprites, changed),
                position[changed],
                plan.fast_position[changed],
                angle[changed],
                faced[changed],
                plan.fast_angle[changed],
                list_slots.select(changed),
            )

    def _push_each(self, arrays: AgentArrays, plan: RowPlan, sprites: list[Any]) -> None:
        rows = plan.rows
        angle, turned = _angles(arrays, plan)
        positions = arrays.position.take(rows, axis=0).tolist()
        written, faced = write_each(
            sprites, positions, angle.tolist(), plan.rotate.tolist(), turned.tolist()
        )
        if faced:
            arrays.angle[rows[faced]] = angle[faced]
        self._written = (plan, written)

    def show(
        self, arrays: AgentArrays, plan: RowPlan, sprites: list[Any], list_slots: ListSlots
    ) -> None:
        """Write every sprite where its agent is, turned as last written (after a restore,
        which put back the positions and angles the sprites showed then)."""
        self._written = None
        rows = plan.rows
        write_sprites(
            sprites,
            arrays.position.take(rows, axis=0),
            plan.fast_position,
            arrays.angle[rows],
            plan.rotate,
            plan.fast_angle,
            list_slots,
        )


def _angles(arrays: AgentArrays, plan: RowPlan) -> tuple[np.ndarray, np.ndarray]:
    """The sprites' angles ``(n,)`` facing where their agents look, and which of those that
    rotate turned since their angles were written ``(n,)``."""
    angle = arcade_angle(arrays.look.take(plan.rows, axis=0), plan.facing)
    # Compare modulo 360: a sprite at 200 degrees already points where -160 does.
    turned = np.abs((angle - arrays.angle[plan.rows] + 180.0) % 360.0 - 180.0) > 1e-9
    return angle, plan.rotate & turned


def _rewrite_unchanged(plan: RowPlan, changed: np.ndarray, list_slots: ListSlots) -> bool:
    """Whether to write the few unchanged sprites too, to save the masked write's fixed
    cost: only when nothing can tell (every sprite has arcade's own setters, which ignore
    an unchanged value, and no list has a spatial hash to update)."""
    return (
        np.count_nonzero(changed) * _REWRITE_SHARE >= (_REWRITE_SHARE - 1) * len(changed)
        and plan.all_fast
        and all(each.sprite_list.spatial_hash is None for each in list_slots.lists)
    )


@dataclass
class DrivenBodies:
    """The agents a physics engine moves this update, and their bodies.

    Attributes:
        mask: Which agents (rows) the engine holds ``(n,)``.
        slots: Their slots ``(k,)``.
        bodies: Their bodies ``(k,)``, in the same order.
    """

    mask: np.ndarray
    slots: np.ndarray
    bodies: list[pymunk.Body]

    @classmethod
    def pull(
        cls, engine: Any, arrays: AgentArrays, rows: np.ndarray, sprites: list[Any]
    ) -> DrivenBodies | None:
        """Find the agents ``engine`` holds and take their bodies' velocities (finite ones).

        Returns:
            The driven agents, or None if the engine holds none of them.
        """
        mask, bodies = driven_bodies(engine, sprites)
        if not bodies:
            return None
        slots = rows[mask]
        velocity = read_velocities(bodies)
        finite = np.isfinite(velocity).all(axis=1)
        put_rows(arrays.velocity, slots[finite], velocity[finite])
        return cls(mask, slots, bodies)

    def push(self, arrays: AgentArrays) -> None:
        """Give the bodies the velocities (and angles) steering found."""
        write_bodies(
            self.bodies,
            arrays.velocity.take(self.slots, axis=0),
            arrays.angle[self.slots],
            arrays.rotate[self.slots],
        )
