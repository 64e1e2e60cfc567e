"""Golden trajectories: the same seed and script give the same bits as when they were recorded.

The determinism tests compare two runs of today's code; these compare today's code with the
bits recorded in ``golden_trajectories.json``, so a restructuring that should change nothing
is shown to change nothing. Each scenario's record (every agent's position, velocity, force,
heading and sprite angle after every update, and the random generator's final state) is
hashed; the final positions are stored too, to say where a difference shows.

A change that is meant to move agents differently (a new kernel, another rounding) records
again, on purpose and in its own commit::

    python tests/test_golden.py --record

The bits hold for one rounding of numpy's ``sin``, ``cos``, ``arctan2`` and the like, and
numpy picks their code by the CPU: AVX-512 rounds some last bits differently from AVX2. So
each scenario keeps a hash per rounding, keyed by :func:`rounding`, and ``--record`` records
every rounding this machine can give (it runs again with numpy's faster paths turned off,
``NPY_DISABLE_CPU_FEATURES``). On a rounding not recorded, the final positions must agree to
:data:`UNRECORDED_TOLERANCE` px instead.
"""

from __future__ import annotations

import hashlib
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
from test_determinism import (
    ARCADE_NAMES,
    CHURN_NAMES,
    Run,
    arcade_churn,
    build_arcade,
    build_churn,
    build_families,
    churn,
    dt_sequence,
    family_names,
    furnish,
    move_bait,
    no_script,
    simulate,
)

import arcade_steering as steer
from arcade_steering.testing import StubSprite

#: Every test runs on the native step and on numpy only: the same bits on both.
pytestmark = pytest.mark.usefixtures("both_paths")

GOLDEN = FilePath(__file__).with_name("golden_trajectories.json")

# -- scenarios beyond the determinism tests' ----------------------------------------------------

SQUADS, SQUAD_SIZE = 3, 5


def squad_names() -> list[str]:
    names = [f"leader{s}" for s in range(SQUADS)]
    return names + [f"s{s}_{i}" for s in range(SQUADS) for i in range(SQUAD_SIZE)]


def build_squads(run: Run) -> None:
    """Squads with their own lists, leaders and paths: per-agent groups, targets and paths in
    one batch, AvoidAgents among a group, a moving path."""
    furnish(run)
    rng = np.random.default_rng(17)
    routes = [
        steer.Path([(-250.0, -250.0 + 60 * s), (250.0, -220.0 + 50 * s), (0.0, 250.0)], 20.0, True)
        for s in range(SQUADS)
    ]
    run.objects["routes"] = routes
    for s in range(SQUADS):
        leader = StubSprite(*routes[s].points[0])
        run.attach(
            f"leader{s}",
            leader,
            steer.PriorityBlend(
                steer.AvoidWalls(), steer.FollowPath(routes[s], prediction=0.2 + 0.1 * s)
            ),
            max_speed=70.0 + 10 * s,
        )
        members = [StubSprite(*rng.uniform(-250.0, 250.0, 2)) for _ in range(SQUAD_SIZE)]
        for i, sprite in enumerate(members):
            run.attach(
                f"s{s}_{i}",
                sprite,
                steer.PriorityBlend(
                    steer.AvoidWalls(),
                    steer.AvoidObstacles(),
                    steer.AvoidAgents(among=members, max_neighbors=None if s == 2 else 4),
                    steer.EvadeSightCone(leader, length=90.0 + 5 * s, half_angle=25.0),
                    steer.WeightedBlend(
                        (steer.FollowLeader(leader, distance=40.0 + 5 * i), 1.0),
                        (steer.Separation(28.0, among=members), 1.5 + 0.1 * i),
                        (steer.Cohesion(70.0, among=members, fov=200.0), 0.2),
                    ),
                ),
                max_speed=110.0,
                radius=6.0 + i,
            )


def move_routes(run: Run, step: int) -> None:
    if step % 7 == 3:
        route = run.objects["routes"][1]
        route.points = route.points + np.array([2.0 * np.sin(0.3 * step), 1.5])


CROWD = 40


def crowd_names() -> list[str]:
    return [f"c{i}" for i in range(CROWD)]


def build_crowd(run: Run) -> None:
    """A dense crossing in a walled box: solid agents, AvoidAgents, Arrive with per-agent
    parameters, different masses and response times."""
    furnish(run)
    for i in range(CROWD):
        angle = 2.0 * np.pi * i / CROWD
        start = 220.0 * np.array([np.cos(angle), np.sin(angle)])
        run.attach(
            f"c{i}",
            StubSprite(*start, width=10 + i % 7, height=12),
            steer.PriorityBlend(
                steer.AvoidWalls(),
                steer.AvoidAgents(horizon=0.5 + 0.05 * (i % 5), margin=2.0),
                steer.Arrive(tuple(-start), slowing_radius=40.0 + i, tolerance=1.0 + i % 3),
            ),
            max_speed=60.0 + 3 * i,
            mass=1.0 + 0.1 * (i % 4),
            response_time=0.05 + 0.02 * (i % 6),
            facing=float(15 * i),
        )


def physics_names() -> list[str]:
    return [f"p{i}" for i in range(6)] + ["free"]


def build_physics(run: Run) -> None:
    """Agents driven by an arcade.PymunkPhysicsEngine beside one the world moves."""
    engine = arcade.PymunkPhysicsEngine(damping=0.9)
    run.world = steer.SteeringWorld(seed=0, physics=engine)
    run.objects["engine"] = engine
    run.world.add_walls([(0, 0), (600, 0), (600, 400), (0, 400)], closed=True)
    for i in range(6):
        sprite = arcade.SpriteSolidColor(20, 20, color=arcade.color.BLUE)
        sprite.position = (60.0 + 80 * i, 60.0 + 40 * (i % 3))
        engine.add_sprite(sprite, moment_of_inertia=arcade.PymunkPhysicsEngine.MOMENT_INF)
        run.attach(
            f"p{i}",
            sprite,
            steer.WeightedBlend((steer.Arrive((300.0, 300.0)), 1.0), (steer.Separation(40.0), 2.0)),
        )
    run.attach("free", StubSprite(500.0, 350.0), steer.Seek((50.0, 50.0)), max_speed=80.0)


def step_engine(run: Run, step: int) -> None:
    if step:
        run.objects["engine"].step(1 / 60)


Build = Callable[[Run], None]
Script = Callable[[Run, int], None]

SCENARIOS: dict[str, tuple[Build, Script, Callable[[], list[str]], list[float]]] = {
    "families": (build_families, move_bait, family_names, dt_sequence(120)),
    "churn": (build_churn, churn, lambda: CHURN_NAMES, dt_sequence(60, seed=77)),
    "arcade": (build_arcade, arcade_churn, lambda: ARCADE_NAMES, dt_sequence(50, 3)),
    "squads": (build_squads, move_routes, squad_names, dt_sequence(150, seed=5)),
    "crowd": (build_crowd, no_script, crowd_names, [1 / 60] * 150),
    "physics": (build_physics, step_engine, physics_names, [1 / 60] * 90),
}


#: How far (px) final positions may be from the recorded ones on a rounding not recorded.
UNRECORDED_TOLERANCE = 1e-6


def rounding() -> str:
    """A fingerprint of how this numpy rounds the functions the steering calls: the same for
    two machines whose numpy gives the same bits."""
    x = np.linspace(-20.0, 20.0, 4001)
    y = np.linspace(0.01, 60.0, 4001)
    values = (
        np.sin(x), np.cos(x), np.tan(x), np.arctan(x), np.arctan2(x, y), np.arcsin(x / 20.5),
        np.arccos(x / 20.5), np.exp(x), np.log(y), np.hypot(x, y), np.power(y, 0.37), np.tanh(x),
    )  # fmt: skip
    return hashlib.sha256(b"".join(value.tobytes() for value in values)).hexdigest()[:16]


def record_of(name: str) -> dict[str, Any]:
    """Run scenario ``name`` from scratch: the hash of its record and its final positions."""
    build, script, names, dts = SCENARIOS[name]
    record, state = simulate(build, script, names(), dts)
    digest = hashlib.sha256(record.tobytes() + state.encode()).hexdigest()
    return {"sha256": digest, "shape": list(record.shape), "final": record[-1, :, :2].tolist()}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_trajectories_match_the_recorded_bits(name: str) -> None:
    golden = json.loads(GOLDEN.read_text())[name]
    now = record_of(name)
    assert now["shape"] == golden["shape"]
    final, expected = np.array(now["final"]), np.array(golden["final"])
    worst = np.nanmax(np.abs(final - expected)) if final.size else 0.0
    recorded = golden["sha256"].get(rounding())
    if recorded is None:  # another CPU's rounding: the positions, not the bits
        assert np.array_equal(np.isnan(final), np.isnan(expected))
        assert worst <= UNRECORDED_TOLERANCE, (
            f"scenario {name!r} ends up to {worst!r} px from where it was recorded (on another "
            "numpy rounding than this machine's)"
        )
    elif now["sha256"] != recorded:
        pytest.fail(
            f"scenario {name!r} no longer gives the recorded bits (final positions differ by "
            f"up to {worst!r} px); if that is intended, record again: "
            "python tests/test_golden.py --record"
        )


def _roundings() -> list[str]:
    """Values of ``NPY_DISABLE_CPU_FEATURES`` that give every rounding this machine can: none
    turned off, then the fastest dispatched extensions turned off one by one."""
    # The dispatched extensions this CPU has, lowest first, from numpy's public build report.
    found = list(np.show_config(mode="dicts")["SIMD Extensions"]["found"])
    return [" ".join(found[len(found) - off :]) for off in range(len(found) + 1)]


def _record_here() -> None:
    """Print this process's rounding and every scenario's record, as JSON."""
    records = {name: record_of(name) for name in sorted(SCENARIOS)}
    print(json.dumps({"rounding": rounding(), "records": records}))


def _record() -> None:
    """Record every scenario for every rounding this machine gives, in fresh processes."""
    recorded: dict[str, Any] = {}
    for disabled in _roundings():
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": disabled, "PYTHONHASHSEED": "0"}
        command = [sys.executable, __file__, "--record-here"]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        run = json.loads(done.stdout.splitlines()[-1])
        for name, record in run["records"].items():
            entry = recorded.setdefault(name, {**record, "sha256": {}})
            entry["sha256"][run["rounding"]] = record["sha256"]
        print(f"rounding {run['rounding']} (turned off: {disabled or 'nothing'})")
    GOLDEN.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"recorded {len(recorded)} scenarios in {GOLDEN}")


if __name__ == "__main__":
    if sys.argv[1:] == ["--record"]:
        _record()
    elif sys.argv[1:] == ["--record-here"]:
        _record_here()
    else:
        sys.exit("usage: python tests/test_golden.py --record")
