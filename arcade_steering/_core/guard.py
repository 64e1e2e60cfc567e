"""What a world refuses: being updated by two threads at once (or from inside its own update),
and being copied or pickled."""

from __future__ import annotations

import threading
from typing import Any, NoReturn

__all__ = ["NotCopyable", "UpdateGuard"]


class UpdateGuard:
    """Marks a world busy while it updates; a second caller gets a ``RuntimeError``.

    A world belongs to one thread: its update reads and writes the game's sprites, which are
    not thread-safe either. The guard makes the mistake loud rather than corrupting state.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._what = ""

    def __call__(self, what: str) -> UpdateGuard:
        """Enter with ``with guard("update()"):``; ``what`` names the call in errors."""
        if not self._lock.acquire(blocking=False):
            raise self._error(what)
        self._owner = threading.get_ident()
        self._what = what
        return self

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        self._owner = None
        self._lock.release()

    def check(self, what: str) -> None:
        """Raise if the world is busy (``what`` is about to change or read it)."""
        if self._lock.locked():
            raise self._error(what)

    def _error(self, what: str) -> RuntimeError:
        if self._owner == threading.get_ident():
            return RuntimeError(
                f"SteeringWorld.{what} called during the world's own {self._what}: game code "
                "run by the update (a callable target, a sprite's position setter) must not "
                "change or update the world; do it after update() returns"
            )
        return RuntimeError(
            f"SteeringWorld.{what} called from another thread while {self._what} is running: "
            "a world belongs to one thread; use one world per thread, or a lock of your own "
            "around every call"
        )


_NO_COPY = (
    "a SteeringWorld can't be {how}: it steers the game's own sprites (held weakly) and "
    "pymunk space in place. To go back to a world's state later, use world.snapshot() and "
    "world.restore(snapshot); to make another world, create a SteeringWorld and attach the "
    "sprites (or copies of them) to it with their behaviours"
)


class NotCopyable:
    """Refuses ``copy.copy``, ``copy.deepcopy`` and ``pickle`` with a ``TypeError`` saying what
    to do instead (a copy would share, or lose, the game's sprites)."""

    __slots__ = ()

    def __copy__(self) -> NoReturn:
        raise TypeError(_NO_COPY.format(how="copied (copy.copy)"))

    def __deepcopy__(self, memo: Any) -> NoReturn:
        raise TypeError(_NO_COPY.format(how="copied (copy.deepcopy)"))

    def __reduce_ex__(self, protocol: Any) -> NoReturn:
        raise TypeError(_NO_COPY.format(how="pickled"))
