"""Run the demo without a display for a fixed number of frames: for tests and pictures."""

from __future__ import annotations

import json
from argparse import Namespace

import arcade

from .game import WINDOW_HEIGHT, WINDOW_TITLE, WINDOW_WIDTH, GameView
from .metrics import SquadMetrics

DT = 1 / 60


def run_headless(args: Namespace) -> dict:
    """Run ``args.frames`` frames at a fixed dt of 1/60 s with the scout idle.

    Saves the last frame to ``args.screenshot`` if given, prints the summary as one JSON
    line and returns it.
    """
    window = arcade.Window(WINDOW_WIDTH, WINDOW_HEIGHT, WINDOW_TITLE, visible=False)
    view = GameView(seed=args.seed, followers=args.followers, debug=args.debug)
    window.show_view(view)
    metrics = SquadMetrics()
    steering_ms = []
    for frame in range(args.frames):
        before = metrics.positions(view.scene)
        running = view.running
        view.on_update(DT)
        if running:  # a round that is over keeps its last figure: don't count it again
            steering_ms.append(view.steering_ms)
        metrics.record(view.scene, before)
        if args.debug or frame == args.frames - 1:
            view.on_draw()  # the overlay records from the update after its first draw
    if args.screenshot:
        arcade.get_image().save(args.screenshot)
    summary = {
        "frames": args.frames,
        "followers": len(view.scene.squad),
        "state": view.state,
        "steering_ms_mean": round(sum(steering_ms) / max(len(steering_ms), 1), 4),
        **metrics.summary(),
    }
    print(json.dumps(summary))
    window.close()
    return summary
