"""Cards drawn: a face with its rank and suit, a face-down back, the four suits as shapes.

Each card is drawn at 50 x 75 units inside a ``<g>`` moved and scaled into
place, so every picture draws cards the same way. The suits are shapes, not
font glyphs: the Italian pattern (coins, cups, swords, batons) by default,
the French symbols (♦ ♥ ♠ ♣) with ``suits="french"``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card
from ..suits import Suit
from ._doc import Canvas, num

__all__ = ["CARD_H", "CARD_W", "SUIT_COLOR", "check_suits", "draw_back", "draw_card", "draw_suit"]

CARD_W = 50
CARD_H = 75

#: The colour name of each suit, per pattern.
SUIT_COLOR = {
    "italian": ("coins", "cups", "swords", "batons"),
    "french": ("red", "red", "black", "black"),
}


def check_suits(suits: str) -> str:
    """Return ``suits`` if it names a pattern, else raise ValueError."""
    if suits not in SUIT_COLOR:
        raise ValueError(f"suits={suits!r}: expected 'italian' or 'french'")
    return suits


def _pts(cx: float, cy: float, r: float, points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{num(cx + dx * r)},{num(cy + dy * r)}" for dx, dy in points)


def _path(cx: float, cy: float, r: float, spec: str) -> str:
    """Write a path given in unit coordinates (``x,y`` pairs scaled by ``r`` about the centre)."""
    out = []
    for token in spec.split():
        if token.startswith("~"):  # a size (an arc's radii): scaled, not moved
            rx, ry = token[1:].split(",")
            out.append(f"{num(float(rx) * r)},{num(float(ry) * r)}")
        elif "," in token:
            dx, dy = token.split(",")
            out.append(f"{num(cx + float(dx) * r)},{num(cy + float(dy) * r)}")
        else:
            out.append(token)
    return " ".join(out)


def _italian(cv: Canvas, suit: Suit, cx: float, cy: float, r: float, fill: str, edge: str) -> None:
    w = max(r * 0.12, 0.6)
    if suit is Suit.COINS:  # a gold coin with a rim and a boss
        cv.add("circle", cx=cx, cy=cy, r=r * 0.92, fill=fill, stroke=edge, stroke_width=w)
        cv.add("circle", cx=cx, cy=cy, r=r * 0.58, fill="none", stroke=edge, stroke_width=w)
        cv.add("circle", cx=cx, cy=cy, r=r * 0.2, fill=edge)
    elif suit is Suit.CUPS:  # a goblet: bowl, stem and foot
        spec = (
            "M -0.8,-0.75 L 0.8,-0.75 Q 0.8,0.15 0.13,0.3 L 0.13,0.62 L 0.55,0.88 "
            "L -0.55,0.88 L -0.13,0.62 L -0.13,0.3 Q -0.8,0.15 -0.8,-0.75 Z"
        )
        cv.add("path", d=_path(cx, cy, r, spec), fill=fill, stroke=edge, stroke_width=w)
    elif suit is Suit.SWORDS:  # a straight sword, point up, slightly turned
        cv.open("g", transform=f"rotate(20 {num(cx)} {num(cy)})")
        blade = ((0, -1.0), (0.17, -0.78), (0.17, 0.38), (-0.17, 0.38), (-0.17, -0.78))
        cv.add("polygon", points=_pts(cx, cy, r, blade), fill=fill, stroke=edge, stroke_width=w)
        cv.add("rect", x=cx - 0.58 * r, y=cy + 0.38 * r, width=1.16 * r, height=0.16 * r, fill=edge)
        cv.add("rect", x=cx - 0.09 * r, y=cy + 0.54 * r, width=0.18 * r, height=0.3 * r, fill=edge)
        cv.add("circle", cx=cx, cy=cy + 0.9 * r, r=0.12 * r, fill=edge)
        cv.close("g")
    else:  # batons: a knotted wooden club, slightly turned
        cv.open("g", transform=f"rotate(-20 {num(cx)} {num(cy)})")
        spec = "M -0.13,1 L 0.13,1 L 0.32,-0.7 A ~0.32,0.32 0 0 0 -0.32,-0.7 Z"
        cv.add("path", d=_path(cx, cy, r, spec), fill=fill, stroke=edge, stroke_width=w)
        cv.add("circle", cx=cx + 0.25 * r, cy=cy - 0.15 * r, r=0.1 * r, fill=edge)
        cv.add("circle", cx=cx - 0.22 * r, cy=cy + 0.35 * r, r=0.09 * r, fill=edge)
        cv.close("g")


def _french(cv: Canvas, suit: Suit, cx: float, cy: float, r: float, fill: str) -> None:
    if suit is Suit.COINS:  # diamonds
        cv.add(
            "polygon", points=_pts(cx, cy, r, ((0, -1), (0.72, 0), (0, 1), (-0.72, 0))), fill=fill
        )
    elif suit is Suit.CUPS:  # hearts
        spec = "M 0,0.85 C -1.1,0.05 -0.9,-0.95 0,-0.35 C 0.9,-0.95 1.1,0.05 0,0.85 Z"
        cv.add("path", d=_path(cx, cy, r, spec), fill=fill)
    else:
        if suit is Suit.SWORDS:  # spades
            spec = "M 0,-0.95 C 1.1,-0.1 0.8,0.75 0,0.3 C -0.8,0.75 -1.1,-0.1 0,-0.95 Z"
            cv.add("path", d=_path(cx, cy, r, spec), fill=fill)
        else:  # clubs
            for dx, dy in ((0, -0.45), (-0.43, 0.12), (0.43, 0.12)):
                cv.add("circle", cx=cx + dx * r, cy=cy + dy * r, r=0.34 * r, fill=fill)
        stem = ((0, 0.1), (0.3, 0.95), (-0.3, 0.95))
        cv.add("polygon", points=_pts(cx, cy, r, stem), fill=fill)


def draw_suit(cv: Canvas, suit: Suit, cx: float, cy: float, r: float, suits: str) -> None:
    """Draw ``suit`` as a shape of radius ``r`` centred on ``(cx, cy)``."""
    fill = cv.style[SUIT_COLOR[suits][suit]]
    if suits == "italian":
        _italian(
            cv, suit, cx, cy, r, fill, cv.style["ink"] if cv.style.theme == "light" else "#1d1d1f"
        )
    else:
        _french(cv, suit, cx, cy, r, fill)


def _place(x: float, y: float, scale: float) -> str:
    return f"translate({num(x)} {num(y)})" + ("" if scale == 1 else f" scale({num(scale)})")


def draw_card(
    cv: Canvas,
    card: Card,
    x: float,
    y: float,
    *,
    scale: float = 1.0,
    suits: str = "italian",
    mark: str | None = None,
) -> None:
    """Draw a face-up card with its top left corner at ``(x, y)``, 50 x 75 times ``scale``.

    ``mark`` names a colour of the style to ring the card with (the winner of a trick).
    """
    s = cv.style
    ink = s[SUIT_COLOR[suits][card.suit]] if suits == "french" else "#1d1d1f"
    cv.open("g", transform=_place(x, y, scale))
    cv.add("title", card.code)
    edge, width = (s[mark], 3) if mark else (s["card_edge"], 1)
    _outline(cv, s["card"], edge, width)
    for flip in (False, True) if scale >= 0.7 else (False,):  # small cards: one corner index
        if flip:
            cv.open("g", transform=f"rotate(180 {num(CARD_W / 2)} {num(CARD_H / 2)})")
        cv.add(
            "text",
            card.rank.char,
            x=8,
            y=15,
            font_size=14,
            font_weight="bold",
            fill=ink,
            text_anchor="middle",
        )
        draw_suit(cv, card.suit, 8, 25, 5.5, suits)
        if flip:
            cv.close("g")
    draw_suit(cv, card.suit, CARD_W / 2, CARD_H / 2, 13, suits)
    cv.close("g")


def _outline(cv: Canvas, fill: str, edge: str, width: float) -> None:
    """A card's rounded rectangle, face or back, in the card's own units."""
    cv.add(
        "rect",
        x=0.5,
        y=0.5,
        width=CARD_W - 1,
        height=CARD_H - 1,
        rx=4,
        fill=fill,
        stroke=edge,
        stroke_width=width,
    )


def draw_back(cv: Canvas, x: float, y: float, *, scale: float = 1.0) -> None:
    """Draw a face-down card (its back) with its top left corner at ``(x, y)``."""
    s = cv.style
    cv.open("g", transform=_place(x, y, scale))
    cv.add("title", "a face-down card")
    _outline(cv, s["back"], s["card_edge"], 1)
    cv.add(
        "rect",
        x=5,
        y=5,
        width=CARD_W - 10,
        height=CARD_H - 10,
        rx=2,
        fill="none",
        stroke=s["back_line"],
        stroke_width=1.2,
    )
    diamond = (
        f"{CARD_W / 2},12 {CARD_W - 11},{CARD_H / 2} {CARD_W / 2},{CARD_H - 12} 11,{CARD_H / 2}"
    )
    cv.add("polygon", points=diamond, stroke=s["back_line"], stroke_width=0.8, fill="none")
    cv.add(
        "circle",
        cx=CARD_W / 2,
        cy=CARD_H / 2,
        r=8,
        fill="none",
        stroke=s["back_line"],
        stroke_width=1.2,
    )
    cv.close("g")
