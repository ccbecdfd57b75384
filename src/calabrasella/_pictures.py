"""Reprs for consoles and notebooks: short text, IPython's pretty text, and SVG pictures.

The core classes name these functions as their ``__repr__`` helpers,
``_repr_pretty_`` and ``_repr_svg_``. Nothing here is imported eagerly from
above: :func:`svg_of` imports :mod:`calabrasella.svg` when a notebook asks
for a picture, so ``import calabrasella`` never loads the pictures. That
call-time import is the one upward edge of the package's import graph
(``tests/unit/test_layers.py`` allows exactly this one and checks it stays
inside the function).
"""

from __future__ import annotations

from typing import Any

__all__ = ["pretty", "record_repr", "state_repr", "svg_of", "view_repr"]


def svg_of(obj: object) -> str:
    """Return ``obj``'s picture (:func:`calabrasella.svg.picture`): a notebook's ``_repr_svg_``."""
    from .svg import picture  # at call time: the pictures sit above the core

    return picture(obj)


def _play(obj: Any) -> str:
    """The part of a state's or a view's repr about who acts, the contract and the tricks."""
    name = obj.phase_name  # a variant's step may name its phase
    parts = [obj.phase.name.lower() if name == str(obj.phase) else name]
    if obj.to_move is not None:
        parts.append(f"seat {obj.to_move} to act")
    if obj.contract is not None:
        words = " ".join(c.value for c in (obj.contract, obj.modifier) if c is not None)
        parts.append(f"{words} by seat {obj.declarer}")
    if any(obj.tricks_won):
        parts.append("tricks " + "-".join(map(str, obj.tricks_won)))
    return ", ".join(parts)


def state_repr(state: Any) -> str:
    """``<State cavendish playing, seat 2 to act, stand by seat 1, tricks 1-0-2, history 14>``."""
    return f"<State {state.rules.name} {_play(state)}, history {len(state.history)}>"


def view_repr(view: Any) -> str:
    """``<View seat=1 playing, seat 2 to act, ..., hand=3d Ad 7h>``."""
    return f"<View seat={view.seat} {_play(view)}, hand={view.hand}>"


def record_repr(record: Any) -> str:
    """``<Record cavendish v2, dealer 0, 41 actions, over: declarer won 22-13, tags event>``."""
    parts = [f"dealer {record.dealer}", f"{len(record.actions)} actions"]
    result = record.result
    if result is not None and not result.void:
        side = "declarer" if result.declarer_won else "adversaries"
        parts.append(f"over: {side} won {result.declarer_units}-{result.adversary_units}")
    elif result is not None:
        parts.append("over: void")
    if record.tags:
        parts.append("tags " + " ".join(record.tags))
    return f"<Record {record.ruleset} v{record.ruleset_version}, {', '.join(parts)}>"


def _lines(obj: Any) -> list[str]:
    """Text to print under the repr: the hands of a state, a record's text."""
    name = type(obj).__name__
    if name == "State":
        lines = [f"  seat {seat}: {hand or '-'}" for seat, hand in enumerate(obj.hands)]
        lines.append(f"  {obj.rules.terms.stock}: {obj.stock or '-'}")
        if obj.trick:
            lines.append("  trick: " + " ".join(card.code for card in obj.trick))
        return lines
    if name == "View":
        sizes = ", ".join(f"seat {s} {n}" for s, n in enumerate(obj.hand_sizes))
        lines = [f"  cards held: {sizes}; {obj.rules.terms.stock}: {obj.stock_size}"]
        if obj.trick:
            lines.append("  trick: " + " ".join(f"{card.code} (seat {s})" for s, card in obj.trick))
        return lines
    if name == "Record":
        return ["", *obj.to_text().splitlines()]
    return []


def pretty(obj: Any, printer: Any, cycle: bool) -> None:
    """IPython's ``_repr_pretty_``: the repr, then a few lines more for a state, a view, a record."""
    printer.text(repr(obj))
    if not cycle:
        for line in _lines(obj):
            printer.break_()
            printer.text(line)
