"""Behaviour trees in a level: a spawn point's ``behavior`` property, read at load, built
with the game's objects, every fault a LevelError naming the spawn and the field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from levels import tiled_object, write_map

import arcade_steering as steer
from arcade_steering.testing import StubSprite
from arcade_steering.tiled import LevelError, load_level

GUARD = {
    "version": 1,
    "type": "PriorityBlend",
    "children": [
        {"type": "Flee", "target": {"ref": "player"}, "panic_distance": 40},
        {"type": "FollowPath", "path": {"ref": "patrol"}, "at_end": "loop"},
    ],
}


def _level(tmp_path: Path, behavior: Any, *, also: Any = None) -> Path:
    def spawn(object_id: int, x: float, value: Any) -> dict:
        properties = [] if value is None else [{"name": "behavior", "type": "string",
                                                 "value": value}]  # fmt: skip
        return tiled_object("point", id=object_id, name="guard", x=x, y=40,
                            properties=properties)  # fmt: skip

    route = tiled_object(
        id=9, name="patrol", x=20, y=20, polygon=[{"x": 0, "y": 0}, {"x": 200, "y": 0},
                                                 {"x": 200, "y": 100}],
    )  # fmt: skip
    spawns = [spawn(1, 30, behavior)]
    if also is not None:
        spawns.append(spawn(2, 60, also))
    layers = {"walls": [], "obstacles": [], "paths": [route], "spawns": spawns}
    return write_map(tmp_path, layers)


def test_a_spawn_points_behaviour_is_built_with_the_games_objects(tmp_path: Path) -> None:
    world = steer.SteeringWorld(seed=0)
    level = load_level(_level(tmp_path, json.dumps(GUARD)), world)
    assert level.behaviors == {"guard": GUARD}
    player = StubSprite(500, 500)
    tree = level.behavior("guard", {"player": player})
    assert isinstance(tree, steer.PriorityBlend)
    flee, follow = tree.children
    assert flee.target is player
    assert follow.path is level.paths["patrol"]  # the level's route, by name
    guard = StubSprite(*level.spawns["guard"][0])
    world.attach(guard, tree, max_speed=80)
    for _ in range(240):
        world.update(1 / 60)
    projection = level.paths["patrol"].project(np.array([guard.position]))
    assert projection.offset[0] < 25  # on its route
    assert projection.distance[0] > 100  # and along it


def test_the_same_tree_written_by_to_dict_loads(tmp_path: Path) -> None:
    player = StubSprite(0, 0)
    tree = steer.Seek(player)
    data = json.dumps(steer.to_dict(tree, names={"player": player}))
    level = load_level(_level(tmp_path, data, also=data), steer.SteeringWorld())
    assert level.behavior("guard", lambda name: player).target is player


@pytest.mark.parametrize(
    ("behavior", "message"),
    [
        ("{not json", r"property 'behavior' is not JSON"),
        ("[" * 100_000, r"property 'behavior' is not JSON"),
        ('{"type": "Seek"}', r"property 'behavior' must be a behaviour tree, \{\"version\": 1"),
        ("3", r"property 'behavior' must be a behaviour tree"),
    ],
)
def test_a_behaviour_that_is_not_a_tree_is_refused_at_load(tmp_path, behavior, message) -> None:
    world = steer.SteeringWorld()
    with pytest.raises(LevelError, match=r"map.tmj: layer 'spawns', object 1 'guard': " + message):
        load_level(_level(tmp_path, behavior), world)
    assert len(world.space.shapes) == 0  # nothing added


def test_spawns_sharing_a_name_must_share_the_behaviour(tmp_path: Path) -> None:
    other = json.dumps({"version": 1, "type": "Wander"})
    with pytest.raises(LevelError, match=r"object 2 'guard'.*have another behaviour"):
        load_level(_level(tmp_path, json.dumps(GUARD), also=other), steer.SteeringWorld())


@pytest.mark.parametrize(
    ("tree", "resolve", "message"),
    [
        (GUARD, {}, r"spawn 'guard', property 'behavior': tree.children\[0\].target: resolve="),
        ({**GUARD, "children": [{"type": "Seek", "target": [1, None]}]}, {},
         r"tree.children\[0\].target"),
        ({"version": 1, "type": "Arrive", "target": [0, 0], "tolerance": -1}, {},
         r"tree.tolerance must be >= 0"),
        ({"version": 1, "type": "Arrive", "target": [0, 10**400]}, {},
         r"tree.target\[1\] \(y\) is too large: a whole number of 401 digits"),
    ],
)  # fmt: skip
def test_a_tree_that_cannot_be_built_names_spawn_and_field(tmp_path, tree, resolve, message):
    level = load_level(_level(tmp_path, json.dumps(tree)), steer.SteeringWorld())
    with pytest.raises(LevelError, match=r"map.tmj: layer 'spawns', .*" + message):
        level.behavior("guard", resolve)


def test_asking_for_a_spawn_without_a_behaviour_is_a_key_error(tmp_path: Path) -> None:
    level = load_level(_level(tmp_path, None), steer.SteeringWorld())
    assert level.behaviors == {}
    with pytest.raises(KeyError, match="no spawn point named 'guard' has a 'behavior'"):
        level.behavior("guard")
