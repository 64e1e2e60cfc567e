"""Run the demo game: ``python -m arcade_steering.demo`` or ``arcade-steering-demo``."""

from __future__ import annotations

import argparse
import sys

import arcade

from arcade_steering.examples import _cli

from . import game
from .headless import run_headless
from .scene import FOLLOWERS


def open_window(args: argparse.Namespace) -> None:
    """Play in a window until it closes."""
    window = arcade.Window(game.WINDOW_WIDTH, game.WINDOW_HEIGHT, game.WINDOW_TITLE)
    view = game.GameView(seed=args.seed, followers=args.followers, debug=args.debug)
    window.show_view(view)
    arcade.run()


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m arcade_steering.demo`` and ``arcade-steering-demo``.

    Args:
        argv: The arguments; None for ``sys.argv[1:]``.

    Returns:
        The exit status.
    """
    parser = _cli.make_parser("arcade_steering.demo", game.__doc__)
    parser.add_argument(
        "--followers",
        type=_cli.whole_number(0),
        default=FOLLOWERS,
        metavar="K",
        help=f"size of the squad (default {FOLLOWERS})",
    )
    parser.add_argument("--debug", action="store_true", help="start with the debug overlay on")
    return _cli.launch("arcade_steering.demo", parser, argv, open_window, run_headless)


if __name__ == "__main__":
    sys.exit(main())
