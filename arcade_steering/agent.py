"""SteeringAgent: a view on one agent's row in a SteeringWorld."""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

from ._core.attach import optional_limit
from ._core.guard import NotCopyable
from ._core.motion import read_position
from ._util.validate import check_limit, check_non_negative, check_point, check_positive
from .component.base import check_component

if TYPE_CHECKING:
    from ._core.agents import AgentTable
    from ._core.arrays import AgentArrays
    from .component.base import SteeringComponent


class SteeringAgent(NotCopyable):
    """One attached sprite's steering state, read from (and written to) the world's arrays.

    Get it from :meth:`SteeringWorld.attach` or :meth:`SteeringWorld.agent_of`. After
    :meth:`SteeringWorld.detach` the view is dead and every access raises ``RuntimeError``.
    The agent holds its sprite: while a game keeps either, the sprite stays attached.
    """

    __slots__ = ("__weakref__", "_generation", "_slot", "_sprite", "_table")

    def __init__(self, table: AgentTable, slot: int, sprite: Any) -> None:
        self._table = table
        self._slot = slot
        self._generation = int(table.arrays.generation[slot])
        # The world holds sprites weakly; a game holding an agent keeps its sprite attached.
        self._sprite = sprite

    def _live(self) -> AgentArrays:
        """The world's columns, if this agent is still attached."""
        arrays = self._table.arrays
        if arrays.generation[self._slot] != self._generation:
            raise RuntimeError("this agent has been detached from its world")
        return arrays

    @property
    def attached(self) -> bool:
        """Whether the agent is still attached to its world."""
        return bool(self._table.arrays.generation[self._slot] == self._generation)

    @property
    def sprite(self) -> Any:
        """The sprite this agent moves."""
        self._live()
        return self._sprite

    @property
    def position(self) -> tuple[float, float]:
        """Position ``(x, y)`` in px: the sprite's own, which is the truth between updates."""
        return read_position(self.sprite)

    @property
    def velocity(self) -> tuple[float, float]:
        """Velocity ``(vx, vy)`` in px/s. Settable (e.g. a knock-back)."""
        vx, vy = self._live().velocity[self._slot]
        return float(vx), float(vy)

    @velocity.setter
    def velocity(self, value: tuple[float, float]) -> None:
        self._live().velocity[self._slot] = check_point("velocity", value)

    @property
    def speed(self) -> float:
        """Speed in px/s."""
        vx, vy = self.velocity
        return float((vx * vx + vy * vy) ** 0.5)

    @property
    def heading(self) -> tuple[float, float]:
        """Unit direction of travel ``(hx, hy)``; kept while the agent stands still."""
        hx, hy = self._live().heading[self._slot]
        return float(hx), float(hy)

    @property
    def look(self) -> tuple[float, float]:
        """Unit direction the agent looks ``(lx, ly)``, which its sprite faces: the heading,
        unless a component turns it (Face, Scan). Settable; a component turns it from there."""
        lx, ly = self._live().look[self._slot]
        return float(lx), float(ly)

    @look.setter
    def look(self, value: tuple[float, float]) -> None:
        x, y = check_point("look", value)
        length = math.hypot(x, y)
        if length == 0.0:
            raise ValueError("look must not be (0, 0)")
        self._live().look[self._slot] = (x / length, y / length)

    @property
    def angular_velocity(self) -> float:
        """How fast the look turns, degrees per second counter-clockwise."""
        return float(self._live().angular_velocity[self._slot])

    @property
    def max_turn_rate(self) -> float | None:
        """Turn-rate limit of the look, degrees per second; None for none."""
        return _limit_or_none(self._live().max_turn_rate[self._slot])

    @max_turn_rate.setter
    def max_turn_rate(self, value: float | None) -> None:
        self._live().max_turn_rate[self._slot] = optional_limit("max_turn_rate", value)

    @property
    def max_angular_acceleration(self) -> float | None:
        """Limit of the change of turn rate, degrees per s²; None for none."""
        return _limit_or_none(self._live().max_angular_acceleration[self._slot])

    @max_angular_acceleration.setter
    def max_angular_acceleration(self, value: float | None) -> None:
        limit = optional_limit("max_angular_acceleration", value)
        self._live().max_angular_acceleration[self._slot] = limit

    @property
    def force(self) -> tuple[float, float]:
        """The steering force applied in the last (sub)step, after truncation to max_force."""
        fx, fy = self._live().force[self._slot]
        return float(fx), float(fy)

    @property
    def behavior(self) -> SteeringComponent:
        """The root of the behaviour tree. Settable at run time; per-agent state restarts."""
        return self._live().behavior[self._slot]

    @behavior.setter
    def behavior(self, value: SteeringComponent) -> None:
        self._live()
        self._table.set_behavior(self._slot, check_component("behavior", value))

    @property
    def max_speed(self) -> float:
        """Speed limit, px/s (> 0)."""
        return float(self._live().max_speed[self._slot])

    @max_speed.setter
    def max_speed(self, value: float) -> None:
        self._live().max_speed[self._slot] = check_limit("max_speed", value)

    @property
    def max_force(self) -> float:
        """Force limit, px/s² times mass (> 0)."""
        return float(self._live().max_force[self._slot])

    @max_force.setter
    def max_force(self, value: float) -> None:
        self._live().max_force[self._slot] = check_limit("max_force", value)

    @property
    def mass(self) -> float:
        """Mass (> 0): the force is divided by it."""
        return float(self._live().mass[self._slot])

    @mass.setter
    def mass(self, value: float) -> None:
        self._live().mass[self._slot] = check_positive("mass", value)

    @property
    def radius(self) -> float:
        """Radius of the agent's circle, px (>= 0)."""
        return float(self._live().radius[self._slot])

    @radius.setter
    def radius(self, value: float) -> None:
        self._live().radius[self._slot] = check_non_negative("radius", value)

    @property
    def response_time(self) -> float:
        """Seconds in which the agent wants to correct its velocity (> 0)."""
        return float(self._live().response_time[self._slot])

    @response_time.setter
    def response_time(self, value: float) -> None:
        self._live().response_time[self._slot] = check_positive("response_time", value)

    def __repr__(self) -> str:
        if not self.attached:
            return "SteeringAgent(detached)"
        x, y = self.position
        vx, vy = self.velocity
        return f"SteeringAgent(position=({x:.1f}, {y:.1f}), velocity=({vx:.1f}, {vy:.1f}))"


def _limit_or_none(value: float) -> float | None:
    return None if math.isinf(value) else float(value)


def agent_view(table: AgentTable, slot: int, sprite: Any = None) -> SteeringAgent:
    """The agent view of ``slot``: the one the game holds, or a new one (kept weakly)."""
    arrays = table.arrays
    agent = None if arrays.agent[slot] is None else arrays.agent[slot]()
    if agent is None:
        sprite = arrays.sprite[slot]() if sprite is None else sprite
        agent = SteeringAgent(table, slot, sprite)
        arrays.agent[slot] = weakref.ref(agent)
    return agent
