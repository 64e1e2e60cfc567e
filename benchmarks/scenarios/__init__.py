"""Benchmark scenarios, one module per family.

Each module defines ``SCENARIOS`` (a list of :class:`Scenario`), ``BUDGETS``
(``{(scenario, agents): median ms}``) and optionally ``CHECKS`` (functions of the results table
``{(scenario, agents): result row}`` returning failure messages; a row is the dict written to the
JSON, with ``median_ms``, ``p95_ms`` and any extra fields). Modules named ``_*`` are helpers.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import arcade
import numpy as np

import arcade_steering as steer


@dataclass
class Scenario:
    """A named way to fill a world with ``n`` agents.

    Attributes:
        name: Scenario name in the results.
        sizes: Agent counts of a full run.
        build: Makes the world for ``n`` agents.
        extra: Optional: extra result fields read from the world after timing.
        run: Optional: times the scenario itself instead of the standard timing, called as
            ``run(n, quick)``; returns the result fields (``median_ms``, ``p95_ms`` and any
            others), for scenarios that run until something happens or time a peer too.
    """

    name: str
    sizes: tuple[int, ...]
    build: Callable[[int], steer.SteeringWorld]
    extra: Callable[[steer.SteeringWorld], dict[str, Any]] | None = None
    run: Callable[[int, bool], dict[str, Any]] | None = None


_keep_alive: list[arcade.SpriteList] = []


def make_sprites(count: int, rng: np.random.Generator, low, high) -> list[arcade.Sprite]:
    """``count`` real sprites in a SpriteList (no spatial hash) at uniform random positions."""
    return sprites_at(rng.uniform(low, high, (count, 2)))[1]


def sprites_at(positions: np.ndarray) -> tuple[arcade.SpriteList, list[arcade.Sprite]]:
    """Real sprites at ``positions`` ``(n, 2)``, in a new SpriteList (no spatial hash)."""
    sprite_list = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
    sprites = []
    for x, y in np.asarray(positions, dtype=float).tolist():
        sprite = arcade.Sprite(texture, center_x=x, center_y=y)
        sprite_list.append(sprite)
        sprites.append(sprite)
    _keep_alive.append(sprite_list)  # the list stays alive, as in a game
    return sprite_list, sprites


def _modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
        if not info.name.startswith("_")
    ]


def all_scenarios() -> list[Scenario]:
    """Every module's scenarios, modules in name order."""
    return [scenario for module in _modules() for scenario in module.SCENARIOS]


def all_budgets() -> dict[tuple[str, int], float]:
    """Every module's budgets."""
    return {key: value for module in _modules() for key, value in module.BUDGETS.items()}


Results = dict[tuple[str, int], dict[str, Any]]


def median_of(results: Results, name: str, agents: int) -> float | None:
    """The median ms of scenario ``name`` at ``agents``, or None if it did not run."""
    row = results.get((name, agents))
    return None if row is None else row["median_ms"]


def all_checks() -> list[Callable[[Results], list[str]]]:
    """Every module's extra checks (ratios between scenarios, a peer's figures)."""
    return [check for module in _modules() for check in getattr(module, "CHECKS", [])]
