"""Flocking rules ``among=`` groups on the native step: the C finds their neighbours itself
from a label per world agent, and agrees with numpy's pairs (the same bits up to 64 agents,
1e-9 beyond); squads that agents join and leave, sprites removed; the demo's squads; the C
refusing labels out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

from collections.abc import Callable

import arcade
import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree

import arcade_steering as steer
from arcade_steering.component.context import SteeringContext
from arcade_steering.demo import scene as demo
from arcade_steering.demo.scene import Scene
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

SEPARATION, ALIGNMENT, COHESION = 4, 14, 15


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def use_native(monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")


def no_numpy_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail if numpy looks a squad's neighbours up: the C is to find them."""

    def refuse(*_: object) -> None:
        raise AssertionError("numpy's pairs were asked for a rule among groups")

    monkeypatch.setattr(SteeringContext, "_neighbors_in_groups", refuse)


# -- fuzzed squads ---------------------------------------------------------------------------

#: A behaviour for one squad: the tree its members share, given the squad they keep among.
Template = Callable[[list], steer.SteeringComponent]


def random_leaf(rng: np.random.Generator, targets: list, fixed: list) -> Template:
    """A random leaf: mostly flocking rules among the squad, one fixed group or everyone."""
    kind = int(rng.integers(7))
    if kind < 4:
        rule = (steer.Separation, steer.Alignment, steer.Cohesion, steer.Separation)[kind]
        radius = float(rng.uniform(5, 150))
        among = int(rng.choice(3, p=[0.7, 0.15, 0.15]))  # the squad, the fixed group, everyone
        return lambda squad: rule(radius, among=(squad, fixed, None)[among])
    target = targets[int(rng.integers(len(targets)))]
    if kind == 4:
        return lambda squad: steer.Seek(target)
    slowing, tolerance = float(rng.uniform(1, 300)), float(rng.uniform(0, 20))
    if kind == 5:
        return lambda squad: steer.Arrive(target, slowing_radius=slowing, tolerance=tolerance)
    panic = float(rng.uniform(5, 400))
    return lambda squad: steer.Flee(target, panic_distance=panic)


def random_template(rng: np.random.Generator, targets: list, fixed: list, depth: int) -> Template:
    """A random tree of flocking rules and Seek, Arrive and Flee, up to ``depth`` blends."""
    if depth == 0 or rng.random() < 0.25:
        return random_leaf(rng, targets, fixed)
    children = [
        random_template(rng, targets, fixed, depth - 1) for _ in range(int(rng.integers(1, 4)))
    ]
    if rng.random() < 0.5:
        weights = [float(rng.uniform(-1, 3)) for _ in children]
        return lambda squad: steer.WeightedBlend(
            *((child(squad), weight) for child, weight in zip(children, weights, strict=True))
        )
    threshold = float(rng.choice([0.0, 1e-3, 50.0]))
    return lambda squad: steer.PriorityBlend(
        *(child(squad) for child in children), threshold=threshold
    )


class Squads:
    """A world of squads (lists of sprites), each agent sharing its squad's tree; between
    updates, agents change squads, join a second one for a while, and leave the world."""

    def __init__(self, seed: int) -> None:
        rng = self.rng = np.random.default_rng(seed)
        self.world = steer.SteeringWorld(seed=seed)
        n = int(rng.integers(2, 60) if seed % 2 else rng.integers(65, 160))
        spread = float(rng.choice([20.0, 150.0, 600.0]))
        self.sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
        self.squads: list[list] = [[] for _ in range(int(rng.integers(1, 7)))]
        fixed = self.sprites[:: int(rng.integers(2, 5))]
        targets: list = [tuple(rng.uniform(-spread, spread, 2)) for _ in range(2)]
        targets.append(self.sprites[0])
        templates = [random_template(rng, targets, fixed, 2) for _ in range(2)]
        trees = {}
        for sprite in self.sprites:
            member = int(rng.integers(-1, len(self.squads)))  # -1: in no squad
            asks = member if member >= 0 else int(rng.integers(len(self.squads)))
            if member >= 0:
                self.squads[member].append(sprite)
            shape = int(rng.integers(len(templates)))
            if (shape, asks) not in trees:  # a squad shares one tree, as the demo's does
                trees[shape, asks] = templates[shape](self.squads[asks])
            self.world.attach(
                sprite,
                trees[shape, asks],
                max_speed=float(rng.uniform(10, 400)),
                max_force=float(rng.uniform(10, 2000)),
                response_time=float(rng.choice([0.01, 0.1, 0.7])),
                velocity=tuple(rng.uniform(-300, 300, 2)),
                radius=float(rng.uniform(0, 20)),
            )
        self.attached = set(map(id, self.sprites))
        self.twice: tuple[list, StubSprite] | None = None

    def change(self) -> None:
        """One change of membership or of the world, at random."""
        rng, squads = self.rng, self.squads
        kind = int(rng.integers(4))
        sprite = self.sprites[int(rng.integers(len(self.sprites)))]
        mine = [squad for squad in squads if sprite in squad]
        if kind == 0 and mine:  # leaves its squad
            mine[0].remove(sprite)
        elif kind == 1:  # joins a squad (or another one)
            for squad in mine:
                squad.remove(sprite)
            squads[int(rng.integers(len(squads)))].append(sprite)
        elif kind == 2 and self.twice is None and len(squads) > 1:
            # In two squads for a while: numpy's pairs then, on both paths.
            others = [squad for squad in squads if sprite not in squad]
            self.twice = (others[0], sprite)
            others[0].append(sprite)
        elif kind == 3 and id(sprite) in self.attached and len(self.attached) > 2:
            self.world.detach(sprite)  # gone from the world; maybe still in a squad
            self.attached.discard(id(sprite))

    def record(self, steps: int) -> np.ndarray:
        """Positions, velocities and forces ``(steps, n, 6)`` (zeros for the detached)."""
        out = []
        for step in range(steps):
            if step % 3 == 2:
                self.change()
            if step % 7 == 6 and self.twice is not None:
                squad, sprite = self.twice
                if sprite in squad:
                    squad.remove(sprite)
                self.twice = None
            self.world.update(float(self.rng.choice([1 / 60, 1 / 30])))
            row = []
            for sprite in self.sprites:
                if id(sprite) in self.attached:
                    agent = self.world.agent_of(sprite)
                    row.append([*agent.position, *agent.velocity, *agent.force])
                else:
                    row.append([0.0] * 6)
            out.append(row)
        return np.array(out)


def run_squads(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    use_native(monkeypatch, native)
    squads = Squads(seed)
    report = squads.world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return squads.record(40)


SEEDS = [*range(8), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(8, 30))]


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_squads_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native = run_squads(seed, monkeypatch, native=True)
    numpy = run_squads(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    if len(native[0]) <= 64:  # few agents: the world's order, the same bits
        assert native.tobytes() == numpy.tobytes()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", [0, 1])
def test_the_native_path_is_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first = run_squads(seed, monkeypatch, native=True)
    second = run_squads(seed, monkeypatch, native=True)
    assert first.tobytes() == second.tobytes()


@pytest.mark.parametrize("n", [20, 120])
def test_squads_no_agent_is_in_two_of_ask_numpy_for_no_pairs(
    n: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Squads and a single SpriteList: the C finds the neighbours, numpy is not asked."""
    rng = np.random.default_rng(n)
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(*rng.uniform(0, 200, 2)) for _ in range(n)]
    squads = [sprites[k::3] for k in range(3)]
    sentries = sprites[::5]
    for k, squad in enumerate(squads):
        tree = steer.WeightedBlend(
            (steer.Separation(30, among=squad), 2.0),
            (steer.Cohesion(60, among=squad), 1.0),
            (steer.Alignment(60, among=sentries), 1.0),
            (steer.Seek((100.0 * k, 300.0)), 0.5),
        )
        for sprite in squad:
            world.attach(sprite, tree, velocity=tuple(rng.uniform(-50, 50, 2)))
    no_numpy_pairs(monkeypatch)
    start = np.array([world.agent_of(s).position for s in sprites])
    for _ in range(10):
        world.update(1 / 60)
    assert [batch.native for batch in world.native_report().batches] == [True]
    moved = np.array([world.agent_of(s).position for s in sprites]) - start
    assert np.hypot(moved[:, 0], moved[:, 1]).min() > 0.0


def test_an_agent_in_two_squads_takes_numpy_pairs_and_agrees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Overlapping groups stay on numpy's pairs (handed to the C), to the same bits."""

    def build(native: bool) -> np.ndarray:
        use_native(monkeypatch, native)
        world = steer.SteeringWorld(seed=0)
        sprites = [StubSprite(8.0 * i, 3.0 * (i % 4)) for i in range(12)]
        squads = [sprites[:7], sprites[5:]]  # sprites 5 and 6 in both
        for k, squad in enumerate(squads):
            tree = steer.WeightedBlend(
                (steer.Separation(25, among=squad), 1.0), (steer.Seek((50.0, 90.0)), 1.0)
            )
            for sprite in squad[2 * k :]:  # 5 and 6 take the first squad's tree
                world.attach(sprite, tree)
        out = []
        for _ in range(30):
            world.update(1 / 60)
            out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
        return np.array(out)

    native = build(True)
    numpy = build(False)
    assert native.tobytes() == numpy.tobytes()


# -- the demo's squads -----------------------------------------------------------------------


def demo_squads(squads: int) -> tuple[steer.SteeringWorld, list, list]:
    """The demo game's scene (its leader, a convoy of 12 followers and the scout) and
    ``squads - 1`` more convoys in the same level, each a leader patrolling from another
    point of the route and 12 followers among their own SpriteList, crossing each other."""
    scene = Scene(seed=0)
    rng = np.random.default_rng(1)
    sprites, keep = [scene.leader, *scene.squad], [scene]
    points = scene.route.points
    for k in range(1, squads):
        leader = arcade.Sprite(demo.LEADER_TEXTURE, scale=0.75)
        leader.position = tuple(points[k % len(points)])
        convoy = arcade.SpriteList()
        convoy.append(leader)
        scene.world.attach(
            leader, demo.patrol_behavior(scene.route), max_speed=demo.LEADER_SPEED, facing="down"
        )
        behavior = demo.squad_behavior(leader, convoy)
        for jitter in rng.uniform(-40.0, 40.0, (demo.FOLLOWERS, 2)):
            follower = arcade.Sprite(demo.FOLLOWER_TEXTURE, scale=0.5)
            follower.position = tuple(np.add(leader.position, jitter))
            convoy.append(follower)
            scene.world.attach(
                follower,
                behavior,
                max_speed=demo.FOLLOWER_SPEED,
                radius=demo.FOLLOWER_RADIUS,
                facing="down",
            )
            sprites.append(follower)
        sprites.append(leader)
        keep.append(convoy)
    return scene.world, sprites, keep


def demo_run(monkeypatch: pytest.MonkeyPatch, native: bool, squads: int) -> np.ndarray:
    """Positions and forces of :func:`demo_squads`' agents over 90 updates."""
    use_native(monkeypatch, native)
    world, sprites, _keep = demo_squads(squads)
    report = world.native_report()
    numpy_batches = [batch for batch in report.batches if not batch.native]
    assert len(numpy_batches) == (len(report.batches) if not native else 1), str(report)
    if native:
        assert numpy_batches[0].reason == "PlayerControl has no native step yet"  # the scout
    out = []
    for _ in range(90):
        world.update(1 / 60)
        out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
    return np.array(out)


@pytest.mark.parametrize("squads", [1, 3, 6])
def test_the_demos_squads_agree_with_numpy(squads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """One convoy (a SpriteList with the leader: one group), three (39 followers among their
    own: squads), six (79 agents: the C's grid)."""
    native = demo_run(monkeypatch, True, squads)
    numpy = demo_run(monkeypatch, False, squads)
    if len(native[0]) < 64:  # the scout makes one more: the world's order, the same bits
        assert native.tobytes() == numpy.tobytes()
    assert_agree(native[None], numpy[None])


@pytest.mark.parametrize("squads", [1, 3])
def test_the_demos_squads_ask_numpy_for_no_pairs(
    squads: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, sprites, _keep = demo_squads(squads)
    no_numpy_pairs(monkeypatch)
    start = np.array([world.agent_of(s).position for s in sprites])
    for _ in range(30):
        world.update(1 / 60)
    assert not np.array_equal(start, [world.agent_of(s).position for s in sprites])


# -- what the C refuses ----------------------------------------------------------------------


def steer_labelled(
    kernel: Kernel,
    op: int,
    labels: list[int],
    asked: list[int] | None,
    groups: int,
    everyone: int = 0,
) -> int:
    """One flocking rule among labelled groups over agents 0..3 (the world, in order), the
    batch agents 0 and 1."""
    ffi = kernel.ffi
    program = ffi.new("as_program *")
    program.ops = kernel.buffer("int32_t[]", np.array([op, 0, 0, 0], dtype=np.int32))
    program.n_ops = 1
    program.params = kernel.buffer("double[]", np.full(4, 10.0))  # reach 10 px
    program.n_params = 2
    sets = ffi.new("as_pairs[]", 1)
    sets[0].everyone = everyone
    sets[0].label = kernel.buffer("intptr_t[]", np.array(labels, dtype=np.intp))
    sets[0].asked = (
        ffi.NULL if asked is None else kernel.buffer("intptr_t[]", np.array(asked, dtype=np.intp))
    )
    sets[0].groups = groups
    kernel.keep.append(sets)
    program.pairs, program.n_pairs = sets, 1
    program.world = kernel.buffer("intptr_t[]", np.arange(4, dtype=np.intp))
    program.n_world = 4
    slots = kernel.buffer("intptr_t[]", np.array([0, 1], dtype=np.intp))
    return int(kernel.lib.as_steer(kernel.agents, slots, 2, program, 1 / 60))


def test_the_c_refuses_labels_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["position"][:] = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    for op in (SEPARATION, ALIGNMENT, COHESION):
        assert steer_labelled(kernel, op, [0, 1, 0, 2], [0, 3], 3) == -4  # asks group 3 of 3
        assert steer_labelled(kernel, op, [0, 1, 0, 2], [-1, 0], 3) == -4
        assert steer_labelled(kernel, op, [0, 1, 3, 2], [0, 1], 3) == -4  # label 3 of 3
        assert steer_labelled(kernel, op, [0, -2, 0, 2], [0, 1], 3) == -4
        assert steer_labelled(kernel, op, [0, 1, 0, 2], [0, 1], -1) == -4  # groups < 0
        assert steer_labelled(kernel, op, [0, 1, 0, 2], None, 3) == -4  # no asked groups
        assert steer_labelled(kernel, op, [0, 1, 0, 2], [0, 1], 3, everyone=1) == -4
    assert not kernel.columns["force"].any()
    # Agent 0 among group 0 (agent 2 above it), agent 1 among group 1 (only itself): agent 0
    # is pushed down, away from agent 2, and agent 1 by nobody (agent 0 beside it is not its).
    assert steer_labelled(kernel, SEPARATION, [0, 1, 0, -1], [0, 1], 2) == 0
    force = kernel.columns["force"]
    assert force[0, 0] == 0.0 and force[0, 1] < 0.0
    assert not force[1:].any()
