"""What a table saves (its settings, the deal in progress, each finished deal's record,
the ledger), and how a save that failed is tried again."""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import calabrasella as cb

from . import _store

if TYPE_CHECKING:
    from ._table import Table

__all__ = ["retry_saves", "save_finished", "save_table", "try_save", "write_new_match"]


def try_save(self: Table, what: str, save: Callable[[Path], None]) -> None:
    """Save with ``save(folder)``; a failure is logged, told to the players, and retried.

    What could not be saved is tried again before each later save and
    every :attr:`SAVE_RETRY` seconds until it is written (a newer save
    of the same file takes the older one's place); nothing is raised.
    """
    if self.save_dir is None:
        return
    self._unsaved.pop(what, None)
    self._unsaved[what] = save  # last: the files are tried in the order they were meant
    retry_saves(self)

def retry_saves(self: Table) -> None:
    if self._save_timer is not None:
        self._save_timer.cancel()
        self._save_timer = None
    folder = self.save_dir
    if folder is None:
        return
    for what, save in list(self._unsaved.items()):
        try:
            save(folder)
        except (OSError, ValueError, cb.CalabrasellaError) as error:
            text = f"could not save {what}: {error}"
            if text not in self._told:
                self._told.add(text)
                self.save_errors.append(text)
                self.log(f"error: {text}")
                self._broadcast({"type": "notice", "code": "save_failed",
                                 "message": f"the server {text}; the table goes on and "
                                            "tries again"})  # fmt: skip
            continue
        del self._unsaved[what]
        if any(text.startswith(f"could not save {what}:") for text in self._told):
            self.log(f"saved {what} after all")
    if not self._unsaved:
        self._told.clear()
    elif not self._closing:
        loop = asyncio.get_running_loop()
        self._save_timer = loop.call_later(self.SAVE_RETRY, retry_saves, self)

def save_table(self: Table) -> None:
    seats = [None if s.bot or s.token is None else {"name": s.name, "token": s.token}
             for s in self.seats]  # fmt: skip
    settings = {
        "version": _store.TABLE_VERSION,
        "deals": self.deals,
        "matches": self.matches,
        "matches_played": self.matches_played,
        "seed": self.seed,
        "grace": self.grace,
        "move_time": self.move_time,
        "match_time": self.match_time,
        "banks": self.clocks.banks,
        "bots": sorted(self.bot_seats),
        "seats": seats,
    }
    try_save(self, "the table", lambda folder: _store.write_atomic(
        folder / "table.json", _store.dumps(settings)))  # fmt: skip
    if self.match.deals_played == 0 and self.state is None:
        try_save(self, "the ledger", lambda folder: _store.write_atomic(
            folder / "ledger.json", cb.to_json(self.match)))  # fmt: skip

def write_new_match(self: Table, folder: Path) -> None:
    (folder / "deal.json").unlink(missing_ok=True)

def save_finished(self: Table, state: cb.State, number: int) -> None:
    match = f"match{self.matches_played + 1:03d}"
    tags = {
        "event": "calabrasella table server",
        "date": datetime.date.today().isoformat(),
        "round": f"{self.matches_played + 1}.{number}",
        "players": ", ".join(s.name or "?" for s in self.seats),
    }

    def record(folder: Path) -> None:
        text = cb.to_json(cb.Record.from_state(state, tags=tags), indent=2) + "\n"
        _store.write_atomic(folder / f"{match}-deal{number:03d}.json", text)

    def ledger(folder: Path) -> None:
        text = cb.to_json(self.match)
        _store.write_atomic(folder / "ledger.json", text)
        _store.write_atomic(folder / f"{match}-ledger.json", text)

    try_save(self, f"deal {number}'s record (match {self.matches_played + 1})", record)
    try_save(self, "the ledger", ledger)
    if self.clocks.banks is not None:
        save_table(self)  # the banks as they stand after the deal
