"""MkDocs hook: the API page lists every registered built-in component.

The page arranges the components by family by hand; the line ``<!-- built-in components -->``
becomes an entry for each registered component the page does not place elsewhere, so a new
behaviour is in the reference without a line here.
"""

from __future__ import annotations

import re
from typing import Any

MARK = "<!-- built-in components -->"


def expand(markdown: str) -> str:
    """``markdown`` with :data:`MARK` replaced by the entries of the components it lacks."""
    if MARK not in markdown:
        return markdown
    from arcade_steering.tree_data import BUILT_IN

    placed = set(re.findall(r"^::: *arcade_steering\.(\w+)", markdown, re.M))
    # By the module that defines it: the docs tool reads the source, not the package's
    # exports made at import.
    entries = "".join(
        f"::: {cls.__module__}.{name}\n    options:\n      heading_level: 4\n\n"
        for name, cls in BUILT_IN.items()
        if name not in placed
    )
    return markdown.replace(MARK, entries)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """MkDocs' hook: expand the mark on the page that holds it."""
    return expand(markdown)
