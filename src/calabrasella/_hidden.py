"""What a seat is shown of the moves it did not see: :class:`Hidden` entries, from the
exchange's move records (:meth:`calabrasella.rulesets.steps.Work.move`)."""

from __future__ import annotations

from typing import Any, Union

import attrs

from ._action_kinds import WORDS
from .actions import Action, GiveBack, TurnStock
from .cards import Card
from .places import redact
from .rulesets.steps import Exchange, Step

__all__ = ["Hidden", "redacted_forced"]

#: The key under which a view keeps the key to what its seat was told (see _Told).
_TOLD = "_told"

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


# Each declared kind's word (its declaration's ``word``), by class.
_KINDS: dict[type, str] = WORDS


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
    hidden from ``seat`` (:meth:`~calabrasella.rulesets.Step.hidden_from`); a
    seat always sees its own, and every seat sees a stock turned early. The
    card given back is the one of the declarer's first ``GiveBack`` of that card.
    """
    plan, starts = ex.plan, ex.starts
    first = starts[0] if starts else cut
    out: list[tuple[int, Union[Action, Hidden]]] = list(history[:first])
    gave_back = ex.gave_back
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
                if plan[k].__class__.hidden_from is not _BASE_HIDDEN_FROM:
                    kind = plan[k].hidden_from(who, seat, action, ex)
                    if kind is not None and words is None:
                        words = ""
            if words is not None:
                out.append((who, _hidden(kind or _kind_of(action), words)))
                if cls is GiveBack and who == declarer and action.card.index == gave_back:  # type: ignore[union-attr]
                    gave_back = -1  # the give-back, unseen: a later move of its card is not it
                continue
        out.append(entry)
        if cls is GiveBack and who == declarer and action.card.index == gave_back:  # type: ignore[union-attr]
            given_back = action.card  # type: ignore[union-attr]
            gave_back = -1  # found: a later move of the same card is not the give-back
    return tuple(out), given_back


_BASE_HIDDEN_FROM = Step.hidden_from


def _own_hiding(plan: tuple[Step, ...]) -> bool:
    """Whether a step of ``plan`` says itself what it hides (:meth:`Step.hidden_from`)."""
    return any(step.__class__.hidden_from is not _BASE_HIDDEN_FROM for step in plan)


def redacted_forced(ex: Exchange, seat: int) -> tuple[tuple[int, int, Union[Action, Hidden]], ...]:
    """Return the exchange's forced moves as ``seat`` sees them: ``(at, seat, action)``."""
    out: list[tuple[int, int, Union[Action, Hidden]]] = []
    by_forced = ex.unseen(seat)[1]
    for j, (at, k, who, action) in enumerate(ex.forced):
        words = None if who == seat else by_forced.get(j)
        kind = None
        step = ex.plan[k]
        if who != seat and step.__class__.hidden_from is not _BASE_HIDDEN_FROM:
            kind = step.hidden_from(who, seat, action, ex)  # a step that says it itself
            if kind is not None and words is None:
                words = ""
        out.append((at, who, action if words is None else _hidden(kind or _kind_of(action), words)))
    return tuple(out)


class _Told:
    """What one seat was told of an exchange, worked out when a view first reads it.

    Its history before the play as it saw it, the card given back if it saw
    it, the forced moves and the move records as it may hold them. A view of
    the auction or the exchange has its own; every view of one seat in the
    play shares one (kept with the views' part of the play, in
    :mod:`calabrasella.views`), so it is worked out once for the whole play.
    The card given back is shown to ``seat`` when the give-back step's entry is.
    """

    __slots__ = ("cut", "ex", "history", "seat", "told")

    def __init__(
        self, ex: Exchange, seat: int, history: tuple[tuple[int, Action], ...], cut: int
    ) -> None:
        self.ex = ex
        self.seat = seat
        self.history = history
        self.cut = cut
        self.told: tuple[_Entries, Card | None, Any, Any] | None = None

    def get(self) -> tuple[_Entries, Card | None, Any, Any]:
        """Return the entries before the play, the card given back, the forced moves and
        the move records, as ``seat`` was told them."""
        told = self.told
        if told is None:
            ex, seat, history, cut = self.ex, self.seat, self.history, self.cut
            entries, given_back = _redact(ex, history, cut, seat)
            told = self.told = (
                entries,
                given_back,
                redacted_forced(ex, seat) if ex.forced else (),
                redact(ex.moves, seat) if ex.moves else (),
            )
        return told


class _Key:
    """What a view holds of its :class:`_Told`: nothing but a key to it in :data:`_TOLD_BY`.

    The :class:`_Told` holds the exchange record and the history, hidden cards
    and all: a view must not reach them, so it holds this key instead. The
    entry goes when the key does (when no view, nor the views' part of a
    play, holds it any more): a key's id is not reused before then.
    """

    __slots__ = ()

    def __del__(self) -> None:
        told = _TOLD_BY  # (None once the module is torn down at exit)
        if told is not None:
            told.pop(id(self), None)


#: What each seat was told, by the id of its key (see :class:`_Key`).
_TOLD_BY: dict[int, _Told] = {}


def _told(ex: Exchange, seat: int, history: tuple[tuple[int, Action], ...], cut: int) -> _Key:
    """Return the key of a new :class:`_Told` (see :class:`_Key`)."""
    key = _Key()
    _TOLD_BY[id(key)] = _Told(ex, seat, history, cut)
    return key


def _fill_told(d: dict[str, Any], pending: tuple[_Key, Any]) -> None:
    """Fill in what a view's seat was told of the exchange (see View.__getattr__)."""
    key, tail = pending
    entries, given_back, forced, moves = _TOLD_BY[id(key)].get()
    d["given_back"] = given_back
    d["forced_moves"] = forced
    d["_moves"] = moves
    if tail is not None:  # a view of the auction or the exchange: its history too
        d["history"] = entries + tail if tail else entries
    # every field is in place before the pending data goes (see _fill_play)
    d.pop(_TOLD, None)
