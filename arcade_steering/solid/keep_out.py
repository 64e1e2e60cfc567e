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

The two parts run side by side, each round's casts of both made in one pass of the ray
kernel (see :mod:`~.casts`). Vectors are complex numbers ``x + iy`` (see :mod:`~.contacts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._util.masks import some
from .._util.vec import as_complex
from ..geometry._frames import (
    FramedPairs,
    LocalFrames,
    contact_casts,
    core_offsets,
    frame_pairs,
    nearest_contacts,
)
from ..geometry._kernels import first_min
from .casts import Caster, cast_together
from .contacts import SKIN, slide
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
    move = place - source
    motion = np.abs(move)
    rows, shapes = geometry.pairs(source.real, source.imag, motion + radius)
    if len(rows) == 0:
        return position, velocity
    # Each pair in its shape's frame once: how deep the circle is, and the first sweep's start.
    frames = geometry.local_frames
    pairs, size = frame_pairs(frames, rows, shapes, radius)
    local = pairs.local(source)
    depth = size - np.abs(core_offsets(local, pairs.length))
    depth += radius[rows]
    # Most candidates lie beyond the motion's reach: dropped before the costlier sweeps.
    near = depth >= -(motion[rows] + SKIN)
    over = depth >= 0.0
    buried = None
    if some(over):  # inside a shape or on its surface: dug out instead
        inside = over.nonzero()[0]
        buried, _, shallowest = first_min(rows[inside], -depth[inside])
        clear = np.ones(len(position), dtype=bool)
        clear[buried] = False
        near &= clear[rows]
    keep = near.nonzero()[0]
    parts = []  # their rounds cast together: one kernel pass each (see .casts)
    if len(keep):
        parts.append(_sweep(frames, pairs.take(keep), local[keep], source, move, place, speed))
    if buried is not None:
        parts.append(dig_out(geometry, source, place, speed, radius, buried, -shallowest))
    cast_together(parts)
    return position, velocity


def _sweep(
    frames: LocalFrames,
    pairs: FramedPairs,
    local: np.ndarray | None,
    source: np.ndarray,
    move: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
) -> Caster[None]:
    """Sweep and slide the circles of ``pairs`` by ``move`` from ``source``, in place: a
    :data:`~.casts.Caster`, yielding each round's casts.

    A slide leaves the surface it slides on: the shape met is convex and the slide starts
    :data:`SKIN` off it, going along or away from it, so each round after the first sweeps
    against the other shapes only; a circle with none near ends its slide uncast.

    Args:
        frames: The walls and obstacles.
        pairs: The step's candidates, covering every slide; each circle with one is swept.
        local: ``pairs.local(source)``.
        source: Every circle's start, complex ``(n,)``.
        move: Every circle's motion, complex ``(n,)``: ``place - source``.
        place: Every circle's position, complex ``(n,)``: the targets in, the results out.
        speed: Every circle's velocity, complex ``(n,)``.
    """
    start, before = source, None  # before: the normal each circle last met, from a slide on
    met = np.full(len(place), -1, dtype=np.intp)  # the shape each going circle just met
    prior = None  # the first sweep's circles met none
    for sweep in range(SWEEPS):
        if local is None:
            local = pairs.local(start)
        key = yield contact_casts(pairs, local, move)
        circles, _, contact, normal, pair = nearest_contacts(frames, pairs, start, move, key)
        if len(circles) == 0:
            return  # the free ones end at their targets: place holds them
        contact += SKIN * normal
        if before is not None:
            prior = before[circles]
        # The velocities and the rest of the motions (place holds the targets of the circles
        # in play until their contacts move them) slide together: one call for both.
        both = np.empty((2, len(circles)), dtype=complex)
        both[0] = speed[circles]
        np.subtract(place[circles], contact, out=both[1])
        speed[circles], rest = slide(both, normal, prior)
        place[circles] = contact
        if sweep == SWEEPS - 1:
            return  # still blocked after every sweep: they stay at their last contact
        # Motion all into the surfaces (head-on, a corner) is done; the rest slides on.
        going = (np.abs(rest) > SKIN).nonzero()[0]
        if len(going) == 0:
            return
        circles, contact = circles[going], contact[going]
        end = contact + rest[going]
        place[circles] = end  # where they end unless they meet another shape
        # The next sweep's pairs: the going circles' others than the shape just met.
        met[circles] = pairs.shapes[pair[going]]
        mine = met[pairs.rows]
        met[circles] = -1
        others = ((mine >= 0) & (mine != pairs.shapes)).nonzero()[0]
        if len(others) == 0:
            return
        if before is None:
            start, before = source.copy(), np.zeros(len(place), dtype=complex)
        start[circles] = contact
        before[circles] = normal[going]
        move = place - start
        pairs, local = pairs.take(others), None
