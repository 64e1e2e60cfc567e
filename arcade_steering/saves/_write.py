"""Writing a world to a save: its snapshot, with the game's objects by name."""

from __future__ import annotations

import json
import math
from typing import Any

from .._core.arrays import PORTABLE
from ..tree_data import Names, TreeDataError, to_dict
from ..world import SteeringWorld
from ._format import FORMAT, SAVE_VERSION, SaveFileError, encode_array, write_bytes
from ._names import namer
from ._shapes import write_shapes
from ._states import write_states

__all__ = ["save_world"]


def save_world(
    world: SteeringWorld, file: Any = None, *, names: Names | None = None, level: str | None = None
) -> bytes:
    """Write everything ``world``'s next update depends on as a save: bytes, and ``file``.

    A save holds what a :meth:`~arcade_steering.SteeringWorld.snapshot` holds, with the
    game's objects by name: every agent (its sprite by name, its columns, its behaviour tree
    as :func:`~arcade_steering.to_dict` writes it, its components' per-agent state), the
    random generator, the velocity estimates of moving targets (by name) and the walls and
    obstacles (by geometry). Read it back with :func:`load_world`, in this process or another.

    Args:
        world: The world to save.
        file: Where to write the save too: a path (replaced in one step, so a crash leaves
            the old save whole) or a file opened ``"wb"``; None for the bytes only.
        names: The game's names for its objects: every agent's sprite, and what the trees
            and the moving targets refer to (sprites, groups, callables, flow fields). A
            mapping ``name -> object`` (matched by identity) or a function ``object ->
            name`` (or None), as for :func:`~arcade_steering.to_dict`.
        level: The game's name for the level, checked by :func:`load_world`; or None.

    Returns:
        The save, UTF-8 JSON.

    Raises:
        TypeError: An argument has the wrong type.
        SaveFileError: Something can't be written: an object with no name (the message
            names the field), two agents with one name. Nothing is written.
        OSError: ``file`` can't be written (the old file at that path is left whole).
    """
    if not isinstance(world, SteeringWorld):
        raise TypeError(f"world must be a SteeringWorld, got {type(world).__name__}")
    if level is not None and not isinstance(level, str):
        raise TypeError(f"level must be a string or None, got {type(level).__name__}")
    name_of = namer(names)
    snapshot = world.snapshot()
    table = snapshot.agents
    columns = table.arrays.columns
    trees = {slot: columns["behavior"][slot] for slot in table.order}
    tree_index: dict[int, int] = {}
    written_trees: list[dict[str, Any]] = []
    agents: list[dict[str, Any]] = []
    for row, slot in enumerate(table.order):
        sprite = columns["sprite"][slot]()
        name = _name(name_of, sprite, f"save.agents[{row}] (a {type(sprite).__name__})")
        tree = trees[slot]
        if id(tree) not in tree_index:
            tree_index[id(tree)] = len(written_trees)
            written_trees.append(_tree(tree, names, f"save.agents[{row}] ({name!r}).tree"))
        agents.append({"name": name, "slot": slot, "tree": tree_index[id(tree)]})
    taken: list[str] = [agent["name"] for agent in agents]
    if len(set(taken)) != len(taken):
        twice = sorted({name for name in taken if taken.count(name) > 1})
        raise SaveFileError(f"save.agents: two agents are named {twice[0]!r}")
    document = {
        "format": FORMAT,
        "version": SAVE_VERSION,
        "level": level,
        "capacity": table.arrays.capacity,
        "free": list(table.arrays.free),
        "agents": agents,
        "trees": written_trees,
        "columns": {name: encode_array(columns[name]) for name in PORTABLE},
        "states": write_states(table.arrays.state, table.arrays.capacity, trees),
        "rng": snapshot.rng,
        "tracker": _tracker(snapshot.tracker, name_of),
        "shapes": write_shapes(snapshot.shapes),
    }
    try:
        data = json.dumps(document, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except (TypeError, ValueError) as error:  # the random generator's state is numpy's
        raise SaveFileError(f"save: can't be written as JSON: {error}") from None
    if file is not None:
        write_bytes(file, data)
    return data


def _name(name_of: Any, value: Any, where: str) -> str:
    name = name_of(value)
    if not isinstance(name, str):
        raise SaveFileError(f"{where} has no name: give it one in names=")
    return name


def _tree(tree: Any, names: Any, where: str) -> dict[str, Any]:
    try:
        written: dict[str, Any] = json.loads(json.dumps(to_dict(tree, names=names)))
    except TreeDataError as error:
        raise SaveFileError(f"{where}: {error}") from None
    return written


def _tracker(tracker: dict[int, list[Any]], name_of: Any) -> list[dict[str, Any]]:
    """The velocity estimates of moving targets, by the targets' names."""
    written = []
    for getter, position, velocity, age in tracker.values():
        source = getter()
        if source is None:  # collected: forgotten at the next update anyway
            continue
        where = f"save.tracker (a moving target, {type(source).__name__})"
        numbers = [*map(float, position), *map(float, velocity)]
        if not all(map(math.isfinite, numbers)):
            raise SaveFileError(f"{where}: its position or velocity is not finite")
        written.append(
            {
                "name": _name(name_of, source, where),
                "position": numbers[:2],
                "velocity": numbers[2:],
                "age": int(age),
            }
        )
    return written
