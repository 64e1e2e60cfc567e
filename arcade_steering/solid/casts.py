"""The solid step's parts casting together: one pass of the ray kernel for all of them.

A pass of :func:`~arcade_steering.geometry._kernels.ray_keys_local` costs some 50 numpy
calls however few its pairs, and the solid step has two parts that cast round after round:
the sweep of the circles that start clear and the dig-out of those that start buried. Each
is a generator that yields the casts a round needs (the kernel's arguments) and is sent
their keys back; :func:`cast_together` runs them in step, joining the casts of a round into
one pass. The kernel works pair by pair, so every key is what a pass of its own would give.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeVar

import numpy as np

from ..geometry._kernels import ray_keys_local

__all__ = ["Caster", "Casts", "cast_together"]

#: The kernel's arguments, each ``[p]``: starts and motions in the shapes' frames (complex),
#: core lengths and grown radii.
Casts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_Result = TypeVar("_Result")
#: A part of the step: yields the casts of each round, is sent their keys ``[p]``.
Caster = Generator[Casts, np.ndarray, _Result]


def cast_together(parts: list[Caster[None]]) -> None:
    """Run ``parts`` to their ends, their casts of each round made in one kernel pass."""
    if len(parts) == 1:  # the usual case: no buried circles, or no clear ones near shapes
        part = parts[0]
        try:
            casts = next(part)
            while True:
                casts = part.send(ray_keys_local(*casts))
        except StopIteration:
            return
    asked = [(part, cast) for part in parts if (cast := next(part, None)) is not None]
    while asked:
        if len(asked) == 1:
            keys = [ray_keys_local(*asked[0][1])]
        else:
            columns = zip(*(cast for _, cast in asked), strict=True)
            joined = ray_keys_local(*(np.concatenate(column) for column in columns))
            keys, at = [], 0
            for _, cast in asked:
                keys.append(joined[at : at + len(cast[0])])
                at += len(cast[0])
        going = []
        for (part, _), key in zip(asked, keys, strict=True):
            try:
                cast = part.send(key)
            except StopIteration:  # the part is done
                continue
            going.append((part, cast))
        asked = going
