"""``python -m demo_game`` in a checkout: the demo game, which lives in ``arcade_steering.demo``.

Not installed with the package (the name is too generic to claim); installed, the demo is
``arcade-steering-demo`` or ``python -m arcade_steering.demo``.
"""
