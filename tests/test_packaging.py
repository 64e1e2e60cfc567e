"""What the package index and an installation get: the licence, a long description an index can
show, and the demo's console script."""

from __future__ import annotations

import importlib.metadata
import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_licence_ships_with_the_metadata() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'license = "MIT"' in pyproject and 'license-files = ["LICENSE"]' in pyproject


def test_the_long_description_is_the_readme_without_repository_paths() -> None:
    long_description = runpy.run_path(str(ROOT / "setup.py"))["long_description"]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "![" in readme  # the repository's README shows the pictures
    description = long_description(readme)
    assert "![" not in description
    # Links stay only where they are URLs; the others are their text.
    assert all(
        re.match(r"[a-z]+://", target) for target in re.findall(r"\]\(([^)]*)\)", description)
    )
    assert "[arcade](https://api.arcade.academy)" in description
    assert "The documentation lives in `docs/`" in description
    assert description.count("\n## ") == readme.count("\n## ")  # nothing else left out


def test_the_demo_has_a_console_script() -> None:
    (script,) = importlib.metadata.entry_points(
        group="console_scripts", name="arcade-steering-demo"
    )
    from demo_game.__main__ import main

    assert script.load() is main
