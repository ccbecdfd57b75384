"""Show the docs' doctests as a reader would see them (an mkdocs hook).

The pages' examples are doctests (``pytest --doctest-glob='*.md'`` runs them),
so the Markdown holds what only doctest needs: a blank line of printed output
written ``<BLANKLINE>``, the ``...`` that stands for a traceback's stack, and
``# doctest:`` directives. :func:`on_page_markdown` shows a blank line for the
first and leaves the others out; the test run still reads them all. In a
``console`` transcript a line ``...`` stands for lines of output left out
(``tests/unit/test_cli_docs.py`` reads it so); it is shown as
``[lines left out]``, so it does not read as output.
"""

from __future__ import annotations

import re
from typing import Any

BLANKLINE = re.compile(r"^([ \t]*)<BLANKLINE>[ \t]*$", re.MULTILINE)
#: a traceback's first line and the ``...`` under it (the stack doctest skips)
STACK = re.compile(r"^([ \t]*Traceback \(most recent call last\):)\n[ \t]*\.\.\.[ \t]*$", re.MULTILINE)
DIRECTIVE = re.compile(r"[ \t]*# doctest: *[+-][A-Z_, +-]+$", re.MULTILINE)


CONSOLE = re.compile(r"^```console\n.*?^```", re.MULTILINE | re.DOTALL)
LEFT_OUT = re.compile(r"^\.\.\.$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Return the page's Markdown as a reader should see it: ``<BLANKLINE>`` lines left
    empty, no stack ``...`` under a traceback's first line, no ``# doctest:`` directive,
    a transcript's ``...`` shown as ``[lines left out]``."""
    markdown = DIRECTIVE.sub("", STACK.sub(r"\1", BLANKLINE.sub("", markdown)))
    return CONSOLE.sub(lambda m: LEFT_OUT.sub("[lines left out]", m[0]), markdown)
