"""A griffe extension for the API reference: the signatures of declared components.

A component declares its parameters as class attributes (``slowing_radius: float =
param(100.0, gt=0.0)``) and gets its ``__init__`` when the class is created, so the source
has no ``__init__`` to read. This extension asks the imported class for its signature and
gives the documented class an ``__init__`` with those parameters (and their defaults).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterator
from typing import Any

import griffe

_KINDS = {
    inspect.Parameter.POSITIONAL_OR_KEYWORD: griffe.ParameterKind.positional_or_keyword,
    inspect.Parameter.KEYWORD_ONLY: griffe.ParameterKind.keyword_only,
}


class ComponentSignatures(griffe.Extension):
    """Give every component class with a generated ``__init__`` its signature."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Add the ``__init__`` of each declared component once the package is loaded."""
        if pkg.path != "arcade_steering":
            return
        base = importlib.import_module("arcade_steering").SteeringComponent
        for cls in _classes(pkg):
            runtime = getattr(importlib.import_module(cls.module.path), cls.name, None)
            init = vars(runtime).get("__init__") if isinstance(runtime, type) else None
            if init is None or not issubclass(runtime, base) or "__init__" in cls.members:
                continue
            cls.set_member("__init__", _function(init))


def _function(init: Any) -> griffe.Function:
    parameters = [
        griffe.Parameter(
            each.name,
            annotation=None if each.annotation is each.empty else str(each.annotation),
            kind=_KINDS[each.kind],
            default=None if each.default is each.empty else repr(each.default),
        )
        for each in inspect.signature(init).parameters.values()
        if each.name != "self"
    ]
    self = griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword)
    return griffe.Function("__init__", parameters=griffe.Parameters(self, *parameters))


def _classes(module: griffe.Module) -> Iterator[griffe.Class]:
    for member in module.members.values():
        if member.is_alias:
            continue
        if member.is_module:
            yield from _classes(member)
        elif member.is_class:
            yield member
