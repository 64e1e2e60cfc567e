"""The hand-written peer's behaviours: one object per agent and behaviour, ``math`` only.

Each behaviour's ``steer(agent, world)`` returns a force ``(fx, fy)`` (px/s² times mass)
computed from the agent's state at the start of the step. The formulas are the library's
(``arcade_steering.behaviors``), written out for one agent at a time: Reynolds'
``(desired - velocity) / response_time`` with the same arrival ramp, feelers, detection
box, sight cone, station keeping and separation weights, so the two behave alike.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .geometry import Route, sweep

if TYPE_CHECKING:
    from .world import Agent, World

Force = tuple[float, float]
ZERO: Force = (0.0, 0.0)
#: The golden angle: consecutive agent numbers give well-spread directions.
GOLDEN_ANGLE = math.pi * (3.0 - math.sqrt(5.0))
#: FollowLeader: the least turn round the leader, and how hard the circle pushes out.
MIN_TURN = 0.5
KEEP_OUT = 2.0
#: EvadeSightCone: seconds ahead the leader's velocity is extrapolated; the band outside
#: the view where followers wait.
ANTICIPATION = 0.25
WAIT_MARGIN = 20.0
WAIT_WIDENING = math.radians(10.0)


def arrive_velocity(
    agent: Agent, tx: float, ty: float, slowing_radius: float, tolerance: float
) -> Force:
    """The velocity that brakes to a stop at ``(tx, ty)`` without coasting past it: linear
    inside the slowing radius (never steeper than ``1 / (4 response_time)``), a braking
    parabola at 0.8 of the agent's acceleration further out, capped at ``max_speed``."""
    dx, dy = tx - agent.x, ty - agent.y
    distance = math.hypot(dx, dy)
    if distance <= tolerance or distance <= 1e-12:
        return ZERO
    max_speed = agent.max_speed
    slope = min(max_speed / max(slowing_radius, 1e-9), 0.25 / agent.response_time)
    braking = 0.8 * agent.max_force / agent.mass
    if distance <= braking / (slope * slope):
        speed = slope * distance
    else:
        speed = math.sqrt(max(2.0 * braking * distance - (braking / slope) ** 2, 0.0))
    speed = min(speed, max_speed) / distance
    return dx * speed, dy * speed


def seek_velocity(agent: Agent, tx: float, ty: float) -> Force:
    """Full speed straight at ``(tx, ty)``."""
    dx, dy = tx - agent.x, ty - agent.y
    distance = math.hypot(dx, dy)
    if distance <= 1e-12:
        return ZERO
    scale = agent.max_speed / distance
    return dx * scale, dy * scale


def towards(agent: Agent, desired: Force) -> Force:
    """Reynolds' steering force from the agent's velocity to ``desired``."""
    rate = 1.0 / agent.response_time
    return (desired[0] - agent.vx) * rate, (desired[1] - agent.vy) * rate


def truncate(x: float, y: float, limit: float) -> Force:
    """``(x, y)`` scaled down to at most ``limit`` long."""
    length = math.hypot(x, y)
    if length > limit:
        scale = limit / length
        return x * scale, y * scale
    return x, y


def look_ahead(agent: Agent, speed: float) -> float:
    """How far ahead the agent looks: its stopping distance from full speed plus its radius,
    in proportion to its speed (zero standing still)."""
    full = agent.max_speed * agent.max_speed / (2.0 * agent.max_force / agent.mass)
    return (full + agent.radius) * min(speed / agent.max_speed, 1.0)


# -- seek family -----------------------------------------------------------------------------


class Arrive:
    """Steer to a point and stop on it."""

    def __init__(
        self, target: tuple[float, float], slowing_radius: float = 100.0, tolerance: float = 2.0
    ) -> None:
        self.target = target
        self.slowing_radius = slowing_radius
        self.tolerance = tolerance

    def steer(self, agent: Agent, world: World) -> Force:
        tx, ty = self.target
        return towards(agent, arrive_velocity(agent, tx, ty, self.slowing_radius, self.tolerance))


# -- paths -----------------------------------------------------------------------------------


class FollowPath:
    """Reynolds' path following round a closed route, with this agent's progress along it.

    Predicts ``prediction`` s ahead and projects that onto the route, searching only a window
    ahead of the progress so far; seeks a point ``max(min_look_ahead, speed * look_ahead)`` px
    further on when the prediction leaves the tube, when going the wrong way or slower than a
    tenth of ``max_speed``; else only brings the speed up to ``max_speed``.
    """

    def __init__(
        self,
        route: Route,
        prediction: float = 0.3,
        look_ahead: float = 0.3,
        min_look_ahead: float = 20.0,
    ) -> None:
        self.route = route
        self.prediction = prediction
        self.look_ahead = look_ahead
        self.min_look_ahead = min_look_ahead
        self.progress: float | None = None
        self.last_time = 0.0

    def steer(self, agent: Agent, world: World) -> Force:
        route = self.route
        vx, vy = agent.vx, agent.vy
        speed = math.hypot(vx, vy)
        if self.progress is None:  # start from the nearest point of the whole route
            self.progress = route.project(agent.x, agent.y)[0]
            self.last_time = world.time - world.dt
        # Far enough for the motion since the last call (a PriorityBlend skips this one while
        # avoiding something) and the prediction; short of the far side of the loop.
        elapsed = world.time - self.last_time
        self.last_time = world.time
        reach = 1.5 * agent.max_speed * (self.prediction + 2.0 * elapsed) + 1.0
        reach = min(reach, 0.5 * route.length)
        px = agent.x + vx * self.prediction
        py = agent.y + vy * self.prediction
        progress, _, _, tx, ty, offset = route.project(px, py, self.progress, self.progress + reach)
        self.progress = progress
        slow = speed < 0.1 * agent.max_speed
        if offset > route.radius or vx * tx + vy * ty < 0.0 or slow:
            ahead = max(self.min_look_ahead, speed * self.look_ahead)
            gx, gy = route.point_at(progress + ahead)
            return towards(agent, seek_velocity(agent, gx, gy))
        scale = agent.max_speed / speed
        return towards(agent, (vx * scale, vy * scale))


# -- walls and obstacles ---------------------------------------------------------------------


class AvoidWalls:
    """Three feelers (ahead, and ``side_angle`` degrees to each side at ``side_ratio`` of its
    length) sweep the agent's circle ahead; where they go into walls, push out along the
    wall's normal (all of ``max_force`` at the agent's radius deep) and slide along it."""

    def __init__(self, side_angle: float = 45.0, side_ratio: float = 0.5) -> None:
        self.side_ratio = side_ratio
        self.cos = math.cos(math.radians(side_angle))
        self.sin = math.sin(math.radians(side_angle))

    def steer(self, agent: Agent, world: World) -> Force:
        x, y, r = agent.x, agent.y, agent.radius
        vx, vy = agent.vx, agent.vy
        length = look_ahead(agent, math.hypot(vx, vy))
        reach = length + r
        walls = world.level.near(x - reach, y - reach, x + reach, y + reach, obstacles=False)
        if not walls:
            return ZERO
        hx, hy = agent.hx, agent.hy
        c, s = self.cos, self.sin
        side = length * self.side_ratio
        feelers = (
            (hx, hy, length),
            (hx * c - hy * s, hx * s + hy * c, side),
            (hx * c + hy * s, hy * c - hx * s, side),
        )
        ramp = max(r, 1.0)
        worst = 0.0
        worst_normal = ZERO
        worst_contact: tuple[float, float, Any] | None = None
        sum_x = sum_y = 0.0
        for dx, dy, feeler in feelers:
            rx, ry = dx * feeler, dy * feeler
            first = None
            hit_wall = None
            for each in walls:
                hit = sweep(x, y, rx, ry, r, each)
                if hit is not None and (first is None or hit[0] < first[0]):
                    first, hit_wall = hit, each
            if first is None:
                continue
            key, nx, ny = first
            alpha = max(key, 0.0)
            if alpha == 0.0:
                depth = ramp
            else:  # how far the tip went behind the wall's surface
                depth = (1.0 - alpha) * feeler * max(-(dx * nx + dy * ny), 0.0)
            sum_x += depth * nx
            sum_y += depth * ny
            if depth > worst:
                worst, worst_normal = depth, (nx, ny)
                worst_contact = (x + alpha * rx, y + alpha * ry, hit_wall)
        if worst <= 0.0:
            return ZERO
        size = math.hypot(sum_x, sum_y)
        if size > 1e-9 * worst:
            nx, ny = sum_x / size, sum_y / size
        else:
            nx, ny = worst_normal
        push = min(worst / ramp, 1.0) * agent.max_force
        tx, ty = -ny, nx  # along the wall
        along = vx * tx + vy * ty
        if along == 0.0 and worst_contact is not None:  # head-on: slide to the nearer end
            cx, cy, hit_wall = worst_contact
            to_a = (cx - hit_wall.ax) * hit_wall.ux + (cy - hit_wall.ay) * hit_wall.uy
            way = -1.0 if to_a <= 0.5 * hit_wall.length else 1.0
            backwards = way * (hit_wall.ux * tx + hit_wall.uy * ty) < 0.0
        else:
            backwards = along < 0.0
        if backwards:
            tx, ty = -tx, -ty
        room = math.sqrt(max(agent.max_force**2 - push * push, 0.0))
        slide = min(max((agent.max_speed - abs(along)) / agent.response_time, 0.0), room)
        return nx * push + tx * slide, ny * push + ty * slide


class AvoidObstacles:
    """A detection box ahead (as wide as the agent plus ``buffer`` each side, ``min_length``
    plus the look-ahead long); the nearest obstacle in it is passed on the side away from
    its centre (kept while it stays the threat), braking up to ``braking`` of the speed met
    it with, never below a quarter of ``max_speed``."""

    def __init__(self, min_length: float = 10.0, buffer: float = 4.0, braking: float = 0.5):
        self.min_length = min_length
        self.buffer = buffer
        self.braking = braking
        self.threat: Any = None
        self.side = 0.0
        self.cruise = 0.0

    def steer(self, agent: Agent, world: World) -> Force:
        x, y, r = agent.x, agent.y, agent.radius
        hx, hy = agent.hx, agent.hy
        speed = math.hypot(agent.vx, agent.vy)
        length = look_ahead(agent, speed) + self.min_length
        swath = r + self.buffer
        half = 0.5 * length
        mx, my = x + hx * half, y + hy * half
        grow = half + swath
        near = world.level.near(mx - grow, my - grow, mx + grow, my + grow, walls=False)
        best_key = math.inf
        threat = None
        for each in near:
            dx, dy = each.ax - x, each.ay - y
            lx, ly = dx * hx + dy * hy, dy * hx - dx * hy  # ahead, to the left
            clear = each.radius + swath
            room = clear * clear - ly * ly
            if math.hypot(lx, ly) - each.radius - r < 0.0:  # overlapping it
                key = math.hypot(lx, ly) - each.radius - r
            elif lx > 0.0 and room > 0.0 and lx - math.sqrt(room) <= length:
                key = max(lx - math.sqrt(room), 0.0)
            else:
                continue
            if key < best_key:
                best_key, threat, local = key, each, (lx, ly)
        if threat is None:
            self.threat = None
            return ZERO
        lx, ly = local
        same = threat is self.threat
        side = self.side if same and self.side != 0.0 else (-1.0 if ly > 0.0 else 1.0)
        slowest = 0.25 * agent.max_speed
        cruise = self.cruise if same else max(speed, slowest)
        self.threat, self.side, self.cruise = threat, side, cruise
        # The way past, in the agent's frame: the tangent to the obstacle grown by the agent
        # and the buffer, turning further out (to straight away) once inside that circle.
        distance = math.hypot(lx, ly)
        clear, touch = threat.radius + swath, threat.radius + r
        if distance <= 0.0:
            lx, ly, size = 1.0, 0.0, 1.0
        else:
            size = distance
        ratio = min(clear / max(distance, 1e-12), 1.0)
        if distance < clear:
            angle = 0.5 * math.pi * min((clear - distance) / max(clear - touch, 1e-9), 1.0)
            turn_x, turn_y = -math.sin(angle), side * math.cos(angle)
        else:
            turn_x, turn_y = math.sqrt(1.0 - ratio * ratio), side * ratio
        closeness = 1.0 - min(max(best_key / length, 0.0), 1.0)
        pace = max(cruise * (1.0 - self.braking * closeness), slowest) / size
        ux, uy = lx * pace, ly * pace
        dx, dy = ux * turn_x - uy * turn_y, ux * turn_y + uy * turn_x  # local velocity
        return towards(agent, (dx * hx - dy * hy, dx * hy + dy * hx))


# -- leaders and squads ----------------------------------------------------------------------


def in_cone(ox: float, oy: float, hx: float, hy: float, length: float, half: float) -> bool:
    """Whether the offset ``(ox, oy)`` lies in the view along ``(hx, hy)``."""
    distance = math.hypot(ox, oy)
    if distance > length:
        return False
    return distance == 0.0 or math.atan2(abs(oy * hx - ox * hy), ox * hx + oy * hy) <= half


def escape_direction(gx: float, gy: float, hx: float, hy: float, index: int) -> Force:
    """Out of the view along ``(hx, hy)`` from the offset ``(gx, gy)``: sideways, and half
    as much away from the leader."""
    lx, ly = -hy, hx
    across = gx * lx + gy * ly
    fallback = 1.0 if index % 2 == 0 else -1.0
    side = math.copysign(1.0, across) if abs(across) > 1e-9 else fallback
    sx, sy = lx * side, ly * side
    gap = math.hypot(gx, gy)
    ax, ay = (gx / gap, gy / gap) if gap > 1e-12 else (sx, sy)
    dx, dy = sx + 0.5 * ax, sy + 0.5 * ay
    size = math.hypot(dx, dy)
    return (dx / size, dy / size) if size > 1e-12 else (sx, sy)


class EvadeSightCone:
    """Leave the leader's view (``length`` px, ``half_angle`` degrees each side of its
    heading): out sideways and away from where the two pass, with all of ``max_force``;
    just outside, a follower moving into it is stopped."""

    def __init__(
        self,
        leader: Agent,
        length: float = 120.0,
        half_angle: float = 30.0,
        max_prediction: float = 1.0,
    ) -> None:
        self.leader = leader
        self.length = length
        self.half_angle = math.radians(half_angle)
        self.max_prediction = max_prediction
        self.previous: tuple[float, float] | None = None  # the leader's velocity last step

    def steer(self, agent: Agent, world: World) -> Force:
        leader = self.leader
        hx, hy = leader.hx, leader.hy
        # A leader braking to turn round (its velocity extrapolated ANTICIPATION s ahead
        # points backwards) looks the way it turns to.
        vx, vy = leader.vx, leader.vy
        previous, self.previous = self.previous, (vx, vy)
        if previous is not None and world.dt > 0.0:
            rate = ANTICIPATION / world.dt
            fx, fy = vx + (vx - previous[0]) * rate, vy + (vy - previous[1]) * rate
            if fx * vx + fy * vy < 0.0:
                size = math.hypot(fx, fy)
                hx, hy = fx / size, fy / size
        # The library also takes a turning look ahead (the demo's leader scans, its view
        # turning with the scan); the peer's leaders look where they go, and following their
        # turns ahead parts the two runs' paths, so the view here is the heading's.
        ox, oy = agent.x - leader.x, agent.y - leader.y
        length, half = self.length, self.half_angle
        wx, wy = leader.vx - agent.vx, leader.vy - agent.vy
        if not in_cone(ox, oy, hx, hy, length, half):
            if not in_cone(ox, oy, hx, hy, length + WAIT_MARGIN, half + WAIT_WIDENING):
                return ZERO
            # Just outside: the motion into the view (relative to the leader) is cancelled.
            dx, dy = escape_direction(ox, oy, hx, hy, agent.index)
            inward = min(-(wx * dx + wy * dy), 0.0)
            return dx * -inward / agent.response_time, dy * -inward / agent.response_time
        # Where the two pass each other, both keeping their velocities.
        closing = ox * wx + oy * wy  # -(-offset . relative velocity)
        speed2 = wx * wx + wy * wy
        t = min(max(closing / speed2, 0.0), self.max_prediction) if speed2 > 1e-12 else 0.0
        dx, dy = escape_direction(ox - wx * t, oy - wy * t, hx, hy, agent.index)
        return dx * agent.max_force, dy * agent.max_force


class FollowLeader:
    """Hold a station ``distance`` px behind the leader: its velocity (all of it beside or
    behind it, none from ``distance`` ahead) plus an arrive at the station. Kept out of the
    circle of radius ``distance`` round the leader (pushed out, and going round it, keeping
    pace, when the way to the station goes in)."""

    def __init__(
        self,
        leader: Agent,
        distance: float = 40.0,
        slowing_radius: float = 80.0,
        tolerance: float = 2.0,
    ) -> None:
        self.leader = leader
        self.distance = distance
        self.slowing_radius = slowing_radius
        self.tolerance = tolerance

    def steer(self, agent: Agent, world: World) -> Force:
        leader = self.leader
        hx, hy = leader.hx, leader.hy
        distance = self.distance
        ox, oy = agent.x - leader.x, agent.y - leader.y
        ahead, left = ox * hx + oy * hy, oy * hx - ox * hy
        pace = min(max(1.0 - ahead / max(distance, 10.0), 0.0), 1.0)
        # The straight way to the station (leader's frame) goes into the circle: it reaches
        # the station from inside and first comes nearer the leader.
        wx, wy = -distance - ahead, -left
        if ahead > -distance and ahead * wx + left * wy < 0.0 and distance > 0.0:
            # Round the circle on the agent's side: to its tangent point, at least MIN_TURN on.
            if left != 0.0:
                side = math.copysign(1.0, left)
            else:
                side = 1.0 if agent.index % 2 == 0 else -1.0
            far = max(math.hypot(ahead, left), distance)
            turn = max(math.acos(distance / max(far, 1e-12)), MIN_TURN)
            angle = math.atan2(left, ahead) + side * turn
            pa, pl = distance * math.cos(angle), distance * math.sin(angle)
            sx = leader.x + pa * hx - pl * hy - agent.x
            sy = leader.y + pa * hy + pl * hx - agent.y
            step = math.hypot(sx, sy)
            remaining = step + math.hypot(pa + distance, pl)
            scale = remaining / step if step > 0.0 else 0.0
            bx, by = agent.x + sx * scale, agent.y + sy * scale
            pace = 1.0
        else:
            bx, by = leader.x - hx * distance, leader.y - hy * distance
        ax, ay = arrive_velocity(agent, bx, by, self.slowing_radius, self.tolerance)
        dx, dy = truncate(leader.vx * pace + ax, leader.vy * pace + ay, agent.max_speed)
        gap = math.hypot(ox, oy)
        if gap < distance:  # pushed out of the circle
            if gap > 0.0:
                ux, uy = ox / gap, oy / gap
            else:
                angle = agent.index * GOLDEN_ANGLE
                ux, uy = math.cos(angle), math.sin(angle)
            push = KEEP_OUT * (1.0 - gap / distance) * agent.max_speed
            dx, dy = dx + ux * push, dy + uy * push
        return towards(agent, (dx, dy))


class Separation:
    """Push away from the neighbours within ``radius`` px (among ``among``, a set of agents,
    or all): weight 1 when the circles touch, 0 at ``radius``."""

    def __init__(self, radius: float, among: set[Agent] | None = None) -> None:
        self.radius = radius
        self.among = among

    def steer(self, agent: Agent, world: World) -> Force:
        reach, among = self.radius, self.among
        x, y, r = agent.x, agent.y, agent.radius
        push_x = push_y = 0.0
        for other in world.nearby(x, y, reach):
            if other is agent or (among is not None and other not in among):
                continue
            dx, dy = other.x - x, other.y - y
            distance = math.hypot(dx, dy)
            if distance > reach:
                continue
            contact = min(r + other.radius, 0.5 * reach)
            weight = max((reach - distance) / max(reach - contact, 1e-9), 0.0)
            if distance > 0.0:
                push_x -= dx * weight / distance
                push_y -= dy * weight / distance
            else:  # on one spot: a direction of its own
                angle = agent.index * GOLDEN_ANGLE
                push_x += math.cos(angle) * weight
                push_y += math.sin(angle) * weight
        scale = agent.max_speed / agent.response_time
        return push_x * scale, push_y * scale


# -- blends ----------------------------------------------------------------------------------


class WeightedBlend:
    """The weighted sum of the children's forces, truncated to ``max_force``."""

    def __init__(self, *weighted: tuple[Any, float]) -> None:
        self.weighted = weighted

    def steer(self, agent: Agent, world: World) -> Force:
        fx = fy = 0.0
        for child, weight in self.weighted:
            cx, cy = child.steer(agent, world)
            fx += weight * cx
            fy += weight * cy
        return truncate(fx, fy, agent.max_force)


class PriorityBlend:
    """The first child's force that is longer than ``threshold``; the rest are not asked."""

    def __init__(self, *children: Any, threshold: float = 1e-3) -> None:
        self.children = children
        self.threshold = threshold

    def steer(self, agent: Agent, world: World) -> Force:
        for child in self.children:
            fx, fy = child.steer(agent, world)
            if fx * fx + fy * fy > self.threshold * self.threshold:
                return fx, fy
        return ZERO
