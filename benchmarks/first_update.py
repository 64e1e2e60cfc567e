"""The demo's first update against the ones after it, in fresh processes (issue #17).

A world builds what its updates need the first time they need it: the walls' and obstacles'
grids, the agents' batches and their per-agent parameters, the sprite lists' slots. So its
first ``update`` costs more than the rest; this measures how much, on the demo game's scene
(its level, leader and squad of 12), each run in a new Python process:

- ``import``: importing ``arcade_steering`` and the demo's scene module (arcade included);
- ``build``: building the scene (the world, its walls, obstacles and agents);
- ``first``: the world's first ``update(1/60)``;
- ``steady``: the median of the next ``--updates``;
- ``new world``: the first update of a second scene built in the same process, after the
  first world's updates: what is built per world, without what a process warms up once.

Each figure is the median over ``--runs`` processes.

Usage::

    python benchmarks/first_update.py               # 7 processes, table
    python benchmarks/first_update.py --runs 15 --json out.json
    python benchmarks/first_update.py --quick       # 2 processes (CI)
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

#: The first update's budget (issue #17), ms.
FIRST_UPDATE_BUDGET_MS = 5.0
_FIGURES = ("import_s", "build_ms", "first_ms", "steady_ms", "new_world_ms")


def measure(updates: int, seed: int) -> dict[str, float]:
    """One process's figures: run in the child."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    start = time.perf_counter()
    import arcade_steering  # noqa: F401
    from demo_game.scene import Scene

    imported = time.perf_counter()
    scene = Scene(seed=seed)
    built = time.perf_counter()
    scene.world.update(1 / 60)
    first = time.perf_counter()
    steady = []
    for _ in range(updates):
        before = time.perf_counter()
        scene.world.update(1 / 60)
        steady.append(time.perf_counter() - before)
    again = Scene(seed=seed)
    before = time.perf_counter()
    again.world.update(1 / 60)
    new_world = time.perf_counter() - before
    return {
        "import_s": imported - start,
        "build_ms": (built - imported) * 1e3,
        "first_ms": (first - built) * 1e3,
        "steady_ms": statistics.median(steady) * 1e3,
        "new_world_ms": new_world * 1e3,
    }


def run(runs: int, updates: int, seed: int) -> list[dict[str, float]]:
    """Every process's figures, each process started afresh."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
    command = [sys.executable, os.path.abspath(__file__), "--child"]
    command += ["--updates", str(updates), "--seed", str(seed)]
    results = []
    for _ in range(runs):
        done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results


def summary(results: list[dict[str, float]]) -> dict[str, float]:
    """The median of each figure over the processes."""
    return {name: statistics.median(each[name] for each in results) for name in _FIGURES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes (7)")
    parser.add_argument("--updates", type=int, default=60, help="steady updates timed (60)")
    parser.add_argument("--seed", type=int, default=0, help="the demo scene's seed (0)")
    parser.add_argument("--quick", action="store_true", help="2 processes, 10 updates (CI)")
    parser.add_argument("--json", metavar="PATH", help="write every process's figures as JSON")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.updates, args.seed)))
        return
    runs, updates = (2, 10) if args.quick else (args.runs, args.updates)
    results = run(runs, updates, args.seed)
    figures = summary(results)
    print(f"demo scene, medians of {runs} fresh processes")
    print(f"import      {figures['import_s']:8.3f} s")
    print(f"build       {figures['build_ms']:8.2f} ms")
    print(f"first       {figures['first_ms']:8.2f} ms")
    print(f"steady      {figures['steady_ms']:8.2f} ms  (median of {updates} updates)")
    print(f"new world   {figures['new_world_ms']:8.2f} ms  (first update, warm process)")
    extra = figures["first_ms"] - figures["steady_ms"]
    verdict = "ok" if figures["first_ms"] <= FIRST_UPDATE_BUDGET_MS else "over"
    print(
        f"the first update costs {extra:.2f} ms more than a steady one; "
        f"budget {FIRST_UPDATE_BUDGET_MS} ms: {verdict}"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"runs": results, "medians": figures}, out, indent=1)


if __name__ == "__main__":
    main()
