"""Interpose in the native step against numpy, its reference: fuzzed worlds where it stands
between targets of every kind (fixed points, agents, sprites the game moves, callables, one
that goes away) in random trees with the other covered components agree to 1e-9 over many
steps; its edge cases agree; the native path is deterministic, the report says it runs, and
the C refuses leader sets out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from native_scene import Scene, run_scene
from test_native import Kernel, assert_agree, two_worlds

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_INTERPOSE, AS_ERR_PROGRAM and AS_ERR_LEADERS.
INTERPOSE, ERR_PROGRAM, ERR_LEADERS = 23, -2, -9


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_interpose(rng: np.random.Generator, scene: Scene) -> steer.Interpose:
    """Between two of the scene's targets (sometimes one target twice)."""
    targets = scene.targets
    a = targets[rng.integers(len(targets))]
    b = a if rng.random() < 0.1 else targets[rng.integers(len(targets))]
    return steer.Interpose(
        a,
        b,
        max_prediction=float(rng.choice([0.0, rng.uniform(0, 3)])),
        slowing_radius=float(rng.uniform(1, 200)),
        tolerance=float(rng.choice([0.0, rng.uniform(0, 10)])),
    )


#: Fuzzed worlds: six in the default run (two of them of more than 64 agents), forty-six more
#: under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(6), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(6, 52))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_interposers_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_scene(seed, random_interpose, monkeypatch, native=True)
    numpy = run_scene(seed, random_interpose, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(1, 3))  # worlds of fewer than 64 agents
def test_the_native_interposers_are_deterministic(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_scene(seed, random_interpose, monkeypatch, native=True)
    assert first.tobytes() == run_scene(seed, random_interpose, monkeypatch, True).tobytes()


def edge_cases(world: steer.SteeringWorld) -> np.ndarray:
    """Agents on the midpoint of standing targets, at rest; both targets on one point; one
    target twice; a bodyguard between two walkers; one whose target goes away: ``(steps, n,
    4)`` positions and forces over 120 updates."""
    a, b = StubSprite(-50, 0), StubSprite(50, 0)
    walker, vip = StubSprite(0, 200), StubSprite(0, 300)
    world.attach(walker, steer.Seek((400, 200)), max_speed=60)
    world.attach(vip, steer.Seek((-400, 300)), max_speed=40)
    doomed: StubSprite | None = StubSprite(100, -100)
    sprites = [
        StubSprite(0, 0),  # on the midpoint, at rest: no force
        StubSprite(0, 0),  # on the midpoint, moving: brakes
        StubSprite(30, 40),  # both targets on one point
        StubSprite(-70, 10),  # one target twice
        StubSprite(0, 250),  # between the walkers
        StubSprite(80, 80),  # a target that goes away: silent from then on
        StubSprite(10, -20),  # tolerance 0, slowing radius tiny
    ]
    trees = [
        steer.Interpose(a, b),
        steer.Interpose(a, b),
        steer.Interpose((5, 5), (5, 5)),
        steer.Interpose(a, a),
        steer.Interpose(walker, vip, max_prediction=2.0),
        steer.Interpose(a, doomed),
        steer.Interpose(a, b, slowing_radius=1e-6, tolerance=0.0),
    ]
    velocities = [(0, 0), (80, -30), (0, 0), (10, 10), (0, 0), (0, 0), (0, 0)]
    for sprite, tree, velocity in zip(sprites, trees, velocities, strict=True):
        world.attach(sprite, tree, velocity=velocity, max_speed=150)
    out = []
    for step in range(120):
        if step == 30:
            doomed = None
            gc.collect()
        world.update(1 / 60)
        out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
    return np.array(out)


def test_edge_cases_agree_with_numpy_and_do_what_interpose_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    native, numpy = two_worlds(monkeypatch, edge_cases)
    assert_agree(native, numpy)
    assert native[..., 2:].tolist() == numpy[..., 2:].tolist()  # to the bit, here
    assert not native[:, 0].any(axis=1)[:, None].any()  # on the midpoint at rest: no force
    assert np.hypot(*native[-1, 1, :2]) < 2.0  # braked back to it
    assert np.hypot(*(native[-1, 2, :2] - 5.0)) < 2.0  # at the one point
    assert np.hypot(*(native[-1, 3, :2] - (-50.0, 0.0))) < 2.0  # at the target it had twice
    assert native[-1, 4, 1] == pytest.approx(250.0, abs=5.0)  # between the walkers' lines
    assert not native[30:, 5, 2:].any()  # its target gone: silent
    assert np.isfinite(native).all()


def test_the_report_says_interpose_runs_native(monkeypatch: pytest.MonkeyPatch) -> None:
    world = steer.SteeringWorld()
    a, b = StubSprite(0, 0), StubSprite(100, 0)
    world.attach(a, steer.Seek((50, 50)))
    guard = steer.PriorityBlend(steer.AvoidObstacles(), steer.Interpose(a, b))
    guard_sprite = StubSprite(50, -40)
    world.attach(guard_sprite, steer.WeightedBlend((guard, 1.0), (steer.Separation(20), 1)))
    report = world.native_report()
    assert report.native, str(report)
    assert [batch.native for batch in report.batches] == [True, True]


# -- what the C refuses ------------------------------------------------------------------------


def leader_sets(kernel: Kernel, n: int, filled: bool = True):  # type: ignore[no-untyped-def]
    """Two leader sets for ``n`` agents: targets at (50, 0) and (-50, 20), standing, there;
    their arrays missing unless ``filled``."""
    sets = kernel.ffi.new("as_leaders[]", 2)
    kernel.keep.append(sets)
    if filled:
        for entry, where in zip(sets, ((50.0, 0.0), (-50.0, 20.0)), strict=True):
            entry.position = kernel.buffer("double[]", np.tile(where, (n, 1)))
            entry.velocity = kernel.buffer("double[]", np.zeros((n, 2)))
            entry.heading = kernel.buffer("double[]", np.zeros((n, 2)))
            entry.gone = kernel.buffer("uint8_t[]", np.zeros(n, dtype=np.uint8))
    return sets


def call(kernel: Kernel, op: tuple, sets, n_sets: int = 2) -> int:  # type: ignore[no-untyped-def]
    """``as_steer`` of one Interpose leaf over 3 parameter columns of ones, agents 0 and 1."""
    ffi = kernel.ffi
    program = ffi.new("as_program *")
    program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
    program.n_ops = 1
    program.params = kernel.buffer("double[]", np.ones(2 * 3))
    program.n_params = 3
    program.leaders, program.n_leaders = sets, n_sets
    slots = kernel.buffer("intptr_t[]", np.array([0, 1], dtype=np.intp))
    return int(kernel.lib.as_steer(kernel.agents, slots, 2, program, 1 / 60))


def test_the_c_refuses_interpose_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    sets = leader_sets(kernel, 2)
    assert call(kernel, (INTERPOSE, 0, 0, 2), sets) == ERR_PROGRAM  # b's set 2 of 2
    assert call(kernel, (INTERPOSE, 0, 0, -1), sets) == ERR_PROGRAM
    assert call(kernel, (INTERPOSE, 2, 0, 1), sets) == ERR_PROGRAM  # a's set 2 of 2
    assert call(kernel, (INTERPOSE, 0, 0, 1), sets, n_sets=1) == ERR_PROGRAM
    assert call(kernel, (INTERPOSE, 0, 1, 1), sets) == ERR_PROGRAM  # columns 1..3 of 3
    assert call(kernel, (INTERPOSE, 0, 0, 1), leader_sets(kernel, 2, False)) == ERR_LEADERS
    assert not kernel.columns["force"].any()
    assert call(kernel, (INTERPOSE, 0, 0, 1), sets) == 0
    # Towards the midpoint (0, 10), at max_speed 1 over a response time of 1.
    assert kernel.columns["force"][:2].tolist() == [[0.0, 1.0], [0.0, 1.0]]
    assert not kernel.columns["force"][2:].any()
