"""The runnable examples: every scene of every module runs headless, stays finite and moves;
the view that runs them in a window answers its keys; the command line (``--help`` and
``--headless`` without a display, errors, the list of examples)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import arcade
import numpy as np
import pytest
from PIL import Image

from arcade_steering.examples import EXAMPLES
from arcade_steering.examples._base import (
    HUD_HEIGHT,
    HUD_MARGIN,
    WINDOW_HEIGHT,
    WINDOW_WIDTH,
    ExampleView,
    Scene,
    render,
    run_frames,
)

WIDTH, HEIGHT = 640, 400
FRAMES = 30

MODULES = {name: importlib.import_module(f"arcade_steering.examples.{name}") for name in EXAMPLES}
SCENES = [(name, mode) for name, module in MODULES.items() for mode in module.MODES]


@pytest.fixture(scope="module")
def window():
    try:
        yield arcade.get_window()
    except RuntimeError:
        window = arcade.Window(WIDTH, HEIGHT, "examples", visible=False)
        yield window
        window.close()


def positions(scene: Scene) -> np.ndarray:
    return np.array([agent.position for agent in scene.world.agents])


@pytest.mark.parametrize(("name", "mode"), SCENES)
def test_scene_runs_headless_moves_and_stays_finite(window, name: str, mode: str) -> None:
    scene = MODULES[name].make_scene(WIDTH, HEIGHT, mode=mode)
    assert scene.mode == mode
    assert len(scene.world) > 0
    before = positions(scene)
    run_frames(scene, FRAMES)
    image = render(scene)  # update + draw with the debug overlay and trails
    after = positions(scene)
    assert np.isfinite(after).all()
    assert np.isfinite([agent.velocity for agent in scene.world.agents]).all()
    moved = np.hypot(*(after - before).T)
    assert moved.max() > 5.0, f"{name}/{mode}: no agent moved"
    assert image.size == (WIDTH, HEIGHT)
    assert len(set(image.getdata())) > 10  # drew something besides the background


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_module_has_a_docstring_modes_make_scene_and_main(name: str) -> None:
    module = MODULES[name]
    assert module.__doc__ and f"python -m arcade_steering.examples.{name}" in module.__doc__
    assert "Space" in module.__doc__
    assert module.MODES and callable(module.make_scene) and callable(module.main)


def _without_display() -> dict[str, str]:
    """The environment of a machine with no display and no ARCADE_HEADLESS."""
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "ARCADE_HEADLESS")
    return {key: value for key, value in os.environ.items() if key not in hidden}


def _python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, timeout=300
    )


needs_x11 = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="only Linux runs without a display"
)


@needs_x11
def test_help_needs_no_display() -> None:
    result = _python("-m", "arcade_steering.examples.seek_arrive", "--help", env=_without_display())
    assert result.returncode == 0, result.stderr
    assert "--headless" in result.stdout and "Space toggles" in result.stdout
    # Every example's main() answers --help the same way.
    script = (
        "import importlib\n"
        f"for name in {list(EXAMPLES)!r}:\n"
        "    try:\n"
        "        importlib.import_module(f'arcade_steering.examples.{name}').main(['--help'])\n"
        "    except SystemExit as exit:\n"
        "        assert exit.code == 0, (name, exit.code)\n"
        "    else:\n"
        "        raise AssertionError(name)\n"
    )
    result = _python("-c", script, env=_without_display())
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("save the last frame as a PNG") == len(EXAMPLES)


@needs_x11
def test_without_a_display_one_line_points_at_headless() -> None:
    result = _python("-m", "arcade_steering.examples.flocking", env=_without_display())
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "no display" in result.stderr and "--headless" in result.stderr


@needs_x11
def test_headless_runs_without_a_display(tmp_path: Path) -> None:
    shot = tmp_path / "flock.png"
    result = _python(
        "-m",
        "arcade_steering.examples.flocking",
        *("--headless", "--frames", "30", "--mode", "blends", "--screenshot", str(shot)),
        env=_without_display(),
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.splitlines()[-1])
    assert summary == {
        "example": "flocking",
        "mode": "blends",
        "frames": 30,
        "agents": 30,
        "seconds": 0.5,
    }
    assert Image.open(shot).size == (WINDOW_WIDTH, WINDOW_HEIGHT + HUD_HEIGHT)


def test_every_main_runs_headless_and_stops() -> None:
    # With ARCADE_HEADLESS set every run is headless, --headless or not. A fresh process: each
    # main() opens and closes a window of its own.
    script = (
        "import importlib\n"
        f"for name in {list(EXAMPLES)!r}:\n"
        "    module = importlib.import_module(f'arcade_steering.examples.{name}')\n"
        "    assert module.main(['--frames', '2', '--seed', '1']) == 0\n"
    )
    result = _python("-c", script, env={**os.environ, "ARCADE_HEADLESS": "1"})
    assert result.returncode == 0, result.stderr
    summaries = [json.loads(line) for line in result.stdout.splitlines()]
    assert [summary["example"] for summary in summaries] == list(EXAMPLES)
    for summary in summaries:
        assert summary["mode"] == MODULES[summary["example"]].MODES[0]
        assert summary["frames"] == 2 and summary["agents"] > 0


@pytest.mark.parametrize(
    "argv",
    [["--frames", "0"], ["--frames", "-5"], ["--frames", "many"], ["--mode", "teleport"]],
)
def test_bad_options_are_argparse_errors(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit:
        MODULES["seek_arrive"].main(["--headless", *argv])
    assert exit.value.code == 2
    assert "error: argument" in capsys.readouterr().err


def test_open_window_shows_the_example_view() -> None:
    # ARCADE_TEST makes arcade.run() return after one cycle, as arcade's own example tests do;
    # a fresh process, so each example can open its own window.
    script = (
        "import importlib, arcade\n"
        "from arcade_steering.examples._base import open_window\n"
        f"for name in {list(EXAMPLES)!r}:\n"
        "    open_window(importlib.import_module(f'arcade_steering.examples.{name}').make_scene)\n"
        "    window = arcade.get_window()\n"
        "    print(name, type(window.current_view).__name__, window.height)\n"
        "    window.close()\n"
    )
    env = {**os.environ, "ARCADE_HEADLESS": "1", "ARCADE_TEST": "1"}
    result = _python("-c", script, env=env)
    assert result.returncode == 0, result.stderr
    lines = [line.split() for line in result.stdout.splitlines()]
    assert [line[0] for line in lines] == list(EXAMPLES)
    assert {(line[1], int(line[2])) for line in lines} == {
        ("ExampleView", WINDOW_HEIGHT + HUD_HEIGHT)
    }


def test_the_package_lists_the_examples() -> None:
    result = _python("-m", "arcade_steering.examples", env=_without_display())
    assert result.returncode == 0, result.stderr
    for name, shows in EXAMPLES.items():
        assert f"  {name}" in result.stdout and shows in result.stdout


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_strip_fits_the_window_and_keeps_off_the_scene(window, name: str) -> None:
    module = MODULES[name]
    view = ExampleView(module.make_scene, module.MODES)
    window.show_view(view)
    assert view.scene.height == window.height - HUD_HEIGHT
    for mode in module.MODES:
        view.restart(mode)
        title, keys = view.title, view.keys
        assert (mode in title.text) == (len(module.MODES) > 1)
        assert ("1-" in keys.text) == (len(module.MODES) > 1)  # no "1-1 mode"
        for text in (title, keys):
            # Measured text, margins on both sides, in the window the example opens.
            assert text.content_width + 2 * HUD_MARGIN <= WINDOW_WIDTH, text.text
            assert text.y >= view.scene.height
            assert text.y + text.content_height <= window.height


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="mode"):
        MODULES["seek_arrive"].make_scene(WIDTH, HEIGHT, mode="teleport")


def test_same_seed_same_run() -> None:
    runs = []
    for _ in range(2):
        scene = MODULES["seek_arrive"].make_scene(WIDTH, HEIGHT, mode="wander", seed=4)
        run_frames(scene, 60)
        runs.append(positions(scene))
    np.testing.assert_array_equal(runs[0], runs[1])


def test_view_keys_toggle_overlay_switch_modes_and_restart(window) -> None:
    module = MODULES["flocking"]
    view = ExampleView(module.make_scene, module.MODES)
    window.show_view(view)
    view.on_update(1 / 60)
    view.on_draw()
    assert view.scene.show_debug
    view.on_key_press(arcade.key.SPACE, 0)
    assert not view.scene.show_debug
    view.on_key_press(arcade.key.KEY_3, 0)
    assert view.scene.mode == module.MODES[2]
    assert not view.scene.show_debug  # kept across the restart
    view.on_key_press(arcade.key.T, 0)
    assert not view.scene.show_trails
    view.on_key_press(arcade.key.P, 0)
    before = positions(view.scene)
    view.on_update(1 / 60)
    np.testing.assert_array_equal(positions(view.scene), before)  # paused
    view.on_key_press(arcade.key.R, 0)
    assert view.scene.mode == module.MODES[2]
    assert view.scene.time == 0.0
    count = len(view.scene.world.geometry.circle_radius)
    view.on_mouse_press(100, 100, arcade.MOUSE_BUTTON_LEFT, 0)
    assert len(view.scene.world.geometry.circle_radius) == count + 1  # click adds an obstacle
    view.on_mouse_press(100, window.height - 5, arcade.MOUSE_BUTTON_LEFT, 0)
    assert len(view.scene.world.geometry.circle_radius) == count + 1  # not on the strip
    view.on_draw()


def test_camera_overlay_is_drawn_in_world_space(window) -> None:
    scene = MODULES["camera"].make_scene(WIDTH, HEIGHT)
    run_frames(scene, 120)
    scene.show_debug = False
    plain = np.asarray(render(scene), dtype=int)
    scene.show_debug = True
    overlay = np.asarray(render(scene), dtype=int)
    leader = np.array(scene.leader.position)
    assert not np.allclose(leader, (WIDTH / 2, HEIGHT / 2), atol=60)  # scrolled away from it
    # Where the leader is on screen (the camera is centred on view_center), the overlay drew
    # its velocity and target: the picture changed there.
    sx, sy = (leader - scene.view_center + (WIDTH / 2, HEIGHT / 2)).round().astype(int)
    row = HEIGHT - sy  # image rows go down
    box = (slice(row - 30, row + 30), slice(sx - 30, sx + 30))
    assert (np.abs(overlay[box] - plain[box]).sum(axis=2) > 60).sum() > 20


def test_tiled_astar_routes_round_the_barriers_and_reaches_its_goal() -> None:
    scene = MODULES["tiled_astar"].make_scene(WIDTH, HEIGHT)
    assert scene.level.walls and scene.level.obstacles and "patrol" in scene.level.paths
    blocked = {tuple(point) for point in scene.blocked.tolist()}
    first_goal = scene.goal
    assert not blocked & {tuple(point) for point in scene.route.points.tolist()}
    run_frames(scene, 11 * 60)  # the first route is 822 px long, at 110 px/s
    assert scene.goal != first_goal  # arrived, and routed on to the next goal
    agents = scene.world.agents
    clearance = scene.world.geometry.nearest(
        np.array([a.position for a in agents]), 1.0
    )  # solid agents: no circle centre inside a wall or obstacle
    assert not (clearance.found & (clearance.distance < 0)).any()


def test_platformer_jumps_onto_the_low_ledge_and_does_not_try_the_high_one() -> None:
    scene = MODULES["platformer"].make_scene(WIDTH, HEIGHT)
    (runner, low), (stayer, high) = scene.runs
    assert low.plan and not high.plan
    assert high.plan.reason.startswith("too high: 150 px up")
    start = stayer.position
    peak = 0.0
    for _ in range(round(3.5 * 60)):  # the run-up and the jump, before the restart at 5 s
        run_frames(scene, 1)
        peak = max(peak, runner.center_y)
    assert peak > low.landing[1] + 30.0  # went up in an arc, not along a slope
    assert runner.center_x == pytest.approx(low.landing[0], abs=6.0)
    assert runner.center_y == pytest.approx(low.landing[1], abs=2.0)  # standing on the ledge
    assert stayer.position == pytest.approx(start, abs=0.5)  # never left the floor
