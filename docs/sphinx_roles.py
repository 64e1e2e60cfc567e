"""A griffe extension for the API reference: Sphinx-style cross-references in docstrings.

The package's docstrings use Sphinx roles (``:class:`~arcade_steering.Path```) that read well
in ``help()`` and in the source. mkdocstrings renders Markdown, so this extension turns each
role into a link to the documented object (an optional autoref: plain code when the target
is not in the reference, e.g. ``pymunk.Space``), and makes two more reStructuredText habits
render: ``Example:`` sections (griffe knows ``Examples:``) and ``::`` before literal blocks.
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?P<role>class|meth|func|mod|attr|data|exc|obj|const):"
    r"`(?P<tilde>~?)(?P<text>[^`<]+?)(?:\s*<(?P<target>[^>`]+)>)?`"
)
_EXAMPLE = re.compile(r"^(?P<indent>[ \t]*)Example:[ \t]*$", re.MULTILINE)
_LITERAL = re.compile(r"(?<=\S)::(?=[ \t]*\n[ \t]*\n)")
_TOP = "arcade_steering"


def _public_names() -> set[str]:
    try:
        import arcade_steering
    except ImportError:  # pragma: no cover - the docs build installs the package
        return set()
    return set(arcade_steering.__all__)


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles, ``Example:`` and ``::`` in every docstring for Markdown."""

    def __init__(self) -> None:
        super().__init__()
        self._public = _public_names()

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite ``obj``'s docstring as it is created."""
        if obj.docstring is None:
            return
        module = obj.module.path if obj.module is not None else _TOP
        text = _ROLE.sub(lambda match: self._link(match, module), obj.docstring.value)
        text = _EXAMPLE.sub(r"\g<indent>Examples:", text)
        obj.docstring.value = _LITERAL.sub(":", text)

    def _link(self, match: re.Match[str], module: str) -> str:
        text = match["text"].strip()
        if match["target"]:
            title, target = text, match["target"].strip()
        else:
            target = text
            title = target.rsplit(".", 1)[-1] if match["tilde"] else target
            if match["role"] in ("meth", "func"):
                title += "()"
        target = target.lstrip("~.")
        if target.split(".")[0] in self._public:
            target = f"{_TOP}.{target}"
        elif not target.startswith((f"{_TOP}.", "arcade.", "pymunk.", "numpy.")):
            target = f"{module}.{target}"
        return (
            f'<autoref identifier="{html.escape(target)}" optional>'
            f"<code>{html.escape(title)}</code></autoref>"
        )
