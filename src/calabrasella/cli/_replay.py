"""``calabrasella replay`` and ``show``: read a saved deal and print it.

A file is a JSON record (:func:`calabrasella.to_json` of a
:class:`~calabrasella.Record`), a JSON state (of a
:class:`~calabrasella.State`), a record's text form
(:meth:`calabrasella.Record.to_text`), or a data set of many deals
(:mod:`calabrasella.datasets`: JSON lines, or a multi-deal text file, as
``simulate --save`` writes). A file that cannot be read, is not one of
these, or does not replay raises :class:`FileProblem` with a one-line
message; the command prints it and exits with status 2.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

import calabrasella as cb
from calabrasella.errors import FileProblem
from calabrasella.scoring import plural as _n

from ._play import Reader
from ._render import action_text, active_seats, card_text, format_cards, result_lines, suit_legend

__all__ = [
    "FileProblem",
    "data_set_format",
    "load_deal",
    "load_deals",
    "load_record",
    "replay_record",
    "show_record",
]

#: What a data set's format is called in messages, by :func:`data_set_format`'s answer.
JSON_LINES, TEXT = "JSON lines", "a multi-deal text file"

def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def load_record(path: str | Path) -> cb.Record:
    """Return the record in the file at ``path``: JSON record, JSON state, or text record.

    A state is returned as the record of its deal (:meth:`calabrasella.Record.from_state`).

    Raises:
        FileProblem: The file is missing or unreadable, too large, not UTF-8,
            or not a record or a state that replays; the message, one line,
            names the file and says why.

    Example:
        >>> load_record("no/such/file.json")
        Traceback (most recent call last):
        ...
        calabrasella.errors.FileProblem: no/such/file.json: cannot read it: No such file or directory
    """
    from calabrasella.records import MAX_BYTES  # here: the other commands need no records

    most = 4 * MAX_BYTES  # UTF-8 takes at most four bytes a character
    try:
        with open(path, "rb") as file:
            data = file.read(most + 1)
    except OSError as error:
        raise FileProblem(f"{path}: cannot read it: {error.strerror or error}") from None
    if len(data) > most:
        raise FileProblem(f"{path}: too large for a record (over {most} bytes)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise FileProblem(f"{path}: not UTF-8 text (byte {error.start})") from None
    if not text.strip():
        raise FileProblem(f"{path}: empty: not a record")
    try:
        if text.lstrip().startswith("{"):
            return _from_json(text)
        return cb.Record.from_text(text)
    except (cb.CalabrasellaError, ValueError) as error:
        raise FileProblem(f"{path}: not a record: {_one_line(error)}") from None


def data_set_format(path: str | Path) -> str | None:
    """Return the format of the data set of deals at ``path``, or ``None`` if it is not one.

    A data set (:mod:`calabrasella.datasets`) is a file named ``.jsonl`` (or
    ``.ndjson``), a file whose first line is a whole JSON record with more
    lines after it (JSON lines), or a text file of more than one record.
    A file that cannot be read is not one (:func:`load_record` says why).

    Example:
        >>> data_set_format("deals.jsonl")
        'JSON lines'
        >>> data_set_format("no/such/deal.json") is None
        True
    """
    from calabrasella.datasets import JSONL_SUFFIXES

    if str(path).lower().endswith(JSONL_SUFFIXES):
        return JSON_LINES
    try:
        with open(path, encoding="utf-8-sig") as file:
            lines = (line.strip() for line in file)
            first = next((line for line in lines if line), "")
            if first.startswith("{"):
                try:
                    whole = isinstance(json.loads(first), dict)
                except ValueError:
                    return None  # a record over several lines (indented JSON)
                return JSON_LINES if whole and any(lines) else None
            body = not first.startswith(("[", "#"))
            for line in lines:
                if body and line.startswith("["):
                    return TEXT  # a tag line after a record's body: a second record
                body = body or (bool(line) and not line.startswith(("[", "#")))
    except (OSError, UnicodeDecodeError):
        return None
    return None


def load_deals(path: str | Path, form: str) -> Iterator[cb.Record]:
    """Yield the deals of the data set at ``path`` (``form`` from :func:`data_set_format`).

    Raises:
        FileProblem: The file cannot be read, or a deal in it is not a record
            (the message names the line or the record); the deals before it
            have been yielded.
    """
    from calabrasella import datasets

    read = datasets.read_jsonl if form == JSON_LINES else datasets.read_text
    try:
        with open(path, encoding="utf-8-sig") as file:
            yield from read(file)
    except OSError as error:
        raise FileProblem(f"{path}: cannot read it: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise FileProblem(f"{path}: not UTF-8 text (byte {error.start})") from None
    except cb.RecordError as error:
        raise FileProblem(f"{path}: not a data set of records: {_one_line(error)}") from None


def load_deal(path: str | Path, number: int | None) -> cb.Record:
    """Return one deal of the file at ``path``: its only one, or deal ``number`` (1 the first).

    Raises:
        FileProblem: As :func:`load_record`; a data set of several deals and
            no ``number`` (the message says how many and how to pick one);
            no deal ``number`` in the file.
    """
    form = data_set_format(path)
    if form is None:
        record = load_record(path)
        if number not in (None, 1):
            raise FileProblem(f"{path}: --deal {number}: the file holds one deal (--deal 1)")
        return record
    count = 0
    for count, record in enumerate(load_deals(path, form), 1):
        if number is not None and count == number:
            return record
    if number is None and count == 1:
        return record
    if count == 0:
        raise FileProblem(f"{path}: an empty data set: no deal in it")
    if number is None:
        raise FileProblem(
            f"{path}: a data set of {count} deals ({form}, as simulate --save writes): pick one "
            f"with --deal N (1 to {count}); 'calabrasella show {path}' prints them all, and "
            f"calabrasella.datasets.load({str(path)!r}) reads them in Python"
        )
    raise FileProblem(f"{path}: --deal {number}: the data set holds deals 1 to {count}")


def _from_json(text: str) -> cb.Record:
    """A JSON record, or a JSON state as the record of its deal."""
    try:
        return cb.from_json(text, cb.Record)
    except cb.RecordError as as_record:
        try:
            return cb.Record.from_state(cb.from_json(text, cb.State))
        except cb.RecordError as as_state:
            # report the error of the kind the document says it is
            if str(as_record).startswith("type:") and not str(as_state).startswith("type:"):
                raise as_state from None
            raise as_record from None


def show_record(record: cb.Record) -> str:
    """Return a record as text, in the form :meth:`calabrasella.Record.to_text` writes.

    Example:
        >>> record = cb.Record.from_state(cb.new_deal(cb.CAVENDISH, seed=7))
        >>> show_record(record).splitlines()[0]
        '[Ruleset "cavendish"]'
    """
    return record.to_text()


def replay_record(
    record: cb.Record, *, out: TextIO, symbols: bool = True, step: Reader | None = None
) -> bool:
    """Print a record's deal, then each action with the public situation after it.

    With ``step``, it is called (with a prompt) before each action, like
    :func:`input`: a line ``q`` or ``quit``, or :class:`EOFError`, stops.
    Returns whether every action was printed.

    Example:
        >>> import io, sys
        >>> s = cb.apply(cb.new_deal(cb.CAVENDISH, seed=7), cb.Pass())
        >>> replay_record(cb.Record.from_state(s), out=sys.stdout, symbols=False)  # doctest: +ELLIPSIS
        Replay of a deal of Calabrasella (Cavendish)
        ...
           1. seat 1: pass
              the auction: seat 2 to speak
        The deal is not over.
        True
    """
    rules = record.rules

    def write(*lines: str) -> None:
        out.write("".join(line + "\n" for line in lines))

    write(*_deal_lines(record, symbols))
    if step is not None:
        write("", "Press Enter for each action; type q to stop.")
    states = record.states()
    before = next(states)
    for number, (after, action) in enumerate(zip(states, record.actions), 1):
        if step is not None:
            try:
                answer = step("[Enter] ")
            except (EOFError, KeyboardInterrupt):
                answer = "q"
            if answer.strip().lower() in ("q", "quit", "exit"):
                write("", f"Stopped after {_n(number - 1, 'action')} of {len(record.actions)}.")
                return False
        seat = after.history[-1][0]
        write(f"  {number:>2}. seat {seat}: {action_text(action, symbols=symbols)}")
        write(*(f"      {line}" for line in _situation(before, after, symbols)))
        before = after
    if before.result is not None:
        write("", *result_lines(before.result, rules.terms, sorted(before.deal.order)))
    else:
        write("The deal is not over.")
    return True


def _deal_lines(record: cb.Record, symbols: bool) -> list[str]:
    rules, deal = record.rules, record.deal
    options = ", ".join(f"{name}={value}" for name, value in rules.options().items())
    lines = [
        f"Replay of a deal of {rules.terms.title}",
        f"rules   {rules.name} (version {record.ruleset_version}): {options}",
        *(f"tag     {name}: {value}" for name, value in record.tags.items()),
        f"dealer  seat {deal.dealer}; eldest hand seat {deal.eldest}"
        + ("; the dealer sits out" if rules.players == 4 else ""),
        "",
        f"The deal ({suit_legend(symbols=symbols)})",
    ]
    roles = {deal.dealer: " dealer", deal.eldest: " eldest"}
    rows = [(f"seat {seat}{roles.get(seat, '')}", hand) for seat, hand in enumerate(deal.hands)]
    for label, cards in [*rows, (rules.terms.stock, deal.stock)]:
        shown = format_cards(cards, symbols=symbols) if cards else "(no cards: sits out)"
        lines.append(f"  {label:<14}  {shown}")
    return [*lines, "", f"{_n(len(record.actions), 'action')}"]


_TODO = {
    cb.Phase.CALLING: "to call a card",
    cb.Phase.DISCARDING: "to discard",
    cb.Phase.RAISING: "to raise or pass",
    cb.Phase.PLAYING: "to play",
}


def _situation(before: cb.State, after: cb.State, symbols: bool) -> list[str]:
    """What everybody at the table sees after an action."""
    terms = after.rules.terms
    lines = []

    def cards(given: Iterable[cb.Card]) -> str:
        return format_cards(given, symbols=symbols)

    if before.declarer is None and after.declarer is not None and after.contract is not None:
        lines.append(f"=> seat {after.declarer} is the {terms.declarer}: {after.contract.value}")
    if after.exposed != before.exposed:
        lines.append(f"the {terms.stock} is turned face up: {cards(after.exposed - before.exposed)}")
    for _, seat, move in after.forced_moves[len(before.forced_moves) :]:
        lines.append(f"(forced) seat {seat}: {action_text(move, symbols=symbols)}")
    if sum(after.tricks_won) > sum(before.tricks_won):
        played = [*zip(_seats_from(before), before.trick), (after.history[-1][0], _last_card(after))]
        shown = ", ".join(f"seat {s} {card_text(c, symbols=symbols)}" for s, c in played if c)
        units = after.card_units_won[after.leader] - before.card_units_won[after.leader]
        won = ", ".join(
            f"seat {s} {after.tricks_won[s]}" for s in active_seats(after.players, after.dealer)
        )
        lines += [
            f"trick {after.tricks_played}: {shown} -> seat {after.leader} wins {_n(units, 'unit')}",
            f"tricks won: {won}",
        ]
    elif after.trick:
        so_far = ", ".join(
            f"seat {s} {card_text(c, symbols=symbols)}" for s, c in zip(_seats_from(after), after.trick)
        )
        lines.append(f"trick {after.tricks_played + 1} so far: {so_far}")
    lines.append(_next(after))
    return lines


def _seats_from(state: cb.State) -> list[int]:
    """The seats in playing order from the current trick's leader."""
    order = list(state.deal.order)
    start = order.index(state.leader)
    return order[start:] + order[:start]


def _last_card(state: cb.State) -> cb.Card | None:
    card = getattr(state.history[-1][1], "card", None)
    return card if isinstance(card, cb.Card) else None


def _next(state: cb.State) -> str:
    """Who is to do what next."""
    stock, seat = state.rules.terms.stock, state.to_move
    phase = state.phase
    if state.is_over:
        return "the deal is over"
    if seat is None:
        return f"chance: a draw unseen from the {stock}"
    if phase is cb.Phase.BIDDING:
        return f"the auction: seat {seat} to speak"
    if phase is cb.Phase.GIVING_BACK:
        return f"seat {seat} to give a card back to seat {state.giver}"
    if phase is cb.Phase.TAKING:
        return f"seat {seat} to take from the {stock}"
    return f"seat {seat} {_TODO.get(phase, 'to move')}"
