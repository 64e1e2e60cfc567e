"""Run the demo: ``python -m demo_game [--headless --frames N --seed S --screenshot PATH]``."""

from __future__ import annotations

import argparse
import os
import sys


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m demo_game", description=__doc__)
    parser.add_argument("--headless", action="store_true", help="run without a display")
    parser.add_argument("--frames", type=int, default=600, help="frames to run when headless")
    parser.add_argument("--seed", type=int, default=0, help="seed of the steering world")
    parser.add_argument("--screenshot", metavar="PATH", help="save the last frame as PNG")
    parser.add_argument("--debug", action="store_true", help="start with the debug overlay on")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.headless:
        os.environ["ARCADE_HEADLESS"] = "1"
    from .game import run

    return run(args)


if __name__ == "__main__":
    sys.exit(main())
