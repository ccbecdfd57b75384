"""Charts the docs draw from their own tables, and the flow of a deal per ruleset."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from ..actions import Contract, Modifier
from ..rulesets import Ruleset
from ._doc import Canvas, num

__all__ = ["Bar", "draw_bars", "draw_flow", "flow_rows", "flow_size", "step_words"]

#: One bar: its label, value and the low and high ends of its interval (or None).
Bar = tuple[str, float, Optional[float], Optional[float]]


def draw_bars(cv: Canvas, bars: Sequence[Bar], title: str, unit: str) -> None:
    """Draw horizontal bars with their confidence intervals as whiskers, a zero line and a scale."""
    s = cv.style
    left, top, right = 250, 40, cv.width - 70
    cv.text(12, 22, title, size=14, weight="bold")
    ends = [v for bar in bars for v in (bar[1], bar[2], bar[3]) if v is not None]
    lo, hi = min(0.0, *ends), max(0.0, *ends)
    span = (hi - lo) or 1.0

    def px(v: float) -> float:
        return left + (v - lo) / span * (right - left)

    bottom = top + 30 * len(bars)
    cv.add("line", x1=px(0), y1=top - 6, x2=px(0), y2=bottom, stroke=s["grid"], stroke_width=1)
    for tick in _ticks(lo, hi):
        cv.add("line", x1=px(tick), y1=bottom, x2=px(tick), y2=bottom + 4, stroke=s["grid"])
        cv.text(px(tick), bottom + 16, f"{tick:g}", size=10, anchor="middle", color="muted")
    cv.text((left + right) / 2, bottom + 32, unit, size=11, anchor="middle", color="muted")
    for k, (label, value, low, high) in enumerate(bars):
        y = top + 30 * k
        cv.text(left - 8, y + 15, label, size=11, anchor="end")
        x0, x1 = sorted((px(0), px(value)))
        cv.add(
            "rect",
            x=x0,
            y=y + 4,
            width=max(x1 - x0, 0.5),
            height=16,
            fill=s["bar"] if k % 2 == 0 else s["bar_alt"],
        )
        if low is not None and high is not None:
            cv.add(
                "path",
                d=f"M {num(px(low))},{num(y + 12)} H {num(px(high))} M {num(px(low))},"
                f"{num(y + 7)} V {num(y + 17)} M {num(px(high))},{num(y + 7)} V {num(y + 17)}",
                stroke=s["ink"],
                stroke_width=1.4,
                fill="none",
            )
        cv.text(
            max(px(value), px(high) if high is not None else 0) + 6, y + 16, f"{value:g}", size=11
        )


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


def step_words(step: object) -> str:
    """A step of an exchange plan in a few words: ``"declarer discards 1-4"``.

    Display only, read from the step's kind (its class name less ``Step``)
    and its usual fields (``role``, ``count``, ``min_count``...); a kind of
    step this does not know is shown by its kind.
    """
    kind = type(step).__name__.removesuffix("Step").lower()
    role = getattr(step, "role", None)
    who = str(getattr(role, "value", "declarer"))
    who = {"first": "1st adversary", "second": "2nd adversary"}.get(who, who)
    if kind == "call":
        return "declarer calls a card"
    if kind == "giveback":
        return "give back " + ("face up" if getattr(step, "face_up", False) else "face down")
    if kind == "expose":
        return "stock shown to all"
    if kind == "take":
        count = str(getattr(step, "count", "")).replace("as_discarded", "as many as discarded")
        return f"{who} takes {count}"
    if kind == "discard":
        lo, hi = getattr(step, "min_count", 0), getattr(step, "max_count", 0)
        n = (
            "as many as taken"
            if getattr(step, "as_taken", False)
            else (f"{lo}" if lo == hi else f"{lo}-{hi}")
        )
        return f"{who} discards {n}"
    if kind == "raise":
        return "raise or not"
    if kind == "draw":
        return f"{who} draws {getattr(step, 'count', '')} unseen"
    return kind


def flow_rows(rules: Ruleset) -> list[tuple[str, list[str]]]:
    """Each way through a deal: the contract (and raise) and its exchange steps in words.

    A contract the ruleset does not have, or with the same steps as one
    before it (Cavendish has one bid), is left out.
    """
    rows: list[tuple[str, list[str]]] = []
    seen: list[object] = []
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
            rows.extend(
                (f"{contract.value} {m.value}", [step_words(st) for st in rules.raise_plan(m)])
                for m in raises
            )
        else:
            rows.append((contract.value, [step_words(step) for step in plan]))
    return rows


def _lines(text: str, width: int = 16) -> list[str]:
    """Split ``text`` into at most two lines of about ``width`` characters."""
    if len(text) <= width:
        return [text]
    words = text.split()
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(text) / 2))
    return [" ".join(words[:best]), " ".join(words[best:])]


FLOW_STEP_W, FLOW_LABEL_X, FLOW_STEPS_X, FLOW_BOX_H, FLOW_GAP = 124, 236, 330, 40, 10


def flow_size(rules: Ruleset, rows: list[tuple[str, list[str]]]) -> tuple[float, float]:
    """The width and height of the flow diagram of ``rows``."""
    end = FLOW_STEPS_X + max(len(st) for _, st in rows) * (FLOW_STEP_W + 16) + 10
    return end + 100 + 24 + (150 if rules.terms.points else 90) + 12, 44 + len(rows) * (
        FLOW_BOX_H + FLOW_GAP
    ) + 30


def draw_flow(cv: Canvas, rules: Ruleset, rows: list[tuple[str, list[str]]]) -> None:
    """Draw deal -> auction -> each contract's exchange steps, one row each -> play -> result."""
    s = cv.style
    cv.text(12, 22, f"The flow of a deal: {rules.terms.title}", size=14, weight="bold")
    box_h, gap, top = FLOW_BOX_H, FLOW_GAP, 44
    total_h = len(rows) * (box_h + gap) - gap

    def box(x: float, y: float, w: float, text: str, fill: str) -> None:
        cv.add(
            "rect",
            x=x,
            y=y,
            width=w,
            height=box_h,
            rx=6,
            fill=fill,
            stroke=s["ink"],
            stroke_width=1,
        )
        lines = _lines(text, int(w / 6.3))
        for k, line in enumerate(lines):
            cv.text(
                x + w / 2,
                y + box_h / 2 + 4 + (k - (len(lines) - 1) / 2) * 13,
                line,
                size=10.5,
                anchor="middle",
                color="#1d1d1f",
            )

    def arrow(x0: float, y0: float, x1: float, y1: float) -> None:
        cv.add("line", x1=x0, y1=y0, x2=x1 - 6, y2=y1, stroke=s["ink"], stroke_width=1.3)
        cv.add(
            "polygon",
            points=f"{num(x1)},{num(y1)} {num(x1 - 7)},{num(y1 - 4)} {num(x1 - 7)},{num(y1 + 4)}",
            fill=s["ink"],
        )

    mid = top + total_h / 2 - box_h / 2
    box(12, mid, 86, "deal (chance)", s["highlight"])
    arrow(98, mid + box_h / 2, 122, mid + box_h / 2)
    box(122, mid, 86, "auction", s["card"])
    step_w, x_steps = FLOW_STEP_W, FLOW_STEPS_X
    end = x_steps + max(len(st) for _, st in rows) * (step_w + 16) + 10
    for k, (name, steps) in enumerate(rows):
        y = top + k * (box_h + gap)
        arrow(208, mid + box_h / 2, FLOW_LABEL_X, y + box_h / 2)
        for j, line in enumerate(_lines(name, 10)):
            cv.text(
                FLOW_LABEL_X + 4,
                y + box_h / 2 + 4 + (j - (len(_lines(name, 10)) - 1) / 2) * 13,
                line,
                size=11,
                weight="bold",
            )
        x = x_steps
        for word in steps:
            box(x, y, step_w, word, s["highlight"] if "unseen" in word else "#f3efe2")
            x += step_w + 16
            if word is not steps[-1]:
                arrow(x - 16, y + box_h / 2, x, y + box_h / 2)
        cv.add(
            "line",
            x1=x - 16,
            y1=y + box_h / 2,
            x2=end,
            y2=mid + box_h / 2,
            stroke=s["ink"],
            stroke_width=1.3,
        )
    box(end, mid, 100, "play: 12 tricks", s["card"])
    arrow(end + 100, mid + box_h / 2, end + 124, mid + box_h / 2)
    bonus = rules.terms.points
    box(
        end + 124,
        mid,
        150 if bonus else 90,
        "result, x2 cappotto, x3 stramazzo" if bonus else "result",
        s["card"],
    )
    cv.text(
        12,
        top + total_h + 26,
        "all pass: the deal is void, nobody pays · a yellow box is chance",
        size=11,
        color="muted",
    )
