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
from ._chart import wrap
from ._deal import bonus_words
from ._doc import Canvas, num
from ._scene import Scene, Trick, direction_of
from ._text import fit, text_width

__all__ = ["NARROW_W", "draw_table", "draw_table_narrow", "draw_trick", "header_lines", "slots"]

W, H = 720, 512
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
        mid = y + CARD_H * scale / 2  # the count on the last back, clear of the label above
        cv.add("circle", cx=right - cw / 2, cy=mid, r=11, fill=cv.style["highlight"])
        cv.text(
            right - cw / 2,
            mid + 4.5,
            str(n),
            size=12,
            color="#1d1d1f",
            anchor="middle",
            weight="bold",
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


def _shrunk(
    text: str, size: float, width: float, weight: Optional[str] = None, least: float = 10
) -> tuple[str, float]:
    """``text`` at ``size``, or smaller (down to ``least``) to fit ``width`` whole; cut only below that."""
    smaller = size
    while smaller > least and text_width(text, smaller, weight) > width:
        smaller -= 1
    return fit(text, smaller, width, weight), smaller


def _seat_label(cv: Canvas, sc: Scene, seat: int, x: float, y: float, width: float) -> None:
    you = " (you)" if seat == sc.seat else ""
    words = roles(sc, seat)
    label = f"seat {seat}{you}" + (f" · {', '.join(words)}" if words else "")
    bold = "bold" if seat == sc.to_move else None
    if seat == sc.to_move:
        width -= 13
    if seat == sc.to_move:
        cv.add(
            "polygon",
            points=f"{num(x)},{num(y - 11)} {num(x + 9)},{num(y - 6)} {num(x)},{num(y - 1)}",
            fill=cv.style["highlight"],
        )
        x += 13
    text, size = _shrunk(label, 13, width, bold, least=11)
    cv.text(x, y, text, size=size, color="on_felt", weight=bold)
    if sc.players == 3 or seat != sc.dealer:
        points = f" ({plural(sc.units_won[seat] // 3, 'point')})" if sc.rules.terms.points else ""
        won = f"won {plural(sc.tricks_won[seat], 'trick')}, {plural(sc.units_won[seat], 'unit')}"
        cv.text(x, y + 16, fit(won + points, 11, width), size=11, color="on_felt")


def header_lines(sc: Scene) -> tuple[str, str, Optional[str]]:
    """The table's title line, its contract line and its result line (once the deal is over)."""
    terms = sc.rules.terms
    who = "" if sc.to_move is None else f" · seat {sc.to_move} to act"
    trick = f" · trick {sc.trick.number} of 12" if sc.phase is Phase.PLAYING else ""
    title = f"{terms.title} · {_PHASE_WORDS.get(sc.phase, sc.phase_name)}{trick}{who}"
    if sc.contract is None:
        line = "no contract yet" if sc.result is None else "no contract: everybody passed"
        if sc.result is None and sc.auction:
            line += f" · {sc.auction}"
    else:
        stake = f" · {terms.base} {sc.stake}" if sc.stake is not None else ""
        line = f"contract: {sc.contract} by seat {sc.declarer}{stake}"
        if sc.called:
            line += f" · {sc.called}"
    r = sc.result
    result = None
    if r is not None and not r.void and r.winner is not None:
        side = f"{terms.declarer} wins" if r.declarer_won else "adversaries win"
        bonus = f" ({bonus_words(r)})" if r.bonus is not None else ""
        result = (
            f"result: {r.declarer_units}-{r.adversary_units} units, {side}; "
            f"value {r.value} = {terms.base} {r.base} x {r.multiplier}{bonus}"
        )
    return title, line, result


def _header(cv: Canvas, sc: Scene) -> None:
    title, line, result = header_lines(sc)
    cv.text(16, 24, fit(title, 15, W - 32, "bold"), size=15, color="on_felt", weight="bold")
    cv.text(16, 44, fit(line, 12, W - 32), size=12, color="on_felt")
    if result is not None:
        cv.text(16, 60, fit(result, 12, W - 32), size=12, color="on_felt")


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
    cv.text(  # the words at the arrow's tail
        x0 - 8,
        y0 + 4,
        f"play passes to the {direction}",
        size=11,
        color="on_felt",
        anchor="end",
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
    mark = len(cv.parts)
    _header(cv, sc)
    order = ("left", "top", "right")
    top = sorted((q for q in places if places[q] != "bottom"), key=lambda q: order.index(places[q]))
    width = (W - 32 - 16 * (len(top) - 1)) / len(top)
    for k, seat in enumerate(top):
        x = 16 + k * (width + 16)
        _seat_label(cv, sc, seat, x, 84, width)
        _row(
            cv, sc.hands[seat], x, 106, width, 0.8, suits, sc.legal if seat == sc.to_move else _NONE
        )
    # the centre: the trick, the round arrow, the stock and what the seat knows
    cx, cy = W / 2, 262
    if sc.trick.plays:  # the way round, while cards are on the table
        _arrow(cv, cx, cy, 86, way)
    draw_trick(cv, sc.trick, places, cx, cy, suits)
    _trick_seats(cv, sc.trick, places, cx, cy, way)
    centre = _stock(cv, sc, suits)  # how far down the centre's parts reach
    # the reader's seat under the centre: as low as a trick on the table needs,
    # higher when the centre holds less (no empty felt in the auction)
    label = 396.0 if sc.trick.plays else max(centre + 32, 200.0)
    _seat_label(cv, sc, bottom, 16, label, W - 32)
    _row(
        cv,
        sc.hands[bottom],
        16,
        label + 26,
        W - 32,
        1.0,
        suits,
        sc.legal if bottom == sc.to_move else _NONE,
    )
    cv.height = label + 26 + (CARD_H if sc.hands[bottom] else 0) + 15
    felt = Canvas(W, cv.height, s, "")
    felt.add(
        "rect",
        x=1,
        y=1,
        width=W - 2,
        height=cv.height - 2,
        rx=18,
        fill=s["felt"],
        stroke=s["felt_edge"],
        stroke_width=2,
    )
    cv.parts[mark:mark] = felt.parts


def _trick_seats(
    cv: Canvas, trick: Trick, places: dict[int, str], cx: float, cy: float, way: str
) -> None:
    """Write by each card of the trick on the table who played it, and who led.

    The side cards' words go on the side away from the round arrow (below
    them when play passes to the left, the arrow running over the top; above
    them when it passes to the right); the bottom card's under it, or to its right
    when the arrow ends below it; the top card's under it, over the bottom card.
    """
    half_w, half_h = CARD_W * 0.45, CARD_H * 0.45
    side = -14 + half_h + 14 if way == "left" else -14 - half_h - 5
    at = {
        "bottom": (0, 36 + half_h + 14, "middle") if way == "left" else (half_w + 6, 36 + 4, "start"),
        "left": (-66, side, "middle"),
        "right": (66, side, "middle"),
        "top": (0, -58 + half_h + 13, "middle"),  # in the gap over the bottom card
    }
    for k, (seat, _) in enumerate(trick.plays):
        dx, dy, anchor = at[places[seat]]
        led = " led" if k == 0 else ""
        cv.text(cx + dx, cy + dy, f"seat {seat}{led}", size=11, color="on_felt", anchor=anchor)


def _stock_label(sc: Scene) -> str:
    """The stock's words: how many cards, and face up, face down, or unseen by the players
    but drawn (a state shows every card)."""
    count = plural(len(sc.stock) + sc.stock_hidden, "card")
    if sc.stock_public:
        return f"{sc.rules.terms.stock}: {count} (face up)"
    if sc.stock and not sc.stock_hidden:
        return f"{sc.rules.terms.stock}: {count}, unseen"
    return f"{sc.rules.terms.stock}: {count} (face down)"


def _stock(cv: Canvas, sc: Scene, suits: str) -> float:
    """Draw the stock, what the seat knows and the last trick; return how far down they reach."""
    x, y = W - 200, 188
    bottom = 166.0  # the top seats' hands
    first = len(cv.parts)
    if sc.stock or sc.stock_hidden:
        text, size = _shrunk(_stock_label(sc), 12, W - x - 16)
        cv.text(x, y, text, size=size, color="on_felt")
        right = _row(cv, CardSet.of(sc.stock), x, y + 8, 130, 0.6, suits) if sc.stock else x
        if sc.stock_hidden:
            _row(cv, sc.stock_hidden, right + (4 if sc.stock else 0), y + 8, 90, 0.6, suits)
        y += 70
    for label, cards in sc.known[:2]:
        text, size = _shrunk(label, 12, W - x - 16)
        cv.text(x, y, text, size=size, color="on_felt")
        _row(cv, cards, x, y + 8, 170, 0.6, suits)
        y += 70
    if y > 188:  # a row of cards at 0.6 (45 high) under its label, 70 apart
        bottom = max(bottom, y - 70 + 8 + CARD_H * 0.6)
        # a frame: what lies beside the table, apart from the hand of the seat above it
        frame = Canvas(W, H, cv.style, "")
        frame.add(
            "rect",
            x=x - 8,
            y=188 - 16,
            width=W - x,
            height=y - 70 + 8 + CARD_H * 0.6 + 8 - (188 - 16),
            rx=8,
            fill="none",
            stroke=cv.style["on_felt"],
            stroke_width=1,
            opacity=0.35,
        )
        cv.parts[first:first] = frame.parts
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
        bottom = max(bottom, 188 + CARD_H * 0.6)
    return bottom


#: The width of the narrow table (``svg.table(..., narrow=True)``), for a phone's screen.
NARROW_W = 400


def draw_table_narrow(
    sc: Scene, cv: Canvas, *, bottom: Optional[int], suits: str, direction: Optional[str]
) -> None:
    """Draw the table one part under another, 400 wide: the header, the other seats, the centre, the reader's hand.

    The canvas's height is set to what was drawn.
    """
    s = cv.style
    way = direction or direction_of(sc.rules)
    if bottom is None:
        bottom = sc.seat if sc.seat is not None else 0
    if not 0 <= bottom < sc.players:
        raise ValueError(f"bottom={bottom!r}: expected a seat 0..{sc.players - 1}")
    places = slots(sc.players, bottom, way)
    inner = NARROW_W - 24
    mark = len(cv.parts)
    title, line, result = header_lines(sc)
    y = 8.0
    for text, size, weight in ((title, 14, "bold"), (line, 12, None), (result, 12, None)):
        if text is None:
            continue
        for part in wrap(text, size, inner, weight)[:2]:
            y += size + 5
            cv.text(12, y, part, size=size, color="on_felt", weight=weight)
    order = ("left", "top", "right")
    others = sorted(
        (q for q in places if places[q] != "bottom"), key=lambda q: order.index(places[q])
    )
    y += 14
    for seat in others:
        _seat_label(cv, sc, seat, 12, y + 13, inner)
        held = sc.hands[seat]
        if held:
            _row(cv, held, 12, y + 36, inner, 0.6, suits, sc.legal if seat == sc.to_move else _NONE)
            y += 36 + 45 + 10
        else:
            y += 40
    # the centre: the trick in a row (who played each card under it), then the stock and what is known
    plays = sc.trick.plays
    if plays:
        cv.text(
            12,
            y + 12,
            f"trick {sc.trick.number} · play passes to the {way}",
            size=12,
            color="on_felt",
        )
        for k, (seat, card) in enumerate(plays):
            x = 12 + k * 56
            draw_card(
                cv,
                card,
                x,
                y + 20,
                scale=0.8,
                suits=suits,
                mark="winner" if seat == sc.trick.winner else None,
            )
            led = " led" if k == 0 else ""
            cv.text(
                x + 20,
                y + 20 + 60 + 14,
                f"seat {seat}{led}",
                size=11,
                color="on_felt",
                anchor="middle",
            )
        y += 20 + 60 + 22
    extras: list[tuple[str, CardSet | int, CardSet]] = []
    if sc.stock or sc.stock_hidden:
        extras.append(
            (
                _stock_label(sc),
                sc.stock_hidden if sc.stock_hidden else CardSet.of(sc.stock),
                _NONE,
            )
        )
    extras += [(label, cards, _NONE) for label, cards in sc.known[:2]]
    for k in range(0, len(extras), 2):  # two to a line
        for j, (label, cards, _) in enumerate(extras[k : k + 2]):
            px = 12 + j * (inner / 2 + 6)
            text, font = _shrunk(label, 12, inner / 2 - 6, least=11)  # read on a phone
            cv.text(px, y + 12, text, size=font, color="on_felt")
            _row(cv, cards, px, y + 20, inner / 2 - 6, 0.6, suits)
        y += 20 + 45 + 12
    _seat_label(cv, sc, bottom, 12, y + 13, inner)
    if sc.hands[bottom]:
        _row(
            cv,
            sc.hands[bottom],
            12,
            y + 36,
            inner,
            0.9,
            suits,
            sc.legal if bottom == sc.to_move else _NONE,
        )
        y += 36 + CARD_H * 0.9 + 12
    else:
        y += 40
    cv.height = y
    felt = Canvas(NARROW_W, y, s, "")
    felt.add(
        "rect",
        x=1,
        y=1,
        width=NARROW_W - 2,
        height=y - 2,
        rx=14,
        fill=s["felt"],
        stroke=s["felt_edge"],
        stroke_width=2,
    )
    cv.parts[mark:mark] = felt.parts
