"""Separation, Alignment, Cohesion and AvoidAgents: flocks form, crowds part, nothing is NaN."""

from __future__ import annotations

import arcade
import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.behaviors.avoid_agents import pick_threats
from arcade_steering.debug import DebugRecorder
from arcade_steering.testing import StubSprite, batch_forces, forces_one_by_one, steering_force

DT = 1 / 60


def pair_distances(points: list) -> np.ndarray:
    """Distances between every two of ``points`` (sprites or (x, y) pairs)."""
    points = np.array([getattr(p, "position", p) for p in points], dtype=float)
    distance = np.linalg.norm(points[:, None] - points[None], axis=2)
    return distance[np.triu_indices(len(points), 1)]


# -- separation ------------------------------------------------------------------------------


def test_six_agents_on_one_spot_spread_apart(world) -> None:
    sprites = [StubSprite(100, 100) for _ in range(6)]
    for sprite in sprites:
        world.attach(sprite, steer.Separation(40), max_speed=100, max_force=400, radius=8)
    first = batch_forces(world)
    assert all(np.isfinite(force).all() and np.linalg.norm(force) > 0 for force in first.values())
    directions = np.array([force / np.linalg.norm(force) for force in first.values()])
    assert (pair_distances(list(directions)) > 0.1).all()  # six distinct directions
    for _ in range(60):
        world.update(DT)
        assert np.isfinite([sprite.position for sprite in sprites]).all()
    assert pair_distances(sprites).min() >= 16.0


def force_near(component, position, velocity=(0.0, 0.0), others=(), **options) -> np.ndarray:
    """``steering_force`` in a fresh world holding ``others``: ``(x, y, vx, vy, radius)``."""
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(x, y) for x, y, *_ in others]  # the world holds sprites weakly
    for sprite, (x, y, vx, vy, radius) in zip(sprites, others, strict=True):
        world.attach(sprite, steer.Seek((x, y)), velocity=(vx, vy), radius=radius)
    return steering_force(component, position, velocity, world=world, **options)


def test_separation_pushes_away_harder_when_closer() -> None:
    separation = steer.Separation(50)
    other = [(0, 0, 0, 0, 5)]
    near = force_near(separation, (15, 0), others=other, radius=5)
    far = force_near(separation, (40, 0), others=other, radius=5)
    beyond = force_near(separation, (60, 0), others=other, radius=5)
    assert near[0] > far[0] > 0.0
    assert near[1] == pytest.approx(0.0) and far[1] == pytest.approx(0.0)
    assert beyond.tolist() == [0.0, 0.0]


def test_separation_is_pure_repulsion() -> None:
    """Without neighbours: no force at all, whatever the agent's velocity (no braking)."""
    force = steering_force(steer.Separation(40), velocity=(80, 30))
    assert force.tolist() == [0.0, 0.0]


def test_fov_ignores_neighbours_behind() -> None:
    behind = [(-20, 0, 0, 0, 8)]  # the asking agent heads +x
    blind, seeing = steer.Separation(50, fov=180), steer.Separation(50)
    assert force_near(blind, (0, 0), (50, 0), others=behind).tolist() == [0.0, 0.0]
    assert force_near(seeing, (0, 0), (50, 0), others=behind)[0] > 0.0


# -- among -----------------------------------------------------------------------------------


def test_among_a_sprite_list_sees_sprites_appended_later(world) -> None:
    group = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="group-test")
    member, stranger = arcade.Sprite(texture, 100, 100), arcade.Sprite(texture, 100, 100)
    asker = arcade.Sprite(texture, 110, 100)
    for sprite in (member, stranger):
        world.attach(sprite, steer.Seek((100, 100)))
    world.attach(asker, steer.Separation(30, among=group), max_speed=100)
    slot = world.agent_of(asker)._slot
    assert batch_forces(world)[slot].tolist() == [0.0, 0.0]
    group.append(member)
    world.update(DT)  # membership is read once per update
    assert batch_forces(world)[slot][0] > 0.0


def test_agents_of_one_batch_each_see_only_their_own_group(world) -> None:
    reds = [StubSprite(0, 0), StubSprite(10, 0)]
    blues = [StubSprite(5, 3), StubSprite(200, 0)]
    for squad in (reds, blues):
        separation = steer.Separation(30, among=squad)
        for sprite in squad:
            world.attach(sprite, separation)
    assert len(world._agents.batches()) == 1
    got = batch_forces(world)
    alone = forces_one_by_one(world)
    for slot in got:
        assert np.allclose(got[slot], alone[slot])
    lone_blue = world.agent_of(blues[1])._slot
    assert got[lone_blue].tolist() == [0.0, 0.0]  # reds near it do not count
    near_blue = world.agent_of(blues[0])._slot
    assert got[near_blue].tolist() == [0.0, 0.0]


class _Roster:
    """A re-readable collection of sprites without ``len()``: only iterated."""

    def __init__(self, *sprites: StubSprite) -> None:
        self.sprites = list(sprites)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.sprites)


def test_groups_without_len_label_their_agents_as_lists_do(world) -> None:
    reds, blue = _Roster(StubSprite(0, 0), StubSprite(10, 0)), StubSprite(5, 3)
    blues = _Roster(blue)
    for roster in (reds, blues):
        separation = steer.Separation(30, among=roster)
        for sprite in roster:
            world.attach(sprite, separation)
    newcomer = StubSprite(5, 10)
    world.attach(newcomer, steer.Seek((5, 10)))
    world.update(DT)
    got = batch_forces(world)
    assert got[world.agent_of(blue)._slot].tolist() == [0.0, 0.0]  # the reds do not count
    assert got[world.agent_of(reds.sprites[0])._slot][0] < 0.0  # away from the other red
    blues.sprites.append(newcomer)
    world.update(DT)  # membership is read again each update
    assert batch_forces(world)[world.agent_of(blue)._slot][1] < 0.0  # away from the newcomer


def test_an_agent_given_another_among_list_between_updates_sees_its_new_group(world) -> None:
    # Two groups in one batch (so agents are labelled by group), then one Separation is handed
    # another list: its agent must now keep away from that list's member instead.
    left, right = [StubSprite(-10, 0)], [StubSprite(10, 0)]
    askers = [StubSprite(0, 0), StubSprite(0, 100)]
    for sprite in (*left, *right, StubSprite(0, 90)):
        world.attach(sprite, steer.Seek((0, 0)))
    separations = [steer.Separation(30, among=left), steer.Separation(30, among=[])]
    for asker, separation in zip(askers, separations, strict=True):
        world.attach(asker, separation)
    slot = world.agent_of(askers[0])._slot
    world.update(DT)
    assert batch_forces(world)[slot][0] > 0.0  # away from the left squad's member
    separations[0].among = right
    world.update(DT)
    assert batch_forces(world)[slot][0] < 0.0  # away from the right one's


# -- alignment and cohesion ------------------------------------------------------------------


def test_alignment_turns_towards_the_neighbours_heading() -> None:
    others = [(20, 0, 0, 50, 8), (-20, 0, 0, 70, 8)]
    force = force_near(steer.Alignment(50), (0, 0), (50, 0), others=others, max_speed=100)
    assert force[1] > 0.0 and force[0] < 0.0  # from +x towards +y
    assert steering_force(steer.Alignment(50), (500, 500), (50, 0)).tolist() == [0.0, 0.0]


def test_cohesion_pulls_towards_the_neighbours_centre_without_braking() -> None:
    others = [(40, 0, 0, 0, 8), (40, 40, 0, 0, 8)]
    force = force_near(steer.Cohesion(80), (0, 0), others=others)
    assert force[0] > 0.0 and force[1] > 0.0 and force[0] > force[1]
    centred = force_near(steer.Cohesion(80), (40, 20), (90, 0), others=others)
    assert np.allclose(centred, 0.0)


@pytest.mark.parametrize("seed", [0, 1, 5])
def test_a_flock_aligns_from_random_headings(seed) -> None:
    """40 agents in a 200 px square, neighbourhoods of 100 px: one flock, one heading.

    (With neighbourhoods much smaller than the swarm, halves may align apart and split into
    two flocks, each aligned: that is flocking too, but not what this test measures.)
    """
    rng = np.random.default_rng(seed)
    world = steer.SteeringWorld(seed=0)
    flock = steer.WeightedBlend(
        (steer.Separation(30), 1.5), (steer.Alignment(100), 1.0), (steer.Cohesion(100), 1.0)
    )
    starts, angles = rng.uniform(0, 200, (40, 2)), rng.uniform(-np.pi, np.pi, 40)
    sprites = [StubSprite(x, y) for x, y in starts]
    for sprite, angle in zip(sprites, angles, strict=True):
        velocity = (100 * np.cos(angle), 100 * np.sin(angle))
        world.attach(sprite, flock, max_speed=100, max_force=400, velocity=velocity)

    def order() -> float:
        velocity = np.array([agent.velocity for agent in world.agents])
        unit = velocity / np.linalg.norm(velocity, axis=1, keepdims=True)
        return float(np.linalg.norm(unit.mean(axis=0)))

    assert order() < 0.4
    for _ in range(5 * 60):
        world.update(DT)
    assert order() > 0.9
    assert pair_distances([agent.sprite for agent in world.agents]).min() > 10.0


# -- predictive avoidance --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [((0.0, 0.0), (400.0, 0.0)), ((-200.0, 0.0), (0.0, -200.0)), ((0.0, 0.0), (400.0, 3.0))],
    ids=["head-on", "right-angle", "almost-head-on"],
)
@pytest.mark.parametrize("dt", [1 / 60, 1 / 20])
def test_agents_on_a_collision_course_pass_without_touching(a, b, dt) -> None:
    def run(avoid: bool) -> float:
        world = steer.SteeringWorld(seed=0)
        one, two = StubSprite(*a), StubSprite(*b)
        for sprite, goal in ((one, b), (two, a)):
            behavior = steer.PriorityBlend(steer.AvoidAgents(), steer.Seek(goal))
            world.attach(sprite, behavior if avoid else steer.Seek(goal), radius=10, max_speed=100)
        closest = np.inf
        for _ in range(round(6 / dt)):
            world.update(dt)
            closest = min(closest, pair_distances([one, two])[0])
        assert np.isfinite(one.position).all() and np.isfinite(two.position).all()
        return closest

    assert run(avoid=False) < 20.0  # they would collide
    assert run(avoid=True) >= 20.0


def test_avoid_agents_is_silent_without_a_threat() -> None:
    avoid = steer.AvoidAgents(horizon=1.0)
    other = [(100, 0, 0, 50, 10)]
    # Moving apart, parallel at a safe distance, and both standing still near each other.
    assert force_near(avoid, (0, 0), (-50, 0), others=other, radius=10).tolist() == [0, 0]
    assert force_near(avoid, (100, 40), (0, 50), others=other, radius=10).tolist() == [0, 0]
    still = [(100, 0, 0, 0, 10)]
    assert force_near(avoid, (75, 0), others=still, radius=10).tolist() == [0, 0]


def test_avoid_agents_pushes_overlapping_agents_apart() -> None:
    avoid, other = steer.AvoidAgents(), [(0, 0, 0, 0, 10)]
    force = force_near(avoid, (5, 0), others=other, radius=10)
    assert force[0] > 0.0 and force[1] == pytest.approx(0.0)
    on_top = force_near(avoid, (0, 0), others=other, radius=10)
    assert np.isfinite(on_top).all() and np.linalg.norm(on_top) > 0.0


def test_avoid_agents_steers_away_from_the_predicted_position() -> None:
    """A threat crossing from the right: steer away from where it will be, not where it is."""
    threat = [(100, -80, 0, 100, 10)]
    force = force_near(steer.AvoidAgents(), (0, 0), (100, 0), others=threat, radius=10)
    # It will pass ahead of the agent: the agent turns right (down), behind it.
    assert force[1] < 0.0


def test_avoid_agents_first_in_a_crowd_keeps_agents_apart() -> None:
    rng = np.random.default_rng(1)
    world = steer.SteeringWorld(seed=0)
    sprites = []
    for index in range(12):
        angle = 2 * np.pi * index / 12
        start = (200 * np.cos(angle), 200 * np.sin(angle))
        goal = (-start[0] + rng.uniform(-5, 5), -start[1] + rng.uniform(-5, 5))
        sprite = StubSprite(*start)
        behavior = steer.PriorityBlend(steer.AvoidAgents(), steer.Arrive(goal))
        world.attach(sprite, behavior, radius=8, max_speed=80, max_force=400)
        sprites.append(sprite)
    closest = np.inf
    for _ in range(12 * 60):
        world.update(DT)
        closest = min(closest, pair_distances(sprites).min())
    assert closest > 12.0  # overlaps, if any, are shallow and pushed apart
    assert np.isfinite([sprite.position for sprite in sprites]).all()


def moving_world(agents) -> tuple[steer.SteeringWorld, list[StubSprite]]:
    """A world of agents ``(x, y, vx, vy)`` (radius 4, max_speed 400) holding their velocity."""
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(x, y) for x, y, *_ in agents]
    for sprite, (x, y, vx, vy) in zip(sprites, agents, strict=True):
        world.attach(
            sprite, steer.Seek((x + vx, y + vy)), velocity=(vx, vy), radius=4, max_speed=400
        )
    return world, sprites


def test_avoid_agents_sees_an_oncoming_agent_past_its_companions() -> None:
    """Twelve companions walk alongside, nearer than the agent coming the other way: it is
    still among the nearest half a horizon ahead, where the two would meet."""
    rng = np.random.default_rng(4)
    angle = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    distance = rng.uniform(15, 30, 12)
    companions = [
        (d * np.cos(a), d * np.sin(a), 100, 0) for a, d in zip(angle, distance, strict=True)
    ]
    world, _sprites = moving_world([*companions, (100, 0, -100, 0)])
    avoid = steer.AvoidAgents(max_neighbors=10)
    force = steering_force(avoid, (0, 0), (100, 0), world=world, radius=4, max_speed=100)
    everybody = steering_force(
        steer.AvoidAgents(max_neighbors=None), (0, 0), (100, 0), world=world, radius=4
    )
    assert np.linalg.norm(force) > 0.0
    np.testing.assert_allclose(force, everybody)


def test_avoid_agents_checks_only_max_neighbors_agents() -> None:
    """A companion alongside is nearer half a horizon ahead than a threat a second away."""
    companion, threat = (0, 20, 100, 0), (200, 3, -100, 0)
    world, _sprites = moving_world([companion, threat])
    forces = [
        steering_force(steer.AvoidAgents(max_neighbors=k), (0, 0), (100, 0), world=world, radius=4)
        for k in (1, 2, None)
    ]
    assert forces[0].tolist() == [0.0, 0.0]
    assert np.linalg.norm(forces[1]) > 0.0
    np.testing.assert_allclose(forces[1], forces[2])


def test_avoid_agents_notices_an_agent_faster_than_itself_in_time() -> None:
    """The search reaches as far as the fastest agent could come within the horizon, not
    just as far as this agent's own max_speed would suggest."""
    world, _sprites = moving_world([(280, 0, -300, 0)])  # collides in about 0.9 s
    force = steering_force(steer.AvoidAgents(), (0, 0), world=world, radius=4, max_speed=50)
    assert np.linalg.norm(force) > 0.0
    world, _sprites = moving_world([(340, 0, -300, 0)])  # beyond the horizon: silent
    force = steering_force(steer.AvoidAgents(), (0, 0), world=world, radius=4, max_speed=50)
    assert force.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(("heading", "push"), [((50, 0), 1.0), ((-50, 0), -1.0)])
def test_of_equal_threats_avoid_agents_answers_the_one_on_its_right(heading, push) -> None:
    """Overlapping two agents at once (keys tie at -1), an agent pushes away from the one on
    its right: heading +x that is the one below (y up), heading -x the one above."""
    world, _sprites = moving_world([(0, 6, 0, 0), (0, -6, 0, 0)])
    force = steering_force(steer.AvoidAgents(), (0, 0), heading, world=world, radius=4)
    assert force[0] == pytest.approx(0.0, abs=1e-9)
    assert np.sign(force[1]) == push


def test_pick_threats_takes_the_smallest_key_then_the_rightmost() -> None:
    query = np.array([0, 0, 0, 1, 1, 2, 3, 3])
    keys = np.array([0.5, 0.2, 0.2, np.nan, np.nan, -1.0, 0.3, 0.3])
    right = np.array([0.9, -0.5, 0.4, 0.0, 0.0, 0.0, 0.1, 0.1])
    assert pick_threats(query, keys, right, 5).tolist() == [2, -1, 5, 6, -1]


def test_avoid_agents_max_neighbors_is_a_whole_number_or_none() -> None:
    assert steer.AvoidAgents().max_neighbors == 10
    assert steer.AvoidAgents(max_neighbors=4.0).max_neighbors == 4
    assert steer.AvoidAgents(max_neighbors=None).max_neighbors is None
    for bad, error in ((0, ValueError), (2.5, ValueError), (-3, ValueError), ("3", TypeError)):
        with pytest.raises(error, match="max_neighbors"):
            steer.AvoidAgents(max_neighbors=bad)


def test_a_crowd_crossing_with_max_neighbors_does_as_well_as_checking_everybody() -> None:
    """60 agents on a circle each cross to the opposite point (the benchmark's crossing in
    small): checking 10 neighbours arrives about as soon, with about as many contacts."""

    def cross(max_neighbors: int | None) -> tuple[float, int]:
        count = 60
        angle = np.linspace(0, 2 * np.pi, count, endpoint=False)
        start = 100.0 * np.column_stack((np.cos(angle), np.sin(angle)))
        world = steer.SteeringWorld(seed=0)
        sprites = [StubSprite(*point) for point in start]
        for sprite, goal in zip(sprites, -start, strict=True):
            behavior = steer.PriorityBlend(
                steer.AvoidAgents(max_neighbors=max_neighbors),
                steer.WeightedBlend(
                    (steer.Arrive(tuple(goal)), 1.0), (steer.Separation(12.0), 2.0)
                ),
            )
            world.attach(sprite, behavior, max_speed=120, max_force=360, radius=4)
        contacts = 0
        for step in range(1, 30 * 60):
            world.update(DT)
            contacts += int((pair_distances(sprites) < 8.0).sum())
            position = np.array([sprite.position for sprite in sprites])
            if (np.linalg.norm(position + start, axis=1) < 8.0).mean() >= 0.95:
                return step * DT, contacts
        raise AssertionError("the crowd did not arrive")

    arrival, contacts = cross(10)
    arrival_all, contacts_all = cross(None)
    assert arrival <= 1.2 * arrival_all
    assert contacts <= 1.2 * contacts_all


# -- debug and batching ----------------------------------------------------------------------


def test_debug_records_separation_and_radii_only_on_demand(world) -> None:
    sprites = [StubSprite(x, 0) for x in (0, 10)]
    for sprite in sprites:
        world.attach(sprite, steer.Separation(30))
    quiet = DebugRecorder()
    batch_forces(world, debug=quiet)
    assert sum(len(chunk) for chunks in quiet.segments.values() for chunk in chunks) == 2 * 2
    for agent in world.agents:
        agent.behavior = steer.Separation(30, debug_radius=True)
    loud = DebugRecorder()
    batch_forces(world, debug=loud)
    assert sum(len(c) for chunks in loud.segments.values() for c in chunks) > 2 * 2 * 10


def test_group_components_batched_equal_alone() -> None:
    rng = np.random.default_rng(3)
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(*p) for p in rng.uniform(0, 150, (30, 2))]
    halves = (sprites[:15], sprites[15:])
    for index, sprite in enumerate(sprites):
        squad = halves[index % 2]
        behavior = steer.PriorityBlend(
            steer.AvoidAgents(among=squad),
            steer.WeightedBlend(
                (steer.Separation(25 + index % 3, among=squad), 1.5),
                (steer.Alignment(50, fov=270), 1.0),
                (steer.Cohesion(50, among=squad), 1.0),
            ),
        )
        angle = rng.uniform(-np.pi, np.pi)
        world.attach(sprite, behavior, velocity=(60 * np.cos(angle), 60 * np.sin(angle)))
    for _ in range(10):
        world.update(DT)
    assert len(world._agents.batches()) == 1
    got, alone = batch_forces(world), forces_one_by_one(world)
    assert all(np.allclose(got[slot], alone[slot]) for slot in got)


def test_avoid_agents_with_mixed_horizons_and_limits_batched_equal_alone() -> None:
    """Each agent looks ahead by its own horizon and checks its own number of neighbours,
    whichever agents share its batch."""
    rng = np.random.default_rng(6)
    world = steer.SteeringWorld(seed=0)
    sprites = [StubSprite(*p) for p in rng.uniform(0, 120, (40, 2))]
    for index, sprite in enumerate(sprites):
        avoid = steer.AvoidAgents(
            horizon=(0.5, 1.0, 2.0)[index % 3], max_neighbors=(1, 3, None, 10)[index % 4]
        )
        angle = rng.uniform(-np.pi, np.pi)
        velocity = (80 * np.cos(angle), 80 * np.sin(angle))
        world.attach(sprite, steer.PriorityBlend(avoid, steer.Seek((60, 60))), velocity=velocity)
    for _ in range(5):
        world.update(DT)
    assert len(world._agents.batches()) == 1
    got, alone = batch_forces(world), forces_one_by_one(world)
    assert sum(np.linalg.norm(force) > 0 for force in got.values()) > 10
    assert all(np.allclose(got[slot], alone[slot]) for slot in got)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [steer.Separation, steer.Alignment, steer.Cohesion])
@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"radius": 0}, ValueError, "radius"),
        ({"radius": -5}, ValueError, "radius"),
        ({"radius": float("nan")}, ValueError, "radius"),
        ({"radius": "10"}, TypeError, "radius"),
        ({"radius": 10, "among": 3}, TypeError, "among"),
        ({"radius": 10, "among": "abc"}, TypeError, "among"),
        ({"radius": 10, "among": StubSprite()}, TypeError, "among"),
        ({"radius": 10, "among": iter([])}, TypeError, "among"),
        ({"radius": 10, "fov": 0}, ValueError, "fov"),
        ({"radius": 10, "fov": 361}, ValueError, "fov"),
        ({"radius": 10, "debug_radius": 1}, TypeError, "debug_radius"),
    ],
)
def test_group_components_refuse_bad_input(make, kwargs, error, name) -> None:
    with pytest.raises(error, match=name):
        make(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "name"),
    [
        ({"horizon": 0}, ValueError, "horizon"),
        ({"horizon": -1}, ValueError, "horizon"),
        ({"margin": -1}, ValueError, "margin"),
        ({"among": 5}, TypeError, "among"),
    ],
)
def test_avoid_agents_refuses_bad_input(kwargs, error, name) -> None:
    with pytest.raises(error, match=name):
        steer.AvoidAgents(**kwargs)


def test_refused_assignment_keeps_the_old_value() -> None:
    separation = steer.Separation(30)
    with pytest.raises(ValueError, match="radius"):
        separation.radius = -1
    assert separation.radius == 30


def test_agents_among_an_empty_list_beside_agents_among_everyone(world) -> None:
    # One batch, two groups: the second group holds no agent and every agent is in the first.
    sprites = [StubSprite(i * 5.0, 0.0) for i in range(10)]
    everyone, nobody = list(sprites), []
    agents = [
        world.attach(sprite, steer.Separation(30.0, among=everyone if i < 5 else nobody))
        for i, sprite in enumerate(sprites)
    ]
    world.update(1 / 60)
    assert all(agent.speed == 0.0 for agent in agents[5:])  # nobody to keep apart from
    assert agents[0].velocity[0] < 0.0  # pushed off the line by the ones to its right


def test_among_refuses_members_that_are_no_sprites_naming_the_parameter() -> None:
    # Separation(20, among=[(1, 2)]) used to be accepted and silently steer by nothing.
    with pytest.raises(TypeError, match=r"among\[0\] must be a sprite"):
        steer.Separation(20, among=[(1, 2)])
    with pytest.raises(TypeError, match=r"among\[1\] must be a sprite"):
        steer.AvoidAgents(among=[StubSprite(), "x"])
    separation = steer.Separation(20)
    with pytest.raises(TypeError, match="among"):
        separation.among = [3]
    assert separation.among is None  # nothing changed
