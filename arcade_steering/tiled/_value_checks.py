"""Checks of single values in a level file's nodes, for every kind of node: whole numbers (ids,
counts), numbers within ``LevelLimits.coordinate``, the keys pytiled_parser needs, and custom
properties as pytiled_parser converts them.

Each raises :class:`BadValueError` saying what is wrong; the caller says where.
"""

from __future__ import annotations

from typing import Any, cast

from .._util.validate import finite_float
from ._errors import BadValueError, naming
from ._format_common import check_color
from ._limits import LevelLimits
from ._reading import Format
from ._xml_format import XmlFormat

#: Whole numbers (ids, counts, tile ids) are below this: Tiled stores them in 32 bits.
WHOLE_LIMIT = 1 << 32
#: A bool property's values: JSON's true and false, XML's "true" and "false".
_BOOLS = {"JSON": (True, False), "XML": ("true", "false")}


def whole(fmt: Format, node: Any, key: str, *, required: bool = False, minimum: int = 0) -> int:
    """A whole number (an id, a count) from ``minimum`` to 2**32 - 1; 0 if absent."""
    value = fmt.number(node, key, integer=True)
    if value is None:
        if required:
            raise BadValueError(f"needs {key!r}")
        return 0
    if not minimum <= value < WHOLE_LIMIT:
        raise BadValueError(f"{key!r} is {value}, not from {minimum} to 2**32 - 1")
    return cast(int, value)  # an int: number(integer=True) reads whole numbers only


def number(
    fmt: Format,
    node: Any,
    key: str,
    limits: LevelLimits,
    *,
    required: bool = False,
    integer: bool = False,
    minimum: float = 0,
) -> Any:
    """A number within ``[minimum, LevelLimits.coordinate]``; 0 if absent and optional."""
    value = fmt.number(node, key, integer=integer)
    if value is None:
        if required:
            raise BadValueError(f"needs {key!r}")
        return 0
    limit = limits.coordinate
    if finite_float(value) is None or not minimum <= value <= limit:
        raise BadValueError(
            f"{key!r} is {value}, not from {minimum:g} to {limit:g} (LevelLimits.coordinate)"
        )
    return value


def check_keys(fmt: Format, node: Any, required: tuple[str, ...], *others: Any) -> None:
    """``node`` (or one of ``others``, a template's object) has every required key, and the
    second key of each pair pytiled_parser reads together."""
    for key in required:
        if not fmt.has(node, key) and not [other for other in others if fmt.has(other, key)]:
            raise BadValueError(f"needs {key!r}")
    for first, second in fmt.pairs.items():
        if fmt.has(node, first) and not fmt.has(node, second):
            raise BadValueError(f"needs {second!r} with {first!r}")


def check_properties(fmt: Format, node: Any, limits: LevelLimits) -> None:
    """The node's custom properties: at most ``LevelLimits.properties``, each of its type."""
    properties = fmt.properties(node)
    if len(properties) > limits.properties:
        raise BadValueError(
            f"has {len(properties):,} properties, more than {limits.properties:,} "
            "(LevelLimits.properties)"
        )
    for name, kind, value in properties:
        _check_property(fmt, name, kind, value)


def _check_property(fmt: Format, name: str, kind: str, value: Any) -> None:
    """What pytiled_parser converts: ints are rounded, floats parsed, colours decoded."""
    what = f"property {name[:40]!r}"
    if kind == "bool" and value not in _BOOLS[fmt.name]:
        raise BadValueError(f"{what} of type bool is not true or false: {str(value)[:40]!r}")
    if kind == "color":
        with naming(what):
            check_color(value)
    elif kind in ("int", "float", "object"):
        try:
            parsed = float(value) if fmt is XmlFormat else value
        except (TypeError, ValueError):
            parsed = None
        if isinstance(parsed, bool) or not isinstance(parsed, (int, float)):
            raise BadValueError(f"{what} of type {kind} is not a number: {str(value)[:40]!r}")
        if finite_float(parsed) is None:
            raise BadValueError(f"{what} must be finite, got {parsed}")
