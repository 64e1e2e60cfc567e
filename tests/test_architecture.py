"""The package's shape, read from its source with ``ast``: layers, no import circles, no
private reads across modules, no module too long to hold in one's head.

Layers, lowest first: a module may import its own layer and the layers below, never above.
Every import counts, including those under ``if TYPE_CHECKING:`` and inside functions.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "arcade_steering"

#: Top-level units of the package (a module or a sub-package), lowest layer first.
LAYERS: list[set[str]] = [
    {"_util"},
    {"geometry", "neighbors", "path", "flowfield", "debug"},
    {"_arcade", "solid"},
    {"_core"},
    {"component"},
    {"behaviors", "combine", "params", "_native"},
    {"agent", "world"},
    {"testing", "formations", "slots", "tree_data", "replay", "saves"},
    {"tiled"},
    {"examples", "demo", "__init__", "__main__"},
]
MAX_LINES = 400
#: Modules allowed to be longer, and why: a signal, not a knife (a file ends where its
#: concern does). The world is the library's front door: every public method a game calls
#: is documented there, and cutting the class in two made Python name a base class in the
#: game's argument errors.
LONGER = {"arcade_steering.world": 560}
#: Private names of other libraries the sprite sync writes directly, on purpose: arcade's own
#: setters cost ~0.9 µs a sprite (see arcade_steering/_arcade/sprite_sync.py).
ARCADE_INTERNALS = {
    "_position",
    "_angle",
    "_hit_box",
    "_adjusted_cache_dirty",
    "_sprite_pos_angle_data",
    "_sprite_pos_angle_changed",
}
#: Private-looking names that are public API of the standard library.
STANDARD = {"_fields", "_replace", "_asdict", "_make"}


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``arcade_steering.world``)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> set[str]:
    """The package's modules that module ``name`` imports."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    here = name if _is_package(name) else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            submodules = {f"{target}.{alias.name}" for alias in node.names}
            found.update(submodules & MODULES.keys() or {target})
    return {each for each in found if each in MODULES and each != name}


GRAPH = {name: _imports(name) for name in MODULES}


def _unit(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer(name: str) -> int:
    unit = _unit(name)
    for number, layer in enumerate(LAYERS):
        if unit in layer:
            return number
    raise AssertionError(f"{name} is in no layer: add {unit!r} to LAYERS")


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        _layer(name)


def test_no_module_imports_a_higher_layer() -> None:
    upward = [
        f"{name} (layer {_layer(name)}) imports {other} (layer {_layer(other)})"
        for name, others in GRAPH.items()
        for other in others
        if _layer(other) > _layer(name)
    ]
    assert upward == []


def test_no_import_circles() -> None:
    # A circle through a package's __init__ and its own submodules is how packages re-export;
    # any other circle (two modules needing each other) is a defect.
    def real(name: str, other: str) -> bool:
        return not (_is_package(other) and name.startswith(other + "."))

    state: dict[str, int] = defaultdict(int)  # 0 new, 1 on the stack, 2 done
    circles: list[list[str]] = []

    def visit(name: str, stack: list[str]) -> None:
        state[name] = 1
        stack.append(name)
        for other in sorted(GRAPH[name]):
            if not real(name, other):
                continue
            if state[other] == 1:
                circles.append([*stack[stack.index(other) :], other])
            elif state[other] == 0:
                visit(other, stack)
        stack.pop()
        state[name] = 2

    for name in sorted(MODULES):
        if state[name] == 0:
            visit(name, [])
    assert circles == []


def _defined_private_names(tree: ast.Module) -> set[str]:
    """Private names a module defines: functions, classes, attributes it assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if name.startswith("_") and not name.startswith("__")}


DEFINED = {
    name: _defined_private_names(ast.parse(path.read_text(encoding="utf-8")))
    for name, path in MODULES.items()
}
EVERY_PRIVATE = set().union(*DEFINED.values())


def test_no_module_reads_another_modules_private_state() -> None:
    """``obj._name`` on anything but ``self``/``cls`` only where ``_name`` is the module's own
    (one class reading another instance of itself), or arcade's internals in ``_arcade/``."""
    reads = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            attr = node.attr
            if not attr.startswith("_") or attr.startswith("__") or attr in STANDARD:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if attr in DEFINED[name] and attr not in _defined_elsewhere(name, attr):
                continue
            if _unit(name) == "_arcade" and attr in ARCADE_INTERNALS:
                continue
            reads.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} .{attr}")
    assert reads == []


def _defined_elsewhere(name: str, attr: str) -> set[str]:
    """``{attr}`` if another module defines it too (then a read may be of that one)."""
    return (
        {attr} if any(attr in names for other, names in DEFINED.items() if other != name) else set()
    )


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_is_short(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= LONGER.get(name, MAX_LINES), f"{MODULES[name].name}: {lines} lines"


def test_importing_and_updating_pulls_in_no_lazy_numpy_module() -> None:
    # np.median imports numpy.ma on first use: 6 ms inside a game's first update.
    import subprocess
    import sys

    script = (
        "import sys\n"
        "import arcade_steering as steer\n"
        "from arcade_steering.testing import StubSprite\n"
        "world = steer.SteeringWorld()\n"
        "world.add_walls([(0, 0), (100, 0), (100, 100)])\n"
        "world.add_obstacle((50, 50), 10)\n"
        "world.attach(StubSprite(10, 10), steer.PriorityBlend(steer.AvoidWalls(),"
        " steer.AvoidObstacles(), steer.Separation(20), steer.Seek((90, 90))))\n"
        "world.update(1 / 60)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[:2] == ['numpy', 'ma']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == "[]"


#: The folders of the core, each one concern: the world's storage and its exchange with the
#: game, what components are made of, and the solid step.
CORE_FOLDERS = ("_core", "component", "solid")
#: The most floors (the longest chain of imports among a folder's own modules) in each.
MAX_FLOORS = 6


def _floors(folder: str) -> dict[str, int]:
    """Each module of ``folder`` by its floor: 1 for a module importing none of its folder's
    modules, else one more than the highest it imports."""
    inside = {name for name in MODULES if _unit(name) == folder and name.count(".") == 2}
    floors: dict[str, int] = {}

    def floor(name: str) -> int:
        if name not in floors:
            below = [floor(other) for other in GRAPH[name] if other in inside]
            floors[name] = 1 + max(below, default=0)
        return floors[name]

    for name in inside:
        floor(name)
    return floors


@pytest.mark.parametrize("folder", CORE_FOLDERS)
def test_the_core_folders_have_few_floors(folder: str) -> None:
    floors = _floors(folder)
    assert floors, f"{folder} has no modules"
    highest = max(floors.values())
    chain = sorted(floors, key=floors.get)
    assert highest <= MAX_FLOORS, f"{folder}: {highest} floors ({chain})"
