"""A level larger than the window, scrolled with ``arcade.Camera2D``.

The level is three windows wide and three high. A red leader patrols a long loop with its
squad (FollowLeader, Separation, EvadeSightCone), a flock roams the rest, and everyone steers
round the walls and posts, on screen or not. The camera follows the leader; a minimap (a
second ``Camera2D`` whose projection is the whole level) shows where the window is.

Everything of the level is drawn in world coordinates inside ``with camera.activate():``,
the debug overlay included: ``world.draw_debug()`` draws with whatever camera is active, so
called there its lines sit on the agents whatever the scroll. The help line is drawn after,
with the window's default camera. Clicks arrive in screen coordinates:
``camera.unproject((x, y))`` turns them into world coordinates.

Run: ``python -m arcade_steering.examples.camera``
(``--help`` for the options, such as ``--headless``)

Keys: F toggles following the leader; arrows pan while not following; click adds a post
where you click; Space toggles the debug overlay; T trails; P pause; R restart; Esc quit.
"""

from __future__ import annotations

import sys

import arcade
import numpy as np

import arcade_steering as steer

from ._base import Scene, run
from ._drawing import GREEN, OBSTACLE_COLOR, ORANGE, RED, WALL_COLOR, draw_path, point_list

LEVEL_SCALE = 3  # the level is this many windows wide and high
FLOCK = 30
SQUAD = 8
PAN_STEP = 120.0
MINIMAP_FRACTION = 0.25  # of the window's width
MINIMAP_BACKGROUND = (10, 12, 16)
#: How quickly the camera catches up with the leader, per second.
CAMERA_RATE = 4.0
PAN_KEYS = {
    arcade.key.LEFT: (-1, 0),
    arcade.key.RIGHT: (1, 0),
    arcade.key.UP: (0, 1),
    arcade.key.DOWN: (0, -1),
}


class CameraScene(Scene):
    """A scrolling level: the world is larger than the part of it on screen."""

    TITLE = "Camera2D: a level larger than the window"
    MODES = ("follow",)
    KEYS = "F follow   arrows pan   click adds a post"

    def setup(self) -> None:
        self.level_width = LEVEL_SCALE * self.width
        self.level_height = LEVEL_SCALE * self.height
        w, h = self.level_width, self.level_height
        world = self.world
        world.add_walls([(8, 8), (w - 8, 8), (w - 8, h - 8), (8, h - 8)], closed=True)
        for (ax, ay), (bx, by) in [
            ((0.4, 0.35), (0.6, 0.35)),
            ((0.5, 0.45), (0.5, 0.65)),
            ((0.05, 0.5), (0.12, 0.5)),
            ((0.88, 0.3), (0.95, 0.3)),
            ((0.7, 0.88), (0.7, 0.95)),
        ]:
            world.add_wall((ax * w, ay * h), (bx * w, by * h), thickness=8)

        loop = [(0.2, 0.2), (0.5, 0.15), (0.8, 0.2), (0.85, 0.5), (0.8, 0.8), (0.5, 0.85)]
        loop += [(0.2, 0.8), (0.15, 0.5)]
        self.route = steer.Path([(x * w, y * h) for x, y in loop], radius=24.0, closed=True)
        posts = self.rng.uniform((60, 60), (w - 60, h - 60), (60, 2))
        clear = self.route.project(posts).offset > 90.0
        for x, y in posts[clear][:18]:
            world.add_obstacle((x, y), float(self.rng.uniform(16, 32)))

        avoid = (steer.AvoidWalls(), steer.AvoidObstacles())
        self.leader = self.add_agent(
            self.route.points[0],
            steer.PriorityBlend(*avoid, steer.FollowPath(self.route)),
            RED,
            scale=1.4,
            max_speed=90,
            max_force=300,
        )
        squad: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        squad_behavior = steer.PriorityBlend(
            *avoid,
            steer.EvadeSightCone(self.leader.sprite, length=120, half_angle=30),
            steer.WeightedBlend(
                (steer.FollowLeader(self.leader.sprite, distance=50), 1.0),
                (steer.Separation(30, among=squad), 2.0),
            ),
        )
        for offset in self.rng.normal(0.0, 30.0, (SQUAD, 2)):
            start = self.route.points[0] + offset - (0.0, 60.0)
            agent = self.add_agent(start, squad_behavior, ORANGE, max_speed=120, max_force=400)
            squad.append(agent.sprite)

        flock = steer.PriorityBlend(
            *avoid,
            steer.WeightedBlend(
                (steer.Separation(30.0), 2.0),
                (steer.Alignment(60.0), 1.0),
                (steer.Cohesion(70.0), 0.6),
                (steer.Wander(), 0.3),
            ),
        )
        boids: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for start in self.rng.uniform((0.35 * w, 0.5 * h), (0.65 * w, 0.75 * h), (FLOCK, 2)):
            agent = self.add_agent(start, flock, GREEN, max_speed=100, max_force=400, trail=False)
            boids.append(agent.sprite)
        self.groups = [(boids, GREEN), (squad, ORANGE), ([self.leader.sprite], RED)]

        self.following = True
        self.view_center = np.array(self.leader.position, dtype=float)
        # Cameras are made at the first draw: they need a window.
        self.camera: arcade.Camera2D | None = None
        self.minimap: arcade.Camera2D | None = None

    # -- camera -----------------------------------------------------------------------------

    def after_update(self, dt: float) -> None:
        if self.following:
            # Ease towards the leader, exponentially: the same at any frame rate.
            catch_up = 1.0 - np.exp(-CAMERA_RATE * dt)
            self.view_center += (np.array(self.leader.position) - self.view_center) * catch_up
        self._clamp_view()

    def _clamp_view(self) -> None:
        half = np.array([self.width, self.height]) / 2
        self.view_center = np.clip(
            self.view_center, half, np.array([self.level_width, self.level_height]) - half
        )

    def draw(self) -> None:
        camera, minimap = self._cameras()
        x, y = self.view_center
        camera.position = (x, y)
        with camera.activate():
            super().draw()  # level, trails, sprites and the debug overlay, in world space
        with minimap.activate():
            self._draw_minimap(minimap)

    def _cameras(self) -> tuple[arcade.Camera2D, arcade.Camera2D]:
        """The view's camera and the minimap's, made at the first call."""
        if self.camera is None or self.minimap is None:
            self.camera = arcade.Camera2D(viewport=arcade.LBWH(0, 0, self.width, self.height))
            # The minimap: a small viewport in the corner, its projection the whole level.
            w, h = self.level_width, self.level_height
            size = MINIMAP_FRACTION * self.width / w
            self.minimap = arcade.Camera2D(
                viewport=arcade.LBWH(self.width - w * size - 8, 8, w * size, h * size),
                position=(w / 2, h / 2),
                projection=arcade.LRBT(-w / 2, w / 2, -h / 2, h / 2),
            )
        return self.camera, self.minimap

    def _draw_minimap(self, minimap: arcade.Camera2D) -> None:
        # In level coordinates at 1/12 scale or so: sizes are in level pixels, made large.
        w, h = self.level_width, self.level_height
        scale = w / minimap.viewport.width  # level px per screen px
        arcade.draw_lrbt_rectangle_filled(0, w, 0, h, MINIMAP_BACKGROUND)
        geometry = self.world.geometry
        ends = np.empty((2 * len(geometry.segment_a), 2))
        ends[0::2], ends[1::2] = geometry.segment_a, geometry.segment_b
        arcade.draw_lines(point_list(ends), WALL_COLOR, 2 * scale)
        for (x, y), radius in zip(
            geometry.circle_center.tolist(), geometry.circle_radius.tolist(), strict=True
        ):
            arcade.draw_circle_filled(x, y, radius, OBSTACLE_COLOR)
        for sprites, color in self.groups:
            arcade.draw_points([sprite.position for sprite in sprites], color, 3 * scale)
        x, y = self.view_center
        half_w, half_h = self.width / 2, self.height / 2
        arcade.draw_lrbt_rectangle_outline(
            x - half_w, x + half_w, y - half_h, y + half_h, arcade.color.WHITE, scale
        )

    def draw_under(self) -> None:
        draw_path(self.route)

    # -- input ------------------------------------------------------------------------------

    def on_key(self, symbol: int) -> None:
        if symbol == arcade.key.F:
            self.following = not self.following
        elif symbol in PAN_KEYS and not self.following:
            self.view_center += np.array(PAN_KEYS[symbol], dtype=float) * PAN_STEP
            self._clamp_view()

    def on_click(self, x: float, y: float, button: int) -> None:
        if self.camera is not None:
            wx, wy, _ = self.camera.unproject((x, y))
            self.world.add_obstacle((wx, wy), 20)


MODES = CameraScene.MODES
#: ``make_scene(width, height, mode=None, seed=0)``: the scene, no window needed.
make_scene = CameraScene


def main(argv: list[str] | None = None) -> int:
    """Open the example in a window, or run it headless (``--help`` for the options)."""
    return run(CameraScene, argv)


if __name__ == "__main__":
    sys.exit(main())
