"""Maze soak: solid agents of many sizes in a maze of thin walls, tight doors and obstacles.

200 solid agents of radius 2-20 px seek random points of a 6 x 6 maze of 160 px cells. The
maze's walls are 0-2 px thick; each door between two cells is 0.5 to 2 times the diameter of
a random agent size wide, so many agents cannot pass many doors; some cells hold a diagonal
wall from a corner that makes acute corners of 20-40 degrees; obstacles touch wall ends.
During the run obstacles appear (on agents too), grow and vanish, and every update has a
random ``dt`` from 0 to 0.1 s (sub-stepped by the world). Over every update it counts:

- crossings: moves of an agent's centre, sub-step by sub-step, across a wall's core line;
- agents in the wrong cell: in a cell they cannot reach from where they started through
  doors at least as wide as they are;
- the worst penetration: how deep a circle is inside a wall or obstacle after an update, for
  every agent but the buried ones: those an obstacle was put on or grown over, until they are
  clear again (wedged in a corner, no push out of it may lead to a clear place: the solid
  step keeps them on their side of every wall, overlapping). How many were buried, and how
  many got clear in the update after, is counted too.

Usage::

    python benchmarks/maze_soak.py            # 5,000 updates
    python benchmarks/maze_soak.py --updates 500 --seed 3
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import numpy as np

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade_steering as steer
from arcade_steering.testing import StubSprite

CELLS = 6
CELL = 160.0
SIZE = CELLS * CELL
AGENTS = 200
RADII = (2.0, 20.0)
SPEEDS = (50.0, 400.0)
#: Every this many updates an obstacle appears, grows or vanishes.
CHURN = 20
MAX_ADDED = 30


@dataclass
class Maze:
    """The maze's walls and doors.

    Attributes:
        walls: Wall segments ``(m, 4)``: ``ax, ay, bx, by`` px.
        doors: ``(cell, cell, width)``: two neighbouring cells (``row * CELLS + column``)
            and the clear width between their door's wall ends, px (0 for no door).
    """

    walls: np.ndarray
    doors: list[tuple[int, int, float]]

    def reachable(self, cell: int, radius: float) -> np.ndarray:
        """Which cells ``(CELLS * CELLS,)`` bool a circle of ``radius`` can reach from ``cell``."""
        seen = np.zeros(CELLS * CELLS, dtype=bool)
        seen[cell] = True
        todo = [cell]
        while todo:
            here = todo.pop()
            for a, b, width in self.doors:
                if width >= 2.0 * radius and here in (a, b):
                    there = b if here == a else a
                    if not seen[there]:
                        seen[there] = True
                        todo.append(there)
        return seen


@dataclass
class Figures:
    """What a soak run found (see the module's text)."""

    updates: int = 0
    moves: int = 0
    crossings: int = 0
    wrong_cell: int = 0
    worst_penetration: float = 0.0
    updates_over_half_px: int = 0
    buried: int = 0
    dug_out_at_once: int = 0
    buried_agent_updates: int = 0
    nan: int = 0
    seconds: float = 0.0
    obstacles_added: int = 0
    obstacles_grown: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def cell_of(points: np.ndarray) -> np.ndarray:
    """The cell (``row * CELLS + column``) holding each point ``(n, 2)``."""
    column = np.clip((points[:, 0] // CELL).astype(int), 0, CELLS - 1)
    row = np.clip((points[:, 1] // CELL).astype(int), 0, CELLS - 1)
    return row * CELLS + column


def build_maze(world: steer.SteeringWorld, rng: np.random.Generator) -> Maze:
    """Fill ``world`` with a maze: outer box, walls between cells with doors, diagonal walls
    making acute corners, and obstacles touching wall ends."""
    walls: list[tuple[float, float, float, float]] = []
    doors: list[tuple[int, int, float]] = []

    def wall(a: tuple[float, float], b: tuple[float, float], thickness: float) -> None:
        world.add_wall(a, b, thickness=thickness)
        walls.append((*a, *b))

    corners = [(0.0, 0.0), (SIZE, 0.0), (SIZE, SIZE), (0.0, SIZE)]
    for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
        wall(a, b, 2.0)
    ends: list[tuple[np.ndarray, np.ndarray, float]] = []  # door ends: point, way out, thickness
    for row in range(CELLS):
        for column in range(CELLS):
            here = row * CELLS + column
            for across, there in ((True, here + 1), (False, here + CELLS)):
                if (across and column == CELLS - 1) or (not across and row == CELLS - 1):
                    continue
                # The boundary between the two cells, from ``start`` along ``way``.
                if across:
                    start, way = np.array([(column + 1) * CELL, row * CELL]), np.array([0.0, 1.0])
                else:
                    start, way = np.array([column * CELL, (row + 1) * CELL]), np.array([1.0, 0.0])
                thickness = float(rng.choice([0.0, 1.0, 2.0]))
                if rng.random() < 0.15:  # no door
                    wall(tuple(start), tuple(start + CELL * way), thickness)
                    doors.append((here, there, 0.0))
                    continue
                width = float(rng.uniform(0.5, 2.0) * 2.0 * rng.uniform(*RADII))
                opening = width + thickness  # between the end points: the caps take the rest
                low = float(rng.uniform(12.0, CELL - 12.0 - opening))
                a, b = start + low * way, start + (low + opening) * way
                wall(tuple(start), tuple(a), thickness)
                wall(tuple(b), tuple(start + CELL * way), thickness)
                doors.append((here, there, width))
                ends += [(a, -way, thickness), (b, way, thickness)]
            if rng.random() < 0.4:  # an acute corner: a diagonal from a corner of the cell
                corner = np.array([column, row]) + rng.integers(0, 2, 2)
                inward = np.where(corner > np.array([column, row]), -1.0, 1.0)
                angle = math.radians(rng.uniform(20.0, 40.0))
                if rng.random() < 0.5:
                    direction = inward * np.array([math.cos(angle), math.sin(angle)])
                else:
                    direction = inward * np.array([math.sin(angle), math.cos(angle)])
                origin = corner * CELL
                tip = origin + direction * CELL * rng.uniform(0.4, 0.65)
                wall(tuple(origin), tuple(tip), float(rng.choice([0.0, 1.0, 2.0])))
    for index in rng.choice(len(ends), len(ends) // 6, replace=False):
        point, way, thickness = ends[index]
        radius = float(rng.uniform(6.0, 18.0))
        side = np.array([-way[1], way[0]]) * rng.choice([-1.0, 1.0])
        out = way * 0.3 + side
        out /= np.hypot(*out)
        world.add_obstacle(tuple(point + out * (radius + thickness / 2)), radius)
    return Maze(np.array(walls), doors)


def crossings(start: np.ndarray, end: np.ndarray, walls: np.ndarray) -> int:
    """Moves ``start -> end`` (``(n, 2)``) that cross a wall's core line (walls ``(m, 4)``);
    ending on the line counts, starting on it does not."""
    r = (end - start)[:, None, :]
    s = (walls[:, 2:] - walls[:, :2])[None]
    qp = walls[None, :, :2] - start[:, None, :]
    denominator = r[..., 0] * s[..., 1] - r[..., 1] * s[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (qp[..., 0] * s[..., 1] - qp[..., 1] * s[..., 0]) / denominator
        u = (qp[..., 0] * r[..., 1] - qp[..., 1] * r[..., 0]) / denominator
    crossed = (denominator != 0) & (t > 0) & (t <= 1) & (u >= 0) & (u <= 1)
    return int(crossed.any(axis=1).sum())


@contextmanager
def sub_steps(into: list[tuple[np.ndarray, np.ndarray]]) -> Iterator[None]:
    """Record each sub-step's solid moves (start, end) while the block runs, on the numpy
    path and on the native one."""
    from arcade_steering._native.solid_step import NativeSolid
    from arcade_steering.component import integrate

    keep_out, native = integrate.keep_out, NativeSolid.keep_out

    def recorded(geometry: Any, start: Any, end: Any, velocity: Any, radius: Any) -> Any:
        position, speed = keep_out(geometry, start, end, velocity, radius)
        into.append((np.array(start), position.copy()))
        return position, speed

    def recorded_native(
        self: NativeSolid, agents: Any, geometry: Any, slots: Any, start: Any
    ) -> int:
        status = native(self, agents, geometry, slots, start)
        # The positions the C wrote: the agents' column the as_agents struct points at.
        column = self._ffi.buffer(agents.position, 16 * agents.capacity)
        into.append((np.array(start), np.frombuffer(column).reshape(-1, 2)[slots]))
        return status

    integrate.keep_out = recorded
    NativeSolid.keep_out = recorded_native  # type: ignore[method-assign]
    try:
        yield
    finally:
        integrate.keep_out = keep_out
        NativeSolid.keep_out = native  # type: ignore[method-assign]


def free_point(world: steer.SteeringWorld, rng: np.random.Generator, clearance: float) -> tuple:
    """A random point of the maze at least ``clearance`` px from every wall and obstacle."""
    while True:
        point = rng.uniform(4.0, SIZE - 4.0, (64, 2))
        clear = ~world.geometry.nearest(point, clearance).found
        if clear.any():
            return tuple(point[clear.nonzero()[0][0]])


def run(updates: int, seed: int = 0, agents: int = AGENTS) -> Figures:
    """Run the soak for ``updates`` updates; return its figures."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    maze = build_maze(world, rng)
    radii = rng.uniform(*RADII, agents)
    sprites, targets = [], []
    for radius in radii:
        sprite = StubSprite(*free_point(world, rng, radius + 1.0))
        target = StubSprite(*free_point(world, rng, 0.0))
        speed = float(rng.uniform(*SPEEDS))
        world.attach(
            sprite, steer.Seek(target), max_speed=speed, max_force=4 * speed, radius=float(radius)
        )
        sprites.append(sprite)
        targets.append(target)
    places = np.array([s.position for s in sprites])
    allowed = np.array([maze.reachable(c, r) for c, r in zip(cell_of(places), radii, strict=True)])
    figures = Figures()
    added: list[Any] = []
    moves: list[tuple[np.ndarray, np.ndarray]] = []
    buried = np.zeros(agents, dtype=bool)
    clock = time.perf_counter()
    for step in range(updates):
        just = np.zeros(agents, dtype=bool)
        if step % CHURN == CHURN - 1:
            just = _churn(world, rng, added, places, radii, figures)
            buried |= just
        for index in (rng.random(agents) < 0.01).nonzero()[0]:
            targets[index].position = free_point(world, rng, 0.0)
        moves.clear()
        with sub_steps(moves):
            world.update(float(rng.uniform(0.0, 0.1)))
        places = np.array([s.position for s in sprites])
        figures.updates += 1
        figures.nan += int((~np.isfinite(places)).any(axis=1).sum())
        for start, end in moves:
            figures.moves += len(start)
            figures.crossings += crossings(start, end, maze.walls)
        figures.wrong_cell += int((~allowed[np.arange(agents), cell_of(places)]).sum())
        depth = radii - world.geometry.nearest(places, RADII[1]).distance
        figures.buried += int(just.sum())
        figures.dug_out_at_once += int((just & (depth <= 0.0)).sum())
        buried &= depth > 0.0
        figures.buried_agent_updates += int(buried.sum())
        free = depth[~buried].max()
        figures.worst_penetration = max(figures.worst_penetration, float(free))
        figures.updates_over_half_px += int(free > 0.5)
    figures.seconds = time.perf_counter() - clock
    return figures


def _churn(
    world: steer.SteeringWorld,
    rng: np.random.Generator,
    added: list[Any],
    places: np.ndarray,
    radii: np.ndarray,
    figures: Figures,
) -> np.ndarray:
    """Add, grow or remove an obstacle; return which agents it was put on or grown over
    (``places`` ``(n, 2)``: where they are)."""
    choice = rng.random()
    if added and (choice < 0.25 or len(added) >= MAX_ADDED):
        world.remove_shape(added.pop(int(rng.integers(len(added)))))
        return np.zeros(len(radii), dtype=bool)
    if added and choice < 0.6:
        old = added.pop(int(rng.integers(len(added))))
        center, radius = tuple(old.offset), old.radius + float(rng.uniform(4.0, 15.0))
        world.remove_shape(old)
        figures.obstacles_grown += 1
    else:
        center, radius = tuple(rng.uniform(0.0, SIZE, 2)), float(rng.uniform(5.0, 30.0))
        figures.obstacles_added += 1
    added.append(world.add_obstacle(center, min(radius, 45.0)))
    return np.hypot(*(places - np.array(center)).T) < min(radius, 45.0) + radii


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=5000, help="updates (5000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the maze and the run (0)")
    args = parser.parse_args(argv)
    figures = run(args.updates, args.seed)
    print(f"maze soak: {figures.updates:,} updates, {AGENTS} agents, seed {args.seed}")
    print(f"  sub-step moves checked        {figures.moves:,}")
    print(f"  crossings of a wall           {figures.crossings}")
    print(f"  agents in a wrong cell        {figures.wrong_cell} (agent-updates)")
    print(f"  worst penetration             {figures.worst_penetration:.4f} px, buried ones aside")
    print(f"  updates with one over 0.5 px  {figures.updates_over_half_px}")
    print(
        f"  agents buried by an obstacle  {figures.buried}, clear in the next update: "
        f"{figures.dug_out_at_once}; agent-updates spent buried: {figures.buried_agent_updates}"
    )
    print(f"  obstacles added {figures.obstacles_added}, grown {figures.obstacles_grown}")
    print(f"  non-finite positions          {figures.nan}")
    print(f"  {figures.seconds:.1f} s")
    bad = figures.crossings or figures.wrong_cell or figures.nan or figures.updates_over_half_px
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
