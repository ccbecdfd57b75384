"""Show the docs' doctests as a reader would see them (an mkdocs hook).

The pages' examples are doctests (``pytest --doctest-glob='*.md'`` runs them),
so a blank line of printed output has to be written ``<BLANKLINE>`` in the
Markdown. :func:`on_page_markdown` shows it as the blank line it stands for;
the test run still reads the marker.
"""

from __future__ import annotations

import re
from typing import Any

BLANKLINE = re.compile(r"^([ \t]*)<BLANKLINE>[ \t]*$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Return the page's Markdown with each ``<BLANKLINE>`` line left empty."""
    return BLANKLINE.sub("", markdown)
