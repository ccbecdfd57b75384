"""Fail on project history, CI talk and test talk in the pages users read.

The user pages (every page under ``docs/``) and the CLI's rules listing
(``calabrasella rules``) speak to users in the present tense: what the
library does and guarantees. History belongs in CHANGELOG.md, and how the
project checks itself belongs in the README and the tests. This script
looks for the phrases that give those away, in prose only (code blocks and
inline code are left out, since a command or an output may say "so far" or
name a test file), and prints each finding as ``page:line: phrase (why)``.

    python scripts/check_pages.py            # exit 1 if any page has one

The default test suite runs it (``tests/unit/test_check_pages.py``), so a
phrase that comes back fails CI.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Pages left out: the changelog page only includes CHANGELOG.md, where history belongs.
EXEMPT = frozenset({"changelog.md"})

_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"

#: Each rejected phrase (a regular expression, matched without regard to
#: case unless it says ``(?-i:...)``) and why it does not belong on a user page.
PHRASES: tuple[tuple[str, str], ...] = (
    (r"\b(?:earlier|previous|older|former|past) (?:releases?|versions?)\b", "history"),
    (r"\b(?:it|this|that) was (?:one|a \w+) before\b", "history"),
    (r"\bbefore (?:version |release )?\d+\.\d+\b", "history"),
    (rf"\b(?:until|since|as of) (?:{_MONTHS})\b", "history"),
    (r"\bmeasured before\b", "history"),
    (r"\bbefore [\w' ]{0,40}default changed\b", "history"),
    (r"\b(?:deals?|rows?|runs?)(?: a row)? so far\b", "history: an unfinished measurement"),
    (r"\bnot (?:played|run|measured|finished|done) yet\b", "history: an unfinished measurement"),
    (r"\bthe version grew\b", "history"),
    (r"\bat the time of (?:these|this|the|writing)\b", "history"),
    (r"\bcontinuous integration\b", "CI talk"),
    (r"(?-i:(?<![%\w] )(?<![%\w])\bCI\b)", "CI talk (a 95% CI is a confidence interval and allowed)"),
    (r"\b(?:this|the) project's (?:[\w-]+ ){0,2}(?:machine|continuous|ci|tests?)\b", "CI talk"),
    (r"\bissue #?\d+\b", "an issue number"),
    (r"\bthe issue\b|\bsession that\b|\bthe branch that\b|\bthe target of\b", "the project's internals"),
    (r"\bcommit [0-9a-f]{6,}|\bat commit\b", "a commit"),
    (r"_solver_moves\b", "a private module"),
    (r"\| now \|", "a \"now\" column (a table states what is)"),
    (
        r"\b(?:a|the|our) tests? (?:checks?|samples?|walks?|draws?|plays?|holds?|keeps?|mutates?"
        r"|uses?|runs?|compares?|shows?|replays?|covers?|skips?)\b",
        "test talk",
    ),
    (r"\b(?:the|our) test suite\b", "test talk"),
    (r"\bin the tests\b", "test talk"),
    (r"\btests? skips?\b", "test talk"),
)

#: Phrases rejected on the rules pages only (docs/rules.md and the CLI's
#: rules listing): they state the rules, and a deprecated keyword or an
#: unnamed "specification" tells a player nothing.
RULES_PHRASES: tuple[tuple[str, str], ...] = (
    (r"\bdeprecat\w*", "an API deprecation on a rules page (it belongs in the changelog and the API reference)"),
    (r"\bthe specification's\b", "a specification the page does not name"),
)

_COMPILED = tuple((re.compile(p, re.IGNORECASE), why) for p, why in PHRASES)
_RULES_COMPILED = tuple((re.compile(p, re.IGNORECASE), why) for p, why in RULES_PHRASES)
_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def prose(text: str) -> str:
    r"""Return a Markdown text with its code blanked: fenced blocks, inline code and HTML comments.

    Lines keep their numbers, so a finding can name its line.

    Example:
        >>> prose("one `CI` two\n```\nCI\n```\nthree").splitlines()
        ['one  two', '', '', '', 'three']
    """
    text = _COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)
    kept, inside = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            inside = not inside
            kept.append("")
        else:
            kept.append("" if inside else _INLINE_CODE.sub("", line))
    return "\n".join(kept)


def findings(text: str, *, rules: bool = False) -> list[tuple[int, str, str]]:
    r"""Return ``(line, phrase, why)`` for each rejected phrase in a page's prose.

    A phrase is found across a line break too (pages and the CLI's text wrap).

    Args:
        text: The page (Markdown, or plain text such as the CLI's rules listing).
        rules: Whether it is a rules page, where :data:`RULES_PHRASES` are
            rejected too.

    Example:
        >>> findings("The bot of earlier\nreleases.\nA 95% CI, and `CI` in code.")
        [(1, 'earlier releases', 'history')]
        >>> findings("CI runs it.")
        [(1, 'CI', 'CI talk (a 95% CI is a confidence interval and allowed)')]
        >>> findings("stramazzo_below is deprecated", rules=True)[0][1]
        'deprecated'
    """
    patterns = _COMPILED + (_RULES_COMPILED if rules else ())
    # the prose as one line, each run of white space one space; lines[i] is the
    # line number of flat[i]
    flat: list[str] = []
    lines: list[int] = []
    for number, line in enumerate(prose(text).splitlines(), start=1):
        for word in line.split():
            flat.append(word + " ")
            lines += [number] * (len(word) + 1)
    joined = "".join(flat)
    found = []
    for pattern, why in patterns:
        found += [(lines[m.start()], m.group(), why) for m in pattern.finditer(joined)]
    return sorted(found)


def pages(root: Path = ROOT) -> list[Path]:
    """The user pages: every ``.md`` under ``docs/`` but the changelog page."""
    return sorted(p for p in (root / "docs").rglob("*.md") if p.name not in EXEMPT)


def rules_listing() -> str:
    """The text ``calabrasella rules`` prints."""
    from calabrasella.cli._rules import rules_text

    return rules_text()


def check(sources: Iterable[tuple[str, str, bool]]) -> list[str]:
    """Return one ``name:line: "phrase" (why)`` line for each finding in ``(name, text, rules)`` sources."""
    return [
        f'{name}:{line}: "{phrase}" ({why})'
        for name, text, rules in sources
        for line, phrase, why in findings(text, rules=rules)
    ]


def all_sources(root: Path = ROOT) -> list[tuple[str, str, bool]]:
    """Every user page and the CLI's rules listing, as :func:`check` takes them."""
    found = [
        (str(p.relative_to(root)), p.read_text(encoding="utf-8"), p.name == "rules.md") for p in pages(root)
    ]
    return [*found, ("calabrasella rules", rules_listing(), True)]


def main(root: Path = ROOT) -> int:
    """Print each finding in the pages under ``root / "docs"`` and the rules listing; return 1 if any."""
    problems = check(all_sources(root))
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} phrase(s) of history, CI or test talk in user pages: "
            "say what the library does now; history goes to CHANGELOG.md",
            file=sys.stderr,
        )
        return 1
    print(f"user pages: no history, CI or test talk ({len(pages(root))} pages and the rules listing)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
