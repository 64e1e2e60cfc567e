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
  there) is dug out: its motion, then pushes out of the overlaps, each a guarded move: it goes
  no deeper into a shape it overlaps, touches no other and never crosses a wall's core line.
  Up to :data:`PUSHES` pushes, until it is clear; where no clear place is near (an obstacle
  grown around it in a closed box), it stays on its side of every wall, overlapping.

Internally 2-D vectors are complex numbers ``x + iy``: one numpy call per vector operation,
since at these sizes the count of calls, not the rows, sets the cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..geometry import KIND_WALL, RayHits
from ..geometry._kernels import first_min

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

#: Sweep-and-slide rounds per step: one for a wall, two for a corner, more are rare.
SWEEPS = 4
#: Pushes out of overlaps per step for a circle that starts inside shapes: one for a shape,
#: two or three where several meet.
PUSHES = 4
#: Gap (px) left between an agent's circle and a surface it stopped at, so the next sweep
#: starts outside rather than exactly on it.
SKIN = 1e-3
#: A shape within this distance (px) of a circle touches it: a constraint on its pushes.
TOUCH = 2 * SKIN


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
    source, place, speed = _complex(start), _complex(position), _complex(velocity)
    # A slide never gets farther from its start than its motion is long: one broad phase
    # finds every shape any sweep of this step can meet.
    rows, shapes = geometry.pairs(source.real, source.imag, np.abs(place - source) + radius)
    if len(rows):
        pairs = _Pairs(rows, shapes, len(position))
        buried = _sweep(geometry, pairs, source, place, speed, radius)
        if len(buried):
            _dig_out(geometry, source, place, speed, radius, buried)
    return position, velocity


class _Pairs(NamedTuple):
    """Candidate (circle, shape) pairs of a step, ``rows`` ascending, for ``n`` circles."""

    rows: np.ndarray
    shapes: np.ndarray
    n: int

    def circles(self) -> np.ndarray:
        """The circles with a candidate, ascending."""
        head = np.empty(len(self.rows), dtype=bool)
        head[0] = True
        np.not_equal(self.rows[1:], self.rows[:-1], out=head[1:])
        return self.rows[head]

    def of(self, circles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The pairs of ``circles`` (ascending), rows renumbered as indices into it."""
        local = np.full(self.n, -1, dtype=np.intp)
        local[circles] = np.arange(len(circles))
        mapped = local.take(self.rows)
        keep = (mapped >= 0).nonzero()[0]
        return mapped.take(keep), self.shapes.take(keep)


def _sweep(
    geometry: StaticGeometry,
    pairs: _Pairs,
    source: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
    radius: np.ndarray,
) -> np.ndarray:
    """Sweep and slide the circles near shapes from ``source`` to ``place``, in place.

    Args:
        geometry: The walls and obstacles.
        pairs: The step's candidates, covering every slide.
        source: Every circle's start, complex ``(n,)``.
        place: Every circle's position, complex ``(n,)``: the targets in, the results out.
        speed: Every circle's velocity, complex ``(n,)``.
        radius: Every circle's radius ``(n,)``.

    Returns:
        The circles that start overlapping a shape (or on its surface), left for
        :func:`_dig_out`: their ``place`` is untouched.
    """
    rows = pairs.circles()
    start, target = source[rows], place[rows]
    before = np.zeros(len(rows), dtype=complex)  # the normal each row last met
    buried = rows[:0]
    for sweep in range(SWEEPS):
        local, shapes = pairs.of(rows)
        hits = geometry.cast_pairs(_points(start), _points(target), radius[rows], local, shapes)
        at = hits.hit.nonzero()[0]
        if sweep == 0 and len(at):
            at, inside = _starting_inside(geometry, start, radius[rows], local, shapes, hits, at)
            buried = rows[inside]
        place[rows] = target  # where the free ones end; the others are set below
        if len(at) == 0:
            return buried
        rows = rows[at]
        normal = _complex(hits.normal)[at]
        contact = _complex(hits.point)[at] + SKIN * normal
        before = before[at]
        speed[rows] = _slide(speed[rows], normal, before)
        rest = _slide(target[at] - contact, normal, before)
        place[rows] = contact
        # Motion all into the surfaces (head-on, a corner) is done; the rest slides on.
        going = np.abs(rest) > SKIN
        rows, start, target = rows[going], contact[going], contact[going] + rest[going]
        before = normal[going]
        if len(rows) == 0:
            return buried
    # Still blocked after every sweep: they stay at their last contact.
    return buried


def _starting_inside(
    geometry: StaticGeometry,
    start: np.ndarray,
    radius: np.ndarray,
    rows: np.ndarray,
    shapes: np.ndarray,
    hits: RayHits,
    at: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Split the rays hit (``at``) into those that start clear and those that start inside or
    on a surface (a hit at alpha 0 may be either): ``(clear, inside)``, indices of ``start``."""
    zero = at[hits.alpha[at] == 0.0]
    if len(zero) == 0:
        return at, zero
    asked = np.zeros(len(start), dtype=bool)
    asked[zero] = True
    keep = asked[rows].nonzero()[0]
    rows, shapes = rows[keep], shapes[keep]
    depth, _ = geometry.overlaps(_points(start), radius, rows, shapes)
    circles, _, shallowest = first_min(rows, -depth)
    inside = circles[shallowest <= 0.0]
    if len(inside) == 0:
        return at, inside
    clear = np.ones(len(start), dtype=bool)
    clear[inside] = False
    return at[clear[at]], inside


def _dig_out(
    geometry: StaticGeometry,
    source: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
    radius: np.ndarray,
    rows: np.ndarray,
) -> None:
    """Move circles ``rows`` that start overlapping shapes, then push them out, in place.

    Their motion, then up to :data:`PUSHES` pushes out of what they overlap, are each a
    :func:`_guarded` move. Velocities lose their part into the surfaces pushing or met.
    """
    radius = radius[rows]
    where, met = _guarded(geometry, source[rows], place[rows], radius)
    speed[rows] = _without_inward(speed[rows], met)
    active = np.arange(len(rows))
    for _ in range(PUSHES):
        circles, move, out = _pushes(geometry, where[active], radius[active])
        if len(circles) == 0:
            break
        active = active[circles]
        speed[rows[active]] = _without_inward(speed[rows[active]], out)
        here = where[active]
        where[active], met = _guarded(geometry, here, here + move, radius[active])
        speed[rows[active]] = _without_inward(speed[rows[active]], met)
    place[rows] = where


def _guarded(
    geometry: StaticGeometry, start: np.ndarray, target: np.ndarray, radius: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Move circles from ``start`` straight towards ``target`` (complex ``(k,)``), stopping a
    hair before the first contact: with a shape they overlap, deeper than they are; with one
    they do not, at all; with a wall whose core their centre is on or within ``SKIN`` of the
    surface, its core line.

    Returns:
        ``(position, normal)``: where each circle stopped and the outward normal it met
        there (zero where it reached ``target``), complex ``(k,)``.
    """
    move = target - start
    length = np.abs(move)
    mid = start + 0.5 * move
    position, normal = target.copy(), np.zeros(len(start), dtype=complex)
    rows, shapes = geometry.pairs(mid.real, mid.imag, 0.5 * length + radius)
    if len(rows) == 0:
        return position, normal
    depth, _ = geometry.overlaps(_points(start), radius, rows, shapes)
    # Each pair swept with the circle shrunk to just clear that shape now.
    grow = np.where(depth >= 0.0, radius[rows] - depth - SKIN, radius[rows])
    key = np.full(len(rows), np.inf)
    met = np.zeros(len(rows), dtype=complex)
    swept = (grow >= 0.0).nonzero()[0]
    if len(swept):
        from_, to = _points(start[rows[swept]]), _points(target[rows[swept]])
        each = np.arange(len(swept))
        hits = geometry.cast_pairs(from_, to, grow[swept], each, shapes[swept])
        key[swept] = np.where(hits.hit, hits.alpha, np.inf)
        met[swept] = _complex(hits.normal)
    held = ((grow < 0.0) & (geometry.kind[shapes] == KIND_WALL)).nonzero()[0]
    if len(held):
        key[held], met[held] = _core_crossings(
            geometry, start[rows[held]], move[rows[held]], shapes[held]
        )
    stopped, pair, alpha = first_min(rows, key)
    if len(stopped):
        span = length[stopped]
        back = np.maximum(alpha - SKIN / np.where(span > 0.0, span, 1.0), 0.0)
        position[stopped] = start[stopped] + back * move[stopped]
        normal[stopped] = met[pair]
    return position, normal


def _core_crossings(
    geometry: StaticGeometry, start: np.ndarray, move: np.ndarray, shapes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where moves (complex ``(k,)``) cross their walls' core lines: ``(alpha, normal)``,
    alpha inf where they do not, the normal towards the side the start is on. Ending on the
    line counts as crossing; starting on it does not (either side is the start's side)."""
    a, u, length = geometry.frames(shapes)
    turn = u.conj()
    local, step = (start - a) * turn, move * turn
    off = local.imag
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -off / step.imag
        along = local.real + alpha * step.real
    crosses = (off != 0.0) & (off * (off + step.imag) <= 0.0) & (along >= 0.0) & (along <= length)
    normal = np.where(off > 0.0, 1j, -1j) * u
    return np.where(crosses, alpha, np.inf), normal


def _pushes(
    geometry: StaticGeometry, place: np.ndarray, radius: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pushes out of the shapes circles overlap or touch (complex ``(k,)``).

    The deepest overlap sets the push; a circle pinched between two shapes (a corner) moves
    to where it clears both, or as far as it can when they face each other, never farther
    than its radius plus its depth.

    Returns:
        ``(circles, move, out)``: the circles overlapping, ascending, their moves and the
        outward normal of each one's deepest shape.
    """
    none = np.zeros(0, dtype=np.intp)
    nothing = (none, none.astype(complex), none.astype(complex))
    rows, shapes = geometry.pairs(place.real, place.imag, radius + TOUCH)
    if len(rows) == 0:
        return nothing
    depth, normal = geometry.overlaps(_points(place), radius, rows, shapes)
    # The shapes a circle touches (a wall it stopped at) count too: the push slides along them.
    near = (depth > -TOUCH).nonzero()[0]
    if len(near) == 0:
        return nothing
    rows, depth, normal = rows[near], depth[near] + SKIN, _complex(normal)[near]
    circles, _, shallowest = first_min(rows, -depth)
    pushed = np.zeros(len(place), dtype=bool)
    pushed[circles[shallowest <= -SKIN]] = True  # overlapping: depth >= 0
    near = pushed[rows].nonzero()[0]
    if len(near) == 0:
        return nothing
    rows, depth, normal = rows[near], depth[near], normal[near]
    circles, first, _ = first_min(rows, -depth)
    out = normal[first]
    move = out * depth[first]
    if len(circles) < len(rows):  # pinched: the second deepest shape of those circles
        rest = np.ones(len(rows), dtype=bool)
        rest[first] = False
        rest = rest.nonzero()[0]
        twice, second, _ = first_min(rows[rest], -depth[rest])
        second = rest[second]
        at = np.searchsorted(circles, twice)
        move[at] = _clear_both(out[at], depth[first[at]], normal[second], depth[second])
        limit = radius[twice] + depth[first[at]]
        size = np.abs(move[at])
        move[at] *= np.minimum(1.0, limit / np.maximum(size, SKIN))
    return circles, move, out


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
    """``vectors`` without their part against the outward unit ``normal`` (complex ``(k,)``;
    a zero normal leaves them as they are)."""
    into = (vectors * normal.conj()).real
    np.minimum(into, 0.0, out=into)
    return vectors - normal * into


def _complex(points: np.ndarray) -> np.ndarray:
    """``(n, 2)`` float64 points as complex ``(n,)``: a view when C-contiguous."""
    return np.ascontiguousarray(points, dtype=float).view(np.complex128)[:, 0]


def _points(values: np.ndarray) -> np.ndarray:
    """Complex ``(n,)`` as ``(n, 2)`` float points (a view)."""
    return np.ascontiguousarray(values).view(np.float64).reshape(-1, 2)
