"""The demo runs headless for a few frames and draws something."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image


def test_demo_runs_headless_and_saves_a_frame(tmp_path: Path) -> None:
    shot = tmp_path / "shot.png"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "demo_game",
            "--headless",
            "--frames",
            "30",
            "--debug",
            "--screenshot",
            str(shot),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["frames"] == 30
    assert summary["ships"] == 12
    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 720)
    assert len(set(image.getdata())) > 20  # not a blank frame
