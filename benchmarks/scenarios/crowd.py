"""A crowd on a route and squads behind leaders, in one cluttered, closed field (issue #7).

The field: 2000 x 2000 px closed by four walls, 100 walls 40-160 px long and 50 obstacles of
radius 10-40 px, seeded, and clear of one closed 20-point route by ``ROUTE_CLEARANCE`` px.

"crowd": every agent follows the route with ``PriorityBlend(AvoidWalls(), AvoidObstacles(),
WeightedBlend((FollowPath(route), 1), (Separation(20), 2)))`` (its own instance each), radius
6 px, solid. At 5,000 agents separation spreads the crowd far beyond the route's tube, into
walls and obstacles.

"squads": the same field, N / 50 squads, each a leader patrolling its own closed route and 49
followers with the demo game's squad behaviour (sight-cone evasion, follow the leader,
separation within the squad). The field is too cluttered for loops placed at random to stay
clear of it, so each squad's route is the crowd's route scaled by up to +-25 px about the
field's centre, started at a random point of it, and walked one way or the other: the squads
spread all round the corridor, going both ways.
"""

from __future__ import annotations

import functools

import numpy as np

import arcade_steering as steer
from arcade_steering.demo import scene as demo

from . import Results, Scenario, median_of, sprites_at
from ._field import CENTER, Field, loop, outside, place_along, scatter

ROUTE = loop(20)
ROUTE_RADIUS = 30.0
#: Walls and obstacles keep this far from the crowd's route (centre line to surface), px.
ROUTE_CLEARANCE = 60.0
AGENT_RADIUS = 6.0
SQUAD_SIZE = 50
#: Squad routes are the crowd's route moved by up to this much, px.
SQUAD_ROUTE_SHIFT = 25.0
#: Followers start along the 300 px of route behind their leader.
SQUAD_BEHIND = 300.0


@functools.cache
def crowd_field() -> Field:
    """The field of both scenarios: seeded, clear of :data:`ROUTE`."""
    return scatter(np.random.default_rng(4), 100, (40, 160), 50, (10, 40), ROUTE, ROUTE_CLEARANCE)


def build_crowd(count: int) -> steer.SteeringWorld:
    """``count`` agents spread along the route, each with its own behaviour tree."""
    rng = np.random.default_rng(5)
    world = crowd_field().world()
    route = steer.Path(ROUTE, radius=ROUTE_RADIUS, closed=True)
    _, sprites = sprites_at(place_along(ROUTE, count, ROUTE_RADIUS / 2, rng))
    for sprite in sprites:
        behavior = steer.PriorityBlend(
            steer.AvoidWalls(),
            steer.AvoidObstacles(),
            steer.WeightedBlend((steer.FollowPath(route), 1), (steer.Separation(20), 2)),
        )
        world.attach(
            sprite, behavior, max_speed=100.0, max_force=300.0, radius=AGENT_RADIUS, solid=True
        )
    return world


def squad_routes(count: int, rng: np.random.Generator) -> list[np.ndarray]:
    """``count`` closed routes ``(20, 2)``: :data:`ROUTE` scaled about the field's centre by
    up to :data:`SQUAD_ROUTE_SHIFT` px, rolled to start at a random point, half of them
    reversed."""
    shift = SQUAD_ROUTE_SHIFT / np.hypot(*(ROUTE - CENTER).T).max()
    routes = []
    for index in range(count):
        points = CENTER + (ROUTE - CENTER) * rng.uniform(1.0 - shift, 1.0 + shift)
        points = np.roll(points, -int(rng.integers(len(points))), axis=0)
        routes.append(points[::-1] if index % 2 else points)
    return routes


def build_squads(count: int) -> steer.SteeringWorld:
    """``count / 50`` squads (at least one): a leader on its own route and its followers
    behind it, the followers of each squad in a SpriteList of their own (as in the demo)."""
    rng = np.random.default_rng(6)
    world = crowd_field().world()
    squads = max(1, count // SQUAD_SIZE)
    routes = squad_routes(squads, rng)
    _, leaders = sprites_at([route[0] for route in routes])
    sizes = np.diff(np.linspace(0, count, squads + 1).astype(int)).tolist()
    for leader, points, size in zip(leaders, routes, sizes, strict=True):
        world.attach(
            leader,
            demo.patrol_behavior(steer.Path(points, radius=ROUTE_RADIUS, closed=True)),
            max_speed=demo.LEADER_SPEED,
            max_force=300.0,
            radius=AGENT_RADIUS,
        )
        behind = place_along(points, size - 1, ROUTE_RADIUS / 2, rng, (-SQUAD_BEHIND, 0.0))
        squad, followers = sprites_at(behind)
        behavior = demo.squad_behavior(leader, squad)
        for follower in followers:
            world.attach(
                follower,
                behavior,
                max_speed=demo.FOLLOWER_SPEED,
                max_force=400.0,
                radius=AGENT_RADIUS,
            )
    return world


SCENARIOS = [
    Scenario("crowd", (100, 1000, 5000), build_crowd, outside),
    Scenario("squads", (1000, 5000), build_squads, outside),
]

BUDGETS = {
    ("crowd", 1000): 2.5,
    ("crowd", 5000): 12.0,
}

#: Five times the agents may cost at most this many times as much.
CROWD_5000_VS_1000 = 5.5
#: Squads (20 leaders, demo behaviour) may cost at most this much more than the crowd.
SQUADS_VS_CROWD = 1.5


def crowd_scales(results: Results) -> list[str]:
    """Crowd 5,000 within 5.5x crowd 1,000, and squads 1,000 within 1.5x crowd 1,000."""
    crowd = median_of(results, "crowd", 1000)
    if crowd is None:
        return []
    failures = []
    big, squads = median_of(results, "crowd", 5000), median_of(results, "squads", 1000)
    if big is not None and big > CROWD_5000_VS_1000 * crowd:
        failures.append(f"crowd N=5000 is {big / crowd:.2f}x crowd N=1000")
    if squads is not None and squads > SQUADS_VS_CROWD * crowd:
        failures.append(f"squads N=1000 is {squads / crowd:.2f}x crowd N=1000")
    return failures


CHECKS = [crowd_scales]
