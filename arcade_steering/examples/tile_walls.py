"""Wall tiles, arcade's PymunkPhysicsEngine and steering: the same walls for all of them.

A top-down level of wall tiles (a ``SpriteList``, as a Tiled tile layer loads it), a player the
engine moves and collides, and a squad that follows it round the walls. The world shares the
engine's space (``SteeringWorld(physics=engine)``), so both see one set of walls:

- ``engine``: the tiles are the engine's static sprites
  (``engine.add_sprite_list(walls, body_type=STATIC)``, one ``pymunk.Poly`` each), and steering
  sees those polygons with no extra call.
- ``sprites``: the tiles are not in the engine; ``world.add_wall_sprites(walls)`` walls round
  their merged outline, and those walls hold the engine's player too.

In both, a click on a tile knocks it down (it leaves its sprite list, and the engine): the
squad and the player go through the gap from the next update.

Run: ``python -m arcade_steering.examples.tile_walls``
(``--help`` for the options, such as ``--headless``)

Keys: 1-2 choose the mode; click sends the player there, or knocks down the tile clicked;
Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import math
import sys

import arcade

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import BLUE, ORANGE, draw_cross

#: The level, top row first: ``#`` is a wall tile.
LEVEL = (
    "#########################",
    "#...........#...........#",
    "#...........#...........#",
    "#....####...#....####...#",
    "#....#..........#.......#",
    "#....#..........#.......#",
    "#.......#####...#...#####",
    "#.......#...............#",
    "#.......#.......#.......#",
    "#####...#...#####.......#",
    "#...........#...........#",
    "#......###..#....###....#",
    "#...........#...........#",
    "#...........#...........#",
    "#########################",
)
SQUAD = 5
#: The engine steps at most this long (arcade advises a constant step).
ENGINE_STEP = 1 / 60
#: The player's round of goals, as fractions of the level's width and height.
ROUND = ((0.8, 0.8), (0.8, 0.2), (0.2, 0.2), (0.2, 0.8))
#: Seconds before the player heads for the next goal of its round.
NEXT_GOAL_EVERY = 6.0


class TileWallsScene(Scene):
    """A player in the engine and a squad steering round the same wall tiles."""

    TITLE = "Wall tiles: the engine's walls are steering walls"
    MODES = ("engine", "sprites")
    KEYS = "click: go there, or knock down a tile"

    def setup(self) -> None:
        rows, columns = len(LEVEL), len(LEVEL[0])
        # Whole pixels: the tiles' edges meet exactly, so their outline merges.
        self.tile = float(max(8, math.floor(min(self.width / columns, self.height / rows))))
        self.engine = arcade.PymunkPhysicsEngine()  # top-down: no gravity
        self.world = steer.SteeringWorld(seed=self.seed, physics=self.engine)
        self.walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList()
        for row, line in enumerate(LEVEL):
            for column, cell in enumerate(line):
                if cell == "#":
                    tile = arcade.SpriteSolidColor(
                        int(self.tile), int(self.tile), color=(96, 104, 120, 255)
                    )
                    tile.position = self.cell_centre(column, row)
                    self.walls.append(tile)
        if self.mode == "engine":
            self.engine.add_sprite_list(self.walls, body_type=arcade.PymunkPhysicsEngine.STATIC)
        else:
            self.world.add_wall_sprites(self.walls)
        self.goal = self.at(*ROUND[0])
        self.arrive = steer.Arrive(self.goal, slowing_radius=60)
        player = self.add_agent(
            self.cell_centre(2, 2),
            steer.PriorityBlend(steer.AvoidWalls(), self.arrive),
            BLUE,
            max_speed=140,
            max_force=600,
        )
        self.engine.add_sprite(player.sprite, mass=2.0, friction=0.2, moment_of_inertia=math.inf)
        self.player = player.sprite
        squad: list[arcade.Sprite] = []
        for index in range(SQUAD):
            follow = steer.WeightedBlend(
                (steer.FollowLeader(self.player, distance=3 * self.tile), 1.0),
                (steer.Separation(self.tile, among=squad), 2.0),
            )
            agent = self.add_agent(
                self.cell_centre(2 + index % 3, 4 + index // 3),
                steer.PriorityBlend(steer.AvoidWalls(), follow),
                ORANGE,
                scale=0.8,
                max_speed=150,
                max_force=500,
            )
            squad.append(agent.sprite)
        self.round_index, self.next_goal_at = 0, NEXT_GOAL_EVERY

    def cell_centre(self, column: int, row: int) -> tuple[float, float]:
        """The centre of a grid cell (``row`` counted from the top), px."""
        return ((column + 0.5) * self.tile, self.height - (row + 0.5) * self.tile)

    def at(self, fx: float, fy: float) -> tuple[float, float]:
        """The point at fractions ``fx``, ``fy`` of the level."""
        return (fx * len(LEVEL[0]) * self.tile, fy * len(LEVEL) * self.tile)

    def send_player(self, goal: tuple[float, float]) -> None:
        self.goal = goal
        self.arrive.target = goal

    # -- running ----------------------------------------------------------------------------

    def before_update(self, dt: float) -> None:
        if self.time >= self.next_goal_at:
            self.next_goal_at = self.time + NEXT_GOAL_EVERY
            self.round_index = (self.round_index + 1) % len(ROUND)
            self.send_player(self.at(*ROUND[self.round_index]))

    def after_update(self, dt: float) -> None:
        # The engine after the world: it moves the player with the velocity steering set and
        # collides it with the walls. Equal steps of at most ENGINE_STEP.
        steps = max(1, math.ceil(dt / ENGINE_STEP - 1e-9))
        for index in range(steps):
            self.engine.step(dt / steps, resync_sprites=index == steps - 1)

    # -- drawing and input ------------------------------------------------------------------

    def draw_under(self) -> None:
        self.walls.draw()
        draw_cross(*self.goal, size=6)

    def on_click(self, x: float, y: float, button: int) -> None:
        hit = arcade.get_sprites_at_point((x, y), self.walls)
        if not hit:
            self.send_player((x, y))
            self.next_goal_at = self.time + NEXT_GOAL_EVERY
            return
        for tile in hit:  # knocked down: out of the engine and of its list, so of steering
            if self.mode == "engine":
                self.engine.remove_sprite(tile)
            tile.remove_from_sprite_lists()


MODES = TileWallsScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = TileWallsScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(TileWallsScene, argv)


if __name__ == "__main__":
    sys.exit(main())
