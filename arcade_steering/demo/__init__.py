"""The demo game: ``python -m arcade_steering.demo`` or ``arcade-steering-demo`` (``--help``
for headless options)."""
