"""The solid step on the native path against numpy's: fuzzed worlds of solid agents among
thick and thin walls, polygons, obstacles, corners and wedges, some spawned buried, some
fast enough to tunnel, agree over many steps; no agent crosses a wall; each path is
deterministic; the C refuses circles and geometry out of range and writes nothing.

``tests/native_asan.sh`` runs this file against a build with AddressSanitizer and UBSan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pymunk
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree

import arcade_steering as steer
from arcade_steering._native.geometry import NativeGeometry
from arcade_steering._native.solid_step import NativeSolid
from arcade_steering.geometry import StaticGeometry, add_obstacle, add_wall
from arcade_steering.solid.keep_out import keep_out
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: The world's extent, px: walls and agents within it.
SPREAD = 300.0


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def add_geometry(world: steer.SteeringWorld, rng: np.random.Generator) -> list[tuple]:
    """Random walls (thin and thick), closed polygons, corners, wedges, obstacles and now and
    then a zero-length segment; returns the thin walls' ends, which no agent may cross."""
    thin = []
    for _ in range(int(rng.integers(1, 12))):
        a, b = rng.uniform(-SPREAD, SPREAD, (2, 2))
        thickness = float(rng.choice([0.0, 0.0, rng.uniform(1, 30)]))
        world.add_wall(tuple(a), tuple(b), thickness=thickness)
        if thickness == 0.0:
            thin.append((a, b))
    for _ in range(int(rng.integers(0, 3))):  # a closed polygon
        centre, size = rng.uniform(-SPREAD, SPREAD, 2), float(rng.uniform(20, 120))
        angles = np.sort(rng.uniform(0, 2 * np.pi, int(rng.integers(3, 7))))
        points = centre + size * np.column_stack((np.cos(angles), np.sin(angles)))
        thickness = float(rng.choice([0, 4]))
        world.add_walls([tuple(p) for p in points], closed=True, thickness=thickness)
    for _ in range(int(rng.integers(0, 3))):  # a corner or a narrow wedge
        apex = rng.uniform(-SPREAD, SPREAD, 2)
        turn = float(rng.uniform(0, 2 * np.pi))
        spread = float(rng.choice([np.pi / 2, rng.uniform(0.05, 0.6)]))
        ends = [apex + 150 * np.array([np.cos(turn + s), np.sin(turn + s)]) for s in (0, spread)]
        world.add_walls([tuple(ends[0]), tuple(apex), tuple(ends[1])])
    for _ in range(int(rng.choice([0, 4, 30]))):
        world.add_obstacle(tuple(rng.uniform(-SPREAD, SPREAD, 2)), float(rng.uniform(2, 50)))
    if rng.random() < 0.3:  # a zero-length segment added to the space: a point, or a disc
        point = tuple(rng.uniform(-SPREAD, SPREAD, 2))
        radius = float(rng.choice([0.0, 6.0]))
        world.space.add(pymunk.Segment(world.space.static_body, point, point, radius))
    return thin


def solid_world(seed: int) -> tuple[steer.SteeringWorld, list[StubSprite], list[tuple], list]:
    """Solid agents (and a few not) seeking, fleeing, arriving, some spawned buried, some at
    tunnelling speeds; the same ``seed`` builds the same world. Returns the world, the
    sprites, the thin walls and which agents are solid."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    thin = add_geometry(world, rng)
    n = int(rng.integers(1, 80))
    sprites = [StubSprite(*rng.uniform(-SPREAD, SPREAD, 2)) for _ in range(n)]
    solid = []
    for sprite in sprites:
        target = tuple(rng.uniform(-SPREAD, SPREAD, 2))
        kind = rng.integers(3)
        leaf = (steer.Seek, steer.Flee, steer.Arrive)[kind](target)
        if rng.random() < 0.3:
            leaf = steer.WeightedBlend((leaf, 1.0), (steer.Separation(30), 2.0))
        fast = rng.random() < 0.2  # far more than a radius a step: would tunnel unswept
        solid_flag = bool(rng.random() < 0.9)
        world.attach(
            sprite,
            leaf,
            max_speed=float(rng.uniform(4000, 20000) if fast else rng.uniform(20, 400)),
            max_force=float(rng.uniform(100, 50000)),
            radius=float(rng.choice([0.0, rng.uniform(1, 25)])),
            velocity=tuple(rng.uniform(-300, 300, 2)),
            solid=solid_flag,
        )
        solid.append(solid_flag)
    return world, sprites, thin, solid


def record(
    seed: int,
    monkeypatch: pytest.MonkeyPatch,
    native: bool,
    steps: int = 60,
    one_step: bool = False,
) -> tuple[np.ndarray, list[tuple]]:
    """Positions and velocities ``(steps, n, 4)`` after each update, and the thin walls.
    The updates' lengths vary, some of them sub-stepped, unless ``one_step``: 1/60 s each."""
    if native:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    else:
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    world, sprites, thin, _ = solid_world(seed)
    report = world.native_report()
    assert (report.integration == "") == native, str(report)
    rng = np.random.default_rng(seed + 1000)
    out = []
    for step in range(steps):
        dt = float(rng.choice([1 / 60, 1 / 30, 0.05])) if step % 7 else 1 / 120
        world.update(1 / 60 if one_step else dt)
        agents = [world.agent_of(sprite) for sprite in sprites]
        out.append([[*a.position, *a.velocity] for a in agents])
    return np.array(out), thin


SEEDS = [*range(12), *(pytest.param(seed, marks=pytest.mark.slow) for seed in range(12, 60))]


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzzed_solid_worlds_agree_with_numpy(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    native, _ = record(seed, monkeypatch, native=True)
    numpy, _ = record(seed, monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)


def crossings(path: np.ndarray, walls: list[tuple]) -> int:
    """How many of the moves between an agent's recorded positions ``(steps, 2)`` cross the
    core line of one of the thin ``walls``."""

    def side(a: np.ndarray, b: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Which side of the lines ``a -> b`` points ``p`` are on (rows ``(..., 2)``)."""
        ab, ap = b - a, p - a
        return np.sign(ab[..., 0] * ap[..., 1] - ab[..., 1] * ap[..., 0])

    before, after = path[:-1], path[1:]
    count = 0
    for a, b in walls:
        a, b = np.asarray(a), np.asarray(b)
        straddles = side(a, b, before) * side(a, b, after) < 0
        ends = side(before, after, a) * side(before, after, b) < 0
        count += int((straddles & ends).sum())
    return count


def crossings_of(seed: int, monkeypatch: pytest.MonkeyPatch, native: bool) -> dict[str, int]:
    """Thin-wall crossings of the solid agents of ``solid_world(seed)`` over 90 updates, of
    points (radius 0) and of circles."""
    # One step per update: the path between two updates is then one swept move and its
    # slides (sub-steps could go round a wall's end and back).
    path, thin = record(seed, monkeypatch, native, steps=90, one_step=True)
    world, sprites, _, solid = solid_world(seed)
    found = {"points": 0, "circles": 0}
    for i, sprite in enumerate(sprites):
        if solid[i]:
            kind = "circles" if world.agent_of(sprite).radius > 0.0 else "points"
            found[kind] += crossings(path[:, i, :2], thin)
    return found


@pytest.mark.parametrize("seed", range(12))
def test_no_solid_circle_crosses_a_thin_wall_on_the_native_path(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert crossings_of(seed, monkeypatch, native=True)["circles"] == 0


@pytest.mark.xfail(strict=True, reason="the numpy solid step's too: its SKIN push is unswept")
@pytest.mark.parametrize("native", [True, False])
def test_a_point_stopped_where_a_thin_wall_meets_another_shape_stays_on_its_side(
    native: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A known defect of the solid step, on both paths: a circle of radius 0 that meets two
    shapes at once, a thin wall less than SKIN behind the first one, is pushed SKIN off the
    first along its normal, unswept, across the thin wall's line (seeds 3 and 6)."""
    found = [crossings_of(seed, monkeypatch, native)["points"] for seed in (3, 6)]
    assert found == [0, 0]


@pytest.mark.parametrize("seed", range(3))
def test_the_native_solid_step_is_deterministic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = record(seed, monkeypatch, native=True, steps=30)
    second, _ = record(seed, monkeypatch, native=True, steps=30)
    assert first.tobytes() == second.tobytes()


def buried_world(world: steer.SteeringWorld) -> list[StubSprite]:
    """Agents spawned inside a thick wall, an obstacle (one on its centre), a corner and a
    wedge, on a thin wall's line and overlapping two obstacles at once."""
    world.add_wall((0, 0), (200, 0), thickness=20)
    world.add_obstacle((300, 100), 40)
    world.add_obstacle((330, 100), 30)
    world.add_walls([(0, 200), (0, 100), (100, 100)])  # a corner
    world.add_walls([(200, 300), (400, 310), (200, 320)])  # a narrow wedge
    world.add_wall((500, 0), (500, 200))  # thin
    spots = [(50, 5), (150, -8), (300, 100), (320, 90), (5, 105), (390, 310), (500, 50), (315, 120)]
    sprites = [StubSprite(*spot) for spot in spots]
    for sprite in sprites:
        world.attach(sprite, steer.Seek((250, 250)), radius=12.0, velocity=(80, -40))
    return sprites


def test_agents_spawned_buried_are_dug_out_as_numpy_digs_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paths = []
    for native in (True, False):
        if native:
            monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
        else:
            monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
        world = steer.SteeringWorld(seed=0)
        sprites = buried_world(world)
        assert (world.native_report().integration == "") == native
        path = []
        for _ in range(40):
            world.update(1 / 60)
            path.append(
                [[*world.agent_of(s).position, *world.agent_of(s).velocity] for s in sprites]
            )
        paths.append(np.array(path))
    native_path, numpy_path = paths
    assert_agree(native_path, numpy_path)
    spots = np.array([sprite.position for sprite in buried_world(steer.SteeringWorld())])
    overlapping = world.geometry.nearest(spots, 11.99).found
    assert overlapping.all()  # every one started inside a shape
    assert not world.geometry.nearest(native_path[-1, :, :2], 11.99).found.any()  # all out
    # The two in the thick wall left it on their sides of its core line (y = 0).
    assert native_path[-1, 0, 1] > 0.0 > native_path[-1, 1, 1]


def kept_out_as_numpy_keeps_them(
    geometry: StaticGeometry,
    start: np.ndarray,
    end: np.ndarray,
    velocity: np.ndarray,
    radius: np.ndarray,
) -> tuple[NativeSolid, np.ndarray]:
    """Circles moved from ``start`` to ``end`` kept out by the C, checked against keep_out's
    positions and velocities; returns the solid step (its ``buried`` count) and the C's
    ``(2, n, 2)`` positions and velocities."""
    n = len(start)
    expected = keep_out(geometry, start, end, velocity, radius)
    kernel = Kernel(capacity=n)
    kernel.columns["position"][:] = end
    kernel.columns["velocity"][:] = velocity
    kernel.columns["radius"][:] = radius
    solid = NativeSolid(kernel, NativeGeometry(kernel))
    assert solid.keep_out(kernel.agents, geometry, np.arange(n), start.copy()) == 0
    got = np.stack((kernel.columns["position"], kernel.columns["velocity"]))
    assert_agree(got[:, None], np.stack(expected)[:, None])
    return solid, got


@pytest.mark.parametrize("seed", range(20))
def test_the_c_keeps_random_circles_out_as_keep_out_does(seed: int) -> None:
    """Circles started anywhere (many inside shapes) moved anywhere: the C's positions and
    velocities agree with keep_out's."""
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=seed)
    add_geometry(world, rng)
    geometry = StaticGeometry(world.space)
    n = 200
    start = rng.uniform(-SPREAD, SPREAD, (n, 2))
    end = start + rng.normal(0.0, float(rng.choice([3.0, 40.0, 400.0])), (n, 2))
    velocity = rng.normal(0.0, 200.0, (n, 2))
    radius = rng.choice([0.0, 1.0, 8.0, 30.0], n)
    kept_out_as_numpy_keeps_them(geometry, start, end, velocity, radius)


def space_of(walls: Sequence[tuple] = (), obstacles: Sequence[tuple] = ()) -> StaticGeometry:
    """The geometry of a space holding ``walls`` ``(a, b, thickness)`` and ``obstacles``
    ``(centre, radius)``."""
    space = pymunk.Space()
    for a, b, thickness in walls:
        add_wall(space, a, b, thickness=thickness)
    for centre, radius in obstacles:
        add_obstacle(space, centre, radius)
    return StaticGeometry(space)


def test_circles_buried_deep_are_dug_out_as_numpy_digs_them() -> None:
    """Circles up to their whole radius and more inside a thick wall and large obstacles
    (on a core, at a centre, pinched where two overlap), moving or not."""
    geometry = space_of(
        (((0, 0), (400, 0), 60), ((0, -200), (0, 200), 40)),
        (((200, 150), 80), ((300, 150), 70), ((600, 0), 120)),
    )
    spots = [(100, 0), (200, 5), (10, 10), (0, 100), (200, 150), (250, 150), (600, 0), (650, 40)]
    start = np.array(spots, dtype=float)
    rng = np.random.default_rng(3)
    for motion in (0.0, 2.0, 40.0):
        end = start + rng.normal(0.0, motion, start.shape) if motion else start.copy()
        velocity = rng.normal(0.0, 300.0, start.shape)
        radius = np.full(len(start), 12.0)
        solid, got = kept_out_as_numpy_keeps_them(geometry, start, end, velocity, radius)
        assert solid.buried == len(start)
        assert not np.array_equal(got[0], end)  # pushed


def test_a_fast_circle_crossing_many_cells_stops_at_the_first_shape_as_numpy_does() -> None:
    """A row of small obstacles makes a fine grid; circles moving 1,500 px in one step sweep
    across hundreds of its cells (some past the end of the grid) and stop where numpy's do."""
    obstacles = [((x, float(y)), 3.0) for x in range(0, 1500, 25) for y in (0, 40)]
    geometry = space_of([((700, -400), (700, 400), 0.0)], obstacles)
    start = np.array([(-100.0, 20.0), (-100.0, 0.5), (1600.0, 20.0), (-100.0, -300.0)])
    end = start + np.array([(1500.0, 0.0), (1500.0, 9.0), (-1500.0, 3.0), (1500.0, 700.0)])
    velocity = (end - start) * 60.0
    radius = np.array([5.0, 2.0, 8.0, 0.0])
    solid, got = kept_out_as_numpy_keeps_them(geometry, start, end, velocity, radius)
    struct = solid._geometry.struct(geometry)
    assert 1500.0 / struct.cell > 20  # each move crosses more than 20 columns of cells
    assert solid.buried == 0
    assert (got[0, :, 0] < 700.0).sum() == 3  # three stopped before the thin wall or earlier
    assert got[0, 2, 0] > 700.0  # the one from the right, on its side


def test_shapes_far_apart_make_a_coarse_grid_that_keeps_circles_out_as_numpy_does() -> None:
    """Walls a million px apart: the grid's cells grow coarse enough to be dense; circles at
    both walls, and between them, agree with numpy."""
    geometry = space_of([((0, -50), (0, 50), 4.0), ((1e6, -50), (1e6, 50), 0.0)])
    start = np.array([(-20.0, 0.0), (1e6 + 20.0, 0.0), (5e5, 0.0), (3.0, 10.0)])
    end = start + np.array([(40.0, 5.0), (-40.0, 0.0), (100.0, 0.0), (-30.0, 0.0)])
    velocity = (end - start) * 60.0
    radius = np.full(4, 6.0)
    solid, got = kept_out_as_numpy_keeps_them(geometry, start, end, velocity, radius)
    struct = solid._geometry.struct(geometry)
    assert struct.cell > 1000.0
    assert solid.buried == 1  # the one that started inside the thick wall
    assert got[0, 0, 0] < 0.0 < got[0, 1, 0] - 1e6  # stopped at each wall, on its side
    np.testing.assert_array_equal(got[0, 2], end[2])  # free between them


def test_circles_with_no_shape_near_move_freely_on_the_c_path() -> None:
    geometry = space_of([((0, 0), (100, 0), 0.0)], [((50, 50), 10.0)])
    start = np.array([(500.0, 500.0), (-400.0, 300.0), (50.0, -300.0)])
    end = start + np.array([(10.0, 0.0), (0.0, -30.0), (5.0, 5.0)])
    velocity = (end - start) * 60.0
    solid, got = kept_out_as_numpy_keeps_them(geometry, start, end, velocity, np.full(3, 8.0))
    assert solid.buried == 0
    np.testing.assert_array_equal(got[0], end)
    np.testing.assert_array_equal(got[1], velocity)


class Solid:
    """Direct calls of as_keep_out with hand-made (bad) circles and geometry: two agents at
    (0, 0) and (0, 30) moving by (0, 20), one thin wall along y = 10."""

    def __init__(self) -> None:
        self.kernel = Kernel(capacity=2)
        self.kernel.columns["position"][:] = [(0.0, 20.0), (0.0, 50.0)]
        self.kernel.columns["velocity"][:] = [(0.0, 1200.0), (0.0, 1200.0)]

    def geometry(self):  # type: ignore[no-untyped-def]
        return self.kernel.geometry(segments=[((-100, 10), (100, 10), 0.0)])

    def call(self, slots: list[int], k: int | None = None, geometry=None, start=True) -> int:  # type: ignore[no-untyped-def]
        kernel = self.kernel
        circles = kernel.ffi.new("as_circles *")
        circles.slots = kernel.buffer("intptr_t[]", np.array(slots or [0], dtype=np.intp))
        if start:
            circles.start = kernel.buffer("double[]", np.array([(0.0, 0.0), (0.0, 30.0)]))
        circles.k = len(slots) if k is None else k
        geometry = self.geometry() if geometry is None else geometry
        return int(kernel.lib.as_keep_out(kernel.agents, geometry, circles))


def test_the_c_refuses_solid_circles_out_of_range_and_writes_nothing() -> None:
    solid = Solid()
    before = {name: solid.kernel.columns[name].copy() for name in ("position", "velocity")}
    assert solid.call([0, 2]) == -1  # slot past the columns
    assert solid.call([-1, 1]) == -1
    assert solid.call([0, 1], k=-1) == -10
    assert solid.call([0, 1], start=False) == -10  # no starts
    assert solid.call([0, 1], geometry=solid.kernel.ffi.NULL) == -7
    for member, value in {"nx": 0, "cell": 0.0, "n_walls": 2, "origin_y": math.inf}.items():
        geometry = solid.geometry()
        setattr(geometry, member, value)
        assert solid.call([0, 1], geometry=geometry) == -7, member
    geometry = solid.geometry()
    geometry.found = solid.kernel.ffi.NULL  # the queries' scratch
    assert solid.call([0, 1], geometry=geometry) == -7
    for name, values in before.items():
        assert np.array_equal(solid.kernel.columns[name], values)
    assert solid.call([0, 1]) == 0
    assert solid.kernel.columns["position"][0, 1] < 10.0  # stopped at the wall
    assert solid.kernel.columns["position"][1, 1] == 50.0  # above it, and moving away


def test_the_c_reads_no_shape_past_the_geometry_from_its_grid() -> None:
    """A grid listing a shape past the geometry's (which as_check_geometry refuses when the
    struct is made): the solid step's queries skip it instead of reading past the columns
    (tests/native_asan.sh would report the read)."""
    solid = Solid()
    geometry = solid.geometry()
    for p in range(geometry.listings):
        geometry.items[p] = 7
    assert solid.kernel.lib.as_check_geometry(geometry) == -7
    assert solid.call([0, 1], geometry=geometry) == 0
    assert solid.kernel.columns["position"][0, 1] == 20.0  # no wall found: moved freely


def test_the_integrator_refuses_slots_out_of_range() -> None:
    kernel = Kernel(capacity=2)
    start = kernel.buffer("double[]", np.zeros((2, 2)))
    slots = kernel.buffer("intptr_t[]", np.array([0, 2], dtype=np.intp))
    assert kernel.lib.as_move(kernel.agents, slots, 2, 1 / 60, start) == -1
    assert kernel.lib.as_turn(kernel.agents, slots, 2, 1.0) == -1
    assert not kernel.columns["position"].any()
