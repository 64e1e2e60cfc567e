"""Craig Reynolds' steering behaviours for arcade 3.x sprites, batched with numpy.

Attach a behaviour to a sprite, call ``world.update(delta_time)`` from ``on_update``::

    import arcade_steering as steer

    world = steer.SteeringWorld(seed=0)
    world.attach(ship, steer.PriorityBlend(steer.Flee(mine, panic_distance=80),
                                           steer.Arrive(dock)),
                 max_speed=160, max_force=400)
"""

from . import formations, params, slots, testing
from ._arcade.sprite_walls import SpriteWalls
from ._core.component import SteeringComponent
from ._core.context import SteeringContext
from ._core.snapshot import WorldSnapshot
from ._native.report import NativeBatch, NativeReport
from .agent import SteeringAgent
from .behaviors.avoid import AvoidObstacles, AvoidWalls
from .behaviors.avoid_agents import AvoidAgents
from .behaviors.containment import Containment
from .behaviors.context_steering import ContextSteering
from .behaviors.flow import FollowFlowField
from .behaviors.group import Alignment, Cohesion, Separation
from .behaviors.jump import Jump, JumpPlan, UnreachableJump, plan_jump
from .behaviors.leader import FollowLeader, OffsetPursuit
from .behaviors.look import Face, LookWhereYouAreGoing, Scan
from .behaviors.paths import FollowPath, StayOnPath
from .behaviors.queueing import Queue
from .behaviors.seek import Arrive, Evade, Flee, Pursue, Seek
from .behaviors.sight_cone import EvadeSightCone
from .behaviors.tactics import Hide, Interpose, MatchVelocity
from .behaviors.wander import Wander
from .behaviors.waypoints import FollowWaypoints
from .combine import PriorityBlend, WeightedBlend
from .flowfield import FlowField
from .path import Path
from .replay import Replay, ReplayFrame, ReplayMismatchError
from .saves import SaveFileError, load_world, save_world
from .tree_data import TreeDataError, from_dict, to_dict
from .world import SteeringWorld

#: The version of the distribution (pyproject.toml reads it from here).
__version__ = "0.1.0"

__all__ = [
    "Alignment",
    "Arrive",
    "AvoidAgents",
    "AvoidObstacles",
    "AvoidWalls",
    "Cohesion",
    "Containment",
    "ContextSteering",
    "Evade",
    "EvadeSightCone",
    "Face",
    "Flee",
    "FlowField",
    "FollowFlowField",
    "FollowLeader",
    "FollowPath",
    "FollowWaypoints",
    "Hide",
    "Interpose",
    "Jump",
    "JumpPlan",
    "LookWhereYouAreGoing",
    "MatchVelocity",
    "NativeBatch",
    "NativeReport",
    "OffsetPursuit",
    "Path",
    "PriorityBlend",
    "Pursue",
    "Queue",
    "Replay",
    "ReplayFrame",
    "ReplayMismatchError",
    "SaveFileError",
    "Scan",
    "Seek",
    "Separation",
    "SpriteWalls",
    "StayOnPath",
    "SteeringAgent",
    "SteeringComponent",
    "SteeringContext",
    "SteeringWorld",
    "TreeDataError",
    "UnreachableJump",
    "Wander",
    "WeightedBlend",
    "WorldSnapshot",
    "formations",
    "from_dict",
    "load_world",
    "params",
    "plan_jump",
    "save_world",
    "slots",
    "testing",
    "to_dict",
]
