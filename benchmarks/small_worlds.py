"""Small worlds: the library against a hand-written per-agent loop, side by side (issue #17).

Two compositions, each built twice from the same seed, once with ``arcade_steering`` and once
with the hand-written peer (``benchmarks/peer/``), each with its own real ``arcade.Sprite``s
in ``SpriteList``s:

- ``arrive``: every agent arrives at one shared target (the ``arrive-shared`` scenario of
  ``run.py``: agents spread over a 400 x 2000 px strip, target 1,500-1,900 px away, 60 px/s,
  so they are all still on their way while timed).
- ``arrive-separate``: every agent arrives at a target of its own, kept apart by a Separation
  (``WeightedBlend((Arrive, 1), (Separation(34), 1))``, the composition of issue #34's table):
  agents spread over a 400 x 400 px square, targets 800-1,200 px away, 60 px/s. Every
  component of it has a native step (see the page "Performance").
- ``demo``: the demo game's squad: a leader patrolling its route
  (``PriorityBlend(AvoidWalls, AvoidObstacles, FollowPath)``) and followers with
  ``PriorityBlend(AvoidWalls, AvoidObstacles, EvadeSightCone, WeightedBlend(FollowLeader,
  Separation among the squad))``, solid, in the demo's level (walls, obstacles). Up to 13
  agents (the demo's leader and 12 followers) it is the demo; beyond, ``ceil(N / 13)`` copies
  of the demo's level side by side, each with its own leader, route and squad (sizes as even
  as can be), so every N is as crowded as the demo.

The library's side is built twice: as it runs by default (the native step where the
extension is built and covers the tree) and on numpy only (``ARCADE_STEERING_NATIVE=0``).

Timing: one ``update(1/60)`` of each (the library's ``world.update``, sprite write-back
included; the peer's update, sprite writes included), both in one process, garbage collector
off while timing, in interleaved rounds. Every case (composition and N) is built and warmed
up first; a round then passes over every case, timing ``frames`` updates of the library one
by one and then as many of the peer (library, peer, library, peer, ...), so a busy spell of a
shared machine, which lasts seconds, falls on different cases in different rounds. A figure is
the median over rounds of each round's median, in microseconds. Both worlds of a case are
stepped the same number of times, so they are timed on the same stretch of the simulation.
``--alternate`` interleaves update by update instead: each update then starts with caches
the other one filled, as a game's steering follows its drawing and logic.

Usage::

    python benchmarks/small_worlds.py                   # every N, both compositions, table
    python benchmarks/small_worlds.py --json out.json --plot docs/images/small_worlds.png
    python benchmarks/small_worlds.py --quick           # smoke run: few N, few frames (CI)
    python benchmarks/small_worlds.py --check           # behaviour figures, library vs peer
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import peer

DT = 1 / 60
SIZES = (1, 5, 13, 30, 100, 300, 1000, 3000)
QUICK_SIZES = (1, 13, 100)
COMPOSITIONS = ("arrive", "arrive-separate", "demo")
#: The switch that keeps a world made while it is "0" on numpy.
NATIVE_SWITCH = "ARCADE_STEERING_NATIVE"
#: Agents per copy of the demo's level: its leader and 12 followers.
SQUAD = 13

# -- the two compositions, built twice -------------------------------------------------------


@dataclass
class Side:
    """One implementation of a composition: its update and its agents' sprites.

    Attributes:
        update: ``update(dt)``.
        sprites: Every agent's sprite, in the order the agents were made.
        keep: Sprite lists and worlds to keep alive.
    """

    update: Callable[[float], None]
    sprites: list[arcade.Sprite]
    keep: list[Any] = field(default_factory=list)


@dataclass
class Setup:
    """A composition of ``n`` agents, built with the library and with the peer.

    Attributes:
        name: One of :data:`COMPOSITIONS`.
        n: Number of agents.
        library: The library's side.
        peer: The peer's side.
        info: What the behaviour check needs (target, leaders, routes, walls, ...).
        numpy: The library's side on numpy only (:func:`build_paths`), or None.
        path: Which path the library's side runs, "native" or "numpy".
    """

    name: str
    n: int
    library: Side
    peer: Side
    info: dict[str, Any]
    numpy: Side | None = None
    path: str = "numpy"


def sprites_at(positions: np.ndarray) -> tuple[arcade.SpriteList, list[arcade.Sprite]]:
    """Real sprites at ``positions`` ``(n, 2)`` in a new SpriteList (no spatial hash), as
    ``run.py``'s scenarios make them (a 12 px square: radius 6 px)."""
    sprite_list = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
    sprites = []
    for x, y in np.asarray(positions, dtype=float).tolist():
        sprite = arcade.Sprite(texture, center_x=x, center_y=y)
        sprite_list.append(sprite)
        sprites.append(sprite)
    return sprite_list, sprites


ARRIVE_TARGET = (1900.0, 1000.0)
ARRIVE_SLOWING = 150.0
ARRIVE_TOLERANCE = 2.0
ARRIVE_SPEED = 60.0
ARRIVE_FORCE = 300.0


def build_arrive(n: int) -> Setup:
    """``n`` agents arriving at one shared target (``run.py``'s ``arrive-shared``)."""
    rng = np.random.default_rng(1)
    positions = rng.uniform((0, 0), (400, 2000), (n, 2))

    world = steer.SteeringWorld(seed=0)
    arrive = steer.Arrive(ARRIVE_TARGET, slowing_radius=ARRIVE_SLOWING, tolerance=ARRIVE_TOLERANCE)
    lib_list, lib_sprites = sprites_at(positions)
    for sprite in lib_sprites:
        world.attach(sprite, arrive, max_speed=ARRIVE_SPEED, max_force=ARRIVE_FORCE)

    hand = peer.World()
    peer_list, peer_sprites = sprites_at(positions)
    for sprite in peer_sprites:
        hand.attach(
            sprite,
            peer.Arrive(ARRIVE_TARGET, ARRIVE_SLOWING, ARRIVE_TOLERANCE),
            max_speed=ARRIVE_SPEED,
            max_force=ARRIVE_FORCE,
        )
    return Setup(
        "arrive",
        n,
        Side(world.update, lib_sprites, [world, lib_list]),
        Side(hand.update, peer_sprites, [hand, peer_list]),
        {"target": ARRIVE_TARGET, "tolerance": ARRIVE_TOLERANCE},
    )


SEPARATE_RADIUS = 34.0


def build_arrive_separate(n: int) -> Setup:
    """``n`` agents, each arriving at a target of its own, kept apart by a Separation."""
    rng = np.random.default_rng(2)
    positions = rng.uniform((0, 0), (400, 400), (n, 2))
    targets = positions + rng.uniform(800, 1200, (n, 1)) * [[np.cos(0.6), np.sin(0.6)]]

    world = steer.SteeringWorld(seed=0)
    separation = steer.Separation(SEPARATE_RADIUS)
    lib_list, lib_sprites = sprites_at(positions)
    for sprite, target in zip(lib_sprites, targets.tolist(), strict=True):
        arrive = steer.Arrive(tuple(target), slowing_radius=ARRIVE_SLOWING)
        world.attach(
            sprite,
            steer.WeightedBlend((arrive, 1.0), (separation, 1.0)),
            max_speed=ARRIVE_SPEED,
            max_force=ARRIVE_FORCE,
        )

    hand = peer.World(cell=SEPARATE_RADIUS)
    peer_list, peer_sprites = sprites_at(positions)
    for sprite, target in zip(peer_sprites, targets.tolist(), strict=True):
        behavior = peer.WeightedBlend(
            (peer.Arrive(tuple(target), ARRIVE_SLOWING, ARRIVE_TOLERANCE), 1.0),
            (peer.Separation(SEPARATE_RADIUS), 1.0),
        )
        hand.attach(sprite, behavior, max_speed=ARRIVE_SPEED, max_force=ARRIVE_FORCE)
    return Setup(
        "arrive-separate",
        n,
        Side(world.update, lib_sprites, [world, lib_list]),
        Side(hand.update, peer_sprites, [hand, peer_list]),
        {"target": targets, "tolerance": ARRIVE_TOLERANCE},
    )


@dataclass(frozen=True)
class DemoLevel:
    """The demo's level as plain numbers: walls ``(a, b, thickness)``, obstacles
    ``(centre, radius)``, the patrol route, its tube radius, spawns and size."""

    walls: list[tuple[tuple[float, float], tuple[float, float], float]]
    obstacles: list[tuple[tuple[float, float], float]]
    route: list[tuple[float, float]]
    route_radius: float
    leader_spawn: tuple[float, float]
    squad_spawn: tuple[float, float]
    width: float
    height: float


@cache
def demo_level() -> DemoLevel:
    """Read the demo's level once (through the library's Tiled loader, into a scratch world)."""
    from arcade_steering.demo.scene import LEVEL_FILE
    from arcade_steering.tiled import load_level

    level = load_level(LEVEL_FILE, steer.SteeringWorld(seed=0))
    route = level.paths["patrol"]
    return DemoLevel(
        walls=[(tuple(s.a), tuple(s.b), 2.0 * s.radius) for s in level.walls],
        obstacles=[(tuple(o.offset), o.radius) for o in level.obstacles],
        route=[tuple(p) for p in route.points.tolist()],
        route_radius=route.radius,
        leader_spawn=level.spawns["leader"][0],
        squad_spawn=level.spawns["squad"][0],
        width=level.width,
        height=level.height,
    )


def squad_sizes(n: int, squad: int = SQUAD) -> list[int]:
    """Agents per copy of the level (leader included): ``ceil(n / squad)`` copies, sizes as
    even as can be."""
    squads = max(1, math.ceil(n / squad))
    return np.diff(np.linspace(0, n, squads + 1).astype(int)).tolist()


def build_demo(n: int, squad: int = SQUAD) -> Setup:
    """The demo's squad composition with ``n`` agents (see the module's docstring), up to
    ``squad`` of them in each copy of the level."""
    from arcade_steering.demo import scene as demo

    level = demo_level()
    sizes = squad_sizes(n, squad)
    columns = math.ceil(math.sqrt(len(sizes)))
    rng = np.random.default_rng(0)

    world = steer.SteeringWorld(seed=0)
    shapes = []
    routes, walls = [], []
    lib_sprites, peer_sprites, lib_keep, peer_keep = [], [], [world], []
    lib_leaders, peer_leaders = [], []
    plans = []
    for tile, size in enumerate(sizes):
        ox, oy = (tile % columns) * level.width, (tile // columns) * level.height
        for (ax, ay), (bx, by), thickness in level.walls:
            a, b = (ax + ox, ay + oy), (bx + ox, by + oy)
            world.add_wall(a, b, thickness=thickness)
            shapes.append(peer.wall(a, b, thickness))
            walls.append((*a, *b))
        for (cx, cy), radius in level.obstacles:
            world.add_obstacle((cx + ox, cy + oy), radius)
            shapes.append(peer.obstacle((cx + ox, cy + oy), radius))
        route = [(x + ox, y + oy) for x, y in level.route]
        routes.append(route)
        leader_at = (level.leader_spawn[0] + ox, level.leader_spawn[1] + oy)
        jitter = rng.uniform(-30.0, 30.0, (size - 1, 2))
        squad_at = [
            (level.squad_spawn[0] + ox + dx, level.squad_spawn[1] + oy + dy)
            for dx, dy in jitter.tolist()
        ]
        plans.append((route, leader_at, squad_at))

    hand = peer.World(peer.Level(shapes), cell=demo.SEPARATION_RADIUS)
    peer_keep.append(hand)
    for route, leader_at, squad_at in plans:
        # The library: the demo's own behaviour trees, one per squad, shared by its followers.
        leader_list, squad_list = arcade.SpriteList(), arcade.SpriteList()
        leader = arcade.Sprite(demo.LEADER_TEXTURE, scale=0.75)
        leader.position = leader_at
        leader_list.append(leader)
        world.attach(
            leader,
            demo.patrol_behavior(steer.Path(route, radius=level.route_radius, closed=True)),
            max_speed=demo.LEADER_SPEED,
            max_force=300.0,
            facing="down",
        )
        behavior = demo.squad_behavior(leader, squad_list)
        followers = []
        for position in squad_at:
            follower = arcade.Sprite(demo.FOLLOWER_TEXTURE, scale=0.5)
            follower.position = position
            squad_list.append(follower)
            followers.append(follower)
        for follower in followers:
            world.attach(
                follower,
                behavior,
                max_speed=demo.FOLLOWER_SPEED,
                max_force=400.0,
                facing="down",
            )
        lib_sprites += [leader, *followers]
        lib_leaders.append(leader)
        lib_keep += [leader_list, squad_list]

        # The peer: the same trees written out, one per agent.
        leader_list, squad_list = arcade.SpriteList(), arcade.SpriteList()
        leader = arcade.Sprite(demo.LEADER_TEXTURE, scale=0.75)
        leader.position = leader_at
        leader_list.append(leader)
        head = hand.attach(
            leader,
            peer.PriorityBlend(
                peer.AvoidWalls(),
                peer.AvoidObstacles(),
                peer.FollowPath(peer.Route(route, level.route_radius)),
            ),
            max_speed=demo.LEADER_SPEED,
            max_force=300.0,
            facing="down",
        )
        squad: set[peer.Agent] = set()
        followers = []
        for position in squad_at:
            follower = arcade.Sprite(demo.FOLLOWER_TEXTURE, scale=0.5)
            follower.position = position
            squad_list.append(follower)
            followers.append(follower)
        for follower in followers:
            behavior = peer.PriorityBlend(
                peer.AvoidWalls(),
                peer.AvoidObstacles(),
                peer.EvadeSightCone(head, demo.SIGHT_LENGTH, demo.SIGHT_HALF_ANGLE),
                peer.WeightedBlend(
                    (peer.FollowLeader(head, demo.FOLLOW_DISTANCE), 1.0),
                    (peer.Separation(demo.SEPARATION_RADIUS, among=squad), 2.0),
                ),
            )
            squad.add(
                hand.attach(
                    follower,
                    behavior,
                    max_speed=demo.FOLLOWER_SPEED,
                    max_force=400.0,
                    facing="down",
                )
            )
        peer_sprites += [leader, *followers]
        peer_leaders.append(leader)
        peer_keep += [leader_list, squad_list]

    info = {
        "sizes": sizes,
        "routes": routes,
        "route_radius": level.route_radius,
        "walls": np.array(walls, dtype=float).reshape(-1, 4),
        "wall_radius": np.array([t / 2 for *_, t in level.walls] * len(sizes)),
        "obstacles": np.array(
            [
                (cx + (k % columns) * level.width, cy + (k // columns) * level.height, r)
                for k in range(len(sizes))
                for (cx, cy), r in level.obstacles
            ],
            dtype=float,
        ).reshape(-1, 3),
        "sight_length": demo.SIGHT_LENGTH,
        "sight_half_angle": demo.SIGHT_HALF_ANGLE,
        "leader_facing": 270.0,
    }
    return Setup(
        "demo",
        n,
        Side(world.update, lib_sprites, lib_keep),
        Side(hand.update, peer_sprites, peer_keep),
        info,
    )


BUILDERS: dict[str, Callable[[int], Setup]] = {
    "arrive": build_arrive,
    "arrive-separate": build_arrive_separate,
    "demo": build_demo,
}


def build_paths(name: str, n: int) -> Setup:
    """Composition ``name`` with ``n`` agents, its library side also built on numpy only
    (:attr:`Setup.numpy`), the default side's path in :attr:`Setup.path`."""
    switch = os.environ.get(NATIVE_SWITCH)
    os.environ[NATIVE_SWITCH] = "0"
    try:
        numpy = BUILDERS[name](n).library
    finally:
        if switch is None:
            del os.environ[NATIVE_SWITCH]
        else:
            os.environ[NATIVE_SWITCH] = switch
    setup = BUILDERS[name](n)
    world = setup.library.keep[0]
    setup.numpy = numpy
    setup.path = "native" if world.native_report().native else "numpy"
    return setup


# -- behaviour check -------------------------------------------------------------------------


def positions(sprites: list[arcade.Sprite]) -> np.ndarray:
    """The sprites' positions ``(n, 2)``."""
    return np.array([sprite.position for sprite in sprites], dtype=float).reshape(-1, 2)


def angles(sprites: list[arcade.Sprite]) -> np.ndarray:
    """The sprites' angles ``(n,)``, arcade's clockwise degrees."""
    return np.array([sprite.angle for sprite in sprites], dtype=float)


def wall_crossings(start: np.ndarray, end: np.ndarray, walls: np.ndarray) -> int:
    """How many moves ``start -> end`` ``(n, 2)`` cross a wall's centre line ``(m, 4)``."""
    if not len(start) or not len(walls):
        return 0
    p, r = start[:, None, :], (end - start)[:, None, :]
    q, s = walls[None, :, :2], (walls[:, 2:] - walls[:, :2])[None, :, :]
    den = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    qp = q - p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / den
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / den
    crossed = (den != 0) & (t > 0) & (t <= 1) & (u >= 0) & (u <= 1)
    return int(crossed.any(axis=1).sum())


def wall_depths(points: np.ndarray, walls: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Each point's distance ``(n,)`` to the nearest surface of walls ``(m, 4)`` of half
    thicknesses ``radius`` ``(m,)`` (negative: inside), px."""
    a, b = walls[None, :, :2], walls[None, :, 2:]
    ab = b - a
    t = np.clip(((points[:, None] - a) * ab).sum(-1) / (ab * ab).sum(-1), 0.0, 1.0)
    closest = a + t[..., None] * ab
    return (np.hypot(*np.moveaxis(points[:, None] - closest, -1, 0)) - radius).min(axis=1)


class DemoMetrics:
    """Figures of one side of the demo composition, from its sprites, frame by frame."""

    def __init__(self, setup: Setup, sprites: list[arcade.Sprite]) -> None:
        info = setup.info
        self.info = info
        self.sprites = sprites
        self.paths = [
            steer.Path(route, radius=info["route_radius"], closed=True) for route in info["routes"]
        ]
        starts = np.cumsum([0, *info["sizes"][:-1]])
        self.leader_rows = starts.tolist()
        self.squad = np.repeat(np.arange(len(starts)), info["sizes"])
        self.is_follower = np.ones(len(sprites), dtype=bool)
        self.is_follower[self.leader_rows] = False
        here = positions(sprites)
        self.progress = [
            float(path.project(here[[row]]).distance[0])
            for path, row in zip(self.paths, self.leader_rows, strict=True)
        ]
        self.travelled = np.zeros(len(self.paths))
        self.before = here
        self.frames = 0
        self.follower_frames = 0
        self.in_cone = 0
        self.distance_sum = 0.0
        self.crossings = 0
        self.wall_penetrations = 0
        self.obstacle_penetrations = 0
        self.wall_gap = math.inf
        self.obstacle_gap = math.inf
        self.radii = np.array([0.5 * min(s.width, s.height) for s in sprites])
        self.track: list[np.ndarray] = []

    def record(self) -> None:
        """Add the frame just stepped."""
        info = self.info
        after = positions(self.sprites)
        self.track.append(after)
        self.frames += 1
        # Leaders' progress along their routes, in a window ahead of the last.
        for index, (path, row) in enumerate(zip(self.paths, self.leader_rows, strict=True)):
            near = path.project(after[[row]], near=self.progress[index], window=60.0)
            now = float(near.distance[0])
            self.travelled[index] += float(path.distance_between(self.progress[index], now))
            self.progress[index] = now
        # Followers: distance to their leader, and whether in its sight cone.
        leader_of = np.array(self.leader_rows)[self.squad]
        offset = after - after[leader_of]
        heading = np.radians(info["leader_facing"] - angles(self.sprites)[leader_of])
        ahead = offset[:, 0] * np.cos(heading) + offset[:, 1] * np.sin(heading)
        distance = np.hypot(offset[:, 0], offset[:, 1])
        angle = np.degrees(np.arccos(np.clip(ahead / np.maximum(distance, 1e-9), -1.0, 1.0)))
        inside = (distance <= info["sight_length"]) & (angle <= info["sight_half_angle"])
        follower = self.is_follower
        self.follower_frames += int(follower.sum())
        self.in_cone += int((inside & follower).sum())
        self.distance_sum += float(distance[follower].sum())
        # Walls and obstacles.
        self.crossings += wall_crossings(self.before, after, info["walls"])
        depth = wall_depths(after, info["walls"], info["wall_radius"]) - self.radii
        self.wall_penetrations += int((depth < -1.0).sum())
        self.wall_gap = min(self.wall_gap, float(depth.min()))
        obstacles = info["obstacles"]
        gaps = np.hypot(*np.moveaxis(after[:, None] - obstacles[None, :, :2], -1, 0))
        overlap = self.radii[:, None] + obstacles[None, :, 2] - gaps
        self.obstacle_penetrations += int((overlap > 1.0).any(axis=1).sum())
        self.obstacle_gap = min(self.obstacle_gap, float(-overlap.max()))
        self.before = after

    def summary(self) -> dict[str, float]:
        seconds = self.frames * DT
        followers = max(self.follower_frames, 1)
        return {
            "leader_progress_px_s": round(float(self.travelled.mean()) / seconds, 2),
            "leader_laps": round(
                float((self.travelled / [p.length for p in self.paths]).mean()), 3
            ),
            "follower_distance_px": round(self.distance_sum / followers, 2),
            "sight_cone_fraction": round(self.in_cone / followers, 4),
            "wall_crossings": self.crossings,
            "wall_penetrations": self.wall_penetrations,
            "obstacle_penetrations": self.obstacle_penetrations,
            "closest_to_wall_px": round(self.wall_gap, 2),
            "closest_to_obstacle_px": round(self.obstacle_gap, 2),
        }


class ArriveMetrics:
    """Figures of one side of the arrive composition, from its sprites."""

    def __init__(self, setup: Setup, sprites: list[arcade.Sprite]) -> None:
        self.target = np.array(setup.info["target"])
        self.tolerance = setup.info["tolerance"]
        self.sprites = sprites
        self.frames = 0
        self.all_arrived_at: float | None = None
        self.track: list[np.ndarray] = []

    def record(self) -> None:
        after = positions(self.sprites)
        self.track.append(after)
        self.frames += 1
        distance = np.hypot(*(after - self.target).T)
        self.last = distance
        if self.all_arrived_at is None and (distance <= self.tolerance + 1e-6).all():
            self.all_arrived_at = self.frames * DT

    def summary(self) -> dict[str, float]:
        return {
            "arrived_fraction": round(float((self.last <= self.tolerance + 1e-6).mean()), 4),
            "max_distance_px": round(float(self.last.max()), 3),
            "all_arrived_s": None if self.all_arrived_at is None else round(self.all_arrived_at, 3),
        }


def check(name: str, n: int, frames: int, squad: int = SQUAD) -> dict[str, Any]:
    """Run composition ``name`` with ``n`` agents (for the demo, up to ``squad`` in each
    copy of its level) for ``frames`` updates with both implementations and return each one's
    figures, and how far apart their agents got (px, the same agent at the same frame)."""
    setup = build_demo(n, squad) if name == "demo" else BUILDERS[name](n)
    metric = DemoMetrics if name == "demo" else ArriveMetrics
    library = metric(setup, setup.library.sprites)
    hand = metric(setup, setup.peer.sprites)
    for _ in range(frames):
        setup.library.update(DT)
        library.record()
        setup.peer.update(DT)
        hand.record()
    apart = np.hypot(*np.moveaxis(np.array(library.track) - np.array(hand.track), -1, 0))
    return {
        "composition": name,
        "agents": n,
        "frames": frames,
        **({"squad": squad} if name == "demo" else {}),
        "library": library.summary(),
        "peer": hand.summary(),
        "apart_px_mean": float(f"{apart.mean():.3g}"),
        "apart_px_max": float(f"{apart.max():.3g}"),
    }


# -- timing ----------------------------------------------------------------------------------


def frames_for(n: int) -> int:
    """Updates timed per round: fewer for big N, so a full run takes minutes, not hours."""
    return 200 if n <= 30 else 100 if n <= 100 else 40 if n <= 300 else 25 if n <= 1000 else 10


def time_round(setup: Setup, frames: int, alternate: bool = False) -> dict[str, float]:
    """One round: ``frames`` updates of the library, then as many of the peer, each timed
    alone (or, with ``alternate``, the two update by update in turn); each side's median, µs.
    """
    sides = [("library", setup.library.update), ("peer", setup.peer.update)]
    if setup.numpy is not None:
        sides.append(("numpy", setup.numpy.update))
    plan = sides * frames if alternate else [side for side in sides for _ in range(frames)]
    samples: dict[str, list[float]] = {name: [] for name, _ in sides}
    clock = time.perf_counter
    gc.disable()
    try:
        for name, update in plan:
            start = clock()
            update(DT)
            samples[name].append((clock() - start) * 1e6)
    finally:
        gc.enable()
    return {name: statistics.median(values) for name, values in samples.items()}


def measure(
    cases: list[tuple[str, int, int]], rounds: int, warmup: int, alternate: bool = False
) -> list[dict[str, Any]]:
    """Time every case ``(composition, N, frames)``: each built once (library and peer) and
    warmed up, then ``rounds`` rounds, each a pass over every case timing ``frames``
    updates of the library and then of the peer. A busy spell of the machine lasts seconds,
    so it falls on different cases in different rounds. Returns one row per case: the
    median over rounds of each round's median, µs per update."""
    setups, rows = [], []
    for name, n, frames in cases:
        built = time.perf_counter()
        setup = build_paths(name, n)
        built = time.perf_counter() - built
        for _ in range(warmup):
            setup.library.update(DT)
            setup.peer.update(DT)
            if setup.numpy is not None:
                setup.numpy.update(DT)
        setups.append(setup)
        rows.append(
            {
                "composition": name,
                "agents": n,
                "frames": frames,
                "build_s": round(built, 2),
                "path": setup.path,
            }
        )
    medians: list[dict[str, list[float]]] = [
        {"library": [], "peer": [], "numpy": []} for _ in cases
    ]
    for index in range(rounds):
        print(f"round {index + 1} of {rounds}", file=sys.stderr, flush=True)
        for setup, (_, _, frames), case in zip(setups, cases, medians, strict=True):
            for side, median in time_round(setup, frames, alternate).items():
                case[side].append(median)
    for row, case in zip(rows, medians, strict=True):
        library, hand = statistics.median(case["library"]), statistics.median(case["peer"])
        numpy_only = statistics.median(case["numpy"])
        row.update(
            library_us=round(library, 1),
            peer_us=round(hand, 1),
            numpy_us=round(numpy_only, 1),
            ratio=round(library / hand, 3),
            native_ratio=round(library / numpy_only, 3),
            library_round_us=[round(value, 1) for value in case["library"]],
            peer_round_us=[round(value, 1) for value in case["peer"]],
            numpy_round_us=[round(value, 1) for value in case["numpy"]],
        )
    return rows


HEADER = (
    f"{'composition':<16}{'N':>6}{'path':>8}{'library µs':>13}{'numpy µs':>11}{'peer µs':>11}"
    f"{'library/peer':>14}{'library/numpy':>15}"
)


def print_row(row: dict[str, Any]) -> None:
    print(
        f"{row['composition']:<16}{row['agents']:>6}{row['path']:>8}{row['library_us']:>13.1f}"
        f"{row['numpy_us']:>11.1f}{row['peer_us']:>11.1f}{row['ratio']:>13.2f}x"
        f"{row['native_ratio']:>14.2f}x",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON")
    parser.add_argument("--plot", metavar="PNG", help="draw the results (needs matplotlib)")
    parser.add_argument("--quick", action="store_true", help="smoke run: few N, few frames")
    parser.add_argument("--check", action="store_true", help="behaviour figures, not timing")
    parser.add_argument("--only", choices=COMPOSITIONS, action="append", help="one composition")
    parser.add_argument("--sizes", type=int, nargs="+", help=f"agent counts (default {SIZES})")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (5)")
    parser.add_argument("--frames", type=int, help="updates timed per round (default by N)")
    parser.add_argument("--warmup", type=int, default=60, help="untimed updates first (60)")
    parser.add_argument(
        "--alternate",
        action="store_true",
        help="alternate library and peer update by update within a round (caches cold)",
    )
    parser.add_argument(
        "--squad", type=int, default=SQUAD, help=f"--check: demo agents per level ({SQUAD})"
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or (args.frames is not None and args.frames < 1):
        parser.error("--rounds and --frames must be at least 1")
    names = args.only or list(COMPOSITIONS)
    started = time.perf_counter()
    if args.check:
        for name in names:
            for n in args.sizes or ((13, 30) if name == "demo" else (30,)):
                frames = args.frames or (900 if name == "demo" else 2700)
                print(json.dumps(check(name, n, frames, args.squad)), flush=True)
        return 0
    sizes = args.sizes or (QUICK_SIZES if args.quick else SIZES)
    rounds = 2 if args.quick else args.rounds
    warmup = 3 if args.quick else args.warmup
    cases = [
        (name, n, args.frames or (5 if args.quick else frames_for(n)))
        for n in sizes
        for name in names
    ]
    results = measure(cases, rounds, warmup, args.alternate)
    print(HEADER)
    for row in results:
        print_row(row)
    print(f"took {time.perf_counter() - started:.1f} s")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(
                {"rounds": rounds, "alternate": args.alternate, "results": results}, file, indent=2
            )
    if args.plot:
        from plot_small_worlds import plot

        plot(results, args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
