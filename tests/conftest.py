"""Shared fixtures for the test suite: headless arcade, fresh worlds, short simulations."""

from __future__ import annotations

import importlib.util
import os

# Before anything imports arcade (pyglet reads it at import): no window, no display needed.
os.environ.setdefault("ARCADE_HEADLESS", "1")

from collections.abc import Callable

import numpy as np
import pytest

import arcade_steering as steer
from arcade_steering.testing import StubSprite

NATIVE_BUILT = importlib.util.find_spec("arcade_steering._native._kernel") is not None


def short_and_long(name: str, short: object, long: object) -> pytest.MarkDecorator:
    """Parametrize ``name`` with ``short`` in the default run and ``long`` under ``-m slow``.

    A long scenario (more updates, agents or examples) keeps a shorter twin that checks the
    same thing in the default run; CI runs both.
    """
    return pytest.mark.parametrize(
        name,
        [pytest.param(short, id="short"), pytest.param(long, id="long", marks=pytest.mark.slow)],
    )


@pytest.fixture(params=["native", "numpy"])
def both_paths(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test once with the native step and once on numpy only (worlds made in it)."""
    if request.param == "numpy":
        monkeypatch.setenv("ARCADE_STEERING_NATIVE", "0")
    elif not NATIVE_BUILT:
        pytest.skip("the native step's extension is not built")
    else:
        monkeypatch.delenv("ARCADE_STEERING_NATIVE", raising=False)
    return str(request.param)


@pytest.fixture(params=["one by one", "in bulk"])
def exchange(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A world exchanges positions with a few plain sprites one by one, with others in bulk:
    the test runs both ways."""
    from arcade_steering._core import sync

    if request.param == "in bulk":
        monkeypatch.setattr(sync, "FEW", 0)
    return str(request.param)


@pytest.fixture
def world() -> steer.SteeringWorld:
    """A fresh world with seed 0 and the default max_step."""
    return steer.SteeringWorld(seed=0)


@pytest.fixture
def simulate() -> Callable[..., np.ndarray]:
    """``simulate(world, seconds, dt, sprites=None, each=None)`` -> positions ``(steps, k, 2)``.

    Runs ``round(seconds / dt)`` updates; ``each(step)`` runs before every update (a test moving
    a target). Records the positions of ``sprites`` (default: every attached sprite) after
    every update.
    """

    def run(
        world: steer.SteeringWorld,
        seconds: float,
        dt: float,
        sprites: list[StubSprite] | None = None,
        each: Callable[[int], None] | None = None,
    ) -> np.ndarray:
        tracked = [agent.sprite for agent in world.agents] if sprites is None else sprites
        steps = round(seconds / dt)
        out = np.empty((steps, len(tracked), 2))
        for step in range(steps):
            if each is not None:
                each(step)
            world.update(dt)
            out[step] = [sprite.position for sprite in tracked]
        return out

    return run
