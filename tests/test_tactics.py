"""Hide, Interpose, MatchVelocity and Containment: trajectories and the figures they reach."""

from __future__ import annotations

import math

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

# -- Hide ----------------------------------------------------------------------------------------

HIDE_LAYOUTS = 100
HIDE_SECONDS = 8.0
#: Layouts lie side by side in one world, this far apart: none reaches into another.
SPACING = 2000.0


def test_hide_ends_out_of_the_hunters_sight_in_nine_layouts_of_ten() -> None:
    """Random 600 x 600 px layouts of six obstacles, a wandering hunter and a hider with an
    obstacle within its reach: after 8 s the hider is hidden from the hunter by an obstacle.
    With AvoidObstacles first, as in a game, it never enters one on the way (not solid)."""
    world = steer.SteeringWorld(seed=0)
    rng = np.random.default_rng(11)
    hunters, hiders, posts = [], [], []
    while len(hiders) < HIDE_LAYOUTS:
        origin = np.array([SPACING * len(hiders), 0.0])
        centres = origin + rng.uniform(50, 550, (6, 2))
        radii = rng.uniform(15, 40, 6)
        hunter, hider = (StubSprite(*(origin + rng.uniform(0, 600, 2))) for _ in range(2))
        hide = steer.Hide(hunter)
        gaps = np.hypot(*(centres - hider.position).T) - radii
        if gaps.min() > hide.reach or gaps.min() < 10.0:
            continue  # no cover in reach (Hide would evade), or starting on an obstacle
        for centre, radius in zip(centres.tolist(), radii.tolist(), strict=True):
            world.add_obstacle(tuple(centre), radius)
        world.attach(hunter, steer.Wander(), max_speed=30)
        behavior = steer.PriorityBlend(steer.AvoidObstacles(), hide)
        world.attach(hider, behavior, max_speed=100, radius=8, solid=False)
        hunters.append(hunter)
        hiders.append(hider)
        posts.append((centres, radii))
    entered = np.zeros(HIDE_LAYOUTS, dtype=bool)
    for _ in range(int(HIDE_SECONDS * 30)):
        world.update(1 / 30)
        for index, (hider, (centres, radii)) in enumerate(zip(hiders, posts, strict=True)):
            entered[index] |= (np.hypot(*(centres - hider.position).T) - radii).min() < 7.5
    seen = world.can_see(hunters, hiders, SPACING / 2, walls=False, obstacles=True).diagonal()
    print(
        f"Hide: hidden in {1 - seen.mean():.0%} of {HIDE_LAYOUTS} layouts, "
        f"entered an obstacle in {entered.sum()}"
    )
    assert 1 - seen.mean() >= 0.9
    assert not entered.any()


def test_hide_goes_round_an_obstacle_standing_between_it_and_its_spot() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((300, 300), 40)
    hunter, hider = StubSprite(100, 300), StubSprite(230, 301)  # hider in front of the post
    world.attach(hider, steer.Hide(hunter), max_speed=100, radius=10, solid=False)
    closest = math.inf
    for _ in range(240):
        world.update(1 / 60)
        closest = min(closest, math.dist(hider.position, (300, 300)))
    assert closest >= 50.0 - 0.5  # never inside the post grown by its radius
    assert math.dist(hider.position, (360, 300)) < 3.0  # 40 + 10 + 10 px behind it
    assert not world.can_see((100, 300), hider, 1000.0, obstacles=True)


def test_hide_takes_cover_only_among_the_obstacles_given() -> None:
    world = steer.SteeringWorld(seed=0)
    near = world.add_obstacle((200, 250), 20)
    far = world.add_obstacle((400, 100), 20)
    hunter = StubSprite(0, 100)
    both, listed = StubSprite(200, 200), StubSprite(200, 200)
    world.attach(both, steer.Hide(hunter), max_speed=100, radius=5)
    world.attach(listed, steer.Hide(hunter, among=[far]), max_speed=100, radius=5)
    for _ in range(300):
        world.update(1 / 60)
    assert math.dist(both.position, (200, 250)) < 40.0
    assert math.dist(listed.position, (435, 100)) < 3.0  # 20 + 5 + 10 px behind the far one
    assert near in world.space.shapes


def test_hide_evades_when_no_obstacle_is_in_reach() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_obstacle((900, 900), 20)  # out of reach
    hunter = StubSprite(0, 0)
    world.attach(hunter, steer.Seek((1000, 0)), velocity=(40, 0))
    hider, evader = StubSprite(100, 50), StubSprite(100, 50)
    world.attach(hider, steer.Hide(hunter), velocity=(5, 5))
    world.attach(evader, steer.Evade(hunter), velocity=(5, 5))
    forces = world.steering_forces()
    np.testing.assert_array_equal(forces[1], forces[2])
    assert np.hypot(*forces[1]) > 0


# -- Interpose -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fps", [30, 60, 144])
def test_interpose_stays_at_the_midpoint_of_two_moving_targets(fps: int) -> None:
    world = steer.SteeringWorld(seed=0)
    a, b, guard = StubSprite(100, 300), StubSprite(500, 300), StubSprite(300, 0)
    square = [(100, 300), (100, 500), (300, 500), (300, 300)]
    world.attach(a, steer.FollowWaypoints(square, mode="loop"), max_speed=60)
    world.attach(b, steer.Wander(), max_speed=50)
    world.attach(guard, steer.Interpose(a, b), max_speed=120)
    gaps = []
    for frame in range(20 * fps):
        world.update(1 / fps)
        if frame >= 5 * fps:  # after 5 s to get there from 300 px away
            gaps.append(math.dist(guard.position, np.add(a.position, b.position) / 2))
    print(f"Interpose at {fps} FPS: {max(gaps):.1f} px from the midpoint at worst")
    assert max(gaps) <= 20.0


def test_interpose_between_two_points_arrives_on_their_midpoint() -> None:
    world = steer.SteeringWorld(seed=0)
    guard = StubSprite(0, 0)
    world.attach(guard, steer.Interpose((100, 0), (100, 200)), max_speed=100)
    for _ in range(300):
        world.update(1 / 60)
    assert math.dist(guard.position, (100, 100)) <= 2.0
    assert world.agent_of(guard).speed < 1.0


# -- MatchVelocity -------------------------------------------------------------------------------


def test_match_velocity_moves_as_the_target_moves_wherever_it_is() -> None:
    world = steer.SteeringWorld(seed=0)
    target, escort, far = StubSprite(0, 0), StubSprite(50, 50), StubSprite(-400, 300)
    world.attach(target, steer.Seek((5000, 1000)), max_speed=80, velocity=(80, 16))
    world.attach(escort, steer.MatchVelocity(target), max_speed=200)
    world.attach(far, steer.MatchVelocity(lambda: target.position), max_speed=200)
    for _ in range(90):
        world.update(1 / 60)
    wanted = np.array(world.agent_of(target).velocity)
    assert np.hypot(*(np.array(world.agent_of(escort).velocity) - wanted)) < 0.5
    assert np.hypot(*(np.array(world.agent_of(far).velocity) - wanted)) < 2.0  # estimated
    gap = np.subtract(escort.position, target.position)
    assert np.hypot(*(gap - (50, 50))) < 15.0  # it kept (roughly) its offset


def test_match_velocity_keeps_to_its_own_max_speed() -> None:
    world = steer.SteeringWorld(seed=0)
    target, slow = StubSprite(0, 0), StubSprite(0, 50)
    world.attach(target, steer.Seek((5000, 0)), max_speed=150, velocity=(150, 0))
    world.attach(slow, steer.MatchVelocity(target), max_speed=60)
    for _ in range(60):
        world.update(1 / 60)
    assert world.agent_of(slow).velocity == pytest.approx((60.0, 0.0), abs=0.01)


# -- Containment ---------------------------------------------------------------------------------

RECTANGLE = arcade.LRBT(0, 600, 0, 400)
#: A concave "C": the notch from the right reaches to x = 250.
NOTCHED = [(0, 0), (600, 0), (600, 160), (250, 160), (250, 240), (600, 240), (600, 400), (0, 400)]


#: A minute at 60 and 144 FPS takes 10,000+ updates: those two run with ``pytest -m slow``.
SLOW = pytest.mark.slow


@pytest.mark.parametrize("fps", [30, pytest.param(60, marks=SLOW), pytest.param(144, marks=SLOW)])
def test_no_wanderer_leaves_its_region_in_a_minute(fps: int) -> None:
    """Eight wanderers in a rectangle and eight in a concave polygon beside it (one batch,
    two regions), from places clear of the outline, for 60 s."""
    world = steer.SteeringWorld(seed=fps)
    rng = np.random.default_rng(fps)
    crowds = []
    for shift, region in ((0.0, RECTANGLE), (1000.0, NOTCHED)):
        if shift:
            region = [(x + shift, y) for x, y in region]
        contain = steer.Containment(region)
        starts = rng.uniform(40, 560, (40, 2)) + np.array([shift, 0.0])
        clear = contain.region.contains(starts)
        clear &= _distances_to_outline(starts, contain.region) > 40.0
        sprites = [StubSprite(x, y) for x, y in starts[clear][:8].tolist()]
        for sprite in sprites:
            world.attach(
                sprite,
                steer.PriorityBlend(contain, steer.Wander()),
                max_speed=120,
                radius=8,
                velocity=tuple(rng.uniform(-120, 120, 2)),
            )
        crowds.append((contain.region, sprites, [0, math.inf]))
    for _ in range(60 * fps):
        world.update(1 / fps)
        for region, sprites, seen in crowds:
            points = np.array([sprite.position for sprite in sprites])
            seen[0] += int(np.count_nonzero(~region.contains(points)))
            seen[1] = min(seen[1], float(_distances_to_outline(points, region).min()))
    for name, (_, sprites, (exits, closest)) in zip(("rectangle", "concave"), crowds, strict=True):
        print(
            f"Containment, {len(sprites)} in a {name}, {fps} FPS: {exits} exits, "
            f"closest {closest:.1f} px"
        )
    assert [len(sprites) for _, sprites, _ in crowds] == [8, 8]
    assert [seen[0] for _, _, seen in crowds] == [0, 0]


def _distances_to_outline(points: np.ndarray, region: object) -> np.ndarray:
    return np.hypot(*(points - region.nearest(points)).T)  # type: ignore[attr-defined]


def test_containment_is_silent_clear_of_the_outline_and_pushes_in_near_it() -> None:
    world = steer.SteeringWorld(seed=0)
    contain = steer.Containment(RECTANGLE)
    middle, edge = StubSprite(300, 200), StubSprite(580, 200)
    world.attach(middle, contain, velocity=(100, 0), radius=8)
    world.attach(edge, contain, velocity=(100, 0), radius=8)
    forces = world.steering_forces()
    assert forces[0].tolist() == [0.0, 0.0]
    assert forces[1][0] < 0.0


def test_an_agent_put_outside_comes_back_in() -> None:
    world = steer.SteeringWorld(seed=0)
    contain = steer.Containment(NOTCHED)
    lost = StubSprite(450, 200)  # in the notch: outside
    world.attach(lost, steer.PriorityBlend(contain, steer.Wander()), max_speed=100, radius=6)
    for _ in range(120):
        world.update(1 / 60)
    assert contain.region.contains(np.array([lost.position]))[0]


def test_regions_of_several_components_in_one_batch_each_contain_their_own() -> None:
    world = steer.SteeringWorld(seed=3)
    left, right = arcade.LRBT(0, 200, 0, 200), arcade.LRBT(300, 500, 0, 200)
    sprites = {StubSprite(100, 100): left, StubSprite(400, 100): right}
    for sprite, box in sprites.items():
        world.attach(sprite, steer.PriorityBlend(steer.Containment(box), steer.Wander()))
    for _ in range(600):
        world.update(1 / 30)
        for sprite, box in sprites.items():
            assert box.left < sprite.center_x < box.right
            assert box.bottom < sprite.center_y < box.top


def test_containment_takes_rects_and_vertices_and_refuses_four_numbers() -> None:
    assert steer.Containment(arcade.LBWH(0, 0, 100, 50)).region.points.tolist() == [
        [0.0, 0.0],
        [100.0, 0.0],
        [100.0, 50.0],
        [0.0, 50.0],
    ]
    closed = steer.Containment([(0, 0), (10, 0), (10, 10), (0, 0)])
    assert len(closed.region.points) == 3  # the closing repeat dropped
    with pytest.raises(TypeError, match=r"region.*LRBT"):
        steer.Containment((0, 0, 100, 100))
