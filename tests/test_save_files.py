"""Save files: a world written by one process and read by another plays on to the same bits;
a save from a stranger is refused with the field named, and nothing changes."""

from __future__ import annotations

import base64
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import save_scene
from conftest import short_and_long

import arcade_steering as steer
from arcade_steering.testing import StubSprite

TESTS = Path(__file__).parent
ROOT = TESTS.parent


def _saved_game() -> tuple[steer.SteeringWorld, dict[str, Any], bytes]:
    """The scene played 70 frames, with churn on the way, and its save then."""
    world, names = save_scene.build()
    save_scene.play(world, names, 0, 40)
    save_scene.churn(world, names)
    save_scene.play(world, names, 40, 30)
    return world, names, steer.save_world(world, names=names, level="scene")


@pytest.fixture(scope="module")
def saved() -> bytes:
    """The save of ``_saved_game()``, made once: tests that only read it share it."""
    return _saved_game()[2]


def _state(world: steer.SteeringWorld) -> tuple:
    """What a refused load must leave as it was."""
    snapshot = world.snapshot()
    columns = snapshot.agents.arrays.columns
    rows = [(columns[n][s].tolist(), n) for s in snapshot.agents.order for n in ("position",)]
    sprites = [(a.sprite, a.position, a.velocity, a.sprite.angle) for a in world.agents]
    return tuple(world.space.shapes), sprites, rows, snapshot.digest()


# -- the same bits in another process --------------------------------------------------------------

LOADER = """
import json, sys
import numpy as np
sys.path.insert(0, {tests!r})
import arcade_steering as steer
import save_scene

world, names = save_scene.build()
with open({game!r}) as file:  # the game's own save: where its path was reshaped to
    names["patrol"].points = json.load(file)["patrol"]
steer.load_world(world, {save!r}, resolve=names, level="scene")
np.save({out!r}, save_scene.play(world, names, 70, {updates}))
"""


@short_and_long("updates", 60, 300)
def test_a_save_read_in_another_process_plays_the_next_updates_to_the_same_bits(
    tmp_path: Path, updates: int
) -> None:
    world, names, _ = _saved_game()
    save = tmp_path / "slot1.save"
    steer.save_world(world, save, names=names, level="scene")
    game = tmp_path / "game.json"
    game.write_text(json.dumps({"patrol": names["patrol"].points.tolist()}))
    expected = save_scene.play(world, names, 70, updates)
    out = tmp_path / "loaded.npy"
    script = LOADER.format(
        tests=str(TESTS), game=str(game), save=str(save), out=str(out), updates=updates
    )
    subprocess.run(
        [sys.executable, "-c", script], check=True, cwd=ROOT, timeout=300, capture_output=True
    )
    loaded = np.load(out)
    assert loaded.shape == expected.shape == (updates, 30, 5)
    np.testing.assert_array_equal(loaded, expected)


def test_a_save_read_into_a_new_world_of_this_process_plays_the_same_bits() -> None:
    world, names, data = _saved_game()
    expected = save_scene.play(world, names, 70, 120)
    again, again_names = save_scene.build()
    again_names["patrol"].points = names["patrol"].points
    steer.load_world(again, io.BytesIO(data), resolve=again_names, level="scene")
    assert again_names["agent-4"] not in again  # detached before the save
    np.testing.assert_array_equal(save_scene.play(again, again_names, 70, 120), expected)


def test_a_save_read_back_into_its_own_world_goes_back_like_a_snapshot() -> None:
    world, names, data = _saved_game()
    expected = save_scene.play(world, names, 70, 60)
    agent = world.agent_of(names["agent-0"])
    world.add_obstacle((0, -150), 12)
    world.detach(names["agent-1"])
    steer.load_world(world, data, resolve=names)
    np.testing.assert_array_equal(save_scene.play(world, names, 70, 60), expected)
    assert agent.attached and agent.sprite is names["agent-0"]  # same slot: the view lives


# -- what a load does to the world's walls and obstacles and agents ------------------------------


def test_walls_and_obstacles_are_matched_by_geometry_added_and_removed() -> None:
    world = steer.SteeringWorld()
    wall = world.add_wall((0, 0), (100, 0), thickness=4)
    post = world.add_obstacle((50, 50), 10)
    world.add_obstacle((-50, -50), 5)
    sprite = StubSprite(0, 20)
    world.attach(sprite, steer.Seek((100, 100)))
    world.remove_shape(post)
    world.add_obstacle((70, 70), 7)
    data = steer.save_world(world, names={"ship": sprite})

    level = steer.SteeringWorld()  # the level as built anew: the post is there again
    walls = [level.add_wall((0, 0), (100, 0), thickness=4), level.add_obstacle((50, 50), 10)]
    other = level.add_obstacle((-50, -50), 5)
    ship = StubSprite(0, 0)
    steer.load_world(level, data, resolve={"ship": ship})
    geometry = [(type(s).__name__, s.radius) for s in level.space.shapes]
    assert geometry == [("Segment", 2.0), ("Circle", 5.0), ("Circle", 7.0)]
    assert level.space.shapes[0] is walls[0] and level.space.shapes[1] is other  # kept
    assert ship in level and ship.position == sprite.position
    del wall


def test_the_agents_of_the_save_are_attached_and_others_detached() -> None:
    world = steer.SteeringWorld(seed=4)
    a, b = StubSprite(0, 0), StubSprite(40, 0)
    world.attach(a, steer.Wander(), max_speed=55, velocity=(3, 4))
    data = steer.save_world(world, names={"a": a, "b": b})
    target = steer.SteeringWorld()
    a2, b2 = StubSprite(9, 9), StubSprite(1, 1)
    target.attach(b2, steer.Seek((0, 0)))
    steer.load_world(target, data, resolve={"a": a2, "b": b2})
    assert a2 in target and b2 not in target and a2.position == (0.0, 0.0)
    agent = target.agent_of(a2)
    assert agent.max_speed == 55 and agent.velocity == (3.0, 4.0)
    assert isinstance(agent.behavior, steer.Wander)


def test_a_save_of_a_larger_world_loads_into_an_empty_one() -> None:
    world = steer.SteeringWorld(seed=2)
    sprites = [StubSprite(i * 3.0, 0) for i in range(100)]  # more slots than a new world has
    wander = steer.WeightedBlend((steer.Wander(), 1.0), (steer.Separation(20), 1.0))
    for sprite in sprites:
        world.attach(sprite, wander)
    world.update(1 / 60)
    data = steer.save_world(world, names={f"a{i}": s for i, s in enumerate(sprites)})
    empty = steer.SteeringWorld()
    again = [StubSprite(0, 0) for _ in sprites]
    steer.load_world(empty, data, resolve={f"a{i}": s for i, s in enumerate(again)})
    for _ in range(20):
        world.update(1 / 60)
        empty.update(1 / 60)
    assert [s.position for s in again] == [s.position for s in sprites]


def test_a_tree_the_game_holds_that_writes_the_same_is_kept() -> None:
    world = steer.SteeringWorld()
    leader, follower = StubSprite(0, 0), StubSprite(-30, 0)
    world.attach(leader, steer.Seek((100, 0)))
    world.attach(follower, steer.FollowLeader(leader, 20))
    names = {"leader": leader, "follower": follower}
    data = steer.save_world(world, names=names)
    again = steer.SteeringWorld()
    leader2, follower2 = StubSprite(0, 0), StubSprite(-30, 0)
    own = steer.FollowLeader(leader2, 20)
    again.attach(leader2, steer.Seek((100, 0)))
    again.attach(follower2, own)
    steer.load_world(again, data, resolve={"leader": leader2, "follower": follower2})
    assert again.agent_of(follower2).behavior is own


def test_writing_to_a_path_replaces_the_old_save_whole(tmp_path: Path) -> None:
    world = steer.SteeringWorld()
    sprite = StubSprite(0, 0)
    world.attach(sprite, steer.Seek((10, 0)))
    path = tmp_path / "slot.save"
    path.write_bytes(b"old")
    data = steer.save_world(world, path, names={"s": sprite})
    assert path.read_bytes() == data and list(tmp_path.iterdir()) == [path]
    stream = io.BytesIO()
    assert steer.save_world(world, stream, names={"s": sprite}) == data == stream.getvalue()
    with pytest.raises(OSError):
        steer.save_world(world, tmp_path / "no folder" / "slot.save", names={"s": sprite})
    assert path.read_bytes() == data
    assert json.loads(data)["version"] == steer.saves.SAVE_VERSION


# -- refused saves ------------------------------------------------------------------------------


def test_saving_an_agent_or_a_target_with_no_name_is_refused() -> None:
    world = steer.SteeringWorld()
    sprite, mouse, cat = StubSprite(0, 0), StubSprite(5, 5), StubSprite(9, 9)
    pursue = steer.Pursue(mouse)
    world.attach(sprite, pursue)
    with pytest.raises(steer.SaveFileError, match=r"save.agents\[0\] .* no name"):
        steer.save_world(world)
    with pytest.raises(steer.SaveFileError, match=r"quarry.*by name"):
        steer.save_world(world, names={"ship": sprite})
    world.update(1 / 60)  # the mouse's velocity is estimated now, for a few updates more
    pursue.quarry = cat
    with pytest.raises(steer.SaveFileError, match=r"save.tracker \(a moving target.*no name"):
        steer.save_world(world, names={"ship": sprite, "cat": cat})
    second = StubSprite(1, 1)
    world.attach(second, steer.Seek((0, 0)))
    with pytest.raises(steer.SaveFileError, match="two agents are named 'x'"):
        steer.save_world(world, names=lambda obj: "x")


# -- refused loads: the field named, nothing changed ----------------------------------------------


def _edit(data: bytes, change: Any) -> bytes:
    document = json.loads(data)
    change(document)
    return json.dumps(document).encode()


def _set_column(name: str, value: float) -> Any:
    def change(document: dict[str, Any]) -> None:
        column = document["columns"][name]
        values = np.frombuffer(base64.b64decode(column["data"]), "<f8").copy()
        values[document["agents"][0]["slot"] * (len(values) // document["capacity"])] = value
        column["data"] = base64.b64encode(values.tobytes()).decode()

    return change


def _drop_agent_slot(document: dict[str, Any]) -> None:
    document["free"].append(document["agents"][0]["slot"])


BAD = {
    "not json": (lambda data: b"{" + data, "not a save file"),
    "not a save": (lambda data: b'{"version": 1}', r"save\.format"),
    "another version": (lambda data: _edit(data, lambda d: d.update(version=2)), "version"),
    "truncated": (lambda data: data[: len(data) // 2], "not a save file"),
    "deep nesting": (lambda data: b"[" * 100_000 + b"]" * 100_000, "not a save file"),
    "NaN token": (lambda data: data.replace(b'"level":"scene"', b'"level":NaN'), "not JSON"),
    "huge int": (lambda data: data.replace(b'"capacity":', b'"capacity":' + b"9" * 5000), "JSON"),
    "missing sprite": (
        lambda data: _edit(data, lambda d: d["agents"][3].update(name="ghost")),
        r"save\.agents\[3\]\.name: resolve= gives nothing named 'ghost'",
    ),
    "slot twice": (lambda data: _edit(data, _drop_agent_slot), r"save\.free"),
    "NaN position": (
        lambda data: _edit(data, _set_column("position", float("nan"))),
        r"save\.columns\.position must be finite",
    ),
    "negative mass": (
        lambda data: _edit(data, _set_column("mass", -1.0)),
        r"save\.columns\.mass must be > 0",
    ),
    "bad base64": (
        lambda data: _edit(
            data,
            lambda d: d["columns"]["velocity"].update(
                data="!" * len(d["columns"]["velocity"]["data"])
            ),
        ),
        r"save\.columns\.velocity\.data is not base64",
    ),
    "wrong shape": (
        lambda data: _edit(data, lambda d: d["columns"]["radius"].update(shape=[3])),
        r"save\.columns\.radius\.shape",
    ),
    "object dtype": (
        lambda data: _edit(data, lambda d: d["columns"]["radius"].update(dtype="|O")),
        r"save\.columns\.radius\.dtype",
    ),
    "bad tree": (
        lambda data: _edit(data, lambda d: d["trees"][0].update(type="Seeker")),
        r"save\.trees\[0\]: tree\.type: unknown component 'Seeker'",
    ),
    "bad rng": (
        lambda data: _edit(data, lambda d: d["rng"].update(state={"state": "x"})),
        r"save\.rng",
    ),
    "unknown target": (
        lambda data: _edit(data, lambda d: d["tracker"][0].update(name="nobody")),
        r"save\.tracker\[0\]\.name",
    ),
    "bad shape": (
        lambda data: _edit(data, lambda d: d["shapes"].append(["obstacle", 0, 0, -3])),
        r"save\.shapes\[\d+\]",
    ),
    "bad state": (
        lambda data: _edit(data, lambda d: d["states"][0]["values"].update(shape=[1, 99])),
        r"save\.states\[0\]\.values\.shape",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_save_is_refused_naming_the_field_and_changes_nothing(
    case: str, saved: bytes
) -> None:
    spoil, message = BAD[case]
    world, fresh = save_scene.build()
    before = _state(world)
    with pytest.raises(steer.SaveFileError, match=message):
        steer.load_world(world, spoil(saved), resolve=fresh)
    assert _state(world) == before
    steer.load_world(world, saved, resolve=fresh)  # the good save still loads


def test_a_save_of_another_level_or_too_large_is_refused_unread(
    tmp_path: Path, saved: bytes
) -> None:
    world, fresh = save_scene.build()
    before = _state(world)
    with pytest.raises(steer.SaveFileError, match="a save of another level than 'castle'"):
        steer.load_world(world, saved, resolve=fresh, level="castle")
    path = tmp_path / "big.save"
    path.write_bytes(saved)
    with pytest.raises(steer.SaveFileError, match="larger than 1,000 bytes"):
        steer.load_world(world, path, resolve=fresh, max_bytes=1000)
    with pytest.raises(steer.SaveFileError, match="can't read"):
        steer.load_world(world, tmp_path / "missing.save", resolve=fresh)
    assert _state(world) == before


def test_a_save_naming_a_sprite_of_another_world_is_refused(saved: bytes) -> None:
    world, fresh = save_scene.build()
    other = steer.SteeringWorld()
    world.detach(fresh["agent-7"])
    other.attach(fresh["agent-7"], steer.Seek((0, 0)))
    before = _state(world)
    with pytest.raises(ValueError, match="attached to another SteeringWorld"):
        steer.load_world(world, saved, resolve=fresh)
    assert _state(world) == before


# -- fuzzed saves: every one loads or raises SaveFileError, and a refused one changes nothing ------


def _leaves(node: Any, path: tuple = ()) -> list[tuple]:
    """Paths to every value in a JSON document."""
    found = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _leaves(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _leaves(value, (*path, index))
    return found


ODD_VALUES = [None, True, -1, 0, 2**70, 1e308, -0.5, "", "x", [], [1, 2], {}, {"ref": "mouse"}]


@short_and_long("cases", 60, 300)
def test_fuzzed_saves_load_or_raise_save_file_error_and_change_nothing(
    cases: int, saved: bytes
) -> None:
    document = json.loads(saved)
    leaves = _leaves(document)[1:]
    rng = np.random.default_rng(5)
    world, fresh = save_scene.build()
    for case in range(cases):
        spoiled = json.loads(saved)
        path = leaves[rng.integers(len(leaves))]
        parent = spoiled
        for key in path[:-1]:
            parent = parent[key]
        if rng.random() < 0.2 and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = ODD_VALUES[rng.integers(len(ODD_VALUES))]
        before = _state(world)
        try:
            steer.load_world(world, json.dumps(spoiled).encode(), resolve=fresh)
        except steer.SaveFileError:
            assert _state(world) == before, f"case {case}: {path}"
        world.update(1 / 60)
        for agent in world.agents:
            assert np.isfinite(agent.position).all(), f"case {case}: {path}"
