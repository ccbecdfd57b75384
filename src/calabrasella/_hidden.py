"""What a seat is shown of the moves it did not see: :class:`Hidden` entries, from the
exchange's move records (:meth:`calabrasella.rulesets.steps.Work.move`)."""

from __future__ import annotations

from typing import Any, Union

import attrs

from .actions import Action, Call, Discard, Draw, GiveBack, Take, TurnStock
from .cards import Card
from .places import redact
from .rulesets.protocol import says_what_it_hides, step_hides
from .rulesets.steps import Exchange, Step

__all__ = ["Hidden", "redacted_forced"]

_Entries = tuple[tuple[int, Union[Action, "Hidden"]], ...]


@attrs.frozen
class Hidden:
    """Stands in a view's history for a face-down action of another seat.

    Attributes:
        kind: The kind of action it was (``"discard"``, ``"give_back"``,
            ``"draw"``, ``"take"``, or a variant's own kind such as ``"swap"``).
        words: What the seat was told, in the words of the exchange step that
            moved the cards (``"discarded a card face down"``).
    """

    kind: str
    words: str = ""

    def __str__(self) -> str:
        """The words (``discarded a card face down``), else ``discard (face down)``."""
        return self.words or f"{self.kind.replace('_', ' ')} (face down)"


_HIDDEN: dict[tuple[str, str], Hidden] = {}


def _hidden(kind: str, words: str = "") -> Hidden:
    known = _HIDDEN.get((kind, words))
    if known is None:
        known = _HIDDEN[kind, words] = Hidden(kind, words)
    return known


_KINDS: dict[type, str] = {
    Discard: "discard",
    GiveBack: "give_back",
    Take: "take",
    Draw: "draw",
    Call: "call",
}


def _kind_of(action: Action) -> str:
    """The kind of an action, as a :class:`Hidden` names it."""
    cls = action.__class__
    known = _KINDS.get(cls)
    if known is not None:
        return known
    kind = getattr(cls, "kind", None)
    return kind if isinstance(kind, str) else cls.__name__.lower()


def _redact(
    ex: Exchange, history: tuple[tuple[int, Action], ...], cut: int, seat: int
) -> tuple[_Entries, Card | None]:
    """Return the first ``cut`` entries of ``history`` as ``seat`` sees them, and the
    card given back if it saw it.

    Each exchange entry is shown unless the step that made it says it is
    hidden from ``seat`` (by its moves, or a step's deprecated ``hidden_from``); a
    seat always sees its own, and every seat sees a stock turned early. The
    card given back is the one of the declarer's first ``GiveBack`` of that card.
    """
    plan, starts = ex.plan, ex.starts
    first = starts[0] if starts else cut
    out: list[tuple[int, Union[Action, Hidden]]] = list(history[:first])
    found = False  # the declarer's first give-back met (a later one is not it)
    given_back = None
    last = len(starts) - 1
    declarer = ex.declarer
    unseen = ex.unseen(seat)[0]  # the entries whose moves this seat did not see: the words
    own = _own_hiding(plan)
    for i in range(first, cut):
        entry = history[i]
        who, action = entry
        cls = action.__class__
        if who != seat and cls is not TurnStock:
            words = unseen.get(i)
            kind = None
            if own:  # a step that says itself what it hides, and as what kind
                k = last  # the step that made the entry
                while k > 0 and starts[k] > i:
                    k -= 1
                kind = step_hides(plan[k], who, seat, action, ex)
                if kind is not None and words is None:
                    words = ""
            if words is not None:
                out.append((who, _hidden(kind or _kind_of(action), words)))
                if cls is GiveBack and who == declarer:
                    found = True  # the give-back, unseen
                continue
        out.append(entry)
        if cls is GiveBack and who == declarer and not found:
            given_back = action.card  # type: ignore[union-attr]
            found = True
    return tuple(out), given_back


def _own_hiding(plan: tuple[Step, ...]) -> bool:
    """Whether a step of ``plan`` says itself what it hides (the deprecated ``hidden_from``)."""
    return any(says_what_it_hides(step) for step in plan)


def redacted_forced(ex: Exchange, seat: int) -> tuple[tuple[int, int, Union[Action, Hidden]], ...]:
    """Return the exchange's forced moves as ``seat`` sees them: ``(at, seat, action)``."""
    out: list[tuple[int, int, Union[Action, Hidden]]] = []
    by_forced = ex.unseen(seat)[1]
    for j, (at, k, who, action) in enumerate(ex.forced):
        words = None if who == seat else by_forced.get(j)
        kind = None
        if who != seat:
            kind = step_hides(ex.plan[k], who, seat, action, ex)  # (deprecated)
            if kind is not None and words is None:
                words = ""
        out.append((at, who, action if words is None else _hidden(kind or _kind_of(action), words)))
    return tuple(out)


def told(
    ex: Exchange, seat: int, history: tuple[tuple[int, Action], ...], cut: int
) -> tuple[_Entries, Card | None, Any, Any]:
    """Return what ``seat`` was told of an exchange: the first ``cut`` entries of the
    history as it saw them, the card given back if it saw it, the forced moves and the
    move records as it may hold them.

    A view of the auction or the exchange works it out when it is made; every view
    of one seat in the play shares it (kept with the views' part of the play, in
    :mod:`calabrasella.views`), so it is worked out once for the whole play.
    """
    entries, given_back = _redact(ex, history, cut, seat)
    return (
        entries,
        given_back,
        redacted_forced(ex, seat) if ex.forced else (),
        redact(ex.moves, seat) if ex.moves else (),
    )
