"""Text for the command line: cards as a player reads them, actions, results, views.

Everything here reads values a seat may see (a :class:`~calabrasella.View`,
a :class:`~calabrasella.Result`, cards and actions); nothing reads a
:class:`~calabrasella.State`, so ``play`` cannot show a hidden card by
rendering it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TextIO

import calabrasella as cb
from calabrasella.rulesets import Terms
from calabrasella.scoring import plural as _n

__all__ = [
    "action_text",
    "active_seats",
    "can_write_symbols",
    "card_text",
    "format_cards",
    "menu_lines",
    "result_lines",
    "seat_name",
    "suit_legend",
]

#: A card code as ``str(card)`` writes it, alone between spaces.
_CODE = re.compile(r"(?<!\S)([2-7AKQJ][dhsc])(?!\S)")


def format_cards(cards: Iterable[cb.Card], *, symbols: bool = True) -> str:
    """Return cards in canonical order, the suits two spaces apart (``"-"`` for none).

    Example:
        >>> format_cards(cb.CardSet.parse("Kc 3s Ad As 7d"))
        'A♦ 7♦  3♠ A♠  K♣'
        >>> format_cards(cb.CardSet.parse("Kc 3s"), symbols=False)
        '3s  Kc'
    """
    by_suit: dict[cb.Suit, list[str]] = {}
    for card in sorted(cards):
        by_suit.setdefault(card.suit, []).append(card.symbol if symbols else card.code)
    return "  ".join(" ".join(group) for group in by_suit.values()) or "-"


def card_text(card: cb.Card, *, symbols: bool = True) -> str:
    """Return one card as a player writes it: ``A♦``, or ``Ad`` without symbols.

    Example:
        >>> card_text(cb.Card.parse("ace of coins")), card_text(cb.Card.parse("Ad"), symbols=False)
        ('A♦', 'Ad')
    """
    return card.symbol if symbols else card.code


def action_text(action: cb.Action | cb.Hidden, *, symbols: bool = True) -> str:
    """Return an action as ``str(action)`` writes it, its cards with suit symbols if asked.

    A :class:`~calabrasella.Hidden` entry reads ``"discard (face down)"``.

    Example:
        >>> action_text(cb.parse_action("play Ad")), action_text(cb.Hidden("discard"))
        ('play A♦', 'discard (face down)')
        >>> action_text(cb.parse_action("draw 7c 6c"), symbols=False)
        'draw 7c 6c'
    """
    text = str(action)
    if not symbols or isinstance(action, cb.Hidden):
        return text
    return _CODE.sub(lambda m: cb.Card.parse(m.group(1)).symbol, text)


def suit_legend(*, symbols: bool = True) -> str:
    """Return the suits as ``"♦ coins, ♥ cups, ♠ swords, ♣ batons"`` (letters without symbols).

    Example:
        >>> suit_legend(symbols=False)
        'd coins, h cups, s swords, c batons'
    """
    return ", ".join(f"{s.symbol if symbols else s.letter} {s.name.lower()}" for s in cb.Suit)


def can_write_symbols(stream: TextIO) -> bool:
    """Return whether ``stream``'s encoding can write the suit symbols.

    Example:
        >>> import io
        >>> can_write_symbols(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
        False
    """
    try:
        "".join(suit.symbol for suit in cb.Suit).encode(getattr(stream, "encoding", None) or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


def active_seats(players: int, dealer: int) -> tuple[int, ...]:
    """Return the seats that hold cards, in seat order: at a table of four the dealer sits out.

    Example:
        >>> active_seats(3, 0), active_seats(4, 2)
        ((0, 1, 2), (0, 1, 3))
    """
    return tuple(s for s in range(players) if players == 3 or s != dealer)


def seat_name(seat: int, you: int | None = None) -> str:
    """Return ``"seat 2"``, or ``"seat 2 (you)"`` for the seat at the terminal.

    Example:
        >>> seat_name(2), seat_name(2, you=2)
        ('seat 2', 'seat 2 (you)')
    """
    return f"seat {seat} (you)" if seat == you else f"seat {seat}"


def menu_lines(choices: Sequence[str], width: int = 78) -> list[str]:
    """Return numbered choices (from 1), as many to a line as fit in ``width``.

    Example:
        >>> menu_lines(["pass", "bid stand"])
        ['  1. pass       2. bid stand']
    """
    items = [f"{n:>2}. {text}" for n, text in enumerate(choices, 1)]
    cell = max((len(item) for item in items), default=0) + 3
    per_line = max(1, (width - 2) // cell)
    lines = []
    for start in range(0, len(items), per_line):
        row = items[start : start + per_line]
        lines.append(("  " + "".join(item.ljust(cell) for item in row)).rstrip())
    return lines


def result_lines(
    result: cb.Result, terms: Terms, seats: Sequence[int], *, you: int | None = None
) -> list[str]:
    """Return a result as lines: the sides' units (and points) and tricks, the value, payments.

    ``seats`` are the seats that held cards; ``you``, if given, is named.

    Example:
        >>> print("\\n".join(result_lines(cb.Result.void_deal(3), cb.CAVENDISH.terms, (0, 1, 2))))
        Result
          void deal: nobody pays
          payments: seat 0 0, seat 1 0, seat 2 0
          note: everybody passed: the deal is void
    """
    lines = ["Result"]
    if result.void or result.declarer is None or result.contract is None:
        lines.append("  void deal: nobody pays")
    else:
        them = " and ".join(str(s) for s in sorted(seats) if s != result.declarer)
        for side, units, points, tricks in zip(
            (f"{terms.declarer} (seat {result.declarer})", f"adversaries (seats {them})"),
            (result.declarer_units, result.adversary_units),
            (result.declarer_points, result.adversary_points),
            (result.declarer_tricks, result.adversary_tricks),
        ):
            pts = f" ({_n(points, 'point')})" if terms.points else ""
            lines.append(f"  {side}: {_n(units, 'unit')}{pts}, {_n(tricks, 'trick')}")
        contract = " ".join(c.value for c in (result.contract, result.modifier) if c is not None)
        winner = terms.declarer if result.declarer_won else "adversaries"
        value = f"{result.value} (the {terms.base})"
        if result.multiplier != 1:
            why = f" ({result.bonus.value.replace('_', ' ')})" if result.bonus is not None else ""
            value = f"{result.value} = {terms.base} {result.base} x {result.multiplier}{why}"
        lines.append(f"  contract: {contract}; winner: the {winner}")
        lines.append(f"  value: {value}, paid by or to each adversary")
    signed = [f"{paid:+d}" if paid else "0" for paid in result.payments]
    paid = ", ".join(f"{seat_name(seat, you)} {amount}" for seat, amount in enumerate(signed))
    return [*lines, f"  payments: {paid}", *(f"  note: {note}" for note in result.notes)]
