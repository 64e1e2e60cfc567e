"""What the batched geometry queries return: one row per ray or query point."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["KIND_NONE", "KIND_OBSTACLE", "KIND_WALL", "NearestHits", "RayHits"]

#: Values of the ``kind`` field of :class:`RayHits` and :class:`NearestHits`.
KIND_NONE, KIND_WALL, KIND_OBSTACLE = 0, 1, 2


class RayHits(NamedTuple):
    """First contacts of ``n`` swept circles (rays), from :meth:`StaticGeometry.raycast`.

    Attributes:
        hit: ``[n]`` bool, whether the ray touches a shape.
        alpha: ``[n]`` fraction of the ray travelled at first contact, in [0, 1]; 1 where
            no hit, 0 where the ray starts inside (or touching and moving into) a shape.
        point: ``[n, 2]`` px, the ray's position (the swept circle's centre) at first
            contact; the end where no hit. The contact on the surface is
            ``point - normal * inflate``.
        normal: ``[n, 2]`` unit outward surface normal at the contact; for a ray starting
            inside, the outward gradient at the start (as :meth:`StaticGeometry.nearest`);
            zero where no hit.
        shape: ``[n]`` int, index into :attr:`StaticGeometry.shapes`, -1 where no hit.
        kind: ``[n]`` int8, :data:`KIND_WALL`, :data:`KIND_OBSTACLE` or :data:`KIND_NONE`.
    """

    hit: np.ndarray
    alpha: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    shape: np.ndarray
    kind: np.ndarray


class NearestHits(NamedTuple):
    """Nearest surfaces to ``n`` points, from :meth:`StaticGeometry.nearest`.

    Attributes:
        found: ``[n]`` bool, whether a surface lies within ``max_distance``.
        distance: ``[n]`` px, signed distance to the nearest surface (negative inside);
            ``max_distance`` where not found, so it is always finite.
        point: ``[n, 2]`` px, the closest point on that surface; the query point where not
            found.
        normal: ``[n, 2]`` unit outward gradient of the distance at the query point (for a
            point on a segment's centre line, the segment's ``normal``, i.e. its right
            normal; at a circle's centre, +y; both as pymunk); zero where not found.
        shape: ``[n]`` int, index into :attr:`StaticGeometry.shapes`, -1 where not found.
        kind: ``[n]`` int8, :data:`KIND_WALL`, :data:`KIND_OBSTACLE` or :data:`KIND_NONE`.
    """

    found: np.ndarray
    distance: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    shape: np.ndarray
    kind: np.ndarray
