"""Runnable examples, one small scene per behaviour family (:data:`EXAMPLES`).

``python -m arcade_steering.examples`` lists them; run one with
``python -m arcade_steering.examples.<name>`` (``--help`` for its options: ``--headless
--frames N --screenshot PATH`` run it without a window).

Every module has ``make_scene(width, height, mode)`` (a scene with ``update(dt)`` and
``draw()``, usable without a window loop), ``MODES`` and ``main(argv=None)``.
"""

#: The example modules, in the order of the docs, with what each one shows.
EXAMPLES = {
    "seek_arrive": "Seek, Flee, Arrive, Pursue, Evade, Wander",
    "paths": "FollowPath, FollowWaypoints, StayOnPath",
    "walls_obstacles": "AvoidWalls, AvoidObstacles, solid agents, RunningSum",
    "context_steering": "ContextSteering round dead ends where a weighted blend stays stuck",
    "flocking": "Separation, Alignment, Cohesion, AvoidAgents, and a blended flock",
    "leader": "FollowLeader, EvadeSightCone, OffsetPursuit in formation",
    "doorway": "Queue: a crowd through a doorway one agent wide",
    "looking": "Face, Scan, LookWhereYouAreGoing: looking apart from the way",
    "tactics": "Hide, Interpose, Containment, MatchVelocity, and line of sight",
    "flow_field": "FlowField and FollowFlowField",
    "tiled_astar": "a Tiled level with load_level and a path from arcade's A*",
    "camera": "a level larger than the window, scrolled with arcade.Camera2D",
    "physics": "agents driven through arcade.PymunkPhysicsEngine, pushing crates",
    "platformer": "Jump: a run-up and a jump onto a ledge, side view, with the engine's gravity",
    "tile_walls": "wall tiles as walls for the engine and steering alike, knocked down by clicks",
}
