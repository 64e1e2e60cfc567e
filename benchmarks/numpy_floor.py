"""The numpy floor: the least any numpy implementation of ``Arrive`` can cost (issue #17).

``small_worlds.py``'s ``arrive`` composition, a third time: one function written for it
alone, fused by hand. Per update it reads the sprites' positions, computes ``Arrive`` and the
integrator for every agent at once, and writes positions and angles back as the library does
(arcade's fields, the hit box and the sprite list's buffer, no setters). Every step takes as
few numpy calls as the maths allows: scalar limits, no components, no per-agent parameters or
state, no checks, no solid step, one sprite list. It is not a design (it does one thing and
trusts its input); it measures what a batched numpy update of ``N`` agents cannot go below,
beside the library and the hand-written per-agent loop, timed as ``small_worlds.py`` times
them (interleaved rounds, medians of the rounds' medians, µs per update).

Usage::

    python benchmarks/numpy_floor.py                       # N = 1 ... 1,000
    python benchmarks/numpy_floor.py --sizes 1 13 --rounds 9
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from itertools import chain
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import small_worlds
from small_worlds import (
    ARRIVE_FORCE,
    ARRIVE_SLOWING,
    ARRIVE_SPEED,
    ARRIVE_TARGET,
    ARRIVE_TOLERANCE,
    DT,
    sprites_at,
)

SIZES = (1, 5, 13, 30, 100, 300, 1000)
#: The library's defaults for ``attach``: mass, response time, the art facing right.
MASS, RESPONSE_TIME, FACING = 1.0, 0.1, 0.0
#: Below this speed (px/s) the heading is kept (the library's ``HEADING_MIN_SPEED``).
HEADING_MIN_SPEED = 1.0


def fused_arrive(n: int) -> tuple[Callable[[float], None], list[Any], list[Any]]:
    """``n`` agents arriving at ``ARRIVE_TARGET``, placed as ``small_worlds.build_arrive``
    places them: ``(update, sprites, keep)``."""
    positions = np.random.default_rng(1).uniform((0, 0), (400, 2000), (n, 2))
    sprite_list, sprites = sprites_at(positions)
    slots = np.array([sprite_list.sprite_slot[sprite] for sprite in sprites])
    buffer = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32)
    position_items, angle_items = 2 * slots, 4 * slots + 3  # complex64 and float32 items
    target = complex(*ARRIVE_TARGET)
    slope = min(ARRIVE_SPEED / ARRIVE_SLOWING, 0.25 / RESPONSE_TIME)
    braking = 0.8 * ARRIVE_FORCE / MASS
    knee, offset = braking / slope**2, (braking / slope) ** 2
    velocity = np.zeros(n, dtype=complex)
    heading = np.ones(n, dtype=complex)

    def update(dt: float) -> None:
        nonlocal velocity, heading
        read = chain.from_iterable(sprite._position for sprite in sprites)
        where = np.fromiter(read, dtype=float, count=2 * n).view(complex)
        to = target - where
        distance = np.abs(to)
        line = slope * distance
        parabola = np.sqrt(np.maximum(2.0 * braking * distance - offset, 0.0))
        speed = np.minimum(ARRIVE_SPEED, np.where(distance <= knee, line, parabola))
        speed[distance <= ARRIVE_TOLERANCE] = 0.0
        force = (to * (speed / np.maximum(distance, 1e-12)) - velocity) / RESPONSE_TIME
        size = np.abs(force)
        force *= np.minimum(1.0, ARRIVE_FORCE / np.maximum(size, 1e-12))
        velocity = velocity + force * (dt / MASS)
        size = np.abs(velocity)
        velocity *= np.minimum(1.0, ARRIVE_SPEED / np.maximum(size, 1e-12))
        where += velocity * dt
        size = np.abs(velocity)
        heading = np.where(size > HEADING_MIN_SPEED, velocity / np.maximum(size, 1e-12), heading)
        angle = FACING - np.degrees(np.angle(heading))
        buffer.view(np.complex64)[position_items] = where
        buffer[angle_items] = angle
        sprite_list._sprite_pos_angle_changed = True
        values = list(zip(where.real.tolist(), where.imag.tolist(), strict=True))
        for sprite, value, turned in zip(sprites, values, angle.tolist(), strict=True):
            hit_box = sprite._hit_box
            sprite._position = hit_box._position = value
            sprite._angle = hit_box._angle = turned
            hit_box._adjusted_cache_dirty = True

    return update, sprites, [sprite_list]


def same_paths(n: int, updates: int = 120) -> float:
    """The farthest (px) the floor's agents end from the library's after ``updates``."""
    library = small_worlds.build_arrive(n).library
    floor, sprites, _ = fused_arrive(n)
    for _ in range(updates):
        library.update(DT)
        floor(DT)
    ours = np.array([sprite.position for sprite in sprites])
    theirs = np.array([sprite.position for sprite in library.sprites])
    return float(np.abs(ours - theirs).max())


def measure(sizes: list[int], rounds: int, warmup: int = 60) -> list[dict[str, Any]]:
    """Each N's library, peer and floor, timed in interleaved rounds: the median over
    rounds of each round's median, µs per update."""
    cases = []
    for n in sizes:
        setup = small_worlds.build_arrive(n)
        floor, _, keep = fused_arrive(n)
        sides = {"library": setup.library.update, "peer": setup.peer.update, "floor": floor}
        for update in sides.values():
            for _ in range(warmup):
                update(DT)
        cases.append((n, sides, keep, setup))
    samples: list[dict[str, list[float]]] = [
        {name: [] for name in ("library", "peer", "floor")} for _ in cases
    ]
    clock = time.perf_counter
    for index in range(rounds):
        print(f"round {index + 1} of {rounds}", file=sys.stderr, flush=True)
        for (n, sides, _, _), case in zip(cases, samples, strict=True):
            frames = small_worlds.frames_for(n)
            for name, update in sides.items():
                times = []
                gc.disable()
                try:
                    for _ in range(frames):
                        start = clock()
                        update(DT)
                        times.append((clock() - start) * 1e6)
                finally:
                    gc.enable()
                case[name].append(statistics.median(times))
    rows = []
    for (n, _, _, _), case in zip(cases, samples, strict=True):
        row: dict[str, Any] = {"agents": n}
        row.update({name: statistics.median(values) for name, values in case.items()})
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"floor against the library after 120 updates, 30 agents: {same_paths(30):.2e} px")
    rows = measure(args.sizes, args.rounds)
    print(f"{'N':>6}{'library µs':>12}{'floor µs':>10}{'peer µs':>9}{'library/floor':>15}")
    for row in rows:
        ratio = row["library"] / row["floor"]
        print(
            f"{row['agents']:>6}{row['library']:>12.1f}{row['floor']:>10.1f}"
            f"{row['peer']:>9.1f}{ratio:>14.1f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
