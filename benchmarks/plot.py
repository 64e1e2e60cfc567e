"""Plot a benchmark run: milliseconds per update against the number of agents.

Reads the JSON that ``run.py --json`` writes and draws one line per scenario (log-log, a marker
per measured N), the budgets of the scenarios as short dashes, and pyrvo's crossing figure if
the run has it. Needs matplotlib (the ``bench`` extra).

Usage::

    python benchmarks/run.py --json /tmp/bench.json
    python benchmarks/plot.py /tmp/bench.json docs/images/benchmark.png
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from collections import defaultdict

os.environ.setdefault("ARCADE_HEADLESS", "1")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scenarios import all_budgets

#: A 60 FPS frame, ms.
FRAME_MS = 1000 / 60


def load(path: str) -> dict[str, list[dict]]:
    """The rows of a ``run.py --json`` file, by scenario, each scenario's rows by N."""
    with open(path, encoding="utf-8") as file:
        rows = json.load(file)["results"]
    by_scenario: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_scenario[row["scenario"]].append(row)
    return {name: sorted(runs, key=lambda row: row["agents"]) for name, runs in by_scenario.items()}


def plot(results: dict[str, list[dict]], out: str, title: str) -> None:
    """Draw ``results`` into the PNG ``out``."""
    import matplotlib

    matplotlib.use("Agg")  # no window: files only
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    figure, axes = plt.subplots(figsize=(10, 6), dpi=110)
    colors = plt.get_cmap("tab20").colors
    budgets = all_budgets()
    for index, (name, rows) in enumerate(sorted(results.items())):
        color = colors[index % len(colors)]
        agents = [row["agents"] for row in rows]
        axes.plot(agents, [row["median_ms"] for row in rows], "o-", color=color, label=name, ms=5)
        for row in rows:
            budget = budgets.get((name, row["agents"]))
            if budget is not None:
                n = row["agents"]
                axes.plot(
                    [n / 1.12, n * 1.12], [budget, budget], "-", color=color, lw=3, alpha=0.45
                )
            if row.get("peer_median_ms") is not None:
                axes.plot(
                    [row["agents"]],
                    [row["peer_median_ms"]],
                    "*",
                    color=color,
                    ms=13,
                    mec="black",
                    label=f"{name}: {row.get('peer', 'peer')}",
                )
    axes.axhline(FRAME_MS, color="grey", ls=":", lw=1)
    axes.text(
        0.99,
        FRAME_MS,
        "60 FPS frame",
        color="grey",
        va="bottom",
        ha="right",
        transform=axes.get_yaxis_transform(),
    )
    axes.set_xscale("log")
    axes.set_yscale("log")
    # Ticks at the measured N, written out (100, 1000, 5000), not as powers of ten.
    axes.set_xticks(sorted({row["agents"] for rows in results.values() for row in rows}))
    axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda n, _: f"{n:,.0f}"))
    axes.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    axes.set_xlabel("agents")
    axes.set_ylabel("ms per world.update(1/60), median")
    axes.set_title(title)
    axes.grid(True, which="both", alpha=0.25)
    axes.legend(
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        title="median (thick dash: budget)",
        title_fontsize=8,
    )
    figure.tight_layout()
    figure.savefig(out)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="JSON written by run.py --json")
    parser.add_argument("out", help="PNG to write")
    parser.add_argument("--title", default="arcade_steering: ms per update against agents")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("matplotlib") is None:
        print("plot.py needs matplotlib: pip install -e '.[bench]'", file=sys.stderr)
        return 1
    plot(load(args.results), args.out, args.title)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
