"""Solid agents in tight places: where walls, obstacles and gaps meet (issue #22, part 1).

Each test is a defect the one-pass push-out had: a push not swept against walls, corners
resolved one wall at a time, gaps squeezed through, an agent on a wall's line stuck to it.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

DT = 1 / 60


class Toward(steer.SteeringComponent):
    """Full force towards a point: presses agents into whatever is in the way."""

    def __init__(self, point: tuple[float, float]) -> None:
        self.point = np.array(point, dtype=float)

    def steer(self, ctx: steer.SteeringContext) -> np.ndarray:
        way = self.point - ctx.position
        length = np.maximum(np.hypot(*way.T), 1e-9)
        return way / length[:, None] * ctx.max_force[:, None]


def penetration(world: steer.SteeringWorld, sprites: list, radii: np.ndarray) -> np.ndarray:
    """How deep each agent's circle is inside the nearest wall or obstacle, px (< 0: clear)."""
    places = np.array([s.position for s in sprites])
    return radii - world.geometry.nearest(places, 100.0).distance


def test_an_obstacle_placed_over_an_agent_by_a_wall_end_does_not_push_it_through() -> None:
    # The obstacle's centre and the agent are left of the wall, so the way out of the
    # obstacle is through the wall: the agent must slide along the wall instead.
    world = steer.SteeringWorld(seed=0)
    world.add_wall((0, 0), (0, 200), thickness=1)
    sprite = StubSprite(-12, 170)
    world.attach(sprite, steer.Seek((-12, 170)), max_speed=100, radius=8)
    world.update(DT)
    world.add_obstacle((-60, 190), 70)
    for _ in range(30):
        world.update(DT)
        assert sprite.center_x < -8.0, sprite.position
    assert penetration(world, [sprite], np.array([8.0]))[0] <= 0.0


def test_agents_pressed_into_a_45_degree_corner_never_sink_into_its_walls() -> None:
    rng = np.random.default_rng(3)
    world = steer.SteeringWorld(seed=0)
    world.add_walls([(400, 0), (0, 0), (400, 400)])
    sprites, radii = [], rng.uniform(2, 20, 60)
    for radius in radii:
        angle, distance = rng.uniform(0.1, 0.68), rng.uniform(60, 300)
        sprite = StubSprite(distance * math.cos(angle), distance * math.sin(angle))
        sprites.append(sprite)
        # Steps of 0.3 to 1.2 radii: the short moves were pushed out one wall at a time.
        speed = float(rng.uniform(0.3, 1.2) * radius / DT)
        target = (-50.0, float(rng.uniform(-30, 30)))
        world.attach(sprite, Toward(target), max_speed=speed, max_force=1e5, radius=float(radius))
    for _ in range(120):
        world.update(DT)
        assert penetration(world, sprites, radii).max() <= 0.01


def test_an_obstacle_replaced_by_a_bigger_one_leaves_agents_in_their_closed_box() -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_walls([(0, 0), (200, 0), (200, 200), (0, 200)], closed=True)
    small = world.add_obstacle((100, 100), 30)
    sprites = [StubSprite(x, y) for x, y in [(50, 100), (100, 150), (160, 40), (25, 25)]]
    for sprite in sprites:
        world.attach(sprite, steer.Wander(), max_speed=120, radius=6)
    world.update(DT)
    world.remove_shape(small)
    world.add_obstacle((100, 100), 150)  # covers the whole box: no place in it is clear
    for _ in range(60):
        world.update(DT)
        places = np.array([s.position for s in sprites])
        assert ((places > 0.0) & (places < 200.0)).all(), places


@pytest.mark.parametrize("gap", [10.0, 14.0, 15.0, 15.9])
@pytest.mark.parametrize("speed", [30.0, 100.0, 300.0, 1000.0])
def test_an_agent_does_not_pass_a_gap_narrower_than_its_diameter(gap: float, speed: float) -> None:
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-300, 0), (-gap / 2, 0))
    world.add_wall((gap / 2, 0), (300, 0))
    sprite = StubSprite(3, -40)
    world.attach(sprite, steer.Seek((3, 60)), max_speed=speed, max_force=speed * 20, radius=8)
    for _ in range(240):
        world.update(DT)
    assert sprite.center_y < -math.sqrt(8.0**2 - (gap / 2) ** 2) + 1e-6, sprite.position


@pytest.mark.parametrize("start", [(0.0, 0.0), (500.0, 0.0)])
@pytest.mark.parametrize("way", [(0.0, 100.0), (0.0, -100.0), (-100.0, 100.0)])
def test_a_radius_0_agent_on_a_wall_line_leaves_it(start, way) -> None:
    # On a zero-thickness wall's line (its middle, its free end) either side is the agent's.
    world = steer.SteeringWorld(seed=0)
    world.add_wall((-500, 0), (500, 0))
    sprite = StubSprite(*start)
    target = (start[0] + way[0], start[1] + way[1])
    world.attach(sprite, steer.Seek(target), max_speed=100, max_force=1000, radius=0)
    for _ in range(60):
        world.update(DT)
    assert abs(sprite.center_y) > 50.0, sprite.position


def test_an_agent_wedged_by_its_push_slides_out_along_the_wall_it_touches() -> None:
    # Spawned overlapping the upright wall and touching the slanted one, in a gap narrower
    # than the agent that widens downwards: the push out of the upright wall goes into the
    # slanted one, but sliding along it leads out, and the agent seeks downwards.
    world = steer.SteeringWorld(seed=0)
    world.add_wall((2.6, -142.2), (0.0, 19.4), thickness=4)
    world.add_wall((44.4, -90.1), (18.7, 0.5), thickness=4)
    sprite = StubSprite(7.2, 0.1)
    world.attach(sprite, Toward((10.0, -300.0)), max_speed=150, max_force=1e4, radius=9.5)
    places = [np.array(sprite.position)]
    for _ in range(60):
        world.update(DT)
        places.append(np.array(sprite.position))
    path = np.array(places)
    # Never across either wall's core line: left of the slanted one, right of the upright one.
    assert (path[:, 0] > 0.0).all()
    along, off = np.array([18.7 - 44.4, 0.5 + 90.1]), path - [44.4, -90.1]
    assert (along[0] * off[:, 1] - along[1] * off[:, 0] > 0.0).all()
    assert sprite.center_y < -100.0, sprite.position  # out and on its way down
    assert penetration(world, [sprite], np.array([9.5]))[0] <= 0.0


def test_an_agent_pressed_into_a_door_narrower_than_it_never_sinks_deeper() -> None:
    # From the maze soak: a door 2 px narrower than the agent, which overlaps one wall's end
    # by a hair and presses on. Guarded moves that let it a hair deeper each time squeezed it
    # 0.0003 px further into the door every step.
    world = steer.SteeringWorld(seed=0)
    world.add_wall((640, 160), (668.214, 160), thickness=2)
    world.add_wall((693.415, 160), (800, 160), thickness=2)
    sprite = StubSprite(680.8158, 154.6631)
    world.attach(sprite, Toward((600, 250)), max_speed=40, max_force=1e4, radius=12.685)
    radius = np.array([12.685])
    before = penetration(world, [sprite], radius)[0]
    assert before > 0.0  # it starts inside the right-hand wall's end
    for _ in range(300):
        world.update(DT)
        assert penetration(world, [sprite], radius)[0] <= before + 1e-9
    assert sprite.center_y < 160.0
