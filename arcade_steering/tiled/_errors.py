"""The errors of loading a level, and how a problem found deep in a file is told where it is.

:class:`LevelError` is the one callers see. Inside the checks a value that is wrong raises
:class:`BadValueError`, which says only what is wrong; :func:`located` turns it into a
:class:`LevelError` that starts with the file and the place in it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path


class LevelError(ValueError):
    """A Tiled map that is not a valid steering level, or breaks a limit or the root policy.

    The message starts with the file at fault and names the layer and the object (id and
    name), or the tileset or template, where there is one.
    """


class BadValueError(Exception):
    """What is wrong with a value; the caller says where."""


@contextlib.contextmanager
def located(path: Path, where: str = "") -> Iterator[None]:
    """Turn a :class:`BadValueError` raised inside into a :class:`LevelError` saying where.

    Args:
        path: The file at fault.
        where: The place in it (``"layer 'walls'"``); empty for the file as a whole.
    """
    try:
        yield
    except BadValueError as problem:
        place = f"{path}: {where}: " if where else f"{path}: "
        raise LevelError(place + str(problem)) from None


@contextlib.contextmanager
def naming(what: str) -> Iterator[None]:
    """Start the message of a :class:`BadValueError` raised inside with ``what``."""
    try:
        yield
    except BadValueError as problem:
        raise BadValueError(f"{what}: {problem}") from None
