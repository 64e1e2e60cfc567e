"""Walls and obstacles in a :class:`pymunk.Space`, and batched numpy queries over them.

This is the one module that talks to pymunk. Walls are :class:`pymunk.Segment` shapes and
obstacles :class:`pymunk.Circle` shapes on a static body; :class:`StaticGeometry` mirrors every
static segment and circle of a space into numpy arrays and answers many ray casts or
nearest-surface queries per call, for the per-frame hot path.

Example:
    >>> import pymunk
    >>> space = pymunk.Space()
    >>> wall = add_wall(space, (0, 0), (100, 0), thickness=4)
    >>> post = add_obstacle(space, (50, 60), 10)
    >>> geo = StaticGeometry()
    >>> geo.sync(space)
    True
    >>> hits = geo.raycast([[50, 20]], [[50, -20]])
    >>> bool(hits.hit[0]), float(hits.alpha[0]), hits.normal[0].tolist()
    (True, 0.45, [0.0, 1.0])
    >>> near = geo.nearest([[50, 40]], max_distance=50)
    >>> float(near.distance[0]), geo.shapes[near.shape[0]] is post
    (10.0, True)
"""

from .hits import KIND_NONE, KIND_OBSTACLE, KIND_WALL, NearestHits, RayHits
from .outline import rectangle_outline
from .shapes import (
    GEOMETRY_FILTER,
    WALL_CATEGORY,
    WALL_COLLISION_TYPE,
    WORLD_BOUND,
    add_obstacle,
    add_shapes,
    add_wall,
    add_walls,
    free_removed,
    obstacle_circle,
    remove_shape,
    wall_segments,
)
from .static import StaticGeometry

__all__ = [
    "GEOMETRY_FILTER",
    "KIND_NONE",
    "KIND_OBSTACLE",
    "KIND_WALL",
    "WALL_CATEGORY",
    "WALL_COLLISION_TYPE",
    "WORLD_BOUND",
    "NearestHits",
    "RayHits",
    "StaticGeometry",
    "add_obstacle",
    "add_shapes",
    "add_wall",
    "add_walls",
    "free_removed",
    "obstacle_circle",
    "rectangle_outline",
    "remove_shape",
    "wall_segments",
]
