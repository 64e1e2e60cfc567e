"""A Tiled level and A*: ``load_level`` for the geometry, ``Path.from_astar`` for the route.

``tiled_level.tmj`` (next to this file; open it in Tiled) has four object layers: ``walls``
(a rectangle border, a rectangle keep and polylines, 6 px thick), ``obstacles`` (circles),
``paths`` (the guard's ``patrol`` polygon) and ``spawns`` (named points: ``seeker``,
``guard`` and several ``goal``). ``arcade_steering.tiled.load_level`` adds the walls and
obstacles to the world as pymunk shapes and returns the routes and spawn points.

For A*, arcade needs sprites to test against: every wall segment becomes a thin rotated
``SpriteSolidColor`` and every obstacle a ``SpriteCircle``. An ``arcade.AStarBarrierList``
then marks the grid points where a probe as wide as the agent plus a margin would touch
one (the dots), ``arcade.astar_calculate_path`` finds the grid points to the goal and
``Path.from_astar`` turns them into a path, straight runs merged. The blue seeker follows
it (``FollowPath`` with a short look-ahead, for a narrow path) to each goal in turn; the red
guard walks its Tiled patrol round the keep.

Run: ``python -m arcade_steering.examples.tiled_astar``
(``--help`` for the options, such as ``--headless``)

Keys: click sets the seeker's next goal; Space toggles the debug overlay; T trails;
P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path as FilePath

import arcade
import numpy as np

import arcade_steering as steer
from arcade_steering.tiled import Level, load_level

from ._base import Scene, run
from ._drawing import BLUE, GREY, RED, draw_cross, draw_path

LEVEL_FILE = FilePath(__file__).with_name("tiled_level.tmj")
#: The map's own size, px; a scene of another size scales the level to fit.
MAP_WIDTH, MAP_HEIGHT = 640, 400
GRID = 16  # px of the map, like its tiles
SEEKER_RADIUS = 7.0
CLEARANCE = 5.0  # px kept between the seeker's circle and walls, on top of its radius
BARRIER_DOT = (220, 90, 90, 150)


def barrier_sprites(level: Level) -> arcade.SpriteList[arcade.Sprite]:
    """Sprites covering the level's walls and obstacles, for ``arcade.AStarBarrierList``."""
    sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    for wall in level.walls:
        (ax, ay), (bx, by) = wall.a, wall.b
        thickness = max(2.0, 2.0 * wall.radius)
        block = arcade.SpriteSolidColor(
            int(math.dist(wall.a, wall.b) + thickness), int(thickness), color=arcade.color.WHITE
        )
        block.position = ((ax + bx) / 2, (ay + by) / 2)
        block.angle = -math.degrees(math.atan2(by - ay, bx - ax))  # arcade: clockwise degrees
        sprites.append(block)
    for circle in level.obstacles:
        post = arcade.SpriteCircle(max(1, round(circle.radius)), arcade.color.WHITE)
        x, y = circle.offset
        post.position = (x, y)
        sprites.append(post)
    return sprites


class TiledAStarScene(Scene):
    """A seeker routed by A* through a Tiled level, and a guard on the level's patrol."""

    TITLE = "Tiled level and A*"
    MODES = ("astar",)
    KEYS = "click sets a goal"

    def setup(self) -> None:
        scaling = min(self.width / MAP_WIDTH, self.height / MAP_HEIGHT)
        self.level = load_level(LEVEL_FILE, self.world, scaling=scaling)
        self.grid = round(GRID * scaling)

        # A* over the level: a probe as wide as the seeker plus the clearance.
        probe_size = round(2 * (SEEKER_RADIUS + CLEARANCE) * scaling)
        self.probe = arcade.SpriteSolidColor(probe_size, probe_size)
        self.barriers = arcade.AStarBarrierList(
            self.probe,
            barrier_sprites(self.level),
            self.grid,
            0,
            round(self.level.width),
            0,
            round(self.level.height),
        )
        self.blocked = np.array(self.barriers.barrier_list, dtype=float) * self.grid

        self.goals = list(self.level.spawns["goal"])
        self.seeker = self.add_agent(
            self.level.spawns["seeker"][0],
            steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(self.goals[0])),
            BLUE,
            max_speed=110,
            max_force=500,
            radius=SEEKER_RADIUS * scaling,
        )
        self.route: steer.Path | None = None
        self.head_for(self.goals[0])

        patrol = self.level.paths["patrol"]
        self.add_agent(
            self.level.spawns["guard"][0],
            steer.PriorityBlend(steer.AvoidObstacles(), steer.FollowPath(patrol)),
            RED,
            scale=1.3,
            max_speed=60,
            max_force=300,
        )

    def head_for(self, goal: tuple[float, float]) -> None:
        """Route the seeker to ``goal`` with A*; stay put if there is no way."""
        points = arcade.astar_calculate_path(self.seeker.position, goal, self.barriers)
        if points is None or len(points) < 2:
            return
        self.goal = goal
        # The points are the grid points A* found free (no grid_size: keep them as they are).
        self.route = steer.Path.from_astar(points, radius=self.grid * 0.6)
        follow = steer.FollowPath(self.route, prediction=0.1, look_ahead=0.15, tolerance=4.0)
        self.seeker.behavior = steer.PriorityBlend(steer.AvoidWalls(), follow)

    def after_update(self, dt: float) -> None:
        if self.route is None:
            return
        end = self.route.points[-1]
        if math.dist(self.seeker.position, end) < 6.0 and self.seeker.speed < 5.0:
            # Arrived: on to the next goal of the level's list.
            index = self.goals.index(self.goal) if self.goal in self.goals else -1
            self.head_for(self.goals[(index + 1) % len(self.goals)])

    def draw_under(self) -> None:
        if self.show_debug and len(self.blocked):
            arcade.draw_points(self.blocked.tolist(), BARRIER_DOT, 3)
        draw_path(self.level.paths["patrol"], (44, 40, 40))
        if self.route is not None:
            draw_path(self.route, (40, 52, 70))
            draw_cross(*self.goal)
        for x, y in self.goals:
            arcade.draw_circle_outline(x, y, 8, (*GREY, 150), 1)

    def on_click(self, x: float, y: float, button: int) -> None:
        self.head_for((x, y))


MODES = TiledAStarScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = TiledAStarScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(TiledAStarScene, argv)


if __name__ == "__main__":
    sys.exit(main())
