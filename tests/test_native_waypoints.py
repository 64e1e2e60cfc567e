"""FollowWaypoints in the native step against numpy, its reference: fuzzed worlds where agents
follow lists (repeated points, points closer than the arrival radius, Paths the game moves or
cuts short) in every mode, in random trees with the other covered components, agree to 1e-9
over many steps; its edge cases agree; the native path is deterministic, the report says it
runs, and the C refuses lists and states out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from native_scene import Scene, on_path
from test_native import Kernel, assert_agree, two_worlds

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_FOLLOW_WAYPOINTS, AS_ERR_PROGRAM and AS_ERR_STATE.
FOLLOW_WAYPOINTS, ERR_PROGRAM, ERR_STATE = 25, -2, -12
STEPS = 90


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_points(rng: np.random.Generator, spread: float) -> np.ndarray:
    """2 to 12 points, some repeated, some close together."""
    k = int(rng.choice([2, 3, 5, 12]))
    points = rng.uniform(-spread, spread, (k, 2))
    if k > 2 and rng.random() < 0.4:
        points[-1] = points[-2]  # a last point repeated: "once" brakes from its first copy
    if k > 3 and rng.random() < 0.4:
        points[1] = points[0] + rng.uniform(-5, 5, 2)  # closer than the arrival radius
    return points


class WaypointScene:
    """A fuzzed :class:`Scene` whose own leaves follow waypoint lists: point arrays, and two
    Paths, one moved every step and one cut short (and grown again) on the way."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed + 1000)
        spread = float(rng.choice([60.0, 300.0]))
        self.paths = [steer.Path(random_points(rng, spread)) for _ in range(2)]
        lists = [random_points(rng, spread) for _ in range(3)]
        self.cut_at = int(rng.integers(5, STEPS))

        def leaf(rng: np.random.Generator, scene: Scene) -> steer.FollowWaypoints:
            choices = [*lists, *self.paths]
            return steer.FollowWaypoints(
                choices[rng.integers(len(choices))],
                arrive_radius=float(rng.choice([1e-3, 24.0, rng.uniform(1, 100)])),
                mode=str(rng.choice(["loop", "pingpong", "once"])),
                slowing_radius=float(rng.uniform(1, 200)),
                tolerance=float(rng.choice([0.0, rng.uniform(0, 10)])),
            )

        self.scene = Scene(seed, leaf, steps=STEPS)

    def every_step(self, step: int) -> None:
        moved, cut = self.paths
        moved.points = moved.points + np.array([3.0, -1.0])
        if step == self.cut_at:
            cut.points = cut.points[:2]
        if step == self.cut_at + 10:
            cut.points = np.concatenate((cut.points, cut.points[::-1] + 7.0))


def run_waypoints(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    on_path(monkeypatch, native)
    fuzzed = WaypointScene(seed)
    report = fuzzed.scene.world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return fuzzed.scene.run(fuzzed.every_step)


#: Fuzzed worlds: six in the default run (two of them of more than 64 agents), forty-six more
#: under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(6), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(6, 52))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_waypoint_followers_agree_with_numpy(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    native = run_waypoints(seed, monkeypatch, native=True)
    numpy = run_waypoints(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(1, 3))  # worlds of fewer than 64 agents
def test_the_native_waypoint_followers_are_deterministic(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_waypoints(seed, monkeypatch, native=True)
    assert first.tobytes() == run_waypoints(seed, monkeypatch, native=True).tobytes()


def edge_cases(world: steer.SteeringWorld) -> np.ndarray:
    """An agent on its first waypoint, one within reach of every point, "once" down a list
    ending in repeats, "pingpong" between two points, a Path cut short under an agent heading
    for its last point, agents at rest: ``(steps, n, 6)`` positions, forces and waypoint
    states over 300 updates."""
    square = [(0, 0), (100, 0), (100, 100), (0, 100)]
    huddle = [(500, 0), (505, 0), (500, 5)]
    ending = [(0, 300), (150, 300), (150, 400), (150, 400), (150, 400)]
    cut = steer.Path([(300, 300), (400, 300), (400, 400), (300, 400)])
    cases = [
        (StubSprite(0, 0), steer.FollowWaypoints(square)),  # on its first waypoint
        (StubSprite(501, 1), steer.FollowWaypoints(huddle, arrive_radius=24.0)),  # on them all
        (StubSprite(0, 290), steer.FollowWaypoints(ending, mode="once")),
        (StubSprite(-50, -50), steer.FollowWaypoints([(-50, -50), (-50, 50)], mode="pingpong")),
        (StubSprite(300, 290), steer.FollowWaypoints(cut)),
        (StubSprite(0, 0), steer.FollowWaypoints(square, mode="once", arrive_radius=1e-3)),
    ]
    agents = [world.attach(sprite, tree, max_speed=120) for sprite, tree in cases]
    slots = [agent._slot for agent in agents]
    out = []
    for step in range(300):
        if step == 40:
            cut.points = cut.points[:2]  # the agent's waypoint, 2 or 3, is gone
        world.update(1 / 60)
        waypoints = world._agents.arrays.state.read((0, "FollowWaypoints", "waypoint"), slots)
        assert waypoints is not None
        out.append([[*a.position, *a.force, *w] for a, w in zip(agents, waypoints, strict=True)])
    return np.array(out)


def test_edge_cases_agree_with_numpy_and_do_what_follow_waypoints_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    native, numpy = two_worlds(monkeypatch, edge_cases)
    assert native.tobytes() == numpy.tobytes()
    assert native[0, 0, 4] == 1.0  # passed the first waypoint in its first step
    # Every point within reach: as many passes as the batch's longest list has points (4,
    # with the square's agents), round from 0 to 1.
    assert native[0, 1, 4] == 1.0
    assert native[-1, 2, 4:].tolist() == [4.0, 1.0]  # "once": past the repeats, on the last
    assert np.hypot(*(native[-1, 2, :2] - (150.0, 400.0))) < 3.0  # and stopped there
    assert np.hypot(*native[-1, 2, 2:4]) < 1.0
    assert set(native[:, 3, 5].tolist()) == {1.0, -1.0}  # "pingpong" turned round
    assert native[-1, 4, 4] <= 1.0  # the cut Path's agent on one of its two points
    assert np.isfinite(native).all()


def test_the_report_says_follow_waypoints_runs_native() -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    route = steer.FollowWaypoints([(0, 0), (100, 0)], mode="pingpong")
    world.attach(sprite, steer.PriorityBlend(steer.AvoidObstacles(), route))
    report = world.native_report()
    assert report.native and report.batches[0].native, str(report)


# -- what the C refuses ------------------------------------------------------------------------


class WaypointCall:
    """``as_steer`` of one FollowWaypoints leaf for agents 0 and 1, over a list of three
    points and 3 parameter columns of ones."""

    def __init__(self) -> None:
        self.kernel = kernel = Kernel(capacity=4)
        self.sets = kernel.ffi.new("as_waypoints[]", 1)
        kernel.keep.append(self.sets)
        entry = self.sets[0]
        entry.points = kernel.buffer("double[]", np.array([[10.0, 0.0], [10.0, 10.0], [0, 10]]))
        entry.m, entry.passes, entry.mode = 3, 3, 0
        self.first = np.zeros(2, dtype=np.intp)
        self.count = np.full(2, 3.0)
        self.state = np.full((2, 2), np.nan)
        entry.first = kernel.buffer("intptr_t[]", self.first)
        entry.count = kernel.buffer("double[]", self.count)
        entry.state = kernel.buffer("double[]", self.state)

    def __call__(self, op: tuple = (FOLLOW_WAYPOINTS, 0, 0, 0), n_sets: int = 1) -> int:
        kernel, ffi = self.kernel, self.kernel.ffi
        program = ffi.new("as_program *")
        program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
        program.n_ops = 1
        program.params = kernel.buffer("double[]", np.ones(2 * 3))
        program.n_params = 3
        program.waypoints, program.n_waypoints = self.sets, n_sets
        slots = kernel.buffer("intptr_t[]", np.array([0, 1], dtype=np.intp))
        return int(kernel.lib.as_steer(kernel.agents, slots, 2, program, 1 / 60))


@pytest.mark.parametrize(
    "bad",
    [
        "first past the points",
        "first negative",
        "count past the points",
        "count not whole",
        "count zero",
        "index negative",
        "index not whole",
        "index infinite",
        "sense zero",
        "mode unknown",
        "once without its final runs",
        "points missing",
        "state missing",
    ],
)
def test_the_c_refuses_waypoints_out_of_range_and_writes_nothing(bad: str) -> None:
    call = WaypointCall()
    entry, ffi = call.sets[0], call.kernel.ffi
    call.state[1] = (1.0, 1.0)
    if bad == "first past the points":
        call.first[1] = 1  # 1 + 3 points of 3
    elif bad == "first negative":
        call.first[1] = -1
    elif bad == "count past the points":
        call.count[1] = 4.0
    elif bad == "count not whole":
        call.count[1] = 2.5
    elif bad == "count zero":
        call.count[1] = 0.0
    elif bad.startswith("index"):
        call.state[1, 0] = {"negative": -1.0, "not whole": 0.5, "infinite": np.inf}[bad[6:]]
    elif bad == "sense zero":
        call.state[1, 1] = 0.0
    elif bad == "mode unknown":
        entry.mode = 3
    elif bad == "once without its final runs":
        entry.mode = 2
    elif bad == "points missing":
        entry.points = ffi.NULL
    else:
        entry.state = ffi.NULL
    before = call.state.copy()
    assert call() == ERR_STATE
    assert not call.kernel.columns["force"].any()
    assert call.state.tobytes() == before.tobytes()


def test_the_c_refuses_a_waypoint_leaf_out_of_range_and_steers_a_good_one() -> None:
    call = WaypointCall()
    assert call((FOLLOW_WAYPOINTS, 1, 0, 0)) == ERR_PROGRAM  # set 1 of 1
    assert call((FOLLOW_WAYPOINTS, 0, 1, 0)) == ERR_PROGRAM  # columns 1..3 of 3
    assert call(n_sets=33) == ERR_PROGRAM
    assert not call.kernel.columns["force"].any()
    call.state[1] = (1.0, 1.0)
    assert call() == 0
    assert call.state.tolist() == [[0.0, 1.0], [1.0, 1.0]]  # the new one starts at the first
    # Towards (10, 0) and (10, 10) at max_speed 1 over a response time of 1.
    assert call.kernel.columns["force"][:2].tolist() == [[1.0, 0.0], [0.7071067811865475] * 2]
