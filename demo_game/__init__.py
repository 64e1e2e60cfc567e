"""The arcade_steering demo game: ``python -m demo_game`` (``--help`` for headless options)."""
