"""One (sub)step: every batch's forces, then the one integrator that moves the agents."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._core.arrays import HEADING_MIN_SPEED
from .._core.batches import Batch
from .._util.masks import every, some
from .._util.vec import (
    as_complex,
    as_points,
    divide_rows,
    lengths,
    put_rows,
    scale_rows,
    truncate,
)
from ..solid.keep_out import keep_out
from .context import evaluate, evaluate_turn
from .frame import BatchFrame, StepFrame

if TYPE_CHECKING:
    from .._core.arrays import AgentArrays
    from .._core.plan import RowPlan
    from ..geometry import StaticGeometry

__all__ = [
    "MAX_SUBSTEPS",
    "Undo",
    "forces_now",
    "integrate",
    "rehearse",
    "run_steps",
    "step",
    "sub_steps",
    "turn_looks",
]

#: The columns a step writes: put back when a step fails.
#: (``angular`` is not among them: each step writes it before reading it.)
_STEPPED = ("force", "position", "velocity", "heading", "look", "angular_velocity")


#: The default most sub-steps of one update (a world's ``max_substeps``): 2 s at 1/30 s each.
MAX_SUBSTEPS = 60


def sub_steps(dt: float, max_step: float, max_substeps: int) -> tuple[int, float]:
    """How one update of ``dt`` seconds (> 0) is stepped: equal sub-steps of at most
    ``max_step``, at most ``max_substeps`` of them (a longer ``dt`` is cut to
    ``max_substeps * max_step`` seconds, as game loops guard against a "spiral of death").

    Returns:
        The number of sub-steps and each one's length, seconds.
    """
    if dt > max_substeps * max_step:
        return max_substeps, max_step
    steps = max(1, math.ceil(dt / max_step - 1e-9))
    return steps, dt / steps


def run_steps(frames: list[StepFrame], batches: list[Batch], driven: np.ndarray | None) -> None:
    """The (sub)steps of one update, every agent stepped fully or not at all: if a step
    raises (game code a component called: a callable target), every agent, its components'
    state and the random generator are put back as they were, and the error re-raised.

    Args:
        frames: One per (sub)step, in order.
        batches: The agents, grouped by the shape of their trees.
        driven: Which agents (rows) a physics engine moves and collides, or None.
    """
    first = frames[0]
    undo = Undo(first.arrays, first.rng)  # no context manager: its generator costs more
    try:
        for index, frame in enumerate(frames):
            if index:
                frame.neighborhood.start_step()
            step(frame, batches, driven)
    except BaseException:
        undo.put_back()
        raise


def step(frame: StepFrame, batches: list[Batch], driven: np.ndarray | None) -> None:
    """Steer every batch, then move every agent by ``frame.dt``.

    Args:
        frame: The (sub)step.
        batches: The agents, grouped by the shape of their trees.
        driven: Which agents (rows) a physics engine moves and collides, or None.
    """
    arrays = frame.arrays
    native = frame.native
    looking = []
    for batch in batches:
        if native is None or not native.steer(frame, batch):  # natively: the turns too
            batch_frame = BatchFrame(frame, batch.slots, batch.index)
            put_rows(arrays.force, batch.index, evaluate(batch_frame, batch.root))
            if batch.turns:
                turn = evaluate_turn(batch_frame, batch.root)
                arrays.angular[batch.index] = 0.0 if turn is None else turn
        if batch.turns:
            looking.append(batch.slots)
    if not looking:
        _integrate(frame, driven)
        return
    slots = looking[0] if len(looking) == 1 else np.concatenate(looking)
    steered = arrays.look.take(slots, axis=0)  # integrate turns the others' to the heading
    if _integrate(frame, driven) and native is not None:  # natively: the looks too
        native.turn_looks(frame, slots, steered)
        return
    put_rows(arrays.look, slots, steered)
    turn_looks(arrays, slots, frame.dt)


def _integrate(frame: StepFrame, driven: np.ndarray | None) -> bool:
    """:func:`integrate`, natively where the frame's native step can: whether it did."""
    if frame.native is not None and frame.native.integrate(frame, driven):
        return True
    integrate(frame.arrays, frame.agents.plan, frame.dt, frame.geometry, driven)
    return False


def rehearse(frame: StepFrame) -> None:
    """One :func:`step` of every agent, then every agent, its components' state and the random
    generator put back as they were: what a world's first update builds on its way (batches,
    parameters, the walls' and obstacles' grids) is built, and the step's code has run."""
    undo = Undo(frame.arrays, frame.rng)
    try:
        step(frame, frame.agents.batches(), None)
    finally:
        undo.put_back()


def forces_now(frame: StepFrame, alone: bool) -> np.ndarray:
    """Every agent's force ``(n, 2)`` in row order, as :func:`step` finds them, moving nothing:
    the per-agent state and the random generator are put back after.

    Args:
        frame: The (sub)step.
        alone: Evaluate each agent as a batch of its own.
    """
    table = frame.agents
    arrays = table.arrays
    states = arrays.state.snapshot()
    generator = frame.rng.bit_generator.state
    forces = np.zeros((len(table), 2))
    try:
        batches = table.batches()
        if alone:
            behavior = arrays.behavior
            batches = [Batch(np.array([slot]), [behavior[slot]]) for slot in table.order]
        for batch in batches:
            force = evaluate(BatchFrame(frame, batch.slots), batch.root)
            forces[table.row_of_slot[batch.slots]] = force
    finally:
        arrays.state.restore(states)
        frame.rng.bit_generator.state = generator
    return forces


def integrate(
    arrays: AgentArrays,
    plan: RowPlan,
    dt: float,
    geometry: StaticGeometry,
    driven: np.ndarray | None,
) -> None:
    """Truncate the forces, accelerate, move, keep solid agents out of walls, turn headings.

    Args:
        arrays: The agents' columns; ``force`` holds this step's forces.
        plan: The attached agents' rows.
        dt: The step, seconds.
        geometry: The walls and obstacles solid agents are kept out of.
        driven: Which of the rows a physics engine collides itself (not kept out here).
    """
    rows, index = plan.rows, plan.index
    # take() rather than [rows]: numpy's fancy indexing of (n, 2) rows is ~10x slower.
    force = truncate(arrays.force.take(rows, axis=0), arrays.max_force[rows])
    put_rows(arrays.force, index, force)
    start = arrays.position.take(rows, axis=0)
    velocity = arrays.velocity.take(rows, axis=0) + scale_rows(force, dt / arrays.mass[rows])
    velocity = truncate(velocity, arrays.max_speed[rows])
    position = start + velocity * dt
    solid, all_solid = plan.solid, plan.all_solid
    if driven is not None:  # the engine collides its bodies itself
        solid = solid & ~driven
        all_solid = every(solid)
    if len(geometry) and all_solid:  # the usual case: no masked (n, 2) copies
        position, velocity = keep_out(geometry, start, position, velocity, arrays.radius[rows])
    elif len(geometry) and some(solid):
        position[solid], velocity[solid] = keep_out(
            geometry,
            start[solid],
            position[solid],
            velocity[solid],
            arrays.radius[rows[solid]],
        )
    put_rows(arrays.position, index, position)
    put_rows(arrays.velocity, index, velocity)
    speed = lengths(velocity)
    turning = speed > HEADING_MIN_SPEED
    if every(turning):  # the usual case: no masked (n, 2) copies
        heading, moving = divide_rows(velocity, speed), index
    else:
        heading, moving = divide_rows(velocity[turning], speed[turning]), rows[turning]
    put_rows(arrays.heading, moving, heading)
    put_rows(arrays.look, moving, heading)  # turn_looks then turns the steered ones


def turn_looks(arrays: AgentArrays, slots: np.ndarray, dt: float) -> None:
    """Turn the look directions of ``slots`` by the angular accelerations steering asked
    for, within each agent's ``max_angular_acceleration`` and ``max_turn_rate``.

    Args:
        arrays: The agents' columns; ``angular`` holds this step's accelerations.
        slots: The agents whose trees turn where they look ``(k,)``.
        dt: The step, seconds.
    """
    limit = arrays.max_angular_acceleration[slots]
    rate = arrays.max_turn_rate[slots]
    alpha = np.clip(arrays.angular[slots], -limit, limit)
    omega = np.clip(arrays.angular_velocity[slots] + alpha * dt, -rate, rate)
    arrays.angular_velocity[slots] = omega
    turned = as_complex(arrays.look.take(slots, axis=0)) * np.exp(1j * np.radians(omega * dt))
    put_rows(arrays.look, slots, as_points(turned / np.abs(turned)))


class Undo:
    """What the steps of an update write, copied before they run, to put back if one fails.

    Args:
        arrays: The agents' columns.
        rng: The world's random generator.
    """

    def __init__(self, arrays: AgentArrays, rng: np.random.Generator) -> None:
        self._arrays, self._rng = arrays, rng
        self._columns = [(name, getattr(arrays, name).copy()) for name in _STEPPED]
        self._states = arrays.state.snapshot()
        self._generator = rng.bit_generator.state

    def put_back(self) -> None:
        """Every column, per-agent state and the generator as they were."""
        for name, values in self._columns:
            getattr(self._arrays, name)[...] = values
        self._arrays.state.restore(self._states)
        self._rng.bit_generator.state = self._generator
