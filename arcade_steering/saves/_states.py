"""Components' per-agent state in a save: arrays by ``(node, component, name)``, with the
states that hold identities of one process (see ``SteeringComponent.identity_state``)
written as whether they matched, and given this process's values when read."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np

from .._core.state import StateColumn, set_rows
from .._util.validate import LIMIT
from ..component.base import SteeringComponent
from ._format import SaveFileError, decode_array, encode_array, field, whole_number

__all__ = ["read_states", "write_states"]

#: How an identity state is written: it matched the component's value, or it did not.
_MATCHED, _OTHER = 1.0, 0.0
#: The most numbers a state keeps per agent.
_MAX_WIDTH = 16


def write_states(
    state: dict[Hashable, StateColumn], capacity: int, trees: dict[int, SteeringComponent]
) -> list[dict[str, Any]]:
    """Every state of a snapshot as JSON data, a value for each of ``capacity`` slots.

    Args:
        state: The snapshot's per-agent state: columns by key.
        capacity: The snapshot's slots.
        trees: Each attached slot's tree.

    Raises:
        SaveFileError: A state's key is not ``(node, component, name)``.
    """
    nodes = _Nodes(trees)
    written = []
    for key, column in state.items():
        if not (
            isinstance(key, tuple)
            and len(key) == 3
            and isinstance(key[0], int)
            and all(isinstance(part, str) for part in key[1:])
        ):
            raise SaveFileError(f"save.states: a state keyed {key!r} can't be written")
        values = np.full((capacity, *column.values.shape[1:]), column.fill)
        values[column.members] = column.values
        for slot, identity in nodes.identities(key, values):
            if not math.isnan(values[slot]):
                values[slot] = _MATCHED if values[slot] == identity else _OTHER
        node, component, name = key
        fill = float.hex(float(column.fill))
        written.append(
            {"node": node, "component": component, "name": name, "fill": fill}
            | {"values": encode_array(values)}
        )
    return written


def read_states(
    data: Any, capacity: int, trees: dict[int, SteeringComponent], free: Sequence[int]
) -> dict[Hashable, StateColumn]:
    """The per-agent state of a save, its identities this process's, a row for each agent
    whose value is not the fill.

    Raises:
        SaveFileError: A state is malformed; the message names it.
    """
    if not isinstance(data, list):
        raise SaveFileError("save.states must be a list")
    columns: dict[Hashable, StateColumn] = {}
    nodes = _Nodes(trees)
    for index, entry in enumerate(data):
        where = f"save.states[{index}]"
        node = whole_number(field(entry, "node", int, where), f"{where}.node", 0, 1 << 30)
        key = (node, field(entry, "component", str, where), field(entry, "name", str, where))
        if key in columns:
            raise SaveFileError(f"{where}: state {key!r} is written twice")
        fill = _fill(field(entry, "fill", str, where), f"{where}.fill")
        shape = field(field(entry, "values", dict, where), "shape", list, f"{where}.values")
        width = shape[1:] if len(shape) == 2 else []
        bad_width = width and (type(width[0]) is not int or not 1 <= width[0] <= _MAX_WIDTH)
        if not 1 <= len(shape) <= 2 or bad_width:
            raise SaveFileError(
                f"{where}.values.shape must be [{capacity}] or [{capacity}, k <= {_MAX_WIDTH}]"
            )
        values = decode_array(entry["values"], f"{where}.values", "<f8", (capacity, *width))
        if (np.abs(values[np.isfinite(values)]) > LIMIT).any():
            raise SaveFileError(f"{where}.values must be within {LIMIT:g} of 0, inf or NaN")
        for slot, identity in nodes.identities(key, values):
            code = values[slot]
            if not (math.isnan(code) or code in (_MATCHED, _OTHER)):
                raise SaveFileError(f"{where}.values[{slot}] must be 0, 1 or NaN, got {code}")
            if not math.isnan(code):
                values[slot] = identity if code == _MATCHED else identity + 0.5
        values[list(free)] = fill
        members = np.flatnonzero(set_rows(values, fill))
        columns[key] = StateColumn(fill, values.shape[1:], (members, values[members], {}))
    return columns


def _fill(text: str, where: str) -> float:
    try:
        fill = float.fromhex(text[:64])
    except ValueError:
        raise SaveFileError(
            f"{where} must be a float in hex (float.hex), got {text[:64]!r}"
        ) from None
    return fill


class _Nodes:
    """The components of each agent's tree, by pre-order index (the ``node`` of a state key),
    listed once per tree."""

    def __init__(self, trees: dict[int, SteeringComponent]) -> None:
        self._trees = trees
        self._listed: dict[int, list[SteeringComponent]] = {}

    def identities(self, key: tuple[Any, ...], values: np.ndarray) -> list[tuple[int, float]]:
        """``(slot, identity)`` of each agent whose component at ``key`` notes an identity in
        its state ``key[2]`` (see ``SteeringComponent.identity_state``)."""
        if values.ndim != 1:
            return []
        node, component, name = key
        found = []
        for slot, tree in self._trees.items():
            listed = self._listed.get(id(tree))
            if listed is None:
                listed = self._listed[id(tree)] = list(tree.iter_tree())
            if node < len(listed) and type(listed[node]).__name__ == component:
                identity = listed[node].identity_state(name)
                if identity is not None:
                    found.append((slot, identity))
        return found
