"""Built-in steering behaviours, one family per module; each class registers itself."""

from __future__ import annotations

import importlib
import pkgutil

from ..component.base import SteeringComponent
from ..component.registry import BUILT_IN

__all__ = ["built_in_components"]

#: The packages whose modules define the built-in components.
_PACKAGES = ("arcade_steering.behaviors", "arcade_steering.combine")


def built_in_components() -> dict[str, type[SteeringComponent]]:
    """Every built-in behaviour and combiner by class name, sorted: imports each module of
    ``behaviors`` and ``combine`` (each registers its classes) and reads the registry."""
    for package in _PACKAGES:
        for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
            importlib.import_module(f"{package}.{module.name}")
    return dict(sorted(BUILT_IN.items()))
