"""Batched debug drawing: shapes recorded during an update, drawn with few GL calls."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .geometry import StaticGeometry

Color = tuple[int, int, int, int]

VELOCITY_COLOR: Color = (80, 220, 120, 255)
FORCE_COLOR: Color = (255, 150, 60, 255)
TARGET_COLOR: Color = (90, 170, 255, 255)
#: Walls and obstacles: feelers (hit ones in HIT_COLOR, with contacts and normals), detection
#: boxes, the obstacle chosen as the threat.
FEELER_COLOR: Color = (160, 160, 160, 200)
HIT_COLOR: Color = (255, 50, 50, 255)
BOX_COLOR: Color = (120, 200, 255, 160)
THREAT_COLOR: Color = (255, 120, 0, 255)
#: Group behaviours: separation pushes, neighbour radii, leaders' sight cones.
SEPARATION_COLOR: Color = (240, 90, 200, 255)
NEIGHBOR_COLOR: Color = (150, 150, 150, 120)
SIGHT_COLOR: Color = (255, 220, 80, 200)
#: Paths: centre line (and targets not steered to), tube outline, targets being steered to.
PATH_COLOR: Color = (200, 200, 200, 255)
PATH_TUBE_COLOR: Color = (120, 120, 120, 160)
STEERING_COLOR: Color = (255, 60, 60, 255)
#: The world's walls (centre lines) and obstacles (outlines).
GEOMETRY_COLOR: Color = (230, 230, 230, 110)
#: Seconds of velocity drawn (a line as long as the distance covered in that time).
VELOCITY_SECONDS = 0.25
#: Seconds² of force drawn, per unit of mass.
FORCE_SECONDS = 0.05
_CIRCLE_SIDES = 20


class DebugRecorder:
    """Collects lines, points and circles by colour during one update.

    Components record into ``ctx.debug`` (None when nobody draws), e.g.
    ``ctx.debug.lines(ctx.position, targets, TARGET_COLOR)``.
    """

    def __init__(self) -> None:
        self.segments: dict[Color, list[np.ndarray]] = defaultdict(list)
        self.dots: dict[Color, list[np.ndarray]] = defaultdict(list)
        self._seen: set[object] = set()

    def once(self, key: object) -> bool:
        """True the first time ``key`` is seen this update: draw shared things (a path
        followed by many agents, a flow field) once per frame, not once per agent."""
        if key in self._seen:
            return False
        self._seen.add(key)
        return True

    def lines(self, starts: np.ndarray, ends: np.ndarray, color: Color) -> None:
        """Record segments from ``starts`` to ``ends`` (both ``(n, 2)``)."""
        pairs = np.empty((2 * len(starts), 2))
        pairs[0::2] = starts
        pairs[1::2] = ends
        self.segments[color].append(pairs)

    def points(self, points: np.ndarray, color: Color) -> None:
        """Record dots at ``points`` ``(n, 2)``."""
        self.dots[color].append(np.asarray(points, dtype=float).reshape(-1, 2))

    def circles(self, centers: np.ndarray, radii: np.ndarray, color: Color) -> None:
        """Record circle outlines, ``centers`` ``(n, 2)``, ``radii`` ``(n,)`` or a scalar."""
        centers = np.asarray(centers, dtype=float).reshape(-1, 2)
        radii = np.broadcast_to(np.asarray(radii, dtype=float), (len(centers),))
        angles = np.linspace(0.0, 2.0 * np.pi, _CIRCLE_SIDES + 1)
        ring = np.column_stack((np.cos(angles), np.sin(angles)))
        outline = centers[:, None, :] + radii[:, None, None] * ring[None, :, :]
        self.lines(outline[:, :-1].reshape(-1, 2), outline[:, 1:].reshape(-1, 2), color)


def draw_world(
    position: np.ndarray,
    velocity: np.ndarray,
    acceleration: np.ndarray,
    geometry: StaticGeometry,
    recorded: DebugRecorder | None,
) -> None:
    """Draw walls, obstacles, velocities, forces and the recorded shapes.

    One ``draw_lines`` (and one ``draw_points``) call per colour.

    Args:
        position: The agents' positions ``(n, 2)``.
        velocity: Their velocities ``(n, 2)``, px/s.
        acceleration: Their last steering accelerations ``(n, 2)`` (force over mass).
        geometry: The walls and obstacles.
        recorded: What the components recorded during the last update, or None.
    """
    import arcade

    overlay = DebugRecorder()
    overlay.lines(geometry.segment_a, geometry.segment_b, GEOMETRY_COLOR)
    overlay.circles(geometry.circle_center, geometry.circle_radius, GEOMETRY_COLOR)
    overlay.lines(position, position + velocity * VELOCITY_SECONDS, VELOCITY_COLOR)
    overlay.lines(position, position + acceleration * FORCE_SECONDS, FORCE_COLOR)
    for recorder in (recorded, overlay):
        if recorder is None:
            continue
        for color, chunks in recorder.segments.items():
            points = np.concatenate(chunks)
            if len(points):
                arcade.draw_lines(points.tolist(), color, 1.5)
        for color, chunks in recorder.dots.items():
            points = np.concatenate(chunks)
            if len(points):
                arcade.draw_points(points.tolist(), color, 5)
