"""10,000 walls, with and without shapes far away: their distance must not cost anything."""

from __future__ import annotations

import numpy as np

import arcade_steering as steer

from . import Results, Scenario, make_sprites, median_of
from ._field import BORDER, SIZE, WALL_THICKNESS, outside

#: The lattice's walls per side: 100 x 100 walls, one per 20 px square.
LATTICE = 100
#: Where the far shapes go, px: 10,000 km from the field.
FAR = 1e7


def build_lattice(count: int, far: bool = False) -> steer.SteeringWorld:
    """A 2000 x 2000 field holding 10,000 walls of 12 px at random angles on a 20 px lattice.

    Every agent seeks its own point with ``PriorityBlend(AvoidWalls(), Seek(...))``. With
    ``far``, one obstacle and one wall lie ``FAR`` px away, never near an agent.
    """
    rng = np.random.default_rng(4)
    world = steer.SteeringWorld(seed=0)
    world.add_walls(BORDER.tolist(), closed=True, thickness=WALL_THICKNESS)
    step = SIZE / LATTICE
    ticks = np.arange(LATTICE) * step + step / 2
    centres = np.stack(np.meshgrid(ticks, ticks), axis=-1).reshape(-1, 2)
    angle = rng.uniform(0, np.pi, len(centres))
    half = 6.0 * np.column_stack((np.cos(angle), np.sin(angle)))
    for a, b in zip((centres - half).tolist(), (centres + half).tolist(), strict=True):
        world.add_wall(tuple(a), tuple(b), thickness=2.0)
    if far:
        world.add_obstacle((FAR, SIZE / 2), 20.0)
        world.add_wall((-FAR, SIZE / 2), (-FAR + 100.0, SIZE / 2 + 50.0))
    sprites = make_sprites(count, rng, (20, 20), (SIZE - 20, SIZE - 20))
    targets = rng.uniform(50, SIZE - 50, (count, 2)).tolist()
    for sprite, target in zip(sprites, targets, strict=True):
        behavior = steer.PriorityBlend(steer.AvoidWalls(), steer.Seek(tuple(target)))
        world.attach(sprite, behavior, max_speed=100.0, max_force=300.0)
    return world


SCENARIOS = [
    Scenario("lattice", (1000,), build_lattice, outside),
    Scenario("lattice-far", (1000,), lambda count: build_lattice(count, far=True), outside),
]

BUDGETS: dict[tuple[str, int], float] = {}

#: Shapes far away may cost at most this much more than none (it was 10-19x).
FAR_VS_NONE_RATIO = 1.25


def far_shapes_cost_nothing(results: Results) -> list[str]:
    """The far obstacle and wall within 1.25x of the same lattice without them."""
    far = median_of(results, "lattice-far", 1000)
    near = median_of(results, "lattice", 1000)
    if far is not None and near is not None and far > FAR_VS_NONE_RATIO * near:
        return [f"lattice-far N=1000 is {far / near:.2f}x lattice"]
    return []


CHECKS = [far_shapes_cost_nothing]
