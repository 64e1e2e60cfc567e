"""Replays: a recorded session plays back to the same bits, in the demo game too, and a
game that drifts from its recording is told at which frame."""

from __future__ import annotations

import json
from typing import Any

import arcade
import numpy as np
import pytest
import save_scene

import arcade_steering as steer
from arcade_steering.demo.game import GameView
from arcade_steering.testing import StubSprite

#: Frame times as a game sees them: uneven.
DTS = [1 / 60, 1 / 30, 1 / 144, 0.05, 1 / 60]


class Session:
    """A small game: a player the game moves itself (by ``inputs``), hunters pursuing it,
    wanderers, and walls added by the player's clicks."""

    def __init__(self) -> None:
        self.world = steer.SteeringWorld(seed=11)
        self.world.add_walls([(-300, -300), (300, -300), (300, 300), (-300, 300)], closed=True)
        self.player = StubSprite(0.0, 0.0)
        self.hunters = [StubSprite(-200.0 + 40 * i, 150.0) for i in range(5)]
        for hunter in self.hunters:
            self.world.attach(
                hunter,
                steer.WeightedBlend(
                    (steer.Pursue(self.player), 1.0),
                    (steer.Separation(30.0, among=self.hunters), 2.0),
                    (steer.Wander(), 0.5),
                ),
                max_speed=90,
                solid=True,
                radius=8,
            )

    def apply(self, inputs: tuple[Any, ...]) -> None:
        for kind, *values in inputs:
            if kind == "move":
                x, y = self.player.position
                self.player.position = (x + values[0], y + values[1])
            elif kind == "wall":
                self.world.add_wall(tuple(values[:2]), tuple(values[2:]))

    def positions(self) -> np.ndarray:
        return np.array([hunter.position for hunter in self.hunters])


def _inputs(frame: int) -> list[Any]:
    inputs: list[Any] = [["move", 1.5, -0.5]] if frame % 3 else []
    if frame == 40:
        inputs.append(["wall", -100.0, 0.0, 100.0, 20.0])
    return inputs


def _record(frames: int = 120) -> tuple[steer.Replay, np.ndarray]:
    session, replay = Session(), steer.Replay()
    for frame in range(frames):
        inputs, dt = _inputs(frame), DTS[frame % len(DTS)]
        replay.record(session.world, dt, inputs, moved={"player": session.player})
        session.apply(tuple(map(tuple, inputs)))
        session.world.update(dt)
    replay.finish(session.world)
    return replay, session.positions()


def test_a_replay_plays_back_to_the_same_bits() -> None:
    replay, recorded = _record()
    session = Session()
    played = 0
    for frame in replay.play(session.world, moved={"player": session.player}):
        session.apply(tuple(map(tuple, frame.inputs)))
        session.world.update(frame.delta_time)
        played += 1
    assert played == 120
    assert np.array_equal(session.positions(), recorded)


def test_a_replay_survives_json() -> None:
    replay, recorded = _record(60)
    loaded = steer.Replay.from_dict(json.loads(json.dumps(replay.to_dict(), allow_nan=False)))
    assert len(loaded) == 60
    session = Session()
    for frame in loaded.play(session.world, moved={"player": session.player}):
        session.apply(tuple(map(tuple, frame.inputs)))
        session.world.update(frame.delta_time)
    assert np.array_equal(session.positions(), recorded)


def test_a_game_that_drifts_is_told_the_frame() -> None:
    replay, _ = _record(60)
    session = Session()
    with pytest.raises(steer.ReplayMismatchError, match="frame 41: the world differs"):
        for frame in replay.play(session.world, moved={"player": session.player}):
            moves = tuple(tuple(item) for item in frame.inputs if item[0] == "move")
            session.apply(moves)  # forgets the wall of frame 40
            session.world.update(frame.delta_time)
    session = Session()
    with pytest.raises(steer.ReplayMismatchError, match="frame 1: "):
        for frame in replay.play(session.world, moved={"player": session.player}):
            session.apply(tuple(map(tuple, frame.inputs)))
            session.world.update(frame.delta_time * 1.001)  # a different clock


def test_the_last_frame_is_checked_after_finish() -> None:
    replay, _ = _record(10)
    session = Session()
    with pytest.raises(steer.ReplayMismatchError, match="after frame 9"):
        for index, frame in enumerate(replay.play(session.world, moved={"player": session.player})):
            session.apply(tuple(map(tuple, frame.inputs)))
            session.world.update(frame.delta_time * (2 if index == 9 else 1))


def test_rollback_then_replay_from_a_snapshot() -> None:
    session = Session()
    for _ in range(30):
        session.world.update(1 / 60)
    saved = session.world.snapshot()
    replay = steer.Replay()
    for frame in range(20):
        replay.record(session.world, 1 / 60, _inputs(frame), moved={"player": session.player})
        session.apply(tuple(map(tuple, _inputs(frame))))
        session.world.update(1 / 60)
    replay.finish(session.world)
    ahead = session.positions()
    session.world.restore(saved)
    session.player.position = (0.0, 0.0)
    for frame in replay.play(session.world, moved={"player": session.player}):
        session.apply(tuple(map(tuple, frame.inputs)))
        session.world.update(frame.delta_time)
    assert np.array_equal(session.positions(), ahead)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        (("world", 1 / 60), {}, TypeError, "world must be a SteeringWorld"),
        ((None, float("nan")), {}, ValueError, "delta_time must be finite"),
        ((None, -1.0), {}, ValueError, "delta_time must be >= 0"),
        ((None, 0.1, "key"), {}, TypeError, "inputs must be a list"),
        ((None, 0.1, [float("nan")]), {}, ValueError, "inputs must be JSON data"),
        ((None, 0.1, [object()]), {}, ValueError, "inputs must be JSON data"),
        ((None, 0.1), {"moved": [1]}, TypeError, "moved must be a mapping"),
        ((None, 0.1), {"moved": {"p": 3}}, ValueError, r"moved\['p'\] must be a sprite"),
    ],
)
def test_bad_recordings_are_refused_naming_the_argument(args, kwargs, error, message) -> None:
    world = steer.SteeringWorld()
    replay = steer.Replay()
    args = tuple(world if arg is None else arg for arg in args)
    with pytest.raises(error, match=message):
        replay.record(*args, **kwargs)
    assert len(replay) == 0


def _guards() -> tuple[steer.SteeringWorld, list[steer.SteeringAgent]]:
    """Guards that patrol and sweep their looks within turn limits: where they look changes
    nothing of where they go, so only the digest can tell."""
    world = steer.SteeringWorld(seed=9)
    agents = []
    for i in range(3):
        tree = steer.WeightedBlend((steer.Wander(), 1.0), (steer.Scan(half_angle=60), 1.0))
        agent = world.attach(
            StubSprite(40.0 * i, 0.0),
            tree,
            max_speed=60,
            max_turn_rate=90,
            max_angular_acceleration=360,
        )
        agents.append(agent)
    return world, agents


@pytest.mark.parametrize(
    "change",
    [
        lambda agent: setattr(agent, "look", (-agent.look[0], -agent.look[1])),
        lambda agent: setattr(agent, "max_turn_rate", 45.0),
        lambda agent: setattr(agent, "max_angular_acceleration", 100.0),
    ],
    ids=["look", "max_turn_rate", "max_angular_acceleration"],
)
def test_a_playback_looking_elsewhere_is_caught_at_the_first_frame_it_differs(change) -> None:
    world, guards = _guards()
    replay = steer.Replay()
    for _ in range(60):
        replay.record(world, 1 / 60)
        world.update(1 / 60)
    replay.finish(world)
    assert len(world) == len(guards) == 3

    world, agents = _guards()
    with pytest.raises(steer.ReplayMismatchError, match=r"^frame 21: "):
        for index, frame in enumerate(replay.play(world)):
            world.update(frame.delta_time)
            if index == 20:
                change(agents[1])


def test_a_replay_recorded_after_a_save_plays_back_on_the_loaded_world() -> None:
    # The digests of a world loaded from a save match the writer's: identities of one process
    # (which path a follower holds) are left out, and rows holding a state's fill count as
    # absent however the state keeps them.
    world, names = save_scene.build()
    save_scene.play(world, names, 0, 40)
    save_scene.churn(world, names)
    data = steer.save_world(world, names=names, level="scene")
    replay = steer.Replay()
    for frame in range(40, 100):
        names["mouse"].position = (frame * 2.0, 100.0)
        replay.record(world, 1 / 60, moved={"mouse": names["mouse"]})
        world.update(1 / 60)
    replay.finish(world)
    again, again_names = save_scene.build()
    again_names["patrol"].points = names["patrol"].points
    steer.load_world(again, data, resolve=again_names, level="scene")
    for frame in replay.play(again, moved={"mouse": again_names["mouse"]}):
        again.update(frame.delta_time)
    assert [a.position for a in again.agents] == [a.position for a in world.agents]


def test_frames_of_huge_delta_times_replay_in_bounded_time() -> None:
    def game() -> tuple[steer.SteeringWorld, list[StubSprite]]:
        world = steer.SteeringWorld(seed=2)
        sprites = [StubSprite(30.0 * i, 0.0) for i in range(3)]
        for sprite in sprites:
            world.attach(sprite, steer.Wander())
        return world, sprites

    world, sprites = game()
    replay = steer.Replay()
    for delta_time in (1e9, 1e308, 1 / 60):  # each at most max_substeps steps
        replay.record(world, delta_time)
        world.update(delta_time)
    replay.finish(world)
    world, played = game()
    for frame in steer.Replay.from_dict(json.loads(json.dumps(replay.to_dict()))).play(world):
        world.update(frame.delta_time)
    assert [s.position for s in played] == [s.position for s in sprites]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"version": 2, "frames": []}, "replay.version must be 1"),
        ({"version": 1, "frames": {}}, "replay.frames must be a list"),
        ({"version": 1, "frames": [3]}, r"replay.frames\[0\] must be a dictionary"),
        (
            {"version": 1, "frames": [{"delta_time": -1, "inputs": [], "moves": {}, "digest": ""}]},
            r"replay.frames\[0\].delta_time must be a finite number >= 0",
        ),
        (
            {
                "version": 1,
                "frames": [{"delta_time": 0.1, "inputs": [], "moves": {"p": [1]}, "digest": ""}],
            },
            r"replay.frames\[0\].moves\['p'\] must be \[x, y\]",
        ),
        ({"version": 1, "frames": [], "end": 5}, "replay.end must be a digest"),
        # Valid JSON, too large for a float: the field is named, not an OverflowError.
        (
            {
                "version": 1,
                "frames": [{"delta_time": 10**400, "inputs": [], "moves": {}, "digest": ""}],
            },
            r"replay.frames\[0\].delta_time must be a finite number >= 0",
        ),
        (
            {
                "version": 1,
                "frames": [
                    {"delta_time": 0.1, "inputs": [], "moves": {"p": [0, -(10**400)]}, "digest": ""}
                ],
            },
            r"replay.frames\[0\].moves\['p'\] must be \[x, y\], finite",
        ),
    ],
)
def test_malformed_replays_are_refused_naming_the_field(data, message) -> None:
    with pytest.raises(ValueError, match=message):
        steer.Replay.from_dict(data)


# -- the demo game --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def window():
    window = arcade.Window(1280, 720, "test", visible=False)
    yield window
    window.close()


#: A session of the demo game: at these frames, these handlers with these arguments.
DEMO_INPUTS = {
    5: [["key_press", arcade.key.RIGHT], ["key_press", arcade.key.UP]],
    30: [["mouse_press", 700.0, 400.0, arcade.MOUSE_BUTTON_LEFT]],
    50: [["key_release", arcade.key.UP], ["key_press", arcade.key.PLUS]],
    80: [["key_press", arcade.key.N]],
    110: [["key_release", arcade.key.RIGHT], ["key_press", arcade.key.MINUS]],
    140: [["mouse_press", 700.0, 400.0, arcade.MOUSE_BUTTON_RIGHT]],
}


def _apply(view: GameView, inputs: Any) -> None:
    for kind, *values in inputs:
        if kind == "key_press":
            view.on_key_press(values[0], 0)
        elif kind == "key_release":
            view.on_key_release(values[0], 0)
        elif kind == "mouse_press":
            view.on_mouse_press(values[0], values[1], values[2], 0)


def _sprites(view: GameView) -> dict[str, Any]:
    return {"scout": view.scene.scout}


def test_the_demo_game_replays_to_the_same_bits(window) -> None:
    view = GameView(seed=4, intro=False)
    window.show_view(view)
    replay = steer.Replay()
    start = len(view.scene.squad)
    for frame in range(180):
        dt = DTS[frame % len(DTS)]
        inputs = DEMO_INPUTS.get(frame, [])
        replay.record(view.scene.world, dt, inputs)
        _apply(view, inputs)
        view.on_update(dt)
    replay.finish(view.scene.world)
    recorded = {name: sprite.position for name, sprite in _sprites(view).items()}
    squad = [sprite.position for sprite in view.scene.squad]
    assert len(squad) == start  # one joined and one left
    assert view.state in ("sneaking", "chased")  # the round ran all along

    again = GameView(seed=4, intro=False)
    window.show_view(again)
    saved = json.loads(json.dumps(replay.to_dict()))
    for frame in steer.Replay.from_dict(saved).play(again.scene.world):
        _apply(again, frame.inputs)
        again.on_update(frame.delta_time)
    assert {name: sprite.position for name, sprite in _sprites(again).items()} == recorded
    assert [sprite.position for sprite in again.scene.squad] == squad
