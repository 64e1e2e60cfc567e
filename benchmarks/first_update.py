"""The demo's first update against the ones after it, in fresh processes (issue #17).

A world builds what its updates need the first time they need it: the walls' and obstacles'
grids, the agents' batches and their per-agent parameters, the sprite lists' slots. So its
first ``update`` costs more than the rest, unless the game calls ``world.prepare()`` once the
level is loaded. This measures both ways, on the demo game's scene (its level, leader and
squad of 12), each run in a new Python process:

- ``import``: importing ``arcade_steering`` and the demo's scene module (arcade included);
- ``build``: building the scene (the world, its walls, obstacles and agents);
- ``prepare``: ``world.prepare()``, in the processes that call it;
- ``first``: the world's first ``update(1/60)``;
- ``steady``: the median of the next ``--updates``;
- ``new world``: the first update of a second scene built (and prepared, or not) in the same
  process: what is built per world, without what a process warms up once.

Each figure is the median over ``--runs`` processes of each kind, run in turn.

Usage::

    python benchmarks/first_update.py               # 7 processes of each kind, table
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
_FIGURES = ("import_s", "build_ms", "prepare_ms", "first_ms", "steady_ms", "new_world_ms")
_KINDS = ("unprepared", "prepared")


def measure(updates: int, seed: int, prepare: bool) -> dict[str, float]:
    """One process's figures, ``world.prepare()`` called after each build or not: run in the
    child."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    start = time.perf_counter()
    import arcade_steering  # noqa: F401
    from arcade_steering.demo.scene import Scene

    imported = time.perf_counter()
    scene = Scene(seed=seed)
    built = time.perf_counter()
    if prepare:
        scene.world.prepare()
    prepared = time.perf_counter()
    scene.world.update(1 / 60)
    first = time.perf_counter()
    steady = []
    for _ in range(updates):
        before = time.perf_counter()
        scene.world.update(1 / 60)
        steady.append(time.perf_counter() - before)
    again = Scene(seed=seed)
    if prepare:
        again.world.prepare()
    before = time.perf_counter()
    again.world.update(1 / 60)
    new_world = time.perf_counter() - before
    return {
        "import_s": imported - start,
        "build_ms": (built - imported) * 1e3,
        "prepare_ms": (prepared - built) * 1e3,
        "first_ms": (first - prepared) * 1e3,
        "steady_ms": statistics.median(steady) * 1e3,
        "new_world_ms": new_world * 1e3,
    }


def run(runs: int, updates: int, seed: int) -> dict[str, list[dict[str, float]]]:
    """Every process's figures by kind, each process started afresh, the kinds in turn."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "ARCADE_HEADLESS": "1"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
    command = [sys.executable, os.path.abspath(__file__), "--child"]
    command += ["--updates", str(updates), "--seed", str(seed)]
    results: dict[str, list[dict[str, float]]] = {kind: [] for kind in _KINDS}
    for _ in range(runs):
        for kind in _KINDS:
            flags = ["--prepare"] if kind == "prepared" else []
            done = subprocess.run(
                command + flags, capture_output=True, text=True, check=True, env=env
            )
            results[kind].append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results


def summary(results: list[dict[str, float]]) -> dict[str, float]:
    """The median of each figure over the processes."""
    return {name: statistics.median(each[name] for each in results) for name in _FIGURES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh processes of each kind (7)")
    parser.add_argument("--updates", type=int, default=60, help="steady updates timed (60)")
    parser.add_argument("--seed", type=int, default=0, help="the demo scene's seed (0)")
    parser.add_argument("--quick", action="store_true", help="2 processes, 10 updates (CI)")
    parser.add_argument("--json", metavar="PATH", help="write every process's figures as JSON")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--prepare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.updates, args.seed, args.prepare)))
        return
    runs, updates = (2, 10) if args.quick else (args.runs, args.updates)
    results = run(runs, updates, args.seed)
    figures = {kind: summary(results[kind]) for kind in _KINDS}
    bare, ready = figures["unprepared"], figures["prepared"]
    print(f"demo scene, medians of {runs} fresh processes of each kind")
    print(f"{'':12}{'unprepared':>12}{'prepared':>12}")
    print(f"{'import':12}{bare['import_s']:10.3f} s{ready['import_s']:10.3f} s")
    for name, label in (
        ("build_ms", "build"),
        ("prepare_ms", "prepare"),
        ("first_ms", "first"),
        ("steady_ms", "steady"),
        ("new_world_ms", "new world"),
    ):
        print(f"{label:12}{bare[name]:9.2f} ms{ready[name]:9.2f} ms")
    print(f"(steady: median of {updates} updates; new world: its first update, warm process)")
    verdict = "ok" if ready["first_ms"] <= FIRST_UPDATE_BUDGET_MS else "over"
    print(
        f"the first update costs {bare['first_ms'] - bare['steady_ms']:.2f} ms more than a "
        f"steady one, {ready['first_ms'] - ready['steady_ms']:.2f} ms after prepare(); "
        f"budget {FIRST_UPDATE_BUDGET_MS} ms: {verdict}"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"runs": results, "medians": figures}, out, indent=1)


if __name__ == "__main__":
    main()
