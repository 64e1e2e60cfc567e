"""Declared parameters of components: validated on assignment, gathered per agent in batches.

A built-in component declares each parameter as a descriptor on its class::

    class Arrive(SteeringComponent):
        target = TargetParam()
        slowing_radius = FloatParam(minimum=0.0, exclusive=True)

Assigning validates the value (``ValueError`` / ``TypeError`` naming the parameter, nothing
changed on refusal). Because every parameter is declared, agents whose trees hold *different*
instances of the class can share one batch: the batch gathers each parameter into an array.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .._util.validate import check_bool, check_choice, check_real
from .targets import TargetRef


class Param:
    """Base descriptor: stores a validated value in the instance's ``__dict__``.

    Args:
        structural: True when the value changes how the component computes (a mode, a
            flag), so agents with different values cannot share a batch.
    """

    structural = False

    def __init__(self, *, structural: bool = False) -> None:
        self.structural = structural
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        try:
            return instance.__dict__[self.name]
        except KeyError:
            raise AttributeError(self.name) from None

    def __set__(self, instance: Any, value: Any) -> None:
        instance.__dict__[self.name] = self.validate(value)
        instance._parameter_changed(self)

    def validate(self, value: Any) -> Any:
        """Return the value to store, or raise naming the parameter."""
        return value


class FloatParam(Param):
    """A finite number with optional bounds; ``None`` allowed where it means "no limit".

    Args:
        minimum: Lowest allowed value, or None.
        exclusive: True when ``minimum`` itself is not allowed.
        maximum: Highest allowed value (inclusive), or None.
        optional: True when ``None`` is allowed (gathered as ``inf``).
    """

    def __init__(
        self,
        *,
        minimum: float | None = None,
        exclusive: bool = False,
        maximum: float | None = None,
        optional: bool = False,
    ) -> None:
        super().__init__()
        self.minimum = minimum
        self.exclusive = exclusive
        self.maximum = maximum
        self.optional = optional

    def validate(self, value: Any) -> float | None:
        if value is None and self.optional:
            return None
        number = check_real(self.name, value)
        if self.minimum is not None:
            if self.exclusive and number <= self.minimum:
                raise ValueError(f"{self.name} must be > {self.minimum}, got {number}")
            if number < self.minimum:
                raise ValueError(f"{self.name} must be >= {self.minimum}, got {number}")
        if self.maximum is not None and number > self.maximum:
            raise ValueError(f"{self.name} must be <= {self.maximum}, got {number}")
        return number


class TargetParam(Param):
    """A target: an ``(x, y)`` pair, an object with ``.position``, or a callable.

    Reading the attribute gives back what was assigned; batches read the :class:`TargetRef`.
    """

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return instance.__dict__[self.name].value

    def validate(self, value: Any) -> TargetRef:
        return TargetRef(value, self.name)

    def ref(self, instance: Any) -> TargetRef:
        """The stored :class:`TargetRef` of ``instance``."""
        return instance.__dict__[self.name]


class ChoiceParam(Param):
    """One of a fixed set of strings; structural (a different mode is a different shape)."""

    def __init__(self, choices: Sequence[str]) -> None:
        super().__init__(structural=True)
        self.choices = tuple(choices)

    def validate(self, value: Any) -> str:
        return check_choice(self.name, value, self.choices)


class BoolParam(Param):
    """A flag; structural."""

    def __init__(self) -> None:
        super().__init__(structural=True)

    def validate(self, value: Any) -> bool:
        return check_bool(self.name, value)


class ObjectParam(Param):
    """Any object checked by ``check``; gathered per agent as groups of agents sharing one.

    Args:
        check: Called with ``(name, value)``; returns the value to store or raises.
    """

    def __init__(self, check: Callable[[str, Any], Any]) -> None:
        super().__init__()
        self.check = check

    def validate(self, value: Any) -> Any:
        return self.check(self.name, value)


def gathered_value(value: Any) -> Any:
    """The number a batch gathers for a stored value (``None`` means no limit: ``inf``)."""
    return math.inf if value is None else value
