"""FollowPath, StayOnPath, FollowLeader and OffsetPursuit in the native step against numpy,
their reference: fuzzed paths (open, closed, few or many points, either direction, reshaped or
moving, agents far off them) and leaders (agents, sprites the game moves, standing ones,
callables, ones that are gone) in random trees with the other covered components agree to
1e-9 over many steps (to the bit, here); the native path is deterministic; the C refuses path
and leader data out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree, random_leaf, two_worlds

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

STEPS = 60


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_path(rng: np.random.Generator, spread: float) -> steer.Path:
    """Open or closed, 2 to 40 points (some repeated), one radius or one per segment."""
    k = int(rng.choice([2, 3, 6, 40]))
    points = rng.uniform(-spread, spread, (k, 2))
    if k > 3 and rng.random() < 0.3:
        points[2] = points[1]  # a segment of length 0
    closed = bool(rng.random() < 0.5) and k > 2
    path = steer.Path(points, radius=float(rng.choice([0.0, 5.0, 40.0])), closed=closed)
    if rng.random() < 0.3:
        path.radii = rng.uniform(0, 50, path.segment_count)
    return path


def follow_path(rng: np.random.Generator, paths: list[steer.Path]) -> steer.FollowPath:
    return steer.FollowPath(
        paths[rng.integers(len(paths))],
        prediction=float(rng.choice([0.0, rng.uniform(0, 1)])),
        look_ahead=float(rng.uniform(0, 1)),
        min_look_ahead=float(rng.choice([0.0, rng.uniform(0, 60)])),
        always=bool(rng.random() < 0.3),
        at_end=str(rng.choice(["stop", "loop", "reverse"])),
        direction=int(rng.choice([1, -1])),
        slowing_radius=float(rng.uniform(1, 200)),
        tolerance=float(rng.uniform(0, 10)),
    )


def follow_leader(rng: np.random.Generator, leaders: list) -> steer.FollowLeader:
    return steer.FollowLeader(
        leaders[rng.integers(len(leaders))],
        distance=float(rng.choice([0.0, rng.uniform(0, 80)])),
        slowing_radius=float(rng.uniform(1, 200)),
        tolerance=float(rng.uniform(0, 10)),
    )


def offset_pursuit(rng: np.random.Generator, leaders: list) -> steer.OffsetPursuit:
    return steer.OffsetPursuit(
        leaders[rng.integers(len(leaders))],
        offset=tuple(rng.uniform(-80, 80, 2)),
        max_prediction=float(rng.choice([0.0, rng.uniform(0, 2)])),
        slowing_radius=float(rng.uniform(1, 200)),
        tolerance=float(rng.uniform(0, 10)),
    )


def random_tree(rng: np.random.Generator, world: dict, depth: int) -> steer.SteeringComponent:
    """A random tree of the covered components, FollowPath, StayOnPath, FollowLeader and
    OffsetPursuit among them."""
    if depth == 0 or rng.random() < 0.35:
        kind = rng.random()
        if kind < 0.3:
            return follow_path(rng, world["paths"])
        if kind < 0.35:
            path = world["paths"][rng.integers(len(world["paths"]))]
            return steer.StayOnPath(path, prediction=float(rng.uniform(0, 1)))
        if kind < 0.55:
            return follow_leader(rng, world["leaders"])
        if kind < 0.7:
            return offset_pursuit(rng, world["leaders"])
        return random_leaf(rng, world["targets"])
    children = [random_tree(rng, world, depth - 1) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.5:
        return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))
    return steer.PriorityBlend(*children, threshold=float(rng.choice([0.0, 1e-3, 50.0])))


class Scene:
    """A fuzzed world: paths, leaders, agents; :meth:`run` steps it and records it."""

    def __init__(self, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.rng = rng
        self.world = steer.SteeringWorld(seed=seed)
        spread = float(rng.choice([50.0, 200.0, 2000.0]))
        n = int(rng.integers(1, 60) if seed % 4 else rng.integers(65, 120))
        self.sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
        # Leaders: an agent, a sprite the game moves, one that stands, one that goes away,
        # a callable.
        self.mover = StubSprite(*rng.uniform(-spread, spread, 2))
        self.standing = StubSprite(*rng.uniform(-spread, spread, 2))
        self.doomed: StubSprite | None = StubSprite(*rng.uniform(-spread, spread, 2))
        mover = self.mover
        leaders = [self.sprites[0], mover, self.standing, self.doomed]
        leaders.append(lambda: (mover.center_y, mover.center_x))
        self.paths = [random_path(rng, spread) for _ in range(int(rng.integers(1, 4)))]
        targets = [tuple(rng.uniform(-spread, spread, 2)), mover]
        scene = {"paths": self.paths, "leaders": leaders, "targets": targets}
        shared = random_tree(rng, scene, 3)
        for index, sprite in enumerate(self.sprites):
            self.world.attach(
                sprite,
                shared if index % 3 else random_tree(rng, scene, 3),
                max_speed=float(rng.uniform(10, 400)),
                max_force=float(rng.uniform(10, 2000)),
                mass=float(rng.uniform(0.2, 5)),
                response_time=float(rng.choice([0.001, 0.1, 0.7])),
                velocity=tuple(rng.uniform(-300, 300, 2)),
                radius=float(rng.uniform(0, 20)),
            )
        if rng.random() < 0.5:
            for _ in range(int(rng.integers(1, 10))):
                self.world.add_obstacle(tuple(rng.uniform(-spread, spread, 2)), 20.0)
        self.reshape_at = int(rng.integers(5, STEPS))
        self.moving_path = rng.random() < 0.5

    def run(self) -> np.ndarray:
        """Positions, velocities, forces and headings ``(steps, n, 8)``: the mover moves, a
        path is reshaped once (or moves every step), a leader goes away."""
        rng, out = self.rng, []
        for step in range(STEPS):
            # Back and forth: the squads behind it are walked at, and go round it.
            self.mover.center_x += 12.0 * np.sign(np.sin(step / 7.0)) + float(rng.uniform(-2, 2))
            if self.moving_path or step == self.reshape_at:
                path = self.paths[0]
                shift = rng.uniform(-10, 10, 2) if self.moving_path else rng.uniform(-50, 50, 2)
                path.points = path.points + shift
            if step == STEPS // 2:
                self.doomed = None
                gc.collect()
            self.world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
            agents = [self.world.agent_of(sprite) for sprite in self.sprites]
            out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
        return np.array(out)


def run_scene(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    scene = Scene(seed)
    report = scene.world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return scene.run()


#: Fuzzed worlds: twelve in the default run, forty more under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(12), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(12, 52))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_followers_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_scene(seed, monkeypatch, native=True)
    numpy = run_scene(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(2))
def test_the_native_followers_are_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    assert (
        run_scene(seed, monkeypatch, True).tobytes() == run_scene(seed, monkeypatch, True).tobytes()
    )


def squad_and_loop(world: steer.SteeringWorld) -> np.ndarray:
    """A leader walking a short open path back and forth, a squad behind it (walked at each
    time the leader turns round), and agents looping round an open path (heading home from
    its end): ``(steps, n, 8)`` over 400 updates."""
    route = steer.Path([(0, 0), (300, 0), (300, 120)], radius=15)
    leader = StubSprite(0, 0)
    world.attach(leader, steer.FollowPath(route, at_end="reverse"), max_speed=120)
    squad = [StubSprite(-40 - 15 * i, 10 * (i % 3)) for i in range(8)]
    for sprite in squad:
        tree = steer.WeightedBlend((steer.FollowLeader(leader), 1.0), (steer.Separation(25), 1.5))
        world.attach(sprite, tree, max_speed=150)
    short = steer.Path([(0, 200), (150, 260), (40, 330)], radius=10)
    loopers = [StubSprite(10 * i, 190) for i in range(5)]
    for sprite in loopers:
        world.attach(sprite, steer.FollowPath(short, at_end="loop"), max_speed=200)
    # Straight ahead of the leader, exactly on its axis: they go round on the side their
    # slot gives them.
    ahead = [StubSprite(200, 0), StubSprite(260, 0)]
    for sprite in ahead:
        world.attach(sprite, steer.FollowLeader(leader, distance=30), max_speed=150)
    # A formation's slots, held before the leader has moved (heading +x) and after.
    wing = [StubSprite(-30, 30 * i) for i in range(3)]
    for sprite, offset in zip(wing, steer.formations.wedge(3, spacing=30), strict=True):
        world.attach(sprite, steer.OffsetPursuit(leader, offset=offset), max_speed=150)
    stoppers = [StubSprite(5 * i, 390) for i in range(4)]
    for sprite in stoppers:
        world.attach(sprite, steer.FollowPath(short, at_end="stop", direction=-1), max_speed=200)
    # A loop of length 0: every point the same.
    dot = steer.Path([(500, 500)] * 3, closed=True)
    world.attach(StubSprite(480, 520), steer.FollowPath(dot), max_speed=100)
    # One batch on three paths (open, closed, and one the game moves every update).
    moving = steer.Path([(600, 0), (800, 100), (700, 300)], radius=20)
    lanes = [steer.Path([(600, 400), (900, 420)], radius=10), route, moving]
    convoy = [StubSprite(600 + 20 * i, 50 * i) for i in range(9)]
    for index, sprite in enumerate(convoy):
        world.attach(sprite, steer.FollowPath(lanes[index % 3], at_end="loop"), max_speed=110)
    sprites = [leader, *squad, *loopers, *ahead, *wing, *stoppers, *convoy]
    out = []
    for step in range(400):
        moving.points = moving.points + np.array([0.5, 0.2 * np.sin(step / 20)])
        world.update(1 / 60)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
    return np.array(out)


def test_a_squad_walked_at_and_loopers_going_home_agree_with_numpy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    native, numpy = two_worlds(monkeypatch, squad_and_loop)
    assert_agree(native, numpy)


def test_the_report_says_followers_run_native(monkeypatch: pytest.MonkeyPatch) -> None:
    world = steer.SteeringWorld()
    leader = StubSprite(0, 0)
    route = steer.Path([(0, 0), (100, 0)], radius=10)
    world.attach(leader, steer.PriorityBlend(steer.AvoidObstacles(), steer.FollowPath(route)))
    squad = steer.WeightedBlend((steer.FollowLeader(leader), 1.0), (steer.Separation(30), 1.5))
    follower = StubSprite(-40, 0)
    world.attach(follower, squad)
    report = world.native_report()
    assert report.native, str(report)
    assert [batch.native for batch in report.batches] == [True, True]


# -- what the C refuses ------------------------------------------------------------------------

FOLLOW_PATH, FOLLOW_LEADER, STAY_ON_PATH = 9, 10, 12


def call(kernel: Kernel, slots: list[int], op: tuple, paths=None, leaders=None) -> int:  # type: ignore[no-untyped-def]
    """``as_steer`` of one FollowPath or FollowLeader leaf over 5 parameter columns of ones."""
    ffi, n = kernel.ffi, len(slots)
    program = ffi.new("as_program *")
    program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
    program.n_ops = 1
    program.params = kernel.buffer("double[]", np.ones(max(n, 1) * 5))
    program.n_params = 5
    if paths is not None:
        program.paths, program.n_paths = paths, 1
    if leaders is not None:
        program.leaders, program.n_leaders = leaders, 1
    slots_array = kernel.buffer("intptr_t[]", np.array(slots or [0], dtype=np.intp))
    return int(kernel.lib.as_steer(kernel.agents, slots_array, n, program, 1 / 60))


def path_set(kernel: Kernel, which: list[int], n: int):  # type: ignore[no-untyped-def]
    """One path set: the path (0, 0) - (10, 0) of radius 1; ``which`` and state for ``n``
    agents (progress NaN: new ones)."""
    path = steer.Path([(0, 0), (10, 0)], radius=1.0)
    pack = path.pack()
    sets = kernel.ffi.new("as_paths[]", 1)
    entry = sets[0]
    entry.table = kernel.buffer("double[]", np.ascontiguousarray(pack.table))
    entry.key = kernel.buffer("double[]", np.ascontiguousarray(pack.key))
    entry.segments = pack.table.shape[1]
    for name in ("length", "base", "period"):
        setattr(entry, name, kernel.buffer("double[]", np.array(getattr(pack, name), float)))
    for name in ("closed", "looped"):
        setattr(entry, name, kernel.buffer("uint8_t[]", getattr(pack, name).astype(np.uint8)))
    entry.ends = kernel.buffer("double[]", np.ascontiguousarray(pack.ends))
    entry.paths, entry.any_open = 1, 1
    entry.which = kernel.buffer("intptr_t[]", np.array(which or [0], dtype=np.intp))
    state = {"progress": np.full(max(n, 1), np.nan), "sense": np.ones(max(n, 1))}
    state |= {"homing": np.zeros(max(n, 1)), "normal": np.zeros((max(n, 1), 2))}
    for name, values in state.items():
        setattr(entry, name, kernel.buffer("double[]", values))
    kernel.keep.append(sets)
    return sets, state


def test_the_c_refuses_paths_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    follow = (FOLLOW_PATH, 0, 0, 0)
    sets, state = path_set(kernel, [0, 1], 2)  # path 1 of 1
    assert call(kernel, [0, 1], follow, paths=sets) == -8
    sets, state = path_set(kernel, [-1, 0], 2)
    assert call(kernel, [0, 1], follow, paths=sets) == -8
    for member, bad in (("segments", 0), ("paths", 0), ("at_end", 3)):
        sets, state = path_set(kernel, [0, 0], 2)
        setattr(sets[0], member, bad)
        assert call(kernel, [0, 1], follow, paths=sets) == -8, member
    sets, state = path_set(kernel, [0, 0], 2)
    sets[0].progress = kernel.ffi.NULL  # what a StayOnPath set leaves out
    assert call(kernel, [0, 1], follow, paths=sets) == -8
    stateless = sets
    assert call(kernel, [0, 1], (STAY_ON_PATH, 0, 5, 0), paths=stateless) == -2  # column 5 of 5
    sets, state = path_set(kernel, [0, 0], 2)
    assert call(kernel, [0, 1], (FOLLOW_PATH, 0, 1, 0), paths=sets) == -2  # columns 1..5 of 5
    assert call(kernel, [0, 1], (FOLLOW_PATH, 1, 0, 0), paths=sets) == -2  # set 1 of 1
    assert call(kernel, [0, 1], follow) == -2  # no path set
    assert not kernel.columns["force"].any()
    assert np.isnan(state["progress"]).all()
    assert call(kernel, [0, 1], follow, paths=sets) == 0
    assert kernel.columns["force"][:2].any()  # agents at rest get going
    assert state["progress"].tolist() == [0.0, 0.0]
    kernel.columns["position"][:2] = (5.0, 3.0)  # 3 px off a tube of radius 1
    assert call(kernel, [0, 1], (STAY_ON_PATH, 0, 4, 0), paths=stateless) == 0
    assert kernel.columns["force"][:2, 1].tolist() == [-1.0, -1.0]  # back to it, at max_speed 1


def test_the_c_refuses_leaders_without_their_arrays() -> None:
    kernel = Kernel(capacity=4)
    sets = kernel.ffi.new("as_leaders[]", 1)
    kernel.keep.append(sets)
    follow = (FOLLOW_LEADER, 0, 0, 0)
    assert call(kernel, [0, 1], follow, leaders=sets) == -9
    assert call(kernel, [0, 1], (FOLLOW_LEADER, 0, 3, 0), leaders=sets) == -2  # 3..5 of 5
    assert call(kernel, [0, 1], (FOLLOW_LEADER, 1, 0, 0), leaders=sets) == -2
    assert not kernel.columns["force"].any()
    sets[0].position = kernel.buffer("double[]", np.array([[50.0, 0.0], [50.0, 0.0]]))
    sets[0].velocity = kernel.buffer("double[]", np.zeros((2, 2)))
    sets[0].heading = kernel.buffer("double[]", np.array([[1.0, 0.0], [1.0, 0.0]]))
    sets[0].gone = kernel.buffer("uint8_t[]", np.array([0, 1], dtype=np.uint8))
    assert call(kernel, [0, 1], follow, leaders=sets) == 0
    assert kernel.columns["force"][0].any()  # towards the point behind its leader
    assert not kernel.columns["force"][1].any()  # its leader is gone
