"""``python -m arcade_steering.examples``: list the examples and how to run them."""

from __future__ import annotations

import argparse
import sys

from . import EXAMPLES


def listing() -> str:
    """Every example with what it shows, and how to run one."""
    width = max(map(len, EXAMPLES))
    return "\n".join(
        [
            "arcade_steering examples: run one with python -m arcade_steering.examples.NAME",
            "",
            *(f"  {name:<{width}}  {shows}" for name, shows in EXAMPLES.items()),
            "",
            "In each, the number keys choose a mode, Space toggles the debug overlay, T the",
            "trails, P pauses, R restarts, Esc quits. NAME --help lists its options: --headless",
            "--frames N --screenshot PATH run it without a window, --mode and --seed choose",
            "what it shows.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    """Print :func:`listing`."""
    argparse.ArgumentParser(
        prog="python -m arcade_steering.examples",
        description="List the runnable examples of arcade_steering and how to run them.",
    ).parse_args(argv)
    print(listing())
    return 0


if __name__ == "__main__":
    sys.exit(main())
