"""The README's examples: they compile, and the ones a user copies do what the README says."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import arcade
import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.M | re.S)


def _run(marker: str) -> dict[str, Any]:
    """The namespace left by the README's Python block that contains ``marker``."""
    (code,) = [block for block in BLOCKS if marker in block]
    namespace: dict[str, Any] = {"__name__": "readme"}
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
