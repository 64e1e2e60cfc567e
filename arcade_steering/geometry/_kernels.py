"""Narrow-phase kernels of :mod:`arcade_steering.geometry`: pure numpy over pair arrays.

Every shape is a capsule: a core segment ``a -> b`` with a radius (a circle has ``a == b``).
Shapes are stored column-wise, ``[NCOL, m]``, and a kernel gets the columns gathered per
candidate pair, ``[NCOL, p]``, so every operand is a contiguous 1-D array. Points and ray
vectors come as separate x and y arrays, or (the ray cast, the hot path, where the count of
numpy calls sets the cost) as complex numbers ``x + iy``. No pymunk, no arcade.
"""

from __future__ import annotations

import numpy as np

from .._util.masks import some
from .._util.vec import inner, lengths_xy

__all__ = [
    "NCOL",
    "contact_normal",
    "core_distance",
    "first_min",
    "gradient",
    "ray_contact_normal",
    "ray_keys_local",
]

# Rows of the shape table: core segment a -> b (a == b for a circle), unit direction u (+x
# for a circle), core length, radius, and the gradient to use where the distance has no
# direction (on the core): as pymunk, a segment's right normal, +y for a circle.
AX, AY, BX, BY, UX, UY, LEN, RAD, GX, GY = range(10)
NCOL = 10

#: Below this distance (px) from the core a direction from the core is not trusted.
_ON_CORE = 1e-9


def core_distance(px: np.ndarray, py: np.ndarray, sh: np.ndarray) -> np.ndarray:
    """Distance ``[p]`` in px from points to the shapes' cores (not their surfaces)."""
    wx = px - sh[AX]
    wy = py - sh[AY]
    tau = np.clip(wx * sh[UX] + wy * sh[UY], 0.0, sh[LEN])
    ex = wx - tau * sh[UX]
    ey = wy - tau * sh[UY]
    return lengths_xy(ex, ey)


def gradient(
    px: np.ndarray, py: np.ndarray, sh: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Outward unit gradient of the distance to each shape, and the closest core point.

    Args:
        px: ``[h]`` point x, px.
        py: ``[h]`` point y, px.
        sh: ``[NCOL, h]`` shape columns.

    Returns:
        ``(gx, gy, core_x, core_y)``, each ``[h]``; the gradient is the shape's fallback
        direction where the point is on the core.
    """
    wx = px - sh[AX]
    wy = py - sh[AY]
    tau = np.clip(wx * sh[UX] + wy * sh[UY], 0.0, sh[LEN])
    ex = wx - tau * sh[UX]
    ey = wy - tau * sh[UY]
    dist = lengths_xy(ex, ey)
    direct = dist > _ON_CORE
    safe = np.where(direct, dist, 1.0)
    gx = np.where(direct, ex / safe, sh[GX])
    gy = np.where(direct, ey / safe, sh[GY])
    return gx, gy, px - ex, py - ey


def ray_keys_local(
    w: np.ndarray, q: np.ndarray, length: np.ndarray, radius: np.ndarray
) -> np.ndarray:
    """Rank each (ray, shape) pair by its first contact, in each capsule's own frame.

    Rays are ``w + alpha * q``; shapes are capsules. The frame puts a capsule's core on the
    real axis from 0 to ``length`` (a world point ``v`` becomes ``(v - a) * conj(u)``, a
    direction ``v * conj(u)``), and complex numbers make each vector operation one numpy
    call. A capsule is a slab (two flat faces) capped by two discs; a ray that reaches the
    slab beyond an end can only touch that end's disc first, so one disc test per pair is
    enough.

    Args:
        w: ``[p]`` complex ray starts in the capsules' frames, px.
        q: ``[p]`` complex ray vectors in the capsules' frames, px; or ``[f, p]``, ``f``
            rays from each start (feelers), broadcast against the ``[p]`` arguments.
        length: ``[p]`` core lengths, px.
        radius: ``[p]`` grown radii, px.

    Returns:
        ``[p]`` (or ``[f, p]``) key: the signed distance (< 0) where the start is inside,
        else the first contact alpha in [0, 1], or inf for no contact. Smaller is earlier.
    """
    off, rate = w.imag, q.imag
    gap = np.abs(off)
    gap -= radius
    in_slab = gap < 0.0
    # Entering the slab from outside means moving towards the core line (or off a
    # zero-radius line, where either side is "towards").
    enters = off * rate < 0.0
    enters |= in_slab
    enters |= (off == 0.0) & (rate != 0.0)
    # A ray (almost) parallel to the core divides by (almost) zero: the inf it gives, even by
    # overflow, means "never enters", which the masks below expect.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        t = gap / np.abs(rate)
        np.copyto(t, 0.0, where=in_slab)
        y = t * q.real  # where along the core the ray is when it enters the slab
        y += w.real
        along_core = (y >= 0.0) & (y <= length)
        f = w - np.where(y < 0.0, 0.0, length)  # from the nearer end's disc centre
        # Dot products by separate real products: numpy's complex product rounds by the CPU
        # (see vec.times), and whether a feeler touches a wall must not.
        f2 = inner(f, f)
        c = f2 - radius * radius
        b = inner(f, q)
        disc = b * b - inner(q, q) * c
        # The smaller root, c / (-b + sqrt(disc)), is stable and needs no division by |q|^2.
        t_cap = c / (np.sqrt(disc) - b)
        cap = (c >= 0.0) & (b < 0.0) & (disc >= 0.0)
        t = np.where(along_core & ~in_slab, t, np.where(cap, t_cap, np.inf))
        t[~enters | (t > 1.0)] = np.inf
        if not some(in_slab):
            return t
        # Starting inside: in the slab and over the core, or within the end's disc.
        inside = in_slab & (along_core | (c < 0.0))
        signed = np.where(along_core, gap, np.sqrt(f2) - radius)
    return np.where(inside, signed, t)


def ray_contact_normal(
    px: np.ndarray,
    py: np.ndarray,
    sx: np.ndarray,
    sy: np.ndarray,
    dx: np.ndarray,
    dy: np.ndarray,
    sh: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Outward unit normals at ray contacts ``p`` (starts ``s``, vectors ``d``), each ``[h]``.

    On a flat face the normal is the face's, on the side the ray came from; on an end disc it
    points from the disc's centre to the contact, or against the ray if the disc has no
    radius (a zero-thickness wall hit end-on).
    """
    ux, uy = sh[UX], sh[UY]
    along = (px - sh[AX]) * ux + (py - sh[AY]) * uy
    off = (sy - sh[AY]) * ux - (sx - sh[AX]) * uy
    side = np.where(off != 0.0, np.sign(off), -np.sign(dy * ux - dx * uy))
    on_face = (along > 0.0) & (along < sh[LEN]) & (side != 0.0)
    at_a = along <= 0.0
    ex = px - np.where(at_a, sh[AX], sh[BX])
    ey = py - np.where(at_a, sh[AY], sh[BY])
    dist = lengths_xy(ex, ey)
    speed = lengths_xy(dx, dy)
    radial = dist > _ON_CORE
    ex = np.where(radial, ex, -dx) / np.where(radial, dist, np.maximum(speed, _ON_CORE))
    ey = np.where(radial, ey, -dy) / np.where(radial, dist, np.maximum(speed, _ON_CORE))
    # + 0.0 turns -0.0 into 0.0.
    return np.where(on_face, -uy * side, ex) + 0.0, np.where(on_face, ux * side, ey) + 0.0


def contact_normal(
    px: np.ndarray,
    py: np.ndarray,
    sx: np.ndarray,
    sy: np.ndarray,
    dx: np.ndarray,
    dy: np.ndarray,
    inside: np.ndarray,
    sh: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Outward unit normals ``(nx [h], ny [h])`` where rays first touch their shapes.

    The same as :func:`gradient` at the start for rays starting inside and
    :func:`ray_contact_normal` at the contact for the others, in one pass: on a grown surface
    both are the direction from the closest core point. Only contacts on a core (a
    zero-thickness wall, a start exactly on a core) need the slower rules.

    Args:
        px: ``[h]`` contact x (the start, for rays starting inside), px.
        py: ``[h]`` contact y, px.
        sx: ``[h]`` ray start x, px.
        sy: ``[h]`` ray start y, px.
        dx: ``[h]`` ray vector x, px.
        dy: ``[h]`` ray vector y, px.
        inside: ``[h]`` bool, whether each ray starts inside its shape.
        sh: ``[NCOL, h]`` shape columns.
    """
    ux, uy = sh[UX], sh[UY]
    wx = px - sh[AX]
    wy = py - sh[AY]
    tau = wx * ux
    tau += wy * uy
    np.maximum(tau, 0.0, out=tau)
    np.minimum(tau, sh[LEN], out=tau)
    ex = wx - tau * ux
    ey = wy - tau * uy
    dist = lengths_xy(ex, ey)
    core = dist <= _ON_CORE
    if not some(core):
        return ex / dist, ey / dist
    dist[core] = 1.0
    ex /= dist
    ey /= dist
    at = np.flatnonzero(core)
    sh = sh[:, at]
    sx, sy, dx, dy = sx[at], sy[at], dx[at], dy[at]
    gx, gy = gradient(sx, sy, sh)[:2]
    cx, cy = ray_contact_normal(px[at], py[at], sx, sy, dx, dy, sh)
    inside = inside[at]
    ex[at] = np.where(inside, gx, cx)
    ey[at] = np.where(inside, gy, cy)
    return ex, ey


def first_min(rows: np.ndarray, key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The smallest finite ``key`` of each query row and the first pair holding it.

    Only rows with a finite key are returned, found in a handful of numpy calls and no
    sort: drop the infinite keys (most pairs, usually), then, unless every row has one
    finite key left, a minimum over each row's run of pairs.

    Args:
        rows: ``[p]`` query row of each pair, ascending.
        key: ``[p]`` value per pair, inf for none.

    Returns:
        ``(row [r], pair [r], best [r])``: each row with a finite key, the index of its
        winning pair and that pair's key, rows ascending.
    """
    finite = np.flatnonzero(key < np.inf)
    if len(finite) == 0:
        return finite, finite, key[finite]
    ranked = rows[finite]
    values = key[finite]
    head = np.empty(len(ranked), dtype=bool)
    head[0] = True
    np.not_equal(ranked[1:], ranked[:-1], out=head[1:])
    starts = np.flatnonzero(head)
    if len(starts) == len(ranked):  # one candidate per row: the common case, nothing to do
        return ranked, finite, values
    # Rows are runs of pairs: each run's minimum, then the first pair of the run holding it.
    best = np.minimum.reduceat(values, starts)
    run = np.cumsum(head, dtype=np.intp) - 1
    index = np.arange(len(values))
    index[values != best[run]] = len(values)
    first = np.minimum.reduceat(index, starts)
    return ranked[starts], finite[first], best
