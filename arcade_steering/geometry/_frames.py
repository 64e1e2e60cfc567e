"""Queries answered in each shape's own frame: fans of feelers, circle overlaps and sweeps.

A shape's frame puts its core on the positive x axis from the origin (rotate by ``turn``, a
unit complex number, after subtracting ``start``): there a capsule's distance is a clamp and a
norm. :class:`~arcade_steering.geometry._capsules.CapsuleQueries` passes its columns here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._util.masks import some
from .._util.vec import lengths_xy, times
from . import _kernels as _k

__all__ = [
    "FramedPairs",
    "LocalFrames",
    "cast_fans",
    "contact_casts",
    "contacts",
    "core_offsets",
    "first_contacts",
    "frame_pairs",
    "nearest_contacts",
    "overlaps",
]

#: Below this distance (px) from a core a direction from the core is not trusted.
ON_CORE = 1e-9


class LocalFrames(NamedTuple):
    """The shapes as the frame queries need them.

    Attributes:
        cols: The kernel columns ``[NCOL, m]`` (see :mod:`~arcade_steering.geometry._kernels`).
        start_z: Each core's start ``[m]``, complex px.
        turn_z: Each core's rotation into its frame ``[m]``, unit complex.
    """

    cols: np.ndarray
    start_z: np.ndarray
    turn_z: np.ndarray


class FramedPairs(NamedTuple):
    """Candidate (circle, shape) pairs with each shape's frame gathered once: for queries
    from circles that move between them (the rounds of a sweep and slide).

    Attributes:
        rows: ``[p]`` circle of each pair, ascending.
        shapes: ``[p]`` shape of each pair.
        start: ``[p]`` complex first end of each shape's core (a circle's centre), px.
        turn: ``[p]`` unit complex rotation into each shape's frame.
        length: ``[p]`` core lengths, px.
        grown: ``[p]`` each shape's radius plus its circle's, px.
    """

    rows: np.ndarray
    shapes: np.ndarray
    start: np.ndarray
    turn: np.ndarray
    length: np.ndarray
    grown: np.ndarray

    def take(self, index: np.ndarray) -> FramedPairs:
        """The pairs ``index`` (ascending), in order."""
        return FramedPairs(*(column[index] for column in self))

    def local(self, points: np.ndarray) -> np.ndarray:
        """Each pair's circle centre, from complex ``points`` ``[n]``, in its shape's frame."""
        return (points[self.rows] - self.start) * self.turn


def frame_pairs(
    frames: LocalFrames, rows: np.ndarray, shapes: np.ndarray, radius: float | np.ndarray
) -> tuple[FramedPairs, np.ndarray]:
    """The pairs ``rows``, ``shapes`` (``[p]``, rows ascending) of circles of ``radius``
    (``[n]`` or a scalar), and each pair's shape radius ``[p]``."""
    cols, start_z, turn_z = frames
    size = cols[_k.RAD][shapes]
    grown = size + (radius[rows] if isinstance(radius, np.ndarray) else radius)
    framed = FramedPairs(rows, shapes, start_z[shapes], turn_z[shapes], cols[_k.LEN][shapes], grown)
    return framed, size


def core_offsets(local: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Offsets ``[p]`` (complex) of points in their shapes' frames (complex ``[p]``) from the
    nearest points of the cores (cores of ``length`` ``[p]`` along the positive x axis)."""
    along = np.maximum(local.real, 0.0)
    np.minimum(along, length, out=along)
    return local - along


def contact_casts(
    pairs: FramedPairs, local: np.ndarray, moves: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The arguments of :func:`~._kernels.ray_keys_local` for circles at ``local``
    (``pairs.local(starts)``) swept by ``moves`` (complex ``[n]``, per circle): each pair's
    start and motion in its shape's frame, core length and grown radius, ``[p]`` each."""
    return local, moves[pairs.rows] * pairs.turn, pairs.length, pairs.grown


def contacts(
    frames: LocalFrames, shapes: np.ndarray, starts: np.ndarray, moves: np.ndarray, key: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where circles swept from ``starts`` by ``moves`` (complex ``[k]``) meet ``shapes``
    ``[k]``, from their finite ray keys ``key`` ``[k]``: ``(alpha, contact, normal)``, how far
    along their motion (0 where they start inside), their centres then and the outward
    normal there (complex), each ``[k]``.

    The normal points from the nearest point of the core to the contact, found in the
    shape's frame; only a contact on a core (a zero-thickness wall, a start on a core) needs
    the slower rules of :func:`~._kernels.contact_normal`.
    """
    reached = np.maximum(key, 0.0)
    contact = starts + reached * moves
    turn = frames.turn_z[shapes]
    offset = core_offsets((contact - frames.start_z[shapes]) * turn, frames.cols[_k.LEN][shapes])
    distance = np.abs(offset)
    on_core = distance <= ON_CORE
    if not some(on_core):
        return reached, contact, offset / distance * turn.conj()
    distance[on_core] = 1.0
    normal = offset / distance * turn.conj()
    at = np.flatnonzero(on_core)
    point, start, move = contact[at], starts[at], moves[at]
    found = np.empty(len(at), dtype=complex)
    found.real, found.imag = _k.contact_normal(
        point.real, point.imag, start.real, start.imag, move.real, move.imag,
        key[at] < 0.0, frames.cols.take(shapes.take(at), axis=1),
    )  # fmt: skip
    normal[at] = found
    return reached, contact, normal


def first_contacts(
    frames: LocalFrames, pairs: FramedPairs, starts: np.ndarray, moves: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """First contacts of circles swept from ``starts`` by ``moves`` (complex ``[n]``) with
    their candidate shapes, as ``CapsuleQueries.cast_pairs`` finds them, for just the
    circles that meet one: :func:`nearest_contacts` of the pairs' ray keys."""
    key = _k.ray_keys_local(*contact_casts(pairs, pairs.local(starts), moves))
    return nearest_contacts(frames, pairs, starts, moves, key)


def nearest_contacts(
    frames: LocalFrames, pairs: FramedPairs, starts: np.ndarray, moves: np.ndarray, key: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each circle's first contact, from the ray keys of its pairs.

    Args:
        frames: The shapes.
        pairs: The candidates; their grown radii include the circles'.
        starts: Every circle's start, complex ``[n]`` px.
        moves: Every circle's motion, complex ``[n]`` px.
        key: ``[p]`` the pairs' ray keys (see :func:`contact_casts`).

    Returns:
        ``(circles, alpha, contact, normal, pair)``, each ``[k]``: the circles that meet a
        shape, ascending, then as :func:`contacts`, and the pair met.
    """
    circles, pair, best = _k.first_min(pairs.rows, key)
    reached, contact, normal = contacts(
        frames, pairs.shapes[pair], starts[circles], moves[circles], best
    )
    return circles, reached, contact, normal, pair


def cast_fans(
    frames: LocalFrames,
    origins: np.ndarray,
    rays: np.ndarray,
    inflate: np.ndarray,
    rows: np.ndarray,
    shapes: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """First contacts of ``f`` swept circles from each origin, with candidate shapes.

    ``CapsuleQueries.cast_pairs`` for fans of rays sharing a start (an agent's feelers): each
    (origin, shape) pair is put in the shape's frame once for all its rays, and each
    ray's nearest shape is a per-origin minimum, no sort. No argument checks.

    Args:
        origins: ``[n]`` complex ray starts ``x + iy``, px.
        rays: ``[f, n]`` complex ray vectors (end minus start), px.
        inflate: ``[n]`` radii of the swept circles, px, >= 0.
        rows: ``[p]`` origin of each candidate pair, ascending; every origin has one.
        shapes: ``[p]`` index of each pair's shape.

    Returns:
        ``(alpha [f, n], normal [f, n], shape [f, n])`` as in
        :class:`~arcade_steering.geometry.hits.RayHits`, the normals complex: 1, 0 and -1
        where a ray touches nothing.
    """
    cols, start_z, turn_z = frames
    f, n = rays.shape
    alpha = np.ones((f, n))
    normal = np.zeros((f, n), dtype=complex)
    shape = np.full((f, n), -1, dtype=np.intp)
    turn = turn_z.take(shapes)
    # In the shapes' frames by separate real products (vec.times): the same on every CPU.
    start = times(origins.take(rows) - start_z.take(shapes), turn)
    ray = times(rays.take(rows, axis=1), turn)
    core = cols[_k.LEN].take(shapes)
    grown = cols[_k.RAD].take(shapes)
    grown += inflate.take(rows)
    # Most rays pass their candidates by: keep those whose bounding box, in the shape's
    # frame, meets the capsule's (a few cheap calls; the exact test costs ten times more).
    half = 0.5 * ray
    mid = start + half
    near = np.abs(mid.imag) - np.abs(half.imag) <= grown
    core_half = 0.5 * core
    near &= np.abs(mid.real - core_half) - np.abs(half.real) <= grown + core_half
    index = np.flatnonzero(near)
    if len(index) == 0:
        return alpha, normal, shape
    fan, pair = np.divmod(index, len(rows))
    start, ray = start.take(pair), ray.take(index)
    core, grown, turn = core.take(pair), grown.take(pair), turn.take(pair)
    key = _k.ray_keys_local(start, ray, core, grown)
    # Rays numbered fan * n + origin: ascending, as the pairs are.
    at, win, best = _k.first_min(fan * n + rows.take(pair), key)
    if len(at) == 0:
        return alpha, normal, shape
    reached = np.maximum(best, 0.0)
    # The normal at the contact points away from the nearest point of the core.
    contact = start.take(win) + reached * ray.take(win)
    along = np.maximum(contact.real, 0.0)
    np.minimum(along, core.take(win), out=along)
    off = contact - along
    distance = lengths_xy(off.real, off.imag)
    on_core = distance <= ON_CORE
    distance[on_core] = 1.0
    found = times(off / distance, turn.take(win).conj())
    j = shapes.take(pair.take(win))
    if some(on_core):  # a zero-thickness wall or a start on a core: pymunk's rules
        cores = np.flatnonzero(on_core)
        sz, dz = origins.take(at[cores] % n), rays.ravel().take(at[cores])
        pz = sz + reached[cores] * dz
        nx, ny = _k.contact_normal(
            pz.real,
            pz.imag,
            sz.real,
            sz.imag,
            dz.real,
            dz.imag,
            best[cores] < 0.0,
            cols.take(j[cores], axis=1),
        )
        found[cores] = nx + 1j * ny
    alpha.ravel()[at] = reached
    normal.ravel()[at] = found
    shape.ravel()[at] = j
    return alpha, normal, shape


def overlaps(
    frames: LocalFrames, pairs: FramedPairs, local: np.ndarray, radius: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """How deep circles overlap given candidate shapes, and which way is out.

    A narrow phase for a collision step: every pair at once, not just the deepest shape
    per circle (``CapsuleQueries.near_pairs``), so a circle pinched in a corner sees both walls.
    No argument checks.

    Args:
        frames: The shapes.
        pairs: The candidates, framed for circles of radius 0 (:func:`frame_pairs` with
            ``radius=0.0``: their grown radii are the shapes' own).
        local: ``[p]`` each pair's circle centre in its shape's frame (``pairs.local``).
        radius: ``[p]`` each pair's circle radius, px.

    Returns:
        ``(depth [p], normal [p])``: overlap in px (negative: the gap) and the outward
        unit gradient of the shape's distance at the centre, complex (on a core, pymunk's
        choice: a segment's right normal, +y for a circle).
    """
    offset = core_offsets(local, pairs.length)
    distance = np.abs(offset)
    depth = pairs.grown - distance
    depth += radius
    on_core = distance <= ON_CORE
    distance[on_core] = 1.0
    normal = offset / distance * pairs.turn.conj()
    if some(on_core):
        at = np.flatnonzero(on_core)
        j = pairs.shapes[at]
        normal[at] = frames.cols[_k.GX][j] + 1j * frames.cols[_k.GY][j]
    return depth, normal
