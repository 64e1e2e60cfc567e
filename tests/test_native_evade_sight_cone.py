"""EvadeSightCone in the native step against numpy, its reference: squads round leaders that
walk, turn round, scan, are turned by the game, stand still or are gone, followers inside,
outside and on the edge of the view, walls hiding some followers in view and not others
(``occluded=True``), the component in random trees with the others; forces agree to 1e-9
over many steps, the native path is deterministic, and the C refuses leaders
and state out of range instead of reading them.
"""

from __future__ import annotations

import gc
import math

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, add_obstacles, assert_agree, random_leaf, two_worlds

import arcade_steering as steer
from arcade_steering._core.perception import occlude
from arcade_steering.behaviors import sight_cone
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_EVADE_SIGHT_CONE, AS_ERR_PROGRAM and AS_ERR_SIGHT_CONES.
EVADE_SIGHT_CONE, ERR_PROGRAM, ERR_SIGHT_CONES = 13, -2, -6


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


class Leaders:
    """A world's leaders: one attached that seeks a point which jumps behind it (it brakes and
    turns round), one attached that scans as it walks, one attached that stands still, one
    moved by the game (straight, back, then still) and a callable; the game turns the
    scanning one's look now and then."""

    def __init__(self, world: steer.SteeringWorld, rng: np.random.Generator, spread: float):
        def place() -> StubSprite:
            return StubSprite(*rng.uniform(-spread, spread, 2))

        self.world = world
        self.goal = StubSprite(*rng.uniform(-spread, spread, 2))
        self.walker, self.scanner, self.idle, self.moved = place(), place(), place(), place()
        world.attach(self.walker, steer.Seek(self.goal), max_speed=float(rng.uniform(20, 150)))
        scan = steer.Scan(float(rng.uniform(20, 90)), period=float(rng.uniform(0.3, 2)))
        world.attach(
            self.scanner,
            steer.WeightedBlend((steer.Seek(self.goal), 1.0), (scan, 1.0)),
            velocity=tuple(rng.uniform(-60, 60, 2)),
            max_speed=60.0,
        )
        world.attach(self.idle, steer.Arrive(self.idle.position), max_speed=50.0)
        self.pace = rng.uniform(-3, 3, 2)
        self.sprites = [self.walker, self.scanner, self.idle, self.moved]
        self.callable = lambda: (self.moved.center_y, self.moved.center_x)

    @property
    def all(self) -> list:
        return [*self.sprites, self.callable]

    def step(self, step: int, rng: np.random.Generator) -> None:
        """The game's part of an update: the goal jumps, the moved leader walks, a look turns."""
        if step % 25 == 10:  # behind the walker: it brakes and turns round
            self.goal.position = tuple(2 * np.asarray(self.walker.position) - self.goal.position)
        if step < 40:
            self.moved.position = tuple(np.asarray(self.moved.position) + self.pace)
        if step == 20:
            self.pace = -self.pace
        if step % 17 == 5:
            self.world.agent_of(self.scanner).look = tuple(rng.normal(size=2) + 1e-3)


def cone(rng: np.random.Generator, leader: object) -> steer.EvadeSightCone:
    return steer.EvadeSightCone(
        leader,
        length=float(rng.choice([0.0, rng.uniform(10, 200)])),
        half_angle=float(rng.choice([180.0, 90.0, rng.uniform(1, 179)])),
        max_prediction=float(rng.choice([0.0, rng.uniform(0, 3)])),
        occluded=bool(rng.random() < 0.8),  # walls hide followers: the C casts the rays
    )


def random_tree(
    rng: np.random.Generator, targets: list, leaders: list, depth: int
) -> steer.SteeringComponent:
    """A random tree of the covered components with EvadeSightCone leaves, or a squad's."""
    if depth == 3 and rng.random() < 0.4:
        leader = leaders[rng.integers(len(leaders))]
        follow = steer.Arrive(leader, slowing_radius=float(rng.uniform(1, 100)))
        pack = steer.WeightedBlend((follow, 1.0), (steer.Separation(float(rng.uniform(5, 40))), 1))
        return steer.PriorityBlend(cone(rng, leader), pack)
    if depth == 0 or rng.random() < 0.3:
        if rng.random() < 0.5:
            return cone(rng, leaders[rng.integers(len(leaders))])
        return random_leaf(rng, targets)
    children = [random_tree(rng, targets, leaders, depth - 1) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.5:
        return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))
    return steer.PriorityBlend(*children, threshold=float(rng.choice([0.0, 1e-3, 50.0])))


def around(rng: np.random.Generator, leader: StubSprite, heading: float) -> StubSprite:
    """A follower on a leader's axis, inside its default view, on its edge or outside."""
    angle = heading + math.radians(30.0) * float(rng.choice([0, 0.5, 1, 1.01, 1.5, 4, -1]))
    reach = 120.0 * float(rng.choice([0, 0.5, 0.999, 1, 1.1, 1.3, 2]))
    return StubSprite(
        leader.center_x + reach * math.cos(angle), leader.center_y + reach * math.sin(angle)
    )


def fuzzed_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], Leaders]:
    """Leaders and random followers round them; the same ``seed`` builds the same world."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    spread = float(rng.choice([50.0, 300.0, 1000.0]))
    leaders = Leaders(world, rng, spread)
    n = int(rng.integers(1, 50) if seed % 4 else rng.integers(65, 120))
    sprites, lines = [], []
    for _ in range(n):
        if rng.random() < 0.6:
            leader = leaders.sprites[rng.integers(len(leaders.sprites))]
            sprites.append(around(rng, leader, float(rng.choice([0.0, rng.uniform(-4, 4)]))))
            if rng.random() < 0.4:  # a wall across its line of sight, to begin with
                lines.append((leader.position, sprites[-1].position))
        else:
            sprites.append(StubSprite(*rng.uniform(-spread, spread, 2)))
    targets: list = [tuple(rng.uniform(-spread, spread, 2)), leaders.moved, leaders.callable]
    shared = random_tree(rng, targets, leaders.all, 3)
    for index, sprite in enumerate(sprites):
        tree = shared if index % 3 else random_tree(rng, targets, leaders.all, 3)
        world.attach(
            sprite,
            tree,
            max_speed=float(rng.uniform(10, 300)),
            max_force=float(rng.uniform(10, 2000)),
            mass=float(rng.uniform(0.2, 5)),
            response_time=float(rng.choice([0.001, 0.1, 0.7])),
            velocity=tuple(rng.uniform(-200, 200, 2) * rng.integers(2)),
            radius=float(rng.uniform(0, 20)),
        )
    # A squad in the walker's view as it sets off, every other one behind a wall.
    way = np.subtract(leaders.goal.position, leaders.walker.position)
    angle = math.atan2(way[1], way[0])
    for number, turn in enumerate(np.linspace(-0.5, 0.5, 6)):
        reach = float(rng.uniform(40, 110))
        sprite = StubSprite(
            leaders.walker.center_x + reach * math.cos(angle + turn),
            leaders.walker.center_y + reach * math.sin(angle + turn),
        )
        world.attach(sprite, squad_tree(leaders.walker, half_angle=40.0, occluded=True))
        sprites.append(sprite)
        if number % 2:
            lines.append((leaders.walker.position, sprite.position))
    if rng.random() < 0.5:
        add_obstacles(world, sprites, rng, spread)
    # Random walls that hide followers from their leaders (fewer in a small world: there a
    # dozen would hide every follower).
    for _ in range(int(rng.integers(0, 12 if spread > 50.0 else 3))):
        start = rng.uniform(-spread, spread, 2)
        end = start + rng.uniform(-0.5 * spread, 0.5 * spread, 2)
        world.add_wall(tuple(start), tuple(end), thickness=float(rng.choice([0.0, 4.0])))
    for a, b in lines:
        line = np.subtract(b, a)
        if np.hypot(*line) > 1.0:
            middle = a + float(rng.uniform(0.2, 0.8)) * line
            across = np.array([-line[1], line[0]]) * float(rng.uniform(0.05, 0.3))
            world.add_wall(
                tuple(middle - across), tuple(middle + across), thickness=float(rng.choice([0, 4]))
            )
    return world, sprites, leaders


def record(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool, steps: int = 60) -> np.ndarray:
    """Positions, velocities, forces and headings ``(steps, n, 8)`` of the fuzzed world's
    followers, on one path; their batches run natively there, or on numpy."""
    monkeypatch.setenv("ARCADE_STEERING_NATIVE", "1" if native else "0")
    world, sprites, leaders = fuzzed_world(seed)
    for batch in world.native_report().batches:
        if "EvadeSightCone" in batch.tree:
            assert batch.native == native, batch.reason
    rng = np.random.default_rng(seed + 1000)
    out = []
    for step in range(steps):
        leaders.step(step, rng)
        world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
    return np.array(out)


#: Fuzzed worlds: twelve in the default run, thirty more under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(12), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(12, 42))]


def count_sight_lines(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, how many followers in view (or just outside) numpy's EvadeSightCone
    finds walls hide, and how many they do not: a list ``[hidden, seen]`` it keeps up."""
    counts = [0, 0]

    def counted(geometry, observer, target, seen, blockers):  # type: ignore[no-untyped-def]
        before = int(seen.sum())
        occlude(geometry, observer, target, seen, blockers)
        counts[0] += before - int(seen.sum())
        counts[1] += int(seen.sum())

    monkeypatch.setattr(sight_cone, "occlude", counted)
    return counts


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_squads_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = record(seed, monkeypatch, native=True)
    sight_lines = count_sight_lines(monkeypatch)
    numpy = record(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)
    hidden, seen = sight_lines
    assert hidden > 0  # walls hid followers in view
    # ... and left others in view: in every world of the default run (in a few of the slow
    # ones, random walls hide the walker's whole squad).
    assert seen > 0 or seed >= 12


@pytest.mark.parametrize("seed", range(2))
def test_the_native_path_is_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first = record(seed, monkeypatch, native=True, steps=30)
    second = record(seed, monkeypatch, native=True, steps=30)
    assert first.tobytes() == second.tobytes()


def squad_tree(leader: object, **cone: float | bool) -> steer.PriorityBlend:
    follow = steer.WeightedBlend(
        (steer.Arrive(leader, slowing_radius=40.0), 1.0), (steer.Separation(25.0), 1.0)
    )
    return steer.PriorityBlend(steer.EvadeSightCone(leader, **cone), follow)


def ring(centre: tuple[float, float], length: float, half_angle: float) -> list[StubSprite]:
    """Followers on the view's edges and its reach (a hair inside and outside each), in the
    waiting band beyond them, behind the leader, on its axis and on it."""
    sprites = [StubSprite(*centre)]
    for turns in (0.0, 0.5, 1 - 1e-9, 1.0, 1 + 1e-9, 1.2, 1.5, 3.0):
        for reach in (0.5, 1 - 1e-9, 1.0, 1 + 1e-9, 1.1, 1.3):
            for side in (1, -1):
                angle = side * math.radians(half_angle) * turns
                x, y = length * reach * math.cos(angle), length * reach * math.sin(angle)
                sprites.append(StubSprite(centre[0] + x, centre[1] + y))
    return sprites


LEADER_KINDS = ["walks", "turns round", "scans", "stands", "looked away", "moved", "callable"]


@pytest.mark.parametrize("kind", LEADER_KINDS)
def test_squads_on_the_edges_of_the_view_agree(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        leader = StubSprite(0, 0)
        goal = StubSprite(400, 0)
        tree = steer.WeightedBlend((steer.Seek(goal), 1), (steer.Scan(70, period=1), 1))
        if kind in ("walks", "turns round", "looked away"):
            world.attach(leader, steer.Seek(goal), velocity=(60, 0), max_speed=60)
        elif kind == "scans":
            world.attach(leader, tree, velocity=(30, 0), max_speed=30)
        elif kind == "stands":
            world.attach(leader, steer.Arrive((0, 0)))
        target = (lambda: leader.position) if kind == "callable" else leader
        squad = ring((0.0, 0.0), 100.0, 40.0)
        for sprite in squad:
            world.attach(sprite, squad_tree(target, length=100.0, half_angle=40.0), max_speed=90)
        report = world.native_report()  # the squad's batch, on the path of the world
        assert report.batches[-1].native == report.available, report.batches[-1].reason
        out = []
        for step in range(45):
            if kind == "turns round" and step == 10:
                goal.position = (-400.0, 0.0)
            if kind == "looked away" and step % 15 == 5:
                world.agent_of(leader).look = (0.0, 1.0) if step % 2 else (-1.0, 0.0)
            if kind in ("moved", "callable"):
                leader.position = (leader.center_x + (2.0 if step < 20 else -2.0), 0.0)
            world.update(1 / 60 if step % 4 else 1 / 30)
            out.append([[*world.agent_of(s).force, *s.position] for s in squad])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert np.abs(numpy[..., :2]).max() > 0.0  # the view pushes some of them
    assert_agree(native, numpy)


def test_a_squad_whose_leader_is_gone_gets_no_force_from_the_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        leaders = [StubSprite(0, 0)]  # the only reference: cleared, the leader is gone
        squad = [StubSprite(30 + 10 * i, 5 * i - 10) for i in range(5)]
        for sprite in squad:
            world.attach(sprite, steer.EvadeSightCone(leaders[0], length=200))
        out = []
        for step in range(20):
            if step == 10:
                leaders.clear()
                gc.collect()
            if leaders:
                leaders[0].center_x += 3.0
            world.update(1 / 60)
            out.append([world.agent_of(s).force for s in squad])
        return np.array(out)

    native, numpy = two_worlds(monkeypatch, build)
    assert native[:10].any() and not native[10:].any()
    assert_agree(native, numpy)


def test_the_report_says_squads_run_native_also_where_walls_hide_them() -> None:
    world = steer.SteeringWorld()
    leader, seen, hidden = StubSprite(0, 0), StubSprite(10, 0), StubSprite(20, 0)
    world.attach(leader, steer.Seek((100, 0)))
    world.attach(seen, squad_tree(leader))
    world.attach(hidden, steer.EvadeSightCone(leader, occluded=True))
    report = world.native_report()
    assert [batch.native for batch in report.batches] == [True, True, True]


def test_a_follower_behind_a_wall_is_hidden_and_one_beside_it_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> np.ndarray:
        world.add_wall((40.0, -30.0), (40.0, 30.0))
        leader = StubSprite(0, 0)
        world.attach(leader, steer.Seek((1000, 0)), max_speed=1.0)
        behind, beside = StubSprite(80, 0), StubSprite(60, 60)
        for sprite in (behind, beside):
            world.attach(sprite, steer.EvadeSightCone(leader, occluded=True, half_angle=60))
        world.update(1 / 60)
        return np.array([world.agent_of(behind).force, world.agent_of(beside).force])

    native, numpy = two_worlds(monkeypatch, build)
    assert not native[0].any() and native[1].any()
    assert native.tobytes() == numpy.tobytes()


# -- what the C refuses ----------------------------------------------------------------------


def steer_cones(
    kernel: Kernel,
    op: tuple[int, int, int, int],
    leader: list[int],
    sets: int = 1,
    state: bool = True,
    occluded: bool = False,
    geometry: object = None,
) -> tuple[int, np.ndarray]:
    """One EvadeSightCone program (3 parameter columns, 1 target at (0, 0)) for agents 0 and
    1, their leaders' slots ``leader``, walls hiding them or not (those of ``geometry``); its
    status and the state's leader headings."""
    ffi, n = kernel.ffi, 2
    program = ffi.new("as_program *")
    program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
    program.n_ops = 1
    program.params = kernel.buffer("double[]", np.tile([100.0, 30.0, 1.0], n))
    program.n_params = 3
    program.targets = kernel.buffer("double[]", np.zeros((1, n, 2)))
    program.gone = kernel.buffer("uint8_t[]", np.zeros((1, n), dtype=np.uint8))
    program.n_targets = 1
    cones = ffi.new("as_sight_cones[]", 1)
    kernel.keep.append(cones)
    cones[0].velocity = kernel.buffer("double[]", np.zeros((n, 2)))
    cones[0].leader = kernel.buffer("intptr_t[]", np.array(leader, dtype=np.intp))
    headings = np.full((n, 2), np.nan)
    if state:
        cones[0].heading = kernel.buffer("double[]", headings)
        cones[0].velocity_before = kernel.buffer("double[]", np.full((n, 2), np.nan))
        cones[0].look_before = kernel.buffer("double[]", np.full((n, 2), np.nan))
    cones[0].occluded = occluded
    program.sight_cones, program.n_sight_cones = cones, sets
    if geometry is not None:
        program.geometry = geometry
    slots = kernel.buffer("intptr_t[]", np.arange(n, dtype=np.intp))
    return int(kernel.lib.as_steer(kernel.agents, slots, n, program, 1 / 60)), headings


def test_the_c_refuses_leaders_and_state_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["heading"][3] = kernel.columns["look"][3] = (1.0, 0.0)  # leader, slot 3
    cone = (EVADE_SIGHT_CONE, 0, 0, 0)
    refused = [
        steer_cones(kernel, cone, [4, -1])[0],  # a leader past the columns
        steer_cones(kernel, cone, [-2, 3])[0],
        steer_cones(kernel, cone, [3, 3], state=False)[0],  # no state to read and write
        steer_cones(kernel, cone, [3, 3], sets=0)[0],  # set 0 of none
        steer_cones(kernel, (EVADE_SIGHT_CONE, 0, 0, 1), [3, 3])[0],  # set 1 of 1
        steer_cones(kernel, (EVADE_SIGHT_CONE, 1, 0, 0), [3, 3])[0],  # target 1 of 1
        steer_cones(kernel, (EVADE_SIGHT_CONE, 0, 1, 0), [3, 3])[0],  # columns 1..3 of 3
    ]
    assert refused == [ERR_SIGHT_CONES] * 3 + [ERR_PROGRAM] * 4
    assert not kernel.columns["force"].any()
    status, headings = steer_cones(kernel, cone, [3, -1])
    assert status == 0
    # Agent 0 stands on its leader, in its view: pushed out with all its force (1); agent 1
    # has no leader attached, whose heading is unknown: it sees nothing.
    assert np.linalg.norm(kernel.columns["force"][0]) == pytest.approx(1.0)
    assert not kernel.columns["force"][1].any()
    assert headings[0].tolist() == [1.0, 0.0] and np.isnan(headings[1]).all()
