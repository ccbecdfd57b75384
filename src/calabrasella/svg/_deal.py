"""A deal on one page: the hands, the auction and exchange, the twelve tricks, the result.

Also a result alone and a match's running totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ..actions import Play
from ..rulesets import Ruleset
from ..scoring import Result, plural
from ..state import State
from ._cards import CARD_H, CARD_W, draw_card
from ._doc import Canvas, num
from ._scene import tricks_of
from ._text import fit, text_width

__all__ = [
    "RECORD_NARROW_W",
    "RECORD_W",
    "bonus_words",
    "draw_match",
    "draw_record",
    "draw_result",
    "record_height",
    "result_height",
]

RECORD_W = 820
#: The width of the narrow record (the tricks under the hands and the auction), for a phone.
RECORD_NARROW_W = 420
_SMALL = 0.5  # cards at half size: 25 x 37.5
_ROW = 42
_COL = 44  # the tricks' columns


def _left_height(state: State) -> float:
    exchange = len([a for _, a in state.history if not isinstance(a, Play)]) + len(
        state.forced_moves
    )
    return 60 + (state.players + 1) * _ROW + 30 + 16 * exchange + 20


def record_height(state: State, narrow: bool = False) -> float:
    """The height of the deal summary of ``state`` (``narrow``: the tricks under the rest)."""
    width = (RECORD_NARROW_W if narrow else RECORD_W) - 24
    tricks = 18 + 24 + 12 * _ROW
    body = _left_height(state) + tricks if narrow else max(_left_height(state), 60 + tricks)
    below = 20 + result_height(state.result, state.rules, width) if state.result else 10
    return body + below


def draw_record(cv: Canvas, state: State, title: str, suits: str, narrow: bool = False) -> None:
    """Draw a deal's summary from its final (or latest) state, which holds every card.

    ``narrow`` puts the tricks under the hands and the auction (420 wide), not beside them.
    """
    rules, deal = state.rules, state.deal
    terms = rules.terms
    cv.text(12, 22, title or f"{terms.title}: seat {deal.dealer} deals", size=15, weight="bold")
    y = 52
    cv.text(12, y, "Hands as dealt", size=12, weight="bold")
    y += 8
    for seat, hand in enumerate(deal.hands):
        role = " (dealer)" if seat == deal.dealer else ""
        cv.text(12, y + 24, f"seat {seat}{role}", size=11)
        if not hand:
            cv.text(100, y + 24, "sits out", size=11, color="muted")
        for k, card in enumerate(hand):
            draw_card(cv, card, 100 + k * 22, y, scale=_SMALL, suits=suits)
        y += _ROW
    cv.text(12, y + 24, terms.stock, size=11)
    for k, card in enumerate(deal.stock):
        draw_card(cv, card, 100 + k * 22, y, scale=_SMALL, suits=suits)
    y += _ROW + 22
    cv.text(12, y, "Auction and exchange", size=12, weight="bold")
    forced: dict[int, list[str]] = {}
    for at, seat, action in state.forced_moves:
        forced.setdefault(at, []).append(f"seat {seat}: {action} (forced)")
    for i, (seat, action) in enumerate(state.history):
        for line in forced.get(i, ()):
            y += 16
            cv.text(20, y, line, size=11, color="muted")
        if isinstance(action, Play):
            continue
        y += 16
        cv.text(20, y, f"seat {seat}: {action}", size=11)
    _tricks(cv, state, suits, *((12, _left_height(state)) if narrow else (430, 52)))
    if state.result is not None:
        width = (RECORD_NARROW_W if narrow else RECORD_W) - 24
        below = result_height(state.result, rules, width)
        draw_result(cv, state.result, rules, 12, cv.height - below - 6, width)


def _tricks(cv: Canvas, state: State, suits: str, x0: float, y: float) -> None:
    seats = [s for s in range(state.players) if state.players == 3 or s != state.dealer]
    cv.text(x0, y, "Tricks", size=12, weight="bold")
    cv.text(
        x0 + text_width("Tricks", 12, "bold") + 8,
        y,
        "dot: who led · ring: who won",
        size=11,
        color="muted",
    )
    y += 18
    for k, seat in enumerate(seats):
        cv.text(x0 + 40 + k * _COL + 12, y, f"seat {seat}", size=11, anchor="middle")
    cv.text(x0 + 40 + 3 * _COL + 10, y, "won by", size=11)
    y += 8
    for trick in tricks_of(state.history, state.rules):
        if not trick.plays:
            continue
        cv.text(x0 + 24, y + 24, str(trick.number), size=11, anchor="end")
        for seat, card in trick.plays:
            col = seats.index(seat)
            draw_card(
                cv,
                card,
                x0 + 40 + col * _COL,
                y,
                scale=_SMALL,
                suits=suits,
                mark="winner" if seat == trick.winner else None,
            )
            if trick.plays[0][0] == seat:  # the leader's card: a dot above it
                cv.add(
                    "circle",
                    cx=x0 + 40 + col * _COL + CARD_W * _SMALL / 2,
                    cy=y - 2,
                    r=2,
                    fill=cv.style["ink"],
                )
        if trick.winner is not None:
            cv.text(
                x0 + 40 + 3 * _COL + 10,
                y + 24,
                f"seat {trick.winner}: {plural(trick.units, 'unit')}",
                size=11,
            )
        y += _ROW


#: A bonus as a reader says it (``all_points``: see :func:`bonus_words`).
BONUS_WORDS = {"all_points": "all the units", "cappotto": "cappotto", "stramazzo": "stramazzo"}


def bonus_words(result: Result) -> str:
    """Return the bonus of ``result`` as a reader says it (``""``: none): "all 35 units"
    counts the deal's own units, whatever its ruleset gives the cards and the last trick."""
    bonus = result.bonus
    if bonus is None:
        return ""
    if bonus.value == "all_points":
        return f"all {result.declarer_units + result.adversary_units} units"
    return BONUS_WORDS.get(bonus.value, bonus.value)


def _result_lines(
    result: Result, rules: Optional[Ruleset], width: float
) -> list[list[tuple[str, str]]]:
    """The two sides' labels, on one line if they fit in ``width``, else on two."""
    declarer = rules.terms.declarer if rules is not None else "declarer"
    left = (
        f"{declarer} (seat {result.declarer}): {plural(result.declarer_units, 'unit')}, "
        f"{plural(result.declarer_tricks, 'trick')}"
    )
    right = (
        f"adversaries: {plural(result.adversary_units, 'unit')}, "
        f"{plural(result.adversary_tricks, 'trick')}"
    )
    both = text_width(left, 11) + text_width(right, 11) + 2 * 18 + 24
    keys = [(left, "bar"), (right, "bar_alt")]
    return [keys] if both <= width else [[keys[0]], [keys[1]]]


def result_height(result: Result, rules: Optional[Ruleset], width: float) -> float:
    """The height :func:`draw_result` takes for ``result`` drawn ``width`` wide."""
    if result.void or result.declarer is None:
        return 24
    keys = 16 * len(_result_lines(result, rules, width))
    return (
        24
        + 24
        + keys
        + 4
        + 16 * len(_value_lines(result, rules, width))
        + 16 * len(result.notes[:2])
    )


def _value_lines(result: Result, rules: Optional[Ruleset], width: float) -> list[str]:
    """The contract, the value and the payments, in lines that fit ``width``."""
    base = f"{rules.terms.base} " if rules is not None else ""
    bonus = f" ({bonus_words(result)})" if result.bonus else ""
    contract = " ".join(c.value for c in (result.contract, result.modifier) if c is not None)
    pays = ", ".join(
        f"seat {k} {p:+d}" if p else f"seat {k} 0" for k, p in enumerate(result.payments)
    )
    value = f"{contract}: value {result.value} = {base}{result.base} x {result.multiplier}{bonus};"
    line = f"{value} payments: {pays}"
    return [line] if text_width(line, 12) <= width else [value, fit(f"payments: {pays}", 12, width)]


def draw_result(
    cv: Canvas, result: Result, rules: Optional[Ruleset], x: float, y: float, width: float
) -> None:
    """Draw a result: a bar of the deal's units (35) with a key, the winner, the value and
    the payments.

    The base of the value is named by ``rules`` (Cavendish: the difference,
    Calabresella: the stake), and left unnamed without them.
    """
    s = cv.style
    declarer = rules.terms.declarer if rules is not None else "declarer"
    if result.void or result.declarer is None:
        cv.text(x, y + 16, "Void deal: everybody passed, nobody pays.", size=13, weight="bold")
        return
    d, a = result.declarer_units, result.adversary_units
    total = max(d + a, 1)
    cv.text(
        x,
        y + 14,
        f"Result: the {declarer + ' wins' if result.declarer_won else 'adversaries win'}",
        size=13,
        weight="bold",
    )
    bar_y, bw = y + 24, width
    cv.add("rect", x=x, y=bar_y, width=bw * d / total, height=14, fill=s["bar"])
    cv.add(
        "rect", x=x + bw * d / total, y=bar_y, width=bw * a / total, height=14, fill=s["bar_alt"]
    )
    ly = bar_y + 16
    for line in _result_lines(result, rules, width):
        ly += 16
        lx = x
        for label, colour in line:
            cv.add("rect", x=lx, y=ly - 10, width=12, height=12, rx=2, fill=s[colour])
            cv.text(lx + 18, ly, label, size=11)
            lx += 18 + text_width(label, 11) + 24
    ly += 4
    for words in _value_lines(result, rules, width):
        ly += 16
        cv.text(x, ly, words, size=12)
    for k, note in enumerate(result.notes[:2]):
        cv.text(x, ly + 16 + 16 * k, fit(note, 11, width), size=11, color="muted")


def draw_match(cv: Canvas, history: Sequence[tuple[int, ...]], players: int, title: str) -> None:
    """Draw each player's running total after each deal, as lines over a zero line."""
    s = cv.style
    left, top, w, h = 60, 40, cv.width - 170, cv.height - 80
    cv.text(12, 22, title, size=14, weight="bold")
    series = [(0,) * players, *history]
    values = [v for row in series for v in row]
    lo, hi = min(0, *values), max(0, *values)
    span = max(hi - lo, 1)

    def py(v: float) -> float:
        return top + h - (v - lo) / span * h

    def px(i: int) -> float:
        return left + (w * i / max(len(series) - 1, 1))

    cv.add("line", x1=left, y1=py(0), x2=left + w, y2=py(0), stroke=s["grid"], stroke_width=1)
    for v in sorted({lo, 0, hi}):
        cv.text(left - 6, py(v) + 4, str(v), size=10, anchor="end", color="muted")
    cv.text(
        left + w / 2,
        top + h + 28,
        f"deals played ({len(history)})",
        size=11,
        anchor="middle",
        color="muted",
    )
    colors = (s["bar"], s["bar_alt"], s["cups"], s["batons"])
    label_y: dict[int, float] = {}
    for p in sorted(range(players), key=lambda q: (-series[-1][q], q)):  # labels top down, 14 apart
        y = py(series[-1][p]) + 4
        label_y[p] = max(y, max(label_y.values(), default=-99.0) + 14)
    for p in range(players):
        pts = " ".join(f"{num(px(i))},{num(py(row[p]))}" for i, row in enumerate(series))
        dash = (None, "6 3", "2 3", "8 3 2 3")[p]  # equal totals draw one line over another
        cv.add(
            "polyline",
            points=pts,
            fill="none",
            stroke=colors[p],
            stroke_width=2.5,
            stroke_dasharray=dash,
        )
        cv.text(
            left + w + 8, label_y[p], f"player {p}: {series[-1][p]:+d}", size=11, color=colors[p]
        )


_ = CARD_H  # (the card height is the row height's reason: 37.5 of a 42 row)
