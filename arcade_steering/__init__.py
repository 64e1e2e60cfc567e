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
from ._core.snapshot import WorldSnapshot
from ._native.report import NativeBatch, NativeReport
from .agent import SteeringAgent
from .behaviors.avoid import AvoidObstacles as AvoidObstacles
from .behaviors.avoid import AvoidWalls as AvoidWalls
from .behaviors.avoid_agents import AvoidAgents as AvoidAgents
from .behaviors.containment import Containment as Containment
from .behaviors.context_steering import ContextSteering as ContextSteering
from .behaviors.flow import FollowFlowField as FollowFlowField
from .behaviors.group import Alignment as Alignment
from .behaviors.group import Cohesion as Cohesion
from .behaviors.group import Separation as Separation
from .behaviors.jump import Jump as Jump
from .behaviors.jump import JumpPlan, UnreachableJump, plan_jump
from .behaviors.leader import FollowLeader as FollowLeader
from .behaviors.leader import OffsetPursuit as OffsetPursuit
from .behaviors.look import Face as Face
from .behaviors.look import LookWhereYouAreGoing as LookWhereYouAreGoing
from .behaviors.look import Scan as Scan
from .behaviors.paths import FollowPath as FollowPath
from .behaviors.paths import StayOnPath as StayOnPath
from .behaviors.queueing import Queue as Queue
from .behaviors.seek import (
    Arrive as Arrive,
)
from .behaviors.seek import (
    Evade as Evade,
)
from .behaviors.seek import (
    Flee as Flee,
)
from .behaviors.seek import (
    Pursue as Pursue,
)
from .behaviors.seek import (
    Seek as Seek,
)
from .behaviors.sight_cone import EvadeSightCone as EvadeSightCone
from .behaviors.tactics import Hide as Hide
from .behaviors.tactics import Interpose as Interpose
from .behaviors.tactics import MatchVelocity as MatchVelocity
from .behaviors.wander import Wander as Wander
from .behaviors.waypoints import FollowWaypoints as FollowWaypoints
from .combine import PriorityBlend as PriorityBlend
from .combine import WeightedBlend as WeightedBlend
from .combine.running_sum import RunningSum as RunningSum
from .component.base import Combiner, SteeringComponent
from .component.context import SteeringContext
from .flowfield import FlowField
from .path import Path
from .replay import Replay, ReplayFrame, ReplayMismatchError
from .saves import SaveFileError, load_world, save_world
from .tree_data import BUILT_IN, TreeDataError, from_dict, to_dict
from .world import SteeringWorld

#: The version of the distribution (pyproject.toml reads it from here).
__version__ = "0.1.0"

__all__ = [
    "Combiner",
    "FlowField",
    "JumpPlan",
    "NativeBatch",
    "NativeReport",
    "Path",
    "Replay",
    "ReplayFrame",
    "ReplayMismatchError",
    "SaveFileError",
    "SpriteWalls",
    "SteeringAgent",
    "SteeringComponent",
    "SteeringContext",
    "SteeringWorld",
    "TreeDataError",
    "UnreachableJump",
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
# The built-in behaviours and combiners export themselves: each registers where it is defined.
# (The ``X as X`` imports above only tell type checkers and editors of the ones that were there
# before the registry; a new one needs no line here.)
globals().update(BUILT_IN)
__all__ += sorted(BUILT_IN)
