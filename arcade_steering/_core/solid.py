"""Solid agents: keep each agent's circle out of walls and obstacles after it moves.

The world calls :func:`keep_out` after every (sub)step for the agents attached with
``solid=True``. It is a hard constraint behind the steering, like the position step of a
rigid-body solver, and every move it makes, the agent's own or a push out of a shape, is
swept, so no speed, step or pile of constraints carries a centre across a wall:

- A circle that starts clear of every shape (the usual case) is swept along its motion: at
  the first contact it stops a hair before the surface and slides on along it, up to
  :data:`SWEEPS` times; two surfaces meeting in a corner stop it. It ends clear, and never
  passes a gap narrower than its diameter.
- A circle that starts overlapping a shape (one appeared or grew over it, or the game put it
  there) is dug out by :func:`~.dig_out.dig_out`: guarded moves that never cross a wall's
  core line, so it stays on its side of every wall, overlapping where no clear place is near.

Vectors are complex numbers ``x + iy`` (see :mod:`~.contacts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..geometry._kernels import first_min
from .contacts import SKIN, Pairs, as_complex, as_points, without_inward
from .dig_out import dig_out

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

#: Sweep-and-slide rounds per step: one for a wall, two for a corner, more are rare.
SWEEPS = 4


def keep_out(
    geometry: StaticGeometry,
    start: np.ndarray,
    end: np.ndarray,
    velocity: np.ndarray,
    radius: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Move circles from ``start`` towards ``end`` without entering walls or obstacles.

    A circle clear of every shape at ``start`` is swept and slides along what it meets (see
    the module's text); one overlapping shapes is dug out by guarded pushes. Velocities lose
    their part into every surface met.

    Args:
        geometry: The walls and obstacles.
        start: Positions before the move, ``(n, 2)`` px: where the circles are, which side of
            each wall they are on.
        end: Positions the integrator moved them to, ``(n, 2)`` px.
        velocity: Velocities after the move, ``(n, 2)`` px/s.
        radius: The circles' radii, ``(n,)`` px, >= 0.

    Returns:
        ``(position, velocity)``: new arrays ``(n, 2)``, finite for finite input.
    """
    position = np.array(end, dtype=float)
    velocity = np.array(velocity, dtype=float)
    radius = np.asarray(radius, dtype=float)
    if len(position) == 0 or len(geometry) == 0:
        return position, velocity
    # Complex views on the arrays returned: writing to them writes the result.
    source, place, speed = as_complex(start), as_complex(position), as_complex(velocity)
    # A slide never gets farther from its start than its motion is long: one broad phase
    # finds every shape any sweep of this step can meet.
    motion = np.abs(place - source)
    rows, shapes = geometry.pairs(source.real, source.imag, motion + radius)
    if len(rows) == 0:
        return position, velocity
    # The overlaps now drop the shapes a motion cannot reach (most candidates) before the
    # costlier sweeps, and find the circles inside a shape or on its surface: dug out instead.
    depth, _ = geometry.overlaps(as_points(source), radius, rows, shapes)
    near = (depth >= -(motion[rows] + SKIN)).nonzero()[0]
    if len(near) == 0:
        return position, velocity
    rows, shapes, depth = rows[near], shapes[near], depth[near]
    circles, _, shallowest = first_min(rows, -depth)
    inside = shallowest <= 0.0
    buried = circles[inside]
    if len(buried):
        clear = np.ones(len(position), dtype=bool)
        clear[buried] = False
        keep = clear[rows].nonzero()[0]
        rows, shapes = rows[keep], shapes[keep]
    if len(rows):
        _sweep(geometry, Pairs(rows, shapes, len(position)), source, place, speed, radius)
    if len(buried):
        dig_out(geometry, source, place, speed, radius, buried, -shallowest[inside])
    return position, velocity


def _sweep(
    geometry: StaticGeometry,
    pairs: Pairs,
    source: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
    radius: np.ndarray,
) -> None:
    """Sweep and slide the circles near shapes from ``source`` to ``place``, in place.

    Args:
        geometry: The walls and obstacles.
        pairs: The step's candidates, covering every slide; the circles with one are swept.
        source: Every circle's start, complex ``(n,)``.
        place: Every circle's position, complex ``(n,)``: the targets in, the results out.
        speed: Every circle's velocity, complex ``(n,)``.
        radius: Every circle's radius ``(n,)``.
    """
    rows = pairs.circles()
    start, target = source[rows], place[rows]
    before = np.zeros(len(rows), dtype=complex)  # the normal each row last met
    for _ in range(SWEEPS):
        local, shapes = pairs.of(rows)
        hits = geometry.cast_pairs(as_points(start), as_points(target), radius[rows], local, shapes)
        at = hits.hit.nonzero()[0]
        place[rows] = target  # where the free ones end; the others are set below
        if len(at) == 0:
            return
        rows = rows[at]
        normal = as_complex(hits.normal)[at]
        contact = as_complex(hits.point)[at] + SKIN * normal
        before = before[at]
        speed[rows] = _slide(speed[rows], normal, before)
        rest = _slide(target[at] - contact, normal, before)
        place[rows] = contact
        # Motion all into the surfaces (head-on, a corner) is done; the rest slides on.
        going = np.abs(rest) > SKIN
        rows, start, target = rows[going], contact[going], contact[going] + rest[going]
        before = normal[going]
        if len(rows) == 0:
            return
    # Still blocked after every sweep: they stay at their last contact.


def _slide(vectors: np.ndarray, normal: np.ndarray, before: np.ndarray) -> np.ndarray:
    """``vectors`` along the surface of ``normal`` (their part into it removed), or zero
    where that still goes into the surface met just ``before`` (complex ``(k,)``, 0 for
    none): in 2-D, two surfaces meeting at a corner leave no way on, and projecting onto
    each in turn would only zig-zag into the corner."""
    along = without_inward(vectors, normal)
    into_before = (along * before.conj()).real < -1e-12 * np.abs(along)
    along[into_before] = 0.0
    return along
