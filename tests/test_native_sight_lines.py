"""EvadeSightCone's lines of sight (``occluded=True``) cast in the native step against numpy's:
followers in view, hidden by walls or not, get the same forces on both paths; the C casts
the line leader to follower against the walls only (obstacles hide nobody), as
:meth:`~arcade_steering.SteeringWorld.can_see` finds; edge cases (a leader on or inside a
wall, a follower inside one, on its leader or at a wall's end, walls of zero thickness, long
lines across large levels) agree; the demo's squad agrees over a long run in which walls
hide some followers in view and not others; the native path is deterministic; and the C
refuses an occluded view without the geometry.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import NATIVE_BUILT
from test_native import Kernel, assert_agree, two_worlds
from test_native_evade_sight_cone import EVADE_SIGHT_CONE, steer_cones

import arcade_steering as steer
from arcade_steering.testing import StubSprite

pytestmark = pytest.mark.skipif(not NATIVE_BUILT, reason="the native step is not built")

#: kernel.h's AS_ERR_GEOMETRY.
ERR_GEOMETRY = -7
#: A view that holds every follower: its force is zero exactly where walls hide one.
ALL_ROUND = {"length": 1e7, "half_angle": 180.0, "occluded": True}


@pytest.fixture(autouse=True)
def native_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The native step on, also in a run of the suite with ``ARCADE_STEERING_NATIVE=0``."""
    monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)


def one_look(
    monkeypatch: pytest.MonkeyPatch,
    walls: list[tuple[tuple[float, float], tuple[float, float], float]],
    leader_at: tuple[float, float],
    followers: np.ndarray,
    obstacles: tuple[tuple[tuple[float, float], float], ...] = (),
) -> tuple[np.ndarray, np.ndarray]:
    """One update of a leader looking all round at ``followers`` ``(n, 2)`` among ``walls``
    ``(a, b, thickness)``, on each path: the native forces ``(n, 2)`` (checked equal to
    numpy's, bit for bit) and which followers numpy's ``can_see`` finds hidden."""
    hidden = []

    def build(world: steer.SteeringWorld) -> np.ndarray:
        for a, b, thickness in walls:
            world.add_wall(a, b, thickness=thickness)
        for centre, radius in obstacles:
            world.add_obstacle(centre, radius)
        leader = StubSprite(*leader_at)
        world.attach(leader, steer.Seek((leader_at[0] + 100.0, leader_at[1] + 1.0)))
        squad = [StubSprite(*point) for point in followers.tolist()]
        for sprite in squad:
            world.attach(sprite, steer.EvadeSightCone(leader, **ALL_ROUND), max_force=50.0)
        report = world.native_report()
        assert all(batch.native == report.available for batch in report.batches), str(report)
        seen = world.can_see(leader, followers, ALL_ROUND["length"], walls=True)
        hidden.append(~np.asarray(seen, dtype=bool))
        world.update(1 / 60)
        return np.array([world.agent_of(sprite).force for sprite in squad])

    native, numpy = two_worlds(monkeypatch, build)
    assert native.tobytes() == numpy.tobytes()
    assert (hidden[0] == hidden[1]).all()
    return native, hidden[0]


def random_walls(
    rng: np.random.Generator, spread: float, count: int
) -> list[tuple[tuple[float, float], tuple[float, float], float]]:
    """``count`` walls, short and long for their number in the level, of zero thickness,
    thin or thick."""
    walls, size = [], spread / np.sqrt(count)
    for _ in range(count):
        a = rng.uniform(-spread, spread, 2)
        b = a + rng.uniform(-1, 1, 2) * size * float(rng.choice([0.05, 0.5, 2.0]))
        thickness = float(rng.choice([0.0, 1.0, rng.uniform(0, 0.2 * size)]))
        walls.append((tuple(a), tuple(b), thickness))
    return walls


def on_walls(rng: np.random.Generator, walls: list, count: int) -> np.ndarray:
    """Points at walls' ends, on their cores and on their faces."""
    points = []
    for _ in range(count):
        a, b, thickness = walls[rng.integers(len(walls))]
        a, b = np.asarray(a), np.asarray(b)
        along = float(rng.choice([0.0, 1.0, rng.random()]))
        normal = np.array([b[1] - a[1], a[0] - b[0]]) / np.hypot(*(b - a))
        points.append(a + along * (b - a) + normal * 0.5 * thickness * rng.choice([0, 1, -1]))
    return np.array(points)


@pytest.mark.parametrize("seed", range(12))
def test_followers_hidden_by_random_walls_are_those_numpy_hides(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(seed)
    spread = float(rng.choice([100.0, 1000.0, 20000.0]))
    walls = random_walls(rng, spread, int(rng.choice([1, 4, 30, 200])))
    followers = np.concatenate((rng.uniform(-spread, spread, (150, 2)), on_walls(rng, walls, 50)))
    leader_at = tuple(rng.uniform(-spread, spread, 2))
    obstacles = tuple((tuple(p), float(rng.uniform(1, 0.1 * spread))) for p in followers[:5])
    forces, hidden = one_look(monkeypatch, walls, leader_at, followers, obstacles)
    assert ((forces == 0).all(axis=1) == hidden).all()
    if len(walls) > 1:  # the walls hide some followers and leave others in view
        assert 0 < hidden.sum() < len(hidden)


def test_a_leader_on_or_inside_a_wall_sees_only_through_its_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walls = [((0.0, 0.0), (100.0, 0.0), 0.0), ((0.0, 50.0), (100.0, 50.0), 10.0)]
    followers = np.array([(50.0, 20.0), (50.0, -20.0), (150.0, 0.0), (50.0, 0.0), (-30.0, 0)])
    # On the zero-thickness wall's core: lines off it cross it at once; lines along its own
    # line never enter it, and neither does the one of zero length.
    _, hidden = one_look(monkeypatch, walls, (50.0, 0.0), followers)
    assert hidden.tolist() == [True, True, False, False, False]
    # Inside the thick wall: hidden from all.
    _, hidden = one_look(monkeypatch, walls, (50.0, 52.0), followers)
    assert hidden.all()
    # On the thick wall's face, looking away from it.
    _, hidden = one_look(monkeypatch, walls, (50.0, 45.0), followers)
    assert not hidden[0] and hidden[1]


def test_followers_inside_on_or_at_the_end_of_a_wall_and_on_the_leader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walls = [((0.0, 0.0), (100.0, 0.0), 0.0), ((0.0, 50.0), (100.0, 50.0), 10.0)]
    followers = np.array(
        [
            (50.0, 52.0),  # inside the thick wall
            (50.0, 55.0),  # on its far face
            (0.0, 0.0),  # at the thin wall's end
            (100.0, 0.0),  # at its other end
            (100.0 + 1e-9, 0.0),  # a hair beyond it
            (40.0, 0.0),  # on its core
            (50.0, 20.0),  # the leader's own place
        ]
    )
    forces, hidden = one_look(monkeypatch, walls, (50.0, 20.0), followers)
    assert hidden[:6].all()  # every wall touched counts, at its ends too
    assert not hidden[6] and np.hypot(*forces[6]) == pytest.approx(50.0)
    # From below and beyond the thin wall, the lines to its ends touch it there (hidden);
    # the one to a hair beyond its end misses it.
    _, hidden = one_look(monkeypatch, walls, (150.0, -20.0), followers[2:5])
    assert hidden.tolist() == [True, True, False]


def test_long_lines_across_a_large_level_of_many_walls(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(7)
    # A lattice of short walls 60,000 px wide with gaps: lines cross many cells of the grid.
    walls = []
    for x in range(0, 60000, 1500):
        for y in range(0, 60000, 1500):
            walls.append(((float(x), float(y)), (float(x) + 40.0, float(y) + 7.0), 2.0))
    followers = np.concatenate(
        (
            rng.uniform(-2000, 62000, (200, 2)),
            np.column_stack((np.full(20, 30010.0), rng.uniform(0, 60000, 20))),  # vertical
            np.column_stack((rng.uniform(0, 60000, 20), np.full(20, 30003.5))),  # horizontal
        )
    )
    forces, hidden = one_look(monkeypatch, walls, (30010.0, 30003.5), followers)
    assert ((forces == 0).all(axis=1) == hidden).all()
    assert 0 < hidden.sum() < len(hidden)


def demo_run(monkeypatch: pytest.MonkeyPatch, native: bool) -> tuple[np.ndarray, np.ndarray]:
    """The demo's scene on one path over 600 updates, twelve followers more joining from
    all over the level, the game turning the leader's look at one a wall hides now and then:
    the followers' positions, velocities and forces ``(steps, n, 6)``, and for each update
    how many followers the leader's cone holds that walls hide, and that they do not."""
    from arcade_steering.demo.scene import Scene

    monkeypatch.setenv("ARCADE_STEERING_NATIVE", "1" if native else "0")
    scene = Scene(seed=3, followers=12)
    rng = np.random.default_rng(0)
    for _ in range(12):
        scene.add_follower(tuple(rng.uniform((0, 0), (scene.level.width, scene.level.height))))
    squad, world = list(scene.squad), scene.world
    report = world.native_report()
    assert report.batches[-2].native == native and "EvadeSightCone" in report.batches[-2].tree
    out, counts = [], []
    for step in range(600):
        places = np.array([sprite.position for sprite in squad])
        seen = world.can_see(scene.leader, places, 150.0, 180.0)
        if step % 5 == 0:
            offsets = places - scene.leader.position
            behind = np.flatnonzero(~seen & (np.hypot(*offsets.T) < 150.0))
            if len(behind):
                world.agent_of(scene.leader).look = tuple(offsets[rng.choice(behind)])
        in_cone = scene.in_cone(places)
        counts.append(((in_cone & ~seen).sum(), (in_cone & seen).sum()))
        world.update(1 / 60)
        agents = [world.agent_of(sprite) for sprite in squad]
        out.append([[*a.position, *a.velocity, *a.force] for a in agents])
    return np.array(out), np.array(counts)


def test_the_demo_squad_agrees_with_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    native, counts = demo_run(monkeypatch, native=True)
    numpy, numpy_counts = demo_run(monkeypatch, native=False)
    assert np.isfinite(native).all()
    assert_agree(native, numpy)
    hidden, seen = counts.sum(axis=0)
    assert hidden > 0 and seen > 0, counts  # walls hid followers in the cone, and left some
    assert (counts == numpy_counts).all()


def test_the_native_lines_of_sight_are_deterministic(monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = demo_run(monkeypatch, native=True)
    second, _ = demo_run(monkeypatch, native=True)
    assert first.tobytes() == second.tobytes()


def test_the_c_refuses_an_occluded_view_without_the_geometry() -> None:
    kernel = Kernel(capacity=4)
    kernel.columns["heading"][3] = kernel.columns["look"][3] = (1.0, 0.0)  # leader, slot 3
    cone = (EVADE_SIGHT_CONE, 0, 0, 0)
    status, _ = steer_cones(kernel, cone, [3, 3], occluded=True)
    assert status == ERR_GEOMETRY
    assert not kernel.columns["force"].any()
    walls = kernel.geometry(segments=[((5, -5), (5, 5), 0.0)])  # ahead of the leader at (0, 0)
    status, _ = steer_cones(kernel, cone, [3, 3], occluded=True, geometry=walls)
    assert status == 0 and kernel.columns["force"][:2].any(axis=1).all()  # on the leader
    kernel.columns["force"][:] = 0.0
    kernel.columns["position"][0] = (10.0, 0.0)  # agent 0 in view, beyond the wall
    status, _ = steer_cones(kernel, cone, [3, 3], occluded=True, geometry=walls)
    assert status == 0 and not kernel.columns["force"][0].any()
    assert kernel.columns["force"][1].any()
