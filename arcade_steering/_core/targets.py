"""Targets: fixed points, sprites (anything with ``.position``) and zero-argument callables.

A component stores each target as a :class:`TargetRef`, which knows how to read the target's
position now and, for moving targets, how fast it goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from .._util.validate import check_point


class HasPosition(Protocol):
    """Anything with an ``(x, y)`` ``position``: an ``arcade.Sprite``, a ``StubSprite``."""

    @property
    def position(self) -> tuple[float, float]: ...


#: What a component accepts as a target.
TargetLike = tuple[float, float] | Sequence[float] | HasPosition | Callable[[], Sequence[float]]


class TargetRef:
    """A validated target.

    Args:
        value: An ``(x, y)`` pair, an object with ``.position``, or a zero-argument callable
            returning ``(x, y)``.
        name: The parameter name used in error messages.

    Raises:
        TypeError: ``value`` is none of the above.
        ValueError: A point has NaN/inf or not two coordinates.
    """

    __slots__ = ("point", "source", "value")

    def __init__(self, value: Any, name: str = "target") -> None:
        if isinstance(value, TargetRef):
            value = value.value
        self.value = value
        #: The fixed point, or None for a moving target.
        self.point: tuple[float, float] | None = None
        #: The object to track (a sprite or a callable), or None for a fixed point.
        self.source: Any = None
        if hasattr(value, "position") or callable(value):
            self.source = value
        elif isinstance(value, (Sequence, np.ndarray)) and not isinstance(value, (str, bytes)):
            self.point = check_point(name, value)
        else:
            raise TypeError(
                f"{name} must be an (x, y) point, an object with .position or a "
                f"zero-argument callable, got {type(value).__name__}"
            )

    @property
    def moving(self) -> bool:
        """True for sprites and callables, whose position is read every update."""
        return self.source is not None

    def __repr__(self) -> str:
        return f"TargetRef({self.value!r})"
