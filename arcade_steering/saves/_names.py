"""How a game names its objects in a save (``names=``) and gives them back (``resolve=``),
as it does for behaviour trees as data."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["namer", "resolver"]


def namer(names: Any) -> Callable[[Any], str | None]:
    """A function object -> name from ``names``: a mapping ``name -> object`` (matched by
    identity) or a function returning an object's name or None.

    Raises:
        TypeError: ``names`` is neither.
    """
    if names is None:
        return lambda _: None
    if isinstance(names, Mapping):
        by_id: dict[int, str] = {}
        for name, value in names.items():
            by_id.setdefault(id(value), name)
        return lambda value: by_id.get(id(value))
    if callable(names):
        return names
    raise TypeError(f"names must be a mapping or a function, got {type(names).__name__}")


def resolver(resolve: Any) -> Callable[[str], Any]:
    """A function name -> object (None for none) from ``resolve``: a mapping ``name ->
    object`` or a function.

    Raises:
        TypeError: ``resolve`` is neither.
    """
    if resolve is None:
        return lambda _: None
    if isinstance(resolve, Mapping):
        return resolve.get
    if callable(resolve):

        def call(name: str) -> Any:
            try:
                return resolve(name)
            except LookupError:
                return None

        return call
    raise TypeError(f"resolve must be a mapping or a function, got {type(resolve).__name__}")
