"""The docs' pictures, drawn by calabrasella.svg when the site is built (an mkdocs hook).

A page asks for a picture with an HTML comment on a line of its own::

    <!-- picture: trick -->
    <!-- picture: chart title="Mean payment per deal" unit="units" -->

and :func:`on_page_markdown` puts the SVG in its place (inline, so the page's
light or dark scheme colours the labels). A ``chart`` draws the Markdown table
just above the comment as bars, a cell like ``+5.86 [+5.40, +6.31]`` as a value
with its confidence interval and ``0.35-0.37`` as a range; so the charts always
show the figures the page's table gives. Every other name is a function of
:data:`PICTURES`, which plays seeded deals through the public API.

Run as a script, it writes ``docs/images/deal.svg`` (the README's picture);
``tests/unit/test_docs_pictures.py`` checks that file is what this draws now.
"""

from __future__ import annotations

import random
import re
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import calabrasella as cb
from calabrasella import svg
from calabrasella.bots import analyse
from calabrasella.bots.heuristic import HeuristicBot

MARKER = re.compile(r"^<!-- picture: (.+?) -->[ \t]*$", re.MULTILINE)


def heuristic_deal(rules: cb.Ruleset, seed: int, until: Callable[[cb.State], bool] | None = None) -> cb.State:
    """A deal played by three heuristic bots from ``seed``, stopped where ``until`` says (or at the end)."""
    bots = [HeuristicBot(seed * 3 + k) for k in range(rules.players)]
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    while not state.is_over and not (until and until(state)):
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            seat = state.to_move
            assert seat is not None  # not a chance node: a seat acts
            state = cb.apply(state, bots[seat].choose(state.view(seat)))
    return state


def first_with(bonus: cb.Bonus, rules: cb.Ruleset = cb.CALABRESELLA) -> cb.State:
    """The first seeded heuristic deal that ends with ``bonus`` (cappotto or stramazzo)."""
    for seed in range(1000):
        state = heuristic_deal(rules, seed)
        if state.result is not None and state.result.bonus is bonus:
            return state
    raise LookupError(f"no {bonus.value} in 1000 deals")


def middle() -> cb.State:
    """The home page's moment: a Calabresella deal in its fifth trick, two cards played."""
    return heuristic_deal(cb.CALABRESELLA, 5, lambda s: s.tricks_played == 4 and len(s.trick) == 2)


def wide_or_narrow(wide: str, narrow: str) -> str:
    """Both layouts of a picture; the page's stylesheet shows the narrow one on a phone."""
    return f'<div class="cb-wide">{full_width(wide)}</div><div class="cb-narrow">{full_width(narrow)}</div>'


def table_picture(source: cb.State | cb.View, **options: Any) -> str:
    """A table as the wide picture, and as the narrow one for a phone."""
    return wide_or_narrow(svg.table(source, **options), svg.table(source, narrow=True, **options))


def record_picture(source: cb.State | cb.Record, **options: Any) -> str:
    """A record as the wide picture, and as the narrow one for a phone."""
    return wide_or_narrow(svg.record(source, **options), svg.record(source, narrow=True, **options))


def records_page_deal() -> cb.State:
    """The deal the Records page writes down (Cavendish, dealer 0, seed 7, its first five actions),
    played to its end by three heuristic bots."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h", "give back 4h", "discard 5s", "done"]:
        state = cb.apply(state, cb.parse_action(text))
    bots = [HeuristicBot(7 * 3 + k) for k in range(3)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None  # Cavendish has no chance node after the deal
        state = cb.apply(state, bots[seat].choose(state.view(seat)))
    return state


def full_width(picture: str) -> str:
    """Let a picture shrink to the page's width (its viewBox keeps the shape); a picture already
    wrapped (both layouts, or several side by side) is left as it is."""
    if not picture.startswith("<svg "):
        return picture
    return picture.replace("<svg ", '<svg style="max-width:100%;height:auto" ', 1)


def captioned(picture: str, caption: str) -> str:
    """A picture at the page's width with its caption under it."""
    return f'<figure style="margin:0 0 1em 0">{picture}<figcaption>{caption}</figcaption></figure>'


def state_and_view() -> str:
    """The same moment as the state and as the view of the seat to play, one under the other at
    the page's width (side by side, each would be half as wide and its words too small to read)."""
    state = middle()
    seat = state.to_move or 0
    return captioned(
        table_picture(state, bottom=seat), "The state: every card face up, as the engine holds it."
    ) + captioned(
        table_picture(state.view(seat)),
        f"Seat {seat}'s view of the same moment: its own hand, the other hands and the "
        "monte as backs with their count, its legal cards ringed.",
    )


def notebook(part: str) -> str:
    """The notebook page's deal (Cavendish, seed 11): the table as the play begins, the tricks, the record."""
    deal = heuristic_deal(cb.CAVENDISH, 11)
    if part == "start":
        record = cb.Record.from_state(deal)
        return table_picture(next(s for s in record.states() if s.phase is cb.Phase.PLAYING))
    if part == "record":
        return record_picture(deal)
    tricks = [svg.trick(deal, n) for n in range(1, 13)]
    return '<div class="cb-tricks">' + "".join(tricks) + "</div>"


def _reference_end() -> cb.State:
    return cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7)


def _reference_match() -> cb.Match:
    match = cb.Match.start(cb.CAVENDISH, seed=1, deals=2)
    return match.record(cb.rollout(match.next_deal(seed=1), 1))


#: The picture each function's example on the svg reference page draws.
REFERENCE: dict[str, Callable[[], str]] = {
    "card": lambda: svg.card(cb.Card.parse("3s"), suits="french"),
    "back": lambda: svg.back(),
    "suit": lambda: svg.suit("d"),
    "legend": lambda: svg.legend(),
    "cards": lambda: svg.cards(cb.CardSet.parse("Ad 3s"), units=True),
    "trick": lambda: svg.trick([(1, "Kd"), (2, "3d"), (0, "4c")]),
    "table": lambda: table_picture(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7).view(1)),
    "record": lambda: record_picture(_reference_end()),
    "result": lambda: wide_or_narrow(
        svg.result(_reference_end().result, rules=cb.CAVENDISH),  # type: ignore[arg-type]
        svg.result(_reference_end().result, rules=cb.CAVENDISH, narrow=True),  # type: ignore[arg-type]
    ),
    "match": lambda: svg.match(_reference_match()),
    "bar_chart": lambda: svg.bar_chart([("a", 2.0, 1.5, 2.5), ("b", -1.0, None, None)], title="t", unit="u"),
    "flow": lambda: svg.flow(cb.CALABRESELLA),
    "analysis": lambda: svg.analysis(analyse(cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7), from_trick=12)),
    "picture": lambda: svg.picture(cb.Card.parse("Ad")),
}


def pictures_page_top() -> str:
    """The first picture of "A deal in pictures": the table its first example draws."""
    return table_picture(cb.new_deal(cb.CAVENDISH, dealer=0, seed=11).view(1))


def flow_both(rules: str) -> str:
    """A ruleset's flow, as the wide picture and as the narrow one for a phone."""
    found = cb.find_ruleset(rules)
    return wide_or_narrow(svg.flow(found), svg.flow(found, narrow=True))


def analysis_page_deal() -> cb.State:
    """The deal the Analysis page analyses: Cavendish, dealer 0, seed 7, each choice the last
    legal action until trick 11, then the page's six plays."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    while state.phase is not cb.Phase.PLAYING or state.tricks_played < 10:
        state = cb.apply(state, cb.legal_actions(state)[-1])
    for text in ["play 2d", "play 3h", "play 3d", "play Qd", "play Ad", "play 2s"]:
        state = cb.apply(state, cb.parse_action(text))
    return state


PICTURES: dict[str, Callable[..., str]] = {
    "reference": lambda name: REFERENCE[name](),
    "quickstart-hand": lambda: svg.cards(cb.new_deal(cb.CALABRESELLA, dealer=0, seed=7).hand(1), spread=0.8),
    "deal-start": lambda: table_picture(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7).view(1)),
    "deal-result": lambda: wide_or_narrow(
        svg.result(_reference_end().result, rules=cb.CAVENDISH),  # type: ignore[arg-type]
        svg.result(_reference_end().result, rules=cb.CAVENDISH, narrow=True),  # type: ignore[arg-type]
    ),
    "flow-narrow": flow_both,
    "pictures-top": pictures_page_top,
    "deal": lambda: table_picture(middle()),
    "card-order": lambda: svg.cards(["3d", "2d", "Ad", "Kd", "Qd", "Jd", "7d", "6d", "5d", "4d"], units=True, spread=0.9),
    "suits": lambda: svg.legend(),
    "trick": lambda: svg.trick([(1, "Kc"), (2, "3c"), (0, "Ad")], players=3),
    "flow": lambda rules: flow_both(rules),
    "cappotto": lambda: record_picture(first_with(cb.Bonus.CAPPOTTO), title="Cappotto: one side takes every trick"),
    "stramazzo": lambda: record_picture(first_with(cb.Bonus.STRAMAZZO), title="Stramazzo: the losers make no point"),
    "state-and-view": state_and_view,
    "record": lambda: record_picture(cb.Record.from_state(records_page_deal())),
    "notebook": notebook,
    "analysis": lambda: svg.analysis(analyse(cb.Record.from_state(analysis_page_deal()))),
}


def _cell(text: str) -> tuple[float, float | None, float | None] | None:
    """``+5.86 [+5.40, +6.31]`` -> (5.86, 5.4, 6.31); ``0.35-0.37`` -> (0.36, 0.35, 0.37); ``0.23``."""
    text = text.replace(",", "") if "[" not in text else text
    text = re.sub(r"\s*(µs|ms|KB|s|%)\s*$", "", text)  # the unit, which the chart's axis names
    m = re.fullmatch(r"\s*([+-]?[\d.]+)\s*\[\s*([+-]?[\d.]+)\s*,\s*([+-]?[\d.]+)\s*\]\s*", text)
    if m:
        return float(m[1]), float(m[2]), float(m[3])
    m = re.fullmatch(r"\s*([\d.]+)-([\d.]+)\s*", text)
    if m:
        lo, hi = float(m[1]), float(m[2])
        return round((lo + hi) / 2, 4), lo, hi
    m = re.fullmatch(r"\s*([+-]?[\d.]+)\s*", text)
    return (float(m[1]), None, None) if m else None


def table_above(markdown: str, at: int) -> list[list[str]]:
    """The rows (header first) of the last Markdown table before offset ``at``."""
    lines = markdown[:at].rstrip("\n").splitlines()
    rows: list[list[str]] = []
    while lines and not lines[-1].lstrip().startswith("|"):  # text between: the table above it
        lines.pop()
    while lines and lines[-1].lstrip().startswith("|"):
        rows.insert(0, [c.strip() for c in lines.pop().strip().strip("|").split("|")])
    if len(rows) < 3:
        raise ValueError("a chart marker must follow a Markdown table")
    return [rows[0], *rows[2:]]


def chart(markdown: str, at: int, title: str, unit: str, rows: str = "", columns: str = "") -> str:
    """Bars for the numeric cells of the table above (rows whose label holds ``rows``, the columns listed)."""
    head, *body = table_above(markdown, at)
    wanted = [int(c) for c in columns.split(",")] if columns else range(1, len(head))
    bars: list[svg.Bar] = []
    series: list[str] = []
    for row in body:
        if rows and rows not in row[0]:
            continue
        for c in wanted:
            parsed = _cell(row[c])
            if parsed is not None:
                label = row[0].replace("`", "").replace(f", {rows}", "").replace(f" {rows}", "")
                bars.append((label, *parsed))
                series.append(head[c])
    return svg.bar_chart(bars, title=title, unit=unit, series=series)


def draw(spec: str, markdown: str = "", at: int = 0) -> str:
    """The picture a marker asks for: ``name`` then ``key="value"`` options or one plain argument."""
    name, *args = shlex.split(spec)
    options = dict(a.split("=", 1) for a in args if "=" in a)
    plain = [a for a in args if "=" not in a]
    if name == "chart":
        return chart(markdown, at, **options)
    return PICTURES[name](*plain, **options)


def render(markdown: str) -> tuple[str, int]:
    """Replace every marker of a page with its picture; return the page and how many were drawn."""
    count = 0

    def one(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        picture = draw(m[1], markdown, m.start())
        return f'<div class="cb-picture">{full_width(picture)}</div>'

    return MARKER.sub(one, markdown), count


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """The mkdocs hook: draw the page's pictures."""
    return render(markdown)[0]


def readme_picture() -> str:
    """The README's deal picture (``docs/images/deal.svg``)."""
    return svg.table(middle()) + "\n"


if __name__ == "__main__":
    target = Path(__file__).resolve().parents[1] / "images" / "deal.svg"
    target.write_text(readme_picture(), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
