"""SteeringContext: what a component sees when it steers a batch of agents."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.batches import BatchNode
from .._core.gather import Groups, gather_array, gather_groups
from .._core.neighborhood import AmongLayout, distinct, in_asked_group, kth_distance, union_of
from .._core.tree import Node
from .._util.masks import every, finite
from .._util.vec import lengths, lengths_xy, stack_columns
from ..neighbors import NeighborPairs
from .frame import BatchFrame, StepFrame
from .params import Param, TargetParam
from .targets import Targets, TargetTable

if TYPE_CHECKING:
    from ..debug import DebugRecorder
    from ..geometry import StaticGeometry

__all__ = ["ParamArrays", "SteeringContext", "Targets", "evaluate", "evaluate_turn"]


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
        look: Unit directions the agents look ``(n, 2)``: the heading, unless a component
            turns it (:meth:`~arcade_steering.SteeringComponent.turn`).
        angular_velocity: How fast the look directions turn ``(n,)``, degrees per second,
            counter-clockwise.
        max_turn_rate: Turn-rate limits ``(n,)``, degrees per second (``inf``: none).
        max_angular_acceleration: Limits of its change ``(n,)``, degrees per s² (``inf``).
        dt: The (sub)step in seconds.
        slots: The agents' rows in the world's arrays ``(n,)``.
    """

    def __init__(self, frame: BatchFrame, node: BatchNode) -> None:
        self._frame = frame
        self._step: StepFrame = frame.step
        self._node = node
        self.position = frame.position
        self.velocity = frame.velocity
        self.max_speed = frame.max_speed
        self.max_force = frame.max_force
        self.mass = frame.mass
        self.radius = frame.radius
        self.response_time = frame.response_time
        self.heading = frame.heading
        self.dt = frame.step.dt
        self.slots = frame.slots

    def __len__(self) -> int:
        return len(self._frame.slots)

    @property
    def speed(self) -> np.ndarray:
        """Speeds ``(n,)``, px/s."""
        return lengths(self.velocity)

    @property
    def rng(self) -> np.random.Generator:
        """The world's seeded random generator: the only source of randomness."""
        return self._step.rng

    @property
    def debug(self) -> DebugRecorder | None:
        """Where to record debug shapes this step, or None when nobody will draw them."""
        return self._step.debug

    @property
    def geometry(self) -> StaticGeometry:
        """The world's walls and obstacles, for batched ray casts and nearest-surface queries.

        Brought up to date with ``world.space`` once, at the start of the update.
        """
        return self._step.geometry

    @property
    def components(self) -> list[Any]:
        """The component instance each agent of the batch has at this place in its tree."""
        return self._node.instances

    # Read from the world only by the components that ask (most never do).
    look = property(lambda self: self._frame.look, doc="Where the agents look ``(n, 2)``.")
    angular_velocity = property(
        lambda self: self._frame.angular_velocity, doc="Turn rates ``(n,)``, degrees per s."
    )
    max_turn_rate = property(
        lambda self: self._frame.max_turn_rate, doc="Turn-rate limits ``(n,)``, degrees per s."
    )
    max_angular_acceleration = property(
        lambda self: self._frame.max_angular_acceleration,
        doc="Limits of the change of turn rate ``(n,)``, degrees per s².",
    )

    def child(self, index: int) -> np.ndarray:
        """Forces ``(n, 2)`` of child ``index`` of this component, for the same agents."""
        return evaluate(self._frame, self._node.children[index])

    def child_turn(self, index: int) -> np.ndarray | None:
        """Angular accelerations ``(n,)`` of child ``index`` (see
        :meth:`~arcade_steering.SteeringComponent.turn`), or None if it has no opinion."""
        return evaluate_turn(self._frame, self._node.children[index])

    # -- parameters -------------------------------------------------------------------------

    def params(self, component: Node) -> ParamArrays:
        """The declared parameters of every agent's component at this place in its tree.

        Pass ``self`` from ``steer``: ``ctx.params(self).slowing_radius`` is every agent's
        ``slowing_radius`` ``(n,)``, though ``self`` is just the first agent's instance. Numbers
        come as float arrays (None, "no limit", as ``inf``), points as ``(n, 2)``, targets as
        :class:`Targets`, other objects (a path, a group) as
        :class:`~arcade_steering.params.Groups`, structural parameters as the batch's one
        value. Gathered again only after a parameter changed.

        Raises:
            ValueError: ``component`` is not the one being steered.
        """
        if component is not self._node.component:
            raise ValueError("params() takes the component being steered: ctx.params(self)")
        return ParamArrays(self)

    def param(self, name: str) -> np.ndarray:
        """Attribute ``name`` of every agent's component as floats ``(n,)`` (or ``(n, k)``);
        ``None`` (no limit) as ``inf``. :meth:`params` does this by declared name."""
        return gather_array(self._node, name, len(self))

    def groups(self, name: str) -> Groups:
        """Agents grouped by the object their attribute ``name`` holds (a path, a leader):
        ``(value, rows)`` pairs, ``rows`` positions in this batch (``(k,)`` int)."""
        return gather_groups(self._node, name, len(self))

    def target(self, name: str = "target") -> np.ndarray:
        """Positions ``(n, 2)`` of every agent's target parameter ``name``, read now."""
        return self._targets(name).positions(self._step)

    def target_velocity(self, name: str = "target") -> np.ndarray:
        """Velocities ``(n, 2)`` px/s of the targets: the world's for attached sprites,
        estimated from position changes between updates for other moving targets, zero for
        fixed points."""
        return self._targets(name).velocities(self._step)

    def _parameter(self, name: str) -> Any:
        gathered = self._node.gathered
        try:
            value = gathered[name]
        except KeyError:
            declared: Param | None = type(self._node.component).params.get(name)
            if declared is None:
                cls = type(self._node.component).__name__
                raise AttributeError(f"{cls} declares no parameter {name!r}") from None
            value = gathered[name] = declared.per_agent(self._node, len(self))
        return Targets(value, self._step) if isinstance(value, TargetTable) else value

    def _targets(self, name: str) -> TargetTable:
        declared = type(self._node.component).params.get(name)
        if not isinstance(declared, TargetParam):
            raise AttributeError(f"{type(self._node.component).__name__} has no target {name!r}")
        table: TargetTable = declared.per_agent(self._node, len(self))
        return table

    # -- other agents -----------------------------------------------------------------------

    @property
    def world_slots(self) -> np.ndarray:
        """The slots of every agent of the world ``(N,)``, in the neighbour index's order."""
        return self._step.agents.rows

    def neighbors(self, radius: float | np.ndarray, among: Any = None) -> NeighborPairs:
        """Other agents within ``radius`` px of each agent of the batch.

        The index is built once per (sub)step and shared by every component; so is the
        answer to one question asked by several components of a batch.

        Args:
            radius: Search radius, px, scalar or ``(n,)``.
            among: None for every agent of the world; sprites (a list, a SpriteList) whose
                agents alone count as neighbours; or a parameter's
                :class:`~arcade_steering.params.Groups`, each agent among the sprites its own
                component holds (each squad its own SpriteList, in one query).

        Returns:
            Pairs with ``query`` = row in this batch and ``other`` = the neighbour's slot in
            the world's arrays (index :meth:`world_velocity` etc. with it).
        """
        if isinstance(among, Groups):
            return self._neighbors_in_groups(radius, among)
        step = self._step
        rows = step.agents.row_of_slot[self.slots]
        pairs = step.neighborhood.index().query(rows, radius, step.neighborhood.mask(among))
        return pairs.renumbered(step.agents.rows)

    def neighbors_among(self, radius: float | np.ndarray, name: str = "among") -> NeighborPairs:
        """:meth:`neighbors`, each agent among the sprites its attribute ``name`` holds."""
        return self._neighbors_in_groups(radius, self.groups(name))

    def _neighbors_in_groups(self, radius: float | np.ndarray, groups: Groups) -> NeighborPairs:
        step, agents = self._step, self._step.agents
        neighborhood = step.neighborhood
        layout = self._node.cached(("among", id(groups)), lambda _: AmongLayout(groups, len(self)))
        radius = np.asarray(radius, dtype=float)
        if radius.ndim and len(radius) and every(radius == radius[0]):
            radius = radius[:1].reshape(())  # one radius: the index's faster scalar path
        key = (radius.tobytes(), layout.key)
        if key in self._frame.answers:
            answer: NeighborPairs = self._frame.answers[key]
            return answer
        rows = agents.row_of_slot[self.slots]
        reach = float(radius) if radius.ndim == 0 else radius
        index = neighborhood.index()
        labels = neighborhood.labels(layout.values) if len(groups) > 1 else None
        if labels is not None:  # squads: every agent in one group at most
            pairs = index.query(rows, reach, groups=(labels, layout.asked))
        else:
            masks = [neighborhood.mask(value) for value in layout.values]
            pairs = index.query(rows, reach, union_of(masks))
            if len(groups) > 1:
                pairs = pairs.select(in_asked_group(pairs, masks, layout.asked, len(agents)))
        pairs = pairs.renumbered(agents.rows)
        self._frame.answers[key] = pairs
        return pairs

    def nearest(
        self,
        k: np.ndarray,
        radius: np.ndarray,
        *,
        among: Any = None,
        ahead: np.ndarray | float = 0.0,
    ) -> NeighborPairs:
        """Each agent's ``k`` nearest other agents within ``radius``, where everybody will be
        ``ahead`` seconds from now if they keep their velocities.

        Offsets and distances are those of now. The search starts from how far each agent's
        k-th neighbour was last step (kept in this component's per-agent state), so its cost
        hardly grows with the crowd.

        Args:
            k: How many neighbours at most ``(n,)`` int (or a scalar).
            radius: Reach where everybody will be, px ``(n,)``.
            among: As :meth:`neighbors`.
            ahead: Seconds ahead ``(n,)`` or a scalar; one index per distinct value.

        Returns:
            Pairs as :meth:`neighbors`, grouped by asking agent, nearest (ahead) first.
        """
        n = len(self)
        k = np.broadcast_to(np.asarray(k, dtype=np.intp), (n,))
        radius = np.broadcast_to(np.asarray(radius, dtype=float), (n,))
        groups = among if isinstance(among, Groups) else Groups([(among, np.arange(n))], n)
        step, agents = self._step, self._step.agents
        guess = self.state("neighbor_reach")
        parts = []
        for seconds, same in distinct(np.broadcast_to(np.asarray(ahead, dtype=float), (n,))):
            index = step.neighborhood.index_ahead(seconds)
            for value, group in groups:
                members = group if same is None else np.intersect1d(group, same)
                rows = agents.row_of_slot[self.slots[members]]
                mine = k[members]
                query, other, dist2 = index.nearest_distances(
                    rows,
                    mine,
                    radius[members],
                    step.neighborhood.mask(value),
                    guess[members],
                )
                guess[members] = kth_distance(query, dist2, mine)
                parts.append((members[query], rows[query], other))
        self.set_state("neighbor_reach", guess)
        query, rows, other = (
            parts[0] if len(parts) == 1 else [np.concatenate(p) for p in zip(*parts, strict=True)]
        )
        now = step.neighborhood.index()
        dx, dy = now.x[other] - now.x[rows], now.y[other] - now.y[rows]
        return NeighborPairs(
            query, agents.rows[other], stack_columns(dx, dy), lengths_xy(dx, dy), n
        )

    def world_velocity(self, slots: np.ndarray) -> np.ndarray:
        """Velocities ``(k, 2)`` px/s of the agents in world ``slots`` (e.g. neighbours)."""
        return self._step.arrays.velocity.take(slots, axis=0)

    def world_position(self, slots: np.ndarray) -> np.ndarray:
        """Positions ``(k, 2)`` px of the agents in world ``slots``."""
        return self._step.arrays.position.take(slots, axis=0)

    def world_radius(self, slots: np.ndarray) -> np.ndarray:
        """Radii ``(k,)`` px of the agents in world ``slots``."""
        return self._step.arrays.radius[slots]

    def world_heading(self, slots: np.ndarray, look: bool = False) -> np.ndarray:
        """Unit headings (or, with ``look``, look directions) ``(k, 2)`` of world ``slots``."""
        return (self._step.arrays.look if look else self._step.arrays.heading).take(slots, 0)

    # -- per-agent state --------------------------------------------------------------------

    def state(self, name: str, fill: float = np.nan, shape: tuple[int, ...] = ()) -> np.ndarray:
        """This component's per-agent state ``name``, ``(n, *shape)`` (a copy).

        A new agent (or one whose behaviour changed) starts with ``fill``.
        """
        column = self._step.arrays.state.column(self._state_key(name), fill, shape)
        return column.read(self._frame.slots)

    def set_state(self, name: str, values: np.ndarray) -> None:
        """Store per-agent state ``name`` ``(n, *shape)`` for the agents of this batch."""
        values = np.asarray(values)
        column = self._step.arrays.state.column(self._state_key(name), np.nan, values.shape[1:])
        column.write(self._frame.slots, values)

    def node_cache(self, key: Hashable, build: Any) -> Any:
        """``build()``, kept for this place of the batch's tree until a parameter changes:
        for what a component works out from its parameters (a table of its paths)."""
        return self._node.cached(key, lambda _: build())

    def _state_key(self, name: str) -> Hashable:
        return (self._node.index, type(self._node.component).__name__, name)


class ParamArrays:
    """A component's declared parameters for every agent of a batch: ``params.radius``.

    From :meth:`SteeringContext.params`.
    """

    __slots__ = ("_context",)

    def __init__(self, context: SteeringContext) -> None:
        self._context = context

    # Every attribute is a parameter: __getattr__ would first fail a lookup (building an
    # AttributeError), which costs twice the read itself.
    def __getattribute__(self, name: str) -> Any:
        context = _attribute(self, "_context")
        value = context._node.gathered.get(name, _MISSING)  # the usual case: gathered
        if value is _MISSING or isinstance(value, TargetTable):
            return context._parameter(name)
        return value


_attribute = object.__getattribute__
_MISSING = object()


def evaluate(frame: BatchFrame, node: BatchNode) -> np.ndarray:
    """Forces ``(n, 2)`` of ``node``'s component for the batch, checked and finite."""
    component = node.component
    force = np.asarray(component.steer(SteeringContext(frame, node)), dtype=float)
    n = len(frame.slots)
    if force.shape != (n, 2):
        raise ValueError(
            f"{type(component).__name__}.steer returned shape {force.shape}, expected ({n}, 2)"
        )
    return finite(force)


def evaluate_turn(frame: BatchFrame, node: BatchNode) -> np.ndarray | None:
    """Angular accelerations ``(n,)`` of ``node``'s component for the batch (finite), or
    None when it has no opinion (not asked when nothing at or below it turns)."""
    component = node.component
    turn = component.turn(SteeringContext(frame, node)) if node.turns else None
    if turn is None:
        return None
    turn = np.asarray(turn, dtype=float)
    n = len(frame.slots)
    if turn.shape != (n,):
        raise ValueError(
            f"{type(component).__name__}.turn returned shape {turn.shape}, expected ({n},)"
        )
    return finite(turn)
