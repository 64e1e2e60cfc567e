"""Perception: which observers see which targets, in a view cone and past walls.

An observer sees a point when the point lies within ``length`` px of it, within
``half_angle`` of the way it faces (:func:`facing`: its heading, the direction of travel), and
no wall (optionally, no obstacle) stands on the line between them. The cone is tested first,
for every pair; only the pairs inside it cast a ray, over the static geometry's
:meth:`~arcade_steering.geometry.StaticGeometry.blocked`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._util.validate import check_array, check_bool, check_point, check_position, check_real
from .._util.vec import as_complex, lengths
from ..geometry import StaticGeometry
from ..geometry._capsules import Kinds
from .agents import AgentTable
from .arrays import AgentArrays

__all__ = ["can_see", "facing", "hidden", "in_sight", "in_view", "occlude"]


def in_sight(
    offset: np.ndarray,
    heading: np.ndarray,
    length: np.ndarray | float,
    half_angle: np.ndarray | float,
) -> tuple[np.ndarray, np.ndarray]:
    """Which points an observer's view cone holds, and how deep inside it they are.

    Args:
        offset: Point minus observer ``(n, 2)``, px.
        heading: The observer's unit facing ``(n, 2)`` (zero: sees nothing).
        length: Reach of the view ``(n,)`` (or a scalar), px.
        half_angle: Half-angle of the view ``(n,)`` (or a scalar), radians in (0, pi].

    Returns:
        ``inside`` ``(n,)`` bool, and ``depth`` ``(n,)`` in [0, 1]: 0 on the cone's border
        and outside it, 1 on its axis at the apex. A point on the observer counts as inside,
        at depth 1.
    """
    # In the observer's frame (x along its facing): one complex product.
    facing = as_complex(heading)
    local = as_complex(offset) * facing.conj()
    distance = lengths(offset)
    # A point behind lies more than pi/2 off the axis (its arctan2 is at least pi/2): for
    # views less than 1.5 rad each side only the points within reach and ahead (or closer
    # than 1e-150 px, whose lengths may round to 0: on the observer) can be inside, and the
    # angles are found for those alone.
    inside = (distance <= length) & ((local.real > -1e-150) | (half_angle > 1.5))
    depth = np.zeros(len(inside))
    rows = inside.nonzero()[0]
    if not len(rows):
        return inside, depth
    local, distance = local.take(rows), distance.take(rows)
    length, half_angle = _take(length, rows), _take(half_angle, rows)
    angle = np.arctan2(np.abs(local.imag), local.real)
    on_observer = distance == 0.0
    seen = (facing.take(rows) != 0.0) & ((angle <= half_angle) | on_observer)
    inside[rows] = seen
    near = np.minimum(1.0 - angle / half_angle, 1.0 - distance / np.maximum(length, 1e-9))
    near[on_observer] = 1.0
    depth[rows] = np.where(seen, np.clip(near, 0.0, 1.0), 0.0)
    return inside, depth


def _take(values: np.ndarray | float, rows: np.ndarray) -> np.ndarray | float:
    """``values[rows]`` of a per-point array; a scalar as it is."""
    return values.take(rows) if isinstance(values, np.ndarray) and values.ndim else values


def in_view(
    geometry: StaticGeometry,
    observer: np.ndarray,
    heading: np.ndarray,
    target: np.ndarray,
    length: float,
    half_angle: float,
    blockers: Kinds | None = "walls",
) -> np.ndarray:
    """Whether each observer sees its target: in its cone, with nothing in the way.

    Args:
        geometry: The walls and obstacles, synced.
        observer: Observer positions ``(n, 2)``, px.
        heading: Their unit facings ``(n, 2)``.
        target: One target per observer ``(n, 2)``, px.
        length: Reach of the view, px.
        half_angle: Half-angle of the view, radians in (0, pi].
        blockers: What hides a target: ``"walls"``, ``"obstacles"``, ``"all"`` or None.

    Returns:
        ``(n,)`` bool.
    """
    seen, _ = in_sight(target - observer, heading, length, half_angle)
    if blockers is not None:
        occlude(geometry, observer, target, seen, blockers)
    return seen


def occlude(
    geometry: StaticGeometry,
    observer: np.ndarray,
    target: np.ndarray,
    seen: np.ndarray,
    blockers: Kinds,
) -> None:
    """Clear ``seen`` ``(n,)`` in place where a shape stands between observer and target
    ``(n, 2)`` px; one ray per pair still seen.

    Args:
        blockers: ``"walls"``, ``"obstacles"`` or ``"all"``.
    """
    rows = seen.nonzero()[0]
    if len(rows):
        seen[rows[hidden(geometry, observer.take(rows, 0), target.take(rows, 0), blockers)]] = False


def hidden(
    geometry: StaticGeometry, observer: np.ndarray, target: np.ndarray, blockers: Kinds
) -> np.ndarray:
    """Whether a shape stands between each observer and its target ``(n, 2)`` px: ``(n,)``
    bool, False where either is not at a finite place (one ray per pair).

    Args:
        blockers: ``"walls"``, ``"obstacles"`` or ``"all"``.
    """
    result = np.zeros(len(target), dtype=bool)
    rows = np.flatnonzero(np.isfinite(observer).all(axis=1) & np.isfinite(target).all(axis=1))
    if len(rows):
        result[rows] = geometry.blocked(observer.take(rows, 0), target.take(rows, 0), blockers)
    return result


def facing(arrays: AgentArrays, slots: np.ndarray) -> np.ndarray:
    """The unit direction agents look in ``(k, 2)``: their heading (the direction of travel,
    kept while they stand still), unless a component turns where they look."""
    return arrays.look.take(slots, axis=0)


def can_see(
    table: AgentTable,
    geometry: StaticGeometry,
    observers: Any,
    targets: Any,
    length: Any,
    half_angle: Any,
    walls: Any,
    obstacles: Any,
) -> Any:
    """:meth:`SteeringWorld.can_see <arcade_steering.SteeringWorld.can_see>`: every
    observer against every target, checked."""
    reach = check_real("length", length)
    if reach < 0.0:
        raise ValueError(f"length must be >= 0, got {reach}")
    angle = check_real("half_angle", half_angle)
    if not 0.0 < angle <= 180.0:
        raise ValueError(f"half_angle must be in (0, 180], got {angle}")
    walls = check_bool("walls", walls)
    obstacles = check_bool("obstacles", obstacles)
    eyes, one_observer, sources = _places("observers", observers)
    seen_points, one_target, _ = _places("targets", targets)
    table.drop_collected()
    heading = np.tile((1.0, 0.0), (len(eyes), 1))  # all round, the way makes no difference
    if sources is not None:
        slots = table.slots_by_id(list(map(id, sources)))
        attached = (slots >= 0).nonzero()[0]
        heading[attached] = facing(table.arrays, slots[attached])
        if angle < 180.0 and len(attached) < len(slots):
            raise ValueError(_NO_FACING)
    elif angle < 180.0 and len(eyes):
        raise ValueError(_NO_FACING)
    m, k = len(eyes), len(seen_points)
    blockers: dict[tuple[bool, bool], Kinds] = {
        (True, True): "all",
        (True, False): "walls",
        (False, True): "obstacles",
    }
    seen = in_view(
        geometry,
        np.repeat(eyes, k, axis=0),
        np.repeat(heading, k, axis=0),
        np.tile(seen_points, (m, 1)),
        reach,
        math.radians(angle),
        blockers.get((walls, obstacles)),
    ).reshape(m, k)
    if one_observer and one_target:
        return bool(seen[0, 0])
    return seen[0] if one_observer else seen[:, 0] if one_target else seen


_NO_FACING = (
    "observers must be attached sprites or agents for a view narrower than 180 degrees: "
    "points and sprites the world does not steer face no known way"
)


def _places(name: str, value: Any) -> tuple[np.ndarray, bool, list[Any] | None]:
    """Positions ``(n, 2)`` of one or many sprites, agents or points; whether one was given
    (not in a sequence); and each one's sprite (an agent's own; None for a point), or None
    for an array of points."""
    if hasattr(value, "position"):
        return np.array([check_position(name, value)]), True, [_sprite_of(value)]
    if _is_flat(value):  # (x, y), or a mistyped point such as (x, y, z): not three places
        return np.array([check_point(name, value)]), True, None
    if isinstance(value, np.ndarray):
        points = check_array(name, value)
        if points.shape == (2,):
            return points.reshape(1, 2), True, None
        if points.ndim != 2 or points.shape[1] != 2:
            raise ValueError(f"{name} must be (x, y) points of shape (n, 2), got {points.shape}")
        return points, False, None
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a sprite, an agent, an (x, y) point or a sequence of them, "
            f"got {type(value).__name__}"
        )
    items = list(value)
    points = np.array(
        [
            check_position(f"{name}[{index}]", item)
            if hasattr(item, "position")
            else check_point(f"{name}[{index}]", item)
            for index, item in enumerate(items)
        ],
        dtype=float,
    ).reshape(-1, 2)
    return (
        points,
        False,
        [_sprite_of(item) if hasattr(item, "position") else None for item in items],
    )


def _is_flat(value: Any) -> bool:
    """Whether ``value`` is a tuple or list meant as one point (an ``(x, y)`` pair, or a point
    with a coordinate too many or too few), not a sequence of places."""
    return (
        isinstance(value, (tuple, list))
        and len(value) > 0
        and not any(
            (isinstance(item, (Sequence, np.ndarray)) and not isinstance(item, str))
            or hasattr(item, "position")
            for item in value
        )
    )


def _sprite_of(item: Any) -> Any:
    """The sprite an agent moves, or the item itself."""
    sprite = getattr(item, "sprite", None)
    return sprite if sprite is not None and hasattr(sprite, "position") else item
