"""The native step against numpy, its reference: fuzzed batches agree to 1e-9, each path is
deterministic, the report says which path runs and why, and the C refuses what is out of
range instead of reading it.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import functools
import gc
import math

import numpy as np
import pymunk
import pytest
from conftest import NATIVE_BUILT

import arcade_steering as steer
from arcade_steering._native.geometry import NativeGeometry
from arcade_steering._native.stepper import FLOAT, checked
from arcade_steering.geometry import StaticGeometry
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


#: Agreement of the two paths, relative to each quantity's scale.
RTOL = 1e-9


def random_leaf(
    rng: np.random.Generator, targets: list, group: list | None = None
) -> steer.SteeringComponent:
    """A random covered leaf; a flocking rule's neighbours among ``group`` or everyone."""
    kind = rng.integers(13)
    target = targets[rng.integers(len(targets))]
    if kind == 0:
        return steer.Seek(target)
    if kind == 1:
        panic = None if rng.random() < 0.3 else float(rng.uniform(5, 400))
        return steer.Flee(target, panic_distance=panic)
    if kind == 2:
        return steer.Arrive(
            target,
            slowing_radius=float(rng.uniform(1, 300)),
            tolerance=float(rng.uniform(0, 20)),
        )
    if kind == 3:
        return steer.Separation(float(rng.uniform(5, 120)))
    moving = [each for each in targets if not isinstance(each, tuple)]
    if kind in (7, 8, 9):  # a moving target: a sprite or a callable
        target = moving[rng.integers(len(moving))]
    if kind == 7:
        return steer.Pursue(target, max_prediction=float(rng.choice([0.0, rng.uniform(0, 3)])))
    if kind == 8:
        threat_range = None if rng.random() < 0.3 else float(rng.uniform(5, 400))
        return steer.Evade(
            target, threat_range=threat_range, max_prediction=float(rng.uniform(0, 3))
        )
    if kind == 9:
        return steer.MatchVelocity(target)
    if kind == 10:  # these turn the look: numpy turns it after the native call
        return steer.Scan(float(rng.uniform(0, 180)), period=float(rng.uniform(0.2, 6)))
    if kind == 11:
        return steer.Face(target, tolerance=float(rng.uniform(0, 5)))
    if kind == 12:
        return steer.LookWhereYouAreGoing()
    if kind in (5, 6):
        rule = steer.Alignment if kind == 5 else steer.Cohesion
        among = group if group is not None and rng.random() < 0.4 else None
        return rule(float(rng.uniform(5, 200)), among=among)
    return steer.AvoidObstacles(
        length=None if rng.random() < 0.5 else float(rng.uniform(1, 300)),
        min_length=float(rng.uniform(0, 40)),
        buffer=float(rng.choice([0.0, rng.uniform(0, 30)])),
        braking=float(rng.uniform(0, 1)),
    )


def add_obstacles(
    world: steer.SteeringWorld, sprites: list[StubSprite], rng: np.random.Generator, spread: float
) -> None:
    """Random round obstacles (none, a few, or more than the broad phase searches one by
    one), some on agents, some touching them, and walls and polygons that AvoidObstacles
    must not see."""
    agents = [(sprite.center_x, sprite.center_y) for sprite in sprites]
    for _ in range(int(rng.choice([0, 3, 20, 90]))):
        radius = float(rng.uniform(1, 60))
        where = rng.random()
        centre = rng.uniform(-spread, spread, 2)
        if where < 0.3:  # on an agent, or touching it
            agent = agents[rng.integers(len(agents))]
            direction = rng.normal(size=2)
            gap = radius + float(rng.choice([0.0, rng.uniform(0, 30)]))
            centre = np.asarray(agent) + gap * direction / max(np.hypot(*direction), 1e-9)
            centre = centre * (where >= 0.1) + np.asarray(agent) * (where < 0.1)
        world.add_obstacle(tuple(centre), radius)
    if rng.random() < 0.5:
        world.add_wall(tuple(rng.uniform(-spread, spread, 2)), (spread, spread), thickness=5.0)
        world.add_walls([(0, 0), (40, 0), (20, 30)], closed=True)


def random_tree(
    rng: np.random.Generator, targets: list, depth: int, group: list | None = None
) -> steer.SteeringComponent:
    """A random tree of the covered components, up to ``depth`` blends deep."""
    if depth == 0 or rng.random() < 0.3:
        return random_leaf(rng, targets, group)
    children = [random_tree(rng, targets, depth - 1, group) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.5:
        return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))
    return steer.PriorityBlend(*children, threshold=float(rng.choice([0.0, 1e-3, 50.0])))


def fuzzed_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], list]:
    """A world of random agents, trees, limits and targets (points, sprites, callables); the
    same ``seed`` builds the same world."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    # Up to 64 agents the C finds a Separation's neighbours itself; beyond, numpy's index.
    n = int(rng.integers(1, 60) if seed % 4 else rng.integers(65, 150))
    spread = float(rng.choice([5.0, 100.0, 1000.0]))
    sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
    mover = StubSprite(*rng.uniform(-spread, spread, 2))
    targets: list = [tuple(rng.uniform(-spread, spread, 2)) for _ in range(3)]
    targets += [sprites[0], mover, lambda: (mover.center_y, mover.center_x)]
    group = sprites[::2]
    shared = random_tree(rng, targets, 3, group)
    for index, sprite in enumerate(sprites):
        tree = shared if index % 3 else random_tree(rng, targets, 3, group)
        world.attach(
            sprite,
            tree,
            max_speed=float(rng.uniform(10, 400)),
            max_force=float(rng.uniform(10, 2000)),
            mass=float(rng.uniform(0.2, 5)),
            response_time=float(rng.choice([0.001, 0.1, 0.7])),
            velocity=tuple(rng.uniform(-300, 300, 2)),
            radius=float(rng.uniform(0, 20)),
        )
    add_obstacles(world, sprites, rng, spread)
    return world, sprites, [mover, rng]


def record(world: steer.SteeringWorld, sprites: list[StubSprite], keep: list) -> np.ndarray:
    """Positions, velocities, forces, headings and looks ``(steps, n, 10)`` over 20 updates,
    the moving target stepping between them."""
    mover, rng = keep
    out = []
    for step in range(20):
        mover.center_x += float(rng.uniform(-5, 5))
        world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity, *a.force, *a.heading, *a.look] for a in agents])
    return np.array(out)


def run_fuzzed(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    world, sprites, keep = fuzzed_world(seed)
    report = world.native_report()  # every batch on the path asked for
    assert all(batch.native == native for batch in report.batches), str(report)
    return record(world, sprites, keep)


def assert_agree(native: np.ndarray, numpy: np.ndarray, rtol: float = RTOL) -> None:
    """Equal to ``rtol`` of each quantity's largest magnitude (a force that cancels to
    nearly zero keeps the rounding of the terms it cancelled)."""
    scale = np.abs(numpy).max(axis=(0, 1), keepdims=True) + 1.0
    error = np.abs(native - numpy) / scale
    assert error.max() <= rtol, f"differ by {error.max():.3g} of their scale at {np.argmax(error)}"


#: Agreement of the looks :func:`record` keeps: both paths turn them alike (to the bit, here),
#: but a look spinning ever faster (a blend weighing a turn over 2, no ``max_turn_rate``)
#: carries the rounding of the trajectories (beyond 64 agents, 1e-11) into its angle: 5e-9.
LOOK_RTOL = 1e-6


#: Fuzzed worlds: ten in the default run, thirty more under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(10), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(10, 40))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_batches_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_fuzzed(seed, monkeypatch, native=True)
    numpy = run_fuzzed(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native[..., :8], numpy[..., :8])
    assert_agree(native[..., 8:], numpy[..., 8:], LOOK_RTOL)


@pytest.mark.parametrize("seed", range(3))
def test_the_native_path_is_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_fuzzed(seed, monkeypatch, native=True)
    second = run_fuzzed(seed, monkeypatch, native=True)
    assert first.tobytes() == second.tobytes()


def two_worlds(monkeypatch: pytest.MonkeyPatch, build):  # type: ignore[no-untyped-def]
    """``build(world)`` run in a native world and a numpy one: their trajectories."""
    results = []
    for native in (True, False):
        if native:
            monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
        else:
            monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
        results.append(build(steer.SteeringWorld(seed=0)))
    return results


def test_a_changed_parameter_and_a_gone_target_reach_the_native_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        quarry = StubSprite(200, 0)
        arrive = steer.Arrive(quarry, slowing_radius=80)
        sprites = [StubSprite(0, y) for y in range(0, 50, 10)]
        for sprite in sprites:
            world.attach(sprite, steer.WeightedBlend((arrive, 1.0), (steer.Separation(25), 2.0)))
        out = []
        for step in range(60):
            if step == 20:
                arrive.slowing_radius = 10.0  # the program is compiled again
            if step == 40:
                del quarry  # gone: the Arrive is silent, the Separation goes on
                gc.collect()
            world.update(1 / 60)
            out.append([s.position for s in sprites])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert_agree(native[None], numpy[None])
    assert not np.array_equal(native[39], native[40])  # still pushed apart when gone


def test_columns_grown_or_restored_to_new_arrays_are_the_ones_the_native_step_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        tree = steer.WeightedBlend((steer.Seek((300.0, 40.0)), 1.0), (steer.Separation(30), 1.0))
        sprites = [StubSprite(0.0, 10.0 * i) for i in range(2)]
        for sprite in sprites:
            world.attach(sprite, tree)
        out = []
        for step in range(40):
            if step == 5:
                saved = world.snapshot()
            if step == 10:  # past the capacity: every column is a new array
                for i in range(300):
                    sprites.append(StubSprite(-5.0 * i, 3.0 * i))
                    world.attach(sprites[-1], tree)
            if step == 30:  # into the grown columns: new arrays again
                world.restore(saved)
            world.update(1 / 60)
            out.append([s.position for s in sprites[:2]])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert_agree(native[None], numpy[None])
    assert native[29, 0, 0] > native[9, 0, 0] + 10.0  # they went on after the growth


@pytest.mark.parametrize(
    "places",
    [
        "one spot",  # a grid of one cell
        "a line",  # no height: the cells grow to keep their number down
        "far apart",  # a cluster and agents 1e12 px away
    ],
)
def test_flocking_among_everyone_in_a_large_world_agrees_with_numpy(
    places: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond 64 agents the C finds the neighbours on a grid of its own."""
    native_paths = []

    def build(world: steer.SteeringWorld) -> np.ndarray:
        rng = np.random.default_rng(7)
        n = 150
        if places == "one spot":
            points = np.zeros((n, 2)) + rng.normal(0, 1e-9, (n, 2)) * (rng.random((n, 1)) < 0.5)
        elif places == "a line":
            points = np.column_stack((rng.uniform(0, 5000, n), np.zeros(n)))
        else:
            points = rng.uniform(0, 60, (n, 2))
            points[::10] += 1e12
        sprites = [StubSprite(*point) for point in points.tolist()]
        tree = steer.WeightedBlend(
            (steer.Separation(25.0), 1.5),
            (steer.Alignment(40.0), 1.0),
            (steer.Cohesion(40.0), 1.0),
            (steer.Seek((300.0, 100.0)), 0.5),
        )
        for sprite in sprites:
            world.attach(sprite, tree, velocity=tuple(rng.uniform(-50, 50, 2)))
        out = []
        for _ in range(30):
            world.update(1 / 60)
            out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
        native_paths.append(world.native_report().batches[0].native)
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert native_paths == [True, False]
    assert_agree(native[None], numpy[None])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # numpy's, on its way to no force
@pytest.mark.parametrize("x", [math.nan, math.inf, -math.inf, 1e300])
@pytest.mark.parametrize("leaf", [steer.Seek, steer.Flee, steer.Arrive])
def test_a_target_at_nan_or_far_gives_what_numpy_gives(
    leaf: type, x: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        sprite = StubSprite(0, 0)
        agent = world.attach(sprite, leaf(lambda: (x, 0.0)), velocity=(50, 0))
        world.update(1 / 60)
        return np.array([[agent.force, agent.velocity]])

    native, numpy = two_worlds(monkeypatch, build)
    assert native.tobytes() == numpy.tobytes()


def test_mixed_batches_and_squads_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        squads = [
            [StubSprite(x, y + 40 * s) for x in range(0, 60, 12) for y in (0, 9)] for s in (0, 1)
        ]
        for squad in squads:
            for sprite in squad:
                tree = steer.PriorityBlend(
                    steer.Separation(20, among=squad), steer.Seek((300, 100))
                )
                world.attach(sprite, tree)
        wanderer = StubSprite(10, 10)
        world.attach(wanderer, steer.WeightedBlend((steer.Wander(), 1), (steer.Separation(20), 1)))
        sprites = [*squads[0], *squads[1], wanderer]
        out = []
        for _ in range(40):
            world.update(1 / 60)
            out.append([s.position for s in sprites])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert_agree(native[None], numpy[None])


def test_the_report_says_which_path_runs_and_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    world = steer.SteeringWorld()
    sprites = [StubSprite(0, 0), StubSprite(10, 0), StubSprite(20, 0)]
    world.attach(sprites[0], steer.PriorityBlend(steer.Flee((5, 5), 50), steer.Arrive((9, 9))))
    world.attach(sprites[1], steer.WeightedBlend((steer.Seek((1, 1)), 1), (steer.Hide((5, 5)), 1)))

    class MySeek(steer.Seek):
        """A subclass may steer otherwise: it runs on numpy."""

    world.attach(sprites[2], MySeek((3, 3)))
    report = world.native_report()
    assert report.available and not report.native and report.integration == ""
    assert [b.native for b in report.batches] == [True, False, False]
    assert report.batches[1].reason == "Hide has no native step yet"
    assert report.batches[2].reason == "MySeek has no native step yet"
    assert "numpy (Hide has no native step yet)" in str(report)

    world.add_wall((100, 100), (200, 100))
    assert world.native_report().integration == ""  # the solid step runs natively too
    monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    off = steer.SteeringWorld().native_report()
    assert not off.available and off.reason == "switched off: ARCADE_STEERING_NATIVE=0"
    assert str(off) == "numpy: switched off: ARCADE_STEERING_NATIVE=0"


def test_a_separation_with_a_field_of_view_runs_on_numpy() -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite()
    world.attach(sprite, steer.Separation(30, fov=120))
    assert world.native_report().batches[0].reason.startswith("Separation with a field of view")


# -- what the Python checks and what the C refuses ------------------------------------------


def test_arrays_are_checked_before_their_address_goes_to_c() -> None:
    good = np.zeros((4, 2))
    assert checked("position", good, FLOAT, (4, 2)) is good
    with pytest.raises(ValueError, match="position must be a C-contiguous float64"):
        checked("position", good.astype(np.float32), FLOAT, (4, 2))
    with pytest.raises(ValueError, match="shape \\(4, 2\\)"):
        checked("position", np.zeros((3, 2)), FLOAT, (4, 2))
    with pytest.raises(ValueError, match="contiguous: False"):
        checked("position", np.zeros((4, 4))[:, :2], FLOAT, (4, 2))


class Kernel:
    """Direct calls of the C with hand-made (bad) programs."""

    def __init__(self, capacity: int = 4) -> None:
        from arcade_steering._native import _kernel  # whatever ARCADE_STEERING_NATIVE says

        self.ffi, self.lib = _kernel.ffi, _kernel.lib
        self.columns = {name: np.zeros((capacity, 2)) for name in ("position", "velocity")}
        self.columns |= {name: np.zeros((capacity, 2)) for name in ("force", "heading", "look")}
        self.columns |= {name: np.ones(capacity) for name in ("max_speed", "max_force", "mass")}
        self.columns |= {name: np.ones(capacity) for name in ("radius", "response_time")}
        self.agents = self.ffi.new("as_agents *")
        for name, column in self.columns.items():
            setattr(self.agents, name, self.ffi.from_buffer("double[]", column))
        self.agents.capacity = capacity
        self.keep: list = []

    def buffer(self, kind: str, array: np.ndarray):  # type: ignore[no-untyped-def]
        self.keep.append(array)
        return self.ffi.from_buffer(kind, array)

    def steer(
        self,
        slots: list[int],
        ops: list[tuple[int, int, int, int]],
        pairs=None,
        world=None,
        obstacles: int | None = None,
        geometry=None,
        columns: int = 2,
    ) -> int:  # type: ignore[no-untyped-def]
        n = len(slots)
        program = self.ffi.new("as_program *")
        program.ops = self.buffer("int32_t[]", np.array(ops, dtype=np.int32).reshape(-1))
        program.n_ops = len(ops)
        program.params = self.buffer("double[]", np.ones(max(n, 1) * columns))
        program.n_params = columns
        program.targets = self.buffer("double[]", np.zeros((1, max(n, 1), 2)))
        program.gone = self.buffer("uint8_t[]", np.zeros((1, max(n, 1)), dtype=np.uint8))
        program.n_targets = 1
        sets = self.ffi.new("as_pairs[]", 1)
        if pairs is not None:
            query, other = pairs
            sets[0].query = self.buffer("intptr_t[]", np.array(query, dtype=np.intp))
            sets[0].other = self.buffer("intptr_t[]", np.array(other, dtype=np.intp))
            sets[0].offset = self.buffer("double[]", np.ones((len(query), 2)))
            sets[0].distance = self.buffer("double[]", np.ones(len(query)))
            sets[0].count = len(query)
        if world is not None:
            sets[0].everyone = 1
            program.world = self.buffer("intptr_t[]", np.array(world, dtype=np.intp))
            program.n_world = len(world)
        program.pairs, program.n_pairs = sets, 1
        if obstacles is not None:
            program.obstacles, program.n_obstacles = self.obstacles(obstacles), 1
        if geometry is not None:
            program.geometry = geometry
        slots_array = self.buffer("intptr_t[]", np.array(slots or [0], dtype=np.intp))
        return int(self.lib.as_steer(self.agents, slots_array, n, program, 1 / 60))

    def obstacles(self, state: int):  # type: ignore[no-untyped-def]
        """One AvoidObstacles leaf's state, rows for ``state`` agents (0: none given)."""
        sets = self.ffi.new("as_obstacles[]", 1)
        if state:
            sets[0].chosen = self.buffer("double[]", np.full(state, -1.0))
            sets[0].side = self.buffer("double[]", np.zeros(state))
            sets[0].cruise = self.buffer("double[]", np.full(state, np.nan))
        self.keep.append(sets)
        return sets

    def geometry(self, segments=(), circles=()):  # type: ignore[no-untyped-def]
        """A new as_geometry struct, as a world makes it, over a space holding ``segments``
        ``(a, b, radius)`` and ``circles`` ``(centre, radius)``."""
        space = pymunk.Space()
        body = space.static_body
        space.add(*(pymunk.Segment(body, a, b, radius) for a, b, radius in segments))
        space.add(*(pymunk.Circle(body, radius, centre) for centre, radius in circles))
        native = NativeGeometry(self)  # it keeps the arrays the struct points at
        self.keep.append(native)
        return native.struct(StaticGeometry(space))


def test_the_c_refuses_what_is_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    seek, separation, weighted = (1, 0, 0, 0), (4, 0, 0, 0), (5, 2, 0, 0)
    assert kernel.steer([0, 3], [seek]) == 0
    assert kernel.steer([0, 4], [seek]) == -1  # slot past the columns
    assert kernel.steer([-1], [seek]) == -1
    assert kernel.steer([0], [(9, 0, 0, 0)]) == -2  # unknown opcode
    assert kernel.steer([0], [(1, 1, 0, 0)]) == -2  # target 1 of 1
    assert kernel.steer([0], [(2, 0, 2, 0)]) == -2  # parameter column 2 of 2
    assert kernel.steer([0], [seek, seek]) == -3  # two forces left
    assert kernel.steer([0], [seek, weighted]) == -3  # pops 2 of 1
    assert kernel.steer([0], [seek] * 33 + [(5, 33, 0, 0)]) == -3  # deeper than 32
    assert kernel.steer([0], []) == -3
    assert kernel.steer([0, 1], [separation], ([0, 1], [1, 0])) == 0
    assert kernel.steer([0, 1], [separation], ([1, 0], [1, 0])) == -4  # not grouped
    assert kernel.steer([0, 1], [separation], ([0], [4])) == -4  # neighbour past the columns
    assert kernel.steer([0, 1], [separation], world=[0, 1, 4]) == -4  # world past the columns
    assert not kernel.columns["force"][1:].any()
    assert kernel.steer([0, 1], [separation], world=[0, 1, 3]) == 0
    assert kernel.columns["force"][1].any()  # pushed apart from the agents on its spot


def test_the_c_refuses_obstacle_leaves_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["heading"][:] = (1.0, 0.0)
    kernel.columns["velocity"][:] = (1.0, 0.0)
    geometry = kernel.geometry(circles=[((2, 0), 1.0)])
    avoid = (7, 0, 0, 0)  # AvoidObstacles: 4 parameter columns
    steer_avoid = functools.partial(kernel.steer, [0, 1], columns=4, geometry=geometry)
    assert steer_avoid([(7, 0, 1, 0)], obstacles=2) == -2  # columns 1..4 of 4
    assert steer_avoid([(7, 1, 0, 0)], obstacles=2) == -2  # set 1 of 1
    assert steer_avoid([avoid], obstacles=0) == -5  # no state
    assert kernel.steer([0, 1], [avoid], obstacles=2, columns=4) == -7  # no geometry
    assert not kernel.columns["force"].any()
    assert steer_avoid([avoid], obstacles=2) == 0
    assert kernel.columns["force"][:2].any()  # both overlap the obstacle at (2, 0)


def test_the_c_refuses_an_inconsistent_geometry_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    shapes = {"segments": [((0, 0), (40, 0), 1.0)], "circles": [((9, 9), 3.0)]}
    assert kernel.lib.as_check_geometry(kernel.geometry(**shapes)) == 0
    broken = {"n_walls": 3, "nx": 0, "cell": 0.0, "origin_x": math.nan, "listings": -1}
    avoid = [(7, 0, 0, 0)]
    for member, value in broken.items():
        geometry = kernel.geometry(**shapes)
        setattr(geometry, member, value)
        assert kernel.lib.as_check_geometry(geometry) == -7, member
        assert kernel.steer([0, 1], avoid, obstacles=2, columns=4, geometry=geometry) == -7
    for member in ("items", "count"):  # shape 5 of 2; listings past the end
        geometry = kernel.geometry(**shapes)
        getattr(geometry, member)[0] = 5
        assert kernel.lib.as_check_geometry(geometry) == -7, member
    assert not kernel.columns["force"].any()


def test_a_geometry_far_apart_is_read_through_its_hashed_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Short walls and a wall and an obstacle a million px from them make the broad phase's
    grid hash its cells: the C reads that table and finds what numpy's broad phase finds."""

    def build(world: steer.SteeringWorld) -> np.ndarray:
        rng = np.random.default_rng(5)
        for _ in range(300):
            a = rng.uniform(0, 400, 2)
            world.add_wall(tuple(a), tuple(a + rng.uniform(-10, 10, 2)), thickness=2.0)
        for _ in range(20):
            world.add_obstacle(tuple(rng.uniform(0, 400, 2)), float(rng.uniform(4, 15)))
        world.add_wall((1e6, 0), (1e6 + 50, 30))
        world.add_obstacle((-1e6, 5e5), 20.0)
        sprites = [StubSprite(*rng.uniform(0, 400, 2)) for _ in range(40)]
        behavior = steer.PriorityBlend(
            steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek((200, 200))
        )
        for sprite in sprites:
            world.attach(sprite, behavior, max_speed=120.0)
        world.update(1 / 60)
        assert world.geometry.grid.table.hashed is not None
        out = []
        for _ in range(90):
            world.update(1 / 60)
            out.append([s.position for s in sprites])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert_agree(native, numpy)


def test_the_c_refuses_an_inconsistent_hashed_table() -> None:
    kernel = Kernel(capacity=4)
    short = [
        ((x, y), (x + 9.0, y + 3.0), 1.0) for x in range(0, 400, 20) for y in range(0, 300, 20)
    ]
    far = {"segments": [*short, ((1e7, 0), (1e7, 9), 1.0)]}
    geometry = kernel.geometry(**far)
    assert geometry.keys != kernel.ffi.NULL  # hashed
    assert kernel.lib.as_check_geometry(geometry) == 0
    shift, probes = geometry.shift, geometry.probes
    reachable = (1 << (64 - shift)) + probes - 1  # the rows the last home's probes reach
    for member, value in {
        "shift": 1,
        "probes": 0,
        "rows": reachable - 1,
        "keys": kernel.ffi.NULL,
    }.items():
        geometry = kernel.geometry(**far)
        setattr(geometry, member, value)
        assert kernel.lib.as_check_geometry(geometry) == -7, member
    geometry = kernel.geometry(**far)
    geometry.shift = shift + 1  # homes in the first half: still in range, so accepted
    assert kernel.lib.as_check_geometry(geometry) == 0
