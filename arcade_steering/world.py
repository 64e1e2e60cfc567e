"""SteeringWorld: every agent's state in numpy arrays, the update loop and the sprite sync."""

from __future__ import annotations

import math
import operator
import weakref
from itertools import chain, compress, repeat
from typing import Any

import numpy as np
import pymunk

from . import geometry
from ._arcade.angles import FACINGS, arcade_angle
from ._arcade.motion import MotionTracker, read_position
from ._arcade.physics import check_engine, driven_bodies, read_velocities, write_bodies
from ._arcade.sprite_sync import ListSlots, fast_setters, read_positions, write_sprites
from ._core.arrays import SlotArrays, StateStore
from ._core.batches import Batch, group_into_batches
from ._core.solid import keep_out
from ._util.validate import check_bool, check_non_negative, check_point, check_positive, check_real
from ._util.vec import divide_rows, lengths, put_rows, scale_rows, truncate
from .agent import SteeringAgent
from .component import SteeringComponent, check_component
from .context import BatchFrame, evaluate
from .debug import DebugRecorder, draw_world
from .geometry import StaticGeometry
from .neighbors import NeighborIndex

#: Below this speed (px/s) an agent keeps its heading and its sprite does not turn.
HEADING_MIN_SPEED = 1.0

# Calls each weak reference in one C-level pass (operator.call is Python >= 3.11).
_call = getattr(operator, "call", None)
#: Sets of ``among`` groups whose labels a world keeps (one per batch node asking, usually).
_LABEL_CACHE_SIZE = 32
#: When all but at most 1 in this many sprites changed, the unchanged ones are written too
#: (where nobody can tell): a masked write's fixed cost exceeds writing a few more sprites.
_REWRITE_SHARE = 8

_COLUMNS: dict[str, tuple[tuple[int, ...], type, object]] = {
    "position": ((2,), float, 0.0),
    "velocity": ((2,), float, 0.0),
    "force": ((2,), float, 0.0),
    "heading": ((2,), float, 0.0),
    "max_speed": ((), float, 1.0),
    "max_force": ((), float, 1.0),
    "mass": ((), float, 1.0),
    "radius": ((), float, 0.0),
    "response_time": ((), float, 0.1),
    "facing": ((), float, 0.0),
    "angle": ((), float, 0.0),
    "rotate": ((), bool, False),
    "solid": ((), bool, False),
    # A weak reference to the sprite (a zero-argument callable returning it, or None once it
    # has been garbage collected): the world must not keep a game's dropped sprites alive.
    "sprite": ((), object, None),
    "sprite_id": ((), object, None),
    "fast_position": ((), bool, False),
    "fast_angle": ((), bool, False),
    # A weak reference to the SteeringAgent view, which holds its sprite: a game keeping only
    # the agent keeps the sprite attached.
    "agent": ((), object, None),
    "behavior": ((), object, None),
    "shape_key": ((), object, None),
}


class SteeringWorld:
    """All steering agents of a game, updated together.

    Args:
        seed: Seed of the world's random generator (wander, tie-breaking). The same seed and
            the same sequence of ``update`` calls give identical results.
        space: A ``pymunk.Space`` holding walls and obstacles to share (for example
            ``arcade.PymunkPhysicsEngine().space``), or None for a space of the world's own.
        max_step: Longest (sub)step in seconds; a longer ``update`` is split into equal steps.
        physics: An ``arcade.PymunkPhysicsEngine`` that moves some of the agents, or None. An
            agent whose sprite is in the engine is steered through its body: each update reads
            the body's velocity and sets a new one (and, with ``rotate=True``, its angle); the
            engine moves and collides it when the game calls ``engine.step()`` after
            ``update``. Its walls and obstacles need no ``solid``: the engine collides them.
            Other agents are moved by the world. Without ``space``, the world shares the
            engine's space, so the walls it adds block the engine's bodies.

    Sprite lifecycle: the world holds sprites weakly. A sprite the game drops (garbage
    collected) is detached at the next ``update``, before anything else (queries such as
    ``len(world)`` already leave it out). An agent holds its sprite, so a game keeping the
    :class:`SteeringAgent` keeps the sprite attached. ``remove_from_sprite_lists()`` does not
    detach: the agent is steered while the game holds the sprite; call :meth:`detach`.

    Example:
        >>> import arcade_steering as steer
        >>> from arcade_steering.testing import StubSprite
        >>> world = steer.SteeringWorld(seed=0)
        >>> ship = StubSprite(0, 0)
        >>> agent = world.attach(ship, steer.Arrive((100, 0)), max_speed=100, max_force=400)
        >>> for _ in range(300):
        ...     world.update(1 / 60)
        >>> abs(ship.center_x - 100) <= 2.0  # stopped within Arrive's tolerance
        True
    """

    def __init__(
        self,
        seed: int | None = 0,
        space: Any = None,
        max_step: float = 1 / 30,
        *,
        physics: Any = None,
    ) -> None:
        self._physics = None if physics is None else check_engine("physics", physics)
        self.max_step = check_positive("max_step", max_step)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))):
            raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
        if seed is not None and seed < 0:
            raise ValueError(f"seed must be >= 0, got {seed}")
        #: The world's seeded random generator: components draw from it and nothing else.
        self.rng = np.random.default_rng(seed)
        if space is not None and not isinstance(space, pymunk.Space):
            raise TypeError(f"space must be a pymunk.Space or None, got {type(space).__name__}")
        if space is None and self._physics is not None:
            space = self._physics.space
        self._space = pymunk.Space() if space is None else space
        # Which agents (positions in ``self._rows``) the engine drives, this update; or None.
        self._driven: np.ndarray | None = None
        self._geometry = StaticGeometry()
        self._slots = SlotArrays(_COLUMNS)
        self._states = StateStore()
        self._states.resize(self._slots.capacity)
        # id(sprite) -> slot. A sprite's weak reference reports its death here (before its
        # id can be reused), and the world drops such agents before it next looks anything up.
        self._slot_of: dict[int, int] = {}
        self._collected: list[Any] = []
        self._order: list[int] = []
        self._refs: list[Any] = []
        self._rows = np.zeros(0, dtype=np.intp)
        self._batches: list[Batch] | None = []
        self._shape_epoch = SteeringComponent.shape_epoch
        self._tracker = MotionTracker()
        self._neighbors: NeighborIndex | None = None
        self._among: dict[int, tuple[Any, np.ndarray]] = {}
        #: Labels found by :meth:`_among_labels`, by the groups' ids, with the members' sizes
        #: and ids they were found from; dropped when agents change.
        self._labels: dict[tuple[int, ...], tuple[list[int], list[int], np.ndarray | None]] = {}
        self._row_of_slot = np.zeros(0, dtype=np.intp)
        self._debug_wanted = False
        self._debug: DebugRecorder | None = None
        self._list_slots: ListSlots | None = None
        #: Each agent's row by its sprite's ``id``; None until needed after agents change.
        self._row_of_id: dict[int, int] | None = None
        self._bind_arrays()

    # -- agents -----------------------------------------------------------------------------

    def attach(
        self,
        sprite: Any,
        behavior: SteeringComponent,
        *,
        max_speed: float = 200.0,
        max_force: float = 400.0,
        mass: float = 1.0,
        response_time: float = 0.1,
        radius: float | None = None,
        velocity: tuple[float, float] = (0.0, 0.0),
        facing: str | float = "right",
        rotate: bool = True,
        solid: bool = True,
    ) -> SteeringAgent:
        """Give ``sprite`` a steering behaviour.

        Args:
            sprite: An ``arcade.Sprite`` or anything with ``position``, ``angle``, ``width`` and
                ``height`` (e.g. :class:`~arcade_steering.testing.StubSprite`).
            behavior: The root of the agent's behaviour tree.
            max_speed: Speed limit, px/s.
            max_force: Force limit, px/s² times mass.
            mass: Divides the force into an acceleration. The behaviours' forces do not grow
                with mass, so a heavier agent also corrects its velocity more slowly (in about
                ``mass * response_time``). Far from 1 the arrivals suffer: Arrive coasts
                about 20 px past its target at mass 4, and never settles at mass 0.1 with
                ``max_force=400`` at 30 FPS.
            response_time: Seconds in which the agent wants to correct its velocity (at mass 1).
            radius: The agent's circle for avoidance and collisions, px; None for half the
                smaller of the sprite's width and height.
            velocity: Initial velocity, px/s.
            facing: The way the art faces: "right", "up", "left", "down", or degrees
                counter-clockwise from +x.
            rotate: Whether to turn the sprite to face where it goes.
            solid: Whether to keep the agent's circle out of walls and obstacles.

        Returns:
            The agent, a view on the sprite's row in the world.

        Raises:
            TypeError: A parameter has the wrong type.
            ValueError: A value is out of range, or the sprite is already attached.
        """
        if not hasattr(sprite, "position"):
            raise TypeError(f"sprite must have a position, got {type(sprite).__name__}")
        self._drop_collected()
        if id(sprite) in self._slot_of:
            raise ValueError("sprite is already attached to this world")
        check_component("behavior", behavior)
        row = {
            "max_speed": check_positive("max_speed", max_speed),
            "max_force": check_positive("max_force", max_force),
            "mass": check_positive("mass", mass),
            "response_time": check_positive("response_time", response_time),
            "velocity": check_point("velocity", velocity),
            "facing": _check_facing(facing),
            "rotate": check_bool("rotate", rotate),
            "solid": check_bool("solid", solid),
            "radius": _default_radius(sprite)
            if radius is None
            else check_non_negative("radius", radius),
        }
        speed = math.hypot(*row["velocity"])
        if speed > row["max_speed"]:  # the limit holds from the start, not from the first step
            scale = row["max_speed"] / speed
            row["velocity"] = (row["velocity"][0] * scale, row["velocity"][1] * scale)
        position = check_point("sprite.position", read_position(sprite))
        angle = check_real("sprite.angle", getattr(sprite, "angle", 0.0))
        key = behavior.shape_key()

        slot = self._slots.allocate()
        self._states.resize(self._slots.capacity)
        self._bind_arrays()
        for name, value in row.items():
            self._slots.arrays[name][slot] = value
        self._position[slot] = position
        self._angle[slot] = angle
        heading_degrees = row["facing"] - angle
        self._heading[slot] = (
            math.cos(math.radians(heading_degrees)),
            math.sin(math.radians(heading_degrees)),
        )
        speed = math.hypot(*row["velocity"])
        if speed > HEADING_MIN_SPEED:
            self._heading[slot] = np.divide(row["velocity"], speed)
        agent = SteeringAgent(self, slot, sprite)
        self._sprite[slot] = _weak(sprite, self._collected.append)
        self._sprite_id[slot] = id(sprite)
        self._fast_position[slot], self._fast_angle[slot] = fast_setters(sprite)
        self._agent[slot] = weakref.ref(agent)
        self._behavior[slot] = behavior
        self._shape_key[slot] = key
        self._slot_of[id(sprite)] = slot
        self._order.append(slot)
        self._agents_changed()
        return agent

    def detach(self, sprite: Any) -> None:
        """Stop steering ``sprite``; it stays where it is.

        Raises:
            KeyError: The sprite is not attached.
        """
        self._release([self._slot_for(sprite)])

    def agent_of(self, sprite: Any) -> SteeringAgent:
        """The agent of an attached sprite.

        Raises:
            KeyError: The sprite is not attached.
        """
        return self._view(self._slot_for(sprite))

    def __contains__(self, sprite: Any) -> bool:
        self._drop_collected()
        slot = self._slot_of.get(id(sprite))
        return slot is not None and self._sprite[slot]() is sprite

    @property
    def agents(self) -> list[SteeringAgent]:
        """The attached agents, in the order they were attached."""
        self._drop_collected()
        return [self._view(slot) for slot in self._order]

    def __len__(self) -> int:
        self._drop_collected()
        return len(self._order)

    # -- walls and obstacles ----------------------------------------------------------------

    @property
    def space(self) -> pymunk.Space:
        """The ``pymunk.Space`` holding walls and obstacles (static Segments and Circles).

        Static segments and circles added to it directly count too, from the next update.
        """
        return self._space

    @property
    def physics(self) -> Any:
        """The ``arcade.PymunkPhysicsEngine`` that moves the agents it holds, or None."""
        return self._physics

    @property
    def geometry(self) -> StaticGeometry:
        """The numpy mirror of the space's static shapes that batched queries run on."""
        self._geometry.sync(self._space)
        return self._geometry

    def add_wall(
        self, a: tuple[float, float], b: tuple[float, float], thickness: float = 0.0
    ) -> pymunk.Segment:
        """Add a wall from ``a`` to ``b`` (px), ``thickness`` px thick, as a ``pymunk.Segment``.

        Raises:
            ValueError: A point is NaN/inf, ``a == b``, or ``thickness`` is negative.
        """
        return geometry.add_wall(self._space, a, b, thickness)

    def add_walls(
        self, points: Any, closed: bool = False, thickness: float = 0.0
    ) -> list[pymunk.Segment]:
        """Add a polyline of walls through ``points``; ``closed`` joins the last to the first."""
        return geometry.add_walls(self._space, points, closed, thickness)

    def add_obstacle(self, center: tuple[float, float], radius: float) -> pymunk.Circle:
        """Add a round obstacle (a ``pymunk.Circle``) of ``radius`` px at ``center``.

        Raises:
            ValueError: ``center`` is NaN/inf or ``radius`` <= 0.
        """
        return geometry.add_obstacle(self._space, center, radius)

    def remove_shape(self, shape: pymunk.Shape) -> None:
        """Remove a wall or obstacle from the space."""
        geometry.remove_shape(self._space, shape)

    # -- update -----------------------------------------------------------------------------

    def update(self, delta_time: float) -> None:
        """Advance every agent by ``delta_time`` seconds and move their sprites.

        Call it from ``on_update(delta_time)``. A ``delta_time`` <= 0 does nothing; one longer
        than ``max_step`` is split into equal sub-steps. With ``physics=engine``, call
        ``engine.step()`` after it: the agents the engine holds get new body velocities here
        and move there.

        Raises:
            ValueError: ``delta_time`` is NaN or infinite.
        """
        dt = check_real("delta_time", delta_time)
        self._drop_collected()
        if dt <= 0.0:
            return
        steps = max(1, math.ceil(dt / self.max_step - 1e-9))
        step = dt / steps
        rows = self._rows
        # Strong references for this update only: no sprite can vanish half-way through it.
        sprites = _deref(self._refs)
        if self._row_of_id is None:
            ids = map(self._sprite_id.__getitem__, self._order)
            self._row_of_id = dict(zip(ids, range(len(self._order)), strict=True))
        list_slots = ListSlots.of(sprites, self._list_slots, self._row_of_id)
        self._list_slots = list_slots
        pulled = self._pull_sprites(rows, sprites, list_slots)
        driven = None if self._physics is None else self._pull_bodies(rows, sprites)
        self._tracker.sample(dt)
        batches = self._current_batches()
        self._geometry.sync(self._space)
        self._among.clear()
        self._debug = DebugRecorder() if self._debug_wanted else None
        for index in range(steps):
            self._step(rows, batches, step, self._debug if index == steps - 1 else None)
        self._push_sprites(rows, sprites, pulled, list_slots)
        if driven is not None:
            body_rows, bodies = driven
            write_bodies(
                bodies,
                self._velocity.take(body_rows, axis=0),
                self._angle[body_rows],
                self._rotate[body_rows],
            )

    def _step(
        self, rows: np.ndarray, batches: list[Batch], dt: float, debug: DebugRecorder | None
    ) -> None:
        self._neighbors = None
        for batch in batches:
            put_rows(
                self._force,
                batch.slots,
                evaluate(BatchFrame(self, batch.slots, dt, debug), batch.root),
            )
        # take() rather than [rows]: numpy's fancy indexing of (n, 2) rows is ~10x slower.
        force = truncate(self._force.take(rows, axis=0), self._max_force[rows])
        put_rows(self._force, rows, force)
        start = self._position.take(rows, axis=0)
        velocity = self._velocity.take(rows, axis=0) + scale_rows(force, dt / self._mass[rows])
        velocity = truncate(velocity, self._max_speed[rows])
        position = start + velocity * dt
        solid = self._solid[rows]
        if self._driven is not None:  # the engine collides its bodies itself
            solid = solid & ~self._driven
        if len(self._geometry) and solid.all():  # the usual case: no masked (n, 2) copies
            position, velocity = keep_out(
                self._geometry, start, position, velocity, self._radius[rows]
            )
        elif len(self._geometry) and solid.any():
            position[solid], velocity[solid] = keep_out(
                self._geometry,
                start[solid],
                position[solid],
                velocity[solid],
                self._radius[rows[solid]],
            )
        put_rows(self._position, rows, position)
        put_rows(self._velocity, rows, velocity)
        speed = lengths(velocity)
        turning = speed > HEADING_MIN_SPEED
        put_rows(self._heading, rows[turning], divide_rows(velocity[turning], speed[turning]))

    def _current_batches(self) -> list[Batch]:
        if self._shape_epoch != SteeringComponent.shape_epoch:
            self._shape_epoch = SteeringComponent.shape_epoch
            for slot in self._order:
                self._shape_key[slot] = self._behavior[slot].shape_key()
            self._batches = None
        if self._batches is None:
            slots = self._order
            self._batches = group_into_batches(
                slots, [self._behavior[s] for s in slots], [self._shape_key[s] for s in slots]
            )
        return self._batches

    # -- sprite sync ------------------------------------------------------------------------

    def _pull_sprites(
        self, rows: np.ndarray, sprites: list[Any], list_slots: ListSlots
    ) -> np.ndarray:
        """Take positions from the sprites a game moved since the last update.

        Returns:
            The sprites' positions ``(n, 2)``, finite or not; only finite ones are taken.
        """
        pulled = self._position.take(rows, axis=0)
        fast = self._fast_position[rows]
        if fast.all():  # plain arcade sprites: their lists' buffers show which ones moved
            mask = list_slots.moved(pulled)
            if not mask.any():
                return pulled
            moved = np.flatnonzero(mask)
            values = read_positions(list(compress(sprites, mask.tolist())), fast[moved])
        else:
            moved = np.arange(len(rows))
            values = read_positions(sprites, fast)
        pulled[moved] = values
        finite = np.isfinite(values).all(axis=1)
        put_rows(self._position, rows[moved[finite]], values[finite])
        return pulled

    def _pull_bodies(
        self, rows: np.ndarray, sprites: list[Any]
    ) -> tuple[np.ndarray, list[pymunk.Body]] | None:
        """Take the velocities of the agents the engine drives from their bodies.

        Returns:
            Their rows ``(k,)`` and bodies ``(k,)``, or None if there are none.
        """
        driven, bodies = driven_bodies(self._physics, sprites)
        self._driven = driven if bodies else None
        if not bodies:
            return None
        body_rows = rows[driven]
        velocity = read_velocities(bodies)
        finite = np.isfinite(velocity).all(axis=1)
        put_rows(self._velocity, body_rows[finite], velocity[finite])
        return body_rows, bodies

    def _push_sprites(
        self, rows: np.ndarray, sprites: list[Any], pulled: np.ndarray, list_slots: ListSlots
    ) -> None:
        """Write positions and angles back, only for sprites whose values changed."""
        position = self._position.take(rows, axis=0)
        if self._driven is not None:  # the engine moves these (to where the world expects)
            position[self._driven] = pulled[self._driven]
        moved = (position != pulled).any(axis=1)
        rotating = self._rotate[rows]
        angle = arcade_angle(self._heading.take(rows, axis=0), self._facing[rows])
        # Compare modulo 360: a sprite at 200 degrees already points where -160 does.
        turned = rotating & (np.abs((angle - self._angle[rows] + 180.0) % 360.0 - 180.0) > 1e-9)
        changed = moved | turned
        if not changed.all() and self._rewrite_unchanged(changed, list_slots):
            changed = np.ones_like(changed)
        # Every rotating sprite written gets its angle (at most 1e-9 degrees off for one that
        # did not turn): without a mask the usual case, all rotating, writes angles in bulk.
        faced = rotating & changed
        self._angle[rows[faced]] = angle[faced]
        if changed.all():
            self._write_sprites(rows, sprites, position, angle, faced, list_slots)
        elif changed.any():
            self._write_sprites(
                rows[changed],
                list(compress(sprites, changed.tolist())),
                position[changed],
                angle[changed],
                faced[changed],
                list_slots.select(changed),
            )

    def _rewrite_unchanged(self, changed: np.ndarray, list_slots: ListSlots) -> bool:
        """Whether to write the few unchanged sprites too, to save the masked write's fixed
        cost: only when nothing can tell (every sprite has arcade's own setters, which ignore
        an unchanged value, and no list has a spatial hash to update)."""
        rows = self._rows
        return (
            np.count_nonzero(changed) * _REWRITE_SHARE >= (_REWRITE_SHARE - 1) * len(changed)
            and bool(self._fast_position[rows].all() and self._fast_angle[rows].all())
            and all(each.sprite_list.spatial_hash is None for each in list_slots.lists)
        )

    def _write_sprites(
        self,
        rows: np.ndarray,
        sprites: list[Any],
        position: np.ndarray,
        angle: np.ndarray,
        faced: np.ndarray,
        list_slots: ListSlots,
    ) -> None:
        write_sprites(
            sprites,
            position,
            self._fast_position[rows],
            angle,
            faced,
            self._fast_angle[rows],
            list_slots,
        )

    # -- neighbours -------------------------------------------------------------------------

    def _neighbor_index(self) -> NeighborIndex:
        """The neighbour index over every agent's position, built once per (sub)step."""
        if self._neighbors is None:
            self._neighbors = NeighborIndex(self._position[self._rows])
        return self._neighbors

    def _among_labels(self, groups: list[Any]) -> np.ndarray | None:
        """Each agent's group ``(n,)`` among ``groups`` (positions in the neighbour index;
        -1 for none), read in one pass; None if a group is None (every agent) or an agent is
        in two of them."""
        if any(group is None for group in groups):
            return None
        members = [list(group) for group in groups]
        sizes = [len(each) for each in members]
        ids = list(map(id, chain.from_iterable(members)))
        # Squads rarely change: the same members (by id) as last time, and the same agents
        # (a collected agent is detached, which drops this cache, before its id is reused),
        # give the same labels, without looking every member up again.
        key = tuple(map(id, groups))
        seen = self._labels.get(key)
        if seen is not None and seen[0] == sizes and seen[1] == ids:
            return seen[2]
        slots = np.fromiter(map(self._slot_of.get, ids, repeat(-1)), np.intp, len(ids))
        label = np.repeat(np.arange(len(groups)), sizes)
        attached = slots >= 0
        rows = self._row_of_slot.take(slots[attached])
        labels = np.full(len(self._rows), -1, dtype=np.intp)
        labels[rows] = label[attached]
        labels.flags.writeable = False  # shared by the updates that reuse it
        found = labels if np.count_nonzero(labels >= 0) == len(rows) else None  # None: in two
        if len(self._labels) >= _LABEL_CACHE_SIZE:
            self._labels.clear()
        self._labels[key] = (sizes, ids, found)
        return found

    def _among_mask(self, among: Any) -> np.ndarray | None:
        """Which agents (positions in the neighbour index) belong to ``among``; None for all.

        Membership is read once per update, so sprites added to a SpriteList later count.
        """
        if among is None:
            return None
        hit = self._among.get(id(among))
        if hit is None or hit[0] is not among:
            mask = np.zeros(len(self._rows), dtype=bool)
            slots = np.fromiter(map(self._slot_of.get, map(id, among), repeat(-1)), dtype=np.intp)
            slots = slots[slots >= 0]
            mask[self._row_of_slot[slots]] = True
            hit = self._among[id(among)] = (among, mask)
        return hit[1]

    # -- debug ------------------------------------------------------------------------------

    def draw_debug(self) -> None:
        """Draw every agent's velocity, steering force and what its components recorded.

        Draws in world coordinates, like the sprites: with an ``arcade.Camera2D``, call it
        inside ``camera.activate()`` with the sprites, so the overlay scrolls and zooms with
        them. Line widths and dot sizes are world units too (they scale with the zoom).

        Needs an arcade window. Recording starts with the first call, so the overlay shows
        from the next update on.
        """
        self._debug_wanted = True
        draw_world(self, self._debug)

    # -- bookkeeping ------------------------------------------------------------------------

    def _slot_for(self, sprite: Any) -> int:
        self._drop_collected()
        slot = self._slot_of.get(id(sprite))
        if slot is None or self._sprite[slot]() is not sprite:
            raise KeyError("sprite is not attached to this world")
        return slot

    def _set_behavior(self, slot: int, behavior: SteeringComponent) -> None:
        check_component("behavior", behavior)
        key = behavior.shape_key()
        self._behavior[slot] = behavior
        self._shape_key[slot] = key
        self._states.reset(slot)
        self._batches = None

    def _view(self, slot: int) -> SteeringAgent:
        """The agent view of ``slot``: the one the game holds, or a new one."""
        agent = self._agent[slot]()
        if agent is None:
            agent = SteeringAgent(self, slot, self._sprite[slot]())
            self._agent[slot] = weakref.ref(agent)
        return agent

    def _drop_collected(self) -> None:
        """Detach the agents whose sprites have been garbage collected since the last call."""
        if self._collected:
            self._collected.clear()
            self._release([slot for slot in self._order if self._sprite[slot]() is None])

    def _release(self, slots: list[int]) -> None:
        for slot in slots:
            agent = self._agent[slot]()
            if agent is not None:
                agent._detached()
            del self._slot_of[self._sprite_id[slot]]
            self._order.remove(slot)
            self._slots.release(slot)
            self._states.reset(slot)
        self._agents_changed()

    def _agents_changed(self) -> None:
        self._neighbors = None
        self._labels.clear()
        self._refs = [self._sprite[slot] for slot in self._order]
        self._row_of_id = None
        self._rows = np.array(self._order, dtype=np.intp)
        self._row_of_slot = np.zeros(self._slots.capacity, dtype=np.intp)
        self._row_of_slot[self._rows] = np.arange(len(self._rows))
        self._batches = None

    def _bind_arrays(self) -> None:
        arrays = self._slots.arrays
        for name in _COLUMNS:
            setattr(self, f"_{name}", arrays[name])


def _check_facing(facing: Any) -> float:
    if isinstance(facing, str):
        if facing not in FACINGS:
            raise ValueError(f"facing must be one of {list(FACINGS)} or degrees, got {facing!r}")
        return FACINGS[facing]
    return check_real("facing", facing)


def _default_radius(sprite: Any) -> float:
    width = getattr(sprite, "width", 0.0)
    height = getattr(sprite, "height", 0.0)
    return max(0.0, 0.5 * min(float(width), float(height)))


def _weak(sprite: Any, collected: Any) -> Any:
    """A zero-argument callable returning ``sprite``, or None once it has been collected.

    ``collected(ref)`` is called when the sprite dies, before its id can be reused. A sprite
    that can't be weakly referenced (``__slots__`` without ``__weakref__``) is held strongly.
    """
    try:
        return weakref.ref(sprite, collected)
    except TypeError:
        return repeat(sprite).__next__


def _deref(refs: list[Any]) -> list[Any]:
    """The sprites behind weak references, in one pass (a list: it iterates faster than an
    object array)."""
    if _call is not None:
        return list(map(_call, refs))
    return [ref() for ref in refs]
