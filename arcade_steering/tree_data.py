"""Behaviour trees as data: :func:`to_dict` writes a tree as JSON-safe dictionaries and
:func:`from_dict` builds it back, for save files, level files and tools.

A tree is written as nested dictionaries, one per component: its class name under
``"type"``, then its declared parameters by name; a combiner's children under
``"children"``. The top one also carries the format's ``"version"``::

    {"version": 1, "type": "PriorityBlend", "threshold": 0.001, "children": [
        {"type": "AvoidWalls", "length": null, "side_angle": 45.0, "side_ratio": 0.5},
        {"type": "Arrive", "target": {"ref": "flag"}, "slowing_radius": 100.0,
         "tolerance": 2.0}]}

Numbers, strings, booleans and None are written as they are, points as ``[x, y]``, a
:class:`~arcade_steering.Containment`'s region by its vertices, a :class:`~arcade_steering.Path`
by its points (``{"path": {"points": ..., "radius": ...}}``). Everything else the game owns
(sprites, groups, callables, flow fields) is written by name, ``{"ref": "leader"}``: the game
names those objects when writing (``names=``) and gives them back when reading (``resolve=``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np

from ._core.component import SteeringComponent
from ._core.params import REQUIRED, TargetParam
from ._util.validate import check_count
from .behaviors.avoid import AvoidObstacles, AvoidWalls
from .behaviors.avoid_agents import AvoidAgents
from .behaviors.containment import Containment, Region
from .behaviors.context_steering import ContextSteering
from .behaviors.flow import FollowFlowField
from .behaviors.group import Alignment, Cohesion, Separation
from .behaviors.jump import Jump
from .behaviors.leader import FollowLeader, OffsetPursuit
from .behaviors.look import Face, LookWhereYouAreGoing, Scan
from .behaviors.paths import FollowPath, StayOnPath
from .behaviors.queueing import Queue
from .behaviors.seek import Arrive, Evade, Flee, Pursue, Seek
from .behaviors.sight_cone import EvadeSightCone
from .behaviors.tactics import Hide, Interpose, MatchVelocity
from .behaviors.wander import Wander
from .behaviors.waypoints import FollowWaypoints
from .combine import PriorityBlend, WeightedBlend
from .path import Path

__all__ = ["FORMAT_VERSION", "MAX_NODES", "TreeDataError", "from_dict", "to_dict"]

#: The version of the format :func:`to_dict` writes and :func:`from_dict` reads.
FORMAT_VERSION = 1
#: Components nested deeper than this are refused (a tree read from a file may be hostile).
MAX_DEPTH = 64
#: The most components :func:`from_dict` builds into one tree by default (a dictionary used
#: twice counted twice): it bounds what an update of one agent with a tree from a file costs.
MAX_NODES = 128
#: The most values (numbers, strings, list items) :func:`from_dict` reads in one tree.
MAX_VALUES = 100_000

#: The built-in components, by the name written under ``"type"``.
BUILT_IN: dict[str, type[SteeringComponent]] = {
    cls.__name__: cls
    for cls in (
        Alignment,
        Arrive,
        AvoidAgents,
        AvoidObstacles,
        AvoidWalls,
        Cohesion,
        Containment,
        ContextSteering,
        Evade,
        EvadeSightCone,
        Face,
        Flee,
        FollowFlowField,
        FollowLeader,
        FollowPath,
        FollowWaypoints,
        Hide,
        Interpose,
        Jump,
        LookWhereYouAreGoing,
        MatchVelocity,
        OffsetPursuit,
        PriorityBlend,
        Pursue,
        Queue,
        Scan,
        Seek,
        Separation,
        StayOnPath,
        Wander,
        WeightedBlend,
    )
}

#: What a game passes to name its objects: a mapping name -> object, or a function object -> name.
Names = Mapping[str, Any] | Callable[[Any], "str | None"]
#: What a game passes to give its objects back: a mapping name -> object, or a function.
Resolver = Mapping[str, Any] | Callable[[str], Any]


class TreeDataError(ValueError):
    """A tree cannot be written or read; the message names the field, such as
    ``tree.children[1].radius``."""


def to_dict(component: SteeringComponent, *, names: Names | None = None) -> dict[str, Any]:
    """Write a behaviour tree as JSON-safe dictionaries (``json.dumps`` takes the result).

    Args:
        component: The root of the tree.
        names: Names for the objects written by name (sprites, groups, callables, flow fields,
            paths you want shared): a mapping ``name -> object`` (matched by identity; the same
            mapping serves :func:`from_dict`), or a function returning an object's name or None.

    Returns:
        ``{"version": FORMAT_VERSION, "type": ..., ...}``.

    Raises:
        TypeError: ``component`` is no component, or ``names`` neither a mapping nor a function.
        TreeDataError: Something in the tree cannot be written (an object with no name, a
            component with undeclared state or a combiner of its own); the message names
            the field.
    """
    if not isinstance(component, SteeringComponent):
        raise TypeError(f"component must be a SteeringComponent, got {type(component).__name__}")
    name_of = _namer(names)
    return {"version": FORMAT_VERSION, **_write(component, "tree", name_of)}


def from_dict(
    data: Mapping[str, Any],
    *,
    resolve: Resolver | None = None,
    components: Iterable[type[SteeringComponent]] = (),
    max_nodes: int = MAX_NODES,
) -> SteeringComponent:
    """Build a behaviour tree from what :func:`to_dict` wrote (or ``json.loads`` read).

    Args:
        data: The tree's dictionary.
        resolve: The objects written by name: a mapping or a function ``name -> object``.
        components: Your own component classes, read by class name (may replace built-ins).
        max_nodes: The most components to build (:data:`MAX_NODES`, 128, by default), a
            dictionary used twice (a YAML anchor) counted twice; reading stops at the first over.

    Returns:
        A new tree; nothing is shared with ``data``.

    Raises:
        TreeDataError: The data is malformed: not a dictionary, another version, an unknown type or
            field, a missing or bad value, an unknown name, more than ``max_nodes`` components or
            :data:`MAX_VALUES` values; the message names the field. Nothing is built.
        TypeError: ``resolve`` or ``components`` has the wrong type.
        ValueError: ``max_nodes`` is not a whole number >= 1.
    """
    max_nodes = check_count("max_nodes", max_nodes)
    types = dict(BUILT_IN)
    for cls in components:
        if not (isinstance(cls, type) and issubclass(cls, SteeringComponent)):
            raise TypeError(f"components must be SteeringComponent classes, got {cls!r}")
        types[cls.__name__] = cls
    if not isinstance(data, Mapping):
        raise TreeDataError(f"tree must be a dictionary, got {type(data).__name__}")
    version = data.get("version")
    if version != FORMAT_VERSION or isinstance(version, bool):
        shown = "missing" if "version" not in data else f"got {version!r}"
        raise TreeDataError(f"tree.version must be {FORMAT_VERSION}, {shown}")
    reader = _Reader(types, _resolver(resolve), max_nodes)
    return reader.component(data, "tree", depth=0, top=True)


# -- writing ------------------------------------------------------------------------------


def _namer(names: Names | None) -> Callable[[Any], str | None]:
    if names is None:
        return lambda value: None
    if isinstance(names, Mapping):
        by_id = {id(value): name for name, value in names.items()}
        return lambda value: by_id.get(id(value))
    if callable(names):
        return names
    raise TypeError(f"names must be a mapping or a function, got {type(names).__name__}")


def _write(component: SteeringComponent, where: str, name_of: Callable[[Any], Any]) -> dict:
    cls = type(component)
    if component.children and cls not in (WeightedBlend, PriorityBlend):
        raise TreeDataError(
            f"{where}: {cls.__name__} has children; only WeightedBlend and PriorityBlend "
            "are written with theirs"
        )
    if component.has_undeclared_state():
        raise TreeDataError(
            f"{where}: {cls.__name__} holds attributes that are not declared parameters; "
            "declare them with arcade_steering.params to write it"
        )
    node: dict[str, Any] = {"type": cls.__name__}
    for name, spec in cls.params.items():
        if isinstance(spec, TargetParam) and spec.ref(component).gone:
            raise TreeDataError(f"{where}.{name}: the target is gone (garbage collected)")
        node[name] = _write_value(getattr(component, name), f"{where}.{name}", name_of)
    if component.children:
        node["children"] = [
            _write(child, f"{where}.children[{index}]", name_of)
            for index, child in enumerate(component.children)
        ]
    return node


def _write_value(value: Any, where: str, name_of: Callable[[Any], Any]) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = value.item() if isinstance(value, np.generic) else value
        if not math.isfinite(number):
            raise TreeDataError(f"{where} must be finite, got {number}")
        return number
    name = name_of(value)
    if name is not None:
        if not isinstance(name, str):
            raise TreeDataError(f"{where}: names gave {name!r}, not a string")
        return {"ref": name}
    if isinstance(value, Path):
        path: dict[str, Any] = {
            "points": value.points.tolist(),
            "radius": value.radius,
            "closed": value.closed,
        }
        if not np.all(value.radii == value.radius):
            path["radii"] = value.radii.tolist()
        return {"path": path}
    if isinstance(value, Region):  # read back from its vertices, as a region may be given
        return value.points.tolist()
    numbers = _numbers(value)
    if numbers is not None:
        return numbers
    raise TreeDataError(
        f"{where}: a {type(value).__name__} is written by name; give it one with names="
    )


def _numbers(value: Any) -> list[Any] | None:
    """``value`` as nested lists of finite floats, or None if it is not numbers."""
    if not isinstance(value, (tuple, list, np.ndarray)) or isinstance(value, str):
        return None
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    if array.dtype != float or array.ndim == 0 or not np.isfinite(array).all():
        return None
    result: list[Any] = array.tolist()
    return result


# -- reading ------------------------------------------------------------------------------


def _resolver(resolve: Resolver | None) -> Callable[[str], Any]:
    if resolve is None:

        def nothing(name: str) -> Any:
            raise LookupError(name)

        return nothing
    if isinstance(resolve, Mapping):
        return lambda name: resolve[name]
    if callable(resolve):
        return resolve
    raise TypeError(f"resolve must be a mapping or a function, got {type(resolve).__name__}")


class _Reader:
    """Builds components from dictionaries, naming the field of anything it cannot read."""

    def __init__(
        self, types: dict[str, type[SteeringComponent]], resolve: Callable, max_nodes: int
    ) -> None:
        self.types, self.resolve = types, resolve
        self.max_nodes = self.nodes_left = max_nodes
        self.values_left = MAX_VALUES

    def component(self, node: Any, where: str, depth: int, top: bool = False) -> Any:
        if depth > MAX_DEPTH:
            raise TreeDataError(f"{where}: the tree is nested deeper than {MAX_DEPTH}")
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise TreeDataError(
                f"{where}: the tree has more than {self.max_nodes:,} components (max_nodes; "
                "a dictionary used twice counts twice)"
            )
        if not isinstance(node, Mapping):
            raise TreeDataError(f"{where} must be a dictionary, got {type(node).__name__}")
        kind = node.get("type")
        cls = self.types.get(kind) if isinstance(kind, str) else None
        if cls is None:
            known = ", ".join(sorted(self.types))
            own = isinstance(kind, str) and kind.isidentifier()
            hint = f"; for a class of your own pass from_dict(..., components=[{kind}])" * own
            raise TreeDataError(f"{where}.type: unknown component {kind!r}{hint} (known: {known})")
        combiner = cls in (WeightedBlend, PriorityBlend)
        allowed = {"type", *cls.params, *(["version"] if top else []), *(["children"] * combiner)}
        for field in node:
            if field not in allowed:
                raise TreeDataError(f"{where}: {kind} has no field {field!r}")
        for name, spec in cls.params.items():
            if spec.default is REQUIRED and name not in node:
                raise TreeDataError(f"{where}.{name}: missing (required by {kind})")
        values = {
            name: self.value(node[name], f"{where}.{name}", depth)
            for name in cls.params
            if name in node
        }
        children = self.children(node, where, depth) if combiner else []
        try:
            if cls is WeightedBlend:
                weights = self.weights(values, children, where)
                return WeightedBlend(*zip(children, weights, strict=True))
            if cls is PriorityBlend:
                return PriorityBlend(*children, **values)
            return cls(**values)
        except TreeDataError:
            raise
        except (TypeError, ValueError) as error:
            raise TreeDataError(f"{where}.{error}") from None

    def children(self, node: Mapping, where: str, depth: int) -> list[SteeringComponent]:
        children = node.get("children")
        if not isinstance(children, list) or not children:
            raise TreeDataError(f"{where}.children must be a non-empty list of components")
        return [
            self.component(child, f"{where}.children[{index}]", depth + 1)
            for index, child in enumerate(children)
        ]

    @staticmethod
    def weights(values: dict[str, Any], children: list, where: str) -> tuple[Any, ...]:
        """The ``weights`` of a WeightedBlend: one number per child."""
        weights = values.get("weights")
        if not isinstance(weights, tuple) or len(weights) != len(children):
            raise TreeDataError(
                f"{where}.weights must be a list of {len(children)} numbers, one per child"
            )
        return weights

    def value(self, value: Any, where: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise TreeDataError(f"{where}: nested deeper than {MAX_DEPTH}")
        if isinstance(value, Mapping):
            if set(value) == {"ref"}:
                return self.named(value["ref"], where)
            if set(value) == {"path"}:
                return self.path(value["path"], f"{where}.path")
            raise TreeDataError(
                f'{where}: a dictionary value must be {{"ref": name}} or {{"path": {{...}}}}, '
                f"got keys {sorted(map(str, value))}"
            )
        self.values_left -= 1
        if self.values_left < 0:
            raise TreeDataError(f"{where}: the tree has more than {MAX_VALUES:,} values")
        if isinstance(value, list):
            return tuple(
                self.value(item, f"{where}[{index}]", depth + 1) for index, item in enumerate(value)
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise TreeDataError(f"{where} must be finite, got {value}")
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        raise TreeDataError(f"{where}: a {type(value).__name__} is not tree data")

    def named(self, name: Any, where: str) -> Any:
        if not isinstance(name, str):
            raise TreeDataError(f"{where}.ref must be a name (a string), got {type(name).__name__}")
        try:
            found = self.resolve(name)
        except LookupError:
            raise TreeDataError(f"{where}: resolve= gives nothing named {name!r}") from None
        if found is None:
            raise TreeDataError(f"{where}: resolve gave None for {name!r}")
        return found

    def path(self, data: Any, where: str) -> Path:
        if not isinstance(data, Mapping):
            raise TreeDataError(f"{where} must be a dictionary, got {type(data).__name__}")
        for field in data:
            if field not in ("points", "radius", "closed", "radii"):
                raise TreeDataError(f"{where}: a path has no field {field!r}")
        if "points" not in data:
            raise TreeDataError(f"{where}.points: missing (required by a path)")
        values = {name: self.value(item, f"{where}.{name}", 0) for name, item in data.items()}
        try:
            return Path(**values)
        except (TypeError, ValueError) as error:
            raise TreeDataError(f"{where}.{error}") from None
