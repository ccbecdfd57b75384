"""docs/cli.md: every ``console`` session on the page is what the command prints.

Each session starts with ``$ calabrasella ...`` (optionally ``printf '...' |``
before it, for the lines typed); the rest of the block is the output, stdout
then stderr, where a line ``...`` stands for any lines. The sessions run in
order in one folder, so a file one saves is there for the next.
"""

from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest

from calabrasella import cli

PAGE = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
SESSION = re.compile(r"```console\n\$ (.*?)\n(.*?)```", re.S)
PIPED = re.compile(r"printf '([^']*)' \| (.*)")


def sessions() -> list[tuple[str, str]]:
    return SESSION.findall(PAGE.read_text(encoding="utf-8"))


def matches(expected: str, actual: str) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    parts = [re.escape(part) for part in re.split(r"(?m)^\.\.\.\n", expected)]
    return re.fullmatch("(?:.*\n)*?".join(parts), actual) is not None


def test_the_page_has_sessions_of_every_command() -> None:
    commands = {shlex.split(PIPED.sub(r"\2", line))[1] for line, _ in sessions()}
    assert commands == {"play", "replay", "show", "analyse", "rules", "demo", "simulate"}


def test_the_matcher() -> None:
    assert matches("a\n...\nd\n", "a\nb\nc\nd\n")
    assert matches("a\n...\nd\n", "a\nd\n")
    assert not matches("a\n...\nd\n", "a\nb\n")
    assert not matches("a\nd\n", "a\nb\nd\n")


def test_every_session_prints_what_the_page_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for line, expected in sessions():
        typed, command = "", line
        piped = PIPED.fullmatch(line)
        if piped:
            typed, command = piped.group(1).replace("\\n", "\n"), piped.group(2)
        argv = shlex.split(command)
        assert argv[0] == "calabrasella"
        stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
        monkeypatch.setattr(sys, "stdout", stdout)
        try:
            cli.main(argv[1:])
        finally:
            monkeypatch.setattr(sys, "stdout", sys.__stdout__)
        stdout.seek(0)
        actual = stdout.read() + capsys.readouterr().err
        assert matches(expected, actual), f"$ {line}\n{actual}"
