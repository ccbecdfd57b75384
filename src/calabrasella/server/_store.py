"""What a table saves so that nothing is lost: atomic files, and reading them back to resume.

A table's folder holds:

- ``table.json``: the seats (names, tokens, bots), the match number, the
  seed if one was given, the settings; written whenever a seat changes.
- ``ledger.json``: the match so far (``cb.to_json(match)``), written after
  each deal, before the next one is dealt.
- ``deal.json``: the deal in progress (``cb.to_json(state)``, its action
  log), written after every action, before any player is sent the new view.
- ``matchNNN-dealNNN.json``: each finished deal's record.

Every file is written to a temporary file in the same folder, flushed to
disk, and renamed over the old one, so a crash leaves the old file or the
new one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import attrs

import calabrasella as cb

from ._protocol import MAX_NAME, TOKEN_LENGTH

#: The version of ``table.json``'s layout.
TABLE_VERSION = 1
_HEX = frozenset("0123456789abcdef")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename.

    Raises:
        OSError: The file could not be written; ``path`` is as it was.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class ResumeError(Exception):
    """A folder holds no match that can be resumed; the message says why."""


@attrs.frozen
class Saved:
    """A table as read back from its folder.

    Attributes:
        settings: ``table.json`` as written (seats, match number, seed, settings).
        match: The match so far.
        state: The deal in progress, if any (over or not).
    """

    settings: dict[str, Any]
    match: cb.Match
    state: cb.State | None


def load(folder: Path) -> Saved:
    """Read back what a table saved in ``folder``.

    Raises:
        ResumeError: A file is missing or damaged.
    """
    try:
        settings = json.loads((folder / "table.json").read_text(encoding="utf-8"))
        if type(settings) is not dict or settings.get("version") != TABLE_VERSION:
            raise ResumeError(f"cannot resume from {folder}: table.json is not a table of "
                              f"version {TABLE_VERSION}")  # fmt: skip
        match = cb.from_json((folder / "ledger.json").read_text(encoding="utf-8"), cb.Match)
        deal = folder / "deal.json"
        state = cb.from_json(deal.read_text(encoding="utf-8"), cb.State) if deal.exists() else None
    except ResumeError:
        raise
    except RecursionError:  # JSON nested deeper than the parser goes
        raise ResumeError(f"cannot resume from {folder}: a file is nested too deeply to be "
                          "a table's") from None  # fmt: skip
    except (OSError, ValueError, cb.CalabrasellaError) as error:
        raise ResumeError(f"cannot resume from {folder}: {error}") from None
    if state is not None and state.rules != match.rules:
        raise ResumeError(f"cannot resume from {folder}: {deal.name} is a deal of other rules "
                          "than the ledger's")  # fmt: skip
    problem = settings_problem(settings, match.rules.players)
    if problem is not None:
        raise ResumeError(f"cannot resume from {folder}: table.json: {problem}")
    return Saved(settings, match, state)


def _number(value: object, *, none: bool = False, least: float = 0.0, above: bool = False) -> bool:
    if value is None:
        return none
    if type(value) not in (int, float):
        return False
    number = float(value)  # type: ignore[arg-type]
    return number == number and number != float("inf") and (
        number > least if above else number >= least)  # fmt: skip


def _count(value: object, *, none: bool = False, least: int = 0) -> bool:
    if value is None:
        return none
    return type(value) is int and value >= least


def settings_problem(settings: dict[str, Any], players: int) -> str | None:
    """What is wrong with ``table.json``'s settings, or ``None`` if they can be resumed.

    Example:
        >>> settings_problem({"deals": 0}, 3)
        '"deals" must be a whole number, at least 1'
    """
    checks: list[tuple[str, bool, str]] = [
        ("deals", _count(settings.get("deals"), least=1), "a whole number, at least 1"),
        ("matches", _count(settings.get("matches"), none=True, least=1),
         "a whole number, at least 1, or null"),
        ("matches_played", _count(settings.get("matches_played")), "a whole number, at least 0"),
        ("seed", _count(settings.get("seed"), none=True, least=-(2**63)), "a whole number or null"),
        ("grace", _number(settings.get("grace")), "a number of seconds, at least 0"),
        ("move_time", _number(settings.get("move_time"), none=True, above=True),
         "a number of seconds above 0, or null"),
        ("match_time", _number(settings.get("match_time"), none=True, above=True),
         "a number of seconds above 0, or null"),
    ]  # fmt: skip
    for key, good, what in checks:
        if not good:
            return f"{json.dumps(key)} must be {what}"
    banks = settings.get("banks")
    if banks is not None and (type(banks) is not list or len(banks) != players
                              or not all(_number(b) for b in banks)):  # fmt: skip
        return f'"banks" must be {players} numbers of seconds, or null'
    bots = settings.get("bots")
    if type(bots) is not list or not all(type(b) is int and 0 <= b < players for b in bots):
        return f'"bots" must be a list of seat numbers 0..{players - 1}'
    seats = settings.get("seats")
    if type(seats) is not list or len(seats) != players:
        return f'"seats" must be a list of {players} seats'
    for n, seat in enumerate(seats):
        if seat is None:
            continue
        if type(seat) is not dict or set(seat) != {"name", "token"}:
            return f'seat {n} must be null or {{"name": ..., "token": ...}}'
        name, token = seat["name"], seat["token"]
        if not isinstance(name, str) or not 0 < len(name.strip()) <= MAX_NAME \
                or not name.isprintable():  # fmt: skip
            return f"seat {n}'s name must be 1 to {MAX_NAME} printable characters"
        if not isinstance(token, str) or len(token) != TOKEN_LENGTH or not set(token) <= _HEX:
            return f"seat {n}'s token must be {TOKEN_LENGTH} hexadecimal digits"
    return None


def dumps(data: dict[str, Any]) -> str:
    """Return ``table.json``'s text."""
    return json.dumps(data, indent=2, ensure_ascii=True) + "\n"
