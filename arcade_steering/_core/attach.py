"""Attaching a sprite: checking the options, then filling its slot's columns."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .._arcade.angles import FACINGS
from .._arcade.sprite_sync import fast_setters
from .._util.validate import (
    check_bool,
    check_limit,
    check_non_negative,
    check_point,
    check_position,
    check_positive,
    check_real,
)
from .arrays import HEADING_MIN_SPEED, AgentArrays

__all__ = ["AttachOptions", "optional_limit"]


@dataclass(frozen=True)
class AttachOptions:
    """The checked options of one ``attach`` call (see :meth:`SteeringWorld.attach`)."""

    max_speed: float
    max_force: float
    mass: float
    response_time: float
    radius: float
    velocity: tuple[float, float]
    facing: float
    rotate: bool
    solid: bool
    position: tuple[float, float]
    angle: float
    max_turn_rate: float
    max_angular_acceleration: float

    @classmethod
    def check(
        cls,
        sprite: Any,
        *,
        max_speed: Any,
        max_force: Any,
        mass: Any,
        response_time: Any,
        radius: Any,
        velocity: Any,
        facing: Any,
        rotate: Any,
        solid: Any,
        max_turn_rate: Any = None,
        max_angular_acceleration: Any = None,
    ) -> AttachOptions:
        """Check every option (and the sprite's position and angle) before anything changes.

        Raises:
            TypeError: An option has the wrong type.
            ValueError: An option is out of range.
        """
        max_speed = check_limit("max_speed", max_speed)
        vx, vy = check_point("velocity", velocity)
        speed = math.hypot(vx, vy)
        if speed > max_speed:  # the limit holds from the start, not from the first step
            scale = max_speed / speed
            vx, vy = vx * scale, vy * scale
        return cls(
            max_speed=max_speed,
            max_force=check_limit("max_force", max_force),
            mass=check_positive("mass", mass),
            response_time=check_positive("response_time", response_time),
            radius=_default_radius(sprite)
            if radius is None
            else check_non_negative("radius", radius),
            velocity=(vx, vy),
            facing=_check_facing(facing),
            rotate=check_bool("rotate", rotate),
            solid=check_bool("solid", solid),
            position=check_position("sprite", sprite),
            angle=check_real("sprite.angle", getattr(sprite, "angle", 0.0)),
            max_turn_rate=optional_limit("max_turn_rate", max_turn_rate),
            max_angular_acceleration=optional_limit(
                "max_angular_acceleration", max_angular_acceleration
            ),
        )

    def fill(self, arrays: AgentArrays, slot: int, sprite: Any) -> None:
        """Write these options into ``slot``'s columns; the heading faces the velocity, or the
        way the sprite is turned when standing still."""
        arrays.max_speed[slot] = self.max_speed
        arrays.max_force[slot] = self.max_force
        arrays.mass[slot] = self.mass
        arrays.response_time[slot] = self.response_time
        arrays.radius[slot] = self.radius
        arrays.velocity[slot] = self.velocity
        arrays.facing[slot] = self.facing
        arrays.rotate[slot] = self.rotate
        arrays.solid[slot] = self.solid
        arrays.position[slot] = self.position
        arrays.angle[slot] = self.angle
        heading = math.radians(self.facing - self.angle)
        arrays.heading[slot] = (math.cos(heading), math.sin(heading))
        speed = math.hypot(*self.velocity)
        if speed > HEADING_MIN_SPEED:
            arrays.heading[slot] = (self.velocity[0] / speed, self.velocity[1] / speed)
        arrays.look[slot] = arrays.heading[slot]
        arrays.max_turn_rate[slot] = self.max_turn_rate
        arrays.max_angular_acceleration[slot] = self.max_angular_acceleration
        arrays.fast_position[slot], arrays.fast_angle[slot] = fast_setters(sprite)


def optional_limit(name: str, value: Any) -> float:
    """A limit > 0 (capped like the others), or None for none (``inf``)."""
    return math.inf if value is None else check_limit(name, value)


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
