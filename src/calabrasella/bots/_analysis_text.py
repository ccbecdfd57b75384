"""The text table of an :class:`~calabrasella.bots.analysis.Analysis`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import calabrasella as cb
from calabrasella.scoring import plural

if TYPE_CHECKING:
    from .analysis import Analysis, Decision

__all__ = ["header", "render"]


def _number(value: float) -> str:
    return f"{value:g}"


def _options(decision: Decision, declarer: bool) -> str:
    """The options, best first for the mover, each with its open-hand value."""
    ordered = sorted(decision.values.items(), key=lambda kv: -kv[1] if declarer else kv[1])
    return ", ".join(f"{_card(a)} {v}" for a, v in ordered)


def _card(action: cb.Action) -> str:
    return action.card.code if isinstance(action, cb.Play) else str(action)


def header(analysis: Analysis) -> list[str]:
    """The lines above the table: the deal, what the numbers are."""
    rules = analysis.rules
    if analysis.declarer is None:
        head = f"Analysis of a {rules.name} deal: nobody played (all passed)"
    else:
        head = f"Analysis of a {rules.name} deal: {analysis.contract} by seat {analysis.declarer}"
        if analysis.declarer_units is not None:
            head += f", {analysis.declarer_units} of {rules.deal_units} units to the declarer"
    lines = [
        head,
        "Values: the declarer's units at the end of the deal, every hand open, perfect play after.",
        "Lost: units the play gave away against the best play, from the mover's side.",
    ]
    if analysis.worlds:
        lines.append(
            f"Estimate: the same averaged over {plural(analysis.worlds, 'world')} drawn from the "
            f"mover's own view (seed {analysis.seed}); an estimate, not exact."
        )
    return lines


def render(analysis: Analysis) -> str:
    """The whole text: the header, a line per decision, the totals and the biggest mistake."""
    lines = [*header(analysis), ""]
    estimate = analysis.worlds > 0
    columns = f"{'trick':<9}{'seat':<5}{'action':<16}{'value':>6}{'best':>6}{'lost':>6}"
    lines.append(columns + (f"{'est.lost':>10}" if estimate else "") + "  options (open hands)")
    for d in analysis.decisions:
        where = str(d.trick) if d.trick is not None else d.stage
        row = f"{where:<9}{d.seat:<5}{d.action!s:<16}"
        if not d.analysed:
            lines.append(row + f"  not analysed: {d.note}")
            continue
        row += f"{d.chosen:>6}{d.best:>6}{d.lost:>6}"
        if estimate:
            row += f"{'-' if d.estimate_lost is None else _number(d.estimate_lost):>10}"
        mark = "  <- biggest mistake" if analysis.biggest is d else ""
        lines.append(row + "  " + _options(d, d.seat == analysis.declarer) + mark)
    lines.append("")
    lost = analysis.lost_by_seat()
    lines.append("Units lost, every hand open: " + ", ".join(
        f"seat {seat} {units}" for seat, units in enumerate(lost)))  # fmt: skip
    worst = analysis.biggest
    if worst is None:
        lines.append("No play lost a unit.")
    else:
        where = f"trick {worst.trick}" if worst.trick is not None else f"the {worst.stage}"
        did = "played" if isinstance(worst.action, cb.Play) else "chose"
        lines.append(
            f"Biggest mistake: {where}, seat {worst.seat} {did} "
            f"{_card(worst.action)} ({plural(worst.lost or 0, 'unit')} lost; "
            f"best {worst.best}, {did} {worst.chosen})."
        )
    return "\n".join(lines) + "\n"
