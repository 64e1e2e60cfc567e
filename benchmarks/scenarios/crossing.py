"""A crowd crossing: agents on a circle, each heading for the opposite point, against ORCA.

Agents of radius 4 px start on a circle ``SPACING`` px apart (1,000 agents: radius 1,592 px)
and each arrives at its antipode with ``PriorityBlend(AvoidAgents(), WeightedBlend((Arrive(goal),
1), (Separation(12), 2)))``: predictive avoidance takes over while a collision is coming, and
otherwise the agent arrives, keeping a little apart from its neighbours. Everyone meets in the
middle at once, the densest crowd a game is likely to make.

The same crossing runs with ``pyrvo`` (RVO2's ORCA in C++, the optional ``bench`` extra) in the
same process. Its time per update is what a game using it pays each frame: preferred velocities
towards the goals (full speed, slowing onto the goal), one ``set_agent_pref_velocity`` call per
agent, ``do_step``, and one ``get_agent_position`` call per agent written to its sprite.

Both run until 95% of the agents are within ``ARRIVED`` px of their goals (or ``CAP_S``
simulated seconds): the time per update is the median and p95 over every update after the
warm-up, so the congested middle of the crossing is in it. Overlaps are pairs of agents closer
than two radii, counted after every update and summed; deep overlaps are those closer than 1.5
radii (ORCA's contacts are mostly a hair under two radii, ours fewer but deeper).
"""

from __future__ import annotations

import gc
import importlib.metadata
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import arcade_steering as steer

from . import Results, Scenario, sprites_at

try:
    import pyrvo
except ImportError:  # the peer is optional: the scenario runs without it
    pyrvo = None
try:
    from scipy import spatial
except ImportError:  # overlaps are then counted by brute force
    spatial = None

DT = 1 / 60
AGENT_RADIUS = 4.0
#: Distance between neighbours on the circle at the start, px.
SPACING = 2.5 * AGENT_RADIUS
#: Smallest circle, px (a quick run's 20 agents; ORCA jams in a ring on a 40-100 px circle).
MIN_CIRCLE = 200.0
MAX_SPEED = 120.0
MAX_FORCE = 360.0
SEPARATION_RADIUS = 3.0 * AGENT_RADIUS
#: AvoidAgents' look-ahead, s.
TIME_HORIZON = 1.0
#: ORCA's look-ahead, s: of 1, 2 and 5 s, 2 s got ORCA's crowd across soonest (43 s vs 51 s
#: for 1 s), so the peer is compared at its best.
ORCA_TIME_HORIZON = 2.0
#: ORCA's neighbour search (RVO2's examples use about 10 radii and 10 neighbours).
ORCA_NEIGHBOR_DIST = 15.0 * AGENT_RADIUS
ORCA_MAX_NEIGHBORS = 10
#: Standard deviation of the random nudge to ORCA's preferred velocities, px/s.
ORCA_NUDGE = 0.01
#: An agent this close to its goal has arrived, px.
ARRIVED = 2.0 * AGENT_RADIUS
ARRIVED_SHARE = 0.95
#: A deep overlap: two agents closer than this many radii (overlapping by over half a radius).
DEEP = 1.5
#: Longest crossing, simulated seconds; updates left out of the timing at the start.
CAP_S, WARMUP = 120.0, 60
QUICK_CAP_S, QUICK_WARMUP = 20.0, 5


def circle(count: int) -> tuple[np.ndarray, np.ndarray]:
    """Start points and goals ``(count, 2)``: evenly on a circle round the origin, each goal
    the start's antipode."""
    radius = max(count * SPACING / (2.0 * np.pi), MIN_CIRCLE)
    angle = np.linspace(0.0, 2.0 * np.pi, count, endpoint=False)
    start = radius * np.column_stack((np.cos(angle), np.sin(angle)))
    return start, -start


def build_crossing(count: int) -> steer.SteeringWorld:
    """Our crossing: every agent its own Arrive, AvoidAgents and Separation."""
    start, goal = circle(count)
    world = steer.SteeringWorld(seed=0)
    _, sprites = sprites_at(start)
    for sprite, target in zip(sprites, goal.tolist(), strict=True):
        behavior = steer.PriorityBlend(
            steer.AvoidAgents(horizon=TIME_HORIZON),
            steer.WeightedBlend(
                (steer.Arrive(tuple(target)), 1.0), (steer.Separation(SEPARATION_RADIUS), 2.0)
            ),
        )
        world.attach(
            sprite, behavior, max_speed=MAX_SPEED, max_force=MAX_FORCE, radius=AGENT_RADIUS
        )
    return world


class OrcaCrossing:
    """The crossing in pyrvo, stepped as a game would step it, its sprites kept in sync.

    Args:
        count: Number of agents.
    """

    def __init__(self, count: int) -> None:
        start, self.goal = circle(count)
        self.simulator = pyrvo.RVOSimulator(
            DT,
            ORCA_NEIGHBOR_DIST,
            ORCA_MAX_NEIGHBORS,
            ORCA_TIME_HORIZON,
            ORCA_TIME_HORIZON,
            AGENT_RADIUS,
            MAX_SPEED,
        )
        for point in start.tolist():
            self.simulator.add_agent(tuple(point))
        _, self.sprites = sprites_at(start)
        self.position = start
        self.rng = np.random.default_rng(0)

    def update(self) -> None:
        """One frame: goals in, one ORCA step, positions out to the sprites."""
        simulator = self.simulator
        offset = self.goal - self.position
        distance = np.hypot(offset[:, 0], offset[:, 1])
        # Full speed, or the speed that ends this step on the goal.
        speed = np.minimum(MAX_SPEED, distance / DT)
        preferred = offset * (speed / np.maximum(distance, 1e-9))[:, None]
        # A tiny random nudge, as in RVO2's own Circle example, against the deadlocks of a
        # perfectly symmetric crowd.
        preferred += self.rng.normal(0.0, ORCA_NUDGE, preferred.shape)
        for index, velocity in enumerate(preferred.tolist()):
            simulator.set_agent_pref_velocity(index, velocity)
        simulator.do_step()
        positions = [
            simulator.get_agent_position(index).to_tuple() for index in range(len(self.sprites))
        ]
        for sprite, position in zip(self.sprites, positions, strict=True):
            sprite.position = position
        self.position = np.array(positions)


@dataclass
class Crossing:
    """What one run of a crossing measured.

    Attributes:
        samples: Milliseconds of each update after the warm-up.
        arrival_s: Simulated seconds until ``ARRIVED_SHARE`` of the agents had arrived, or None
            if they had not by the cap.
        overlaps: Pairs closer than two radii, summed over every update.
        deep_overlaps: Pairs closer than ``DEEP`` radii, summed over every update.
    """

    samples: np.ndarray
    arrival_s: float | None
    overlaps: int
    deep_overlaps: int


def cross(
    update: Callable[[], None],
    positions: Callable[[], np.ndarray],
    goal: np.ndarray,
    warmup: int,
    cap_s: float,
) -> Crossing:
    """Run ``update`` until most agents arrived or ``cap_s``; time it, count overlaps.

    Only ``update`` is timed (with the garbage collector off, as in the other scenarios);
    reading positions and counting overlaps happen between updates.
    """
    samples, arrival, overlaps, deep = [], None, 0, 0
    for step in range(1, round(cap_s / DT) + 1):
        gc.disable()
        start = time.perf_counter()
        update()
        samples.append((time.perf_counter() - start) * 1e3)
        gc.enable()
        position = positions()
        distance = pair_distances(position, 2.0 * AGENT_RADIUS)
        overlaps += len(distance)
        deep += int(np.count_nonzero(distance < DEEP * AGENT_RADIUS))
        away = position - goal
        if np.mean(np.hypot(away[:, 0], away[:, 1]) <= ARRIVED) >= ARRIVED_SHARE:
            arrival = step * DT
            break
    timed = np.array(samples[warmup:] if len(samples) > warmup else samples)
    return Crossing(timed, arrival, overlaps, deep)


def pair_distances(points: np.ndarray, reach: float) -> np.ndarray:
    """Distances ``(p,)`` of the pairs of ``points`` ``(n, 2)`` closer than ``reach`` px."""
    if spatial is not None:
        # query_pairs keeps pairs at <= r: the float just below makes it "closer than".
        pairs = spatial.cKDTree(points).query_pairs(np.nextafter(reach, 0.0), output_type="ndarray")
        offset = points[pairs[:, 0]] - points[pairs[:, 1]]
        return np.hypot(offset[:, 0], offset[:, 1])
    found, rows = [], 256
    for first in range(0, len(points), rows):  # brute force, a block of rows at a time
        block = points[first : first + rows]
        distance = np.hypot(*np.moveaxis(block[:, None, :] - points[None, :, :], 2, 0))
        later = np.arange(first, first + len(block))[:, None] < np.arange(len(points))[None, :]
        found.append(distance[later & (distance < reach)])
    return np.concatenate(found)


def run_crossing(count: int, quick: bool) -> dict[str, Any]:
    """Both crossings, ours then pyrvo's (if installed); the result fields."""
    warmup, cap_s = (QUICK_WARMUP, QUICK_CAP_S) if quick else (WARMUP, CAP_S)
    _, goal = circle(count)
    world = build_crossing(count)
    sprites = [agent.sprite for agent in world.agents]
    ours = cross(
        lambda: world.update(DT),
        lambda: np.array([sprite.position for sprite in sprites]),
        goal,
        warmup,
        cap_s,
    )
    row: dict[str, Any] = {
        "median_ms": round(float(np.median(ours.samples)), 4),
        "p95_ms": round(float(np.percentile(ours.samples, 95)), 4),
        "arrival_s": None if ours.arrival_s is None else round(ours.arrival_s, 3),
        "overlaps": ours.overlaps,
        "deep_overlaps": ours.deep_overlaps,
    }
    if pyrvo is None:
        return {
            **row,
            "peer": "pyrvo not installed (pip install -e '.[bench]')",
            "peer_median_ms": None,
            "ratio": None,
            "peer_arrival_s": None,
            "peer_overlaps": None,
            "peer_deep_overlaps": None,
        }
    orca = OrcaCrossing(count)
    theirs = cross(orca.update, lambda: orca.position, goal, warmup, cap_s)
    peer_median = float(np.median(theirs.samples))
    return {
        **row,
        "peer": f"pyrvo {importlib.metadata.version('pyrvo')}",
        "peer_median_ms": round(peer_median, 4),
        "peer_p95_ms": round(float(np.percentile(theirs.samples, 95)), 4),
        "ratio": round(row["median_ms"] / peer_median, 3),
        "peer_arrival_s": None if theirs.arrival_s is None else round(theirs.arrival_s, 3),
        "peer_overlaps": theirs.overlaps,
        "peer_deep_overlaps": theirs.deep_overlaps,
    }


SCENARIOS = [Scenario("crossing", (1000,), build_crossing, run=run_crossing)]

BUDGETS: dict[tuple[str, int], float] = {}

#: Our median update may cost at most this many times pyrvo's.
RATIO = 1.0
#: Our crowd may take at most this many times as long as ORCA's to arrive.
ARRIVAL_RATIO = 1.5


def as_fast_as_orca(results: Results) -> list[str]:
    """With pyrvo installed: our crossing costs no more per update and arrives within 1.5x."""
    row = results.get(("crossing", 1000))
    if row is None or row.get("peer_median_ms") is None:
        return []
    failures = []
    if row["ratio"] > RATIO:
        failures.append(f"crossing N=1000 is {row['ratio']:.2f}x pyrvo's time per update")
    ours, theirs = row["arrival_s"], row["peer_arrival_s"]
    if ours is None:
        failures.append(f"crossing N=1000: 95% not arrived in {CAP_S:.0f} s")
    elif theirs is not None and ours > ARRIVAL_RATIO * theirs:
        failures.append(f"crossing N=1000 arrives in {ours:.1f} s, pyrvo in {theirs:.1f} s")
    return failures


CHECKS = [as_fast_as_orca]
