"""Benchmark scenarios, one module per family.

Each module defines ``SCENARIOS`` (a list of :class:`Scenario`), ``BUDGETS``
(``{(scenario, agents): median ms}``) and optionally ``CHECKS`` (functions of the
``{(scenario, agents): median ms}`` table returning failure messages).
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
    """

    name: str
    sizes: tuple[int, ...]
    build: Callable[[int], steer.SteeringWorld]
    extra: Callable[[steer.SteeringWorld], dict[str, Any]] | None = None


_keep_alive: list[arcade.SpriteList] = []


def make_sprites(count: int, rng: np.random.Generator, low, high) -> list[arcade.Sprite]:
    """``count`` real sprites in a SpriteList (no spatial hash) at uniform random positions."""
    sprite_list = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
    sprites = []
    for x, y in rng.uniform(low, high, (count, 2)).tolist():
        sprite = arcade.Sprite(texture, center_x=x, center_y=y)
        sprite_list.append(sprite)
        sprites.append(sprite)
    _keep_alive.append(sprite_list)  # the list stays alive, as in a game
    return sprites


def _modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name)
    ]


def all_scenarios() -> list[Scenario]:
    """Every module's scenarios, modules in name order."""
    return [scenario for module in _modules() for scenario in module.SCENARIOS]


def all_budgets() -> dict[tuple[str, int], float]:
    """Every module's budgets."""
    return {key: value for module in _modules() for key, value in module.BUDGETS.items()}


def all_checks() -> list[Callable[[dict[tuple[str, int], float]], list[str]]]:
    """Every module's extra checks (ratios between scenarios)."""
    return [check for module in _modules() for check in getattr(module, "CHECKS", [])]
