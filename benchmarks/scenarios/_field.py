"""The cluttered field shared by the walls, crowd and squads scenarios, and closed routes in it.

A field is a 2000 x 2000 px square closed by four walls, with short walls and round obstacles
scattered at seeded random places. Scattering can keep clear of routes: a wall or obstacle
that comes within ``margin`` px of a route's segments is drawn again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import arcade_steering as steer

SIZE = 2000.0
CENTER = np.array([SIZE / 2, SIZE / 2])
#: Scattered walls and obstacles keep this far from the border, px.
INSET = 100.0
WALL_THICKNESS = 4.0
#: Redraws allowed per wall or obstacle before giving up on keeping a route clear.
MAX_DRAWS = 1000


@dataclass
class Field:
    """Walls and obstacles of a field, as arrays.

    Attributes:
        walls: Scattered walls ``(k, 2, 2)``: end points a and b, px (the border not included).
        obstacles: Obstacles ``(m, 3)``: centre x, y and radius, px.
    """

    walls: np.ndarray
    obstacles: np.ndarray

    def world(self) -> steer.SteeringWorld:
        """A new world (seed 0) holding the border, the walls and the obstacles."""
        world = steer.SteeringWorld(seed=0)
        world.add_walls(BORDER.tolist(), closed=True, thickness=WALL_THICKNESS)
        for a, b in self.walls.tolist():
            world.add_wall(tuple(a), tuple(b), thickness=WALL_THICKNESS)
        for x, y, radius in self.obstacles.tolist():
            world.add_obstacle((x, y), radius)
        return world

    def clearance(self, route: np.ndarray) -> float:
        """Distance from a closed route (points ``(p, 2)``) to the nearest wall, border
        included, or obstacle surface, px."""
        a, b = _closed_segments(route)
        walls = np.concatenate((self.walls, _closed_segments(BORDER).transpose(1, 0, 2)))
        to_walls = segment_distances(a[:, None], b[:, None], walls[None, :, 0], walls[None, :, 1])
        if not len(self.obstacles):
            return float(to_walls.min())
        centers, radii = self.obstacles[:, :2], self.obstacles[:, 2]
        to_obstacles = point_segment_distances(centers[None], a[:, None], b[:, None]) - radii
        return float(min(to_walls.min(), to_obstacles.min()))


BORDER = np.array([(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)])


def scatter(
    rng: np.random.Generator,
    walls: int,
    wall_length: tuple[float, float],
    obstacles: int,
    obstacle_radius: tuple[float, float],
    clear_of: np.ndarray | None = None,
    margin: float = 0.0,
) -> Field:
    """Walls of random direction and length and round obstacles at uniform random places.

    Draws in a fixed order (each wall: start point, angle, length; then each obstacle: centre,
    radius), so a field without a route to keep clear of is the same for the same ``rng`` state.

    Args:
        rng: Source of the draws (advanced).
        walls: Number of walls.
        wall_length: Lowest and highest wall length, px.
        obstacles: Number of obstacles.
        obstacle_radius: Lowest and highest obstacle radius, px.
        clear_of: A closed route ``(p, 2)`` to keep clear of, or None.
        margin: Clearance between the route's centre line and any wall or obstacle surface, px.

    Raises:
        RuntimeError: No clear place found for a wall or obstacle in ``MAX_DRAWS`` draws.
    """
    route = None if clear_of is None else _closed_segments(clear_of)
    placed_walls = []
    for _ in range(walls):
        for _ in range(MAX_DRAWS):
            a = rng.uniform(INSET, SIZE - INSET, 2)
            angle, length = rng.uniform(0, np.pi), rng.uniform(*wall_length)
            b = a + length * np.array([np.cos(angle), np.sin(angle)])
            if route is None or _wall_clear(route, a, b, margin + WALL_THICKNESS / 2):
                placed_walls.append((a, b))
                break
        else:
            raise RuntimeError("no clear place for a wall")
    placed_obstacles = []
    for _ in range(obstacles):
        for _ in range(MAX_DRAWS):
            center, radius = rng.uniform(INSET, SIZE - INSET, 2), rng.uniform(*obstacle_radius)
            if route is None or _point_clear(route, center, margin + radius):
                placed_obstacles.append((*center, radius))
                break
        else:
            raise RuntimeError("no clear place for an obstacle")
    return Field(
        np.array(placed_walls).reshape(-1, 2, 2), np.array(placed_obstacles).reshape(-1, 3)
    )


def loop(
    points: int,
    center: np.ndarray = CENTER,
    radius: float = 650.0,
    wobble: float = 150.0,
    phase: float = 0.0,
) -> np.ndarray:
    """``points`` points ``(points, 2)`` of a wobbly closed loop: three lobes of ``wobble`` px
    on a circle of ``radius`` px around ``center``."""
    angle = np.linspace(0.0, 2.0 * np.pi, points, endpoint=False)
    reach = radius + wobble * np.sin(3.0 * angle + phase)
    return center + reach[:, None] * np.column_stack((np.cos(angle), np.sin(angle)))


def place_along(
    route: np.ndarray,
    count: int,
    spread: float,
    rng: np.random.Generator,
    span: tuple[float, float] | None = None,
) -> np.ndarray:
    """``count`` points ``(count, 2)`` at uniform random places along a closed route, up to
    ``spread`` px off it in x and y.

    Args:
        route: Points of the closed route ``(p, 2)``.
        count: Number of points.
        spread: Largest offset from the route in x and in y, px.
        rng: Source of the draws (advanced).
        span: Distances along the route from its first point to place between, px (taken
            round the loop: ``(-300, 0)`` is the last 300 px before the first point); None for
            all of it.
    """
    a, b = _closed_segments(route)
    lengths = np.hypot(*(b - a).T)
    ends = np.cumsum(lengths)
    along = rng.uniform(*(span or (0.0, ends[-1])), count) % ends[-1]
    segment = np.minimum(np.searchsorted(ends, along), len(a) - 1)
    t = ((along - (ends - lengths)[segment]) / lengths[segment])[:, None]
    return a[segment] + t * (b - a)[segment] + rng.uniform(-spread, spread, (count, 2))


def outside(world: steer.SteeringWorld) -> dict[str, int]:
    """Result field ``outside``: how many agents ended outside the field (must be none)."""
    position = np.array([agent.position for agent in world.agents]).reshape(-1, 2)
    return {"outside": int(np.count_nonzero(((position <= 0.0) | (position >= SIZE)).any(1)))}


# -- distances -------------------------------------------------------------------------------


def point_segment_distances(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances from points ``p`` to segments ``a``-``b`` (all ``(..., 2)``, broadcast), px."""
    ab = b - a
    length2 = np.einsum("...i,...i->...", ab, ab)
    t = np.einsum("...i,...i->...", p - a, ab) / np.where(length2 > 0.0, length2, 1.0)
    closest = a + np.clip(t, 0.0, 1.0)[..., None] * ab
    return np.hypot(*np.moveaxis(p - closest, -1, 0))


def segment_distances(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Distances between segments ``a``-``b`` and ``c``-``d`` (``(..., 2)``, broadcast), px:
    zero where they cross, else the least end-point-to-segment distance."""
    ends = np.minimum.reduce(
        [
            point_segment_distances(a, c, d),
            point_segment_distances(b, c, d),
            point_segment_distances(c, a, b),
            point_segment_distances(d, a, b),
        ]
    )
    crossing = (np.sign(_cross(a, b, c)) * np.sign(_cross(a, b, d)) < 0) & (
        np.sign(_cross(c, d, a)) * np.sign(_cross(c, d, b)) < 0
    )
    return np.where(crossing, 0.0, ends)


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """z of (a - o) x (b - o): which side of o-a the point b is on."""
    oa, ob = a - o, b - o
    return oa[..., 0] * ob[..., 1] - oa[..., 1] * ob[..., 0]


def _closed_segments(points: np.ndarray) -> np.ndarray:
    """Segments of a closed polyline: start and end points, ``(2, p, 2)``."""
    points = np.asarray(points, dtype=float)
    return np.stack((points, np.roll(points, -1, axis=0)))


def _wall_clear(route: np.ndarray, a: np.ndarray, b: np.ndarray, margin: float) -> bool:
    return bool(segment_distances(route[0], route[1], a, b).min() > margin)


def _point_clear(route: np.ndarray, center: np.ndarray, margin: float) -> bool:
    return bool(point_segment_distances(center, route[0], route[1]).min() > margin)
