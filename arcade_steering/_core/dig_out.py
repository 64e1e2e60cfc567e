"""Digging buried circles out: solid agents that start a step inside walls or obstacles.

A shape appeared or grew over the agent, or the game put it there. Its motion, then pushes
out of what it overlaps, are guarded moves: each goes no deeper into a shape the circle
overlaps, touches no shape it does not and never crosses a wall's core line, so however the
shapes around it disagree, the agent stays on its side of every wall. Where no clear place
is near (an obstacle grown around it in a closed box, a wedge), it stays, overlapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..geometry import KIND_WALL
from ..geometry._frames import ON_CORE, contact_keys, contacts, frame_pairs
from ..geometry._kernels import first_min
from .contacts import SKIN, TOUCH, Pairs, as_complex, as_points, without_inward

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

__all__ = ["DIG_REACH", "PUSHES", "dig_out"]

#: Pushes out of overlaps per step for a circle that starts inside shapes (the first also
#: makes its motion): one for a shape, two or three where several meet.
PUSHES = 4
#: How far (px) beyond its motion, radius and depth a buried circle is pushed in one step.
DIG_REACH = 16.0


def dig_out(
    geometry: StaticGeometry,
    source: np.ndarray,
    place: np.ndarray,
    speed: np.ndarray,
    radius: np.ndarray,
    rows: np.ndarray,
    depth: np.ndarray,
) -> None:
    """Move circles ``rows``, ``depth`` px deep in shapes, then push them out, in place.

    Their motion with the push out from where it ends, then up to :data:`PUSHES` - 1 more
    pushes out of what they overlap, are each a :func:`_guarded` move, all within their
    motion, radius, depth and :data:`DIG_REACH` px of the start: one broad phase serves them
    all; one needing more goes on next step.
    A circle whose push no longer moves it (wedged) stops. Velocities lose their part into
    the surfaces pushing or met.
    """
    radius, start = radius[rows], source[rows]
    motion = place[rows] - start
    room = np.abs(motion) + radius + depth + DIG_REACH  # how far the centre may go
    pairs = Pairs(*geometry.pairs(start.real, start.imag, room + radius), len(rows))
    where = start.copy()
    active = np.arange(len(rows))
    for push in range(PUSHES):
        local, shapes = pairs.of(active) if push else pairs[:2]  # all circles at first
        if len(local) == 0:  # nothing near: the motion is free, and no push is needed
            where[active] += motion[active] if push == 0 else 0.0
            break
        here, size = where[active], radius[active]
        depth, normal = geometry.overlaps(as_points(here), size, local, shapes)
        if push == 0:  # the motion and the push out from where it ends: one guarded move
            goal = here + motion[active]
            after, normal = geometry.overlaps(as_points(goal), size, local, shapes)
            circles, move, out = _pushes(size, local, after, normal)
            speed[rows[active[circles]]] = without_inward(speed[rows[active[circles]]], out)
            goal[circles] += move
        else:
            circles, move, out = _pushes(size, local, depth, normal)
            if len(circles) == 0:
                break
            keep = np.full(len(active), -1, dtype=np.intp)
            keep[circles] = np.arange(len(circles))
            chosen = (keep[local] >= 0).nonzero()[0]
            local, shapes, depth = keep[local[chosen]], shapes[chosen], depth[chosen]
            active, here, size = active[circles], here[circles], size[circles]
            speed[rows[active]] = without_inward(speed[rows[active]], out)
            goal = here + move
        # Kept within the broad phase's reach of the start.
        away = goal - start[active]
        far = np.abs(away)
        goal = start[active] + away * np.minimum(1.0, room[active] / np.maximum(far, SKIN))
        moved, met = _guarded(geometry, here, goal, size, local, shapes, depth)
        where[active] = moved
        speed[rows[active]] = without_inward(speed[rows[active]], met)
        active = active[np.abs(moved - here) > SKIN]
        if len(active) == 0:
            break
    place[rows] = where


def _guarded(
    geometry: StaticGeometry,
    start: np.ndarray,
    target: np.ndarray,
    radius: np.ndarray,
    rows: np.ndarray,
    shapes: np.ndarray,
    depth: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Move circles from ``start`` straight towards ``target`` (complex ``(k,)``), stopping a
    hair before the first contact: with a shape they overlap, deeper than they are; with one
    they do not, at all; with a wall whose core their centre is on or within ``SKIN`` of the
    surface, its core line.

    Args:
        geometry: The walls and obstacles.
        start: Where the circles are, complex ``(k,)``.
        target: Where they go, complex ``(k,)``.
        radius: Their radii ``(k,)``.
        rows: ``[p]`` circle of each candidate pair, ascending; the pairs hold every shape
            the moves can meet.
        shapes: ``[p]`` shape of each pair.
        depth: ``[p]`` how deep each circle overlaps each shape at ``start`` (< 0: clear).

    Returns:
        ``(position, normal)``: where each circle stopped and the outward normal it met
        there (zero where it reached ``target``), complex ``(k,)``.
    """
    move = target - start
    position, normal = target.copy(), np.zeros(len(start), dtype=complex)
    # Each pair swept with the circle shrunk to just clear that shape now.
    grow = np.where(depth >= 0.0, radius[rows] - depth - SKIN, radius[rows])
    key = np.full(len(rows), np.inf)
    met = np.zeros(len(rows), dtype=complex)
    swept = (grow >= 0.0).nonzero()[0]
    frames = geometry.local_frames
    if len(swept):
        each = np.arange(len(swept))
        pairs = frame_pairs(frames, each, shapes[swept], grow[swept])[0]
        from_, way = start.take(rows[swept]), move.take(rows[swept])
        ray = contact_keys(pairs, pairs.local(from_), way)
        key[swept] = np.maximum(ray, 0.0)
    held = ((grow < 0.0) & (geometry.kind[shapes] == KIND_WALL)).nonzero()[0]
    if len(held):
        key[held], met[held] = _core_crossings(
            geometry, start[rows[held]], move[rows[held]], shapes[held]
        )
    stopped, pair, alpha = first_min(rows, key)
    if len(stopped):
        span = np.abs(move[stopped])
        back = np.maximum(alpha - SKIN / np.where(span > 0.0, span, 1.0), 0.0)
        position[stopped] = start[stopped] + back * move[stopped]
        if len(swept):  # the normals of the swept shapes met
            index = np.full(len(rows), -1, dtype=np.intp)
            index[swept] = each
            at = index.take(pair)
            met_swept = (at >= 0).nonzero()[0]
            at = at.take(met_swept)
            met[pair.take(met_swept)] = contacts(
                frames, pairs.shapes.take(at), from_.take(at), way.take(at), ray.take(at)
            )[2]
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
    off[np.abs(off) <= ON_CORE] = 0.0  # on the line, give or take the rounding of the turn
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -off / step.imag
        along = local.real + alpha * step.real
    crosses = (off != 0.0) & (off * (off + step.imag) <= 0.0) & (along >= 0.0) & (along <= length)
    normal = np.where(off > 0.0, 1j, -1j) * u
    return np.where(crosses, alpha, np.inf), normal


def _pushes(
    radius: np.ndarray, rows: np.ndarray, depth: np.ndarray, normal: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pushes out of the shapes circles overlap (complex ``(k,)``), from the overlaps of
    their candidate pairs (``rows``, ``depth`` and outward ``normal`` ``(p, 2)`` per pair).

    The deepest overlap sets the push; a circle pinched between two shapes (a corner), or
    overlapping one and touching another (a wall it stopped at), moves to where it clears
    both, or as far as it can when they face each other, never farther than its radius plus
    its depth.

    Returns:
        ``(circles, move, out)``: the circles overlapping, ascending, their moves and the
        outward normal of each one's deepest shape.
    """
    near = (depth > -TOUCH).nonzero()[0]
    rows, depth, normal = rows[near], depth[near] + SKIN, as_complex(normal)[near]
    pushed = np.zeros(len(radius), dtype=bool)
    pushed[rows[depth >= SKIN]] = True  # overlapping: depth >= 0
    near = pushed[rows].nonzero()[0]
    if len(near) == 0:
        none = np.zeros(0, dtype=np.intp)
        return none, none.astype(complex), none.astype(complex)
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
