"""Wander in the native step against numpy, its reference: the random walk is drawn in Python
before the call by the numpy component's own code, so both paths draw the same numbers in the
same order. Fuzzed worlds with Wander in random trees with the other covered components agree
over many steps; native and numpy batches drawing from one generator in turn agree with a
world all on numpy; a snapshot restored and a save loaded replay the same bits; the report says
it runs; the C refuses a Wander set without its angles.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from native_scene import Scene, on_path, run_scene
from test_native import Kernel, assert_agree, two_worlds

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_WANDER, AS_ERR_PROGRAM and AS_ERR_STATE.
WANDER, ERR_PROGRAM, ERR_STATE = 24, -2, -12


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_wander(rng: np.random.Generator, scene: Scene) -> steer.Wander:
    return steer.Wander(
        radius=float(rng.choice([0.0, rng.uniform(0, 80)])),
        distance=float(rng.choice([0.0, rng.uniform(0, 150)])),
        jitter=float(rng.choice([0.0, rng.uniform(0, 10)])),
    )


#: Fuzzed worlds: six in the default run (two of them of more than 64 agents), forty-six more
#: under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(6), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(6, 52))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_wanderers_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_scene(seed, random_wander, monkeypatch, native=True)
    numpy = run_scene(seed, random_wander, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(1, 3))  # worlds of fewer than 64 agents
def test_the_native_wanderers_are_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_scene(seed, random_wander, monkeypatch, native=True)
    assert first.tobytes() == run_scene(seed, random_wander, monkeypatch, True).tobytes()


def pen(world: steer.SteeringWorld) -> list[StubSprite]:
    """Wanderers drawing from the world's generator in batches on both paths in turn: a native
    batch, one numpy runs (Hide is not native), another native one with two Wander leaves and
    agents at rest, and one whose circle is a point on the agent."""
    batches = [
        steer.PriorityBlend(steer.AvoidObstacles(), steer.Wander()),
        steer.WeightedBlend((steer.Wander(jitter=8.0), 1.0), (steer.Hide((0, 0)), 0.1)),
        steer.WeightedBlend(
            (steer.Wander(radius=10.0, distance=0.0), 1.0),
            (steer.Wander(radius=50.0, jitter=0.5), 0.5),
            (steer.Separation(25.0), 1.0),
        ),
        steer.Wander(radius=0.0, distance=0.0),
    ]
    sprites = []
    for number, tree in enumerate(batches):
        for i in range(6):
            sprite = StubSprite(40.0 * i, 60.0 * number)
            world.attach(sprite, tree, velocity=(0, 0) if i % 2 else (30.0, -10.0 * i))
            sprites.append(sprite)
    return sprites


def wander_for(world: steer.SteeringWorld, sprites: list[StubSprite], steps: int) -> np.ndarray:
    """Positions and forces ``(steps, n, 4)``, steps of varying length."""
    out = []
    for step in range(steps):
        world.update(1 / 60 if step % 3 else 1 / 25)
        out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
    return np.array(out)


def test_native_and_numpy_batches_draw_in_turn_as_numpy_alone_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reports = []

    def build(world: steer.SteeringWorld) -> np.ndarray:
        sprites = pen(world)
        reports.append([batch.native for batch in world.native_report().batches])
        return wander_for(world, sprites, 120)

    native, numpy = two_worlds(monkeypatch, build)
    assert reports[0] == [True, False, True, True]  # Hide still runs on numpy
    assert reports[1] == [False] * 4
    assert_agree(native, numpy)
    assert native.tobytes() == numpy.tobytes()  # to the bit, here
    strolled = np.hypot(*(native[-1, :, :2] - native[0, :, :2]).T)
    assert strolled[:18].min() > 10.0  # all but those whose circle is a point on them


@pytest.mark.parametrize("native", [True, False])
def test_a_snapshot_restored_and_a_save_loaded_replay_the_same_bits(
    native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_path(monkeypatch, native)
    world = steer.SteeringWorld(seed=5)
    sprites = pen(world)
    wander_for(world, sprites, 20)
    saved, snapshot = steer.save_world(world, names=names_of(sprites)), world.snapshot()
    first = wander_for(world, sprites, 40)
    world.restore(snapshot)
    assert wander_for(world, sprites, 40).tobytes() == first.tobytes()
    # Loaded into a world the game built again, on either path: the same bits again.
    for loaded_on in (True, False):
        on_path(monkeypatch, loaded_on)
        again = steer.SteeringWorld(seed=99)
        others = pen(again)
        steer.load_world(again, saved, resolve=names_of(others))
        assert wander_for(again, others, 40).tobytes() == first.tobytes()


def names_of(sprites: list[StubSprite]) -> dict[str, StubSprite]:
    return {f"agent {number}": sprite for number, sprite in enumerate(sprites)}


def test_a_wanderer_at_rest_and_one_seeking_its_own_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        rest, still = StubSprite(0, 0), StubSprite(100, 0)
        world.attach(rest, steer.Wander(jitter=0.0))  # heading +x, velocity 0
        world.attach(still, steer.Wander(radius=0.0, distance=0.0), velocity=(20, 0))
        out = []
        for _ in range(30):
            world.update(1 / 60)
            out.append(
                [[*world.agent_of(s).velocity, *world.agent_of(s).force] for s in (rest, still)]
            )
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert native.tobytes() == numpy.tobytes()
    assert np.hypot(*native[-1, 0, :2]) > 10.0  # it set off
    assert np.hypot(*native[-1, 1, :2]) < 1.0  # its target is where it is: it stops (from 20)


def test_the_report_says_wander_runs_native() -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.PriorityBlend(steer.AvoidObstacles(), steer.Wander()))
    report = world.native_report()
    assert report.native and report.batches[0].native, str(report)


def test_the_c_refuses_a_wander_set_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["heading"][:] = (1.0, 0.0)
    ffi = kernel.ffi
    sets = ffi.new("as_wander[]", 1)
    kernel.keep.append(sets)

    def call(op: tuple, n_sets: int = 1) -> int:
        program = ffi.new("as_program *")
        program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
        program.n_ops = 1
        program.params = kernel.buffer("double[]", np.full(2 * 2, 10.0))
        program.n_params = 2
        program.wanders, program.n_wanders = sets, n_sets
        slots = kernel.buffer("intptr_t[]", np.array([0, 1], dtype=np.intp))
        return int(kernel.lib.as_steer(kernel.agents, slots, 2, program, 1 / 60))

    assert call((WANDER, 0, 0, 0)) == ERR_STATE  # no angles
    sets[0].angle = kernel.buffer("double[]", np.array([0.0, np.pi / 2]))
    assert call((WANDER, 1, 0, 0)) == ERR_PROGRAM  # set 1 of 1
    assert call((WANDER, 0, 1, 0)) == ERR_PROGRAM  # columns 1..2 of 2
    assert call((WANDER, 0, 0, 0), n_sets=33) == ERR_PROGRAM  # more sets than a program has
    assert not kernel.columns["force"].any()
    assert call((WANDER, 0, 0, 0)) == 0
    # Ahead on the circle, and to its left: at max_speed 1 over a response time of 1.
    assert kernel.columns["force"][0].tolist() == [1.0, 0.0]
    assert kernel.columns["force"][1] == pytest.approx((0.5**0.5, 0.5**0.5))
