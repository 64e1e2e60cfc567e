"""The README's examples: they compile, and the ones a user copies do what the README says."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import arcade
import pytest

import arcade_steering as steer

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def _run(marker: str, **given: Any) -> dict[str, Any]:
    """The namespace left by the README's Python block that contains ``marker``, run with the
    names ``given`` (what the game around a fragment would have)."""
    (code,) = [block for block in BLOCKS if marker in block]
    namespace: dict[str, Any] = {"__name__": "readme", **given}
    exec(compile(code, "README.md", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def window():
    try:
        yield arcade.get_window()
    except RuntimeError:
        window = arcade.Window(800, 600, "readme", visible=False)
        yield window
        window.close()


def test_every_python_block_compiles() -> None:
    assert len(BLOCKS) >= 3
    for index, code in enumerate(BLOCKS):
        compile(code, f"README.md, python block {index}", "exec")


def test_the_ship_of_the_example_swerves_round_the_mine_and_stops_at_the_dock(window) -> None:
    view = _run("class Harbour")["Harbour"]()
    window.show_view(view)
    mine = view.mine.position
    closest = math.inf
    for _ in range(10 * 60):
        view.on_update(1 / 60)
        closest = min(closest, math.dist(view.ship.position, mine))
    agent = view.world.agent_of(view.ship)
    assert math.dist(view.ship.position, (700, 500)) <= 2.5  # Arrive's tolerance
    assert agent.speed < 1.0
    # It came near enough for the flee to matter, and left the mine behind.
    assert closest < 100.0


def test_the_component_test_of_the_readme_passes() -> None:
    _run("def test_drift_pushes_east")["test_drift_pushes_east"]()


def _lap_the_squad_example(stop_after_a_lap: bool) -> None:
    leader = arcade.SpriteSolidColor(16, 16, 200, 150)
    squad = arcade.SpriteList()
    for index in range(6):
        squad.append(
            arcade.SpriteSolidColor(12, 12, 150 - 20 * (index % 3), 130 + 20 * (index // 3))
        )
    # The block goes on from the README's imports, with the sprites a game would have.
    world = _run("squad_behavior", steer=steer, leader=leader, squad=squad)["world"]
    corners = [(200, 150), (1080, 150), (1080, 580), (200, 580)]
    visits: list[int] = []
    farthest = 0.0
    for step in range(60 * 60):
        world.update(1 / 60)
        for index, corner in enumerate(corners):
            if math.dist(leader.position, corner) < 40 and visits[-1:] != [index]:
                visits.append(index)
        if stop_after_a_lap and len(visits) >= 5:
            break  # back at the first corner: about 35 s
        if step >= 10 * 60:  # settled
            farthest = max(farthest, *(math.dist(s.position, leader.position) for s in squad))
    assert visits[:5] == [0, 1, 2, 3, 0]  # a whole lap, corner by corner
    assert farthest < 150.0


def test_the_leader_of_the_squad_example_laps_its_route_and_the_squad_keeps_up() -> None:
    _lap_the_squad_example(stop_after_a_lap=True)


@pytest.mark.slow
def test_the_squad_example_keeps_up_for_a_minute() -> None:
    _lap_the_squad_example(stop_after_a_lap=False)
