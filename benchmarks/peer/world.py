"""The hand-written peer's agents and update loop: one object per agent, ``math`` only."""

from __future__ import annotations

import math
from typing import Any

from .geometry import Level, overlap, sweep

#: Below this speed (px/s) an agent keeps its heading and its sprite does not turn.
HEADING_MIN_SPEED = 1.0
#: Sweep-and-slide rounds per move: one for a wall, two for a corner.
SWEEPS = 4
#: Gap (px) left between a circle and a surface it stopped at.
SKIN = 1e-3
#: Art facing, degrees counter-clockwise from +x.
FACINGS = {"right": 0.0, "up": 90.0, "left": 180.0, "down": 270.0}


class Agent:
    """One steered sprite: its state as floats, its behaviour tree and its sprite.

    The sprite's position is the truth between updates (the game may move it); the angle
    written to it is arcade's, degrees clockwise, turned from ``facing``.
    """

    __slots__ = (
        "behavior",
        "facing",
        "hx",
        "hy",
        "index",
        "mass",
        "max_force",
        "max_speed",
        "radius",
        "response_time",
        "rotate",
        "solid",
        "sprite",
        "vx",
        "vy",
        "x",
        "y",
    )

    def __init__(
        self,
        sprite: Any,
        behavior: Any,
        index: int,
        *,
        max_speed: float = 200.0,
        max_force: float = 400.0,
        mass: float = 1.0,
        response_time: float = 0.1,
        radius: float | None = None,
        facing: str | float = "right",
        rotate: bool = True,
        solid: bool = True,
    ) -> None:
        self.sprite = sprite
        self.behavior = behavior
        self.index = index
        self.x, self.y = sprite.position
        self.vx = self.vy = 0.0
        self.max_speed = max_speed
        self.max_force = max_force
        self.mass = mass
        self.response_time = response_time
        if radius is None:
            radius = 0.5 * min(sprite.width, sprite.height)
        self.radius = radius
        self.facing = FACINGS[facing] if isinstance(facing, str) else float(facing)
        heading = math.radians(self.facing - sprite.angle)
        self.hx, self.hy = math.cos(heading), math.sin(heading)
        self.rotate = rotate
        self.solid = solid


class World:
    """The agents, the level and the neighbour hash.

    Args:
        level: The walls and obstacles (None for an open field).
        cell: Side of the neighbour hash's cells, px (about the largest neighbour radius).
        max_step: Longest step, s; a longer update is split into equal steps.
    """

    def __init__(
        self, level: Level | None = None, cell: float = 50.0, max_step: float = 1 / 30
    ) -> None:
        self.level = level if level is not None else Level(())
        self.cell = cell
        self.max_step = max_step
        self.agents: list[Agent] = []
        self.time = 0.0
        self.dt = 0.0
        self._hash: dict[tuple[int, int], list[Agent]] | None = None

    def attach(self, sprite: Any, behavior: Any, **options: Any) -> Agent:
        """Steer ``sprite`` with ``behavior`` (options as :class:`Agent`'s)."""
        agent = Agent(sprite, behavior, len(self.agents), **options)
        self.agents.append(agent)
        return agent

    def update(self, dt: float) -> None:
        """Read the sprites, steer and move every agent, write the sprites back."""
        agents = self.agents
        for agent in agents:
            agent.x, agent.y = agent.sprite.position
        steps = max(1, math.ceil(dt / self.max_step - 1e-9))
        for _ in range(steps):
            self._step(dt / steps)
        for agent in agents:
            sprite = agent.sprite
            sprite.position = (agent.x, agent.y)
            if agent.rotate:
                angle = agent.facing - math.degrees(math.atan2(agent.hy, agent.hx))
                sprite.angle = (angle + 180.0) % 360.0 - 180.0

    def nearby(self, x: float, y: float, radius: float) -> list[Agent]:
        """The agents in the hash cells within ``radius`` px of ``(x, y)`` (a superset of
        those within ``radius``). The hash is built on the first question of a step."""
        grid = self._hash
        if grid is None:
            grid = self._hash = {}
            cell = self.cell
            for agent in self.agents:
                key = (int(agent.x // cell), int(agent.y // cell))
                bucket = grid.get(key)
                if bucket is None:
                    grid[key] = [agent]
                else:
                    bucket.append(agent)
        cell = self.cell
        found: list[Agent] = []
        for i in range(int((x - radius) // cell), int((x + radius) // cell) + 1):
            for j in range(int((y - radius) // cell), int((y + radius) // cell) + 1):
                bucket = grid.get((i, j))
                if bucket:
                    found.extend(bucket)
        return found

    def _step(self, dt: float) -> None:
        self.dt = dt
        self._hash = None
        # Every agent steers from where everybody is now; then all move.
        forces = [agent.behavior.steer(agent, self) for agent in self.agents]
        level = self.level
        solid_level = bool(level.shapes)
        for agent, (fx, fy) in zip(self.agents, forces, strict=True):
            size = math.hypot(fx, fy)
            if size > agent.max_force:
                fx, fy = fx * agent.max_force / size, fy * agent.max_force / size
            rate = dt / agent.mass
            vx, vy = agent.vx + fx * rate, agent.vy + fy * rate
            speed = math.hypot(vx, vy)
            if speed > agent.max_speed:
                vx, vy = vx * agent.max_speed / speed, vy * agent.max_speed / speed
            x, y = agent.x + vx * dt, agent.y + vy * dt
            if agent.solid and solid_level:
                x, y, vx, vy = solid_move(level, agent.x, agent.y, x, y, vx, vy, agent.radius)
            agent.x, agent.y, agent.vx, agent.vy = x, y, vx, vy
            speed = math.hypot(vx, vy)
            if speed > HEADING_MIN_SPEED:
                agent.hx, agent.hy = vx / speed, vy / speed
        self.time += dt


def solid_move(
    level: Level,
    x: float,
    y: float,
    to_x: float,
    to_y: float,
    vx: float,
    vy: float,
    r: float,
) -> tuple[float, float, float, float]:
    """Move a circle of radius ``r`` from ``(x, y)`` towards ``(to_x, to_y)`` without
    entering walls or obstacles: sweep the move, stop at the first contact and slide the rest
    along the surface (a few times, for corners), then push out of any overlap. The velocity
    loses its part into every surface met.

    Returns:
        ``(x, y, vx, vy)`` after the move.
    """
    shapes = level.near(min(x, to_x) - r, min(y, to_y) - r, max(x, to_x) + r, max(y, to_y) + r)
    if not shapes:
        return to_x, to_y, vx, vy
    dx, dy = to_x - x, to_y - y
    before: tuple[float, float] | None = None  # the normal met last
    for _ in range(SWEEPS):
        first = None
        for shape in shapes:
            hit = sweep(x, y, dx, dy, r, shape)
            if hit is not None and (first is None or hit[0] < first[0]):
                first = hit
        if first is None:
            x, y = x + dx, y + dy
            break
        key, nx, ny = first
        t = max(key, 0.0)
        cx, cy = x + t * dx + SKIN * nx, y + t * dy + SKIN * ny
        vx, vy = _slide(vx, vy, nx, ny, before)
        dx, dy = _slide(x + dx - cx, y + dy - cy, nx, ny, before)
        x, y, before = cx, cy, (nx, ny)
        if math.hypot(dx, dy) <= SKIN:
            break
    # Push out of whatever it still overlaps (a corner, a start inside), twice for corners.
    for _ in range(2):
        pushed = False
        for shape in shapes:
            depth, nx, ny = overlap(x, y, r, shape)
            if depth > 0.0:
                x, y = x + nx * (depth + SKIN), y + ny * (depth + SKIN)
                into = vx * nx + vy * ny
                if into < 0.0:
                    vx, vy = vx - nx * into, vy - ny * into
                pushed = True
        if not pushed:
            break
    return x, y, vx, vy


def _slide(
    vx: float, vy: float, nx: float, ny: float, before: tuple[float, float] | None
) -> tuple[float, float]:
    """``(vx, vy)`` without its part into the surface of normal ``n``; zero where that still
    goes into the surface met just before (a corner leaves no way on)."""
    into = vx * nx + vy * ny
    if into < 0.0:
        vx, vy = vx - nx * into, vy - ny * into
    if before is not None and vx * before[0] + vy * before[1] < -1e-12 * math.hypot(vx, vy):
        return 0.0, 0.0
    return vx, vy
