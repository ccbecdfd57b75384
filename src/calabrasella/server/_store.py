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

#: The version of ``table.json``'s layout.
TABLE_VERSION = 1


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
            raise ResumeError(f"{folder / 'table.json'}: not a table of version {TABLE_VERSION}")
        match = cb.from_json((folder / "ledger.json").read_text(encoding="utf-8"), cb.Match)
        deal = folder / "deal.json"
        state = cb.from_json(deal.read_text(encoding="utf-8"), cb.State) if deal.exists() else None
    except (OSError, ValueError, cb.CalabrasellaError) as error:
        raise ResumeError(f"cannot resume from {folder}: {error}") from None
    if state is not None and state.rules != match.rules:
        raise ResumeError(f"{deal}: a deal of other rules than the ledger's")
    return Saved(settings, match, state)


def dumps(data: dict[str, Any]) -> str:
    """Return ``table.json``'s text."""
    return json.dumps(data, indent=2, ensure_ascii=True) + "\n"
