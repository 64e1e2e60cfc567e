"""Sneak past the patrol: collect every flag without being caught by the red leader's squad.

A leader patrols a route, its squad of tanks follows it, keeps apart, steers round walls and
obstacles and keeps out of the leader's sight cone. You are the blue scout. If the leader sees
you it gives chase (its behaviour is swapped at run time) and the squad follows; it gives up
when it has not seen you for three seconds. Touching a tank ends the round.

Controls: WASD / arrows move the scout; Space toggles the steering debug overlay; left click
adds an obstacle, right click removes the nearest; N makes a new random patrol route; + / -
add or remove followers; P pauses; R restarts; F1 shows the controls; Esc quits.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import deque

import arcade
import numpy as np

from arcade_steering.examples._drawing import draw_path, point_list

from .panel import Panel
from .scene import FOLLOWERS, SIGHT_HALF_ANGLE, SIGHT_LENGTH, Scene

WINDOW_WIDTH = 1280
WINDOW_HEIGHT = 720
WINDOW_TITLE = "arcade_steering: sneak past the patrol"
BACKGROUND = (30, 36, 30)
WALL_COLOR = (200, 190, 160)
OBSTACLE_COLOR = (96, 120, 88)
ROUTE_COLOR = (61, 65, 44)  # a faint yellow on the background
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
HUD_COLOR = arcade.color.WHITE_SMOKE
ALERT_COLOR = (255, 110, 90)
HUD_MARGIN = 12
#: Laid over the level while a panel shows, so the panel stands out.
DIM = (0, 0, 0, 120)
#: Where the panels hang from: the middle of their top edge, over open ground between the
#: top of the route and the keep, clear of walls and flags.
PANEL_TOP = (WINDOW_WIDTH / 2, 572)
WIN_COLOR = (140, 230, 120)
#: The controls F1 lists besides moving: ``(key, what it does)``.
HELP_KEYS = (
    ("P", "pause"),
    ("R", "restart"),
    ("Esc", "quit"),
    ("Space", "debug overlay"),
    ("click", "add an obstacle"),
    ("right click", "remove one"),
    ("N", "new patrol route"),
    ("+ / -", "more / fewer tanks"),
)


class GameView(arcade.View):
    """The demo game.

    Args:
        seed: Seed of the steering world (and of random routes and spawns).
        followers: Size of the squad at the start of a round.
        debug: Start with the debug overlay on.
        intro: Open on the panel that explains the game, waiting for a key.
    """

    def __init__(
        self, seed: int = 0, followers: int = FOLLOWERS, debug: bool = False, intro: bool = True
    ) -> None:
        super().__init__()
        self.background_color = BACKGROUND
        self.seed = seed
        self.followers = followers
        self.show_debug = debug
        self.show_intro = intro
        self.show_help = False
        self.paused = False
        self.held: set[int] = set()
        top = WINDOW_HEIGHT - 8
        self.hud = arcade.Text("", HUD_MARGIN, top, HUD_COLOR, 13, anchor_y="top")
        self.hint = arcade.Text(
            "F1 controls",
            WINDOW_WIDTH - HUD_MARGIN,
            top,
            HUD_COLOR,
            13,
            anchor_x="right",
            anchor_y="top",
        )
        self.alert = arcade.Text(
            "Spotted! Break its line of sight",
            self.hint.left - 3 * HUD_MARGIN,
            top,
            ALERT_COLOR,
            13,
            anchor_x="right",
            anchor_y="top",
            bold=True,
        )
        self.you = arcade.Text(
            "you", 0, 0, arcade.color.WHITE, 12, anchor_x="center", anchor_y="top", bold=True
        )
        self.panel = Panel(PANEL_TOP)
        self.restart()

    def on_show_view(self) -> None:
        # arcade.get_fps() counts frames only while timings are on.
        if not arcade.timings_enabled():
            arcade.enable_timings()

    def restart(self) -> None:
        """A new round: level, cast and score from scratch."""
        self.scene = Scene(self.seed, self.followers)
        self.scene.world.prepare()  # built now, the round's first frame costs what later ones do
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
        if self.show_intro and symbol not in (arcade.key.F1, arcade.key.ESCAPE):
            self.show_intro = False  # any key starts the round, and does what it does
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
        """Whether updates move the game on: no panel up, and the round not over."""
        waiting = self.paused or self.show_intro or self.show_help
        return not waiting and self.state not in ("caught", "won")

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
        if self._fill_panel():
            arcade.draw_lrbt_rectangle_filled(0, WINDOW_WIDTH, 0, WINDOW_HEIGHT, DIM)
            if self.show_intro:
                self._draw_cast()
            self.panel.draw()
        self._draw_hud()

    def _draw_hud(self) -> None:
        scene = self.scene
        self.hud.text = (
            f"flags {self.score}/{self.score + len(scene.flags)}   time {self.elapsed:5.1f} s   "
            f"followers {len(scene.squad)}   {self.steering_label()}   "
            f"fps {arcade.get_fps():.0f}"
        )
        self.hud.draw()
        self.hint.draw()
        if self.state == "chased":
            self.alert.draw()

    def _draw_cast(self) -> None:
        """What the intro talks about, above the dimming: the flags, the tanks, the leader's
        cone and the scout, marked "you"."""
        scene = self.scene
        self._draw_sight_cone()
        scene.flags.draw()
        scene.squad.draw()
        scene.leader_list.draw()
        scene.scout_list.draw()
        self.you.position = (scene.scout.center_x, scene.scout.bottom - 4)
        self.you.draw()

    def _fill_panel(self) -> bool:
        """Put what the panel should say now into it; False if no panel is up."""
        flags = self.score + len(self.scene.flags)
        if self.show_help:
            self.panel.show(
                "Controls (the game waits)",
                ["WASD or the arrows move the ship.   F1 closes this."],
                HELP_KEYS,
            )
        elif self.show_intro:
            self.panel.show(
                "Sneak past the patrol",
                [
                    f"You are the blue ship: collect all {flags} yellow flags.",
                    "Keep out of the red tank's view cone: seen, you are",
                    "chased; touched by a tank, you are caught.",
                    "Move with WASD or the arrows to start.   F1: controls",
                ],
            )
        elif self.state == "caught":
            self.panel.show(
                "Caught!",
                [
                    f"After {self.elapsed:.1f} s, with {self.score} of {flags} flags.",
                    "R: try again   Esc: quit",
                ],
                title_color=ALERT_COLOR,
            )
        elif self.state == "won":
            self.panel.show(
                "All flags!",
                [f"{flags} flags in {self.elapsed:.1f} s.", "R: play again   Esc: quit"],
                title_color=WIN_COLOR,
            )
        elif self.paused:
            self.panel.show("Paused", ["P: resume   F1: controls   R: restart"])
        else:
            return False
        return True

    def steering_label(self) -> str:
        """The HUD's steering time: the median of the recent updates, as the benchmark reports.

        Returns:
            For example ``"steering 0.84 ms (median of 60)"``.
        """
        samples = self.recent_steering_ms
        median = statistics.median(samples) if samples else 0.0
        return f"steering {median:.2f} ms (median of {len(samples)})"

    def _draw_route(self) -> None:
        draw_path(self.scene.route, ROUTE_COLOR)  # opaque: the joints' overlaps don't show
        points = self.scene.route.points.tolist()
        arcade.draw_line_strip([*points, points[0]], ROUTE_LINE_COLOR, 1)

    def _draw_geometry(self) -> None:
        geometry = self.scene.world.geometry
        ends = np.empty((2 * len(geometry.segment_a), 2))
        ends[0::2], ends[1::2] = geometry.segment_a, geometry.segment_b
        thickness = max(2.0, 2.0 * float(np.max(geometry.segment_radius, initial=1.0)))
        if len(ends):
            arcade.draw_lines(point_list(ends), WALL_COLOR, thickness)
        for (x, y), radius in zip(
            geometry.circle_center.tolist(), geometry.circle_radius.tolist(), strict=True
        ):
            arcade.draw_circle_filled(x, y, radius, OBSTACLE_COLOR)

    def _draw_sight_cone(self) -> None:
        leader = self.scene.world.agent_of(self.scene.leader)
        x, y = leader.position
        heading = math.atan2(leader.look[1], leader.look[0])
        half = math.radians(SIGHT_HALF_ANGLE)
        arc = np.linspace(heading - half, heading + half, 16)
        points = [(x, y)] + [
            (x + SIGHT_LENGTH * math.cos(a), y + SIGHT_LENGTH * math.sin(a)) for a in arc
        ]
        color = CONE_ALERT_COLOR if self.state == "chased" else CONE_COLOR
        arcade.draw_polygon_filled(points, color)
