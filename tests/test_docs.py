"""The documentation: public names documented and in the API reference, doctests and
snippets that run, pages and links that exist, and a site that builds with ``mkdocs build
--strict`` (slow)."""

from __future__ import annotations

import doctest
import html
import importlib.util
import inspect
import os
import pkgutil
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import arcade
import pytest

import arcade_steering as steer

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.glob("*.md"))
#: Public modules whose members the reference documents (besides ``arcade_steering`` itself).
PUBLIC_MODULES = (
    "arcade_steering.formations",
    "arcade_steering.slots",
    "arcade_steering.testing",
    "arcade_steering.tiled",
    "arcade_steering.debug",
    "arcade_steering.geometry",
)
#: A page marks a self-contained snippet with this line right before its fence; the marked
#: snippets of a page run in order, in one namespace.
RUN_MARK = "<!-- test: run -->"
FRAMES = 30

_FENCE = re.compile(
    r"^(?P<mark>" + re.escape(RUN_MARK) + r"\n)?```python\n(?P<code>.*?)^```", re.M | re.S
)


def _modules_with_doctests() -> list[str]:
    """The package's modules whose docstrings hold at least one doctest example."""
    finder = doctest.DocTestFinder()
    return [
        info.name
        for info in pkgutil.walk_packages(steer.__path__, prefix=f"{steer.__name__}.")
        if any(test.examples for test in finder.find(importlib.import_module(info.name)))
    ]


DOCTEST_MODULES = _modules_with_doctests()


def _snippets(page: Path) -> list[tuple[bool, str]]:
    """``(marked to run, code)`` of every Python block of ``page``."""
    return [
        (bool(match["mark"]), match["code"])
        for match in _FENCE.finditer(page.read_text(encoding="utf-8"))
    ]


def _api_identifiers() -> set[str]:
    text = _registry_hook().expand((DOCS / "api.md").read_text(encoding="utf-8"))
    return set(re.findall(r"^::: *([\w.]+)", text, re.M))


def _registry_hook() -> Any:
    """docs/registry_hook.py, which lists the registered components on the API page."""
    spec = importlib.util.spec_from_file_location("registry_hook", DOCS / "registry_hook.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", steer.__all__)
def test_public_name_has_a_docstring(name: str) -> None:
    assert (inspect.getdoc(getattr(steer, name)) or "").strip(), f"{name} has no docstring"


def test_all_is_unique_and_holds_the_design_names() -> None:
    assert len(set(steer.__all__)) == len(steer.__all__)
    design = {"SteeringWorld", "SteeringAgent", "SteeringComponent", "Seek", "Flee", "Arrive"}
    design |= {"Pursue", "Evade", "Wander", "WeightedBlend", "PriorityBlend"}
    assert design <= set(steer.__all__)
    assert inspect.getdoc(steer.testing.StubSprite)
    assert inspect.getdoc(steer.testing.steering_force)


@pytest.mark.parametrize("name", [n for n in steer.__all__ if inspect.isclass(getattr(steer, n))])
def test_public_methods_and_properties_have_docstrings(name: str) -> None:
    cls = getattr(steer, name)
    missing = [
        attr
        for attr, value in vars(cls).items()
        if not attr.startswith("_")
        and (inspect.isfunction(value) or isinstance(value, property))
        and not inspect.getdoc(value)
    ]
    assert not missing, f"{name}: undocumented {missing}"


def test_the_package_has_doctests_in_its_core_modules() -> None:
    # Modules are scanned at collection: a new module with doctests is collected by itself.
    assert {"arcade_steering.geometry", "arcade_steering.world"} <= set(DOCTEST_MODULES)


@pytest.mark.parametrize("module_name", DOCTEST_MODULES)
def test_doctests_pass(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {module_name}"


@pytest.mark.parametrize("name", steer.__all__)
def test_public_name_is_in_the_api_reference(name: str) -> None:
    value = getattr(steer, name)
    module = value.__name__ if inspect.ismodule(value) else value.__module__
    covered = {f"arcade_steering.{name}", module, f"{module}.{name}"}
    assert covered & _api_identifiers(), f"docs/api.md has no '::: arcade_steering.{name}'"


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_public_module_is_in_the_api_reference(module: str) -> None:
    assert module in _api_identifiers(), f"docs/api.md has no '::: {module}'"
    assert (inspect.getdoc(importlib.import_module(module)) or "").strip()


def _resolves(identifier: str) -> bool:
    try:
        importlib.import_module(identifier)
    except ImportError:
        module, _, attribute = identifier.rpartition(".")
        return hasattr(importlib.import_module(module), attribute)
    return True


def test_api_reference_names_resolve() -> None:
    unresolved = [name for name in sorted(_api_identifiers()) if not _resolves(name)]
    assert not unresolved, f"docs/api.md documents names that do not exist: {unresolved}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_python_snippets_compile(page: Path) -> None:
    for index, (_, code) in enumerate(_snippets(page)):
        compile(code, f"{page.name}, python block {index}", "exec")


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    window = arcade.Window(800, 600, "docs", visible=False)
    yield window
    window.close()


@pytest.mark.parametrize(
    "page",
    [page for page in PAGES if any(run for run, _ in _snippets(page))],
    ids=lambda page: page.name,
)
def test_marked_snippets_run(
    page: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run the page's marked snippets; a ``GameView`` one runs a few frames, and ``test_*``
    functions the snippets define are called."""
    monkeypatch.chdir(ROOT)  # snippets name files as a user in a checkout would
    namespace: dict[str, Any] = {"__name__": f"docs_{page.stem}"}
    for index, (run, code) in enumerate(_snippets(page)):
        if not run:
            continue
        namespace.pop("GameView", None)
        exec(compile(code, f"{page.name}, python block {index}", "exec"), namespace)
        if "GameView" in namespace:
            window = request.getfixturevalue("window")
            view = namespace["GameView"]()
            window.show_view(view)
            for _ in range(FRAMES):
                view.on_update(1 / 60)
                view.on_draw()
    for name, value in list(namespace.items()):
        if name.startswith("test_") and callable(value):
            value()


def test_every_page_is_in_the_nav_and_every_relative_link_has_a_target() -> None:
    """A quick share of what the strict build checks (that build is slow: ``pytest -m slow``
    and CI run it): no page left out of the nav or named there without a file, no link to a
    page or a picture that is not there, and the docstring extensions the build loads exist."""
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = set(re.findall(r"^  - [^:\n]+: (\S+\.md)$", config, re.M))
    assert nav == {page.name for page in PAGES}
    for extension in re.findall(r"^ +- (docs/\S+\.py)$", config, re.M):
        assert (ROOT / extension).is_file(), extension
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


@pytest.mark.slow
def test_mkdocs_build_strict(tmp_path: Path) -> None:
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        if importlib.util.find_spec(module.split(".")[0]) is None:
            pytest.skip(f"{module} is not installed (pip install -e '.[docs]')")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "ARCADE_HEADLESS": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)]
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    api = (tmp_path / "api" / "index.html").read_text(encoding="utf-8")
    # Signatures are formatted (ruff, from the docs extra): one parameter a line, none cut off.
    signatures = re.findall(r'<div class="doc-signature highlight"><pre>(.*?)</pre>', api, re.S)
    lines = [
        line
        for signature in signatures
        for line in html.unescape(re.sub(r"<[^>]+>", "", signature)).splitlines()
    ]
    assert len(signatures) > 50 and "    behavior: SteeringComponent," in lines
    assert max(map(len, lines)) <= 88, max(lines, key=len)
