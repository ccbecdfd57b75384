"""A deal on one page: the hands, the auction and exchange, the twelve tricks, the result.

Also a result alone and a match's running totals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ..actions import Play
from ..rulesets import Ruleset
from ..scoring import Result
from ..state import State
from ._cards import CARD_H, CARD_W, draw_card
from ._doc import Canvas, num
from ._scene import tricks_of

__all__ = ["RECORD_W", "draw_match", "draw_record", "draw_result", "record_height"]

RECORD_W = 820
_SMALL = 0.5  # cards at half size: 25 x 37.5
_ROW = 42


def record_height(state: State) -> float:
    """The height of the deal summary of ``state``."""
    exchange = len([a for _, a in state.history if not isinstance(a, Play)]) + len(
        state.forced_moves
    )
    left = 60 + (state.players + 1) * _ROW + 30 + 16 * exchange + 20
    right = 60 + 24 + 12 * _ROW
    return max(left, right) + 110


def draw_record(cv: Canvas, state: State, title: str, suits: str) -> None:
    """Draw a deal's summary from its final (or latest) state, which holds every card."""
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
    _tricks(cv, state, suits)
    if state.result is not None:
        draw_result(cv, state.result, rules, 12, cv.height - 100, RECORD_W - 24)


def _tricks(cv: Canvas, state: State, suits: str) -> None:
    x0, y = 430, 52
    seats = [s for s in range(state.players) if state.players == 3 or s != state.dealer]
    cv.text(x0, y, "Tricks", size=12, weight="bold")
    for k, seat in enumerate(seats):
        cv.text(x0 + 40 + k * 40 + 12, y, f"seat {seat}", size=10, anchor="middle")
    cv.text(x0 + 40 + 3 * 40 + 10, y, "won by", size=10)
    y += 8
    for trick in tricks_of(state.history):
        if not trick.plays:
            continue
        cv.text(x0 + 24, y + 24, str(trick.number), size=11, anchor="end")
        for seat, card in trick.plays:
            col = seats.index(seat)
            draw_card(
                cv,
                card,
                x0 + 40 + col * 40,
                y,
                scale=_SMALL,
                suits=suits,
                mark="winner" if seat == trick.winner else None,
            )
            if trick.plays[0][0] == seat:  # the leader's card: a dot above it
                cv.add(
                    "circle",
                    cx=x0 + 40 + col * 40 + CARD_W * _SMALL / 2,
                    cy=y - 2,
                    r=2,
                    fill=cv.style["ink"],
                )
        if trick.winner is not None:
            cv.text(
                x0 + 40 + 3 * 40 + 10, y + 24, f"seat {trick.winner}: {trick.units} units", size=11
            )
        y += _ROW


def draw_result(
    cv: Canvas, result: Result, rules: Optional[Ruleset], x: float, y: float, width: float
) -> None:
    """Draw a result: a bar of the 35 units, the winner, the value and the payments."""
    s = cv.style
    declarer = rules.terms.declarer if rules is not None else "declarer"
    base = rules.terms.base if rules is not None else "base"
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
    cv.add("rect", x=x, y=bar_y, width=bw * d / total, height=18, fill=s["bar"])
    cv.add(
        "rect", x=x + bw * d / total, y=bar_y, width=bw * a / total, height=18, fill=s["bar_alt"]
    )
    cv.text(
        x + 4,
        bar_y + 13,
        f"{declarer} (seat {result.declarer}) {d} units, {result.declarer_tricks} tricks",
        size=11,
        color="#ffffff",
    )
    cv.text(
        x + bw - 4,
        bar_y + 13,
        f"adversaries {a} units, {result.adversary_tricks} tricks",
        size=11,
        color="#1d1d1f",
        anchor="end",
    )
    bonus = f" ({result.bonus.value})" if result.bonus is not None else ""
    contract = " ".join(c.value for c in (result.contract, result.modifier) if c is not None)
    pays = ", ".join(
        f"seat {k} {p:+d}" if p else f"seat {k} 0" for k, p in enumerate(result.payments)
    )
    cv.text(
        x,
        bar_y + 38,
        f"{contract}: value {result.value} = {base} {result.base} x "
        f"{result.multiplier}{bonus}; payments: {pays}",
        size=12,
    )
    for k, note in enumerate(result.notes[:2]):
        cv.text(x, bar_y + 56 + 16 * k, note, size=11, color="muted")


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
