"""Plot a small-worlds run: µs per update against N, the library against the hand-written peer.

Reads the JSON that ``small_worlds.py --json`` writes and draws one panel per composition,
log-log, the library and the peer as two lines, each library point labelled with its time as
a multiple of the peer's. Needs matplotlib (the ``bench`` extra).

Usage::

    python benchmarks/small_worlds.py --json /tmp/small.json
    python benchmarks/plot_small_worlds.py /tmp/small.json docs/images/small_worlds.png
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from typing import Any

#: A 60 FPS frame, µs.
FRAME_US = 1e6 / 60
TITLES = {
    "arrive": "arrive: one shared Arrive target",
    "demo": "demo: leader on its route, squad following (walls, obstacles, solid)",
}


def plot(results: list[dict[str, Any]], out: str) -> None:
    """Draw ``results`` (rows of ``small_worlds.py``) into the PNG ``out``."""
    import matplotlib

    matplotlib.use("Agg")  # no window: files only
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    names = [name for name in TITLES if any(row["composition"] == name for row in results)]
    figure, panels = plt.subplots(
        1, len(names), figsize=(6.2 * len(names), 5.2), dpi=110, squeeze=False, sharey=True
    )
    for axes, name in zip(panels[0], names, strict=True):
        rows = sorted((r for r in results if r["composition"] == name), key=lambda r: r["agents"])
        agents = [row["agents"] for row in rows]
        library = [row["library_us"] for row in rows]
        peer = [row["peer_us"] for row in rows]
        axes.plot(agents, library, "o-", color="tab:blue", lw=2, label="arcade_steering")
        axes.plot(agents, peer, "s--", color="tab:orange", lw=2, label="hand-written loop")
        for n, ours, theirs in zip(agents, library, peer, strict=True):
            axes.annotate(
                f"{ours / theirs:.2g}x",
                (n, ours),
                textcoords="offset points",
                xytext=(0, 8) if ours >= theirs else (0, -14),  # off the peer's line
                ha="center",
                fontsize=8,
                color="tab:blue",
            )
        axes.axhline(FRAME_US, color="grey", ls=":", lw=1)
        axes.text(
            0.02,
            FRAME_US,
            "60 FPS frame",
            color="grey",
            va="bottom",
            transform=axes.get_yaxis_transform(),
            fontsize=8,
        )
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xticks(agents)
        axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda n, _: f"{n:,.0f}"))
        axes.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
        axes.yaxis.set_major_formatter(
            matplotlib.ticker.FuncFormatter(lambda us, _: f"{us:,.0f}" if us >= 1 else f"{us:g}")
        )
        axes.set_xlabel("agents")
        axes.set_title(TITLES[name], fontsize=10)
        axes.grid(True, which="both", alpha=0.25)
        axes.legend(fontsize=9, loc="lower right", title="labels: library / peer", title_fontsize=8)
    panels[0][0].set_ylabel("µs per update(1/60), median of rounds")
    figure.suptitle("Small worlds: arcade_steering against a per-agent pure-Python loop")
    figure.tight_layout()
    figure.savefig(out)
    plt.close(figure)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="JSON written by small_worlds.py --json")
    parser.add_argument("out", help="PNG to write")
    args = parser.parse_args(argv)
    if importlib.util.find_spec("matplotlib") is None:
        print("plot_small_worlds.py needs matplotlib: pip install -e '.[bench]'", file=sys.stderr)
        return 1
    with open(args.results, encoding="utf-8") as file:
        plot(json.load(file)["results"], args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
