"""Digging buried circles out: solid agents that start a step inside walls or obstacles.

A shape appeared or grew over the agent, or the game put it there. Its motion, then pushes
out of what it overlaps, are guarded moves: each goes no deeper into a shape the circle
overlaps and touches no shape it does not, so it never crosses a wall's core line, and however
the shapes around it disagree, the agent stays on its side of every wall. A move cut short
slides on along what stopped it, as a clear circle's sweep does. Where no clear place is near
(an obstacle grown around it in a closed box, a wedge), it stays, overlapping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..geometry._frames import ON_CORE, FramedPairs, LocalFrames, contacts, frame_pairs, overlaps
from ..geometry._kernels import first_min
from .casts import Caster
from .contacts import SKIN, TOUCH, slide, without_inward

if TYPE_CHECKING:
    from ..geometry import StaticGeometry

__all__ = ["DIG_REACH", "PUSHES", "dig_out"]

#: Guarded moves per step for a circle that starts inside shapes: its motion with the push
#: out from where it ends, then slides and pushes: one for a shape, two or three where several
#: meet.
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
    moves, are each a :func:`_guarded` move, all within their motion, radius, depth and
    :data:`DIG_REACH` px of the start: one broad phase serves them all, its pairs put in their
    shapes' frames once; one needing more goes on next step. A move cut short leaves the rest
    of it to slide along what stopped it; one that got there pushes out of what the circle
    still overlaps. A circle that goes nowhere against a shape it overlaps, or twice against
    one it does not, is wedged and stops. Velocities lose their part into the surfaces pushing
    or met.
    """
    radius, start = radius[rows], source[rows]
    motion = place[rows] - start
    # Reach: how far each centre may go, and every shape within it (one broad phase).
    room = np.abs(motion)
    room += radius
    room += depth
    room += DIG_REACH
    found, shapes = geometry.pairs(start.real, start.imag, room + radius)
    if len(found) == 0:  # nothing near: the motion is free, and no push is needed
        place[rows] = start + motion
        return
    frames = geometry.local_frames
    # Framed for circles of radius 0: each pair's grown radius is its shape's own.
    every = frame_pairs(frames, found, shapes, 0.0)[0]
    where, velocity = start.copy(), speed[rows]
    # First move: the motion and the push out from where it ends, as one.
    moves: _Moves | None = _first_moves(frames, every, found, start, motion, radius, velocity)
    for push in range(PUSHES):
        if moves is None:
            break
        # Move: guarded, kept within the broad phase's reach of the start.
        active = moves.active
        here, origin, reach = where[active], start[active], room[active]
        away = moves.goal - origin
        goal = origin + away * np.minimum(1.0, reach / np.maximum(np.abs(away), SKIN))
        moved, met, touched = yield from _guarded(
            frames, here, goal, moves.pairs, moves.local, moves.grow, moves.depth, moves.outward
        )
        where[active] = moved
        velocity[active] = without_inward(velocity[active], met)
        # Go on: those that moved, and once those stopped at once by a shape they do not
        # overlap, to slide along it; the others are wedged.
        stuck = np.abs(moved - here) <= SKIN
        go = (~stuck | (touched & ~moves.blocked)).nonzero()[0]
        if len(go) == 0 or push == PUSHES - 1:
            break
        # Next move: a push out, or the rest of a move cut short.
        rest = goal[go] - moved[go]  # zero where the move got there
        moves = _next_moves(
            frames, every, active[go], rest, met[go], stuck[go], where, radius, velocity
        )
    place[rows], speed[rows] = where, velocity


class _Moves(NamedTuple):
    """The circles still moving (indices into the dug-out ones, ascending), where to, and
    their candidate pairs with their overlaps where they are (as :func:`_guarded` takes)."""

    active: np.ndarray
    pairs: FramedPairs
    goal: np.ndarray
    local: np.ndarray
    grow: np.ndarray
    depth: np.ndarray
    outward: np.ndarray
    blocked: np.ndarray  # the last move went nowhere


def _first_moves(
    frames: LocalFrames,
    every: FramedPairs,
    found: np.ndarray,
    start: np.ndarray,
    motion: np.ndarray,
    radius: np.ndarray,
    velocity: np.ndarray,
) -> _Moves:
    """Every circle's first move: its ``motion`` and the push out of what it overlaps where
    that ends; ``velocity`` loses its part into those shapes (in place)."""
    local, grow = every.local(start), radius[found]
    depth, outward = overlaps(frames, every, local, grow)
    goal = start + motion
    after, normal = overlaps(frames, every, every.local(goal), grow)
    circles, move, out = _pushes(radius, found, after, normal)
    velocity[circles] = without_inward(velocity[circles], out)
    goal[circles] += move
    n = len(start)
    return _Moves(np.arange(n), every, goal, local, grow, depth, outward, np.zeros(n, dtype=bool))


def _next_moves(
    frames: LocalFrames,
    every: FramedPairs,
    active: np.ndarray,
    rest: np.ndarray,
    met: np.ndarray,
    blocked: np.ndarray,
    where: np.ndarray,
    radius: np.ndarray,
    velocity: np.ndarray,
) -> _Moves | None:
    """The next moves of circles ``active`` at ``where[active]``: the push out of what each
    still overlaps for one that got there (``rest`` zero); the rest of its move for one cut
    short (at normal ``met``), along what stopped it and no deeper into the shape it is
    deepest in (none where those two meet: a corner). ``velocity`` loses its part into the
    shapes pushing (in place). None when no circle has anywhere left to go."""
    pairs = _pairs_of(every, active, len(radius))[0]
    here, size = where[active], radius[active]
    local, grow = pairs.local(here), size[pairs.rows]
    depth, outward = overlaps(frames, pairs, local, grow)
    circles, move, out = _pushes(size, pairs.rows, depth, outward)
    velocity[active[circles]] = without_inward(velocity[active[circles]], out)
    fresh = rest[circles] == 0.0
    rest[circles[fresh]] = move[fresh]
    deepest = np.zeros(len(active), dtype=complex)
    deepest[circles] = out
    rest = slide(without_inward(rest, met), deepest, met)
    going = (np.abs(rest) > SKIN).nonzero()[0]
    if len(going) == 0:
        return None
    pairs, chosen = _pairs_of(pairs, going, len(active))
    local, grow, depth, outward = local[chosen], grow[chosen], depth[chosen], outward[chosen]
    goal = here[going] + rest[going]
    return _Moves(active[going], pairs, goal, local, grow, depth, outward, blocked[going])


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
    start: np.ndarray,
    target: np.ndarray,
    pairs: FramedPairs,
    local: np.ndarray,
    radius: np.ndarray,
    depth: np.ndarray,
    outward: np.ndarray,
) -> Caster[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Move circles from ``start`` straight towards ``target`` (complex ``(k,)``), stopping a
    hair before the first contact with a shape they do not overlap, and at once where the
    move goes deeper into one they do.

    A circle's depth in a convex shape is concave along a straight move, so a move that does
    not start inwards never gets deeper, nor takes the centre across a wall's core line: a
    shape the circle overlaps needs no sweep, only the move's sign against its outward normal
    at the start (none on the shape's core, where every way is out).

    Args:
        frames: The walls and obstacles.
        start: Where the circles are, complex ``(k,)``.
        target: Where they go, complex ``(k,)``.
        pairs: The candidate pairs, rows ascending, holding every shape the moves can meet,
            framed for circles of radius 0 (their grown radii are the shapes' own).
        local: ``[p]`` ``pairs.local(start)``.
        radius: ``[p]`` the radius of each pair's circle.
        depth: ``[p]`` how deep each circle overlaps each shape at ``start`` (< 0: clear).
        outward: ``[p]`` the outward normal of each shape at ``start``, complex.

    Returns:
        ``(position, normal, touched)``, from the end of this :data:`~.casts.Caster`, each
        ``(k,)``: where each circle stopped, the outward normal it met there (complex, zero
        where it reached ``target``), and whether that was a shape it does not overlap.
    """
    move = target - start
    position, normal = target.copy(), np.zeros(len(start), dtype=complex)
    touched = np.zeros(len(start), dtype=bool)
    rows = pairs.rows
    way = move[rows]
    clear = depth < 0.0
    inward = (way * outward.conj()).real < -1e-12 * np.abs(way)
    inward &= depth < pairs.grown + radius - ON_CORE  # on the core, every way is out
    key = np.where(inward & ~clear, 0.0, np.inf)
    swept = clear.nonzero()[0]
    if len(swept):
        grown = pairs.grown[swept]
        grown += radius[swept]
        key[swept] = yield local[swept], way[swept] * pairs.turn[swept], pairs.length[swept], grown
        np.maximum(key, 0.0, out=key)  # a swept start inside by a rounding: stopped at once
    stopped, pair, alpha = first_min(rows, key)
    if len(stopped) == 0:
        return position, normal, touched
    moving, begin = move[stopped], start[stopped]
    span = np.abs(moving)
    back = np.maximum(alpha - SKIN / np.where(span > 0.0, span, 1.0), 0.0)
    position[stopped] = begin + back * moving
    found = outward[pair]  # a shape overlapped: its normal at the start
    hit = clear[pair].nonzero()[0]  # a shape swept: the normal at the contact
    if len(hit):
        met = pair[hit]
        found[hit] = contacts(frames, pairs.shapes[met], begin[hit], moving[hit], key[met])[2]
        touched[stopped[hit]] = True
    normal[stopped] = found
    return position, normal, touched


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
