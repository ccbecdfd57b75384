"""What an exchange's moves add up to: the called card's giver, the card given back, the
stock shown to all, each seat's discards, taken and drawn cards.

Worked out from the moves (:func:`books`), never kept beside them: a
:class:`~calabrasella.rulesets.steps.Work` counts the moves as its steps make
them (a :class:`_Tally`), and hands its tally on to the next action's work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from ..actions import Call, Draw, GiveBack
from ..places import _LAID, _STOCK, _TRICK, EVERYONE, MoveRecord

__all__ = ["Books", "books", "called_card"]

_new = object.__new__


class Books(NamedTuple):
    """What an exchange's moves add up to: worked out from them (:func:`books`), never kept.

    Card fields are masks; per-seat fields have one entry per seat. In a view
    (its moves redacted) they hold what its seat saw.

    Attributes:
        giver: The seat that handed over the called card (-1 for none).
        gave_back: The card given back to the giver, as a mask (0 for none;
            in a view that did not see it, minus the number of cards).
        exposed: The stock cards turned face up for every seat.
        laid: The cards each seat has laid aside face down now (its discards).
        taken: The cards each seat got from the stock (taken or drawn).
        drawn: The cards each seat drew unseen (a chance outcome).
    """

    giver: int
    gave_back: int
    exposed: int
    laid: tuple[int, ...]
    taken: tuple[int, ...]
    drawn: tuple[int, ...]


class _Tally:
    """What moves add up to, one move at a time (:func:`books` folds them; a
    :class:`Work` keeps one up to date as its steps move cards)."""

    __slots__ = (
        "called", "counted", "drawn", "exposed", "gave_back", "giver", "laid", "laid_all", "taken",
    )  # fmt: skip

    def __init__(self, players: int) -> None:
        self.giver = -1
        self.called = self.gave_back = self.exposed = self.laid_all = self.counted = 0
        self.laid = [0] * players
        self.taken = [0] * players
        self.drawn = [0] * players

    def add(self, moves: Iterable[MoveRecord], action_of: Callable[[MoveRecord], object]) -> None:
        """Count ``moves``, the next ones after those counted (see :func:`books` for what
        each kind of move adds)."""
        laid, taken = self.laid, self.taken
        exposed, laid_all, counted = self.exposed, self.laid_all, self.counted
        for record in moves:
            counted += 1
            cards, src, dst = record[3], record[4], record[5]
            known = cards if cards > 0 else 0
            if src == dst:
                if src == _STOCK and record[6] == EVERYONE:
                    exposed |= known
            elif src < _STOCK:
                if dst < _STOCK:
                    cls = action_of(record).__class__
                    if cls is Call:
                        self.giver = src
                        self.called = cards
                    elif cls is GiveBack and not self.gave_back:  # (the first: a later one is not it)
                        self.gave_back = cards
                elif _LAID <= dst < _TRICK:
                    laid[dst - _LAID] |= known
                    laid_all |= known
            elif src < _TRICK:
                if src > _STOCK:
                    laid[src - _LAID] &= ~known
                    laid_all &= ~known
                if dst < _STOCK:
                    taken[dst] |= known
                    # (a draw is seen by its seat alone: what all saw was taken)
                    seen_alone = not record[6] & ~(1 << dst)
                    if src == _STOCK and seen_alone and action_of(record).__class__ is Draw:
                        self.drawn[dst] |= known
        self.exposed, self.laid_all, self.counted = exposed, laid_all, counted

    def copy(self) -> _Tally:
        """Return a copy to count on from."""
        new = _new(_Tally)
        new.giver, new.called, new.gave_back = self.giver, self.called, self.gave_back
        new.exposed, new.laid_all, new.counted = self.exposed, self.laid_all, self.counted
        new.laid, new.taken, new.drawn = self.laid[:], self.taken[:], self.drawn[:]
        return new

    def books(self) -> Books:
        return Books(
            self.giver, self.gave_back, self.exposed, tuple(self.laid), tuple(self.taken),
            tuple(self.drawn),
        )  # fmt: skip


def books(
    moves: tuple[MoveRecord, ...],
    action_of: Callable[[MoveRecord], object],
    players: int,
) -> Books:
    """Add up an exchange's moves (``action_of`` names the action that made a move).

    A move from a hand to a hand made by a :class:`~calabrasella.Call` hands
    over the called card, one made by a :class:`~calabrasella.GiveBack`
    gives a card back; a move from the stock (or a laid-aside place) to a
    hand is taken, and drawn unseen when a :class:`~calabrasella.Draw` made
    it; the stock turned face up to every seat is exposed; a seat's
    laid-aside place holds its discards.
    """
    tally = _Tally(players)
    tally.add(moves, action_of)
    return tally.books()


def called_card(history: Iterable[tuple[int, object]]) -> int:
    """Return the card a :class:`~calabrasella.Call` in ``history`` called (-1 for none)."""
    card = -1
    for _, action in history:
        if action.__class__ is Call:
            card = action.card.index
    return card
