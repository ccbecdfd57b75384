"""The options tables of the ruleset reference pages, made from the classes (an mkdocs hook).

A page asks for a ruleset's options with an HTML comment on a line of its own::

    <!-- options: cavendish -->

and :func:`on_page_markdown` puts a Markdown table in its place: each option's
parameter name, the values it accepts, its default and the rule texts it
comes from (by author or title and year); then what each option means, as a
list under the table (in a column, the meanings made the table wider than
the page). Everything is read
from the ruleset class by ``calabrasella.cli.option_info``, as
``calabrasella rules`` prints it, so the table cannot drift from the code.
"""

from __future__ import annotations

import re
from typing import Any

import calabrasella as cb
from calabrasella.cli._rules import SOURCES, option_info

MARKER = re.compile(r"^<!-- options: ([\w-]+) -->[ \t]*$", re.MULTILINE)


def _code(value: object) -> str:
    return f"`{value!r}`"


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def options_table(name: str) -> str:
    """The Markdown table of the options of the ruleset registered as ``name``, and their meanings."""
    rows = [
        "| Parameter | Values | Default | Sources |",
        "|---|---|---|---|",
    ]
    meanings = []
    for option in option_info(cb.find_ruleset(name)):
        values = ", ".join(_code(v) for v in option.values) or "see below"
        sources = ", ".join(SOURCES[seed][0] for seed in option.seeds) or "the library (no source speaks)"
        rows.append(f"| `{option.name}` | {_cell(values)} | {_code(option.default)} | {_cell(sources)} |")
        meanings.append(f"`{option.name}`\n:   {option.doc or 'undocumented'}\n")
    return "\n".join(rows) + "\n\nWhat each option means:\n\n" + "\n".join(meanings)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """The mkdocs hook: replace each options marker with its ruleset's table."""
    return MARKER.sub(lambda m: options_table(m[1]), markdown)
