"""SteeringWorld: the game's handle on its agents, walls and obstacles, and the update loop.

The agents' state lives in an :class:`~arcade_steering._core.agents.AgentTable`; each update
reads what the game moved (:mod:`~arcade_steering._core.sync`), steps every batch and the
integrator (:mod:`~arcade_steering.component.integrate`) and writes the sprites back.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pymunk

from . import geometry
from ._arcade.physics import check_engine, world_space
from ._arcade.sprite_walls import SpriteWalls
from ._core.agents import AgentTable
from ._core.attach import AttachOptions
from ._core.guard import NotCopyable, UpdateGuard
from ._core.motion import MotionTracker
from ._core.neighborhood import Neighborhood
from ._core.owners import check_free
from ._core.perception import can_see
from ._core.snapshot import WorldSnapshot, load_world, new_world_number, save_world
from ._core.sync import DrivenBodies, SpriteSync
from ._native.report import NativeReport
from ._native.stepper import NativeStep
from ._util.validate import check_bool, check_count, check_positive, check_real, check_seed
from .agent import SteeringAgent, agent_view
from .component.base import SteeringComponent, check_component
from .component.frame import StepFrame
from .component.integrate import MAX_SUBSTEPS, forces_now, rehearse, run_steps, sub_steps
from .debug import DebugRecorder, draw_world
from .geometry import StaticGeometry

__all__ = ["SteeringWorld", "check_world"]


class SteeringWorld(NotCopyable):
    """All steering agents of a game, updated together.

    Args:
        seed: Seed of the world's random generator (wander, tie-breaking). The same seed and
            the same sequence of ``update`` calls give identical results.
        space: A ``pymunk.Space`` holding walls and obstacles to share (for example
            ``arcade.PymunkPhysicsEngine().space``), or None for a space of the world's own.
        max_step: Longest (sub)step in seconds; a longer ``update`` is split into equal steps.
        max_substeps: Most sub-steps of one ``update``: a longer ``delta_time`` (a frame after
            the game stalled, a replay's frame from a stranger) is simulated as only
            ``max_substeps * max_step`` seconds (2 s by default), so one update's cost stays
            bounded. A whole number >= 1.
        physics: An ``arcade.PymunkPhysicsEngine`` that moves some of the agents, or None. An
            agent whose sprite is in the engine is steered through its body: each update reads
            the body's velocity and sets a new one (and, with ``rotate=True``, its angle); the
            engine moves and collides it when the game calls ``engine.step()`` after
            ``update``. Its walls and obstacles need no ``solid``: the engine collides them.
            Other agents are moved by the world. Without ``space``, the world shares the
            engine's space, so the walls it adds block the engine's bodies.

    The world holds sprites and targets weakly: a sprite the game drops is detached (a
    :class:`SteeringAgent` the game keeps holds its sprite); ``remove_from_sprite_lists()``
    does not detach. A world belongs to one thread and can't be copied or pickled. See the
    page "Guarantees and limits".

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
        max_substeps: int = MAX_SUBSTEPS,
    ) -> None:
        self._physics = None if physics is None else check_engine("physics", physics)
        self.max_step = check_positive("max_step", max_step)
        self.max_substeps = check_count("max_substeps", max_substeps)
        #: The world's seeded random generator: components draw from it and nothing else.
        self.rng = np.random.default_rng(check_seed("seed", seed))
        self._space = world_space(space, self._physics)
        # The world's own space (none given): the world may step it.
        self._owns_space = space is None and physics is None
        self._geometry = StaticGeometry()
        self._sprite_walls: list[SpriteWalls] = []
        # A snapshot knows its world by this number, never reused in the process (an id is).
        self._number = new_world_number()
        self._agents = AgentTable()
        # A world dropped while the game keeps one of its agents lets other worlds attach the
        # sprites all the same.
        weakref.finalize(self, self._agents.release_all)
        self._neighborhood = Neighborhood(self._agents)
        self._tracker = MotionTracker()
        self._sync = SpriteSync()
        self._debug_wanted = False
        self._debug: DebugRecorder | None = None
        self._guard = UpdateGuard()
        self._native = NativeStep.load()

    # -- walls and obstacles ----------------------------------------------------------------

    @property
    def space(self) -> pymunk.Space:
        """The ``pymunk.Space`` holding walls and obstacles (static Segments and Circles).

        Static segments, polygons and circles added to it directly count too, from the next
        update.
        """
        return self._space

    @property
    def geometry(self) -> StaticGeometry:
        """The numpy mirror of the space's static shapes that batched queries run on."""
        self._geometry.sync(self._space)
        return self._geometry

    def add_wall(
        self, a: tuple[float, float], b: tuple[float, float] | None = None, thickness: float = 0.0
    ) -> pymunk.Segment:
        """Add a wall from ``a`` to ``b`` (px), ``thickness`` px thick, as a ``pymunk.Segment``.

        ``b`` is required; its default only lets a missing ``b`` be told apart from a ready
        ``pymunk.Segment`` given as ``a``, which ``world.space.add(segment)`` adds.

        Raises:
            TypeError: ``a`` is a pymunk shape, ``b`` is missing, or a value is not numeric.
            ValueError: A point is NaN/inf, ``a == b``, or ``thickness`` is negative.
        """
        _refuse_shape("add_wall", "a", a)
        if b is None:
            raise TypeError("add_wall needs b, the wall's second end as an (x, y) pair in px")
        return geometry.add_wall(self._space, a, b, thickness)

    def add_walls(
        self, points: Any, closed: bool = False, thickness: float = 0.0
    ) -> list[pymunk.Segment]:
        """Add a polyline of walls through ``points``; ``closed`` joins the last to the first."""
        if isinstance(points, (list, tuple)) and points:
            _refuse_shape("add_walls", "points[0]", points[0])
        return geometry.add_walls(self._space, points, closed, thickness)

    def add_obstacle(
        self, center: tuple[float, float], radius: float | None = None
    ) -> pymunk.Circle:
        """Add a round obstacle (a ``pymunk.Circle``) of ``radius`` px at ``center``.

        ``radius`` is required; its default only lets a missing ``radius`` be told apart from a
        ready ``pymunk.Circle`` given as ``center``, which ``world.space.add(circle)`` adds.

        Raises:
            TypeError: ``center`` is a pymunk shape, ``radius`` is missing, or a value is not
                numeric.
            ValueError: ``center`` is NaN/inf or ``radius`` <= 0.
        """
        _refuse_shape("add_obstacle", "center", center)
        if radius is None:
            raise TypeError("add_obstacle needs radius, the obstacle's radius in px (> 0)")
        return geometry.add_obstacle(self._space, center, radius)

    def remove_shape(self, shape: pymunk.Shape) -> None:
        """Remove a wall or obstacle from the space.

        pymunk frees a removed shape at the space's next ``step``: the world steps a space of
        its own for that (by zero seconds, which moves nothing); a space the game gave it is
        the game's to step.
        """
        geometry.remove_shape(self._space, shape)
        if self._owns_space:
            geometry.free_removed(self._space, [shape])

    def add_wall_sprites(self, sprites: Any, thickness: float = 0.0) -> SpriteWalls:
        """Add walls round the union of wall sprites' hit boxes (a ``SpriteList``, a Tiled tile
        layer, ``scene["Walls"]``): shared edges dropped, collinear ones joined. A sprite the
        game takes out of all its sprite lists takes its walls with it at the next update.
        See "Walls from sprites" on the page "Walls and obstacles".

        Raises:
            TypeError: ``sprites`` holds something without a ``hit_box``.
            ValueError: A bad ``thickness`` or hit box. Nothing is added.
        """
        walls = SpriteWalls(self._space, sprites, thickness)
        self._sprite_walls.append(walls)
        return walls

    def remove_wall_sprites(self, walls: SpriteWalls) -> None:
        """Take the walls of :meth:`add_wall_sprites` out of the space, for good.

        Raises:
            TypeError: ``walls`` is not a ``SpriteWalls``.
            ValueError: ``walls`` is not this world's.
        """
        if not isinstance(walls, SpriteWalls):
            raise TypeError(f"walls must be a SpriteWalls, got {type(walls).__name__}")
        if not any(walls is mine for mine in self._sprite_walls):
            raise ValueError("walls were not added by this world's add_wall_sprites")
        walls.clear()
        self._sprite_walls = [mine for mine in self._sprite_walls if mine is not walls]

    def _refresh_sprite_walls(self, rebuild: bool = False) -> None:
        """Follow wall sprites the game took out of their lists (or put back); ``rebuild``
        builds them all again (after a snapshot put the space's walls back)."""
        for walls in self._sprite_walls:
            if rebuild:
                walls.rebuild()
            else:
                walls.refresh()

    def can_see(
        self,
        observers: Any,
        targets: Any,
        length: float,
        half_angle: float = 180.0,
        *,
        walls: bool = True,
        obstacles: bool = False,
    ) -> Any:
        """Which observers see which targets: within ``length`` px and ``half_angle`` degrees
        of the observer's heading, with no wall (none with ``walls=False``; no obstacle either
        with ``obstacles=True``) between their centres. Observers: attached sprites or agents
        (or, all round at ``half_angle=180``, any sprites or ``(x, y)`` points); targets:
        sprites, agents or points; one, or a sequence (a ``SpriteList``, an ``(n, 2)`` array).
        See "Line of sight" on the page "Walls and obstacles".

        Returns:
            bool ``(observers, targets)``, every pair tested; the axis of a lone observer or
            target (not in a sequence) is dropped, down to a ``bool`` for one of each.
        """
        args = (observers, targets, length, half_angle, walls, obstacles)
        return can_see(self._agents, self.geometry, *args)

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
        max_turn_rate: float | None = None,
        max_angular_acceleration: float | None = None,
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
            rotate: Whether to turn the sprite to face where it goes (or looks).
            solid: Whether to keep the agent's circle out of walls and obstacles.
            max_turn_rate: How fast a component may turn where the agent looks (Face, Scan),
                degrees per second; None for no limit.
            max_angular_acceleration: How fast that turn rate may change, degrees per s².

        Returns:
            The agent, a view on the sprite's row in the world.

        Raises:
            TypeError: A parameter has the wrong type.
            ValueError: A value is out of range, or the sprite is already attached (to
                this world or another).
        """
        if not hasattr(sprite, "position"):
            raise TypeError(f"sprite must have a position, got {type(sprite).__name__}")
        self._guard.check("attach()")
        table = self._agents
        table.drop_collected()
        if table.slot_of(sprite) is not None:
            raise ValueError("sprite is already attached to this world")
        check_free(table, sprite)
        check_component("behavior", behavior)
        options = AttachOptions.check(
            sprite,
            max_speed=max_speed,
            max_force=max_force,
            mass=mass,
            response_time=response_time,
            radius=radius,
            velocity=velocity,
            facing=facing,
            rotate=rotate,
            solid=solid,
            max_turn_rate=max_turn_rate,
            max_angular_acceleration=max_angular_acceleration,
        )
        slot = table.add(sprite, behavior)
        options.fill(table.arrays, slot, sprite)
        return agent_view(self._agents, slot, sprite)

    def detach(self, sprite: Any) -> None:
        """Stop steering ``sprite``; it stays where it is.

        Raises:
            KeyError: The sprite is not attached.
        """
        self._guard.check("detach()")
        self._agents.remove([self._agents.require(sprite)])

    def agent_of(self, sprite: Any) -> SteeringAgent:
        """The agent of an attached sprite.

        Raises:
            KeyError: The sprite is not attached.
        """
        slot = self._agents.require(sprite)
        return agent_view(self._agents, slot, sprite)

    def __contains__(self, sprite: Any) -> bool:
        self._agents.drop_collected()
        return self._agents.slot_of(sprite) is not None

    @property
    def agents(self) -> list[SteeringAgent]:
        """The attached agents, in the order they were attached."""
        self._agents.drop_collected()
        return [agent_view(self._agents, slot) for slot in self._agents.order]

    def __len__(self) -> int:
        self._agents.drop_collected()
        return len(self._agents)

    @property
    def physics(self) -> Any:
        """The ``arcade.PymunkPhysicsEngine`` that moves the agents it holds, or None."""
        return self._physics

    def update(self, delta_time: float) -> None:
        """Advance every agent by ``delta_time`` seconds and move their sprites.

        Call it from ``on_update(delta_time)``. A ``delta_time`` <= 0 does nothing; one longer
        than ``max_step`` is split into equal sub-steps, at most ``max_substeps`` of them: a
        longer one is simulated as ``max_substeps`` steps of ``max_step``. With
        ``physics=engine``, call ``engine.step()`` after it (the engine moves the agents it
        holds). An exception from game code propagates with no agent moved, or every other
        sprite written.

        Raises:
            ValueError: ``delta_time`` is NaN or infinite.
            RuntimeError: The world is already updating (in another thread, or from inside).
        """
        dt = check_real("delta_time", delta_time)
        with self._guard("update()"):
            self._update(dt)

    def _update(self, dt: float) -> None:
        table = self._agents
        table.drop_collected()
        if dt <= 0.0:
            return
        steps, step_dt = sub_steps(dt, self.max_step, self.max_substeps)
        plan, arrays = table.plan, table.arrays
        # Strong references for this update only: no sprite can vanish half-way through it.
        sprites = table.sprites()
        engine = self._physics
        pulled = self._sync.pull(arrays, plan, sprites, table.row_of_id, engine is not None)
        driven = None if engine is None else DrivenBodies.pull(engine, arrays, plan.rows, sprites)
        self._tracker.sample(dt)
        batches = table.batches()
        self._refresh_sprite_walls()
        self._geometry.sync(self._space)
        self._neighborhood.start_update()
        self._debug = DebugRecorder() if self._debug_wanted else None
        mask = None if driven is None else driven.mask
        last = steps - 1  # the overlay shows the last sub-step
        run_steps(
            [self._frame(step_dt, self._debug if i == last else None) for i in range(steps)],
            batches,
            mask,
        )
        try:  # a sprite's setter that raises stops neither the others nor the bodies
            self._sync.push(arrays, plan, sprites, pulled, mask)
        finally:
            self._neighborhood.end_update()
            if driven is not None:
                driven.push(arrays)

    def steering_forces(
        self, dt: float = 1 / 60, *, alone: bool = False, debug: DebugRecorder | None = None
    ) -> np.ndarray:
        """Every agent's steering force now, as ``update`` would find it, without moving
        anything.

        For tests: agents, per-agent state (wander angles, path progress) and the random
        generator are left as they were.

        Args:
            dt: The step the components are told about, seconds.
            alone: Evaluate each agent as a batch of its own: a component is batched correctly
                when both agree (one drawing random numbers, as Wander, in distribution).
            debug: Where the components record their debug shapes, or None.

        Returns:
            Forces ``(len(world), 2)`` in the order of :attr:`agents`, before truncation to
            ``max_force``.
        """
        dt = check_positive("dt", dt)
        alone = check_bool("alone", alone)
        with self._settled("steering_forces()"), self._neighborhood.updating():
            return forces_now(self._frame(dt, debug), alone)

    def prepare(self) -> None:
        """Build now what the first :meth:`update` would build, and run its code once, moving
        nothing: the walls' and obstacles' grids, the agents' batches, parameters and places in
        their sprite lists. Optional: call it once a level is loaded, as
        ``SpriteList.initialize()``, and the first update costs about what later ones do. Per-agent
        state and the random generator are left as they were. See "The first update" on the
        page "Performance"."""
        with self._settled("prepare()"):
            table = self._agents
            self._sync.places(table.sprites(), table.row_of_id)
            with self._neighborhood.updating():
                rehearse(self._frame(1 / 60, None))

    def snapshot(self) -> WorldSnapshot:
        """Everything the next update depends on, copied, to :meth:`restore` later: the agents
        (who is attached, their columns and their components' per-agent state), the random
        generator and the space's walls and obstacles; not the components' parameters nor a
        physics engine's bodies. To write a world to a file, use
        :func:`~arcade_steering.save_world`. See the page "Saving, loading and replays"."""
        with self._settled("snapshot()"):
            return save_world(self._agents, self.rng, self._tracker, self._geometry, self._number)

    def restore(self, snapshot: WorldSnapshot) -> None:
        """Go back to a :meth:`snapshot` of this world: agents, walls and obstacles as they were
        then, every agent's sprite moved back. Updating then gives the same bits as the first
        time. Walls from sprites (:meth:`add_wall_sprites`) are built again from the wall sprites
        in their lists now: put the game's sprite lists back too.

        Raises:
            TypeError: ``snapshot`` is not a snapshot.
            ValueError: It is a snapshot of another world (nothing changes), or a sprite it
                would attach again is attached to another world now.
        """
        with self._guard("restore()"):
            self._geometry.sync(self._space)
            held = (self._space, self._geometry, self._agents, self.rng, self._tracker, self._sync)
            load_world(snapshot, self._number, *held, owns_space=self._owns_space)
            self._refresh_sprite_walls(rebuild=True)

    @contextmanager
    def _settled(self, what: str) -> Iterator[None]:
        """Hold the world for ``what``, a call that reads it without updating, with the agents
        the game dropped gone and the walls and obstacles read from the space."""
        with self._guard(what):
            self._agents.drop_collected()
            self._geometry.sync(self._space)
            yield

    def _frame(self, dt: float, debug: DebugRecorder | None) -> StepFrame:
        native = self._native if self._native.available else None
        return StepFrame(
            self._agents,
            dt,
            self.rng,
            self._geometry,
            self._neighborhood,
            self._tracker,
            debug,
            native,
        )

    def native_report(self) -> NativeReport:
        """Which path :meth:`update` runs: the native step or numpy, batch by batch, and why.

        The native step (a compiled extension, built where ``pip install`` finds a C compiler)
        steers each batch whose tree is made only of the components it covers, and moves the
        agents; numpy runs the rest, with the same results to rounding. Environment variable
        ``ARCADE_STEERING_NATIVE=0``, set before the world is made, keeps the world on numpy.
        ``print(world.native_report())`` lists the batches; see "The native step" on the page
        "Performance".
        """
        with self._settled("native_report()"):
            return self._native.report(
                self._agents.batches(), self._debug_wanted, self._physics is not None
            )

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
        draw_world(*self._agents.motion(), self.geometry, self._debug)


def check_world(world: Any) -> SteeringWorld:
    """``world`` if it is a :class:`SteeringWorld`, else ``TypeError`` naming ``world``."""
    if not isinstance(world, SteeringWorld):
        raise TypeError(f"world must be a SteeringWorld, got {type(world).__name__}")
    return world


def _refuse_shape(method: str, name: str, value: Any) -> None:
    """Refuse a ready pymunk shape where ``method`` takes points, saying how to add one."""
    if isinstance(value, pymunk.Shape):
        raise TypeError(
            f"{method} takes points in px, not shapes: {name} is a pymunk.{type(value).__name__}; "
            "add a ready shape with world.space.add(shape)"
        )
