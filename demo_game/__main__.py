"""Run the demo game.

``python -m demo_game`` opens the window. ``python -m demo_game --headless --frames N
--seed S --screenshot PATH [--followers K]`` runs N frames without a display and prints a
JSON summary as the last line.
"""

from __future__ import annotations

import argparse
import os
import sys


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line options."""
    parser = argparse.ArgumentParser(prog="python -m demo_game", description=__doc__)
    parser.add_argument("--headless", action="store_true", help="run without a display")
    parser.add_argument("--frames", type=int, default=600, help="frames to run when headless")
    parser.add_argument("--seed", type=int, default=0, help="seed of the steering world")
    parser.add_argument("--followers", type=int, default=12, help="size of the squad")
    parser.add_argument("--screenshot", metavar="PATH", help="save the last frame as PNG")
    parser.add_argument("--debug", action="store_true", help="start with the debug overlay on")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``python -m demo_game``."""
    args = parse_args(argv)
    if args.headless:
        os.environ["ARCADE_HEADLESS"] = "1"
        from .headless import run_headless

        run_headless(args)
        return 0
    import arcade

    from .game import WINDOW_HEIGHT, WINDOW_TITLE, WINDOW_WIDTH, GameView

    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT, WINDOW_TITLE)
    window.show_view(GameView(seed=args.seed, followers=args.followers, debug=args.debug))
    arcade.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
