"""Formation slots: least-travel assignment, soft roles, joining and leaving (issue #39, item 4)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering import formations
from arcade_steering.slots import FormationSlots, assign_slots
from arcade_steering.testing import StubSprite

DT = 1 / 60
LEADER = (400.0, 300.0)
EAST = (1.0, 0.0)


def optimal_total(cost: np.ndarray) -> float:
    """The least total of ``cost`` ``(n, m)`` over assignments, by dynamic programming over the
    subsets of taken slots (exact; fine for m up to ~14)."""
    rows, columns = cost.shape
    best = {0: 0.0}
    for row in range(rows):
        step: dict[int, float] = {}
        for taken, total in best.items():
            for column in range(columns):
                if not taken >> column & 1:
                    key = taken | 1 << column
                    step[key] = min(step.get(key, np.inf), total + cost[row, column])
        best = step
    return min(best.values())


def distances(positions: Any, slots: Any) -> np.ndarray:
    a, b = np.asarray(positions, float), np.asarray(slots, float)
    return np.linalg.norm(a[:, None] - b[None], axis=2)


def paths_cross(starts: np.ndarray, ends: np.ndarray) -> list[tuple[int, int]]:
    """Pairs of straight paths ``starts[i] -> ends[i]`` that properly intersect."""

    def side(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b - a)[0] * (c - a)[1] - (b - a)[1] * (c - a)[0])

    crossings = []
    for i, j in itertools.combinations(range(len(starts)), 2):
        p, q, r, s = starts[i], ends[i], starts[j], ends[j]
        if side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0:
            crossings.append((i, j))
    return crossings


def world_slots(offsets: Any) -> np.ndarray:
    """World positions of ``(ahead, left)`` offsets around a leader at LEADER facing +x."""
    return np.array(LEADER) + np.asarray(offsets, float)


# -- assign_slots ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_assignment_is_optimal_against_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 7))
    m = n + int(rng.integers(0, 3))
    positions, slots = rng.uniform(0, 300, (n, 2)), rng.uniform(0, 300, (m, 2))
    roles = list(rng.choice(["a", "b", None], n))
    slot_roles = list(rng.choice(["a", "b", None], m))
    chosen = assign_slots(positions, slots, roles, slot_roles, role_cost=80.0)
    assert len(set(chosen.tolist())) == n
    cost = distances(positions, slots) + 80.0 * np.array(
        [[want is not None and role != want for want in slot_roles] for role in roles]
    )
    brute = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
    assert cost[np.arange(n), chosen].sum() == pytest.approx(brute, abs=1e-9)


@pytest.mark.parametrize("n", [10, 25, 50])
def test_assignment_matches_scipy(n: int) -> None:
    optimize = pytest.importorskip("scipy.optimize")
    rng = np.random.default_rng(n)
    positions, slots = rng.uniform(0, 800, (n, 2)), rng.uniform(0, 800, (n + 3, 2))
    cost = distances(positions, slots)
    rows, columns = optimize.linear_sum_assignment(cost)
    chosen = assign_slots(positions, slots)
    assert cost[np.arange(n), chosen].sum() == pytest.approx(cost[rows, columns].sum())


def test_assignment_is_optimal_for_50_members_on_ties() -> None:
    """Grid points to a shifted grid: many equal costs."""
    grid = np.array([(x * 20.0, y * 20.0) for x in range(10) for y in range(5)])
    slots = grid + np.array([20.0, 0.0])
    chosen = assign_slots(grid, slots)
    # Any assignment moves the points' x-coordinates 50 * 20 px in sum, so 1,000 px is least.
    assert np.linalg.norm(slots[chosen] - grid, axis=1).sum() == pytest.approx(50 * 20.0)


def test_no_members_and_equal_points() -> None:
    assert assign_slots(np.zeros((0, 2)), [(1.0, 1.0)]).tolist() == []
    chosen = assign_slots([(5.0, 5.0)] * 3, [(5.0, 5.0)] * 3)
    assert sorted(chosen.tolist()) == [0, 1, 2]


def test_soft_role_takes_its_slot_unless_it_costs_more_than_role_cost() -> None:
    members = [(0.0, 0.0), (100.0, 0.0)]  # the medic is the one at 100
    slots = [(0.0, 10.0), (100.0, 10.0)]  # the slot at x = 0 prefers a medic
    roles, slot_roles = [None, "medic"], ["medic", None]
    # Swapping costs 2 * ~100.5 - 2 * 10 = ~181 px of extra travel.
    assert assign_slots(members, slots, roles, slot_roles, role_cost=0.0).tolist() == [0, 1]
    assert assign_slots(members, slots, roles, slot_roles, role_cost=100.0).tolist() == [0, 1]
    assert assign_slots(members, slots, roles, slot_roles, role_cost=200.0).tolist() == [1, 0]


@pytest.mark.parametrize(
    ("call", "error", "name"),
    [
        (lambda: assign_slots("ab", [(0, 0)]), TypeError, "positions"),
        (lambda: assign_slots([(0, 0, 0)], [(0, 0)]), ValueError, "positions"),
        (lambda: assign_slots([(0, float("nan"))], [(0, 0)]), ValueError, "positions"),
        (lambda: assign_slots([(0, 0)], None), TypeError, "slots"),
        (lambda: assign_slots([(0, 0), (1, 1)], [(0, 0)]), ValueError, "slots"),
        (lambda: assign_slots([(0, 0)], [(0, float("inf"))]), ValueError, "slots"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], roles=["a", "b"]), ValueError, "roles"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], roles="a"), TypeError, "roles"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], roles=[["a"]]), TypeError, "roles"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], slot_roles=[]), ValueError, "slot_roles"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], role_cost=-1), ValueError, "role_cost"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], role_cost=float("nan")), ValueError, "role_cost"),
        (lambda: assign_slots([(0, 0)], [(0, 0)], role_cost="1"), TypeError, "role_cost"),
        (lambda: FormationSlots([(0, 0)]), TypeError, "layout"),
        (lambda: FormationSlots(formations.line, role_cost=-2), ValueError, "role_cost"),
        (lambda: FormationSlots(formations.line, slot_roles=5), TypeError, "slot_roles"),
    ],
)
def test_bad_input_names_the_parameter(call: Any, error: type[Exception], name: str) -> None:
    with pytest.raises(error, match=name):
        call()


# -- FormationSlots ----------------------------------------------------------------------------


def line_layout(n: int) -> list[tuple[float, float]]:
    return formations.line(n, 30.0)


def wedge_layout(n: int) -> list[tuple[float, float]]:
    return formations.wedge(n, 30.0)


def test_line_to_wedge_travels_the_least_and_no_paths_cross(world: steer.SteeringWorld) -> None:
    """Done when (issue #39): 12 members switch from a line to a wedge; the distance they
    walk in the world is within 1% of the optimal assignment's, and no two straight paths
    cross. Measured: 604.2 px walked (each stops within its 0.2 px tolerance), optimum
    606.2 px; slot i to slot i would be 1,444.7 px with 10 pairs of crossing paths."""
    count = 12
    line = world_slots(line_layout(count))
    squad = [StubSprite(x, y) for x, y in line]
    wing = FormationSlots(line_layout)
    for sprite in squad:
        wing.join(sprite, LEADER, EAST)
    assert [wing.offsets[s] for s in squad] == line_layout(count)  # each already in its slot

    offsets = wing.reassign(LEADER, EAST, layout=wedge_layout)
    for sprite in squad:
        world.attach(
            sprite,
            steer.OffsetPursuit(lambda: LEADER, offsets[sprite], tolerance=0.2),
            max_speed=120,
        )
    walked = np.zeros(count)
    before = line.copy()
    for _ in range(8 * 60):
        world.update(DT)
        now = np.array([s.position for s in squad])
        walked += np.linalg.norm(now - before, axis=1)
        before = now

    wedge = world_slots(wedge_layout(count))
    targets = world_slots([offsets[s] for s in squad])
    assert np.linalg.norm(before - targets, axis=1).max() < 0.2  # all arrived
    optimum = optimal_total(distances(line, wedge))
    assert abs(walked.sum() - optimum) <= 0.01 * optimum
    assert paths_cross(line, targets) == []
    in_order = np.linalg.norm(line - wedge, axis=1).sum()
    assert in_order > 1.5 * optimum and paths_cross(line, wedge)  # what the order alone gives


def test_join_and_leave_reassign_for_the_least_travel() -> None:
    wing = FormationSlots(wedge_layout)
    rng = np.random.default_rng(7)
    squad = [StubSprite(*rng.uniform(200, 600, 2)) for _ in range(8)]
    for sprite in squad:
        offsets = wing.join(sprite, LEADER, EAST)
        assert set(offsets) == set(wing.members)
    assert wing.members == squad

    def total(offsets: dict[Any, tuple[float, float]]) -> float:
        return sum(
            float(np.hypot(*(np.array(s.position) - world_slots([o])[0])))
            for s, o in offsets.items()
        )

    for offsets in (wing.offsets, wing.leave(squad[0], LEADER, EAST)):
        members = list(offsets)
        cost = distances([s.position for s in members], world_slots(wedge_layout(len(members))))
        assert total(offsets) == pytest.approx(optimal_total(cost))
        assert sorted(offsets.values()) == sorted(wedge_layout(len(members)))
    assert squad[0] not in wing.offsets and len(wing.members) == 7


def test_slots_turn_with_the_leader() -> None:
    """Facing north, a slot to the leader's left lies to the west."""
    wing = FormationSlots(lambda n: [(0.0, 50.0), (0.0, -50.0)][:n])
    west = StubSprite(LEADER[0] - 50, LEADER[1])
    east = StubSprite(LEADER[0] + 50, LEADER[1])
    wing.join(west, LEADER, (0.0, 2.0))
    offsets = wing.join(east, LEADER, (0.0, 2.0))
    assert offsets == {west: (0.0, 50.0), east: (0.0, -50.0)}


def test_soft_roles_in_a_formation() -> None:
    wing = FormationSlots(wedge_layout, slot_roles=[None, "medic"], role_cost=500.0)
    for x in range(4):
        wing.join(StubSprite(LEADER[0] - 100, LEADER[1] + 40 * x), LEADER, EAST)
    medic = StubSprite(LEADER[0] - 100, LEADER[1] + 200)  # far on the left; slot 1 is right
    offsets = wing.join(medic, LEADER, EAST, role="medic")
    assert offsets[medic] == wedge_layout(5)[1]


def test_refused_changes_leave_the_formation_as_it_was() -> None:
    wing = FormationSlots(lambda n: formations.line(min(n, 2), 30.0))
    first = StubSprite(0, 0)
    wing.join(first, LEADER, EAST)
    before = (wing.members, wing.offsets)
    refusals = [
        (lambda: wing.join(first, LEADER, EAST), ValueError, "already"),
        (lambda: wing.join(StubSprite(1, 1), LEADER, (0, 0)), ValueError, "leader_heading"),
        (lambda: wing.join(StubSprite(1, 1), None, EAST), TypeError, "leader_position"),
        (lambda: wing.join(StubSprite(1, 1), LEADER, EAST, role=[1]), TypeError, "role"),
        (lambda: wing.join(object(), LEADER, EAST), TypeError, "member"),
        (lambda: wing.leave(StubSprite(1, 1), LEADER, EAST), KeyError, "not in the formation"),
        (lambda: wing.reassign(LEADER, EAST, layout=3), TypeError, "layout"),
        (lambda: wing.reassign(LEADER, EAST, layout=lambda n: "x"), TypeError, "layout"),
    ]
    for call, error, text in refusals:
        with pytest.raises(error, match=text):
            call()
        assert (wing.members, wing.offsets) == before
    wing.join(StubSprite(5, 5), LEADER, EAST)
    with pytest.raises(ValueError, match="layout"):
        wing.join(StubSprite(9, 9), LEADER, EAST)  # the layout gives only 2 slots
    assert len(wing.members) == 2
