"""The package index's long description: the README without what only a checkout has.

The README's pictures, its links to the documentation and its commands for the tests, the
documentation site and the benchmarks are files and folders of the repository, which has no
public address yet: on a package index they would be broken links and commands that fail. The
README marks them, and the long description leaves them out. Everything else about the package
is in ``pyproject.toml``.
"""

import re
from pathlib import Path

from setuptools import setup

#: A part of the README that only makes sense in a checkout, with its markers.
CHECKOUT_ONLY = re.compile(
    r"^<!-- checkout only -->\n.*?^<!-- end checkout only -->\n(\n)?", re.MULTILINE | re.DOTALL
)
#: A link or picture whose target is not an absolute URL.
RELATIVE_LINK = re.compile(r"\]\((?![a-z]+://)[^)]*\)")


def long_description(readme: str) -> str:
    """``readme`` without its parts marked ``<!-- checkout only -->``.

    Raises:
        ValueError: A relative link or picture is left outside those parts.
    """
    description = CHECKOUT_ONLY.sub("", readme)
    stray = RELATIVE_LINK.search(description)
    if stray:
        raise ValueError(
            f"README.md: the relative link {stray.group()!r} would be broken on a package index; "
            "make it absolute or put it between <!-- checkout only --> and "
            "<!-- end checkout only -->"
        )
    return description


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
