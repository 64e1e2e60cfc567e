"""What a level may hold (:class:`LevelLimits`), and the running totals held to it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields

from .._util.validate import finite_float
from ._errors import BadValueError

MiB = 1 << 20


@dataclass(frozen=True)
class LevelLimits:
    """The most :func:`~arcade_steering.tiled.load_level` reads from level files.

    Every limit refuses a level with a :class:`LevelError` naming it, before anything is
    built. Raise one for a bigger level:
    ``load_level(path, world, limits=LevelLimits(points=500_000))``.

    Attributes:
        file_bytes: Size of each map, tileset or template file.
        total_bytes: Bytes read in all, counting a template (and its tileset) once for every
            object using it, as pytiled_parser reads it again for each.
        files: Distinct files a map refers to (tilesets, templates, images).
        image_bytes: Size of each image file.
        image_pixels: Pixels of all images together (each is decoded whole).
        layers: Layers, group layers included.
        layer_depth: Group layers inside group layers.
        objects: Objects in all object layers (template uses included).
        points: Vertices of one polyline or polygon.
        total_points: Vertices of all polylines and polygons.
        walls: Wall segments in all (pymunk makes and adds one in about 25 us).
        properties: Custom properties of one map, layer, tileset, tile or object.
        tiles: Cells of the map (width x height), and of all its tile layers together
            (arcade makes a sprite of each drawn cell: 250,000 take it about 20 s).
        coordinate: Largest coordinate, size, thickness or radius, in map px.
    """

    file_bytes: int = 32 * MiB
    total_bytes: int = 128 * MiB
    files: int = 256
    image_bytes: int = 32 * MiB
    image_pixels: int = 64 * MiB
    layers: int = 1_000
    layer_depth: int = 16
    objects: int = 100_000
    points: int = 100_000
    total_points: int = 1_000_000
    walls: int = 250_000
    properties: int = 1_000
    tiles: int = 250_000
    coordinate: float = 1_000_000.0

    def __post_init__(self) -> None:
        """Check every limit is a number > 0 (``coordinate`` may be a float)."""
        for item in fields(self):
            value = getattr(self, item.name)
            kinds = (int, float) if item.name == "coordinate" else (int,)
            if isinstance(value, bool) or not isinstance(value, kinds):
                raise TypeError(f"LevelLimits.{item.name} must be a number, got {value!r}")
            if finite_float(value) is None or value <= 0:
                raise ValueError(f"LevelLimits.{item.name} must be finite and > 0, got {value}")


class Tally:
    """Running totals of what a level's files hold, each held to a limit as it grows."""

    def __init__(self, limits: LevelLimits) -> None:
        self.limits = limits
        self.counts: Counter[str] = Counter()

    def count(self, what: str, amount: int, limit_name: str) -> None:
        """Add ``amount`` to the total of ``what``.

        Raises:
            BadValueError: The total is over ``LevelLimits.<limit_name>``.
        """
        self.counts[what] += amount
        limit = getattr(self.limits, limit_name)
        if self.counts[what] > limit:
            raise BadValueError(
                f"more than {limit:,} {what} (LevelLimits.{limit_name}); pass "
                f"load_level(..., limits=LevelLimits({limit_name}=...)) to allow more"
            )
