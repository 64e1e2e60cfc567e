"""Reading a save into a world: every field checked, then one ``restore``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .._arcade.sprite_sync import fast_setters
from .._core.agents import SavedTable, new_layout
from .._core.arrays import PORTABLE, SavedArrays
from .._core.motion import FORGET_AFTER, hold_source
from .._core.snapshot import WorldSnapshot
from .._util.validate import LIMIT
from ..component.base import SteeringComponent
from ..tree_data import Resolver, from_dict, to_dict
from ..world import SteeringWorld
from ._format import (
    MAX_SAVE_BYTES,
    SaveFileError,
    decode_array,
    field,
    parse,
    read_bytes,
    whole_number,
)
from ._names import resolver
from ._shapes import match_shapes
from ._states import read_states

__all__ = ["load_world"]

#: Columns whose agents' values must be > 0 (the others: finite), and those that may be inf.
_POSITIVE = {"max_speed", "max_force", "mass", "response_time"}
_LIMITS = {"max_turn_rate", "max_angular_acceleration"}


def load_world(
    world: SteeringWorld,
    file: Any,
    *,
    resolve: Resolver | None = None,
    level: str | None = None,
    components: Iterable[type[SteeringComponent]] = (),
    max_bytes: int = MAX_SAVE_BYTES,
) -> None:
    """Put a save written by :func:`save_world` into ``world``, in this process or another:
    the world (and its agents' sprites) then is as the saved one was, and updating it gives
    the same bits.

    The game builds the level and its sprites first, as when it started it; the save names
    them. Agents of the save are attached (or given their saved state), others detached; a
    tree the save holds is built with :func:`~arcade_steering.from_dict`, unless the agents
    that share it hold one tree that writes the same (then it is kept). Walls and obstacles
    the world holds are matched to the save's by geometry; the world's others are removed,
    the save's others added.

    Args:
        world: The world to load into.
        file: The save: its bytes, a path or a file opened ``"rb"``.
        resolve: The game's objects by name: a mapping ``name -> object`` or a function.
        level: The game's name for the level it built: a save of another level is refused.
            None to take any.
        components: Your own component classes the trees use (see ``from_dict``).
        max_bytes: The largest save read; a larger one is refused unread.

    Raises:
        SaveFileError: The save is not one, of another version or level, malformed, or names
            an object ``resolve`` does not give; the message names the field. Nothing changes.
        ValueError: A sprite of the save is attached to another world (nothing changes).
        TypeError: An argument has the wrong type.
    """
    if not isinstance(world, SteeringWorld):
        raise TypeError(f"world must be a SteeringWorld, got {type(world).__name__}")
    if level is not None and not isinstance(level, str):
        raise TypeError(f"level must be a string or None, got {type(level).__name__}")
    if isinstance(max_bytes, bool) or not isinstance(max_bytes, int):
        raise TypeError(f"max_bytes must be an int, got {type(max_bytes).__name__}")
    if max_bytes < 1:
        raise ValueError(f"max_bytes must be >= 1, got {max_bytes}")
    find = resolver(resolve)
    document = parse(read_bytes(file, max_bytes))
    saved_level = document.get("level")
    if level is not None and saved_level != level:
        raise SaveFileError(
            f"save.level is {saved_level!r}: a save of another level than {level!r}"
        )
    now = world.snapshot()
    capacity = whole_number(field(document, "capacity", int, "save"), "save.capacity", 1, max_bytes)
    agents = _agents(document, capacity, find)
    free = _free(document, capacity, [slot for _, slot, _ in agents])
    trees = _trees(document, agents, now, resolve, components)
    by_slot = {slot: trees[tree] for _, slot, tree in agents}
    columns = _columns(field(document, "columns", dict, "save"), capacity, free)
    state = read_states(field(document, "states", list, "save"), capacity, by_slot, free)
    attaches = now.agents.arrays.attaches
    columns |= _objects(agents, by_slot, capacity, now, attaches)
    table = SavedTable(
        SavedArrays(capacity, tuple(free), columns, state, attaches + len(agents)),
        {id(sprite): slot for sprite, slot, _ in agents},
        {slot: None for _, slot, _ in agents},
        new_layout(),
        now.agents.reference,
    )
    snapshot = dataclasses.replace(
        now,
        agents=table,
        rng=_rng(document, world),
        tracker=_tracker(field(document, "tracker", list, "save"), find),
        shapes=match_shapes(field(document, "shapes", list, "save"), world.space, now.shapes),
    )
    world.restore(snapshot)


def _agents(document: Any, capacity: int, find: Any) -> list[tuple[Any, int, int]]:
    """``(sprite, slot, tree)`` of every agent, in attach order."""
    agents = []
    seen: set[int] = set()
    for row, entry in enumerate(field(document, "agents", list, "save")):
        where = f"save.agents[{row}]"
        name = field(entry, "name", str, where)
        slot = whole_number(field(entry, "slot", int, where), f"{where}.slot", 0, capacity - 1)
        tree = whole_number(field(entry, "tree", int, where), f"{where}.tree", 0, 1 << 30)
        sprite = find(name)
        if sprite is None:
            raise SaveFileError(f"{where}.name: resolve= gives nothing named {name!r}")
        if not hasattr(sprite, "position"):
            raise SaveFileError(f"{where}.name: {name!r} is no sprite (it has no position)")
        if id(sprite) in seen:
            raise SaveFileError(f"{where}.name: {name!r} is the sprite of another agent too")
        seen.add(id(sprite))
        agents.append((sprite, slot, tree))
    return agents


def _free(document: Any, capacity: int, taken: list[int]) -> list[int]:
    free = field(document, "free", list, "save")
    for index, slot in enumerate(free):
        whole_number(slot, f"save.free[{index}]", 0, capacity - 1)
    # Lengths first: the slots are in the file, the capacity is only a number.
    if (
        len(free) + len(taken) != capacity
        or (np.bincount(np.array([*free, *taken], dtype=np.intp), minlength=capacity) != 1).any()
    ):
        raise SaveFileError(
            "save.free and the agents' slots must hold every slot below save.capacity once"
        )
    return free


def _trees(
    document: Any,
    agents: list[tuple[Any, int, int]],
    now: WorldSnapshot,
    resolve: Any,
    components: Iterable[type[SteeringComponent]],
) -> list[SteeringComponent]:
    """The save's trees: the one the agents sharing it hold now if it writes the same, else
    built from the data."""
    data = field(document, "trees", list, "save")
    columns = now.agents.arrays.columns
    held = {id(columns["sprite"][slot]()): columns["behavior"][slot] for slot in now.agents.order}
    users: dict[int, list[Any]] = {}  # the trees the world gives each saved tree's agents now
    for row, (sprite, _, index) in enumerate(agents):
        if index >= len(data):
            raise SaveFileError(f"save.agents[{row}].tree: there are {len(data)} trees")
        users.setdefault(index, []).append(held.get(id(sprite)))
    trees = []
    for index, tree in enumerate(data):
        now_held = users.get(index, [None])
        kept = now_held[0] if all(each is now_held[0] for each in now_held) else None
        if kept is not None and isinstance(resolve, Mapping) and _writes(kept, resolve, tree):
            trees.append(kept)
            continue
        try:
            trees.append(from_dict(tree, resolve=resolve, components=components))
        except (ValueError, OverflowError) as error:
            raise SaveFileError(f"save.trees[{index}]: {error}") from None
    return trees


def _writes(tree: SteeringComponent, names: Mapping[str, Any], data: Any) -> bool:
    """Whether ``tree`` writes ``data`` with ``names``."""
    try:
        return bool(json.loads(json.dumps(to_dict(tree, names=names))) == data)
    except ValueError:
        return False


def _columns(data: Mapping[str, Any], capacity: int, free: list[int]) -> dict[str, np.ndarray]:
    """The save's columns, checked where agents are, free rows their fill."""
    if set(data) != set(PORTABLE):
        unknown = sorted(set(data) ^ set(PORTABLE))
        raise SaveFileError(f"save.columns must be {sorted(PORTABLE)}: {unknown[0]!r} differs")
    columns = {}
    agents = np.ones(capacity, dtype=bool)
    agents[free] = False
    for name, (shape, dtype, fill) in PORTABLE.items():
        where = f"save.columns.{name}"
        values = decode_array(data[name], where, dtype.newbyteorder("<").str, (capacity, *shape))
        if dtype.kind == "b":
            if (values.view(np.uint8) > 1).any():
                raise SaveFileError(f"{where} must hold flags (0 or 1)")
        else:
            _check_numbers(name, values[agents], where)
        values[free] = fill
        columns[name] = values
    return columns


def _check_numbers(name: str, values: np.ndarray, where: str) -> None:
    if np.isnan(values).any() or (np.isinf(values).any() and name not in _LIMITS):
        raise SaveFileError(f"{where} must be finite")
    if (np.abs(values[np.isfinite(values)]) > LIMIT).any():
        raise SaveFileError(f"{where} must be within {LIMIT:g} of 0")
    if name in _POSITIVE | _LIMITS and (values <= 0).any():
        raise SaveFileError(f"{where} must be > 0")
    if name == "radius" and (values < 0).any():
        raise SaveFileError(f"{where} must be >= 0")


def _objects(
    agents: list[tuple[Any, int, int]],
    trees: dict[int, SteeringComponent],
    capacity: int,
    now: WorldSnapshot,
    attaches: int,
) -> dict[str, np.ndarray]:
    """The columns of this process: sprites, trees, attach numbers. An agent whose sprite the
    world holds in the same slot keeps its number, so the game's view of it keeps working."""
    columns = {
        name: np.full(capacity, None, dtype=object)
        for name in ("sprite", "sprite_id", "agent", "behavior", "shape_key")
    }
    columns["generation"] = np.full(capacity, -1, dtype=np.int64)
    columns["fast_position"] = np.zeros(capacity, dtype=bool)
    columns["fast_angle"] = np.zeros(capacity, dtype=bool)
    held = now.agents.arrays.columns
    for number, (sprite, slot, _) in enumerate(agents, start=attaches):
        same = slot < len(held["sprite"]) and held["sprite"][slot] is not None
        if same and held["sprite"][slot]() is sprite:
            columns["generation"][slot] = held["generation"][slot]
            columns["agent"][slot] = held["agent"][slot]
            columns["sprite"][slot] = held["sprite"][slot]
        else:
            columns["generation"][slot] = number
            columns["sprite"][slot] = now.agents.reference(sprite)
        columns["sprite_id"][slot] = id(sprite)
        columns["behavior"][slot] = trees[slot]
        columns["fast_position"][slot], columns["fast_angle"][slot] = fast_setters(sprite)
    return columns


def _rng(document: Any, world: SteeringWorld) -> Any:
    """The random generator's state, checked by a generator of the world's kind."""
    state = field(document, "rng", dict, "save")
    generator = type(world.rng.bit_generator)()
    try:
        generator.state = state
    except Exception as error:  # numpy raises ValueError, TypeError, KeyError, OverflowError
        raise SaveFileError(
            f"save.rng is not a state of {type(generator).__name__}: {error!r}"
        ) from None
    return generator.state


def _tracker(data: list[Any], find: Any) -> dict[int, list[Any]]:
    """The velocity estimates of moving targets, for their objects in this process."""
    tracker: dict[int, list[Any]] = {}
    for index, entry in enumerate(data):
        where = f"save.tracker[{index}]"
        name = field(entry, "name", str, where)
        source = find(name)
        if source is None or not (hasattr(source, "position") or callable(source)):
            raise SaveFileError(
                f"{where}.name: resolve= gives no sprite or callable named {name!r}"
            )
        position = _pair(field(entry, "position", list, where), f"{where}.position")
        velocity = _pair(field(entry, "velocity", list, where), f"{where}.velocity")
        age = whole_number(field(entry, "age", int, where), f"{where}.age", 0, FORGET_AFTER)
        tracker[id(source)] = [hold_source(source), position, np.array(velocity), age]
    return tracker


def _pair(value: list[Any], where: str) -> tuple[float, float]:
    if len(value) != 2 or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= LIMIT for v in value
    ):
        raise SaveFileError(f"{where} must be [x, y], numbers within {LIMIT:g} of 0")
    return float(value[0]), float(value[1])
