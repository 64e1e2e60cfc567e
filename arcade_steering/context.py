"""What a component sees when it steers a batch of agents."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from ._arcade.motion import read_position
from ._core.batches import BatchNode
from ._core.params import TargetParam, gathered_value
from ._util.vec import lengths, put_rows
from .neighbors import NeighborPairs

if TYPE_CHECKING:
    from .debug import DebugRecorder
    from .geometry import StaticGeometry
    from .world import SteeringWorld


class BatchFrame:
    """The arrays of one batch for one (sub)step, shared by every node of its tree.

    Arrays are read-only copies: a component returns forces and never moves agents itself.
    """

    def __init__(
        self,
        world: SteeringWorld,
        slots: np.ndarray,
        dt: float,
        debug: DebugRecorder | None,
    ) -> None:
        self.world = world
        self.slots = slots
        self.dt = dt
        self.debug = debug
        self.position = _frozen(world._position.take(slots, axis=0))
        self.velocity = _frozen(world._velocity.take(slots, axis=0))
        self.max_speed = _frozen(world._max_speed[slots])
        self.max_force = _frozen(world._max_force[slots])
        self.mass = _frozen(world._mass[slots])
        self.radius = _frozen(world._radius[slots])
        # A response time shorter than the step would overshoot: never react faster than dt.
        self.response_time = _frozen(np.maximum(world._response_time[slots], dt))
        self.heading = _frozen(world._heading.take(slots, axis=0))


class SteeringContext:
    """The batch of agents a component steers, and what they can see.

    Every array has one row per agent of the batch (``n = len(ctx)``) and is read-only.

    Attributes:
        position: Positions ``(n, 2)``, px.
        velocity: Velocities ``(n, 2)``, px/s.
        max_speed: Speed limits ``(n,)``, px/s.
        max_force: Force limits ``(n,)``, px/s² times mass.
        mass: Masses ``(n,)``.
        radius: Agents' radii ``(n,)``, px.
        response_time: Seconds in which each agent wants to correct its velocity ``(n,)``;
            never less than ``dt``.
        heading: Unit directions of travel ``(n, 2)``; kept while an agent stands still.
        dt: The (sub)step in seconds.
        slots: The agents' rows in the world's arrays ``(n,)``.
    """

    def __init__(self, frame: BatchFrame, node: BatchNode) -> None:
        self._frame = frame
        self._node = node
        self.position = frame.position
        self.velocity = frame.velocity
        self.max_speed = frame.max_speed
        self.max_force = frame.max_force
        self.mass = frame.mass
        self.radius = frame.radius
        self.response_time = frame.response_time
        self.heading = frame.heading
        self.dt = frame.dt
        self.slots = frame.slots

    def __len__(self) -> int:
        return len(self._frame.slots)

    @property
    def speed(self) -> np.ndarray:
        """Speeds ``(n,)``, px/s."""
        return lengths(self.velocity)

    @property
    def world(self) -> SteeringWorld:
        """The :class:`~arcade_steering.SteeringWorld` being updated."""
        return self._frame.world

    @property
    def rng(self) -> np.random.Generator:
        """The world's seeded random generator: the only source of randomness."""
        return self._frame.world.rng

    @property
    def debug(self) -> DebugRecorder | None:
        """Where to record debug shapes this step, or None when nobody will draw them."""
        return self._frame.debug

    @property
    def geometry(self) -> StaticGeometry:
        """The world's walls and obstacles, for batched ray casts and nearest-surface queries.

        Brought up to date with ``world.space`` once, at the start of the update.
        """
        return self._frame.world._geometry

    @property
    def components(self) -> list[Any]:
        """The component instance each agent of the batch has at this place in its tree."""
        return self._node.instances

    def child(self, index: int) -> np.ndarray:
        """Forces ``(n, 2)`` of child ``index`` of this component, for the same agents."""
        return evaluate(self._frame, self._node.children[index])

    def param(self, name: str) -> np.ndarray:
        """A declared parameter of every agent's component, ``(n,)`` (or ``(n, k)``).

        ``None`` (no limit) is gathered as ``inf``. Re-gathered only after a parameter changed.
        """
        n = len(self)

        def build(node: BatchNode) -> np.ndarray:
            if node.shared:
                value = np.asarray(gathered_value(getattr(node.component, name)), dtype=float)
                return np.broadcast_to(value, (n, *value.shape))
            values = [gathered_value(getattr(c, name)) for c in node.instances]
            return _frozen(np.array(values, dtype=float))

        return self._node.cached(("param", name), build)

    def target(self, name: str = "target") -> np.ndarray:
        """Positions ``(n, 2)`` of every agent's target parameter ``name``, read now."""
        return self._targets(name).positions(self._frame.world)

    def target_velocity(self, name: str = "target") -> np.ndarray:
        """Velocities ``(n, 2)`` px/s of the targets: the world's for attached sprites,
        estimated from position changes between updates for other moving targets, zero for
        fixed points."""
        return self._targets(name).velocities(self._frame.world)

    def groups(self, name: str) -> list[tuple[Any, np.ndarray]]:
        """Agents grouped by the object their parameter ``name`` holds (a path, a leader).

        Returns:
            ``(value, rows)`` pairs: ``rows`` are positions in this batch (``(k,)`` int).
        """
        n = len(self)

        def build(node: BatchNode) -> list[tuple[Any, np.ndarray]]:
            if node.shared:
                return [(getattr(node.component, name), np.arange(n))]
            members: dict[int, tuple[Any, list[int]]] = {}
            for row, component in enumerate(node.instances):
                value = getattr(component, name)
                members.setdefault(id(value), (value, []))[1].append(row)
            return [(value, np.array(rows)) for value, rows in members.values()]

        return self._node.cached(("groups", name), build)

    def neighbors(self, radius: float | np.ndarray, among: Any = None) -> NeighborPairs:
        """Other agents within ``radius`` px of each agent of the batch.

        The index is built once per (sub)step and shared by every component.

        Args:
            radius: Search radius, px, scalar or ``(n,)``.
            among: None for every agent of the world, or sprites (a list, a SpriteList) whose
                agents alone count as neighbours.

        Returns:
            Pairs with ``query`` = row in this batch and ``other`` = the neighbour's slot in
            the world's arrays (index ``ctx.world_velocity`` etc. with it).
        """
        world = self._frame.world
        pairs = world._neighbor_index().query(
            world._row_of_slot[self.slots], radius, world._among_mask(among)
        )
        return replace(pairs, other=world._rows[pairs.other])

    def neighbors_among(self, radius: float | np.ndarray, name: str = "among") -> NeighborPairs:
        """Like :meth:`neighbors`, each agent among the sprites its own parameter ``name`` holds.

        Agents of one batch may have different groups (each squad its own SpriteList); one
        index query serves them all. Components asking the same question in the same
        (sub)step (Separation, Alignment, Cohesion with one radius) share the answer.
        """
        world = self._frame.world
        groups = self.groups(name)
        layout = self._node.cached(("among", name), lambda node: _AmongLayout(groups, len(self)))
        radius = np.asarray(radius, dtype=float)
        if radius.ndim and len(radius) and (radius == radius[0]).all():
            radius = radius[:1].reshape(())  # one radius: the index's faster scalar path
        key = (radius.tobytes(), layout.key)
        shared = self._frame.__dict__.setdefault("_neighbors_among", {})
        if key in shared:
            return shared[key]
        rows = world._row_of_slot[self.slots]
        reach = float(radius) if radius.ndim == 0 else radius
        index = world._neighbor_index()
        labels = world._among_labels(layout.values) if len(groups) > 1 else None
        if labels is not None:  # squads: every agent in one group at most
            pairs = index.query(rows, reach, groups=(labels, layout.asked))
        else:
            masks = [world._among_mask(value) for value, _ in groups]
            union = None if any(m is None for m in masks) else np.logical_or.reduce(masks)
            pairs = index.query(rows, reach, union)
            if len(groups) > 1:
                agents = len(world._rows)
                pairs = pairs.select(_in_asked_group(pairs, masks, groups, len(self), agents))
        shared[key] = pairs = replace(pairs, other=world._rows[pairs.other])
        return pairs

    def world_velocity(self, slots: np.ndarray) -> np.ndarray:
        """Velocities ``(k, 2)`` px/s of the agents in world ``slots`` (e.g. neighbours)."""
        return self._frame.world._velocity.take(slots, axis=0)

    def world_position(self, slots: np.ndarray) -> np.ndarray:
        """Positions ``(k, 2)`` px of the agents in world ``slots``."""
        return self._frame.world._position.take(slots, axis=0)

    def world_radius(self, slots: np.ndarray) -> np.ndarray:
        """Radii ``(k,)`` px of the agents in world ``slots``."""
        return self._frame.world._radius[slots]

    def state(self, name: str, fill: float = np.nan, shape: tuple[int, ...] = ()) -> np.ndarray:
        """This component's per-agent state ``name``, ``(n, *shape)`` (a copy).

        A new agent (or one whose behaviour changed) starts with ``fill``.
        """
        store = self._frame.world._states.array(self._state_key(name), fill, shape)
        return store.take(self._frame.slots, axis=0)

    def set_state(self, name: str, values: np.ndarray) -> None:
        """Store per-agent state ``name`` ``(n, *shape)`` for the agents of this batch."""
        values = np.asarray(values)
        store = self._frame.world._states.array(self._state_key(name), np.nan, values.shape[1:])
        if store.shape[1:] == (2,):
            put_rows(store, self._frame.slots, values)
        else:
            store[self._frame.slots] = values

    def _state_key(self, name: str) -> Hashable:
        return (self._node.index, type(self._node.component).__name__, name)

    def _targets(self, name: str) -> TargetTable:
        if not isinstance(getattr(type(self._node.component), name, None), TargetParam):
            raise AttributeError(f"{type(self._node.component).__name__} has no target {name!r}")
        n = len(self)
        return self._node.cached(("target", name), lambda node: TargetTable(node, name, n))


class TargetTable:
    """The distinct targets of a batch node and which agent aims at which."""

    def __init__(self, node: BatchNode, name: str, n: int) -> None:
        param: TargetParam = getattr(type(node.component), name)
        instances = [node.component] if node.shared else node.instances
        index: dict[Hashable, int] = {}
        refs = []
        inverse = np.empty(len(instances), dtype=np.intp)
        for row, component in enumerate(instances):
            ref = param.ref(component)
            key = ("point", ref.point) if ref.point is not None else ("source", id(ref.source))
            if key not in index:
                index[key] = len(refs)
                refs.append(ref)
            inverse[row] = index[key]
        self.static = np.array([ref.point or (0.0, 0.0) for ref in refs], dtype=float)
        self.moving = [(j, ref.source) for j, ref in enumerate(refs) if ref.moving]
        # A shared node: n rows (the batch's size, as param() and groups() count them).
        self.inverse = np.zeros(n, dtype=np.intp) if node.shared else inverse
        self._split: tuple[np.ndarray, np.ndarray, list[tuple[int, Any]]] | None = None

    def positions(self, world: SteeringWorld) -> np.ndarray:
        if not self.moving:
            return self.static.take(self.inverse, axis=0)
        points = self.static.copy()
        targets, slots, others = self._agents(world)
        points[targets] = world._position.take(slots, axis=0)
        for j, source in others:
            points[j] = read_position(source)
        return points.take(self.inverse, axis=0)

    def velocities(self, world: SteeringWorld) -> np.ndarray:
        velocities = np.zeros_like(self.static)
        if self.moving:
            targets, slots, others = self._agents(world)
            velocities[targets] = world._velocity.take(slots, axis=0)
            for j, source in others:
                velocities[j] = world._tracker.velocity(source)
        return velocities.take(self.inverse, axis=0)

    def _agents(self, world: SteeringWorld) -> tuple[np.ndarray, np.ndarray, list[tuple[int, Any]]]:
        """The moving targets that are the world's agents (``(k,)`` target numbers and their
        slots), and the others. Looked up once: a table lives as long as its batch, and the
        world regroups its batches whenever an agent is attached or detached."""
        if self._split is None:
            targets, slots, others = [], [], []
            for j, source in self.moving:
                slot = world._slot_of.get(id(source))
                if slot is not None and world._sprite[slot]() is source:
                    targets.append(j)
                    slots.append(slot)
                else:
                    others.append((j, source))
            self._split = (np.array(targets, dtype=np.intp), np.array(slots, dtype=np.intp), others)
        return self._split


class _AmongLayout:
    """Who in a batch node asks about which group, worked out once per batch (and again
    after a parameter changed), not every step.

    Attributes:
        values: The distinct groups asked about.
        asked: Each agent's group, an index into ``values`` ``(n,)`` (read-only).
        key: The groups (by id) and who asks about each (by content): Separation, Alignment
            and Cohesion are different nodes with equal groups, and share one answer.
    """

    def __init__(self, groups: list[tuple[Any, np.ndarray]], n: int) -> None:
        self.values = [value for value, _ in groups]
        self.asked = np.empty(n, dtype=np.intp)
        for label, (_, rows) in enumerate(groups):
            self.asked[rows] = label
        self.asked.flags.writeable = False  # shared by the steps that reuse it
        self.key = tuple((id(value), rows.tobytes()) for value, rows in groups)


def _in_asked_group(
    pairs: NeighborPairs,
    masks: list[np.ndarray | None],
    groups: list[tuple[Any, np.ndarray]],
    n: int,
    agents: int,
) -> np.ndarray:
    """Which pairs have their ``other`` among the group their asking agent names (for
    groups that overlap, or include "every agent").

    Args:
        pairs: Pairs over the whole index (``other`` = row in the index).
        masks: Each group's members over the index rows, None for "every agent".
        groups: ``(group, batch rows asking about it)`` pairs.
        n: The batch's size.
        agents: The index's size.
    """
    asked = np.empty(n, dtype=np.intp)
    for index, (_, rows) in enumerate(groups):
        asked[rows] = index
    table = np.ones((len(groups), agents), dtype=bool)
    for index, mask in enumerate(masks):
        if mask is not None:
            table[index] = mask
    return table[asked.take(pairs.query), pairs.other]


def evaluate(frame: BatchFrame, node: BatchNode) -> np.ndarray:
    """Forces ``(n, 2)`` of ``node``'s component for the batch, checked and finite."""
    component = node.component
    force = np.asarray(component.steer(SteeringContext(frame, node)), dtype=float)
    n = len(frame.slots)
    if force.shape != (n, 2):
        raise ValueError(
            f"{type(component).__name__}.steer returned shape {force.shape}, expected ({n}, 2)"
        )
    if not np.isfinite(force).all():
        force = np.where(np.isfinite(force), force, 0.0)
    return force


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array
