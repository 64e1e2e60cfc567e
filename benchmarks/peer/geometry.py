"""Walls, obstacles and routes of the hand-written peer, with the few queries steering needs.

Every wall and obstacle is a capsule: a core segment with a radius (half a wall's thickness,
an obstacle's radius on a core of length 0), so one sweep and one overlap test serve both.
The level keeps them in a uniform grid (a dict from cell to the shapes whose bounding box
touches the cell), as a game would, and answers "what is near this box".
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable, Sequence

Point = tuple[float, float]


class Shape:
    """A capsule: core from ``a`` along the unit ``u`` for ``length`` px, grown by ``radius``.

    Args:
        a: First end of the core, px.
        b: Second end of the core, px (``a`` again for a round obstacle).
        radius: px.
        wall: Whether it is a wall (else an obstacle).
    """

    __slots__ = ("ax", "ay", "bx", "by", "length", "radius", "ux", "uy", "wall")

    def __init__(self, a: Point, b: Point, radius: float, wall: bool) -> None:
        self.ax, self.ay = float(a[0]), float(a[1])
        self.bx, self.by = float(b[0]), float(b[1])
        self.radius = float(radius)
        self.wall = wall
        dx, dy = self.bx - self.ax, self.by - self.ay
        self.length = math.hypot(dx, dy)
        if self.length > 0.0:
            self.ux, self.uy = dx / self.length, dy / self.length
        else:
            self.ux, self.uy = 1.0, 0.0

    def bounds(self) -> tuple[float, float, float, float]:
        """Bounding box ``(x0, y0, x1, y1)``, radius included, px."""
        r = self.radius
        return (
            min(self.ax, self.bx) - r,
            min(self.ay, self.by) - r,
            max(self.ax, self.bx) + r,
            max(self.ay, self.by) + r,
        )


def wall(a: Point, b: Point, thickness: float = 0.0) -> Shape:
    """A wall from ``a`` to ``b``, ``thickness`` px thick."""
    return Shape(a, b, 0.5 * thickness, True)


def obstacle(center: Point, radius: float) -> Shape:
    """A round obstacle."""
    return Shape(center, center, radius, False)


class Level:
    """Walls and obstacles in a uniform grid of ``cell`` px.

    Args:
        shapes: The walls and obstacles.
        cell: Side of a grid cell, px.
    """

    def __init__(self, shapes: Iterable[Shape], cell: float = 64.0) -> None:
        self.shapes = list(shapes)
        self.cell = cell
        self.walls: dict[tuple[int, int], list[Shape]] = {}
        self.obstacles: dict[tuple[int, int], list[Shape]] = {}
        for shape in self.shapes:
            cells = self.walls if shape.wall else self.obstacles
            x0, y0, x1, y1 = shape.bounds()
            for i in range(int(x0 // cell), int(x1 // cell) + 1):
                for j in range(int(y0 // cell), int(y1 // cell) + 1):
                    cells.setdefault((i, j), []).append(shape)

    def near(
        self, x0: float, y0: float, x1: float, y1: float, walls: bool = True, obstacles: bool = True
    ) -> list[Shape]:
        """The shapes whose bounding boxes may touch the box ``(x0, y0)-(x1, y1)``, each once."""
        cell = self.cell
        found: dict[Shape, None] = {}
        grids = ((self.walls,) if walls else ()) + ((self.obstacles,) if obstacles else ())
        for i in range(int(x0 // cell), int(x1 // cell) + 1):
            for j in range(int(y0 // cell), int(y1 // cell) + 1):
                for grid in grids:
                    bucket = grid.get((i, j))
                    if bucket:
                        for shape in bucket:
                            found[shape] = None
        return list(found)


def sweep(
    sx: float, sy: float, dx: float, dy: float, r: float, shape: Shape
) -> tuple[float, float, float] | None:
    """First contact of a circle of radius ``r`` moving from ``s`` by ``d`` with ``shape``.

    Returns:
        ``(key, nx, ny)``: ``key`` is the fraction of the move at the contact (0 to 1), or a
        negative depth when the circle starts inside; ``n`` the outward normal there. None
        when the move does not touch the shape.
    """
    big = shape.radius + r
    ux, uy, length = shape.ux, shape.uy, shape.length
    wx, wy = sx - shape.ax, sy - shape.ay
    # In the shape's frame: x along its core, y across it.
    px, py = wx * ux + wy * uy, wy * ux - wx * uy
    qx, qy = dx * ux + dy * uy, dy * ux - dx * uy
    gap = abs(py) - big
    if gap < 0.0:  # starts between the core's two flat faces
        y = px
        if 0.0 <= px <= length:
            return gap, -uy * math.copysign(1.0, py), ux * math.copysign(1.0, py)
    else:
        if py * qy >= 0.0 and not (py == 0.0 and qy != 0.0):
            return None  # moving along the faces or away from them: never touches
        t = gap / abs(qy)
        if t > 1.0:
            return None
        y = px + t * qx
        if 0.0 <= y <= length:  # meets a flat face
            side = math.copysign(1.0, py) if py != 0.0 else -math.copysign(1.0, qy)
            return t, -uy * side, ux * side
    # Otherwise it can only meet the disc at the nearer end of the core.
    ex = px - (0.0 if y < 0.0 else length)
    c = ex * ex + py * py - big * big
    if c < 0.0:  # starts inside that disc
        d = math.sqrt(ex * ex + py * py)
        if d <= 1e-9:
            return -big, -uy, ux
        lx, ly = ex / d, py / d
        return d - big, lx * ux - ly * uy, lx * uy + ly * ux
    b = ex * qx + py * qy
    disc = b * b - (qx * qx + qy * qy) * c
    if b >= 0.0 or disc < 0.0:
        return None
    t = c / (math.sqrt(disc) - b)
    if t > 1.0:
        return None
    cx, cy = ex + t * qx, py + t * qy
    d = math.hypot(cx, cy)
    if d <= 1e-9:
        return t, -dx, -dy
    lx, ly = cx / d, cy / d
    return t, lx * ux - ly * uy, lx * uy + ly * ux


def overlap(x: float, y: float, r: float, shape: Shape) -> tuple[float, float, float]:
    """How deep a circle at ``(x, y)`` of radius ``r`` is in ``shape`` (negative: the gap)
    and the outward unit normal ``(depth, nx, ny)``."""
    wx, wy = x - shape.ax, y - shape.ay
    along = wx * shape.ux + wy * shape.uy
    along = min(max(along, 0.0), shape.length)
    ex, ey = wx - along * shape.ux, wy - along * shape.uy
    d = math.hypot(ex, ey)
    if d <= 1e-9:
        return shape.radius + r, -shape.uy, shape.ux
    return shape.radius + r - d, ex / d, ey / d


def crosses(x0: float, y0: float, x1: float, y1: float, shape: Shape) -> bool:
    """Whether the move ``(x0, y0) -> (x1, y1)`` crosses the centre line of a wall."""
    rx, ry = x1 - x0, y1 - y0
    sx, sy = shape.bx - shape.ax, shape.by - shape.ay
    den = rx * sy - ry * sx
    if den == 0.0:
        return False
    qx, qy = shape.ax - x0, shape.ay - y0
    t = (qx * sy - qy * sx) / den
    u = (qx * ry - qy * rx) / den
    return 0.0 < t <= 1.0 and 0.0 <= u <= 1.0


class Route:
    """A closed polyline with a tube radius, for path following.

    Args:
        points: The corners, px; the last joins the first.
        radius: Tube radius, px.
    """

    def __init__(self, points: Sequence[Point], radius: float) -> None:
        self.radius = float(radius)
        self.segments: list[tuple[float, float, float, float, float]] = []  # ax, ay, ux, uy, len
        self.starts: list[float] = []  # distance along the route of each segment's start
        total = 0.0
        count = len(points)
        for index in range(count):
            ax, ay = map(float, points[index])
            bx, by = map(float, points[(index + 1) % count])
            length = math.hypot(bx - ax, by - ay)
            self.segments.append((ax, ay, (bx - ax) / length, (by - ay) / length, length))
            self.starts.append(total)
            total += length
        self.length = total

    def point_at(self, distance: float) -> Point:
        """The point ``distance`` px along the route (wrapping round)."""
        distance %= self.length
        index = bisect_right(self.starts, distance) - 1
        ax, ay, ux, uy, length = self.segments[index]
        t = min(distance - self.starts[index], length)
        return ax + ux * t, ay + uy * t

    def project(
        self, x: float, y: float, lo: float = 0.0, hi: float | None = None
    ) -> tuple[float, float, float, float, float, float]:
        """The point of the route nearest to ``(x, y)`` between ``lo`` and ``hi`` px along
        it (the whole loop by default; a window shorter than the loop may wrap).

        Returns:
            ``(distance along, px, py, tangent x, tangent y, offset)``: the earliest of equally
            near points.
        """
        if hi is None:
            hi = lo + self.length
        lap = math.floor(lo / self.length) * self.length
        lo, hi = lo - lap, hi - lap
        count = len(self.segments)
        index = bisect_right(self.starts, lo) - 1
        best = None
        best_d2 = math.inf
        while True:
            at = self.starts[index % count] + (index // count) * self.length
            if at > hi:
                break
            ax, ay, ux, uy, length = self.segments[index % count]
            t = (x - ax) * ux + (y - ay) * uy
            t = max(min(max(t, lo - at), hi - at, length), 0.0)  # within the window
            px, py = ax + ux * t, ay + uy * t
            d2 = (x - px) ** 2 + (y - py) ** 2
            if d2 < best_d2:
                best_d2 = d2
                best = (at + t, px, py, ux, uy)
            index += 1
            if index >= 2 * count:
                break
        assert best is not None
        distance, px, py, ux, uy = best
        if distance >= self.length:
            distance -= self.length
        return distance, px, py, ux, uy, math.sqrt(best_d2)
