"""Charts the docs draw from their own tables, and the flow of a deal per ruleset."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Optional

from ..actions import Contract, Modifier
from ..rulesets import Ruleset
from ._doc import Canvas, num
from ._text import fit, text_width

__all__ = [
    "NARROW_FLOW",
    "Bar",
    "draw_bars",
    "draw_flow",
    "flow_rows",
    "flow_size",
    "wrap",
]

#: One bar: its label, value and the low and high ends of its interval (or None).
Bar = tuple[str, float, Optional[float], Optional[float]]


#: The colours of a chart's series, by name in the style, in order.
SERIES_COLORS = ("bar", "bar_alt", "swords", "cups", "batons")
_LABEL_SIZE, _LABEL_MAX = 11, 300


def bar_labels(bars: Sequence[Bar]) -> list[list[str]]:
    """Each bar's label in lines no wider than the chart's label column (two at most)."""
    return [wrap(bar[0], _LABEL_SIZE, _LABEL_MAX)[:2] for bar in bars]


def bars_height(bars: Sequence[Bar], series: Optional[Sequence[str]]) -> float:
    """The height of a bar chart of ``bars`` (and its key, for more than one series)."""
    pitch = 36 if any(len(lines) > 1 for lines in bar_labels(bars)) else 30
    keyed = series is not None and len(set(series)) > 1
    return 40 + pitch * len(bars) + 44 + (20 if keyed else 0)


def draw_bars(
    cv: Canvas,
    bars: Sequence[Bar],
    title: str,
    unit: str,
    series: Optional[Sequence[str]] = None,
) -> None:
    """Draw horizontal bars with their confidence intervals as whiskers, a zero line and a scale.

    ``series`` names each bar's series: a bar takes its series' colour, and a
    key under the scale names the colours (one series: one colour, no key).
    """
    s = cv.style
    labels = bar_labels(bars)
    widest = max(text_width(line, _LABEL_SIZE) for lines in labels for line in lines)
    left, top = min(widest, _LABEL_MAX) + 20, 40
    # room on the right for the last value's label
    right = cv.width - 12 - max(text_width(f"{bar[1]:g}", _LABEL_SIZE) for bar in bars) - 8
    pitch = 36 if any(len(lines) > 1 for lines in labels) else 30
    cv.text(12, 22, fit(title, 14, cv.width - 24, "bold"), size=14, weight="bold")
    ends = [v for bar in bars for v in (bar[1], bar[2], bar[3]) if v is not None]
    lo, hi = min(0.0, *ends), max(0.0, *ends)
    span = (hi - lo) or 1.0

    def px(v: float) -> float:
        return left + (v - lo) / span * (right - left)

    names = list(dict.fromkeys(series)) if series is not None else []
    colour = {name: s[SERIES_COLORS[k % len(SERIES_COLORS)]] for k, name in enumerate(names)}
    bottom = top + pitch * len(bars)
    cv.add("line", x1=px(0), y1=top - 6, x2=px(0), y2=bottom, stroke=s["grid"], stroke_width=1)
    for tick in _ticks(lo, hi):
        cv.add("line", x1=px(tick), y1=bottom, x2=px(tick), y2=bottom + 4, stroke=s["grid"])
        cv.text(px(tick), bottom + 16, f"{tick:g}", size=10, anchor="middle", color="muted")
    cv.text(
        (left + right) / 2,
        bottom + 32,
        fit(unit, 11, cv.width - 24),
        size=11,
        anchor="middle",
        color="muted",
    )
    for k, (_, value, low, high) in enumerate(bars):
        y = top + pitch * k
        # a label once for its run of bars (one bar per series)
        lines = labels[k] if k == 0 or bars[k - 1][0] != bars[k][0] else []
        for j, line in enumerate(lines):
            cv.text(left - 8, y + 15 + (j - (len(lines) - 1) / 2) * 13, line, size=11, anchor="end")
        x0, x1 = sorted((px(0), px(value)))
        fill = colour[series[k]] if series is not None else s["bar"]
        cv.add("rect", x=x0, y=y + 4, width=max(x1 - x0, 0.5), height=16, fill=fill)
        if low is not None and high is not None:
            cv.add(
                "path",
                d=f"M {num(px(low))},{num(y + 12)} H {num(px(high))} M {num(px(low))},"
                f"{num(y + 7)} V {num(y + 17)} M {num(px(high))},{num(y + 7)} V {num(y + 17)}",
                stroke=s["ink"],
                stroke_width=1.4,
                fill="none",
            )
        end = max(px(value), px(high) if high is not None else px(value), px(0))
        cv.text(end + 6, y + 16, f"{value:g}", size=11)
    if len(names) > 1:
        x = left
        for name in names:
            cv.add("rect", x=x, y=bottom + 42, width=12, height=12, rx=2, fill=colour[name])
            cv.text(x + 18, bottom + 52, name, size=11)
            x += 18 + text_width(name, 11) + 20


def _ticks(lo: float, hi: float) -> list[float]:
    span = hi - lo
    step = 10 ** math_floor_log10(span / 4) if span > 0 else 1
    for mult in (1, 2, 5, 10):
        if span / (step * mult) <= 6:
            step *= mult
            break
    first = int(lo // step) * step
    out: list[float] = []
    t = float(first)
    while t <= hi + 1e-9:
        if t >= lo - 1e-9:
            out.append(round(t, 10))
        t += step
    return out


def math_floor_log10(x: float) -> int:
    """The power of ten at or below ``x`` (x > 0)."""
    n = 0
    while x >= 10:
        x /= 10
        n += 1
    while x < 1:
        x *= 10
        n -= 1
    return n


def flow_rows(rules: Ruleset) -> list[tuple[str, list[str]]]:
    """Each way through a deal: the contract (and raise) and its exchange steps in words.

    A contract the ruleset does not have, or with the same steps as one
    before it (Cavendish has one bid), is left out.
    """
    terms = rules.terms
    rows: list[tuple[str, list[str]]] = []
    seen: list[object] = []

    def words(plan: object) -> list[str]:
        return [step.summary(terms) for step in plan]  # type: ignore[attr-defined]

    for contract in Contract:
        try:
            plan = rules.exchange_plan(contract)
        except Exception:  # a contract this ruleset does not have
            continue
        if plan in seen:
            continue
        seen.append(plan)
        raises = [
            c for step in plan for c in getattr(step, "choices", ()) if isinstance(c, Modifier)
        ]
        if raises:  # a step offering raises: a row for no raise, one for each raise
            rows.append((contract.value, ["no exchange"]))
            rows.extend((f"{contract.value} {m.value}", words(rules.raise_plan(m))) for m in raises)
        else:
            rows.append((contract.value, words(plan)))
    return rows


def wrap(text: str, size: float, width: float, weight: Optional[str] = None) -> list[str]:
    """Split ``text`` at spaces into as few lines no wider than ``width`` as will do, as even as can be.

    A word wider than ``width`` has a line of its own.

    Example:
        >>> wrap("declarer calls a card", 12, 100)
        ['declarer', 'calls a card']
    """
    words = text.split()
    if not words:
        return [""]
    greedy: list[str] = []
    for word in words:
        if greedy and text_width(f"{greedy[-1]} {word}", size, weight) <= width:
            greedy[-1] += f" {word}"
        else:
            greedy.append(word)
    n = len(greedy)
    if n == 1 or len(words) > 10:
        return greedy
    best, best_w = greedy, max(text_width(line, size, weight) for line in greedy)
    for cuts in itertools.combinations(range(1, len(words)), n - 1):
        bounds = (0, *cuts, len(words))
        lines = [" ".join(words[bounds[k] : bounds[k + 1]]) for k in range(n)]
        widest = max(text_width(line, size, weight) for line in lines)
        if widest < best_w:
            best, best_w = lines, widest
    return best


#: The flow's measures: its width, the steps in a line, a step's box, the font size.
FLOW_W, FLOW_PER_LINE, FLOW_BOX_W, FLOW_GAP, FLOW_SIZE = 730, 5, 108, 12, 12
_STEPS_X, _TRUNK_X, _LINE = 44, 22, 14
#: The narrow flow's width, steps in a line and box width (for a phone).
NARROW_FLOW = (380, 2, 150)


def _measures(narrow: bool) -> tuple[int, int, int]:
    return NARROW_FLOW if narrow else (FLOW_W, FLOW_PER_LINE, FLOW_BOX_W)


def _flow_layout(
    rows: list[tuple[str, list[str]]], narrow: bool = False
) -> tuple[list[tuple[str, list[list[list[str]]], float, float]], float]:
    """Each row's label, its steps (in lines of boxes, each box its lines of text), top and box height."""
    _, per_line, box_w = _measures(narrow)
    inner = box_w - 8
    out: list[tuple[str, list[list[list[str]]], float, float]] = []
    y: float = 40 + 44 + 26  # the title, the deal and auction row, the gap
    for name, steps in rows:
        boxes = [wrap(word, FLOW_SIZE, inner) for word in steps]
        lines = [boxes[k : k + per_line] for k in range(0, len(boxes), per_line)]
        box_h: float = 12 + _LINE * max(len(b) for b in boxes)
        out.append((name, lines, y, box_h))
        y += 18 + len(lines) * (box_h + 12) + 4
    return out, y


def flow_size(
    rules: Ruleset, rows: list[tuple[str, list[str]]], narrow: bool = False
) -> tuple[float, float]:
    """The width and height of the flow diagram of ``rows`` (``narrow``: 380 wide, for a phone)."""
    _, y = _flow_layout(rows, narrow)
    return _measures(narrow)[0], y + 10 + 40 + 22 + 40 + 30 + (16 if narrow else 0)


def draw_flow(
    cv: Canvas, rules: Ruleset, rows: list[tuple[str, list[str]]], narrow: bool = False
) -> None:
    """Draw the deal and auction, then each contract's exchange steps (a line each), then play and result.

    Arrows run from the auction down a line on the left into each contract's
    steps, and from each contract's last step along a line on the right down
    into the play; a yellow box is chance.
    """
    s = cv.style
    ink = s["ink"]
    size = FLOW_SIZE
    width, _, box_w = _measures(narrow)
    title = f"The flow of a deal: {rules.terms.title}"
    cv.text(12, 22, fit(title, 14, width - 24, "bold"), size=14, weight="bold")

    def box(x: float, y: float, w: float, h: float, lines: list[str], fill: str) -> None:
        cv.add("rect", x=x, y=y, width=w, height=h, rx=6, fill=fill, stroke=ink, stroke_width=1)
        for k, line in enumerate(lines):
            cv.text(
                x + w / 2,
                y + h / 2 + 4 + (k - (len(lines) - 1) / 2) * _LINE,
                line,
                size=size,
                anchor="middle",
                color="#1d1d1f",
            )

    def head(x: float, y: float, way: str) -> None:
        """An arrowhead with its tip at ``(x, y)``, pointing ``right`` or ``down``."""
        pts = (
            f"{num(x)},{num(y)} {num(x - 8)},{num(y - 4.5)} {num(x - 8)},{num(y + 4.5)}"
            if way == "right"
            else f"{num(x)},{num(y)} {num(x - 4.5)},{num(y - 8)} {num(x + 4.5)},{num(y - 8)}"
        )
        cv.add("polygon", points=pts, fill=ink)

    def line(x0: float, y0: float, x1: float, y1: float) -> None:
        cv.add("line", x1=x0, y1=y0, x2=x1, y2=y1, stroke=ink, stroke_width=1.4)

    top = 40
    box(12, top, 120, 40, ["deal (chance)"], s["highlight"])
    line(132, top + 20, 164, top + 20)
    head(172, top + 20, "right")
    box(172, top, 100, 40, ["auction"], s["card"])
    void = "all pass: the deal is void, nobody pays"
    if not narrow:
        line(272, top + 20, 300, top + 20)
        head(308, top + 20, "right")
        cv.text(314, top + 25, void, size=size)
    layout, bottom = _flow_layout(rows, narrow)
    # the trunk from the auction down the left, a branch into each contract's steps
    line(222, top + 40, 222, top + 52)
    line(_TRUNK_X, top + 52, 222, top + 52)
    last_mid = layout[-1][2] + 18 + layout[-1][3] / 2
    line(_TRUNK_X, top + 52, _TRUNK_X, last_mid)
    collector = width - 10 if narrow else width - 78
    centre = width / 2 if narrow else collector  # the play's and the result's boxes
    step = box_w + FLOW_GAP
    first_end = None
    for name, lines, y, box_h in layout:
        cv.text(_STEPS_X, y + 12, name, size=size + 1, weight="bold")
        yy = y + 18
        for j, boxes in enumerate(lines):
            mid = yy + box_h / 2
            if j == 0:
                line(_TRUNK_X, mid, _STEPS_X - 8, mid)
                head(_STEPS_X, mid, "right")
            for k, words in enumerate(boxes):
                x = _STEPS_X + k * step
                chance = "unseen" in " ".join(words)
                box(x, yy, box_w, box_h, words, s["highlight"] if chance else "#f3efe2")
                if k + 1 < len(boxes):
                    line(x + box_w, mid, x + step - 8, mid)
                    head(x + step, mid, "right")
            yy += box_h + 12
        end_x = _STEPS_X + (len(lines[-1]) - 1) * step + box_w
        end_mid = yy - 12 - box_h / 2
        line(end_x, end_mid, collector, end_mid)
        first_end = end_mid if first_end is None else first_end
    play_y = bottom + 10
    if centre == collector:
        line(collector, first_end or play_y, collector, play_y - 8)
    else:  # down the right, then across to the play's box
        line(collector, first_end or play_y, collector, play_y - 14)
        line(collector, play_y - 14, centre, play_y - 14)
        line(centre, play_y - 14, centre, play_y - 8)
    head(centre, play_y, "down")
    box(centre - 70, play_y, 140, 40, ["play: 12 tricks"], s["card"])
    line(centre, play_y + 40, centre, play_y + 54)
    head(centre, play_y + 62, "down")
    bonus = "result, x2 cappotto, x3 stramazzo" if rules.terms.points else "result"
    rw = 120 if not rules.terms.points else 240
    left = centre - rw / 2 if narrow else centre + 70 - rw
    box(left, play_y + 62, rw, 40, [bonus], s["card"])
    notes = [void, "a yellow box is chance"] if narrow else ["a yellow box is chance"]
    for k, note in enumerate(notes):
        cv.text(12, play_y + 62 + 40 + 22 + 16 * k, note, size=11, color="muted")
