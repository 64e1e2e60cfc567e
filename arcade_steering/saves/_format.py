"""The save file's container: JSON text, arrays in it as base64 of little-endian bytes, read
within a size bound and checked field by field (a save may come from a stranger)."""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "FORMAT",
    "MAX_SAVE_BYTES",
    "SAVE_VERSION",
    "SaveFileError",
    "decode_array",
    "encode_array",
    "field",
    "parse",
    "read_bytes",
    "whole_number",
    "write_bytes",
]

#: What the ``"format"`` field of every save file says.
FORMAT = "arcade_steering save"
#: The version of the format :func:`~arcade_steering.save_world` writes and
#: :func:`~arcade_steering.load_world` reads.
SAVE_VERSION = 1
#: The largest save :func:`~arcade_steering.load_world` reads by default, bytes (a world of
#: 10,000 agents writes about 4 MiB).
MAX_SAVE_BYTES = 64 * 1024 * 1024

#: The only array types a save holds: floats, whole numbers and flags, little-endian.
_DTYPES = {"<f8": np.dtype("<f8"), "<i8": np.dtype("<i8"), "|b1": np.dtype("|b1")}


class SaveFileError(ValueError):
    """A save can't be read (or written); the message names the field, such as
    ``save.columns.velocity``. Nothing changed in the world."""


def read_bytes(file: Any, max_bytes: int) -> bytes:
    """The bytes of a save: ``file`` is the bytes themselves, a path or a binary file.

    Raises:
        SaveFileError: It is larger than ``max_bytes`` (no more is read), or unreadable.
        TypeError: ``file`` is none of those.
    """
    if isinstance(file, (bytes, bytearray, memoryview)):
        data = bytes(file[: max_bytes + 1])
    elif isinstance(file, (str, os.PathLike)):
        try:
            with open(file, "rb") as stream:
                data = stream.read(max_bytes + 1)
        except OSError as error:
            raise SaveFileError(f"save: can't read {os.fspath(file)!r}: {error}") from None
    elif hasattr(file, "read"):
        data = file.read(max_bytes + 1)
        if not isinstance(data, bytes):
            raise TypeError("file must be opened in binary mode ('rb')")
    else:
        raise TypeError(f"file must be bytes, a path or a binary file, got {type(file).__name__}")
    if len(data) > max_bytes:
        raise SaveFileError(
            f"save: larger than {max_bytes:,} bytes (pass max_bytes= to allow more)"
        )
    return data


def write_bytes(file: Any, data: bytes) -> None:
    """Write a save to ``file``, a path (replaced in one step: a crash leaves the old save
    whole) or a binary file.

    Raises:
        TypeError: ``file`` is neither.
    """
    if isinstance(file, (str, os.PathLike)):
        target = Path(file)
        handle, temporary = tempfile.mkstemp(prefix=target.name, dir=target.parent or ".")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    elif hasattr(file, "write"):
        file.write(data)
    else:
        raise TypeError(f"file must be a path or a binary file, got {type(file).__name__}")


def parse(data: bytes) -> dict[str, Any]:
    """The save's top dictionary, its format and version checked.

    Raises:
        SaveFileError: Not UTF-8 JSON, nested too deep, or not a save of this version.
    """
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        raise SaveFileError(f"save: not a save file (not JSON: {error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveFileError(f"save.format must be {FORMAT!r}: not a save file")
    version = document.get("version")
    if type(version) is not int or version != SAVE_VERSION:
        raise SaveFileError(
            f"save.version must be {SAVE_VERSION}, got {version!r}: written by another "
            "version of arcade_steering"
        )
    return document


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number in JSON")


def field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``data[key]``, which must be of ``kind``.

    Raises:
        SaveFileError: It is missing or of another type; the message names ``where.key``.
    """
    if not isinstance(data, Mapping):
        raise SaveFileError(f"{where} must be a dictionary")
    if key not in data:
        raise SaveFileError(f"{where}.{key} is missing")
    value = data[key]
    if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise SaveFileError(f"{where}.{key} must be {names}, got {type(value).__name__}")
    return value


def whole_number(value: Any, where: str, low: int, high: int) -> int:
    """``value`` if it is an int from ``low`` to ``high``.

    Raises:
        SaveFileError: It is not.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SaveFileError(f"{where} must be a whole number from {low} to {high}, got {value!r}")
    return value


def encode_array(array: np.ndarray) -> dict[str, Any]:
    """An array as JSON data: its type, shape and little-endian bytes in base64."""
    dtype = array.dtype.newbyteorder("<") if array.dtype.kind in "fi" else array.dtype
    little = np.ascontiguousarray(array, dtype=dtype)
    data = base64.b64encode(little.tobytes()).decode("ascii")
    return {"dtype": little.dtype.str, "shape": list(little.shape), "data": data}


def decode_array(data: Any, where: str, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    """The array :func:`encode_array` wrote, which must be of ``dtype`` and ``shape``.

    Raises:
        SaveFileError: Another type or shape, bad base64, or too few or many bytes.
    """
    written = field(data, "dtype", str, where)
    if written != dtype or written not in _DTYPES:
        raise SaveFileError(f"{where}.dtype must be {dtype!r}, got {written!r}")
    dims = field(data, "shape", list, where)
    if dims != list(shape):
        raise SaveFileError(f"{where}.shape must be {list(shape)}, got {dims!r}")
    text = field(data, "data", str, where)
    expected = math.prod(shape) * _DTYPES[dtype].itemsize
    if len(text) != 4 * math.ceil(expected / 3):  # checked before decoding anything
        raise SaveFileError(f"{where}.data must hold {expected} bytes")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SaveFileError(f"{where}.data is not base64") from None
    if len(raw) != expected:
        raise SaveFileError(f"{where}.data must hold {expected} bytes, got {len(raw)}")
    array = np.frombuffer(raw, dtype=_DTYPES[dtype]).reshape(shape)
    return array.astype(array.dtype.newbyteorder("="))  # a copy, writable, native order
