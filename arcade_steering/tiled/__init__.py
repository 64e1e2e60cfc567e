"""Steering geometry laid out in Tiled: walls, obstacles, patrol routes and spawn points.

A level is a Tiled map (``.tmj`` JSON or ``.tmx``) loaded with arcade's own loader. Its object
layers, by name:

- ``walls``: polylines (open), polygons and rectangles (closed); every edge becomes a wall.
  A ``thickness`` property (px) on the object or the layer makes thick walls.
- ``obstacles``: circles (ellipses with equal width and height) become round obstacles.
- ``paths``: named polylines or polygons become :class:`~arcade_steering.Path` routes; a
  polygon or a ``closed`` property (a bool) makes a closed route, a ``radius`` property sets
  its width.
- ``spawns``: named points; several points may share a name (``flag``, ``guard``).

Tile layers named in ``wall_layers``, or with a bool property ``walls`` set to true, are walls
too: their tiles' merged outline (see :class:`~arcade_steering.SpriteWalls`).

Tiled's y axis points down and arcade's up: coordinates are converted (and scaled).

Level files may come from players and modders: a map read from a path, and every file it
refers to, is checked before arcade reads it (see :class:`LevelLimits` and the ``root``
argument of :func:`load_level`), and anything wrong raises :class:`LevelError`.

Example:
    >>> level = load_level("level.tmj", world)          # doctest: +SKIP
    >>> route = level.paths["patrol"]                    # doctest: +SKIP
    >>> x, y = level.spawns["leader"][0]                 # doctest: +SKIP
"""

from ._errors import LevelError
from ._layers import DEFAULT_PATH_RADIUS, LAYERS
from ._limits import LevelLimits
from ._load import Level, load_level

__all__ = ["DEFAULT_PATH_RADIUS", "LAYERS", "Level", "LevelError", "LevelLimits", "load_level"]
