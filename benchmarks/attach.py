"""Building a world: attaching and detaching N agents, one at a time (issue #17).

A game attaches its agents one ``world.attach`` call at a time, while it loads a level or as
they spawn. This times attaching ``N`` real ``arcade.Sprite``s (made beforehand, in one
``SpriteList``, untimed) sharing one ``Arrive``, then the world's first update, then detaching
them all, in fresh worlds, round after round, the garbage collector on as in a game; each
figure is the median over rounds. The cost
of an attach must not grow with the agents already attached (amortised O(1)): compare the µs
per attach across N.

Usage::

    python benchmarks/attach.py                      # N = 1,000, 10,000, 20,000
    python benchmarks/attach.py --sizes 20000 --rounds 5
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np

import arcade_steering as steer

SIZES = (1_000, 10_000, 20_000)
#: Building 20,000 agents: the budget of issue #17, seconds.
BUILD_BUDGET_S = 1.0


def sprites(n: int, seed: int = 1) -> tuple[arcade.SpriteList, list[arcade.Sprite]]:
    """``n`` sprites spread over a 3,000 px square, in one sprite list."""
    sprite_list = arcade.SpriteList()
    texture = arcade.make_soft_square_texture(12, arcade.color.WHITE, name="bench-agent")
    made = []
    for x, y in np.random.default_rng(seed).uniform(0, 3000, (n, 2)).tolist():
        sprite = arcade.Sprite(texture, center_x=x, center_y=y)
        sprite_list.append(sprite)
        made.append(sprite)
    return sprite_list, made


def one_round(n: int) -> dict[str, float]:
    """Attach ``n`` agents to a new world, update it once, detach them all: seconds each."""
    sprite_list, made = sprites(n)
    world = steer.SteeringWorld(seed=0)
    arrive = steer.Arrive((1500.0, 1500.0))
    clock = time.perf_counter
    gc.collect()  # the garbage collector stays on, as in a game
    start = clock()
    for sprite in made:
        world.attach(sprite, arrive, max_speed=60.0)
    attached = clock()
    world.update(1 / 60)
    updated = clock()
    for sprite in made:
        world.detach(sprite)
    detached = clock()
    assert len(world) == 0 and len(sprite_list) == n
    return {
        "attach_s": attached - start,
        "first_update_s": updated - attached,
        "detach_s": detached - updated,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"{'N':>7}{'attach s':>10}{'µs each':>9}{'1st update ms':>15}{'detach s':>10}")
    for n in args.sizes:
        rounds = [one_round(n) for _ in range(args.rounds)]
        figure = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
        print(
            f"{n:>7}{figure['attach_s']:>10.3f}{figure['attach_s'] / n * 1e6:>9.1f}"
            f"{figure['first_update_s'] * 1e3:>15.1f}{figure['detach_s']:>10.3f}",
            flush=True,
        )
        if n == 20_000:
            verdict = "ok" if figure["attach_s"] <= BUILD_BUDGET_S else "over"
            print(f"building 20,000 agents: budget {BUILD_BUDGET_S} s: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
