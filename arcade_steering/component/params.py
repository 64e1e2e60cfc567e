"""Declared parameters of components: one line each, checked on assignment, gathered per agent.

A component declares each parameter once, as a class attribute in the style of a dataclass::

    class Arrive(SteeringComponent):
        target: TargetLike = target()
        slowing_radius: float = param(default=100.0, gt=0.0)
        tolerance: float = param(default=2.0, ge=0.0)

The declarations give the class its ``__init__`` (parameters in declaration order, those
declared ``kw_only`` after a ``*``), its ``repr``, and a check on every assignment that raises
``TypeError`` / ``ValueError`` naming the parameter, with nothing changed on refusal. A plain
annotated attribute (``speed: float = 80.0``) is a parameter too, with no check.

Because every parameter is declared, agents whose trees hold *different* instances of a class
share one batch: in ``steer``, ``ctx.params(self)`` gathers each parameter over the batch's
instances (numbers as ``(n,)`` arrays, points as ``(n, 2)``, targets as positions and
velocities read now, objects such as a path as the agents grouped by the object they hold).
Structural parameters (``choice``, ``flag``) change how a component computes: agents with
different values never share a batch, so reading them from ``self`` is right.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.gather import Groups, gather_array, gather_groups
from .._util.validate import check_bool, check_choice, check_point, check_real
from .targets import TargetRef, TargetTable

if TYPE_CHECKING:
    from .._core.batches import BatchNode


class _Required:
    """The default of a parameter that has none: the caller must give it."""

    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()


class Param:
    """A declared parameter: a descriptor that checks and stores values in the instance.

    Args:
        default: The value ``__init__`` uses when none is given; :data:`REQUIRED` for none.
        kw_only: Whether ``__init__`` takes it by keyword only.
        check: Called with ``(name, value)``; returns the value to store or raises.
    """

    #: True when the value changes how the component computes (a mode, a flag): agents with
    #: different values cannot share a batch.
    structural = False

    def __init__(
        self,
        default: Any = REQUIRED,
        *,
        kw_only: bool = False,
        check: Callable[[str, Any], Any] | None = None,
    ) -> None:
        self.default = default
        self.kw_only = kw_only
        self.check = check
        self.name = ""
        # Documentation tools read a class attribute's __doc__: the parameter is documented
        # in its component's docstring, not by this descriptor's class.
        self.__doc__ = None

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
        instance.__dict__[self.name] = self.validate(instance, value)
        instance.changed(self.structural)

    def validate(self, instance: Any, value: Any) -> Any:
        """The value to store for ``instance``, or raise naming the parameter."""
        return value if self.check is None else self.check(self.name, value)

    def per_agent(self, node: BatchNode, n: int) -> Any:
        """This parameter of every agent of a batch node: numbers (or ``None``, "no limit")
        as a float array, anything else as :class:`Groups` (the subclasses know which)."""
        value = getattr(node.component, self.name)
        if value is None or (isinstance(value, (int, float)) and not isinstance(value, bool)):
            return gather_array(node, self.name, n)
        return gather_groups(node, self.name, n)


class NumberParam(Param):
    """A finite number within bounds; ``None`` where it means "no limit" (gathered as ``inf``).

    Gathered as a float array ``(n,)`` (``(n, k)`` for a tuple of ``k`` numbers).
    """

    def __init__(
        self,
        default: Any = REQUIRED,
        *,
        gt: float | None = None,
        ge: float | None = None,
        le: float | None = None,
        optional: bool = False,
        whole: bool = False,
        kw_only: bool = False,
        check: Callable[[str, Any], Any] | None = None,
    ) -> None:
        super().__init__(default, kw_only=kw_only, check=check)
        self.gt, self.ge, self.le = gt, ge, le
        self.optional = optional or default is None
        self.whole = whole

    def validate(self, instance: Any, value: Any) -> Any:
        if value is None and self.optional:
            return None
        if self.check is not None:
            return self.check(self.name, value)
        number = check_real(self.name, value)
        if self.gt is not None and number <= self.gt:
            raise ValueError(f"{self.name} must be > {self.gt}, got {number}")
        if self.ge is not None and number < self.ge:
            raise ValueError(f"{self.name} must be >= {self.ge}, got {number}")
        if self.le is not None and number > self.le:
            raise ValueError(f"{self.name} must be <= {self.le}, got {number}")
        if self.whole:
            if number != math.floor(number):
                raise ValueError(f"{self.name} must be a whole number, got {number}")
            return int(number)
        return number


class PointParam(Param):
    """A finite ``(x, y)`` pair, gathered as ``(n, 2)``."""

    def validate(self, instance: Any, value: Any) -> tuple[float, float]:
        return check_point(self.name, value)

    def per_agent(self, node: BatchNode, n: int) -> np.ndarray:
        return gather_array(node, self.name, n)


class TargetParam(Param):
    """A target: an ``(x, y)`` pair, an object with ``.position``, or a zero-argument callable.

    Reading the attribute gives back what was assigned. Gathered as a
    :class:`~arcade_steering.component.targets.TargetTable` (the frame reads positions from it).

    Args:
        moving: True for a leader: a fixed point is refused (it has no heading to follow).
    """

    def __init__(self, *, moving: bool = False, kw_only: bool = False) -> None:
        super().__init__(REQUIRED, kw_only=kw_only)
        self.moving = moving

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return instance.__dict__[self.name].value

    def validate(self, instance: Any, value: Any) -> TargetRef:
        ref = TargetRef(value, self.name)
        if self.moving and not ref.moving:
            raise TypeError(
                f"{self.name} must be a sprite (anything with .position) or a zero-argument "
                f"callable, got {type(value).__name__}"
            )
        return ref

    def ref(self, instance: Any) -> TargetRef:
        """The stored :class:`TargetRef` of ``instance``."""
        ref: TargetRef = instance.__dict__[self.name]
        return ref

    def per_agent(self, node: BatchNode, n: int) -> Any:
        return node.cached(("target", self.name), lambda node: TargetTable(node, self, n))


class GroupParam(Param):
    """Any object (a path, a flow field, a group of sprites), checked by ``check``.

    Gathered as :class:`Groups`: the agents grouped by the object they hold.
    """

    def per_agent(self, node: BatchNode, n: int) -> Groups:
        return gather_groups(node, self.name, n)


class ChoiceParam(Param):
    """One of a fixed set of strings; structural (a different mode is a different shape)."""

    structural = True

    def __init__(self, options: Sequence[str], default: Any = REQUIRED, **kw: Any) -> None:
        super().__init__(default, **kw)
        self.options = tuple(options)

    def validate(self, instance: Any, value: Any) -> str:
        return check_choice(self.name, value, self.options)

    def per_agent(self, node: BatchNode, n: int) -> Any:
        return getattr(node.component, self.name)


class FlagParam(Param):
    """True or False; structural."""

    structural = True

    def validate(self, instance: Any, value: Any) -> bool:
        return check_bool(self.name, value)

    def per_agent(self, node: BatchNode, n: int) -> Any:
        return getattr(node.component, self.name)


# -- the field specifiers a component class declares its parameters with ---------------------


def param(
    default: Any = REQUIRED,
    *,
    gt: float | None = None,
    ge: float | None = None,
    le: float | None = None,
    optional: bool = False,
    whole: bool = False,
    kw_only: bool = False,
    check: Callable[[str, Any], Any] | None = None,
) -> Any:
    """A number, gathered per agent as a float array ``(n,)``.

    Args:
        default: The default; None means "no limit" (gathered as ``inf``) and allows None.
        gt: The value must be greater than this.
        ge: The value must be at least this.
        le: The value must be at most this.
        optional: Whether None ("no limit") is allowed besides numbers.
        whole: Whether the value must be a whole number (stored as an int).
        kw_only: Whether ``__init__`` takes it by keyword only.
        check: Replaces the number checks: ``check(name, value)`` returns the value to store.
    """
    return NumberParam(
        default, gt=gt, ge=ge, le=le, optional=optional, whole=whole, kw_only=kw_only, check=check
    )


def point(default: Any = REQUIRED, *, kw_only: bool = False) -> Any:
    """An ``(x, y)`` pair, gathered per agent as ``(n, 2)``."""
    return PointParam(default, kw_only=kw_only)


def target(*, moving: bool = False, kw_only: bool = False) -> Any:
    """A target: a point, a sprite or a zero-argument callable; required.

    Args:
        moving: Refuse fixed points (a leader: a point has no heading to follow).
        kw_only: Whether ``__init__`` takes it by keyword only.
    """
    return TargetParam(moving=moving, kw_only=kw_only)


def group(
    check: Callable[[str, Any], Any], default: Any = REQUIRED, *, kw_only: bool = False
) -> Any:
    """Any object checked by ``check(name, value)``; gathered as the agents grouped by it."""
    return GroupParam(default, kw_only=kw_only, check=check)


def choice(options: Sequence[str], default: Any = REQUIRED, *, kw_only: bool = False) -> Any:
    """One of ``options``; structural."""
    return ChoiceParam(options, default, kw_only=kw_only)


def flag(default: Any = REQUIRED, *, kw_only: bool = False) -> Any:
    """True or False; structural."""
    return FlagParam(default, kw_only=kw_only)


def declare(cls: type, own: dict[str, Any]) -> dict[str, Param]:
    """The parameters of component class ``cls``, its bases' first, in declaration order.

    Plain annotated class attributes in ``own`` (the class body) become :class:`Param`s;
    ``ClassVar`` annotations do not.
    """
    annotations = own.get("__annotations__", {})
    for name, annotation in annotations.items():
        if "ClassVar" in str(annotation) or isinstance(own.get(name), Param):
            continue
        descriptor = Param(own.get(name, REQUIRED))
        descriptor.__set_name__(cls, name)
        setattr(cls, name, descriptor)
    declared: dict[str, Param] = {}
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, Param):
                declared[name] = value
    return declared


def make_init(cls: type, params: dict[str, Param]) -> Callable[..., None]:
    """An ``__init__`` taking ``params`` in order (keyword-only ones after a ``*``) and
    assigning each, so that each is checked as it is set."""
    positional = [p for p in params.values() if not p.kw_only]
    keyword = [p for p in params.values() if p.kw_only]
    defaults = {f"_default_{p.name}": p.default for p in params.values()}

    def spec(p: Param) -> str:
        return p.name if p.default is REQUIRED else f"{p.name}=_default_{p.name}"

    arguments = ", ".join(["self", *map(spec, positional), *(["*"] if keyword else [])])
    arguments += "".join(f", {spec(p)}" for p in keyword)
    body = "".join(f"\n    self.{p.name} = {p.name}" for p in params.values()) or "\n    pass"
    namespace: dict[str, Any] = {}
    exec(f"def __init__({arguments}) -> None:{body}", dict(defaults), namespace)
    init: Callable[..., None] = namespace["__init__"]
    declared = {}
    for klass in reversed(cls.__mro__):
        declared.update(vars(klass).get("__annotations__", {}))
    init.__annotations__ = {name: declared.get(name, "Any") for name in params} | {"return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = f"Set {cls.__name__}'s parameters (see the class)."
    return init
