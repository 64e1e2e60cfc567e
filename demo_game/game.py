"""Sneak past the patrol: collect every flag without being seen by the red leader.

A leader patrols a route, its squad of tanks follows it, keeps apart, steers round walls and
obstacles and keeps out of the leader's sight cone. You are the blue scout. If the leader sees
you it gives chase (its behaviour is swapped at run time) and the squad follows; caught means
the round is over.

Controls: WASD / arrows move the scout; Space toggles the steering debug overlay; left click
adds an obstacle, right click removes the nearest; N makes a new random patrol route; + / -
add or remove followers; P pauses; R restarts; F1 shows help; Esc quits.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque

import arcade
import numpy as np

from .scene import SIGHT_HALF_ANGLE, SIGHT_LENGTH, Scene

WINDOW_WIDTH = 1280
WINDOW_HEIGHT = 720
WINDOW_TITLE = "arcade_steering: sneak past the patrol"
BACKGROUND = (30, 36, 30)
WALL_COLOR = (200, 190, 160)
OBSTACLE_COLOR = (96, 120, 88)
ROUTE_COLOR = (230, 220, 120, 40)
ROUTE_LINE_COLOR = (230, 220, 120, 120)
CONE_COLOR = (255, 80, 60, 60)
CONE_ALERT_COLOR = (255, 40, 40, 120)
FLAG_REACH = 24.0
GIVE_UP_SECONDS = 3.0
#: The HUD shows the median steering time of this many updates (one second at 60 FPS).
STEERING_WINDOW = 60
KEYS = {
    arcade.key.W: (0, 1),
    arcade.key.UP: (0, 1),
    arcade.key.S: (0, -1),
    arcade.key.DOWN: (0, -1),
    arcade.key.A: (-1, 0),
    arcade.key.LEFT: (-1, 0),
    arcade.key.D: (1, 0),
    arcade.key.RIGHT: (1, 0),
}
HELP = (
    "WASD/arrows move   Space debug   click +obstacle   right click -obstacle   "
    "N new route   +/- followers   P pause   R restart   F1 help   Esc quit"
)


class GameView(arcade.View):
    """The demo game.

    Args:
        seed: Seed of the steering world (and of random routes and spawns).
        followers: Size of the squad at the start of a round.
        debug: Start with the debug overlay on.
    """

    def __init__(self, seed: int = 0, followers: int = 12, debug: bool = False) -> None:
        super().__init__()
        self.background_color = BACKGROUND
        self.seed = seed
        self.followers = followers
        self.show_debug = debug
        self.show_help = False
        self.paused = False
        self.held: set[int] = set()
        self.hud = arcade.Text("", 12, WINDOW_HEIGHT - 26, arcade.color.WHITE_SMOKE, 13)
        self.banner = arcade.Text(
            "",
            WINDOW_WIDTH / 2,
            WINDOW_HEIGHT / 2,
            arcade.color.WHITE,
            28,
            anchor_x="center",
            anchor_y="center",
            bold=True,
        )
        self.help = arcade.Text(HELP, 12, 12, arcade.color.LIGHT_GRAY, 11)
        self.restart()

    def on_show_view(self) -> None:
        # arcade.get_fps() counts frames only while timings are on.
        if not arcade.timings_enabled():
            arcade.enable_timings()

    def restart(self) -> None:
        """A new round: level, cast and score from scratch."""
        self.scene = Scene(self.seed, self.followers)
        self.score = 0
        self.elapsed = 0.0
        self.state = "sneaking"  # "chased", "caught", "won"
        self.unseen_for = 0.0
        #: Milliseconds of the last ``world.update`` (sprite write-back included).
        self.steering_ms = 0.0
        #: The same for the last :data:`STEERING_WINDOW` updates, for the HUD's median.
        self.recent_steering_ms: deque[float] = deque(maxlen=STEERING_WINDOW)
        self.held.clear()

    # -- input ------------------------------------------------------------------------------

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in KEYS:
            self.held.add(symbol)
        elif symbol == arcade.key.SPACE:
            self.show_debug = not self.show_debug
        elif symbol == arcade.key.N:
            self.scene.new_route()
        elif symbol in (arcade.key.PLUS, arcade.key.EQUAL, arcade.key.NUM_ADD):
            self.scene.add_follower()
        elif symbol in (arcade.key.MINUS, arcade.key.NUM_SUBTRACT):
            self.scene.remove_follower()
        elif symbol == arcade.key.P:
            self.paused = not self.paused
        elif symbol == arcade.key.R:
            self.restart()
        elif symbol == arcade.key.F1:
            self.show_help = not self.show_help
        elif symbol == arcade.key.ESCAPE:
            self.window.close()
        self._steer_scout()

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        self.held.discard(symbol)
        self._steer_scout()

    def _steer_scout(self) -> None:
        dx = sum(KEYS[key][0] for key in self.held)
        dy = sum(KEYS[key][1] for key in self.held)
        length = math.hypot(dx, dy) or 1.0
        self.scene.control.direction = (dx / length, dy / length)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        if button == arcade.MOUSE_BUTTON_LEFT:
            self.scene.add_obstacle((x, y))
        elif button == arcade.MOUSE_BUTTON_RIGHT:
            self.scene.remove_obstacle_near((x, y))

    # -- rules ------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether updates move the game on: not paused, and the round not over."""
        return not self.paused and self.state not in ("caught", "won")

    def on_update(self, delta_time: float) -> None:
        if not self.running:
            return
        start = time.perf_counter()
        self.scene.world.update(delta_time)
        self.steering_ms = (time.perf_counter() - start) * 1e3
        self.recent_steering_ms.append(self.steering_ms)
        self.elapsed += delta_time
        self._collect_flags()
        self._watch_for_scout(delta_time)

    def _collect_flags(self) -> None:
        for flag in list(self.scene.flags):
            if math.dist(flag.position, self.scene.scout.position) <= FLAG_REACH:
                flag.remove_from_sprite_lists()
                self.score += 1
        if not self.scene.flags:
            self.state = "won"

    def _watch_for_scout(self, delta_time: float) -> None:
        scene = self.scene
        leader = scene.world.agent_of(scene.leader)
        if scene.sees(scene.scout.position):
            self.unseen_for = 0.0
            if self.state == "sneaking":
                self.state = "chased"
                leader.behavior = scene.chase_behavior()
        elif self.state == "chased":
            self.unseen_for += delta_time
            if self.unseen_for >= GIVE_UP_SECONDS:
                self.state = "sneaking"
                leader.behavior = scene.patrol_behavior()
        scout = scene.world.agent_of(scene.scout)
        for sprite in (scene.leader, *scene.squad):
            agent = scene.world.agent_of(sprite)
            if math.dist(agent.position, scout.position) < agent.radius + scout.radius:
                self.state = "caught"

    # -- drawing ----------------------------------------------------------------------------

    def on_draw(self) -> None:
        self.clear()
        scene = self.scene
        self._draw_route()
        self._draw_geometry()
        self._draw_sight_cone()
        scene.flags.draw()
        scene.squad.draw()
        scene.leader_list.draw()
        scene.scout_list.draw()
        if self.show_debug:
            scene.world.draw_debug()
        self.hud.text = (
            f"flags {self.score}/{self.score + len(scene.flags)}   time {self.elapsed:5.1f} s   "
            f"followers {len(scene.squad)}   {self.steering_label()}   "
            f"fps {arcade.get_fps():.0f}"
        )
        self.hud.draw()
        if self.show_help:
            self.help.draw()
        banner = {
            "caught": "Caught!  Press R to try again",
            "won": f"All flags in {self.elapsed:.1f} s!  Press R to play again",
        }.get(self.state, "Paused" if self.paused else "")
        if banner:
            self.banner.text = banner
            self.banner.draw()

    def steering_label(self) -> str:
        """The HUD's steering time: the median of the recent updates, as the benchmark reports.

        Returns:
            For example ``"steering 0.84 ms (median of 60)"``.
        """
        samples = self.recent_steering_ms
        median = statistics.median(samples) if samples else 0.0
        return f"steering {median:.2f} ms (median of {len(samples)})"

    def _draw_route(self) -> None:
        points = self.scene.route.points.tolist()
        points.append(points[0])
        arcade.draw_line_strip(points, ROUTE_COLOR, 2 * self.scene.route.radius)
        arcade.draw_line_strip(points, ROUTE_LINE_COLOR, 1)

    def _draw_geometry(self) -> None:
        geometry = self.scene.world.geometry
        ends = np.empty((2 * len(geometry.segment_a), 2))
        ends[0::2], ends[1::2] = geometry.segment_a, geometry.segment_b
        thickness = max(2.0, 2.0 * float(np.max(geometry.segment_radius, initial=1.0)))
        if len(ends):
            arcade.draw_lines(ends.tolist(), WALL_COLOR, thickness)
        for (x, y), radius in zip(
            geometry.circle_center.tolist(), geometry.circle_radius.tolist(), strict=True
        ):
            arcade.draw_circle_filled(x, y, radius, OBSTACLE_COLOR)

    def _draw_sight_cone(self) -> None:
        leader = self.scene.world.agent_of(self.scene.leader)
        x, y = leader.position
        heading = math.atan2(leader.heading[1], leader.heading[0])
        half = math.radians(SIGHT_HALF_ANGLE)
        arc = np.linspace(heading - half, heading + half, 16)
        points = [(x, y)] + [
            (x + SIGHT_LENGTH * math.cos(a), y + SIGHT_LENGTH * math.sin(a)) for a in arc
        ]
        color = CONE_ALERT_COLOR if self.state == "chased" else CONE_COLOR
        arcade.draw_polygon_filled(points, color)
