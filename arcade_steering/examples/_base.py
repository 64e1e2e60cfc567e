"""What every example shares: a :class:`Scene` (a world, its sprites and how to draw them), the
:class:`ExampleView` that runs one in a window, trails, and headless running.

A scene never needs a window to be built or updated, only to be drawn, so the tests and
``docs/gen_images.py`` run the very scenes a user opens with ``python -m``.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

import arcade
import numpy as np
from PIL import Image

import arcade_steering as steer

from . import _cli
from ._drawing import BLUE, Color, PointLike, Trails, arrow_texture, draw_geometry

WINDOW_WIDTH = 800
WINDOW_HEIGHT = 500
BACKGROUND = (24, 28, 36)
DT = _cli.DT


class Scene:
    """One example scene: a steering world, its sprites and how to draw them.

    Subclasses list their ``MODES`` (variants chosen with the number keys) and build the world
    for ``self.mode`` in :meth:`setup`. Building and updating need no window; drawing does.

    Args:
        width: Width of the area to fill, px.
        height: Height of the area to fill, px.
        mode: One of ``MODES``; None for the first.
        seed: Seed of the steering world and of the scene's own random layout.
    """

    TITLE = "arcade_steering example"
    MODES: tuple[str, ...] = ("default",)
    #: What the example's own keys and clicks do, for the help line (a scene whose modes
    #: differ sets its own in :meth:`setup`).
    KEYS = ""

    def __init__(
        self,
        width: float = WINDOW_WIDTH,
        height: float = WINDOW_HEIGHT,
        mode: str | None = None,
        seed: int = 0,
    ) -> None:
        self.mode = self.MODES[0] if mode is None else mode
        if self.mode not in self.MODES:
            raise ValueError(f"mode must be one of {self.MODES}, got {mode!r}")
        self.width = float(width)
        self.height = float(height)
        self.seed = seed
        self.world = steer.SteeringWorld(seed=seed)
        self.rng = np.random.default_rng(seed)
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.trails = Trails()
        self.show_debug = True
        self.show_trails = True
        self.time = 0.0
        self.setup()
        self.world.prepare()  # built now, the first frame costs what later ones do

    # -- building ---------------------------------------------------------------------------

    def setup(self) -> None:
        """Build the world for ``self.mode``."""
        raise NotImplementedError

    def add_agent(
        self,
        position: PointLike,
        behavior: steer.SteeringComponent,
        color: Color = BLUE,
        *,
        scale: float = 1.0,
        trail: bool = True,
        **attach: Any,
    ) -> steer.SteeringAgent:
        """An arrow sprite at ``position`` steered by ``behavior``.

        Args:
            position: ``(x, y)``, px.
            behavior: The agent's behaviour tree.
            color: The arrow's (and its trail's) colour.
            scale: Arrow size; 1 is 22 x 14 px (radius 7).
            trail: Whether to draw the agent's trail.
            **attach: Passed to :meth:`SteeringWorld.attach` (``max_speed``, ``velocity``...).
        """
        sprite = arcade.Sprite(arrow_texture(color), scale=scale)
        x, y = position
        sprite.position = (x, y)
        self.sprites.append(sprite)
        if trail:
            self.trails.track(sprite, color)
        return self.world.attach(sprite, behavior, **attach)

    def box(self, inset: float = 6.0) -> None:
        """Walls round the edge of the scene."""
        w, h = self.width - inset, self.height - inset
        self.world.add_walls([(inset, inset), (w, inset), (w, h), (inset, h)], closed=True)

    def scatter(self, count: int, margin: float = 40.0) -> np.ndarray:
        """``(count, 2)`` random points at least ``margin`` px inside the scene."""
        low, high = (margin, margin), (self.width - margin, self.height - margin)
        return self.rng.uniform(low, high, (count, 2))

    # -- running ----------------------------------------------------------------------------

    def before_update(self, dt: float) -> None:
        """Move what the game moves (scripted targets) before the world steers."""

    def after_update(self, dt: float) -> None:
        """React to where agents went (respawn, wrap round)."""

    def update(self, dt: float) -> None:
        """One frame: the scene's own motion, the steering world, the trails."""
        self.time += dt
        self.before_update(dt)
        self.world.update(dt)
        self.after_update(dt)
        self.trails.record()

    def wrap(self, margin: float = 10.0) -> None:
        """Teleport agents that left the scene to the opposite side (a torus).

        The sprite is the truth between updates, so moving it is all it takes.
        """
        for sprite in self.sprites:
            x, y = sprite.position
            wx = (x + margin) % (self.width + 2 * margin) - margin
            wy = (y + margin) % (self.height + 2 * margin) - margin
            if (wx, wy) != (x, y):
                sprite.position = (wx, wy)

    # -- drawing ----------------------------------------------------------------------------

    def draw_under(self) -> None:
        """Scene decorations below the agents (paths, targets)."""

    def draw_over(self) -> None:
        """Scene decorations above the agents."""

    def draw(self) -> None:
        """Geometry, decorations, trails, agents, then the debug overlay if it is on."""
        draw_geometry(self.world)
        self.draw_under()
        if self.show_trails:
            self.trails.draw()
        self.sprites.draw()
        self.draw_over()
        if self.show_debug:
            self.world.draw_debug()

    # -- input ------------------------------------------------------------------------------

    def on_click(self, x: float, y: float, button: int) -> None:
        """A mouse click at ``(x, y)`` in scene coordinates."""

    def on_key(self, symbol: int) -> None:
        """A key the view does not handle itself."""


#: Height of the strip above the scene that holds the example's title and keys, px.
HUD_HEIGHT = 46
HUD_BACKGROUND = (14, 16, 22)
HUD_MARGIN = 10
#: The keys every example answers, after the number keys and the example's own.
COMMON_KEYS = "Space debug   T trails   P pause   R restart   Esc quit"


class ExampleView(arcade.View):
    """Runs a :class:`Scene` in a window: Space toggles the debug overlay, T the trails,
    the number keys pick a mode, P pauses, R restarts, Esc quits; clicks go to the scene.

    The scene fills the window below a strip of :data:`HUD_HEIGHT` px that names the example
    and its mode and lists its keys.

    Args:
        make_scene: ``make_scene(width, height, mode, seed=seed)`` -> Scene.
        modes: The modes the number keys choose from.
        mode: The mode to start in; None for the first.
        seed: Seed of every scene the view makes.
    """

    def __init__(
        self,
        make_scene: Callable[..., Scene],
        modes: Sequence[str],
        mode: str | None = None,
        seed: int = 0,
    ) -> None:
        super().__init__()
        self.background_color = BACKGROUND
        self.make_scene = make_scene
        self.modes = tuple(modes)
        self.seed = seed
        self.paused = False
        self.title = arcade.Text(
            "", HUD_MARGIN, 0, arcade.color.WHITE_SMOKE, 12, bold=True, anchor_y="bottom"
        )
        self.keys = arcade.Text("", HUD_MARGIN, 0, arcade.color.LIGHT_GRAY, 11, anchor_y="bottom")
        self.restart(mode)

    @property
    def scene_height(self) -> int:
        """Height of the scene, px: the window's less the strip above it."""
        return self.window.height - HUD_HEIGHT

    def restart(self, mode: str | None = None) -> None:
        """A fresh scene in ``mode`` (None: the first), keeping the overlay settings."""
        old = getattr(self, "scene", None)
        self.scene = self.make_scene(self.window.width, self.scene_height, mode, seed=self.seed)
        if old is not None:
            self.scene.show_debug, self.scene.show_trails = old.show_debug, old.show_trails
        self.title.text, self.keys.text = self.hud_lines()
        self.keys.y = self.scene_height + 5
        self.title.y = self.scene_height + 24

    def hud_lines(self) -> tuple[str, str]:
        """The strip's two lines: the example and its mode, then its keys."""
        count = len(self.modes)
        title, keys = self.scene.TITLE, [self.scene.KEYS, COMMON_KEYS]
        if count > 1:
            title += f"   mode {self.modes.index(self.scene.mode) + 1}/{count}: {self.scene.mode}"
            keys.insert(0, f"1-{min(count, 9)} mode")
        return title, "   ".join(key for key in keys if key)

    def on_update(self, delta_time: float) -> None:
        if not self.paused:
            self.scene.update(delta_time)

    def on_draw(self) -> None:
        self.clear()
        self.scene.draw()
        self.window.default_camera.use()
        arcade.draw_lrbt_rectangle_filled(
            0, self.window.width, self.scene_height, self.window.height, HUD_BACKGROUND
        )
        self.title.draw()
        self.keys.draw()

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        number = symbol - arcade.key.KEY_1
        if 0 <= number < min(len(self.modes), 9):
            self.restart(self.modes[number])
        elif symbol == arcade.key.SPACE:
            self.scene.show_debug = not self.scene.show_debug
        elif symbol == arcade.key.T:
            self.scene.show_trails = not self.scene.show_trails
        elif symbol == arcade.key.P:
            self.paused = not self.paused
        elif symbol == arcade.key.R:
            self.restart(self.scene.mode)
        elif symbol == arcade.key.ESCAPE:
            self.window.close()
        else:
            self.scene.on_key(symbol)

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        if y < self.scene_height:  # not on the strip
            self.scene.on_click(x, y, button)


def open_window(scene_class: type[Scene], mode: str | None = None, seed: int = 0) -> None:
    """Open a window with ``scene_class`` in it and run arcade's loop until it closes."""
    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT + HUD_HEIGHT, scene_class.TITLE)
    window.show_view(ExampleView(scene_class, scene_class.MODES, mode, seed))
    arcade.run()


def run_headless(scene_class: type[Scene], args: argparse.Namespace) -> dict[str, Any]:
    """Run ``args.frames`` frames of ``scene_class`` in a hidden window, as the window would.

    Saves the last frame (help strip included) to ``args.screenshot`` if given.

    Returns:
        The summary: example, mode, frames, agents and seconds simulated.
    """
    window = arcade.Window(
        WINDOW_WIDTH, WINDOW_HEIGHT + HUD_HEIGHT, scene_class.TITLE, visible=False
    )
    view = ExampleView(scene_class, scene_class.MODES, args.mode, args.seed)
    window.show_view(view)
    for _ in range(args.frames):
        _cli.frame(window)
    _cli.save_screenshot(args.screenshot)
    summary = {
        "example": _module_name(scene_class).rpartition(".")[2],
        "mode": view.scene.mode,
        "frames": args.frames,
        "agents": len(view.scene.world),
        "seconds": round(view.scene.time, 3),
    }
    window.close()
    return summary


def _module_name(scene_class: type[Scene]) -> str:
    """The importable name of the module defining ``scene_class``, also when it runs as
    ``__main__`` (``python -m``)."""
    spec = sys.modules[scene_class.__module__].__spec__
    if spec is None:  # a module not imported by name (run as a file): its name is all there is
        return scene_class.__module__
    return spec.name


def run(scene_class: type[Scene], argv: list[str] | None = None) -> int:
    """The command line of an example: a window, or a headless run (``--help`` for the options).

    Args:
        scene_class: The example's scene.
        argv: The arguments; None for ``sys.argv[1:]``.

    Returns:
        The exit status.
    """
    module = _module_name(scene_class)
    parser = _cli.make_parser(module, sys.modules[scene_class.__module__].__doc__)
    parser.add_argument(
        "--mode", choices=scene_class.MODES, help="the mode to start in (default: the first)"
    )
    return _cli.launch(
        module,
        parser,
        argv,
        open_window=lambda args: open_window(scene_class, args.mode, args.seed),
        run_headless=lambda args: run_headless(scene_class, args),
    )


# -- headless ---------------------------------------------------------------------------------


def headless_window(width: int, height: int) -> arcade.Window:
    """The current window, or a new hidden one of ``width`` x ``height``."""
    try:
        return arcade.get_window()
    except RuntimeError:
        return arcade.Window(width, height, "arcade_steering examples", visible=False)


def run_frames(scene: Scene, frames: int, dt: float = DT) -> None:
    """Update ``scene`` ``frames`` times at a fixed ``dt``; needs no window.

    Call :func:`render` afterwards for a picture: it draws once before the last update so
    the debug overlay has recorded it (recording starts at the first ``draw_debug``).
    """
    for _ in range(frames):
        scene.update(dt)


def render(scene: Scene, dt: float = DT) -> Image.Image:
    """One more update and a picture of the scene (needs a window, e.g. :func:`headless_window`)."""
    window = arcade.get_window()
    scene.draw()  # starts the overlay's recording, if it is on
    scene.update(dt)
    window.clear(color=BACKGROUND)
    scene.draw()
    window.default_camera.use()
    width, height = math.ceil(scene.width), math.ceil(scene.height)
    return arcade.get_image(0, 0, width, height).convert("RGB")
