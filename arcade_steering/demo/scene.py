"""The demo's level and cast: a patrolling leader, its squad, the scout and the flags.

Everything here is plain arcade_steering use that a game would write; ``game.py`` adds input,
drawing and rules on top.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path as FilePath

import arcade
import numpy as np

import arcade_steering as steer
from arcade_steering.tiled import Level, load_level

LEVEL_FILE = FilePath(__file__).with_name("level.tmj")

LEADER_TEXTURE = ":resources:images/topdown_tanks/tank_red.png"
FOLLOWER_TEXTURE = ":resources:images/topdown_tanks/tank_sand.png"
SCOUT_TEXTURE = ":resources:images/space_shooter/playerShip1_blue.png"
FLAG_TEXTURE = ":resources:images/items/flagYellow1.png"

FOLLOWERS = 12
LEADER_SPEED = 80.0
CHASE_SPEED = 125.0
FOLLOWER_SPEED = 120.0
SCOUT_SPEED = 150.0
SIGHT_LENGTH = 150.0
SIGHT_HALF_ANGLE = 32.0
#: The patrolling leader's gaze sweeps this far each side of its way (degrees), there and
#: back in so many seconds, turning at most so fast (degrees per second).
SCAN_HALF_ANGLE = 40.0
SCAN_PERIOD = 5.0
LEADER_TURN_RATE = 120.0
FOLLOW_DISTANCE = 55.0
SEPARATION_RADIUS = 34.0
OBSTACLE_RADIUS = 24.0
#: Radii of the tanks' circles, px: about half the sprites' smaller sides.
LEADER_RADIUS = 14.25
FOLLOWER_RADIUS = 10.5
#: A new route has this many points, each the first clear one of so many random candidates;
#: N tries so many random routes before it keeps the old one.
ROUTE_POINTS = 7
ROUTE_CANDIDATES = 24
ROUTE_TRIES = 100
#: A new follower looks for a free place on this many rings round the squad, in this many
#: directions each.
JOIN_RINGS = 4
JOIN_DIRECTIONS = 12


def patrol_behavior(route: steer.Path) -> steer.SteeringComponent:
    """The leader's everyday behaviour: walk ``route``, round walls and obstacles, its gaze
    sweeping left and right as it goes.

    Args:
        route: The patrol route.

    Returns:
        A new behaviour tree for the leader.
    """
    walk = steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), steer.FollowPath(route))
    return steer.WeightedBlend((walk, 1.0), (steer.Scan(SCAN_HALF_ANGLE, SCAN_PERIOD), 1.0))


def squad_behavior(leader: arcade.Sprite, convoy: arcade.SpriteList) -> steer.SteeringComponent:
    """The followers' behaviour: keep out of the leader's sight (walls hide them), follow it,
    keep apart.

    Args:
        leader: The sprite the squad follows.
        convoy: The leader and its followers: a follower keeps apart from the others and from
            the leader, so that it does not drive under a leader that stops or turns.

    Returns:
        One behaviour tree, meant to be shared by the whole squad.
    """
    return steer.PriorityBlend(
        steer.AvoidWalls(),
        steer.AvoidObstacles(),
        steer.EvadeSightCone(
            leader, length=SIGHT_LENGTH, half_angle=SIGHT_HALF_ANGLE, occluded=True
        ),
        steer.WeightedBlend(
            (steer.FollowLeader(leader, distance=FOLLOW_DISTANCE), 1.0),
            (steer.Separation(SEPARATION_RADIUS, among=convoy), 2.0),
        ),
    )


class PlayerControl(steer.SteeringComponent):
    """Steer towards the velocity the keys ask for: the scout is an agent like the others,
    so walls and obstacles stop it too (a user component, batched like any other)."""

    def __init__(self) -> None:
        self.direction = (0.0, 0.0)

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        desired = np.array(self.direction, dtype=float)[None, :] * ctx.max_speed[:, None]
        return (desired - ctx.velocity) / ctx.response_time[:, None]


class Scene:
    """Builds the level and the cast into a fresh world.

    Args:
        seed: Seed of the steering world.
        followers: Size of the squad.
    """

    def __init__(self, seed: int = 0, followers: int = FOLLOWERS) -> None:
        self.world = steer.SteeringWorld(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.level: Level = load_level(LEVEL_FILE, self.world)
        self.route = self.level.paths["patrol"]
        self.obstacles = list(self.level.obstacles)
        self.wall_segments = np.array(
            [[*wall.a, *wall.b] for wall in self.level.walls], dtype=float
        ).reshape(-1, 4)

        self.leader_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.squad: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        #: The leader and the squad, for the followers' separation.
        self.convoy: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.scout_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.flags: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()

        self.leader = arcade.Sprite(LEADER_TEXTURE, scale=0.75)
        self.leader.position = self.level.spawns["leader"][0]
        self.leader_list.append(self.leader)
        self.convoy.append(self.leader)
        self.world.attach(
            self.leader,
            self.patrol_behavior(),
            max_speed=LEADER_SPEED,
            max_force=300.0,
            radius=LEADER_RADIUS,
            facing="down",
            max_turn_rate=LEADER_TURN_RATE,
        )
        self.squad_behavior = squad_behavior(self.leader, self.convoy)
        spawn = np.array(self.level.spawns["squad"][0])
        for jitter in self.rng.uniform(-30.0, 30.0, (followers, 2)):
            self.add_follower(spawn + jitter)

        self.control = PlayerControl()
        self.scout = arcade.Sprite(SCOUT_TEXTURE, scale=0.3)
        self.scout.position = self.level.spawns["scout"][0]
        self.scout_list.append(self.scout)
        self.world.attach(
            self.scout, self.control, max_speed=SCOUT_SPEED, max_force=900.0, facing="up"
        )

        for position in self.level.spawns["flag"]:
            flag = arcade.Sprite(FLAG_TEXTURE, scale=0.25)
            flag.position = position
            self.flags.append(flag)

    def patrol_behavior(self) -> steer.SteeringComponent:
        """The leader's everyday behaviour on the current route (see :func:`patrol_behavior`)."""
        return patrol_behavior(self.route)

    def chase_behavior(self) -> steer.SteeringComponent:
        """The leader's behaviour once it has seen the scout."""
        return steer.PriorityBlend(
            steer.AvoidWalls(), steer.AvoidObstacles(), steer.Pursue(self.scout)
        )

    def add_follower(self, position: Sequence[float] | None = None) -> None:
        """One more follower, at ``position`` or else beside the squad (:meth:`spot_beside_squad`).

        Args:
            position: ``(x, y)`` px, or None.
        """
        follower = arcade.Sprite(FOLLOWER_TEXTURE, scale=0.5)
        follower.position = tuple(self.spot_beside_squad() if position is None else position)
        self.squad.append(follower)
        self.convoy.append(follower)
        self.world.attach(
            follower,
            self.squad_behavior,
            max_speed=FOLLOWER_SPEED,
            max_force=400.0,
            radius=FOLLOWER_RADIUS,
            facing="down",
        )

    def spot_beside_squad(self) -> np.ndarray:
        """Where a new follower joins: the free place nearest to the squad member nearest to
        the squad's centre (behind the leader if it has no squad), on rings round it.

        Free means clear of walls and obstacles, in sight of that member (no wall between
        them), out of the leader's sight cone and a separation radius from every agent.

        Returns:
            ``(x, y)`` px; the member's own place if no ring has a free one.
        """
        leader = self.world.agent_of(self.leader)
        members = np.array([self.world.agent_of(s).position for s in self.squad]).reshape(-1, 2)
        if len(members):
            centre = members.mean(axis=0)
            anchor = members[np.argmin(np.hypot(*(members - centre).T))]
        else:
            anchor = np.array(leader.position) - FOLLOW_DISTANCE * np.array(leader.heading)
        turns = np.linspace(0.0, 2 * math.pi, JOIN_DIRECTIONS, endpoint=False)
        rings = SEPARATION_RADIUS * np.arange(1, JOIN_RINGS + 1)
        offsets = rings[:, None, None] * np.stack((np.cos(turns), np.sin(turns)), axis=1)
        spots = anchor + offsets.reshape(-1, 2)
        geometry = self.world.geometry
        starts = np.broadcast_to(anchor, spots.shape)
        crowd = np.array([agent.position for agent in self.world.agents])
        gaps = np.linalg.norm(spots[:, None, :] - crowd[None, :, :], axis=2)
        free = (
            ~geometry.nearest(spots, FOLLOWER_RADIUS).found
            & ~geometry.raycast(starts, spots, inflate=FOLLOWER_RADIUS).hit
            & (gaps.min(axis=1) >= SEPARATION_RADIUS)
            & ~self.in_cone(spots)
        )
        return spots[np.argmax(free)] if free.any() else anchor

    def remove_follower(self) -> None:
        """The newest follower leaves the game."""
        if len(self.squad):
            follower = self.squad[-1]
            self.world.detach(follower)
            follower.remove_from_sprite_lists()

    def in_cone(self, points: np.ndarray) -> np.ndarray:
        """Which of ``points`` ``(n, 2)`` lie inside the leader's sight cone, walls or not.

        Returns:
            ``(n,)`` bool.
        """
        return self.world.can_see(
            self.leader, np.asarray(points), SIGHT_LENGTH, SIGHT_HALF_ANGLE, walls=False
        )

    def sees(self, position: tuple[float, float]) -> bool:
        """Whether the leader sees ``position``: inside its cone and not behind a wall."""
        return self.world.can_see(self.leader, position, SIGHT_LENGTH, SIGHT_HALF_ANGLE)

    def new_route(self) -> bool:
        """A new random closed patrol route through open ground, joined from where the leader is.

        The route's points lie round the level's centre in order of angle; each leg keeps
        :meth:`route_clearance` from walls and obstacles (a swept circle of that radius touches
        none), so the squad never has to split round a wall, and the leader has a clear way to
        the route's nearest point.

        Returns:
            Whether the route changed: False (the route kept) if none of :data:`ROUTE_TRIES`
            tries found one.
        """
        leader = self.world.agent_of(self.leader)
        start = np.array([leader.position])
        for _ in range(ROUTE_TRIES):
            points = self._random_loop()
            if points is None:
                continue
            route = steer.Path(points, radius=self.route.radius, closed=True)
            way_on = self.world.geometry.raycast(
                start, route.project(start).point, inflate=leader.radius
            )
            if not way_on.hit[0]:
                self.route = route
                leader.behavior = self.patrol_behavior()
                return True
        return False

    def _random_loop(self) -> np.ndarray | None:
        """:data:`ROUTE_POINTS` random points round the level's centre whose closed polyline
        keeps :meth:`route_clearance` from walls and obstacles, or None if this try failed.

        Point by point, in order of angle: of :data:`ROUTE_CANDIDATES` random distances from
        the centre in the point's direction, the first whose point and whose leg from the last
        point are clear.
        """
        geometry = self.world.geometry
        clearance = self.route_clearance()
        centre = np.array([self.level.width, self.level.height]) / 2
        # Evenly round the centre, each turned by up to 30% of the spacing: no two points
        # crowd one direction (a spike the squad can't follow).
        spacing = 2 * math.pi / ROUTE_POINTS
        angles = spacing * (np.arange(ROUTE_POINTS) + self.rng.uniform(-0.3, 0.3, ROUTE_POINTS))
        points: list[np.ndarray] = []
        for angle in angles + self.rng.uniform(0.0, 2 * math.pi):
            reach = self.rng.uniform(0.45, 0.9, (ROUTE_CANDIDATES, 1)) * centre
            candidates = centre + reach * np.array([math.cos(angle), math.sin(angle)])
            clear = ~geometry.nearest(candidates, clearance).found
            if points:
                leg_starts = np.broadcast_to(points[-1], candidates.shape)
                clear &= ~geometry.raycast(leg_starts, candidates, inflate=clearance).hit
            if not clear.any():
                return None
            points.append(candidates[np.argmax(clear)])
        closing = geometry.raycast(points[-1][None], points[0][None], inflate=clearance)
        return None if closing.hit[0] else np.array(points)

    def route_clearance(self) -> float:
        """How far a patrol route's centre line keeps from walls and obstacles, px: the
        route's radius plus the larger tank's."""
        return self.route.radius + max(LEADER_RADIUS, FOLLOWER_RADIUS)

    def add_obstacle(self, position: tuple[float, float]) -> None:
        """A new round obstacle where the player clicked."""
        self.obstacles.append(self.world.add_obstacle(position, OBSTACLE_RADIUS))

    def remove_obstacle_near(self, position: tuple[float, float], reach: float = 80.0) -> None:
        """Remove the obstacle nearest to ``position`` within ``reach`` px."""
        if not self.obstacles:
            return
        distances = [math.dist(position, tuple(o.offset)) for o in self.obstacles]
        nearest = int(np.argmin(distances))
        if distances[nearest] <= reach:
            self.world.remove_shape(self.obstacles.pop(nearest))
