"""What the package index and an installation get: the licence, the metadata, a long description
an index can show, the declared dependencies, the demo inside the package, and (slow) the built
sdist and wheel installed in a fresh virtual environment."""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import importlib.util
import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

import arcade_steering

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "arcade_steering"
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: Commands and paths that only exist in a checkout of the repository.
CHECKOUT_ONLY = (
    "pip install -e",
    "mkdocs",
    "benchmarks/",
    "tests/",
    "docs/",
    "python -m demo_game",
)


def _pyproject() -> dict:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _long_description(readme: str) -> str:
    return runpy.run_path(str(ROOT / "setup.py"))["long_description"](readme)


def test_the_licence_ships_with_the_metadata() -> None:
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    project = _pyproject()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]


def test_the_long_description_leaves_out_what_only_a_checkout_has() -> None:
    description = _long_description(README)
    for text in CHECKOUT_ONLY:
        assert text in README  # the repository's README has them ...
        assert text not in description, text  # ... the index does not
    assert "![" in README and "![" not in description  # the pictures are repository files
    assert not re.findall(r"\]\((?![a-z]+://)", description)  # links only to URLs
    assert "[arcade](https://api.arcade.academy)" in description
    # What it gives instead works after `pip install arcade-steering`.
    assert "pip install arcade-steering && arcade-steering-demo" in description
    for module in re.findall(r"python -m ([\w.]+)", description):
        assert importlib.util.find_spec(module) is not None, module
        assert module.split(".")[0] == "arcade_steering"
    # Sections are left out only whole, and only the marked ones.
    headings = re.findall(r"^## (.+)$", description, re.M)
    assert headings == [h for h in re.findall(r"^## (.+)$", README, re.M) if h != "Performance"]


def test_a_relative_link_outside_the_checkout_only_parts_is_refused() -> None:
    readme = README + "\nSee [the gallery](docs/gallery.md).\n"
    with pytest.raises(ValueError, match=r"docs/gallery\.md.*<!-- checkout only -->"):
        _long_description(readme)


def test_no_count_of_examples_or_unmeasured_test_duration_is_claimed() -> None:
    # Such figures went stale (nine examples when there were eleven, "about two minutes" for a
    # suite of eight CPU-minutes): a duration of the tests is stated only in the sentence that
    # names the script measuring it, and CI runs that script against the README.
    number = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few)"
    duration = r"\b(minutes?|CPU-seconds|\d+ s)\b"
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    for page in pages:
        if page.name == "changelog.md":  # history: what was true of each version
            continue
        text = page.read_text(encoding="utf-8")
        assert not re.search(rf"\b{number} (small |runnable )?examples\b", text, re.I), page
        for sentence in re.split(r"(?<=[.:;])\s", text):
            if re.search(r"\btests?\b|\bpytest\b", sentence) and re.search(duration, sentence):
                assert "benchmarks/suite_time.py" in sentence, (page.name, sentence)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python benchmarks/suite_time.py --check README.md" in ci


def _third_party_imports() -> set[str]:
    """Top-level modules the package imports at run time (not for type checkers alone) that
    are neither its own nor the standard library's."""

    class Imports(ast.NodeVisitor):
        def __init__(self) -> None:
            self.names: set[str] = set()

        def visit_If(self, node: ast.If) -> None:
            if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            self.names.update(alias.name.split(".")[0] for alias in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level == 0 and node.module:
                self.names.add(node.module.split(".")[0])

    imports = Imports()
    for path in PACKAGE.rglob("*.py"):
        imports.visit(ast.parse(path.read_text(encoding="utf-8")))
    return imports.names - set(sys.stdlib_module_names) - {"arcade_steering", "__future__"}


def test_every_imported_distribution_is_declared() -> None:
    declared = {
        re.match(r"[A-Za-z0-9_.-]+", requirement).group().lower().replace("_", "-")
        for requirement in _pyproject()["project"]["dependencies"]
    }
    by_module = importlib.metadata.packages_distributions()
    imported = {
        dist.lower().replace("_", "-")
        for module in _third_party_imports()
        for dist in by_module[module]
    }
    assert imported == {"arcade", "cffi", "numpy", "pillow", "pyglet", "pymunk", "pytiled-parser"}
    assert imported <= declared


def test_only_arcade_steering_is_installed_with_the_demo_and_its_data() -> None:
    setuptools = _pyproject()["tool"]["setuptools"]
    assert setuptools["packages"]["find"]["include"] == ["arcade_steering*"]
    data = setuptools["package-data"]["arcade_steering"]
    assert PACKAGE / "demo" / "level.tmj" in {p for glob in data for p in PACKAGE.glob(glob)}
    (target,) = _pyproject()["project"]["scripts"].values()
    module, _, function = target.partition(":")
    assert module == "arcade_steering.demo.__main__"
    assert callable(getattr(importlib.import_module(module), function))
    # The sdist builds the wheel only: its tests would need the repository's other folders.
    assert "prune tests" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()


def test_the_version_has_one_source() -> None:
    project = _pyproject()
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "arcade_steering.__version__"
    }
    assert re.fullmatch(r"\d+\.\d+\.\d+((a|b|rc)\d+)?", arcade_steering.__version__)


# -- the built distributions -------------------------------------------------------------------


def _run(*command: str | Path, **kwargs) -> str:
    result = subprocess.run(
        [str(part) for part in command], capture_output=True, text=True, timeout=900, **kwargs
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


#: What a checkout holds besides its sources: not copied to build from.
#: The in-place build of the extension is one too: the wheel must compile its own.
LOCAL_FILES = (
    ".git",
    "*.egg-info",
    "build",
    "dist",
    "site",
    ".venv",
    "__pycache__",
    ".*_cache",
    "_kernel.*",
)


def test_release_wheels_are_one_abi3_wheel_per_platform() -> None:
    # The limited API's version is the oldest Python the package supports, and cibuildwheel
    # builds for that one only: its wheel serves every later CPython.
    project = _pyproject()
    assert project["project"]["requires-python"] == ">=3.10"
    assert project["tool"]["distutils"]["bdist_wheel"]["py-limited-api"] == "cp310"
    cibuildwheel = project["tool"]["cibuildwheel"]
    assert cibuildwheel["build"] == "cp310-*"
    # Its test fails on a wheel without the compiled extension.
    assert 'python -c "import arcade_steering._native._kernel"' in cibuildwheel["test-command"]


@pytest.mark.slow
def test_the_built_distributions_install_and_run_the_demo(tmp_path: Path) -> None:
    pytest.importorskip("build")
    pytest.importorskip("twine")
    # Built from a copy: setuptools leaves its egg-info and build/ next to the sources.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*LOCAL_FILES))
    dist = tmp_path / "dist"
    _run(sys.executable, "-m", "build", "--outdir", dist, source)
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    _run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist)

    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA")).rpartition("/")[0]
        metadata = archive.read(f"{info}/METADATA").decode()
    assert {name.split("/")[0] for name in names} == {"arcade_steering", info}
    assert "arcade_steering/demo/level.tmj" in names
    # The compiled extension, for every CPython from 3.10 on (the limited API).
    assert wheel.name.split("-")[2:4] == ["cp310", "abi3"]
    extension = "_kernel.pyd" if os.name == "nt" else "_kernel.abi3.so"
    assert f"arcade_steering/_native/{extension}" in names
    assert f"Version: {arcade_steering.__version__}\n" in metadata
    with tarfile.open(sdist) as archive:
        members = {name.partition("/")[2] for name in archive.getnames()}
    assert not {name for name in members if name.startswith(("tests", "demo_game"))}

    # A fresh environment, without this checkout on its path.
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    env = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    env["ARCADE_HEADLESS"] = "1"
    _run(bin_dir / "python", "-m", "pip", "install", "--quiet", wheel, env=env, cwd=tmp_path)
    headless = ("--headless", "--frames", "30", "--followers", "3")
    for command in (
        (bin_dir / "arcade-steering-demo", *headless),
        (bin_dir / "python", "-m", "arcade_steering.demo", *headless),
    ):
        summary = json.loads(_run(*command, env=env, cwd=tmp_path).strip().splitlines()[-1])
        assert summary["frames"] == 30 and summary["followers"] == 3
    # The installed package steers with the wheel's extension.
    native = (
        "import arcade_steering as steer\n"
        "from arcade_steering.testing import StubSprite\n"
        "world = steer.SteeringWorld()\n"
        "world.attach(StubSprite(0.0, 0.0), steer.Arrive(target=(100.0, 0.0)))\n"
        "world.update(1 / 60)\n"
        "print(steer.__file__, world.native_report().native)\n"
    )
    location, is_native = _run(bin_dir / "python", "-c", native, env=env, cwd=tmp_path).split()
    assert Path(location).is_relative_to(env_dir) and is_native == "True"
    # The checkout's shim is not installed: the name is too generic to claim.
    shim = subprocess.run(
        [bin_dir / "python", "-c", "import demo_game"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert "No module named 'demo_game'" in shim.stderr
