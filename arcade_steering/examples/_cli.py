"""The command line every example and the demo share.

``--help`` says what the program shows and which keys it answers. Without options a window
opens; on a machine without a display one line says so instead of a traceback. ``--headless``
runs ``--frames N`` frames (600 unless told: ten seconds at 1/60 s) in a hidden window, saves
the last one with ``--screenshot PATH`` and prints a one-line JSON summary; with
``ARCADE_HEADLESS`` set in the environment every run is headless. ``--seed S`` seeds the
steering world and the random layout.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import arcade
import pyglet

#: Frames of a headless run unless ``--frames`` says otherwise: ten seconds.
FRAMES = 600
#: Seconds per frame of a headless run: a fixed step, so runs repeat exactly.
DT = 1 / 60


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``minimum``.

    Args:
        minimum: The smallest value accepted.

    Returns:
        A function that parses its text or raises ``argparse.ArgumentTypeError``.
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return parse


def program_name(module: str) -> str:
    """How the user started the program: a console script's name, else ``python -m module``."""
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    if not script or script in ("-c", "-m") or script.endswith(".py"):
        return f"python -m {module}"
    return script


def make_parser(module: str, description: str | None) -> argparse.ArgumentParser:
    """A parser with the shared options; add the program's own ones to it.

    Args:
        module: The module run with ``python -m``, for the usage line.
        description: What ``--help`` prints above the options (the module docstring).

    Returns:
        The parser.
    """
    parser = argparse.ArgumentParser(
        prog=program_name(module),
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the steering world and the random layout"
    )
    headless = parser.add_argument_group("running without a window")
    headless.add_argument(
        "--headless",
        action="store_true",
        help="run --frames frames at a fixed 1/60 s in a hidden window, then print a JSON "
        "summary (every run is headless when ARCADE_HEADLESS is set)",
    )
    headless.add_argument(
        "--frames",
        type=whole_number(1),
        metavar="N",
        help=f"frames of a headless run (default {FRAMES}: ten seconds)",
    )
    headless.add_argument("--screenshot", metavar="PATH", help="save the last frame as a PNG")
    return parser


def display_available() -> bool:
    """Whether a window can open here (always, with ``ARCADE_HEADLESS`` set)."""
    try:
        pyglet.display.get_display()
    except Exception as error:
        # pyglet raises a NoSuchDisplayException of its own per platform: match the name.
        if type(error).__name__ != "NoSuchDisplayException":
            raise
        return False
    return True


def launch(
    module: str,
    parser: argparse.ArgumentParser,
    argv: list[str] | None,
    open_window: Callable[[argparse.Namespace], None],
    run_headless: Callable[[argparse.Namespace], dict[str, Any]],
) -> int:
    """Parse ``argv`` and run the program in a window or headless.

    A headless run on a machine without a display starts the program again in a child process
    with ``ARCADE_HEADLESS=1``: pyglet picks its window system when arcade is imported, before
    the options are read.

    Args:
        module: The module run with ``python -m``, for the child process.
        parser: From :func:`make_parser`, with the program's own options added.
        argv: The arguments; None for ``sys.argv[1:]``.
        open_window: Opens the window and runs arcade's loop until it closes.
        run_headless: Runs ``args.frames`` frames headless (saving ``args.screenshot``) and
            returns the summary to print.

    Returns:
        The exit status: 0, or 1 when there is no display for a window.
    """
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    headless = args.headless or arcade.headless
    if not headless and (args.frames is not None or args.screenshot):
        parser.error("--frames and --screenshot go with --headless")
    if args.frames is None:
        args.frames = FRAMES
    if headless and not arcade.headless and not display_available():
        command = [sys.executable, "-m", module, *argv]
        return subprocess.run(command, env={**os.environ, "ARCADE_HEADLESS": "1"}).returncode
    if headless:
        print(json.dumps(run_headless(args)), flush=True)
        return 0
    if not display_available():
        print(
            f"{parser.prog}: no display to open a window on; add --headless to run without one",
            file=sys.stderr,
        )
        return 1
    open_window(args)
    return 0


def frame(window: arcade.Window) -> None:
    """One frame as arcade's loop runs it, without waiting: ``on_update`` at :data:`DT`, then
    ``on_draw``.

    Both go through ``window.dispatch_event`` as in arcade's loop, so ``arcade.get_fps()``
    counts the frames once ``arcade.enable_timings()`` is on. Outside pyglet's loop a window
    queues what is dispatched to it; ``dispatch_events`` handles the queue. The frame ends when
    its drawing is done, as a shown frame does: a software renderer's threads would otherwise
    still draw it during the next update and slow that down (twice as long in the demo).
    """
    window.dispatch_event("on_update", DT)
    window.dispatch_event("on_draw")
    window.dispatch_events()
    window.ctx.finish()


def save_screenshot(path: str | None) -> None:
    """Save what the window shows (after the last ``on_draw``) as a PNG, if ``path`` is given."""
    if path:
        arcade.get_image().convert("RGB").save(path)  # opaque, as the window shows it
