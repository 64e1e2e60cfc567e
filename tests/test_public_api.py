"""The public surface: every exported name resolves and is documented; doctests run."""

from __future__ import annotations

import doctest
import importlib
import inspect
import pkgutil

import pytest

import arcade_steering as steer

MODULES = sorted(
    info.name for info in pkgutil.walk_packages(steer.__path__, prefix=f"{steer.__name__}.")
)


def test_all_is_unique() -> None:
    assert len(set(steer.__all__)) == len(steer.__all__)


@pytest.mark.parametrize("name", steer.__all__)
def test_public_name_resolves_and_has_a_docstring(name: str) -> None:
    value = getattr(steer, name)
    doc = inspect.getdoc(value)
    assert doc and doc.strip(), f"{name} has no docstring"


@pytest.mark.parametrize("name", [n for n in steer.__all__ if inspect.isclass(getattr(steer, n))])
def test_public_methods_and_properties_have_docstrings(name: str) -> None:
    cls = getattr(steer, name)
    missing = []
    for attr, value in vars(cls).items():
        if attr.startswith("_"):
            continue
        documentable = inspect.isfunction(value) or isinstance(value, property)
        if documentable and not inspect.getdoc(value):
            missing.append(attr)
    assert not missing, f"{name}: undocumented {missing}"


def test_design_names_are_exported() -> None:
    for name in (
        "SteeringWorld",
        "SteeringAgent",
        "SteeringComponent",
        "Seek",
        "Flee",
        "Arrive",
        "Pursue",
        "Evade",
        "Wander",
        "WeightedBlend",
        "PriorityBlend",
    ):
        assert name in steer.__all__
    assert inspect.getdoc(steer.testing.StubSprite)
    assert inspect.getdoc(steer.testing.steering_force)


def test_package_has_doctests() -> None:
    examples = 0
    for name in MODULES:
        finder = doctest.DocTestFinder()
        examples += sum(len(t.examples) for t in finder.find(importlib.import_module(name)))
    assert examples >= 5


@pytest.mark.parametrize("module_name", MODULES)
def test_doctests_pass(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {module_name}"
