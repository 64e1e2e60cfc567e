"""The package index's long description: the README without what an index cannot show.

The README's pictures and its links to the documentation are paths inside the repository
(``docs/images/demo.png``, ``docs/index.md``), and the repository has no public address
to make them absolute: on a package index they would be broken. So the long description is
the README with its pictures left out and its relative links as plain text. Everything else
about the package is in ``pyproject.toml``.
"""

import re
from pathlib import Path

from setuptools import setup

#: A picture on a line of its own, and the blank line after it.
PICTURE = re.compile(r"^!\[[^\]]*\]\([^)]*\)\n(\n)?", re.MULTILINE)
#: A link whose target is not a URL: its text stays.
RELATIVE_LINK = re.compile(r"\[([^\]]+)\]\((?![a-z]+://)[^)]*\)")


def long_description(readme: str) -> str:
    """``readme`` without pictures, its relative links reduced to their text."""
    return RELATIVE_LINK.sub(r"\1", PICTURE.sub("", readme))


if __name__ == "__main__":
    setup(
        long_description=long_description(
            (Path(__file__).parent / "README.md").read_text(encoding="utf-8")
        ),
        long_description_content_type="text/markdown",
        # The native step, built with cffi as pymunk builds Chipmunk; optional: without a C
        # compiler the install goes on and the world steps with numpy.
        cffi_modules=["arcade_steering/_native/build.py:ffibuilder"],
    )
