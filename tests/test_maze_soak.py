"""Maze soak, short: solid agents of radius 2-20 px in thin walls, acute corners, doors of
0.5x-2x their diameters and obstacles that appear and grow (benchmarks/maze_soak.py runs
the long one)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, os.fspath(Path(__file__).resolve().parents[1] / "benchmarks"))

import maze_soak


def _check(figures: maze_soak.Figures) -> None:
    assert figures.moves > 0 and figures.obstacles_added + figures.obstacles_grown > 0
    assert (figures.crossings, figures.wrong_cell, figures.nan) == (0, 0, 0)
    assert figures.updates_over_half_px == 0, figures
    assert figures.worst_penetration <= 0.5, figures


def test_maze_soak_short() -> None:
    _check(maze_soak.run(100, seed=1))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_maze_soak_longer(seed: int) -> None:
    _check(maze_soak.run(1000, seed=seed))
