"""Builds the native step's extension, ``arcade_steering._native._kernel``, with cffi in API
mode, as pymunk builds Chipmunk: ``setup.py`` names ``ffibuilder`` in ``cffi_modules``.

The extension is optional: where it can't be built (no C compiler) the install goes on and
the world steps with numpy. ``ARCADE_STEERING_CFLAGS`` adds compiler flags (a sanitizer
build: ``-fsanitize=address,undefined``). For work on the C, build it in place with
``python arcade_steering/_native/build.py``.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from cffi import FFI

HERE = Path(__file__).resolve().parent
#: The C declarations Python may call: kernel.h without its preprocessor lines. (native.h
#: holds what the C files share, program.c runs a batch's program, one file per behaviour.)
CDEF = "\n".join(
    line
    for line in (HERE / "kernel.h").read_text(encoding="utf-8").splitlines()
    if not line.startswith("#include")
)
#: -ffp-contract=off: no fused multiply-adds, so the C rounds as numpy does.
CFLAGS = ["-O2", "-ffp-contract=off", "-std=c99"]


def _flags() -> list[str]:
    if sys.platform == "win32":
        return ["/O2", "/fp:precise"]
    return CFLAGS + shlex.split(os.environ.get("ARCADE_STEERING_CFLAGS", ""))


def make_builder(sources: Path) -> FFI:
    """The extension's builder: every ``.c`` file of this folder, found in ``sources``.

    Args:
        sources: This folder: relative to the project for ``setup.py`` (setuptools refuses
            absolute paths), absolute to compile anywhere else.
    """
    builder = FFI()
    builder.cdef(CDEF)
    builder.set_source(
        "arcade_steering._native._kernel",
        '#include "kernel.h"',
        sources=[(sources / c.name).as_posix() for c in sorted(HERE.glob("*.c"))],
        include_dirs=[str(HERE)],
        extra_compile_args=_flags(),
        extra_link_args=[flag for flag in _flags() if flag.startswith("-fsanitize")],
        libraries=[] if sys.platform == "win32" else ["m"],
        optional=True,
    )
    return builder


#: What ``setup.py``'s ``cffi_modules`` names.
ffibuilder = make_builder(Path("arcade_steering", "_native"))


def build_in_place() -> Path:
    """Compile the extension next to its source (for work on the C); returns its path."""
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(make_builder(HERE).compile(tmpdir=scratch))
        return Path(shutil.copy2(built, HERE / built.name))


if __name__ == "__main__":
    print(build_in_place())
