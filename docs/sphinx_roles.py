"""A griffe extension for the API reference: Sphinx-style cross-references in docstrings.

The package's docstrings use Sphinx roles (``:class:`~arcade_steering.Path```) that read well
in ``help()`` and in the source. mkdocstrings renders Markdown, so this extension turns each
role into a link to the documented object (an optional autoref: plain code when the target is
not in the reference, e.g. ``pymunk.Space``), and makes two more reStructuredText habits
render: ``Example:`` sections (griffe knows ``Examples:``) and ``::`` before literal blocks.

Relative targets resolve as Sphinx resolves them: in the current class, then the current
module, then the package's public names, then any public module of the package.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import griffe

_ROLE = re.compile(
    r":(?:py:)?(?P<role>class|meth|func|mod|attr|data|exc|obj|const):"
    r"`(?P<tilde>~?)(?P<text>[^`<]+?)(?:\s*<(?P<target>[^>`]+)>)?`"
)
_EXAMPLE = re.compile(r"^(?P<indent>[ \t]*)Example:[ \t]*$", re.MULTILINE)
_LITERAL = re.compile(r"(?<=\S)::(?=[ \t]*\n[ \t]*\n)")


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles, ``Example:`` and ``::`` in every docstring of a package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """Rewrite the docstrings once the whole package is loaded, so targets can be looked up."""
        self._pkg = pkg
        for obj in _walk(pkg):
            if obj.docstring is not None:
                text = _ROLE.sub(lambda match, obj=obj: self._link(match, obj), obj.docstring.value)
                text = _EXAMPLE.sub(r"\g<indent>Examples:", text)
                obj.docstring.value = _LITERAL.sub(":", text)

    def _link(self, match: re.Match[str], obj: griffe.Object) -> str:
        text = match["text"].strip()
        if match["target"]:
            title, target = text, match["target"].strip()
        else:
            target = text
            title = target.rsplit(".", 1)[-1] if match["tilde"] else target
            if match["role"] in ("meth", "func"):
                title += "()"
        identifier = self._resolve(target.lstrip("~."), obj)
        return (
            f'<autoref identifier="{html.escape(identifier)}" optional>'
            f"<code>{html.escape(title)}</code></autoref>"
        )

    def _resolve(self, target: str, obj: griffe.Object) -> str:
        scopes = []
        if obj.is_class:
            scopes.append(obj.path)
        if obj.parent is not None and obj.parent.is_class:
            scopes.append(obj.parent.path)
        scopes += [obj.module.path, self._pkg.path]
        candidates = [f"{scope}.{target}" for scope in scopes] + [target]
        candidates += [f"{module.path}.{target}" for module in _public_modules(self._pkg)]
        for candidate in candidates:
            found = self._find(candidate)
            if found is not None:
                # A name imported into a module is documented where it is defined (or
                # re-exported); an inherited member is documented on the subclass.
                imported = found.is_alias and not getattr(found, "inherited", False)
                return found.target_path if imported else candidate
        return target

    def _find(self, path: str) -> Any:
        prefix = f"{self._pkg.path}."
        if not path.startswith(prefix):
            return None
        try:
            return self._pkg[path[len(prefix) :]]
        except Exception:  # griffe raises KeyError or alias errors for what is not there
            return None


def _walk(obj: griffe.Object) -> Iterator[griffe.Object]:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)


def _public_modules(pkg: griffe.Module) -> Iterator[griffe.Module]:
    for member in pkg.members.values():
        if member.is_alias or not member.is_module or member.name.startswith("_"):
            continue
        yield member
        yield from _public_modules(member)
