"""Jump: the plan's figures and reasons, the run-up, and jumps made through arcade's
PymunkPhysicsEngine with gravity, over gaps and onto ledges."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.behaviors.jump import Jump, JumpPlan, UnreachableJump, plan_jump

GRAVITY = 900.0
JUMP_SPEED = 500.0  # rises 500² / 1800 = 139 px
RUN_SPEED = 250.0
FLOOR_TOP = 100.0
EDGE = 400.0  # where the take-off platform ends
SIZE = 20  # the agent's square, px
LANDING_INSET = 30.0  # how far past the ledge's edge the landing point lies
FPS = 60


# -- the plan ---------------------------------------------------------------------------------


def test_plan_lands_on_the_landing_point_by_its_own_figures():
    plan = plan_jump((0, 0), (120, 60), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=300)
    assert isinstance(plan, JumpPlan)
    (vx, vy), t = plan.velocity, plan.airtime
    assert vy == JUMP_SPEED
    assert vx * t == pytest.approx(120.0)
    assert vy * t - GRAVITY * t * t / 2 == pytest.approx(60.0)
    assert vy - GRAVITY * t < 0.0  # comes down onto the ledge, not up through it
    assert plan.flight_speed == pytest.approx(math.hypot(vx, vy))


def test_plan_to_the_left_and_down():
    plan = plan_jump((0, 0), (-100, -80), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=300)
    assert isinstance(plan, JumpPlan)
    vx, vy = plan.velocity
    assert vx < 0.0
    landing_vy = vy - GRAVITY * plan.airtime
    assert plan.flight_speed == pytest.approx(math.hypot(vx, landing_vy))
    assert plan.flight_speed > math.hypot(vx, vy)


def test_too_high_is_reported_with_its_figures():
    plan = plan_jump((0, 0), (50, 150), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=300)
    assert not plan
    assert isinstance(plan, UnreachableJump)
    assert plan.reason == "too high: 150 px up, a jump of 500 px/s rises 139 px"


def test_too_far_is_reported_with_its_figures():
    plan = plan_jump((0, 0), (400, 0), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=300)
    assert isinstance(plan, UnreachableJump)
    assert plan.reason == "too far: 400 px in 1.11 s takes 360 px/s, run_speed is 300"


def test_exactly_the_jump_height_is_reachable():
    height = JUMP_SPEED**2 / (2 * GRAVITY)
    plan = plan_jump((0, 0), (50, height), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=300)
    assert isinstance(plan, JumpPlan)
    assert plan.airtime == pytest.approx(JUMP_SPEED / GRAVITY)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"takeoff": (0, math.nan)}, ValueError, "takeoff"),
        ({"landing": "far"}, TypeError, "landing"),
        ({"gravity": 0.0}, ValueError, "gravity"),
        ({"gravity": -900.0}, ValueError, "gravity"),
        ({"jump_speed": math.inf}, ValueError, "jump_speed"),
        ({"run_speed": None}, TypeError, "run_speed"),
    ],
)
def test_plan_refuses_bad_input_naming_the_parameter(kwargs, error, name):
    args = {
        "takeoff": (0, 0),
        "landing": (100, 0),
        "gravity": GRAVITY,
        "jump_speed": JUMP_SPEED,
        "run_speed": RUN_SPEED,
        **kwargs,
    }
    with pytest.raises(error, match=name):
        plan_jump(**args)


def test_component_refuses_bad_input_naming_the_parameter():
    with pytest.raises(ValueError, match="gravity"):
        Jump((0, 0), (100, 0), gravity=-1.0, jump_speed=JUMP_SPEED, run_speed=RUN_SPEED)
    jump = Jump((0, 0), (100, 0), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=RUN_SPEED)
    with pytest.raises(TypeError, match="position"):
        jump.at_takeoff("here")


def test_at_takeoff_only_just_past_the_takeoff_point_towards_the_landing():
    jump = Jump((100, 0), (0, 0), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=RUN_SPEED)
    assert [jump.at_takeoff((x, 0)) for x in (110, 100, 95, 92, 91)] == [
        False,
        True,
        True,
        True,
        False,
    ]
    far = Jump((0, 0), (900, 0), gravity=GRAVITY, jump_speed=JUMP_SPEED, run_speed=RUN_SPEED)
    assert not far.at_takeoff((0, 0))  # unreachable: never says jump


# -- jumps through the engine -----------------------------------------------------------------


def _platform(engine: arcade.PymunkPhysicsEngine, left: float, right: float, top: float) -> None:
    block = arcade.SpriteSolidColor(int(right - left), int(top), color=arcade.color.GRAY)
    block.position = ((left + right) / 2, top / 2)
    engine.add_sprite(block, body_type=arcade.PymunkPhysicsEngine.STATIC, friction=0.2)


def _run_jump(gap: float, height: float, seconds: float = 4.0) -> dict[str, object]:
    """An agent runs from 120 px before the edge, jumps ``gap`` onto a ledge ``height`` up."""
    engine = arcade.PymunkPhysicsEngine(gravity=(0, -GRAVITY))
    _platform(engine, 0.0, EDGE, FLOOR_TOP)
    ledge_left = EDGE + gap
    ledge_top = FLOOR_TOP + height
    _platform(engine, ledge_left, ledge_left + 400.0, ledge_top)
    world = steer.SteeringWorld(seed=0, physics=engine)
    agent = arcade.SpriteSolidColor(SIZE, SIZE, color=arcade.color.WHITE)
    agent.position = (EDGE - 120.0, FLOOR_TOP + SIZE / 2)
    engine.add_sprite(agent, mass=1.0, moment_of_inertia=arcade.PymunkPhysicsEngine.MOMENT_INF)
    jump = Jump(
        (EDGE - SIZE / 2, FLOOR_TOP + SIZE / 2),
        (ledge_left + LANDING_INSET, ledge_top + SIZE / 2),
        gravity=GRAVITY,
        jump_speed=JUMP_SPEED,
        run_speed=RUN_SPEED,
    )
    world.attach(agent, jump, max_speed=1500.0, max_force=2000.0, rotate=False)
    jumps = 0
    for _ in range(int(seconds * FPS)):
        world.update(1 / FPS)
        if jump.at_takeoff(agent.position) and engine.is_on_ground(agent):
            engine.set_velocity(agent, jump.plan.velocity)
            jumps += 1
        engine.step(1 / FPS)
        assert np.isfinite(agent.position).all()
    bottom = agent.center_y - SIZE / 2
    landed = abs(bottom - ledge_top) < 2.0 and agent.center_x > ledge_left
    return {"plan": jump.plan, "jumps": jumps, "landed": landed, "x": agent.center_x}


GAPS = range(40, 201, 20)
HEIGHTS = (-60, -30, 0, 30, 60, 90, 110, 125, 135, 139, 145)


def test_reachable_jumps_land_and_unreachable_ones_are_not_attempted():
    """The figure: over gaps of 40-200 px and ledges from 60 px down to the jump's height,
    the share of reachable jumps that land (>= 95%); the unreachable ones never leave."""
    reachable = landed = 0
    for gap in GAPS:
        for height in HEIGHTS:
            outcome = _run_jump(gap, height)
            if outcome["plan"]:
                reachable += 1
                landed += bool(outcome["landed"])
            else:
                assert outcome["jumps"] == 0
                assert outcome["x"] < EDGE - SIZE / 2 + 1.0  # held back from the edge
    print(f"{landed}/{reachable} reachable jumps landed")
    assert reachable >= 50
    assert landed >= 0.95 * reachable


def test_steers_along_x_only_runs_at_the_plans_speed_and_brakes_past_the_landing():
    """Agents at rest before the take-off, in the air, past the landing, and before an
    unreachable jump: forces along x only, towards the plan's speed, back to the landing, and
    none for the jump that cannot be made."""
    world = steer.SteeringWorld(seed=0)
    reachable = Jump((0, 0), (150, 0), gravity=GRAVITY, jump_speed=450.0, run_speed=RUN_SPEED)
    too_far = Jump((0, 0), (900, 0), gravity=GRAVITY, jump_speed=450.0, run_speed=RUN_SPEED)
    cases = [(reachable, (-100, 0), (0, 0)), (reachable, (60, 80), (150, 200))]
    cases += [(reachable, (220, 0), (0, 0)), (too_far, (-100, 0), (0, 0))]
    sprites = []  # the world keeps weak references only
    for jump, position, velocity in cases:
        sprite = arcade.SpriteSolidColor(SIZE, SIZE, color=arcade.color.WHITE)
        sprite.position = position
        sprites.append(sprite)
        world.attach(sprite, jump)
        world.agent_of(sprite).velocity = velocity
    forces = world.steering_forces()
    assert np.isfinite(forces).all()
    assert (forces[:, 1] == 0.0).all()
    run_up, flight, past, held = forces[:, 0]
    assert run_up == pytest.approx(150.0 / 0.1)  # (150 px/s - 0) / response_time
    assert flight == 0.0  # already at the plan's horizontal speed
    assert past < 0.0  # back towards the landing point
    assert held == 0.0  # stands still: not attempted
