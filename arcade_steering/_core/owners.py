"""Which world steers each sprite: one at a time, or two worlds would both move it.

A process-wide mapping ``id(sprite) -> AgentTable`` that holds the tables weakly, so a table
that is collected lets go of its sprites (and a world that is collected releases its table's,
see ``AgentTable.release_all``). An entry is only a hint until checked: the table named must
still hold that very sprite (ids are reused once a sprite dies).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any, Protocol

__all__ = ["check_free", "hold", "release"]


class Steering(Protocol):
    """What this module asks of an agent table: which slot holds a sprite, if any."""

    def slot_of(self, sprite: Any) -> int | None: ...


_steered_by: weakref.WeakValueDictionary[int, Steering] = weakref.WeakValueDictionary()


def check_free(table: Steering, sprite: Any) -> None:
    """Raise if another table (another world) steers ``sprite``.

    Raises:
        ValueError: It does; the message says to detach it there first.
    """
    other = _steered_by.get(id(sprite))
    if other is not None and other is not table and other.slot_of(sprite) is not None:
        raise ValueError(
            "sprite is already attached to another SteeringWorld: detach it there first "
            "(both worlds would move it)"
        )


def hold(table: Steering, ids: Iterable[int]) -> None:
    """Note that ``table`` steers the sprites of ``ids``."""
    for each in ids:
        _steered_by[each] = table


def release(table: Steering, ids: Iterable[int]) -> None:
    """Forget that ``table`` steers the sprites of ``ids`` (those another table took are kept)."""
    for each in ids:
        if _steered_by.get(each) is table:
            del _steered_by[each]
