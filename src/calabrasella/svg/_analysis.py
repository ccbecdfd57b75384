"""The chart of a deal's analysis: the units each seat's decisions lost, trick by trick.

The pictures sit below the bots, so the analysis is read here through the
attributes it has (:class:`Analysed`), not imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, Protocol, runtime_checkable

from ..actions import Play
from ..rulesets import Ruleset
from ..scoring import plural
from ._chart import _ticks
from ._doc import Canvas
from ._text import fit

__all__ = ["CHART_H", "CHART_W", "Analysed", "draw_analysis"]

CHART_W, CHART_H = 720, 330
_LEFT, _TOP, _BOTTOM, _RIGHT = 56, 64, 260, 704
#: Each seat's colour, by name in the style.
_SEAT_COLORS = ("bar", "bar_alt", "batons", "cups")


@runtime_checkable
class Analysed(Protocol):
    """What the chart reads of an analysis (:class:`calabrasella.bots.Analysis`)."""

    @property
    def rules(self) -> Ruleset:
        """The deal's ruleset."""

    @property
    def declarer(self) -> Optional[int]:
        """The declarer's seat."""

    @property
    def contract(self) -> str:
        """The contract in words."""

    @property
    def worlds(self) -> int:
        """The worlds of each estimate (0: none)."""

    @property
    def decisions(self) -> Sequence[Any]:
        """Every decision, in order."""

    @property
    def biggest(self) -> Any:
        """The decision that lost the most units, or None."""


def _card(action: object) -> str:
    return action.card.code if isinstance(action, Play) else str(action)


def _where(decision: Any) -> str:
    return f"trick {decision.trick}" if decision.trick is not None else f"the {decision.stage}"


def _did(decision: Any) -> str:
    return "played" if isinstance(decision.action, Play) else "chose"


def draw_analysis(cv: Canvas, value: Analysed) -> None:
    """Draw the units lost by each seat's plays in each trick, the biggest mistake ringed.

    With estimates, a short black mark on each bar's place shows the units
    lost by the estimate from the mover's own view.
    """
    s = cv.style
    players = value.rules.players
    valued = [d for d in value.decisions if d.analysed]
    tricks = max([d.trick for d in value.decisions if d.trick is not None], default=1)
    # an analysed exchange decision has a slot of its own before the first trick
    first = 0 if any(d.trick is None for d in valued) else 1
    slots = tricks - first + 1
    top_value = max([d.lost or 0 for d in valued] + [d.estimate_lost or 0 for d in valued] + [1])
    who = f"{value.contract} by seat {value.declarer}" if value.declarer is not None else "no play"
    cv.text(12, 22, fit(f"Units lost trick by trick: {value.rules.name}, {who}", 14, CHART_W - 24,
                        "bold"), size=14, weight="bold")  # fmt: skip
    cv.text(12, 40, "every hand open; the declarer's units, lost from the mover's side",
            size=11, color="muted")  # fmt: skip

    def py(v: float) -> float:
        return _BOTTOM - v / top_value * (_BOTTOM - _TOP)

    for tick in [t for t in _ticks(0.0, float(top_value)) if t == int(t)]:  # whole units
        cv.add("line", x1=_LEFT, y1=py(tick), x2=_RIGHT, y2=py(tick), stroke=s["grid"],
               stroke_width=0.6)  # fmt: skip
        cv.text(_LEFT - 6, py(tick) + 4, f"{tick:g}", size=10, anchor="end", color="muted")
    cv.add("line", x1=_LEFT, y1=_BOTTOM, x2=_RIGHT, y2=_BOTTOM, stroke=s["ink"], stroke_width=1)
    slot = (_RIGHT - _LEFT) / slots
    bar = min(14.0, (slot - 6) / players)
    colour = [s[_SEAT_COLORS[k % len(_SEAT_COLORS)]] for k in range(players)]
    for t in range(first, tricks + 1):
        cv.text(_LEFT + slot * (t - first + 0.5), _BOTTOM + 14, str(t) if t else "exch.", size=10,
                anchor="middle", color="muted")  # fmt: skip
    cv.text((_LEFT + _RIGHT) / 2, _BOTTOM + 30, "trick", size=11, anchor="middle", color="muted")
    cv.text(14, (_TOP + _BOTTOM) / 2, "units lost", size=11, anchor="middle", color="muted",
            transform=f"rotate(-90 14 {(_TOP + _BOTTOM) / 2:g})")  # fmt: skip
    worst = value.biggest
    for d in valued:
        at = (d.trick or 0) - first
        x = _LEFT + slot * at + (slot - bar * players) / 2 + bar * d.seat
        lost = d.lost or 0
        height = max(_BOTTOM - py(lost), 1.0 if lost else 0.0)
        if height:
            label = f"{_where(d)}, seat {d.seat} {_did(d)} {_card(d.action)}: {plural(lost, 'unit')} lost"
            cv.open("g")
            cv.add("title", label)
            cv.add(
                "rect", x=x, y=_BOTTOM - height, width=bar - 1, height=height, fill=colour[d.seat]
            )
            cv.close("g")
        if d.estimate_lost is not None and d.estimate_lost > 0:
            cv.add("line", x1=x - 1, y1=py(d.estimate_lost), x2=x + bar, y2=py(d.estimate_lost),
                   stroke=s["ink"], stroke_width=2)  # fmt: skip
        if worst is d:
            cx, cy = x + bar / 2, _BOTTOM - height
            cv.add("circle", cx=cx, cy=cy, r=7, fill="none", stroke=s["red"], stroke_width=2)
            words = (f"biggest mistake: seat {d.seat} {_did(d)} {_card(d.action)} in "
                     f"{_where(d)}, {plural(lost, 'unit')} lost")  # fmt: skip
            anchor = "start" if cx < CHART_W / 2 else "end"
            cv.text(cx + (10 if anchor == "start" else -10), max(cy - 8, _TOP - 8), words, size=11,
                    anchor=anchor, weight="bold", color="red")  # fmt: skip
    if worst is None:
        cv.text((_LEFT + _RIGHT) / 2, (_TOP + _BOTTOM) / 2, "no play lost a unit", size=13,
                anchor="middle", color="muted")  # fmt: skip
    x = float(_LEFT)
    for seat in range(players):
        name = f"seat {seat}" + (" (declarer)" if seat == value.declarer else "")
        cv.add("rect", x=x, y=_BOTTOM + 44, width=12, height=12, rx=2, fill=colour[seat])
        cv.text(x + 18, _BOTTOM + 54, name, size=11)
        x += 18 + len(name) * 6.5 + 20
    if value.worlds:
        cv.add("line", x1=x, y1=_BOTTOM + 50, x2=x + 14, y2=_BOTTOM + 50, stroke=s["ink"],
               stroke_width=2)  # fmt: skip
        cv.text(x + 20, _BOTTOM + 54, f"estimate from the mover's view ({value.worlds} worlds)",
                size=11)  # fmt: skip
