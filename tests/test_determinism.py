"""Determinism (issue #8 item 5): the same seed and dt sequence give bitwise identical results.

Every test builds its world twice from scratch with the same script (new sprites, paths, fields
and components each time: nothing is shared but the script) and compares, after every update,
each agent's position, velocity, applied force and heading and each sprite's angle, as raw
bits (``-0.0`` differs from ``0.0``, NaN marks an agent not attached at that step). The
scripts cover every public component family, odd frame times (0, 1e-9, steps that are split
into sub-steps), agents attached, detached, dropped by the game and re-attached at scheduled
steps, walls and obstacles added and removed, and parameters, paths and sprites changed at run
time; one runs real ``arcade.Sprite`` objects in a ``SpriteList``.

Two worlds updated in lockstep must give what each gives alone (no state shared through the
process), and a run in another interpreter with another hash seed must give the same bits
(nothing depends on ``id()`` or on ``set`` order).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path as FilePath
from typing import Any

import arcade
import numpy as np
import pytest
from conftest import short_and_long

import arcade_steering as steer
from arcade_steering import formations
from arcade_steering.testing import StubSprite

#: Every test runs on the native step and on numpy only: the same bits on both.
pytestmark = pytest.mark.usefixtures("both_paths")

#: What is recorded per agent and step: x, y, vx, vy, fx, fy, heading x, heading y, angle.
FIELDS = 9
BOX = 300.0


def dt_sequence(count: int, seed: int = 2024) -> list[float]:
    """Jittered frame times with odd ones mixed in: nothing, a nanosecond, split steps."""
    rng = np.random.default_rng(seed)
    dts = rng.uniform(0.0, 0.05, count)
    for at, odd in ((3, 0.0), (7, 1e-9), (11, 0.2), (19, 0.5), (23, 1 / 60), (31, 0.0)):
        if at < count:
            dts[at] = odd
    return [float(dt) for dt in dts]


def assert_bitwise_equal(a: np.ndarray, b: np.ndarray, what: str = "record") -> None:
    assert a.shape == b.shape and a.dtype == b.dtype == np.float64, what
    same = a.view(np.uint64) == b.view(np.uint64)
    if not same.all():
        step, agent, field = np.argwhere(~same)[0]
        raise AssertionError(
            f"{what} differs first at step {step}, agent {agent}, field {field}: "
            f"{a[step, agent, field]!r} != {b[step, agent, field]!r}"
        )
    assert np.array_equal(a.view(np.uint64), b.view(np.uint64))


class Run:
    """A world driven by a script, recording every named sprite's agent after every update.

    Args:
        seed: The world's seed.
        names: Every sprite name the script will ever use, in a fixed order (the record's rows).
    """

    def __init__(self, seed: int, names: list[str]) -> None:
        self.world = steer.SteeringWorld(seed=seed)
        self.names = names
        self.sprites: dict[str, Any] = {}
        self.rows: list[np.ndarray] = []
        self.objects: dict[str, Any] = {}  # paths, fields, shapes, shared components

    def attach(self, name: str, sprite: Any, behavior: steer.SteeringComponent, **kw: Any) -> None:
        assert name in self.names, name
        self.sprites[name] = sprite
        self.world.attach(sprite, behavior, **kw)

    def record(self) -> None:
        row = np.full((len(self.names), FIELDS), np.nan)
        for i, name in enumerate(self.names):
            sprite = self.sprites.get(name)
            if sprite is None or sprite not in self.world:
                continue
            agent = self.world.agent_of(sprite)
            row[i] = (
                *sprite.position,
                *agent.velocity,
                *agent.force,
                *agent.heading,
                sprite.angle,
            )
        self.rows.append(row)

    def result(self) -> tuple[np.ndarray, str]:
        """``(steps, agents, FIELDS)`` record and the generator's final state."""
        state = json.dumps(self.world.rng.bit_generator.state, sort_keys=True)
        return np.array(self.rows), state


Script = Callable[[Run, int], None]


def simulate(
    build: Callable[[Run], None], script: Script, names: list[str], dts: list[float], seed: int = 0
) -> tuple[np.ndarray, str]:
    """Build a world from scratch, then for each dt: ``script(run, step)``, update, record."""
    run = Run(seed, names)
    build(run)
    for step, dt in enumerate(dts):
        script(run, step)
        run.world.update(dt)
        run.record()
    return run.result()


def check_deterministic(build, script, names, dts, seed: int = 0) -> np.ndarray:
    first, state_1 = simulate(build, script, names, dts, seed)
    second, state_2 = simulate(build, script, names, dts, seed)
    assert_bitwise_equal(first, second)
    assert state_1 == state_2, "the world's generator drew differently"
    attached = ~np.isnan(first[..., 0])
    assert np.isfinite(first[attached]).all(), "NaN or inf in an attached agent's record"
    return first


def no_script(run: Run, step: int) -> None:
    return None


# -- every component family in one walled level --------------------------------------------------

LOOP = [(-200.0, -200.0), (200.0, -200.0), (200.0, 200.0), (-200.0, 200.0)]
REPEATED = [(-100.0, 0.0), (-100.0, 0.0), (0.0, -150.0), (150.0, 0.0), (150.0, 0.0)]
FLOCK, CROSSERS, SQUAD, WEDGE = 8, 4, 4, 3


def family_names() -> list[str]:
    names = [
        "leader",
        "seek",
        "flee",
        "arrive",
        "pursue",
        "pursue_bait",
        "evade",
        "wander_a",
        "wander_b",
        "wander_own",
        "path_stop",
        "path_reverse",
        "stay",
        "wp_loop",
        "wp_pingpong",
        "wp_once",
        "flow_a",
        "flow_b",
        "avoid_obstacles",
    ]
    names += [f"flock{i}" for i in range(FLOCK)]
    names += [f"cross{i}" for i in range(CROSSERS)]
    names += [f"squad{i}" for i in range(SQUAD)]
    names += [f"wedge{i}" for i in range(WEDGE)]
    return names


def furnish(run: Run) -> None:
    """Walls round the level, an inner wall, obstacles."""
    world = run.world
    run.objects["box"] = world.add_walls(
        [(-BOX, -BOX), (BOX, -BOX), (BOX, BOX), (-BOX, BOX)], closed=True
    )
    run.objects["inner"] = world.add_wall((-80.0, 60.0), (80.0, 60.0), thickness=4.0)
    run.objects["obstacles"] = [
        world.add_obstacle(center, radius)
        for center, radius in (((0.0, -90.0), 25.0), ((140.0, 140.0), 20.0), ((-150, 110), 30.0))
    ]


def build_families(run: Run) -> None:
    furnish(run)
    world = run.world
    rng = np.random.default_rng(99)  # start positions: the same in every run

    def spot() -> StubSprite:
        x, y = rng.uniform(-250.0, 250.0, 2)
        return StubSprite(x, y, angle=float(rng.uniform(-180, 180)))

    loop = steer.Path(LOOP, radius=25.0, closed=True)
    open_path = steer.Path([(-250.0, -250.0), (0.0, -230.0), (250.0, -100.0)], radius=15.0)
    field = steer.FlowField.towards((200.0, -220.0), world, (-BOX, BOX, -BOX, BOX), cell_size=25)
    bait = StubSprite(0.0, 0.0)  # moved by the game, never attached
    run.objects.update(loop=loop, open_path=open_path, bait=bait)

    walls_first = (steer.AvoidWalls(), steer.AvoidObstacles())
    leader = StubSprite(-200.0, -200.0)
    run.attach(
        "leader",
        leader,
        steer.PriorityBlend(*walls_first, steer.FollowPath(loop, at_end="loop")),
        max_speed=90.0,
    )
    run.attach("seek", spot(), steer.Seek((250.0, 250.0)), max_speed=150.0, mass=2.0)
    run.attach(
        "flee",
        spot(),
        steer.PriorityBlend(
            steer.AvoidWalls(), steer.Flee(leader, panic_distance=120.0), steer.Wander()
        ),
    )
    run.attach(
        "arrive",
        spot(),
        steer.Arrive(lambda: bait.position, slowing_radius=80.0),
        facing="up",
        response_time=0.25,
    )
    run.attach("pursue", spot(), steer.Pursue(leader), max_speed=110.0)
    run.attach("pursue_bait", spot(), steer.Pursue(bait, max_prediction=0.5), rotate=False)
    run.attach("evade", spot(), steer.Evade(leader, threat_range=150.0))
    shared_wander = steer.PriorityBlend(steer.AvoidWalls(), steer.Wander())
    run.attach("wander_a", spot(), shared_wander, max_speed=80.0)
    run.attach("wander_b", spot(), shared_wander, max_speed=60.0, solid=False)
    run.attach("wander_own", spot(), steer.Wander(radius=20.0, distance=40.0, jitter=5.0))
    run.attach("path_stop", spot(), steer.FollowPath(open_path, always=True))
    run.attach("path_reverse", spot(), steer.FollowPath(open_path, at_end="reverse", direction=-1))
    run.attach(
        "stay", spot(), steer.PriorityBlend(steer.StayOnPath(loop), steer.Seek((0.0, 250.0)))
    )
    for mode in ("loop", "pingpong", "once"):
        points = steer.Path(REPEATED) if mode == "loop" else REPEATED
        run.attach(f"wp_{mode}", spot(), steer.FollowWaypoints(points, 12.0, mode))
    follow_field = steer.FollowFlowField(field)
    run.attach("flow_a", spot(), follow_field)
    run.attach("flow_b", spot(), steer.FollowFlowField(field, slowing_radius=50.0))
    run.attach(
        "avoid_obstacles",
        StubSprite(0.0, -250.0),
        steer.PriorityBlend(steer.AvoidObstacles(), steer.Seek((0.0, 250.0))),
    )

    flock = [spot() for _ in range(FLOCK)]
    flocking = steer.WeightedBlend(
        (steer.Separation(30.0, among=flock), 2.0),
        (steer.Alignment(60.0, among=flock), 1.0),
        (steer.Cohesion(80.0, among=flock, fov=270.0), 0.5),
        (steer.Wander(), 0.5),
    )
    for i, sprite in enumerate(flock):
        run.attach(f"flock{i}", sprite, steer.PriorityBlend(*walls_first, flocking))

    for i in range(CROSSERS):  # head-on crossings for AvoidAgents
        angle = 2.0 * np.pi * i / CROSSERS
        start = 150.0 * np.array([np.cos(angle), np.sin(angle)])
        run.attach(
            f"cross{i}",
            StubSprite(*start),
            steer.PriorityBlend(steer.AvoidAgents(), steer.Seek(tuple(-start))),
        )

    guard = steer.PriorityBlend(
        steer.EvadeSightCone(leader, length=100.0),
        steer.WeightedBlend((steer.FollowLeader(leader), 1.0), (steer.Separation(25.0), 1.5)),
    )
    for i in range(SQUAD):
        run.attach(f"squad{i}", StubSprite(-230.0 + 12.0 * i, -240.0), guard)
    for i, offset in enumerate(formations.wedge(WEDGE, 30.0)):
        run.attach(
            f"wedge{i}",
            StubSprite(-220.0, -260.0 + 10.0 * i),
            steer.OffsetPursuit(leader, offset),
        )


def move_bait(run: Run, step: int) -> None:
    angle = 0.05 * step
    run.objects["bait"].position = (120.0 * np.cos(angle), 120.0 * np.sin(angle))


@short_and_long("frames", 50, 120)
def test_every_component_family_is_bitwise_deterministic(frames: int) -> None:
    record = check_deterministic(build_families, move_bait, family_names(), dt_sequence(frames))
    assert not np.isnan(record).any()  # every agent attached throughout
    moved = np.hypot(*(record[-1, :, :2] - record[0, :, :2]).T)
    assert (moved > 1.0).mean() > 0.9, "the script hardly moves anything: a weak check"


@pytest.fixture(scope="module")
def families_alone() -> tuple[np.ndarray, str]:
    """The families level run alone for 60 frames with seed 0: computed once for the two tests
    below that compare other runs with it."""
    return simulate(build_families, move_bait, family_names(), dt_sequence(60), seed=0)


def test_the_check_has_teeth_seed_and_dt_change_the_result(families_alone) -> None:
    names, dts = family_names(), dt_sequence(60)
    base, _ = families_alone
    other_seed, _ = simulate(build_families, move_bait, names, dts, seed=1)
    nudged = list(dts)
    nudged[40] += 1e-6
    other_dt, _ = simulate(build_families, move_bait, names, nudged, seed=0)
    wander = names.index("wander_own")
    assert not np.array_equal(base[:, wander], other_seed[:, wander])
    assert np.array_equal(base[:40], other_dt[:40])
    assert not np.array_equal(base[40:], other_dt[40:])


def test_worlds_updated_in_lockstep_match_worlds_updated_alone(families_alone) -> None:
    # Nothing may leak between worlds through the process: caches, epochs, trackers.
    names, dts = family_names(), dt_sequence(60)
    alone, state = families_alone
    runs = [Run(0, names), Run(0, names), Run(3, names)]
    for run in runs:
        build_families(run)
    for step, dt in enumerate(dts):
        for run in runs:
            move_bait(run, step)
            run.world.update(dt)
            run.record()
    for run in runs[:2]:
        record, run_state = run.result()
        assert_bitwise_equal(record, alone, "lockstep run")
        assert run_state == state


# -- churn: attach, detach, drop, re-attach; shapes and parameters changed at run time -----------

CHURN_NAMES = [f"a{i}" for i in range(12)] + ["late_leader", "late_flock0", "late_flock1", "solo"]


def build_churn(run: Run) -> None:
    furnish(run)
    rng = np.random.default_rng(5)
    run.objects["path"] = steer.Path([(-200.0, 0.0), (0.0, 150.0), (200.0, 0.0)], radius=20.0)
    run.objects["shared"] = steer.PriorityBlend(
        steer.AvoidWalls(),
        steer.AvoidObstacles(),
        steer.WeightedBlend((steer.Wander(), 1.0), (steer.Separation(25.0), 1.0)),
    )
    run.objects["spares"] = [
        StubSprite(*rng.uniform(-250.0, 250.0, 2)) for _ in range(len(CHURN_NAMES))
    ]
    for i in range(6):
        run.attach(f"a{i}", run.objects["spares"][i], run.objects["shared"], max_speed=100.0)


def churn(run: Run, step: int) -> None:
    world, objects, spares = run.world, run.objects, run.objects["spares"]
    if step % 10 == 5:  # attach one more, each with its own tree
        i = 6 + step // 10
        if i < 12:
            behavior = steer.PriorityBlend(
                steer.AvoidWalls(), steer.Seek((float(10 * i), -100.0 + 5.0 * i))
            )
            run.attach(f"a{i}", spares[i], behavior, velocity=(float(i), -3.0))
    if step == 12:
        world.detach(run.sprites["a1"])
    if step == 20:  # re-attached with another behaviour, from where the game left it
        run.sprites["a1"].position = (-120.0, -120.0)
        run.attach("a1", run.sprites["a1"], steer.FollowPath(objects["path"]))
    if step == 25:  # the game drops its sprite: detached at the next update
        spares[2] = None
        del run.sprites["a2"]
        gc.collect()
    if step == 15:
        objects["extra"] = world.add_obstacle((60.0, -60.0), 18.0)
        objects["wall"] = world.add_wall((-250.0, -40.0), (-50.0, -40.0), thickness=2.0)
    if step == 30:
        world.remove_shape(objects["extra"])
        world.remove_shape(objects["obstacles"][0])
    if step == 38:
        world.remove_shape(objects["wall"])
        world.add_walls([(100.0, -200.0), (200.0, -150.0), (250.0, -250.0)])
    if step == 18:
        leader = spares[12]
        run.attach("late_leader", leader, steer.Wander(), max_speed=70.0)
        group = [spares[13], spares[14]]
        guard = steer.PriorityBlend(
            steer.EvadeSightCone(leader),
            steer.WeightedBlend(
                (steer.FollowLeader(leader), 1.0), (steer.Cohesion(60.0, among=group), 0.3)
            ),
        )
        for k, sprite in enumerate(group):
            run.attach(f"late_flock{k}", sprite, guard)
    if step == 33:
        world.detach(run.sprites["late_flock0"])
    if step == 22:
        agent = world.agent_of(run.sprites["a0"])
        agent.behavior = steer.WeightedBlend(
            (steer.Arrive((0.0, 0.0)), 1.0), (steer.Alignment(50.0), 0.5)
        )
        agent.velocity = (40.0, -10.0)
        agent.max_speed = 60.0
    if step == 28:
        objects["path"].points = [(-200.0, 20.0), (0.0, 170.0), (220.0, 0.0), (220.0, -100.0)]
        objects["shared"].children[2].weights = (1.5, 0.5)
    if step == 35:
        run.sprites["a3"].position = (200.0, 200.0)  # a teleport: the world carries on there
    if step == 40:
        run.attach("solo", spares[15], steer.Pursue(run.sprites["late_leader"]), solid=False)
    if step == 44:
        for name in ("a4", "a5"):
            world.detach(run.sprites[name])


def test_churn_of_agents_walls_and_obstacles_is_bitwise_deterministic() -> None:
    dts = dt_sequence(60, seed=77)
    record = check_deterministic(build_churn, churn, CHURN_NAMES, dts)
    attached = ~np.isnan(record[..., 0])
    a = CHURN_NAMES.index
    assert attached[:12, a("a1")].all() and not attached[13:20, a("a1")].any()
    assert attached[20:, a("a1")].all()
    assert attached[:25, a("a2")].all() and not attached[26:, a("a2")].any()
    assert not attached[:40, a("solo")].any() and attached[40:, a("solo")].all()
    assert attached[:, a("a11")].sum() == len(dts) - 55


def test_a_run_after_other_work_in_the_process_gives_the_same_bits() -> None:
    # Nothing a run leaves behind in the process (class-level counters, caches, freed ids
    # that new objects reuse) may change the next run.
    dts = dt_sequence(50, seed=78)
    first, _ = simulate(build_churn, churn, CHURN_NAMES, dts)
    simulate(build_families, move_bait, family_names(), dt_sequence(20))  # other work between
    second, _ = simulate(build_churn, churn, CHURN_NAMES, dts)
    assert_bitwise_equal(first, second)


# -- real arcade sprites in a SpriteList -------------------------------------------------------

ARCADE_NAMES = [f"s{i}" for i in range(10)]


def build_arcade(run: Run) -> None:
    furnish(run)
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="determinism")
    sprites = arcade.SpriteList()
    rng = np.random.default_rng(11)
    made = []
    for _ in ARCADE_NAMES:
        x, y = rng.uniform(-200.0, 200.0, 2)
        made.append(arcade.Sprite(texture, center_x=float(x), center_y=float(y)))
    sprites.extend(made)
    run.objects["list"] = sprites
    flocking = steer.PriorityBlend(
        steer.AvoidWalls(),
        steer.AvoidObstacles(),
        steer.WeightedBlend(
            (steer.Separation(25.0, among=sprites), 2.0),
            (steer.Alignment(60.0, among=sprites), 1.0),
            (steer.Cohesion(90.0, among=sprites), 0.5),
            (steer.Wander(), 1.0),
        ),
    )
    for name, sprite in zip(ARCADE_NAMES[:8], made, strict=False):
        run.attach(name, sprite, flocking, max_speed=90.0)
    run.attach("s8", made[8], steer.Pursue(made[0]), facing="up")
    run.attach("s9", made[9], steer.Evade(made[0], threat_range=120.0))


def arcade_churn(run: Run, step: int) -> None:
    if step == 10:
        run.sprites["s3"].remove_from_sprite_lists()  # still held and steered
    if step == 15:
        run.world.detach(run.sprites["s4"])
    if step == 25:
        run.objects["list"].append(run.sprites["s3"])
        run.attach("s4", run.sprites["s4"], steer.Arrive((0.0, 0.0)), max_speed=50.0)
    if step == 30:
        run.world.remove_shape(run.objects["inner"])


def test_real_arcade_sprites_in_a_sprite_list_are_bitwise_deterministic() -> None:
    record = check_deterministic(build_arcade, arcade_churn, ARCADE_NAMES, dt_sequence(50, 3))
    s4 = ARCADE_NAMES.index("s4")
    assert np.isnan(record[16:25, s4, 0]).all() and not np.isnan(record[25:, s4, 0]).any()
    turned = np.nanmax(record[:, :8, 8], axis=0) - np.nanmin(record[:, :8, 8], axis=0)
    assert (turned > 1.0).all()  # the flock's sprites turned


# -- another interpreter, another hash seed -----------------------------------------------------

_CHILD = """
import sys
import numpy as np
sys.path[:0] = [{tests!r}]
import test_determinism as t
record, state = t.simulate(t.build_churn, t.churn, t.CHURN_NAMES, t.dt_sequence(40, seed=9))
np.save({out!r}, record)
print(state)
"""


@short_and_long("hash_seed", "4242", "1")
def test_another_process_with_another_hash_seed_gives_the_same_bits(tmp_path, hash_seed) -> None:
    out = str(tmp_path / "record.npy")
    code = _CHILD.format(tests=str(FilePath(__file__).parent), out=out)
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "ARCADE_HEADLESS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    here, state = simulate(build_churn, churn, CHURN_NAMES, dt_sequence(40, seed=9))
    assert_bitwise_equal(np.load(out), here, "record of the other process")
    assert done.stdout.strip() == state
