"""Pictures: cards, hands, tricks, tables, deals and results drawn as SVG.

Standard library only (and the package itself). Every function returns one
``<svg>`` element as a string: SVG 1.1 with a ``viewBox`` (it scales
cleanly), no external font or image, no ``id`` attributes (so any number of
pictures can share a page), the same bytes for the same input on every run.

The suits are drawn as shapes: the Italian pattern by default (coins, cups,
swords, batons; the library writes them ``d h s c``), the French symbols
(♦ ♥ ♠ ♣) with ``suits="french"``. ``theme="dark"`` draws labels light for a
dark page; cards and the table look the same in both, and labels outside the
table use ``currentColor`` in the light theme, so they follow the page.
``colors`` replaces any colour by name (see :data:`LIGHT`); ``scale``
multiplies the natural size (the ``width`` and ``height`` attributes).

Importing ``calabrasella`` does not import this module; the objects'
``_repr_svg_`` methods import it when a notebook asks for a picture.

Example:
    >>> import calabrasella as cb
    >>> from calabrasella import svg
    >>> picture = svg.card(cb.Card.parse("Ad"))
    >>> picture.startswith("<svg") and 'viewBox="0 0 50 75"' in picture
    True
    >>> svg.table(cb.new_deal(cb.CAVENDISH, seed=7).view(1)) == svg.table(
    ...     cb.new_deal(cb.CAVENDISH, seed=7).view(1))
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Optional, Union

from ..cards import Card, CardSet
from ..match import Match
from ..records import Record
from ..rulesets import Ruleset
from ..scoring import Result, plural
from ..state import State
from ..views import View
from ._analysis import CHART_H, CHART_W, Analysed, draw_analysis
from ._cards import CARD_H, CARD_W, check_suits, draw_back, draw_card, draw_suit
from ._chart import Bar, bars_height, draw_bars, draw_flow, flow_rows, flow_size
from ._deal import (
    RECORD_NARROW_W,
    RECORD_W,
    draw_match,
    draw_record,
    draw_result,
    record_height,
    result_height,
)
from ._doc import DARK, LIGHT, Canvas, Style
from ._scene import Trick, direction_of, scene, trick_units, trick_winner, tricks_of
from ._table import NARROW_W, draw_table, draw_table_narrow, draw_trick, slots
from ._table import H as TABLE_H
from ._table import W as TABLE_W

__all__ = [
    "DARK",
    "LIGHT",
    "Bar",
    "Style",
    "analysis",
    "back",
    "bar_chart",
    "card",
    "cards",
    "flow",
    "legend",
    "match",
    "picture",
    "record",
    "result",
    "suit",
    "table",
    "trick",
]

#: Colours to replace, by name: ``{"felt": "#234", "bar": "teal"}`` (the names are
#: the keys of :data:`LIGHT`; a value is any SVG colour); ``None`` keeps the theme's.
Colors = Optional[Mapping[str, str]]
#: Cards in any of the library's forms: a :class:`~calabrasella.CardSet`, a text
#: of codes (``"Ad 3s Kc"``), or cards and codes in the order to draw them.
CardsLike = Union[CardSet, str, Iterable[Union[Card, str]]]
#: A trick given by hand: ``(seat, card)`` pairs from the leader's (cards or their codes),
#: ``[(1, "Kd"), (2, "3d"), (0, "4c")]``.
Plays = Sequence[tuple[int, Union[Card, str]]]


def _canvas(w: float, h: float, theme: str, colors: Colors, title: str) -> Canvas:
    return Canvas(w, h, Style(theme, colors), title)


def _as_card(value: Union[Card, str]) -> Card:
    return value if isinstance(value, Card) else Card.parse(value)


def card(
    value: Union[Card, str],
    *,
    suits: str = "italian",
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return a card face (50 x 75 at scale 1).

    Raises:
        NotationError: ``value`` is not a card.
        ValueError: an unknown ``suits``, ``theme`` or colour name.

    Example:
        >>> import calabrasella as cb
        >>> card(cb.Card.parse("3s"), suits="french").count("<svg")
        1
    """
    c = _as_card(value)
    cv = _canvas(CARD_W, CARD_H, theme, colors, f"{c.name} ({c.code})")
    draw_card(cv, c, 0, 0, suits=check_suits(suits))
    return cv.svg(scale)


def back(*, scale: float = 1.0, theme: str = "light", colors: Colors = None) -> str:
    """Return a face-down card (its back), 50 x 75 at scale 1.

    Example:
        >>> back().count("a face-down card")
        2
    """
    cv = _canvas(CARD_W, CARD_H, theme, colors, "a face-down card")
    draw_back(cv, 0, 0)
    return cv.svg(scale)


def suit(
    value: object,
    *,
    suits: str = "italian",
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return a suit's shape alone, 40 x 40 at scale 1 (``value``: a :class:`~calabrasella.Suit` or its letter).

    With ``theme="dark"`` it sits on a card-coloured tile, so a black suit shows on a dark page.

    Example:
        >>> "coins (d)" in suit("d")
        True
    """
    from ..suits import Suit

    s = value if isinstance(value, Suit) else Suit.parse(str(value))
    cv = _canvas(40, 40, theme, colors, f"{s.name.lower()} ({s.letter})")
    if cv.style.theme == "dark":  # on a card's ground, as the cards are: black suits show
        cv.add("rect", x=0.5, y=0.5, width=39, height=39, rx=5, fill=cv.style["card"])
    draw_suit(cv, s, 20, 20, 17, check_suits(suits))
    return cv.svg(scale)


def legend(*, scale: float = 1.0, theme: str = "light", colors: Colors = None) -> str:
    """Return the four suits: the Italian shape, the French symbol, the letter and the names.

    Example:
        >>> legend().count("coins (denari)")
        1
    """
    from ..suits import Suit

    cv = _canvas(430, 4 * 46 + 34, theme, colors, "the suits")
    for x, word in ((30, "Italian"), (80, "French"), (118, "letter")):
        cv.text(x, 16, word, size=10, color="muted", anchor="middle")
    for k, s in enumerate(Suit):
        y = 30 + k * 46
        for x in (30, 80):  # each shape on a card's ground, so it reads on a dark page too
            cv.add(
                "rect",
                x=x - 21,
                y=y,
                width=42,
                height=40,
                rx=5,
                fill=cv.style["card"],
                stroke=cv.style["card_edge"],
                stroke_width=0.8,
            )
        draw_suit(cv, s, 30, y + 20, 17, "italian")
        draw_suit(cv, s, 80, y + 20, 15, "french")
        cv.text(112, y + 27, s.letter, size=20, weight="bold")
        cv.text(140, y + 19, f"{s.name.lower()} ({s.italian})", size=13)
        cv.text(
            140,
            y + 36,
            f"written {s.letter} or {s.symbol}, e.g. A{s.letter} = A{s.symbol}",
            size=11,
            color="muted",
        )
    return cv.svg(scale)


def cards(
    values: CardsLike,
    *,
    suits: str = "italian",
    units: bool = False,
    spread: float = 1.0,
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return cards in a row, in the order given (a :class:`~calabrasella.CardSet` in canonical order).

    ``units`` writes each card's units (thirds of a point) under it;
    ``spread`` is the step from one card to the next in card widths (below 1 they overlap).

    Example:
        >>> import calabrasella as cb
        >>> cards(cb.CardSet.parse("Ad 3s"), units=True).count("<title>")
        3
    """
    check_suits(suits)
    seq = list(CardSet.parse(values)) if isinstance(values, str) else [_as_card(v) for v in values]
    step = CARD_W * spread + (4 if spread >= 1 else 0)
    width = CARD_W + step * max(len(seq) - 1, 0) + 8
    height = CARD_H + 8 + (18 if units else 0)
    title = " ".join(c.code for c in seq) or "no cards"
    cv = _canvas(width, height, theme, colors, title)
    for k, c in enumerate(seq):
        draw_card(cv, c, 4 + k * step, 4, suits=suits)
        if units:
            cv.text(4 + k * step + CARD_W / 2, CARD_H + 20, f"{c.units}", size=12, anchor="middle")
    return cv.svg(scale)


def _trick_of(
    source: Union[State, View, Plays], number: Optional[int]
) -> tuple[Trick, int, int, str]:
    if isinstance(source, (State, View)):
        sc = scene(source)
        tricks = sc.tricks if number is None else [t for t in sc.tricks if t.number == number]
        if not tricks:
            raise ValueError(f"number={number!r}: no such trick in this deal yet")
        t = tricks[-1] if number is None else tricks[0]
        return t, sc.players, sc.seat if sc.seat is not None else 0, direction_of(sc.rules)
    plays = tuple((int(seat), _as_card(c)) for seat, c in source)
    winner = trick_winner(plays) if len(plays) == 3 else None
    units = trick_units(plays, number or 0)
    return Trick(plays, number or 0, winner, units), 3, 0, "left"


def trick(
    source: Union[State, View, Plays],
    number: Optional[int] = None,
    *,
    players: Optional[int] = None,
    bottom: Optional[int] = None,
    direction: Optional[str] = None,
    suits: str = "italian",
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return a trick: its cards placed by seat, the winner ringed, its units written.

    ``source`` is a state or a view (``number`` 1..12 picks a trick played,
    by default the current one), or ``(seat, card)`` pairs from the leader's.

    Example:
        >>> trick([(1, "Kd"), (2, "3d"), (0, "4c")]).count("<title>")
        4
    """
    t, n, seat, way = _trick_of(source, number)
    n = players or n
    way = direction or way
    places = slots(n, seat if bottom is None else bottom, way)
    cv = _canvas(260, 236, theme, colors, f"trick {t.number}" if t.number else "a trick")
    cv.add("rect", x=1, y=1, width=258, height=234, rx=14, fill=cv.style["felt"])
    draw_trick(cv, t, places, 130, 112, check_suits(suits))
    leader = t.plays[0][0] if t.plays else None
    for seat, place in places.items():
        x, y, anchor = {
            "bottom": (130, 200, "middle"),
            "left": (8, 40, "start"),
            "right": (252, 40, "end"),
            "top": (158, 18, "start"),
        }[place]
        led = " · led" if seat == leader else ""
        cv.text(x, y, f"seat {seat}{led}", size=11, color="on_felt", anchor=anchor)
    if t.number:
        cv.text(8, 18, f"trick {t.number}", size=11, color="on_felt", weight="bold")
    if t.winner is not None:
        footer = f"won by seat {t.winner}, {plural(t.units, 'unit')}"
    elif leader is not None:
        footer = f"led by seat {leader}, not complete"
    else:
        footer = "no card played yet"
    cv.add("line", x1=14, y1=210, x2=246, y2=210, stroke=cv.style["on_felt"], opacity=0.35)
    cv.text(130, 226, footer, size=11, color="on_felt", anchor="middle", weight="bold")
    return cv.svg(scale)


def table(
    source: Union[State, View],
    *,
    narrow: bool = False,
    bottom: Optional[int] = None,
    direction: Optional[str] = None,
    suits: str = "italian",
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return the table seen from above: every seat, hand, the stock, the trick and the contract.

    A state shows every hand face up; a view shows only its seat's own hand
    face up, the other hands as backs with their count, and the stock as the
    seat may see it (drawn from the view alone). ``bottom`` is the seat at
    the bottom (the view's seat, or seat 0); ``direction`` (``"left"`` or
    ``"right"``) overrides the ruleset's (Cavendish left, Calabresella right).
    ``narrow=True`` draws the parts one under another, 400 wide, for a
    phone's screen (the wide table, 720 wide, shrinks there past reading).

    Raises:
        TypeError: ``source`` is neither a state nor a view.
        ValueError: a bad ``bottom``, ``direction``, ``suits``, ``theme``, colour
            name or ``scale``.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7).view(1)
        >>> "seat 1 (you)" in table(view) and 'viewBox="0 0 400 ' in table(view, narrow=True)
        True
    """
    if direction not in (None, "left", "right"):
        raise ValueError(f"direction={direction!r}: expected 'left' or 'right'")
    sc = scene(source)
    what = "state" if sc.seat is None else f"view of seat {sc.seat}"
    title = f"{sc.rules.terms.title}: the table ({what})"
    if narrow:
        cv = _canvas(NARROW_W, 0, theme, colors, title)
        draw_table_narrow(sc, cv, bottom=bottom, suits=check_suits(suits), direction=direction)
        return cv.svg(scale)
    cv = _canvas(TABLE_W, TABLE_H, theme, colors, title)
    draw_table(sc, cv, bottom=bottom, suits=check_suits(suits), direction=direction)
    return cv.svg(scale)


def record(
    source: Union[Record, State],
    *,
    title: str = "",
    narrow: bool = False,
    suits: str = "italian",
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return a deal on one page: the hands dealt, the auction and exchange, the tricks, the result.

    ``source`` is a record or a state (a state holds every card).
    ``narrow=True`` puts the tricks under the hands and the auction, 420
    wide, for a phone's screen.

    Example:
        >>> import calabrasella as cb
        >>> end = cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7)
        >>> "Result: the single player wins" in record(end)
        True
    """
    state = source.replay() if isinstance(source, Record) else source
    if not isinstance(state, State):
        raise TypeError(f"expected a Record or a State, got {type(source).__name__}")
    cv = _canvas(
        RECORD_NARROW_W if narrow else RECORD_W,
        record_height(state, narrow),
        theme,
        colors,
        title or f"{state.rules.terms.title}: a deal",
    )
    draw_record(cv, state, title, check_suits(suits), narrow)
    return cv.svg(scale)


def result(
    value: Result,
    *,
    rules: Optional[Ruleset] = None,
    narrow: bool = False,
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return a result: the sides' units as a bar with a key, the winner, the value and the payments.

    ``rules`` names the sides and the value's base in the ruleset's words
    (Cavendish: the single player, the difference; Calabresella: the
    declarer, the stake). ``narrow=True`` draws it 380 wide (not 620), its
    lines wrapped, for a phone's screen.

    Example:
        >>> import calabrasella as cb
        >>> end = cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7)
        >>> "value 11 = difference 11 x 1" in result(end.result, rules=cb.CAVENDISH)
        True
    """
    width = 380 if narrow else 620
    height = result_height(value, rules, width - 20) + 10
    cv = _canvas(width, height, theme, colors, "the result of a deal")
    draw_result(cv, value, rules, 10, 4, width - 20)
    return cv.svg(scale)


def match(value: Match, *, scale: float = 1.0, theme: str = "light", colors: Colors = None) -> str:
    """Return a match: each player's running total after each deal.

    Example:
        >>> import calabrasella as cb
        >>> m = cb.Match.start(cb.CAVENDISH, seed=1, deals=2)
        >>> m = m.record(cb.rollout(m.next_deal(seed=1), 1))
        >>> "1 of 2 deals" in match(m)
        True
    """
    cv = _canvas(620, 260, theme, colors, "a match: the running totals")
    agreed = "" if value.deals is None else f" of {value.deals}"
    draw_match(
        cv,
        value.history,
        value.rules.players,
        f"{value.rules.terms.title}: {len(value.finished)}{agreed} deals",
    )
    return cv.svg(scale)


def bar_chart(
    bars: Sequence[Bar],
    *,
    title: str,
    unit: str,
    series: Optional[Sequence[str]] = None,
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return horizontal bars ``(label, value, low, high)``, the interval drawn as a whisker.

    ``series`` names each bar's series (one name per bar): the bars of a
    series share a colour, and a key names them. A long label takes two lines.

    Raises:
        ValueError: no bars, or ``series`` not one name per bar.

    Example:
        >>> bar_chart([("a", 2.0, 1.5, 2.5), ("b", -1.0, None, None)], title="t", unit="u").count("<rect")
        2
        >>> bar_chart([("a", 2.0, None, None), ("a", 3.0, None, None)], title="t", unit="u",
        ...           series=["before", "after"]).count("<rect")
        4
    """
    if not bars:
        raise ValueError("a bar chart needs at least one bar")
    if series is not None and len(series) != len(bars):
        raise ValueError(f"series: {len(series)} names for {len(bars)} bars; expected one per bar")
    cv = _canvas(720, bars_height(bars, series), theme, colors, title)
    draw_bars(cv, bars, title, unit, series)
    return cv.svg(scale)


def flow(
    rules: Ruleset,
    *,
    narrow: bool = False,
    scale: float = 1.0,
    theme: str = "light",
    colors: Colors = None,
) -> str:
    """Return the flow of a deal under ``rules``: auction, each contract's exchange steps, play, result.

    In the ruleset's own words (Cavendish's single player and stock,
    Calabresella's declarer and monte); a yellow box is chance. ``narrow=True``
    draws two steps to a line, 380 wide, for a phone's screen.

    Example:
        >>> import calabrasella as cb
        >>> ">monte<" in flow(cb.CALABRESELLA) and ">stock<" in flow(cb.CAVENDISH)
        True
    """
    rows = flow_rows(rules)
    width, height = flow_size(rules, rows, narrow)
    cv = _canvas(width, height, theme, colors, f"the flow of a deal: {rules.name}")
    draw_flow(cv, rules, rows, narrow)
    return cv.svg(scale)


def analysis(
    value: Analysed, *, scale: float = 1.0, theme: str = "light", colors: Colors = None
) -> str:
    """Return the chart of a deal's analysis: the units each seat's plays lost, trick by trick.

    ``value`` is a :class:`calabrasella.bots.Analysis`. Each trick has a bar
    per seat (the units its play lost with every hand open); the biggest
    mistake is ringed and named; with estimates, a black mark shows the
    units lost by the estimate from the mover's own view.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots import analyse
        >>> end = cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7)
        >>> analysis(analyse(end, from_trick=12)).startswith("<svg")
        True
    """
    if not isinstance(value, Analysed):
        raise TypeError(f"expected an analysis, got {type(value).__name__}")
    cv = _canvas(CHART_W, CHART_H, theme, colors, "the units lost trick by trick")
    draw_analysis(cv, value)
    return cv.svg(scale)


def picture(value: object) -> str:
    """Return the default picture of a library object (what a notebook shows).

    Raises:
        TypeError: there is no picture for ``value``'s type.

    Example:
        >>> import calabrasella as cb
        >>> picture(cb.Card.parse("Ad")) == card("Ad")
        True
    """
    if isinstance(value, Card):
        return card(value)
    if isinstance(value, CardSet):
        return cards(value, spread=0.6)
    if isinstance(value, (State, View)):
        return table(value)
    if isinstance(value, Record):
        return record(value)
    if isinstance(value, Result):
        return result(value)
    if isinstance(value, Match):
        return match(value)
    if isinstance(value, Analysed):
        return analysis(value)
    raise TypeError(f"no picture for a {type(value).__name__}")


_ = (tricks_of, LIGHT, DARK)
