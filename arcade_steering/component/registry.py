"""The one list of built-in components: each registers where it is defined, with an example.

A built-in behaviour or combiner is decorated once::

    @built_in(lambda the: Arguments(target=the.point))
    class Seek(SteeringComponent): ...

From this list come the package's exports, the type names tree data reads, the API page's
list of components and the test tables that run every component. The example is the
smallest valid call of the class, built from :class:`Things` a test (or a tool) provides.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .base import SteeringComponent

__all__ = ["BUILT_IN", "Arguments", "Things", "built_in", "example"]

#: The built-in components by class name, in the order they were registered.
BUILT_IN: dict[str, type[SteeringComponent]] = {}
#: Each built-in component's example, by class name.
_EXAMPLES: dict[str, Callable[[Things], Arguments]] = {}

C = TypeVar("C", bound=type[SteeringComponent])


@dataclass(frozen=True)
class Things:
    """What an example may steer by: objects of a small furnished world.

    Attributes:
        point: A fixed ``(x, y)`` point, px.
        leader: A sprite attached to the world.
        path: An :class:`~arcade_steering.Path`.
        field: A :class:`~arcade_steering.FlowField`.
    """

    point: tuple[float, float]
    leader: Any
    path: Any
    field: Any


class Arguments:
    """The arguments of one call: ``Arguments(*args, **kwargs)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs

    def call(self, cls: type[SteeringComponent], **overrides: Any) -> SteeringComponent:
        """``cls(*args, **kwargs)`` with ``overrides`` replacing keyword arguments."""
        return cls(*self.args, **{**self.kwargs, **overrides})


def built_in(example: Callable[[Things], Arguments]) -> Callable[[C], C]:
    """Register a built-in component class under its name, with ``example``, the arguments
    of a valid instance made from :class:`Things`."""

    def register(cls: C) -> C:
        name = cls.__name__
        if name in BUILT_IN:
            raise ValueError(f"a built-in component named {name!r} is registered already")
        BUILT_IN[name] = cls
        _EXAMPLES[name] = example
        return cls

    return register


def example(name: str, the: Things, **overrides: Any) -> SteeringComponent:
    """A valid instance of the built-in component ``name`` steering by ``the`` things;
    ``overrides`` replace its keyword arguments."""
    return _EXAMPLES[name](the).call(BUILT_IN[name], **overrides)
