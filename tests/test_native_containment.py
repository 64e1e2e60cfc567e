"""Containment in the native step against numpy, its reference: fuzzed worlds where agents keep
inside rectangles and polygons (convex or not, several in one batch, agents put outside by the
game) in random trees with the other covered components agree to 1e-9 over many steps; its
edge cases agree; a region changed on the way is read again; the native path is
deterministic, the report says it runs, and the C refuses outlines and arrays out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import arcade
import numpy as np
import pytest
from conftest import NATIVE_BUILT
from native_scene import Scene, on_path
from test_native import Kernel, assert_agree, two_worlds

import arcade_steering as steer
from arcade_steering._native.geometry import NativeGeometry
from arcade_steering.geometry import StaticGeometry
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_CONTAINMENT, AS_ERR_PROGRAM, AS_ERR_GEOMETRY and AS_ERR_STATE.
CONTAINMENT, ERR_PROGRAM, ERR_GEOMETRY, ERR_STATE = 26, -2, -7, -12
STEPS = 90
#: A concave region: a square with a notch cut into its top.
NOTCHED = [(0, 0), (300, 0), (300, 300), (150, 100), (0, 300)]


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_regions(rng: np.random.Generator, spread: float) -> list:
    """A rectangle, a notched square and a random star-shaped polygon, sized to the scene."""
    half = 0.6 * spread
    rectangle = arcade.LRBT(-half, half, -0.5 * half, half)
    notched = [(x * spread / 150 - spread, y * spread / 150 - spread) for x, y in NOTCHED]
    k = int(rng.integers(3, 9))
    angles = np.sort(rng.uniform(0, 2 * np.pi, k))
    radii = rng.uniform(0.3, 1.2, k) * spread
    star = np.column_stack((radii * np.cos(angles), radii * np.sin(angles)))
    return [rectangle, notched, star]


def containment_scene(seed: int) -> tuple[Scene, list]:
    """A fuzzed :class:`Scene` whose own leaves are Containments (Containment first in a
    PriorityBlend most often), and what its every step does: the game puts a random agent
    somewhere, inside or out."""
    rng = np.random.default_rng(seed + 2000)
    regions: list = []

    def leaf(rng: np.random.Generator, scene: Scene) -> steer.SteeringComponent:
        if not regions:
            regions.extend(random_regions(rng, scene.spread))
        contain = steer.Containment(
            regions[rng.integers(len(regions))],
            length=None if rng.random() < 0.5 else float(rng.uniform(1, 200)),
            side_angle=float(rng.choice([0.0, 45.0, 90.0, rng.uniform(0, 90)])),
            side_ratio=float(rng.choice([0.0, 0.5, 1.0, rng.uniform(0, 1)])),
        )
        if rng.random() < 0.5:
            return steer.PriorityBlend(contain, steer.Seek(scene.targets[0]))
        return contain

    scene = Scene(seed, leaf, steps=STEPS)

    def every_step(step: int) -> None:
        if step % 7 == 3:
            sprite = scene.sprites[rng.integers(len(scene.sprites))]
            sprite.position = tuple(rng.uniform(-1.5, 1.5, 2) * scene.spread)

    return scene, [every_step]


def run_containment(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    on_path(monkeypatch, native)
    scene, (every_step,) = containment_scene(seed)
    report = scene.world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return scene.run(every_step)


#: Fuzzed worlds: six in the default run (two of them of more than 64 agents), forty-six more
#: under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(6), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(6, 52))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_contained_agents_agree_with_numpy(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    native = run_containment(seed, monkeypatch, native=True)
    numpy = run_containment(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(1, 3))  # worlds of fewer than 64 agents
def test_the_native_contained_agents_are_deterministic(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_containment(seed, monkeypatch, native=True)
    assert first.tobytes() == run_containment(seed, monkeypatch, native=True).tobytes()


def edge_cases(world: steer.SteeringWorld) -> np.ndarray:
    """Agents heading head-on at an edge, along one, at a vertex, into the notch, on an edge,
    outside at rest, with no radius; two regions in one batch; the notched region swapped
    for a rectangle half-way: ``(steps, n, 4)`` positions and forces over 240 updates."""
    box = steer.Containment(arcade.LRBT(0, 300, 0, 300))
    notched = steer.Containment(NOTCHED)
    cases = [
        (StubSprite(150, 250), box, (0, 150), 10.0),  # head-on at the top edge
        (StubSprite(20, 290), box, (150, 0), 10.0),  # along the top edge, touching it
        (StubSprite(280, 280), box, (100, 100), 10.0),  # into the corner
        (StubSprite(300, 150), box, (0, 0), 10.0),  # on an edge, at rest
        (StubSprite(-80, 400), box, (0, 0), 10.0),  # outside, at rest
        (StubSprite(150, 60), notched, (0, 120), 0.0),  # into the notch's tip, no radius
        (StubSprite(60, 150), notched, (120, 60), 5.0),  # at its side
        (StubSprite(400, 400), notched, (30, 0), 5.0),  # outside the notched one
    ]
    sprites = []
    for sprite, tree, velocity, radius in cases:
        world.attach(sprite, tree, velocity=velocity, radius=radius, max_speed=150)
        sprites.append(sprite)
    out = []
    for step in range(240):
        if step == 120:
            notched.region = arcade.LRBT(-50, 250, -50, 250)  # its outline is made again
        world.update(1 / 60)
        out.append([[*world.agent_of(s).position, *world.agent_of(s).force] for s in sprites])
    return np.array(out)


def test_edge_cases_agree_with_numpy_and_do_what_containment_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    native, numpy = two_worlds(monkeypatch, edge_cases)
    assert_agree(native, numpy)
    assert native.tobytes() == numpy.tobytes()  # to the bit, here
    position = native[:, :5, :2]
    assert (position[-60:] > -1.0).all() and (position[-60:] < 301.0).all()  # back in the box
    assert native[:30, 0, 3].min() < 0.0  # head-on at the top edge: pushed down
    assert native[0, 3, 2] < 0.0  # on the right edge (not inside, by the crossing number): in
    notched = native[:120, 5:, :2]
    region = steer.Containment(NOTCHED).region
    inside = region.contains(notched[-30:].reshape(-1, 2))
    assert inside.all()
    moved = native[-1, 5:, :2]
    assert ((moved > -51.0) & (moved < 251.0)).all()  # within the new region
    assert np.isfinite(native).all()


def test_the_report_says_containment_runs_native() -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(50, 50)
    pen = steer.Containment(arcade.LRBT(0, 800, 0, 600))
    world.attach(sprite, steer.PriorityBlend(pen, steer.AvoidObstacles(), steer.Wander()))
    report = world.native_report()
    assert report.native and report.batches[0].native, str(report)


# -- what the C refuses ------------------------------------------------------------------------


class ContainmentCall:
    """``as_steer`` of one Containment leaf for agents 0 (inside, heading at the right edge)
    and 1 (outside), in the box (0, 0) - (10, 10), over 3 parameter columns."""

    def __init__(self) -> None:
        self.kernel = kernel = Kernel(capacity=4)
        kernel.columns["position"][:2] = [(9.0, 5.0), (20.0, 5.0)]
        kernel.columns["velocity"][:2] = [(1.0, 0.0), (0.0, 0.0)]
        kernel.columns["heading"][:2] = (1.0, 0.0)
        region = steer.Containment(arcade.LRBT(0, 10, 0, 10)).region
        native = NativeGeometry(kernel)  # it keeps the arrays the struct points at
        kernel.keep.append(native)
        self.sets = kernel.ffi.new("as_containment[]", 1)
        kernel.keep.append(self.sets)
        entry = self.sets[0]
        entry.outline = native.struct(StaticGeometry.outlines([region.points]))
        entry.owner = kernel.buffer("intptr_t[]", np.zeros(4, dtype=np.intp))
        entry.region = kernel.buffer("intptr_t[]", np.zeros(2, dtype=np.intp))
        entry.outside = kernel.buffer("uint8_t[]", np.array([0, 1], dtype=np.uint8))
        entry.desired = kernel.buffer("double[]", np.array([[0.0, 0.0], [-1.0, 0.0]]))

    def __call__(self, op: tuple = (CONTAINMENT, 0, 0, 0), n_sets: int = 1) -> int:
        kernel, ffi = self.kernel, self.kernel.ffi
        program = ffi.new("as_program *")
        program.ops = kernel.buffer("int32_t[]", np.array(op, dtype=np.int32))
        program.n_ops = 1
        # length 5 px, side feelers at 45 degrees, half as long
        program.params = kernel.buffer("double[]", np.array([5.0, 45.0, 0.5] * 2))
        program.n_params = 3
        program.containments, program.n_containments = self.sets, n_sets
        slots = kernel.buffer("intptr_t[]", np.array([0, 1], dtype=np.intp))
        return int(kernel.lib.as_steer(kernel.agents, slots, 2, program, 1 / 60))


@pytest.mark.parametrize(
    ("member", "status"),
    [
        ("outline", ERR_GEOMETRY),
        ("owner", ERR_STATE),
        ("region", ERR_STATE),
        ("outside", ERR_STATE),
        ("desired", ERR_STATE),
    ],
)
def test_the_c_refuses_containment_arrays_missing_and_writes_nothing(
    member: str, status: int
) -> None:
    call = ContainmentCall()
    setattr(call.sets[0], member, call.kernel.ffi.NULL)
    assert call() == status
    assert not call.kernel.columns["force"].any()


def test_the_c_refuses_an_inconsistent_outline_or_leaf_and_steers_a_good_one() -> None:
    call = ContainmentCall()
    assert call((CONTAINMENT, 1, 0, 0)) == ERR_PROGRAM  # set 1 of 1
    assert call((CONTAINMENT, 0, 1, 0)) == ERR_PROGRAM  # columns 1..3 of 3
    assert call(n_sets=33) == ERR_PROGRAM
    outline = call.sets[0].outline
    nx, outline.nx = outline.nx, 0
    assert call() == ERR_GEOMETRY
    assert not call.kernel.columns["force"].any()
    outline.nx = nx
    assert call() == 0
    force = call.kernel.columns["force"]
    assert force[0, 0] < 0.0  # felt the right edge ahead: pushed back in
    assert force[1].tolist() == [-1.0, 0.0]  # outside: the velocity back in, over 1 s
