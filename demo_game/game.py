"""Ships arrive at the mouse in a ring, flee a drifting mine, and wander when left alone.

Controls: move the mouse to call the ships; Space toggles the steering debug overlay;
Esc quits.
"""

from __future__ import annotations

import json
import math
import time
from argparse import Namespace

import arcade

import arcade_steering as steer

WINDOW_WIDTH = 1280
WINDOW_HEIGHT = 720
WINDOW_TITLE = "arcade_steering demo"
SHIP_COUNT = 12
SHIP_TEXTURE = ":resources:images/space_shooter/playerShip1_orange.png"
SHIP_SCALE = 0.35
MINE_RADIUS = 14
MINE_SPEED = 90.0
PANIC_DISTANCE = 140.0
RING_RADIUS = 70.0
IDLE_SECONDS = 3.0
BACKGROUND = (18, 22, 34)


class GameView(arcade.View):
    """The demo scene: a ring of ships, a drifting mine, the mouse as the goal."""

    def __init__(self, seed: int = 0, debug: bool = False) -> None:
        super().__init__()
        self.background_color = BACKGROUND
        self.world = steer.SteeringWorld(seed=seed)
        self.show_debug = debug
        self.mouse = (WINDOW_WIDTH / 2, WINDOW_HEIGHT / 2)
        self.idle_for = IDLE_SECONDS  # start wandering until the mouse moves
        self.steering_ms = 0.0

        self.mine = arcade.SpriteCircle(MINE_RADIUS, arcade.color.RED_ORANGE)
        self.mine.position = (WINDOW_WIDTH * 0.3, WINDOW_HEIGHT * 0.6)
        self.mine_velocity = (MINE_SPEED, MINE_SPEED * 0.6)
        self.mines = arcade.SpriteList()
        self.mines.append(self.mine)

        self.ships = arcade.SpriteList()
        self.called: list[steer.SteeringComponent] = []
        self.wandering: list[steer.SteeringComponent] = []
        flee = steer.Flee(self.mine, panic_distance=PANIC_DISTANCE)
        for index in range(SHIP_COUNT):
            angle = 2 * math.pi * index / SHIP_COUNT
            ship = arcade.Sprite(SHIP_TEXTURE, scale=SHIP_SCALE)
            ship.position = (
                WINDOW_WIDTH / 2 + 300 * math.cos(angle),
                WINDOW_HEIGHT / 2 + 200 * math.sin(angle),
            )
            self.ships.append(ship)
            # Each ship its own slot on a ring round the mouse: one batch all the same.
            slot = steer.Arrive(self._ring_slot(angle), slowing_radius=120.0)
            self.called.append(steer.PriorityBlend(flee, slot))
            self.wandering.append(steer.PriorityBlend(flee, steer.Wander(jitter=2.5)))
            self.world.attach(
                ship, self.wandering[index], max_speed=180.0, max_force=500.0, facing="up"
            )

        self.hud = arcade.Text("", 12, WINDOW_HEIGHT - 24, arcade.color.LIGHT_GRAY, 12)
        self.help = arcade.Text(
            "mouse: call the ships   space: debug overlay   esc: quit",
            12,
            12,
            arcade.color.GRAY,
            11,
        )

    def _ring_slot(self, angle: float):
        return lambda: (
            self.mouse[0] + RING_RADIUS * math.cos(angle),
            self.mouse[1] + RING_RADIUS * math.sin(angle),
        )

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        self.mouse = (x, y)
        if self.idle_for >= IDLE_SECONDS:
            for agent, behavior in zip(self.world.agents, self.called, strict=True):
                agent.behavior = behavior
        self.idle_for = 0.0

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.SPACE:
            self.show_debug = not self.show_debug
        elif symbol == arcade.key.ESCAPE:
            self.window.close()

    def on_update(self, delta_time: float) -> None:
        self._drift_mine(delta_time)
        was_idle = self.idle_for >= IDLE_SECONDS
        self.idle_for += delta_time
        if not was_idle and self.idle_for >= IDLE_SECONDS:
            for agent, behavior in zip(self.world.agents, self.wandering, strict=True):
                agent.behavior = behavior
        start = time.perf_counter()
        self.world.update(delta_time)
        self.steering_ms = (time.perf_counter() - start) * 1e3
        self._wrap_ships()

    def _drift_mine(self, delta_time: float) -> None:
        x, y = self.mine.position
        vx, vy = self.mine_velocity
        x, y = x + vx * delta_time, y + vy * delta_time
        if not MINE_RADIUS <= x <= WINDOW_WIDTH - MINE_RADIUS:
            vx = -vx
        if not MINE_RADIUS <= y <= WINDOW_HEIGHT - MINE_RADIUS:
            vy = -vy
        self.mine_velocity = (vx, vy)
        self.mine.position = (x, y)

    def _wrap_ships(self) -> None:
        """Wandering ships that leave the screen come back on the other side."""
        for ship in self.ships:
            x, y = ship.position
            if not (0 <= x <= WINDOW_WIDTH and 0 <= y <= WINDOW_HEIGHT):
                ship.position = (x % WINDOW_WIDTH, y % WINDOW_HEIGHT)

    def on_draw(self) -> None:
        self.clear()
        self.mines.draw()
        self.ships.draw()
        if self.show_debug:
            arcade.draw_circle_outline(*self.mine.position, PANIC_DISTANCE, (255, 90, 60, 90))
            self.world.draw_debug()
        mode = "wandering" if self.idle_for >= IDLE_SECONDS else "called"
        self.hud.text = (
            f"ships {len(self.world)}   {mode}   steering {self.steering_ms:.2f} ms   "
            f"fps {arcade.get_fps():.0f}"
        )
        self.hud.draw()
        self.help.draw()


def run(args: Namespace) -> int:
    """Open the window (or run headless) with the options parsed by ``__main__``."""
    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT, WINDOW_TITLE)
    view = GameView(seed=args.seed, debug=args.debug)
    window.show_view(view)
    if not args.headless:
        arcade.run()
        return 0
    for _ in range(args.frames):
        view.on_update(1 / 60)
        view.on_draw()
    if args.screenshot:
        arcade.get_image().save(args.screenshot)
    summary = {"frames": args.frames, "ships": len(view.world), "steering_ms": view.steering_ms}
    print(json.dumps(summary))
    return 0
