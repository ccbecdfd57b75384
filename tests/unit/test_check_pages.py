"""The pages users read say what the library does, not its history, CI or tests (scripts/check_pages.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import load_script

check_pages = load_script("scripts", "check_pages", "check_pages")


def test_the_user_pages_and_the_rules_listing_are_clean() -> None:
    sources = check_pages.all_sources()
    assert len(sources) > 20  # every page under docs/ and `calabrasella rules`
    assert check_pages.check(sources) == []


@pytest.mark.parametrize(
    "planted",
    [
        "It was one before 0.2.",
        "The bot of earlier releases plays this way.",
        "Until November 2026 the engine kept copies.",
        "The rows were measured before this bot's default changed.",
        "Over 175 deals a row so far, the interval is clear of zero.",
        "The rest not played yet.",
        "The project's continuous integration builds the wheel.",
        "CI installs it and runs the api_test.",
        "About 13 seconds on the project's machine.",
        "At the time of these figures the caches held more.",
        "This is what makes it reproducible in the tests.",
        "A test walks 10,000 states of each game.",
        "The examples are run by the test suite.",
        "Fixed in issue 40.",
        "As the issue asks, the table wraps.",
        "Measured at commit 80b3cb1.",
        "| what | then | now |",
    ],
)
def test_each_kind_of_phrase_fails_the_check(planted: str) -> None:
    page = f"# A page\n\nThe library deals cards.\n{planted}\n"
    found = check_pages.check([("docs/planted.md", page, False)])
    assert found and all(line.startswith("docs/planted.md:4: ") for line in found), found


def test_a_phrase_split_over_two_lines_is_found_on_its_first_line() -> None:
    found = check_pages.findings("One line.\nThe bot of earlier\n   releases.")
    assert [(line, why) for line, _, why in found] == [(2, "history")]


def test_code_and_confidence_intervals_and_game_words_pass() -> None:
    page = (
        "Mean payment with a 95% CI, and a table headed 95% CI.\n"
        "The exchange so far, the tricks won so far, until the deal ends.\n"
        "```console\n$ python -m pytest tests/unit  # CI runs this, the tests check it\n```\n"
        "Run `pytest tests/` for the tests of a clone.\n"
    )
    assert check_pages.findings(page) == []


def test_the_rules_pages_reject_deprecations_and_an_unnamed_specification() -> None:
    text = "False is the\n  specification's option. The old keyword x is deprecated."
    assert [why for _, _, why in check_pages.findings(text)] == []
    assert len(check_pages.findings(text, rules=True)) == 2


def test_the_script_exits_1_on_a_planted_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "docs" / "reference").mkdir(parents=True)
    (tmp_path / "docs" / "reference" / "page.md").write_text("Measured before a change.\n", encoding="utf-8")
    (tmp_path / "docs" / "changelog.md").write_text("The bot of earlier releases.\n", encoding="utf-8")
    assert check_pages.main(tmp_path) == 1
    assert capsys.readouterr().out.splitlines() == ['docs/reference/page.md:1: "Measured before" (history)']
    (tmp_path / "docs" / "reference" / "page.md").write_text("The library deals cards.\n", encoding="utf-8")
    assert check_pages.main(tmp_path) == 0
