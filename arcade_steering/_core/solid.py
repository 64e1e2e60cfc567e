"""Solid agents: keep each agent's circle out of walls and obstacles after it moves.

The world calls :func:`keep_out` after every (sub)step for the agents attached with
``solid=True``. It is a hard constraint behind the steering, like the position step of a
rigid-body solver: motions are swept, so no speed or step tunnels through a wall, and an
agent that meets a surface slides along it instead of stopping dead.

Internally 2-D vectors are complex numbers ``x + iy``: one numpy call per vector operation,
since at these sizes the count of calls, not the rows, sets the cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..geometry._kernels import first_min

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

#: Sweep-and-slide rounds per step: one for a wall, two for a corner, more are rare.
SWEEPS = 4
#: Gap (px) left between an agent's circle and a surface it stopped at, so the next sweep
#: starts outside rather than exactly on it.
SKIN = 1e-3


def keep_out(
    geometry: StaticGeometry,
    start: np.ndarray,
    end: np.ndarray,
    velocity: np.ndarray,
    radius: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Move circles from ``start`` towards ``end`` without entering walls or obstacles.

    A circle moving at least its radius is swept along its motion: at the first contact it
    stops a hair before the surface, the rest of its motion loses its part into the surface
    and carries on along it (swept again), up to :data:`SWEEPS` times; two surfaces meeting
    in a corner stop it. Then every circle overlapping shapes is pushed out along the
    surface gradient, whatever the depth; one pinched between two (a corner) is moved to
    where it clears both. For a circle moving less than its radius from outside every
    shape, that push-out is the sweep and slide: its centre cannot have crossed a surface,
    so pushing it back out along the normal keeps exactly its motion along the surface, in
    one batched query. Velocities lose their part into every surface met.

    Args:
        geometry: The walls and obstacles.
        start: Positions before the move, ``(n, 2)`` px, outside every shape (else they
            are pushed out).
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
    start = np.asarray(start, dtype=float)
    # Complex views on the arrays returned: writing to them writes the result.
    source, place, speed = _complex(start), _complex(position), _complex(velocity)
    far = (np.abs(place - source) >= radius).nonzero()[0]
    if len(far):
        _sweep(geometry, source[far], place, speed, radius, far)
    _push_out(geometry, place, speed, radius)
    return position, velocity


def _sweep(
    geometry: StaticGeometry,
    source: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
    radius: np.ndarray,
    rows: np.ndarray,
) -> None:
    """Sweep and slide circles ``rows`` from ``source`` to ``place[rows]``, in place.

    Args:
        geometry: The walls and obstacles.
        source: Start of each row's motion, complex ``(k,)``.
        place: Every circle's position, complex ``(n,)``: the targets in, the results out.
        speed: Every circle's velocity, complex ``(n,)``.
        radius: Every circle's radius ``(n,)``.
        rows: The circles to sweep ``(k,)``, ascending.
    """
    target = place[rows]
    before = np.zeros(len(rows), dtype=complex)  # the normal each row last met
    for _ in range(SWEEPS):
        hits = geometry.cast(_points(source), _points(target), radius[rows])
        at = hits.hit.nonzero()[0]
        place[rows] = target  # where the free ones end; the others are set below
        if len(at) == 0:
            return
        rows = rows[at]
        normal = _complex(hits.normal)[at]
        contact = _complex(hits.point)[at] + SKIN * normal
        before = before[at]
        speed[rows] = _slide(speed[rows], normal, before)
        rest = _slide(target[at] - contact, normal, before)
        place[rows] = contact
        # Motion all into the surfaces (head-on, a corner) is done; the rest slides on.
        going = np.abs(rest) > SKIN
        rows, source, target = rows[going], contact[going], contact[going] + rest[going]
        before = normal[going]
        if len(rows) == 0:
            return
    # Still blocked after every sweep: they stay at their last contact.


def _push_out(
    geometry: StaticGeometry, place: np.ndarray, speed: np.ndarray, radius: np.ndarray
) -> None:
    """Push every circle out of the shapes it overlaps, in place (complex arrays).

    One pass: the deepest overlap sets the push; a circle pinched between two shapes (a
    corner) moves to where it clears both, or as far as it can when they face each other.
    Velocities lose their part into those surfaces.
    """
    rows, shapes = geometry.pairs(place.real, place.imag, radius)
    if len(rows) == 0:
        return
    depth, normal = geometry.overlaps(_points(place), radius, rows, shapes)
    over = (depth > 0.0).nonzero()[0]
    if len(over) == 0:
        return
    rows, depth, normal = rows[over], depth[over] + SKIN, _complex(normal)[over]
    circles, first, _ = first_min(rows, -depth)
    out = normal[first]
    move = out * depth[first]
    pinched = len(circles) < len(rows)
    if pinched:  # a corner: the second deepest shape of those circles
        rest = np.ones(len(rows), dtype=bool)
        rest[first] = False
        rest = rest.nonzero()[0]
        twice, second, _ = first_min(rows[rest], -depth[rest])
        second = rest[second]
        at = np.searchsorted(circles, twice)
        move[at] = _clear_both(out[at], depth[first[at]], normal[second], depth[second])
    place[circles] += move
    speed[circles] = _without_inward(speed[circles], out)
    if pinched:
        speed[twice] = _slide(speed[twice], normal[second], out[at])


def _clear_both(
    first: np.ndarray, depth: np.ndarray, second: np.ndarray, other: np.ndarray
) -> np.ndarray:
    """The shortest moves (complex ``(k,)``) out of two overlaps at once.

    Moving ``depth`` along the outward normal ``first`` may already clear the second
    surface (normal ``second``, ``other`` deep), or the reverse; else the move to where
    both are just cleared. Surfaces facing each other (a gap narrower than the circle)
    leave only the deeper push.
    """
    move = first * depth
    clears = (move * second.conj()).real >= other
    alone = second * other
    np.copyto(move, alone, where=~clears & ((alone * first.conj()).real >= depth))
    stuck = ~clears & ((alone * first.conj()).real < depth)
    if stuck.any():
        a, b, d1, d2 = first[stuck], second[stuck], depth[stuck], other[stuck]
        det = (a.conj() * b).imag
        vertex = ((d1 * b.imag - d2 * a.imag) + 1j * (a.real * d2 - b.real * d1)) / np.where(
            np.abs(det) > 0.05, det, 1.0
        )
        move[stuck] = np.where(np.abs(det) > 0.05, vertex, move[stuck])
    return move


def _slide(vectors: np.ndarray, normal: np.ndarray, before: np.ndarray) -> np.ndarray:
    """``vectors`` along the surface of ``normal`` (their part into it removed), or zero
    where that still goes into the surface met just ``before`` (complex ``(k,)``, 0 for
    none): in 2-D, two surfaces meeting at a corner leave no way on, and projecting onto
    each in turn would only zig-zag into the corner."""
    along = _without_inward(vectors, normal)
    into_before = (along * before.conj()).real < -1e-12 * np.abs(along)
    along[into_before] = 0.0
    return along


def _without_inward(vectors: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """``vectors`` without their part against the outward unit ``normal`` (complex ``(k,)``)."""
    into = (vectors * normal.conj()).real
    np.minimum(into, 0.0, out=into)
    return vectors - normal * into


def _complex(points: np.ndarray) -> np.ndarray:
    """``(n, 2)`` float64 points as complex ``(n,)``: a view when C-contiguous."""
    return np.ascontiguousarray(points, dtype=float).view(np.complex128)[:, 0]


def _points(values: np.ndarray) -> np.ndarray:
    """Complex ``(n,)`` as ``(n, 2)`` float points (a view)."""
    return np.ascontiguousarray(values).view(np.float64).reshape(-1, 2)
