"""Face, LookWhereYouAreGoing and Scan in the native step against numpy, their reference: in
random trees with the other covered components and both blends (nested, weighted, with
thresholds), under random turn limits, the looks, turn rates and positions agree to 1e-9 over
many updates (to the bit, here: both paths take their angles from C's atan2); the demo's
leader turns the same; the native path is deterministic; the C refuses turn data out of
range and writes nothing.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree, random_leaf, two_worlds

import arcade_steering as steer
from arcade_steering.component import integrate
from arcade_steering.demo.scene import Scene
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

STEPS = 90
#: kernel.h's opcodes and error codes.
FACE, LOOK_WHERE_YOU_ARE_GOING, SCAN, WEIGHTED = 20, 21, 22, 5
ERR_SLOT, ERR_PROGRAM, ERR_LOOKS = -1, -2, -11


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def look_leaf(rng: np.random.Generator, targets: list) -> steer.SteeringComponent:
    """Face (a point, a sprite, a callable), LookWhereYouAreGoing or Scan, random parameters."""
    kind = rng.integers(3)
    tolerance = float(rng.choice([0.0, rng.uniform(0, 10)]))
    if kind == 0:
        return steer.Face(targets[rng.integers(len(targets))], tolerance=tolerance)
    if kind == 1:
        return steer.LookWhereYouAreGoing(tolerance=tolerance)
    half_angle = float(rng.choice([0.0, 180.0, rng.uniform(0, 180)]))
    return steer.Scan(half_angle, period=float(rng.uniform(0.1, 6)), tolerance=tolerance)


def turning_tree(rng: np.random.Generator, targets: list, depth: int) -> steer.SteeringComponent:
    """A random tree, up to ``depth`` blends deep, in which about half the leaves turn."""
    if depth == 0 or rng.random() < 0.3:
        return look_leaf(rng, targets) if rng.random() < 0.5 else random_leaf(rng, targets)
    children = [turning_tree(rng, targets, depth - 1) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.5:
        return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))
    threshold = float(rng.choice([0.0, 1e-3, 50.0, rng.uniform(0, 5000)]))
    return steer.PriorityBlend(*children, threshold=threshold)


def fuzzed_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], list]:
    """Random agents, trees, turn limits (always a turn rate: a blend that weighs a turn over
    2 with none spins the look ever faster, where its angle carries any rounding), targets."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    n = int(rng.integers(1, 40))
    spread = float(rng.choice([5.0, 100.0, 1000.0]))
    sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
    mover = StubSprite(*rng.uniform(-spread, spread, 2))
    targets: list = [tuple(rng.uniform(-spread, spread, 2)) for _ in range(2)]
    targets += [sprites[0], mover, lambda: (mover.center_y, mover.center_x)]
    shared = turning_tree(rng, targets, 3)
    for index, sprite in enumerate(sprites):
        tree = shared if index % 3 else turning_tree(rng, targets, 3)
        acceleration = None if rng.random() < 0.3 else float(rng.uniform(30, 5000))
        agent = world.attach(
            sprite,
            tree,
            max_speed=float(rng.uniform(10, 400)),
            max_force=float(rng.uniform(10, 2000)),
            response_time=float(rng.choice([0.001, 0.1, 0.7])),
            velocity=tuple(rng.uniform(-300, 300, 2)),
            max_turn_rate=float(rng.uniform(10, 720)),
            max_angular_acceleration=acceleration,
        )
        agent.look = tuple(rng.normal(size=2) + 1e-3)
    return world, sprites, [mover, rng]


def record(world: steer.SteeringWorld, sprites: list[StubSprite], keep: list) -> np.ndarray:
    """Positions, velocities, looks and turn rates ``(steps, n, 7)``, the moving target
    stepping between updates of varied length."""
    mover, rng = keep
    out = []
    for step in range(STEPS):
        mover.center_x += float(rng.uniform(-5, 5))
        world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity, *a.look, a.angular_velocity] for a in agents])
    return np.array(out)


def run_fuzzed(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    world, sprites, keep = fuzzed_world(seed)
    report = world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return record(world, sprites, keep)


@pytest.mark.parametrize(
    "seed", [*range(12), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(12, 40))]
)
def test_fuzzed_turning_trees_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_fuzzed(seed, monkeypatch, native=True)
    numpy = run_fuzzed(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert np.abs(numpy[..., 6]).max() > 0.0  # something turned
    assert_agree(native[..., :4], numpy[..., :4])  # positions, velocities
    assert_agree(native[..., 4:6], numpy[..., 4:6])  # looks
    assert_agree(native[..., 6:], numpy[..., 6:])  # turn rates


@pytest.mark.parametrize("seed", range(2))
def test_the_native_turns_are_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_fuzzed(seed, monkeypatch, native=True)
    second = run_fuzzed(seed, monkeypatch, native=True)
    assert first.tobytes() == second.tobytes()


def test_the_demos_leader_scans_as_on_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its tree, WeightedBlend((PriorityBlend(AvoidWalls, AvoidObstacles, FollowPath), 1),
    (Scan, 1)), in the demo's level, its squad reading where it looks."""

    def run(native: bool) -> np.ndarray:
        if native:
            monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
        else:
            monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
        scene = Scene(seed=0)
        report = scene.world.native_report()
        assert report.batches[0].native == native, str(report)
        assert "Scan(" in report.batches[0].tree
        leader = scene.world.agent_of(scene.leader)
        out = []
        for _ in range(300):
            scene.world.update(1 / 60)
            squad = [scene.world.agent_of(s).position for s in scene.squad]
            out.append([*leader.position, *leader.look, leader.angular_velocity, *np.ravel(squad)])
        return np.array(out)

    native, numpy = run(True), run(False)
    assert np.ptp(np.degrees(np.arctan2(numpy[:, 3], numpy[:, 2]))) > 60  # it swept
    assert_agree(native[None], numpy[None])


def test_native_batches_turn_and_their_looks_turn_without_numpy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("numpy turned a native batch")

    monkeypatch.setattr(integrate, "evaluate_turn", refuse)
    monkeypatch.setattr(integrate, "turn_looks", refuse)
    scene = Scene(seed=0)
    looks = []
    for _ in range(30):
        scene.world.update(1 / 60)
        looks.append(scene.world.agent_of(scene.leader).look)
    assert len(set(looks)) == 30  # it scanned


def test_a_face_whose_target_is_gone_turns_as_on_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        targets = [StubSprite(0, 100)]
        tree = steer.WeightedBlend((steer.Face(targets[0]), 1.0), (steer.Seek((300, 0)), 1.0))
        agents = [world.attach(StubSprite(10 * i, 0), tree, max_turn_rate=90) for i in range(3)]
        out = []
        for step in range(60):
            if step == 30:  # gone: Face turns towards (0, 0), as numpy reads a gone target
                targets.clear()
                gc.collect()
            world.update(1 / 60)
            out.append([[*a.look, a.angular_velocity] for a in agents])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert_agree(native[None], numpy[None])


# -- what the C refuses ----------------------------------------------------------------------


class TurningKernel(Kernel):
    """Direct calls of as_steer with programs that turn, and of as_turn_looks."""

    def __init__(self, capacity: int = 4) -> None:
        super().__init__(capacity)
        self.columns["look"][:] = (1.0, 0.0)
        self.columns["heading"][:] = (0.0, 1.0)
        for name in ("angular", "angular_velocity", "max_turn_rate", "max_angular_acceleration"):
            limit = name.startswith("max_")
            self.columns[name] = np.full(capacity, 90.0) if limit else np.zeros(capacity)
            setattr(self.agents, name, self.ffi.from_buffer("double[]", self.columns[name]))

    def steer_looks(self, slots: list[int], ops: list[tuple], scans: int = 1, phase=True) -> int:  # type: ignore[no-untyped-def]
        """``ops`` over one target (0, 10) and three parameter columns (half-angle 45°,
        period 1 s, tolerance 0), with ``scans`` Scan sets (their phases, unless not
        ``phase``)."""
        n = len(slots)
        program = self.ffi.new("as_program *")
        program.ops = self.buffer("int32_t[]", np.array(ops, dtype=np.int32).reshape(-1))
        program.n_ops = len(ops)
        program.params = self.buffer("double[]", np.tile([45.0, 1.0, 0.0], max(n, 1)))
        program.n_params = 3
        program.targets = self.buffer("double[]", np.tile([0.0, 10.0], max(n, 1)))
        program.gone = self.buffer("uint8_t[]", np.zeros(max(n, 1), dtype=np.uint8))
        program.n_targets = 1
        sets = self.ffi.new("as_scan[]", max(scans, 1))
        for k in range(scans):
            sets[k].phase = self.buffer("double[]", np.zeros(max(n, 1))) if phase else self.ffi.NULL
        self.keep.append(sets)
        program.scans, program.n_scans = sets, scans
        slots_array = self.buffer("intptr_t[]", np.array(slots or [0], dtype=np.intp))
        return int(self.lib.as_steer(self.agents, slots_array, n, program, 1 / 60))

    def turn_looks(self, slots: list[int], saved=True) -> int:  # type: ignore[no-untyped-def]
        """as_turn_looks over ``slots``, their looks put back to (0, 1) first."""
        looks = np.tile([0.0, 1.0], max(len(slots), 1))
        buffer = self.buffer("double[]", looks) if saved else self.ffi.NULL
        slots_array = self.buffer("intptr_t[]", np.array(slots or [0], dtype=np.intp))
        return int(self.lib.as_turn_looks(self.agents, slots_array, len(slots), 1 / 60, buffer))


def test_the_c_refuses_turn_data_out_of_range_and_writes_nothing() -> None:
    kernel = TurningKernel(capacity=4)
    face, look, scan = (FACE, 0, 2, 0), (LOOK_WHERE_YOU_ARE_GOING, 0, 2, 0), (SCAN, 0, 0, 0)
    assert kernel.steer_looks([0, 1], [(FACE, 1, 2, 0)]) == ERR_PROGRAM  # target 1 of 1
    assert kernel.steer_looks([0, 1], [(FACE, 0, 3, 0)]) == ERR_PROGRAM  # column 3 of 3
    assert kernel.steer_looks([0, 1], [(SCAN, 1, 0, 0)]) == ERR_PROGRAM  # scan set 1 of 1
    assert kernel.steer_looks([0, 1], [(SCAN, 0, 1, 0)]) == ERR_PROGRAM  # columns 1..3 of 3
    assert kernel.steer_looks([0, 1], [scan], scans=0) == ERR_PROGRAM  # no scan set at all
    assert kernel.steer_looks([0, 1], [scan], phase=False) == ERR_LOOKS  # no phases
    assert kernel.steer_looks([0, 4], [face]) == ERR_SLOT
    assert kernel.steer_looks([0, 1], [face, look]) == -3  # two turns left on the stack
    kernel.agents.angular_velocity = kernel.ffi.NULL  # the agents' turn columns missing
    assert kernel.steer_looks([0, 1], [look]) == ERR_LOOKS
    assert not kernel.columns["angular"].any() and not kernel.columns["force"].any()
    kernel.agents.angular_velocity = kernel.ffi.from_buffer(
        "double[]", kernel.columns["angular_velocity"]
    )
    assert kernel.steer_looks([0, 1], [face, scan, (WEIGHTED, 2, 1, 0)]) == 0
    assert kernel.columns["angular"][:2].all() and not kernel.columns["angular"][2:].any()
    assert not kernel.columns["force"].any()  # the leaves that turn give no force


def test_the_c_refuses_to_turn_looks_out_of_range_and_writes_nothing() -> None:
    kernel = TurningKernel(capacity=4)
    kernel.columns["angular"][:] = 600.0
    kernel.columns["max_angular_acceleration"][:] = 1000.0
    assert kernel.turn_looks([0, 4]) == ERR_SLOT
    assert kernel.turn_looks([-1]) == ERR_SLOT
    assert kernel.turn_looks([0, 1], saved=False) == ERR_LOOKS
    kernel.agents.max_turn_rate = kernel.ffi.NULL
    assert kernel.turn_looks([0, 1]) == ERR_LOOKS
    assert (kernel.columns["look"] == (1.0, 0.0)).all()
    assert not kernel.columns["angular_velocity"].any()
    kernel.agents.max_turn_rate = kernel.ffi.from_buffer(
        "double[]", kernel.columns["max_turn_rate"]
    )
    assert kernel.turn_looks([0, 1]) == 0
    assert kernel.columns["angular_velocity"][:2].tolist() == [10.0, 10.0]  # 600 / 60
    turned = np.radians(90.0 + 10.0 / 60)  # from (0, 1), put back, by 10°/s for 1/60 s
    expected = np.tile([np.cos(turned), np.sin(turned)], (2, 1))
    assert np.allclose(kernel.columns["look"][:2], expected, rtol=0, atol=1e-15)
    assert (kernel.columns["look"][2:] == (1.0, 0.0)).all()
