"""The script that times the default test run reads the README's figure and flags it stale."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "benchmarks"))

import suite_time

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_states_a_figure_the_script_reads() -> None:
    stated = suite_time.stated_figures(README)
    assert stated["tests"] > 1000 and stated["wall"] > 0 and stated["cpu"] > 0


@pytest.mark.parametrize(
    ("cpu", "verdict"),
    [(100.0, None), (149.0, None), (151.0, "more than"), (67.0, None), (66.0, "less than")],
)
def test_a_cpu_time_half_as_much_again_or_less_than_two_thirds_is_stale(cpu, verdict) -> None:
    reason = suite_time.stale({"cpu_s": cpu}, {"tests": 4000, "wall": 80, "cpu": 100})
    assert reason is None if verdict is None else verdict in reason


def test_a_readme_without_the_sentence_is_refused(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("The tests are fast.\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no sentence"):
        suite_time.stated_figures(readme)
