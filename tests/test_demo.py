"""The demo game: headless runs, its summary and command line, the controls (handlers called
directly), routes, joining followers, the HUD and the panels."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import arcade
import numpy as np
import pytest
from PIL import Image

from arcade_steering.demo.__main__ import main
from arcade_steering.demo.game import HUD_MARGIN, WINDOW_HEIGHT, WINDOW_WIDTH, GameView
from arcade_steering.demo.scene import FOLLOWER_RADIUS, LEADER_RADIUS, SEPARATION_RADIUS
from arcade_steering.examples._cli import frame


def _headless_run(tmp_path: Path, frames: int) -> None:
    shot = tmp_path / "shot.png"
    command = [
        sys.executable,
        "-m",
        "demo_game",
        "--headless",
        "--frames",
        str(frames),
        "--seed",
        "3",
        "--screenshot",
        str(shot),
    ]
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=300, env=env, check=False
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["frames"] == frames
    assert summary["followers"] == 12
    assert summary["wall_crossings"] == 0
    assert summary["obstacle_penetrations"] == 0
    assert summary["in_sight_cone_fraction"] < 0.2
    assert summary["mean_distance_to_leader"] < 150
    assert summary["steering_ms_mean"] > 0
    assert summary["fps"] > 0
    image = Image.open(shot)
    assert image.mode == "RGB"  # opaque, as the window shows it
    assert image.size == (1280, 720)
    assert len(set(image.getdata())) > 50  # not blank: level, tanks, scout, flags


def test_headless_run_prints_summary_and_saves_a_frame(tmp_path: Path) -> None:
    # Each headless frame is drawn and waited for (software rendering: ~40 ms): one second.
    _headless_run(tmp_path, frames=60)


@pytest.mark.slow
def test_headless_run_of_four_seconds_keeps_the_squad_together(tmp_path: Path) -> None:
    _headless_run(tmp_path, frames=240)


@pytest.fixture(scope="module")
def window():
    window = arcade.Window(1280, 720, "test", visible=False)
    yield window
    window.close()


@pytest.fixture
def view(window) -> GameView:
    view = GameView(seed=1, intro=False)
    window.show_view(view)
    return view


def _run(view: GameView, frames: int) -> None:
    for _ in range(frames):
        view.on_update(1 / 60)


def test_the_hud_shows_the_frame_rate_after_ten_frames(view: GameView) -> None:
    for _ in range(10):
        frame(view.window)  # as headless runs do: dispatched update and draw
    fps = float(re.search(r"fps (\d+)", view.hud.text)[1])
    assert fps > 0, view.hud.text


def test_the_round_waits_on_the_intro_until_a_key(window) -> None:
    view = GameView(seed=1)
    window.show_view(view)
    leader = view.scene.leader.position
    view.on_draw()
    assert view.panel.rect[1] > view.panel.rect[0]  # the intro is up
    _run(view, 10)
    assert view.scene.leader.position == leader  # waiting
    view.on_key_press(arcade.key.F1, 0)  # F1 shows the controls, still waiting
    _run(view, 10)
    assert view.show_intro and view.show_help and view.scene.leader.position == leader
    view.on_key_press(arcade.key.F1, 0)
    view.on_key_press(arcade.key.D, 0)  # any other key starts, and does what it does
    _run(view, 30)
    assert not view.show_intro and view.scene.leader.position != leader
    assert view.scene.control.direction == (1.0, 0.0)


def _overlaps(rect: tuple[float, float, float, float], sprite: arcade.Sprite) -> bool:
    left, right, bottom, top = rect
    return not (
        sprite.right < left or sprite.left > right or sprite.top < bottom or sprite.bottom > top
    )


def test_panels_have_a_backing_clear_of_walls_and_flags(view: GameView) -> None:
    """Intro, help, pause, caught and won: each panel fits the window, and neither a wall nor
    a flag nor the scout's start lies under it."""
    scene = view.scene
    geometry = scene.world.geometry
    scout_start = scene.scout.position
    states = {
        "intro": {"show_intro": True},
        "help": {"show_help": True},
        "paused": {"paused": True},
        "caught": {"state": "caught"},
        "won": {"state": "won"},
    }
    for name, state in states.items():
        for attribute, value in state.items():
            setattr(view, attribute, value)
        view.on_draw()
        left, right, bottom, top = rect = view.panel.rect
        assert 0 < left < right < WINDOW_WIDTH and 0 < bottom < top < WINDOW_HEIGHT, name
        xs, ys = np.meshgrid(np.arange(left, right + 1, 2.0), np.arange(bottom, top + 1, 2.0))
        under = np.column_stack((xs.ravel(), ys.ravel()))
        assert not geometry.nearest(under, 1.0, kinds="walls").found.any(), name
        assert not any(_overlaps(rect, flag) for flag in scene.flags), name
        scene.scout.position = scout_start
        assert not _overlaps(rect, scene.scout), name
        view.show_intro = view.show_help = view.paused = False
        view.state = "sneaking"


def test_the_hud_line_and_its_hints_fit_side_by_side(view: GameView) -> None:
    view.state = "chased"
    view.elapsed = 999.9
    view.on_draw()
    hud, alert, hint = view.hud, view.alert, view.hint
    assert "F1" in hint.text
    assert hud.left >= HUD_MARGIN and hud.right < alert.left < alert.right < hint.left
    assert hint.right <= WINDOW_WIDTH - HUD_MARGIN + 1
    assert all(text.top <= WINDOW_HEIGHT for text in (hud, alert, hint))


def test_keys_move_the_scout(view: GameView) -> None:
    start = view.scene.scout.position
    view.on_key_press(arcade.key.D, 0)
    _run(view, 30)
    view.on_key_release(arcade.key.D, 0)
    assert view.scene.scout.center_x > start[0] + 40
    assert abs(view.scene.scout.center_y - start[1]) < 5


def test_space_toggles_debug_p_pauses_f1_help_r_restarts(view: GameView) -> None:
    view.on_key_press(arcade.key.SPACE, 0)
    assert view.show_debug
    view.on_draw()
    view.on_key_press(arcade.key.F1, 0)
    assert view.show_help and not view.running  # the game waits while the help is up
    view.on_draw()
    view.on_key_press(arcade.key.F1, 0)
    assert view.running
    view.on_key_press(arcade.key.P, 0)
    leader = view.scene.leader.position
    _run(view, 10)
    assert view.scene.leader.position == leader
    view.on_key_press(arcade.key.P, 0)
    _run(view, 10)
    assert view.scene.leader.position != leader
    old_scene = view.scene
    view.on_key_press(arcade.key.R, 0)
    assert view.scene is not old_scene and view.elapsed == 0.0


def test_plus_and_minus_change_the_squad(view: GameView) -> None:
    view.on_key_press(arcade.key.PLUS, 0)
    view.on_key_press(arcade.key.PLUS, 0)
    assert len(view.scene.squad) == 14
    view.on_key_press(arcade.key.MINUS, 0)
    assert len(view.scene.squad) == 13
    assert len(view.scene.world) == 13 + 2  # followers, leader, scout
    _run(view, 5)


@pytest.fixture(scope="module")
def long_round(window) -> tuple[GameView, float]:
    """A round run for 20 s once for the tests that need a squad under way: the view, and the
    closest any follower came to the leader over those 20 s."""
    view = GameView(seed=1, intro=False)
    window.show_view(view)
    scene = view.scene
    leader = scene.world.agent_of(scene.leader)
    closest = np.inf
    for _ in range(20 * 60):
        view.on_update(1 / 60)
        positions = np.array([scene.world.agent_of(s).position for s in scene.squad])
        closest = min(closest, np.hypot(*(positions - leader.position).T).min())
    return view, closest


def test_followers_keep_off_the_leader(long_round: tuple[GameView, float]) -> None:
    # Round corners too: a follower cutting one used to drive under the leader. Over the
    # shared 20 s round, run before test_a_new_follower_joins_beside_the_squad changes it.
    _, closest = long_round
    assert closest > 0.75 * (LEADER_RADIUS + FOLLOWER_RADIUS)


def test_a_new_follower_joins_beside_the_squad(window, long_round: tuple[GameView, float]) -> None:
    view, _ = long_round  # after 20 s the squad is far from its spawn point
    window.show_view(view)
    scene = view.scene
    world = scene.world
    members = np.array([world.agent_of(sprite).position for sprite in scene.squad])
    spawn = np.array(scene.level.spawns["squad"][0])
    assert np.hypot(*(members - spawn).T).min() > 300
    for _ in range(3):
        view.on_key_press(arcade.key.PLUS, 0)
        joined = np.array(world.agent_of(scene.squad[-1]).position)
        others = np.array([a.position for a in world.agents if a.sprite is not scene.squad[-1]])
        gaps = np.hypot(*(others - joined).T)
        assert gaps.min() >= SEPARATION_RADIUS  # on free ground, touching nobody ...
        assert np.hypot(*(members - joined).T).min() <= 3 * SEPARATION_RADIUS  # ... beside them
        assert not scene.sees(tuple(joined))
        assert not world.geometry.nearest(joined[None], FOLLOWER_RADIUS).found[0]
        nearest = members[np.argmin(np.hypot(*(members - joined).T))]
        assert not world.geometry.raycast(nearest[None], joined[None], kinds="walls").hit[0]
    _run(view, 5 * 60)
    positions = np.array([world.agent_of(sprite).position for sprite in scene.squad])
    leader = np.array(world.agent_of(scene.leader).position)
    assert np.hypot(*(positions - leader).T).max() < 200  # the newcomers kept up


def test_clicks_add_and_remove_obstacles(view: GameView) -> None:
    count = len(view.scene.world.geometry.circle_radius)
    view.on_mouse_press(300, 250, arcade.MOUSE_BUTTON_LEFT, 0)
    assert len(view.scene.world.geometry.circle_radius) == count + 1
    view.on_mouse_press(305, 255, arcade.MOUSE_BUTTON_RIGHT, 0)
    assert len(view.scene.world.geometry.circle_radius) == count


def test_n_makes_a_new_route_the_leader_follows(view: GameView) -> None:
    old = view.scene.route
    view.on_key_press(arcade.key.N, 0)
    assert view.scene.route is not old
    assert view.scene.route.closed
    _run(view, 60)


def _check_new_routes(view: GameView, routes: int) -> None:
    """``routes`` routes from N, the leader moving between them: no leg crosses a wall or an
    obstacle, and every leg keeps the route's radius plus the tanks' off them."""
    scene = view.scene
    geometry = scene.world.geometry
    clearance = scene.route.radius + max(LEADER_RADIUS, FOLLOWER_RADIUS)
    changed = 0
    for _ in range(routes):
        _run(view, 3)
        old = scene.route
        view.on_key_press(arcade.key.N, 0)
        changed += scene.route is not old
        starts, ends = scene.route.starts, scene.route.ends
        assert not geometry.raycast(starts, ends).hit.any()  # the check
        # Points every 2 px along every leg, each at least the clearance from any shape.
        steps = np.linspace(0.0, 1.0, 400)[:, None, None]
        along = (starts + steps * (ends - starts)).reshape(-1, 2)
        near = geometry.nearest(along, clearance)
        assert not (near.found & (near.distance < clearance - 1e-6)).any()
    assert changed >= routes - routes // 40  # N nearly always finds a new route (195 of 200)


def test_new_routes_run_through_open_ground(view: GameView) -> None:
    _check_new_routes(view, routes=60)


@pytest.mark.slow
def test_two_hundred_new_routes_run_through_open_ground(view: GameView) -> None:
    _check_new_routes(view, routes=200)


def test_being_seen_starts_a_chase_and_contact_ends_the_round(view: GameView) -> None:
    scene = view.scene
    leader = scene.world.agent_of(scene.leader)
    _run(view, 60)  # under way along its route
    hx, hy = leader.heading
    x, y = leader.position
    scene.scout.position = (x + 90 * hx, y + 90 * hy)  # teleport into the cone
    _run(view, 1)
    assert view.state == "chased"
    assert type(leader.behavior.children[-1]).__name__ == "Pursue"
    _run(view, 600)
    assert view.state == "caught"


def test_collecting_every_flag_wins(view: GameView) -> None:
    for flag in list(view.scene.flags):
        view.scene.scout.position = flag.position
        _run(view, 1)
    assert view.score == 8
    assert view.state == "won"


def test_headless_mean_counts_only_the_updates_that_ran(monkeypatch) -> None:
    from argparse import Namespace

    from arcade_steering.demo import headless

    class RoundOverAfterThree(GameView):
        """Ends the round after three updates, remembering each one's steering time."""

        ran: ClassVar[list[float]] = []

        def on_update(self, delta_time: float) -> None:
            running = self.running
            super().on_update(delta_time)
            if running:
                RoundOverAfterThree.ran.append(self.steering_ms)
            if len(RoundOverAfterThree.ran) == 3:
                self.state = "won"

    monkeypatch.setattr(headless, "GameView", RoundOverAfterThree)
    args = Namespace(frames=12, seed=0, followers=3, debug=False, screenshot=None)
    summary = headless.run_headless(args)
    assert len(RoundOverAfterThree.ran) == 3
    assert summary["steering_ms_mean"] == round(sum(RoundOverAfterThree.ran) / 3, 4)


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["--headless", "--frames", "-5"], "argument --frames: must be at least 1, got -5"),
        (["--headless", "--followers", "-1"], "argument --followers: must be at least 0"),
        (["--seed", "x"], "argument --seed: invalid int value"),
        (["--frames", "30"], "--frames and --screenshot go with --headless"),
    ],
)
def test_bad_options_are_argparse_errors(
    argv: list[str], complaint: str, capsys, monkeypatch
) -> None:
    # As on a machine with a display, where a run without --headless opens a window.
    monkeypatch.setattr(arcade, "headless", False)
    with pytest.raises(SystemExit) as exit:
        main(argv)
    assert exit.value.code == 2
    assert complaint in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux runs without a display")
def test_without_a_display_one_line_points_at_headless() -> None:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")
    env = {key: value for key, value in os.environ.items() if key not in hidden}
    result = subprocess.run(
        [sys.executable, "-m", "demo_game"], capture_output=True, text=True, env=env, timeout=300
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "no display" in result.stderr and "--headless" in result.stderr
    help_text = subprocess.run(
        [sys.executable, "-m", "demo_game", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert help_text.returncode == 0 and "collect every flag" in help_text.stdout
