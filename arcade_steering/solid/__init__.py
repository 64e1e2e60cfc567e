"""The solid step: keep agents' circles out of walls and obstacles after they move.

It works on the static geometry alone (``geometry`` and ``_util``), below the world's storage:
:func:`~arcade_steering.solid.keep_out.keep_out` sweeps each move (``casts``), slides along
what it touches (``contacts``) and pushes buried circles out (``dig_out``).
"""
