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
from ..geometry._frames import (
    ON_CORE,
    FramedPairs,
    LocalFrames,
    contacts,
    depths,
    frame_pairs,
    overlaps,
)
from ..geometry._kernels import first_min
from .casts import Caster
from .contacts import SKIN, TOUCH, without_inward

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
) -> Caster[None]:
    """Move circles ``rows``, ``depth`` px deep in shapes, then push them out, in place: a
    :data:`~.casts.Caster`, yielding the casts of each guarded move.

    Their motion with the push out from where it ends, then up to :data:`PUSHES` - 1 more
    pushes out of what they overlap, are each a :func:`_guarded` move, all within their
    motion, radius, depth and :data:`DIG_REACH` px of the start: one broad phase serves them
    all, its pairs put in their shapes' frames once; one needing more goes on next step.
    A circle whose push no longer moves it (wedged) stops. Velocities lose their part into
    the surfaces pushing or met.
    """
    radius, start = radius[rows], source[rows]
    motion = place[rows] - start
    room = np.abs(motion)  # how far the centre may go
    room += radius
    room += depth
    room += DIG_REACH
    found, shapes = geometry.pairs(start.real, start.imag, room + radius)
    if len(found) == 0:  # nothing near: the motion is free, and no push is needed
        place[rows] = start + motion
        return
    frames, kind = geometry.local_frames, geometry.kind
    # Framed for circles of radius 0: each pair's grown radius is its shape's own.
    every = frame_pairs(frames, found, shapes, 0.0)[0]
    where, velocity = start.copy(), speed[rows]
    # The first move: the motion and the push out from where it ends, as one.
    local, grow = every.local(start), radius[found]
    depth = depths(every, local, grow)
    goal = start + motion
    after, normal = overlaps(frames, every, every.local(goal), grow)
    circles, move, out = _pushes(radius, found, after, normal)
    velocity[circles] = without_inward(velocity[circles], out)
    goal[circles] += move
    active, pairs, here, origin, reach = np.arange(len(rows)), every, start, start, room
    for push in range(PUSHES):
        # Kept within the broad phase's reach of the start.
        away = goal - origin
        goal = origin + away * np.minimum(1.0, reach / np.maximum(np.abs(away), SKIN))
        moved, met = yield from _guarded(frames, kind, here, goal, pairs, local, grow, depth)
        where[active] = moved
        velocity[active] = without_inward(velocity[active], met)
        active = active[np.abs(moved - here) > SKIN]
        if len(active) == 0 or push == PUSHES - 1:
            break
        # The next push: out of what they overlap where they are.
        pairs = _pairs_of(every, active, len(rows))[0]
        here, size = where[active], radius[active]
        local, grow = pairs.local(here), size[pairs.rows]
        depth, normal = overlaps(frames, pairs, local, grow)
        circles, move, out = _pushes(size, pairs.rows, depth, normal)
        if len(circles) == 0:
            break
        pairs, chosen = _pairs_of(pairs, circles, len(active))
        local, grow, depth = local[chosen], grow[chosen], depth[chosen]
        active, here = active[circles], here[circles]
        velocity[active] = without_inward(velocity[active], out)
        goal, origin, reach = here + move, start[active], room[active]
    place[rows], speed[rows] = where, velocity


def _pairs_of(pairs: FramedPairs, circles: np.ndarray, n: int) -> tuple[FramedPairs, np.ndarray]:
    """The pairs of ``circles`` (ascending, of ``n``), rows renumbered as indices into it,
    and which of ``pairs`` they are."""
    local = np.full(n, -1, dtype=np.intp)
    local[circles] = np.arange(len(circles))
    mapped = local[pairs.rows]
    keep = (mapped >= 0).nonzero()[0]
    return pairs.take(keep)._replace(rows=mapped[keep]), keep


def _guarded(
    frames: LocalFrames,
    kind: np.ndarray,
    start: np.ndarray,
    target: np.ndarray,
    pairs: FramedPairs,
    local: np.ndarray,
    radius: np.ndarray,
    depth: np.ndarray,
) -> Caster[tuple[np.ndarray, np.ndarray]]:
    """Move circles from ``start`` straight towards ``target`` (complex ``(k,)``), stopping a
    hair before the first contact: with a shape they overlap, deeper than they are; with one
    they do not, at all; with a wall whose core their centre is on or within ``SKIN`` of the
    surface, its core line.

    Args:
        frames: The walls and obstacles.
        kind: Each shape's kind (:data:`KIND_WALL` or not).
        start: Where the circles are, complex ``(k,)``.
        target: Where they go, complex ``(k,)``.
        pairs: The candidate pairs, rows ascending, holding every shape the moves can meet,
            framed for circles of radius 0 (their grown radii are the shapes' own).
        local: ``[p]`` ``pairs.local(start)``.
        radius: ``[p]`` the radius of each pair's circle.
        depth: ``[p]`` how deep each circle overlaps each shape at ``start`` (< 0: clear).

    Returns:
        ``(position, normal)``, from the end of this :data:`~.casts.Caster`: where each
        circle stopped and the outward normal it met there (zero where it reached
        ``target``), complex ``(k,)``.
    """
    move = target - start
    position, normal = target.copy(), np.zeros(len(start), dtype=complex)
    rows, shapes = pairs.rows, pairs.shapes
    way = move[rows] * pairs.turn  # each pair's move in its shape's frame
    # Each pair swept with the circle shrunk to just clear that shape now.
    grow = np.where(depth >= 0.0, radius - depth - SKIN, radius)
    swept = (grow >= 0.0).nonzero()[0]
    held = swept[:0]  # walls whose core line holds a circle whose centre is in them
    if len(swept) == len(rows):  # the usual case: no centre inside a shape
        ray = yield local, way, pairs.length, pairs.grown + grow
    else:
        ray = np.full(len(rows), np.inf)
        if len(swept):
            grown = pairs.grown[swept]
            grown += grow[swept]
            ray[swept] = yield local[swept], way[swept], pairs.length[swept], grown
        held = ((grow < 0.0) & (kind[shapes] == KIND_WALL)).nonzero()[0]
    key = np.maximum(ray, 0.0)
    if len(held):
        met = np.zeros(len(rows), dtype=complex)
        key[held], met[held] = _core_crossings(
            local[held], way[held], pairs.length[held], pairs.turn[held]
        )
    stopped, pair, alpha = first_min(rows, key)
    if len(stopped) == 0:
        return position, normal
    moving, begin = move[stopped], start[stopped]
    span = np.abs(moving)
    back = np.maximum(alpha - SKIN / np.where(span > 0.0, span, 1.0), 0.0)
    position[stopped] = begin + back * moving
    if len(held) == 0:  # every shape met was swept: the normals at the contacts
        normal[stopped] = contacts(frames, shapes[pair], begin, moving, ray[pair])[2]
        return position, normal
    hit = (ray[pair] < np.inf).nonzero()[0]  # the swept shapes met
    both = pair[hit]
    met[both] = contacts(frames, shapes[both], begin[hit], moving[hit], ray[both])[2]
    normal[stopped] = met[pair]
    return position, normal


def _core_crossings(
    local: np.ndarray, step: np.ndarray, length: np.ndarray, turn: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Where moves cross their walls' core lines: ``(alpha, normal)``, alpha inf where they
    do not, the normal towards the side the start is on. The moves' starts ``local`` and
    vectors ``step`` are complex ``(k,)`` in the walls' frames (cores of ``length`` along the
    positive x axis, rotated into by ``turn``). Ending on the line counts as crossing;
    starting on it does not (either side is the start's side)."""
    off = local.imag.copy()
    off[np.abs(off) <= ON_CORE] = 0.0  # on the line, give or take the rounding of the turn
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = -off / step.imag
        along = local.real + alpha * step.real
    crosses = (off != 0.0) & (off * (off + step.imag) <= 0.0) & (along >= 0.0) & (along <= length)
    normal = np.where(off > 0.0, 1j, -1j) * turn.conj()
    return np.where(crosses, alpha, np.inf), normal


def _pushes(
    radius: np.ndarray, rows: np.ndarray, depth: np.ndarray, normal: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pushes out of the shapes circles overlap (complex ``(k,)``), from the overlaps of
    their candidate pairs (``rows``, ascending, ``depth`` and outward ``normal``, complex,
    per pair).

    The deepest overlap sets the push; a circle pinched between two shapes (a corner), or
    overlapping one and touching another (a wall it stopped at), moves to where it clears
    both, or as far as it can when they face each other, never farther than its radius plus
    its depth.

    Returns:
        ``(circles, move, out)``: the circles overlapping, ascending, their moves and the
        outward normal of each one's deepest shape.
    """
    deep = depth + SKIN
    pushed = np.zeros(len(radius), dtype=bool)
    pushed[rows[deep >= SKIN]] = True  # overlapping: depth >= 0
    # The overlapping circles' pairs that overlap or touch.
    near = ((depth > -TOUCH) & pushed[rows]).nonzero()[0]
    if len(near) == 0:
        none = np.zeros(0, dtype=np.intp)
        return none, none.astype(complex), none.astype(complex)
    # Each circle's pairs, deepest first (a stable sort: of equals, the first pair first).
    order = near[np.lexsort((-deep[near], rows[near]))]
    ranked = rows[order]
    head = np.empty(len(order) + 1, dtype=bool)  # where a circle's run starts, and the end
    head[0] = head[-1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=head[1:-1])
    starts = head.nonzero()[0][:-1]
    first = order[starts]
    out, deepest = normal[first], deep[first]
    move = out * deepest
    pinched = (~head[starts + 1]).nonzero()[0]  # a second shape: the next in the run
    if len(pinched):
        second = order[starts[pinched] + 1]
        deepest = deepest[pinched]
        both = _clear_both(out[pinched], deepest, normal[second], deep[second])
        limit = radius[ranked[starts[pinched]]] + deepest
        both *= np.minimum(1.0, limit / np.maximum(np.abs(both), SKIN))
        move[pinched] = both
    return ranked[starts], move, out


def _clear_both(
    first: np.ndarray, depth: np.ndarray, second: np.ndarray, other: np.ndarray
) -> np.ndarray:
    """The shortest moves (complex ``(k,)``) out of two overlaps at once.

    Moving ``depth`` along the outward normal ``first`` may already clear the second
    surface (normal ``second``, ``other`` deep), or the reverse; else the move to the
    corner where both are just cleared. Surfaces facing each other (a gap narrower than the
    circle) leave only the deeper push.
    """
    move = first * depth
    alone = second * other
    back = first.conj()
    det = (back * second).imag
    corner = np.abs(det) > 0.05
    # The corner v: v . first = depth and v . second = other (Cramer's rule).
    vertex = 1j * (other * first - depth * second) / np.where(corner, det, 1.0)
    clears = (move * second.conj()).real >= other
    along = (alone * back).real >= depth
    return np.where(clears | ~(along | corner), move, np.where(along, alone, vertex))
