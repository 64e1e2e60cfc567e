"""Run the demo game from a checkout: ``python -m demo_game`` (``--help`` for the options)."""

import sys

from arcade_steering.demo.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
