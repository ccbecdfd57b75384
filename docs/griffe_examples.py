"""A griffe extension used by the docs build: tidy docstrings for Markdown.

The library's docstrings head their doctests with ``Example:`` (singular).
Griffe's Google-style parser knows only ``Examples:`` as a section and would
render a singular one as a plain admonition, turning ``>>>`` lines into block
quotes. This extension renames the heading before parsing, so the API pages
show the doctests as Python console code. It also turns Sphinx roles such as
``:class:`State``` into plain code spans, which Markdown would otherwise show
with the role's name. And it names the rule texts the ruleset docstrings
cite by number ("seed 000" is "Foster 1897", as ``calabrasella rules`` prints
them), since a reader takes "seed" for a random seed. It changes nothing in
docstrings that need none of these.

``mkdocs.yml`` loads it by path (``extensions: [docs/griffe_examples.py]``).
Importing it without griffe installed (as the doctest collection of ``docs/``
does) is harmless.
"""

from __future__ import annotations

import re
from typing import Any

from calabrasella.cli._rules import name_sources

try:
    from griffe import Extension
except ImportError:  # pragma: no cover - only the docs build needs griffe
    Extension = object  # type: ignore[misc,assignment]

__all__ = ["MarkdownDocstrings"]

_EXAMPLE_HEADING = re.compile(r"^(?P<indent>[ \t]*)Example:[ \t]*$", re.MULTILINE)
_SPHINX_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|exc|mod|obj):`~?(?P<name>[^`]+)`")


class MarkdownDocstrings(Extension):  # type: ignore[misc]
    """Head doctests ``Examples:`` and turn Sphinx roles into code spans, in every docstring."""

    def on_instance(self, *, obj: Any, **kwargs: Any) -> None:
        """Rewrite the docstring of each object griffe loads.

        Args:
            obj: The object (module, class, function or attribute) just loaded.
            **kwargs: The other hook arguments, unused.
        """
        docstring = getattr(obj, "docstring", None)
        if docstring is None:
            return
        text = _EXAMPLE_HEADING.sub(r"\g<indent>Examples:", docstring.value)
        docstring.value = name_sources(_SPHINX_ROLE.sub(r"`\g<name>`", text))
