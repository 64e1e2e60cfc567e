"""Run the demo without a window for a fixed number of frames: for tests and pictures."""

from __future__ import annotations

from argparse import Namespace
from typing import Any

import arcade

from arcade_steering.examples import _cli

from .game import WINDOW_HEIGHT, WINDOW_TITLE, WINDOW_WIDTH, GameView
from .metrics import SquadMetrics


def run_headless(args: Namespace) -> dict[str, Any]:
    """Run ``args.frames`` frames at a fixed 1/60 s with the scout idle, no intro panel.

    Every frame is updated and drawn as in a window; the last one is saved to
    ``args.screenshot`` if given.

    Returns:
        The summary: frames, squad size, the round's state, the mean steering time, the
        frames per second the HUD shows, and the squad's :class:`SquadMetrics`.
    """
    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT, WINDOW_TITLE, visible=False)
    view = GameView(seed=args.seed, followers=args.followers, debug=args.debug, intro=False)
    window.show_view(view)
    metrics = SquadMetrics()
    steering_ms = []
    for _ in range(args.frames):
        before = metrics.positions(view.scene)
        running = view.running
        _cli.frame(window)
        if running:  # a round that is over keeps its last figure: don't count it again
            steering_ms.append(view.steering_ms)
        metrics.record(view.scene, before)
    _cli.save_screenshot(args.screenshot)
    summary = {
        "frames": args.frames,
        "followers": len(view.scene.squad),
        "state": view.state,
        "steering_ms_mean": round(sum(steering_ms) / max(len(steering_ms), 1), 4),
        "fps": round(arcade.get_fps(), 1),
        **metrics.summary(),
    }
    window.close()
    return summary
