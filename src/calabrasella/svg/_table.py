"""The table seen from above: seats with their roles, hands, the stock, the trick, the contract.

The seat at the bottom (``bottom``, by default the view's own seat, or
seat 0 for a state) is the reader's; the others sit round the table in turn
order, to the reader's left for Cavendish (play passes to the left) and to
the right for Calabresella (play passes to the right).
"""

from __future__ import annotations

import math
from typing import Optional

from ..cards import CardSet
from ..phases import Phase
from ..scoring import plural
from ._cards import CARD_H, CARD_W, draw_back, draw_card
from ._doc import Canvas, num
from ._scene import Scene, Trick, direction_of

__all__ = ["draw_table", "draw_trick", "slots"]

W, H = 800, 512
_PHASE_WORDS = {
    Phase.BIDDING: "auction",
    Phase.CALLING: "calling a card",
    Phase.GIVING_BACK: "giving back",
    Phase.DISCARDING: "discarding",
    Phase.TAKING: "taking",
    Phase.RAISING: "raising",
    Phase.DRAWING: "drawing (chance)",
    Phase.PLAYING: "play",
    Phase.OVER: "deal over",
}


def slots(players: int, bottom: int, direction: str) -> dict[int, str]:
    """Each seat's place at the picture's table: ``bottom``, ``left``, ``top`` or ``right``.

    Play to the left is clockwise seen from above: bottom, left, top, right.
    """
    ring = ("left", "right") if players == 3 else ("left", "top", "right")
    if direction == "right":
        ring = ring[::-1]
    places = {bottom: "bottom"}
    for k, place in enumerate(ring, 1):
        places[(bottom + k) % players] = place
    return places


def roles(sc: Scene, seat: int) -> list[str]:
    """The words under a seat's name: dealer, eldest, declarer, sitting out."""
    words = []
    if seat == sc.dealer:
        words.append("dealer, sits out" if sc.players == 4 else "dealer")
    if seat == (sc.dealer + 1) % sc.players:
        words.append("eldest")
    if seat == sc.declarer:
        words.append(sc.rules.terms.declarer)
    return words


_NONE = CardSet()


def _row(
    cv: Canvas,
    cards: CardSet | int,
    x: float,
    y: float,
    width: float,
    scale: float,
    suits: str,
    legal: CardSet = _NONE,
) -> float:
    """Draw a hand in a row that fits ``width``; return the row's right edge."""
    n = cards if isinstance(cards, int) else len(cards)
    cw = CARD_W * scale
    if n == 0:
        return x
    step = min(cw * 0.62, (width - cw) / (n - 1)) if n > 1 else 0
    if isinstance(cards, int):
        for k in range(n):
            draw_back(cv, x + k * step, y, scale=scale)
        right = x + (n - 1) * step + cw
        cv.add("circle", cx=right - 2, cy=y + 2, r=11, fill=cv.style["highlight"])
        cv.text(
            right - 2, y + 6.5, str(n), size=12, color="#1d1d1f", anchor="middle", weight="bold"
        )
        return right
    for k, card in enumerate(cards):
        draw_card(
            cv,
            card,
            x + k * step,
            y,
            scale=scale,
            suits=suits,
            mark="highlight" if card in legal else None,
        )
    return x + (n - 1) * step + cw


def _seat_label(cv: Canvas, sc: Scene, seat: int, x: float, y: float) -> None:
    you = " (you)" if seat == sc.seat else ""
    words = roles(sc, seat)
    label = f"seat {seat}{you}" + (f" · {', '.join(words)}" if words else "")
    if seat == sc.to_move:
        cv.add(
            "polygon",
            points=f"{num(x)},{num(y - 11)} {num(x + 9)},{num(y - 6)} {num(x)},{num(y - 1)}",
            fill=cv.style["highlight"],
        )
        x += 13
    cv.text(x, y, label, size=13, color="on_felt", weight="bold" if seat == sc.to_move else None)
    if sc.players == 3 or seat != sc.dealer:
        points = f" ({plural(sc.units_won[seat] // 3, 'point')})" if sc.rules.terms.points else ""
        cv.text(
            x,
            y + 16,
            f"tricks {sc.tricks_won[seat]} · card units {sc.units_won[seat]}{points}",
            size=11,
            color="on_felt",
        )


def _header(cv: Canvas, sc: Scene) -> None:
    terms = sc.rules.terms
    who = "" if sc.to_move is None else f" · seat {sc.to_move} to act"
    trick = f" · trick {sc.trick.number} of 12" if sc.phase is Phase.PLAYING else ""
    cv.text(
        16,
        24,
        f"{terms.title} · {_PHASE_WORDS.get(sc.phase, sc.phase.name.lower())}{trick}{who}",
        size=15,
        color="on_felt",
        weight="bold",
    )
    if sc.contract is None:
        line = "no contract yet" if sc.result is None else "no contract: everybody passed"
    else:
        stake = f" · {terms.base} {sc.stake}" if sc.stake is not None else ""
        line = f"contract: {sc.contract} by seat {sc.declarer}{stake}"
        if sc.called:
            line += f" · {sc.called}"
    r = sc.result
    if r is not None and not r.void and r.winner is not None:
        side = f"{terms.declarer} wins" if r.declarer_won else "adversaries win"
        bonus = f" ({r.bonus.value})" if r.bonus is not None else ""
        line += (
            f" · units {r.declarer_units}-{r.adversary_units} · {side} · "
            f"value {r.value} = {r.base} x {r.multiplier}{bonus}"
        )
    cv.text(16, 44, line, size=12, color="on_felt")


def _arrow(cv: Canvas, cx: float, cy: float, r: float, direction: str) -> None:
    """A round arrow: clockwise for play to the left, anticlockwise to the right."""
    sign = 1 if direction == "left" else -1
    a0, a1 = math.radians(200), math.radians(200 + sign * 110)
    x0, y0 = cx + r * math.cos(a0), cy + r * math.sin(a0)
    x1, y1 = cx + r * math.cos(a1), cy + r * math.sin(a1)
    sweep = 1 if sign == 1 else 0
    ink = cv.style["on_felt"]
    cv.add(
        "path",
        d=f"M {num(x0)},{num(y0)} A {num(r)},{num(r)} 0 0 {sweep} {num(x1)},{num(y1)}",
        fill="none",
        stroke=ink,
        stroke_width=2,
        opacity=0.8,
    )
    tx, ty = -math.sin(a1) * sign, math.cos(a1) * sign  # the way the arc runs at its end
    nx, ny = -ty, tx
    tip = (x1 + 9 * tx, y1 + 9 * ty)
    pts = f"{num(tip[0])},{num(tip[1])} {num(x1 + 5 * nx)},{num(y1 + 5 * ny)} {num(x1 - 5 * nx)},{num(y1 - 5 * ny)}"
    cv.add("polygon", points=pts, fill=ink, opacity=0.8)
    cv.text(
        cx,
        cy + r + 16,
        f"play passes to the {direction}",
        size=11,
        color="on_felt",
        anchor="middle",
    )


_TRICK_AT = {"bottom": (0, 36), "left": (-66, -14), "right": (66, -14), "top": (0, -58)}


def draw_trick(
    cv: Canvas,
    trick: Trick,
    places: dict[int, str],
    cx: float,
    cy: float,
    suits: str,
    scale: float = 0.9,
) -> None:
    """Draw a trick's cards round ``(cx, cy)``, each toward its seat's place, the winner ringed."""
    cw, ch = CARD_W * scale, CARD_H * scale
    for seat, card in trick.plays:
        dx, dy = _TRICK_AT[places[seat]]
        draw_card(
            cv,
            card,
            cx + dx - cw / 2,
            cy + dy - ch / 2,
            scale=scale,
            suits=suits,
            mark="winner" if seat == trick.winner else None,
        )


def draw_table(
    sc: Scene, cv: Canvas, *, bottom: Optional[int], suits: str, direction: Optional[str]
) -> None:
    """Draw the whole table for a scene."""
    s = cv.style
    way = direction or direction_of(sc.rules)
    if bottom is None:
        bottom = sc.seat if sc.seat is not None else 0
    if not 0 <= bottom < sc.players:
        raise ValueError(f"bottom={bottom!r}: expected a seat 0..{sc.players - 1}")
    places = slots(sc.players, bottom, way)
    cv.add(
        "rect",
        x=1,
        y=1,
        width=W - 2,
        height=H - 2,
        rx=18,
        fill=s["felt"],
        stroke=s["felt_edge"],
        stroke_width=2,
    )
    _header(cv, sc)
    order = ("left", "top", "right")
    top = sorted((q for q in places if places[q] != "bottom"), key=lambda q: order.index(places[q]))
    width = (W - 32 - 16 * (len(top) - 1)) / len(top)
    for k, seat in enumerate(top):
        x = 16 + k * (width + 16)
        _seat_label(cv, sc, seat, x, 76)
        _row(
            cv, sc.hands[seat], x, 98, width, 0.8, suits, sc.legal if seat == sc.to_move else _NONE
        )
    # the centre: the trick, the round arrow, the stock and what the seat knows
    cx, cy = W / 2, 248
    _arrow(cv, cx, cy, 86, way)
    draw_trick(cv, sc.trick, places, cx, cy, suits)
    _stock(cv, sc, suits)
    _seat_label(cv, sc, bottom, 16, 396)
    _row(
        cv,
        sc.hands[bottom],
        16,
        422,
        W - 32,
        1.0,
        suits,
        sc.legal if bottom == sc.to_move else _NONE,
    )


def _stock(cv: Canvas, sc: Scene, suits: str) -> None:
    x, y = W - 200, 180
    name = sc.rules.terms.stock
    if sc.stock or sc.stock_hidden:
        shown = "" if sc.stock_hidden else " (face up)"
        cv.text(
            x,
            y,
            f"{name}: {len(sc.stock) + sc.stock_hidden} cards{shown}",
            size=12,
            color="on_felt",
        )
        right = _row(cv, CardSet.of(sc.stock), x, y + 8, 130, 0.6, suits) if sc.stock else x
        if sc.stock_hidden:
            _row(cv, sc.stock_hidden, right + (4 if sc.stock else 0), y + 8, 90, 0.6, suits)
        y += 70
    for label, cards in sc.known[:2]:
        cv.text(x, y, label, size=12, color="on_felt")
        _row(cv, cards, x, y + 8, 170, 0.6, suits)
        y += 70
    done = [t for t in sc.tricks if t.winner is not None]
    if done and sc.phase is not Phase.OVER and not sc.trick.plays:
        last = done[-1]
        cv.text(
            16,
            180,
            f"last trick ({last.number}): won by seat {last.winner}",
            size=12,
            color="on_felt",
        )
        for k, (_, card) in enumerate(last.plays):
            draw_card(
                cv,
                card,
                16 + k * 34,
                188,
                scale=0.6,
                suits=suits,
                mark="winner" if last.plays[k][0] == last.winner else None,
            )
