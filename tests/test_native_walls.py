"""AvoidWalls in the native step against numpy, its reference: fuzzed worlds of walls
(segments of random thickness, closed polylines, static ``pymunk.Poly`` boxes) with AvoidWalls
in random trees of the covered components agree over many updates; agents meeting a wall
head-on, at its end, along it and in a corner agree; the native path is deterministic, the
report says it runs, and the C refuses candidates out of range.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import math

import arcade
import numpy as np
import pymunk
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree, random_leaf

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: AvoidWalls' opcode, kernel.h's AS_AVOID_WALLS, and AS_ERR_GEOMETRY.
AVOID_WALLS, ERR_GEOMETRY = 8, -7


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def random_avoid_walls(rng: np.random.Generator) -> steer.AvoidWalls:
    return steer.AvoidWalls(
        length=None if rng.random() < 0.5 else float(rng.uniform(1, 200)),
        side_angle=float(rng.choice([0.0, 45.0, 90.0, rng.uniform(0, 90)])),
        side_ratio=float(rng.choice([0.0, 0.5, 1.0, rng.uniform(0, 1)])),
    )


def random_tree(rng: np.random.Generator, targets: list, depth: int) -> steer.SteeringComponent:
    """A random tree of the covered components, AvoidWalls often among its leaves."""
    if depth == 0 or rng.random() < 0.3:
        return random_avoid_walls(rng) if rng.random() < 0.4 else random_leaf(rng, targets)
    children = [random_tree(rng, targets, depth - 1) for _ in range(rng.integers(1, 4))]
    if rng.random() < 0.5:
        children[0] = random_avoid_walls(rng)  # as in games: walls first
        return steer.PriorityBlend(*children, threshold=float(rng.choice([0.0, 1e-3, 50.0])))
    return steer.WeightedBlend(*((c, float(rng.uniform(-1, 3))) for c in children))


def add_walls(
    world: steer.SteeringWorld, sprites: list[StubSprite], rng: np.random.Generator, spread: float
) -> None:
    """Random walls: segments of random thickness (some through or touching agents), a closed
    polyline, rotated static pymunk boxes with rounded corners, and a few obstacles."""
    agents = np.array([(sprite.center_x, sprite.center_y) for sprite in sprites])
    for _ in range(int(rng.choice([1, 6, 40, 120]))):
        a = rng.uniform(-spread, spread, 2)
        if rng.random() < 0.4:  # near an agent
            a = agents[rng.integers(len(agents))] + rng.normal(0, 20, 2)
        b = a + rng.normal(0, spread / 3 + 10, 2)
        if rng.random() < 0.3:  # axis-aligned: exactly head-on and along are possible
            b = np.array([a[0], b[1]]) if rng.random() < 0.5 else np.array([b[0], a[1]])
        thickness = float(rng.choice([0.0, rng.uniform(0, 20)]))
        if np.hypot(*(b - a)) > 1e-6:
            world.add_wall(tuple(a), tuple(b), thickness=thickness)
    if rng.random() < 0.7:
        corners = rng.uniform(-spread, spread, (3, 2))
        thickness = float(rng.uniform(0, 6))
        world.add_walls([tuple(p) for p in corners], closed=True, thickness=thickness)
    for _ in range(int(rng.choice([0, 2, 6]))):
        body = pymunk.Body(body_type=pymunk.Body.STATIC)
        body.position = tuple(rng.uniform(-spread, spread, 2))
        body.angle = float(rng.choice([0.0, rng.uniform(0, math.pi)]))
        size = tuple(rng.uniform(5, spread / 2 + 10, 2))
        box = pymunk.Poly.create_box(body, size, radius=float(rng.choice([0.0, 3.0])))
        world.space.add(body, box)
    for _ in range(int(rng.choice([0, 4]))):
        world.add_obstacle(tuple(rng.uniform(-spread, spread, 2)), float(rng.uniform(2, 30)))


def fuzzed_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], list]:
    """A world of random walls and agents with random trees holding AvoidWalls, limits,
    sizes and velocities, some solid; the same ``seed`` builds the same world."""
    rng = np.random.default_rng(1000 + seed)
    world = steer.SteeringWorld(seed=seed)
    n = int(rng.integers(65, 120) if seed % 10 == 9 else rng.integers(1, 40))  # one in ten big
    spread = float(rng.choice([30.0, 200.0, 800.0]))
    sprites = [StubSprite(*rng.uniform(-spread, spread, 2)) for _ in range(n)]
    mover = StubSprite(*rng.uniform(-spread, spread, 2))
    targets: list = [tuple(rng.uniform(-spread, spread, 2)) for _ in range(3)]
    targets += [sprites[0], mover]
    shared = random_tree(rng, targets, 3)
    for index, sprite in enumerate(sprites):
        tree = shared if index % 3 else random_tree(rng, targets, 3)
        world.attach(
            sprite,
            tree,
            max_speed=float(rng.uniform(10, 400)),
            max_force=float(rng.uniform(10, 2000)),
            mass=float(rng.uniform(0.2, 5)),
            response_time=float(rng.choice([0.001, 0.1, 0.7])),
            velocity=tuple(rng.uniform(-300, 300, 2)),
            radius=float(rng.choice([0.0, rng.uniform(0, 20)])),
            solid=bool(rng.random() < 0.5),
        )
    add_walls(world, sprites, rng, spread)
    return world, sprites, [mover, rng]


def record(world: steer.SteeringWorld, sprites: list, keep: list, steps: int) -> np.ndarray:
    """Positions, velocities, forces and headings ``(steps, n, 8)``, the target moving."""
    mover, rng = keep
    out = []
    for step in range(steps):
        mover.center_x += float(rng.uniform(-5, 5))
        world.update(float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 5 else 1 / 120)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
    return np.array(out)


def run_fuzzed(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> np.ndarray:
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    world, sprites, keep = fuzzed_world(seed)
    report = world.native_report()
    assert all(batch.native == native for batch in report.batches), str(report)
    return record(world, sprites, keep, 60)


#: Fuzzed worlds: ten in the default run, thirty more under ``-m slow`` (and under ASan).
FUZZ_SEEDS = [*range(10), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(10, 40))]


@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_fuzzed_worlds_with_walls_agree_with_numpy(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    native = run_fuzzed(seed, monkeypatch, native=True)
    numpy = run_fuzzed(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


@pytest.mark.parametrize("seed", range(1, 4))
def test_the_native_path_among_walls_is_deterministic(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = run_fuzzed(seed, monkeypatch, native=True)
    second = run_fuzzed(seed, monkeypatch, native=True)
    assert first.tobytes() == second.tobytes()


# -- agents meeting walls as games make them meet -------------------------------------------


def both_paths(
    monkeypatch: pytest.MonkeyPatch, build, steps: int = 120
) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[no-untyped-def]
    """``build(world)`` -> sprites, in a native world and a numpy one: ``(steps, n, 8)``
    positions, velocities, forces and headings of each."""
    results = []
    for native in (True, False):
        if native:
            monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
        else:
            monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
        world = steer.SteeringWorld(seed=0)
        sprites = build(world)
        assert all(batch.native == native for batch in world.native_report().batches)
        out = []
        for _ in range(steps):
            world.update(1 / 60)
            agents = [world.agent_of(sprite) for sprite in sprites]
            out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
        results.append(np.array(out))
    return results[0], results[1]


def walls_first(goal: tuple[float, float]) -> steer.SteeringComponent:
    return steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(goal))


@pytest.mark.parametrize("solid", [True, False])
def test_head_on_at_a_wall_the_agent_slides_towards_the_nearer_end(
    solid: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def build(world: steer.SteeringWorld) -> list[StubSprite]:
        world.add_wall((100, -50), (100, 80), thickness=4)  # the nearer end is below
        sprite = StubSprite(0, 0)
        world.attach(sprite, walls_first((300, 0)), velocity=(100, 0), solid=solid)
        return [sprite]

    native, numpy = both_paths(monkeypatch, build)
    assert_agree(native, numpy)
    x, y = native[:, 0, 0], native[:, 0, 1]
    assert not ((x > 100 - 2) & (y > -50)).any()  # never touched the wall
    assert y[x > 100].max() < -50  # round its lower end, the nearer one
    assert x[-1] > 120


def test_head_on_at_a_wall_end_the_agent_goes_round_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def build(world: steer.SteeringWorld) -> list[StubSprite]:
        world.add_wall((100, 0), (100, 200), thickness=0)  # its end dead ahead
        sprite = StubSprite(0, 0)
        world.attach(sprite, walls_first((300, 0)), velocity=(80, 0), radius=6)
        return [sprite]

    native, numpy = both_paths(monkeypatch, build, steps=240)
    assert_agree(native, numpy)
    assert native[-1, 0, 0] > 120  # past the wall


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0])
def test_along_a_wall_and_into_a_corner_both_paths_agree(
    angle: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    turn = complex(math.cos(math.radians(angle)), math.sin(math.radians(angle)))

    def at(x: float, y: float) -> tuple[float, float]:
        z = complex(x, y) * turn
        return (z.real, z.imag)

    def build(world: steer.SteeringWorld) -> list[StubSprite]:
        world.add_walls([at(-200, 0), at(200, 0), at(200, 200)], thickness=2)  # a corner
        sprites = []
        for y, heading in ((7.5, (1.0, 0.0)), (30.0, (1.0, 1.0)), (60.0, (1.0, -0.2))):
            sprite = StubSprite(*at(-100, y))
            velocity = complex(*heading) * turn * 90
            world.attach(
                sprite,
                walls_first(at(400, -100)),  # beyond the corner: pressing into it
                velocity=(velocity.real, velocity.imag),
                radius=6,
            )
            sprites.append(sprite)
        return sprites

    native, numpy = both_paths(monkeypatch, build, steps=180)
    assert_agree(native, numpy)
    assert np.abs(native[:, :, 4:6]).max() > 0  # the walls pushed


def test_an_agent_centred_on_a_thin_wall_is_pushed_off_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def build(world: steer.SteeringWorld) -> list[StubSprite]:
        world.add_wall((-50, 0), (50, 0))  # no thickness: the feelers start on its core
        sprite = StubSprite(0, 0)
        world.attach(sprite, walls_first((300, 0)), velocity=(50, 0), radius=6, solid=False)
        return [sprite]

    native, numpy = both_paths(monkeypatch, build, steps=30)
    assert_agree(native, numpy)
    assert native[0, 0, 5] < 0  # out along the wall's right normal, as pymunk's
    assert native[-1, 0, 1] < -6  # off the wall


def test_walls_from_sprites_that_come_and_go_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """No walls at first, then wall sprites (their merged outline), one tile taken away, a
    pymunk segment added: the candidates are bound again every update."""
    results = []
    for native in (True, False):
        if native:
            monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
        else:
            monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
        world = steer.SteeringWorld(seed=0)
        sprites = [StubSprite(-60.0 + 15 * i, 10.0 * (i % 3)) for i in range(8)]
        for sprite in sprites:
            world.attach(sprite, walls_first((400, 20)), max_speed=120, radius=5)
        tiles = arcade.SpriteList()
        for column, row in [(3, r) for r in range(-3, 4)] + [(4, -3), (5, -3)]:
            tile = arcade.SpriteSolidColor(32, 32, color=arcade.color.GRAY)
            tile.position = ((column + 0.5) * 32, (row + 0.5) * 32)
            tiles.append(tile)
        out = []
        for step in range(150):
            if step == 10:
                world.add_wall_sprites(tiles)
            if step == 60:
                tiles[3].remove_from_sprite_lists()  # a gap opens in the wall
            if step == 90:
                world.add_wall((250, -100), (250, 100), thickness=3)
            world.update(1 / 60)
            if step == 11:
                assert all(batch.native == native for batch in world.native_report().batches)
            agents = [world.agent_of(sprite) for sprite in sprites]
            out.append([[*a.position, *a.velocity, *a.force, *a.heading] for a in agents])
        results.append(np.array(out))
    assert_agree(results[0], results[1])
    assert results[0][10:, :, 4].min() < -100  # pushed back from the wall on the way


def test_the_report_says_avoid_walls_runs_native() -> None:
    world = steer.SteeringWorld()
    world.add_wall((100, -50), (100, 50), thickness=4)
    tree = steer.PriorityBlend(steer.AvoidWalls(), steer.AvoidObstacles(), steer.Seek((300, 0)))
    sprite = StubSprite(0, 0)
    world.attach(sprite, tree)
    report = world.native_report()
    assert [batch.native for batch in report.batches] == [True]
    assert "AvoidWalls" in str(report) and "native" in str(report)


def test_a_subclass_of_avoid_walls_runs_on_numpy() -> None:
    class MyWalls(steer.AvoidWalls):
        """A subclass may steer otherwise."""

    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, MyWalls())
    assert world.native_report().batches[0].reason == "MyWalls has no native step yet"


# -- what the C refuses ---------------------------------------------------------------------


def steer_walls(kernel: Kernel, op: tuple[int, int, int, int], geometry: bool = True) -> int:
    """One AvoidWalls leaf run directly in the C for agents 0 and 1, among a wall at x = 5
    from y = -10 to 10, 2 px thick (the geometry's only shape), or no geometry."""
    walls = kernel.geometry(segments=[((5, -10), (5, 10), 1.0)]) if geometry else None
    return kernel.steer([0, 1], [op], geometry=walls, columns=3)


def test_the_c_refuses_wall_leaves_out_of_range_and_writes_nothing() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["heading"][:] = (1.0, 0.0)
    kernel.columns["velocity"][:] = (1.0, 0.0)
    kernel.columns["position"][:] = (2.5, 0.0)  # feelers of 1 px (the length column's) reach
    avoid = (AVOID_WALLS, 0, 0, 0)  # 3 parameter columns: length, side_angle, side_ratio
    assert steer_walls(kernel, (AVOID_WALLS, 0, 1, 0)) == -2  # columns 1..3 of 3
    assert steer_walls(kernel, avoid, geometry=False) == ERR_GEOMETRY
    assert not kernel.columns["force"].any()
    assert steer_walls(kernel, avoid) == 0
    assert (kernel.columns["force"][:2, 0] < 0).all()  # both pushed back from the wall ahead
