"""Runnable examples, one small scene per behaviour family.

Run one with ``python -m arcade_steering.examples.<name>``:

- ``seek_arrive``: Seek, Flee, Arrive, Pursue, Evade, Wander.
- ``paths``: FollowPath, FollowWaypoints, StayOnPath.
- ``walls_obstacles``: AvoidWalls, AvoidObstacles, solid agents.
- ``flocking``: Separation, Alignment, Cohesion, AvoidAgents, and a blended flock.
- ``leader``: FollowLeader, EvadeSightCone, OffsetPursuit in formation.
- ``flow_field``: FlowField and FollowFlowField.
- ``tiled_astar``: a Tiled level with ``load_level`` and a path from ``arcade``'s A*.
- ``camera``: a level larger than the window, scrolled with ``arcade.Camera2D``.
- ``physics``: agents driven through ``arcade.PymunkPhysicsEngine``, pushing crates.

Every module has ``make_scene(width, height, mode)`` (a scene with ``update(dt)`` and
``draw()``, usable without a window loop), ``MODES`` and ``main()``.
"""

#: The example modules, in the order of the docs.
EXAMPLES = (
    "seek_arrive",
    "paths",
    "walls_obstacles",
    "flocking",
    "leader",
    "flow_field",
    "tiled_astar",
    "camera",
    "physics",
)
