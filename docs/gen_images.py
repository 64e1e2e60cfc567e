"""Render the documentation's pictures headless: the behaviour gallery and the demo game.

Each gallery picture is one example scene (``arcade_steering.examples``) in one mode, run for
a few seconds at a fixed 1/60 s step with the debug overlay on and the agents' trails drawn.
The demo's picture (``demo``, shown by the README and the home page) is the last frame of its
headless run, HUD included. All are saved as optimised PNGs in ``docs/images/``.

Usage::

    ARCADE_HEADLESS=1 python docs/gen_images.py            # every picture
    ARCADE_HEADLESS=1 python docs/gen_images.py seek demo  # some of them
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")

from PIL import Image

from arcade_steering.examples._base import DT, headless_window, render, run_frames

WIDTH, HEIGHT = 640, 400
OUT = Path(__file__).parent / "images"

#: picture name -> (example module, mode, seconds to run before the picture)
GALLERY: dict[str, tuple[str, str, float]] = {
    "seek": ("seek_arrive", "seek", 6.5),
    "flee": ("seek_arrive", "flee", 3.0),
    "arrive": ("seek_arrive", "arrive", 5.0),
    "pursue": ("seek_arrive", "pursue", 5.0),
    "evade": ("seek_arrive", "evade", 3.0),
    "wander": ("seek_arrive", "wander", 8.0),
    "follow_path": ("paths", "follow_path", 9.0),
    "follow_waypoints": ("paths", "follow_waypoints", 12.0),
    "stay_on_path": ("paths", "stay_on_path", 8.0),
    "avoid_walls": ("walls_obstacles", "avoid_walls", 8.0),
    "avoid_obstacles": ("walls_obstacles", "avoid_obstacles", 9.0),
    "context_steering": ("context_steering", "trap", 3.6),
    "running_sum": ("walls_obstacles", "running_sum", 5.0),
    "separation": ("flocking", "separation", 0.7),
    "alignment": ("flocking", "alignment", 5.0),
    "cohesion": ("flocking", "cohesion", 4.0),
    "avoid_agents": ("flocking", "avoid_agents", 8.0),
    "blends": ("flocking", "blends", 10.0),
    "follow_leader": ("leader", "follow_leader", 6.0),
    "evade_sight_cone": ("leader", "evade_sight_cone", 1.7),
    "offset_pursuit": ("leader", "formation", 5.0),
    "queue": ("doorway", "queue", 3.0),
    "face": ("looking", "face", 6.0),
    "scan": ("looking", "scan", 6.0),
    "hide": ("tactics", "hide", 8.0),
    "interpose": ("tactics", "interpose", 8.0),
    "containment": ("tactics", "containment", 10.0),
    "match_velocity": ("tactics", "match_velocity", 5.0),
    "flow_field": ("flow_field", "towards", 6.0),
    "flow_field_function": ("flow_field", "function", 6.0),
    "tiled_astar": ("tiled_astar", "astar", 3.5),
    "camera": ("camera", "follow", 12.0),
    "jump": ("platformer", "ledges", 3.5),
}


#: The demo's run for its picture: 15 s in, the squad on the bottom leg behind its leader.
DEMO_RUN = ("--frames", "900", "--seed", "3")


def save(image: Image.Image, out: Path) -> None:
    """An adaptive palette keeps the (flat-coloured) pictures small."""
    image.quantize(colors=128, dither=0).save(out, optimize=True)


def generate_demo() -> Path:
    """The demo game's picture, from its own headless run (a window of its size)."""
    out = OUT / "demo.png"
    command = [sys.executable, "-m", "demo_game", "--headless", *DEMO_RUN, "--screenshot", out]
    subprocess.run(command, check=True, capture_output=True)
    save(Image.open(out), out)
    return out


def generate(name: str) -> Path:
    """Run the scene behind picture ``name`` and save it; returns the file."""
    if name == "demo":
        return generate_demo()
    module_name, mode, seconds = GALLERY[name]
    module = importlib.import_module(f"arcade_steering.examples.{module_name}")
    scene = module.make_scene(WIDTH, HEIGHT, mode=mode)
    run_frames(scene, round(seconds / DT))
    out = OUT / f"{name}.png"
    save(render(scene), out)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    pictures = [*GALLERY, "demo"]
    parser.add_argument("names", nargs="*", help=f"pictures to make (default all): {pictures}")
    names = parser.parse_args(argv).names or pictures
    unknown = sorted(set(names) - set(pictures))
    if unknown:
        parser.error(f"unknown pictures: {unknown}")
    OUT.mkdir(exist_ok=True)
    headless_window(WIDTH, HEIGHT)
    for name in names:
        path = generate(name)
        print(
            f"{path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}"
            f"  {path.stat().st_size // 1024} KiB",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
