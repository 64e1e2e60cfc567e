"""Drawing for the examples: colours, arrow sprites, trails, walls, obstacles and paths."""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Sequence
from typing import Any

import arcade
import numpy as np
from arcade.types import RGBA255, RGBOrA255
from PIL import Image, ImageDraw

import arcade_steering as steer

from ._cli import DT

Color = tuple[int, int, int]
#: A point as the examples pass it: ``(x, y)``, or a row of an ``(n, 2)`` array.
PointLike = Sequence[float] | np.ndarray
#: Agent colours by role, used across the examples.
BLUE: Color = (90, 170, 255)
ORANGE: Color = (255, 160, 60)
GREEN: Color = (110, 220, 120)
PINK: Color = (240, 110, 200)
YELLOW: Color = (250, 215, 80)
RED: Color = (240, 70, 60)
GREY: Color = (170, 170, 180)
WALL_COLOR = (200, 190, 160)
OBSTACLE_COLOR = (80, 100, 80)
TARGET_COLOR = (250, 250, 250)

#: A jump longer than this between two trail samples (px) is a teleport, not motion.
_TRAIL_JUMP = 60.0
_TRAIL_ALPHAS = (50, 110, 190)


def point_list(points: np.ndarray) -> list[tuple[float, float]]:
    """An ``(n, 2)`` array as the list of ``(x, y)`` tuples arcade's draw functions take."""
    return [(x, y) for x, y in points.tolist()]


@functools.cache
def arrow_texture(color: Color, length: int = 22, width: int = 14) -> arcade.Texture:
    """A filled arrow pointing right (+x), outlined, for agents of one colour."""
    image = Image.new("RGBA", (length, width), (0, 0, 0, 0))
    tip, notch = (length - 1, (width - 1) / 2), (length * 0.3, (width - 1) / 2)
    ImageDraw.Draw(image).polygon(
        [tip, (0, 0), notch, (0, width - 1)], fill=(*color, 255), outline=(15, 15, 20, 255)
    )
    return arcade.Texture(image, hash=f"arrow-{color}-{length}-{width}")


class Trails:
    """Recent positions of some sprites, drawn as polylines that fade with age.

    Args:
        seconds: How much history to keep.
        every: Record one sample every this many updates.
        ticks: Seconds between dots drawn on the trails (equal time apart, so their spacing
            shows the speed), or None for no dots.
    """

    def __init__(self, seconds: float = 6.0, every: int = 2, ticks: float | None = None) -> None:
        self.length = max(2, round(seconds / DT / every))
        self.every = every
        self.ticks = ticks
        self._tick = 0
        self._tracks: list[tuple[Any, Color, deque[tuple[float, float]]]] = []

    def track(self, sprite: Any, color: Color) -> None:
        """Start recording ``sprite``'s positions, drawn in ``color``."""
        self._tracks.append((sprite, color, deque(maxlen=self.length)))

    def record(self) -> None:
        """Sample every tracked sprite (call once per update)."""
        self._tick += 1
        if self._tick % self.every == 0:
            for sprite, _, history in self._tracks:
                history.append(sprite.position)

    def draw(self) -> None:
        """One ``draw_lines`` call per colour and age band."""
        bands: dict[RGBA255, list[np.ndarray]] = {}
        dots: dict[RGBA255, list[np.ndarray]] = {}
        for _, color, history in self._tracks:
            if len(history) < 2:
                continue
            points = np.array(history)
            if self.ticks:
                # Counted from the sample clock, so dots stay put as the trail grows.
                step = max(1, round(self.ticks / DT / self.every))
                first = (self._tick // self.every - len(points) + 1) % step
                dots.setdefault((*color, 220), []).append(points[(step - first) % step :: step])
            starts, ends = points[:-1], points[1:]
            moved = np.hypot(*(ends - starts).T) < _TRAIL_JUMP
            # Band 0 is the oldest third of the whole history, the last band the newest.
            age = (self.length - len(starts) + np.arange(len(starts))) * len(_TRAIL_ALPHAS)
            age //= self.length
            for band, alpha in enumerate(_TRAIL_ALPHAS):
                keep = moved & (age == band)
                pairs = np.empty((2 * int(keep.sum()), 2))
                pairs[0::2], pairs[1::2] = starts[keep], ends[keep]
                bands.setdefault((*color, alpha), []).append(pairs)
        for rgba, chunks in bands.items():
            pairs = np.concatenate(chunks)
            if len(pairs):
                arcade.draw_lines(point_list(pairs), rgba, 2)
        for rgba, chunks in dots.items():
            arcade.draw_points(point_list(np.concatenate(chunks)), rgba, 4)


def draw_geometry(world: steer.SteeringWorld) -> None:
    """Draw the world's walls (thick lines) and obstacles (filled circles)."""
    geometry = world.geometry
    if len(geometry.segment_a):
        ends = np.empty((2 * len(geometry.segment_a), 2))
        ends[0::2], ends[1::2] = geometry.segment_a, geometry.segment_b
        thickness = max(3.0, 2.0 * float(np.max(geometry.segment_radius)))
        arcade.draw_lines(point_list(ends), WALL_COLOR, thickness)
    for (x, y), radius in zip(
        geometry.circle_center.tolist(), geometry.circle_radius.tolist(), strict=True
    ):
        arcade.draw_circle_filled(x, y, radius, OBSTACLE_COLOR)


def draw_path(path: steer.Path, color: tuple[int, int, int] = (50, 54, 52)) -> None:
    """Draw a path's tube as a band (opaque, so that overlaps at the joints do not show)."""
    ends = np.empty((2 * len(path.starts), 2))
    ends[0::2], ends[1::2] = path.starts, path.ends
    arcade.draw_lines(point_list(ends), color, 2 * path.radius)
    for x, y in path.points.tolist():
        arcade.draw_circle_filled(x, y, path.radius, color)


def draw_cross(x: float, y: float, color: RGBOrA255 = TARGET_COLOR, size: float = 7) -> None:
    """A small ``x`` marking a target point."""
    arcade.draw_line(x - size, y - size, x + size, y + size, color, 2)
    arcade.draw_line(x - size, y + size, x + size, y - size, color, 2)
