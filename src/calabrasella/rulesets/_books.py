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

    def step(self, cards: int, src: int, dst: int, seen: int) -> bool:
        """Count the next move if no action is needed to tell what it adds (a card laid
        aside or taken back, the stock shown, a card taken from the stock in sight of
        another seat); return whether it was counted."""
        known = cards if cards > 0 else 0
        if src == dst:
            if src == _STOCK and seen == EVERYONE:
                self.exposed |= known
        elif src < _STOCK:
            if dst < _STOCK:
                return False  # (a call's, a give-back's or another pass: the action says)
            if _LAID <= dst < _TRICK:
                self.laid[dst - _LAID] |= known
                self.laid_all |= known
        elif src < _TRICK:
            if src > _STOCK:
                self.laid[src - _LAID] &= ~known
                self.laid_all &= ~known
            if dst < _STOCK:
                if src == _STOCK and not seen & ~(1 << dst):
                    return False  # (seen by its seat alone: taken, or drawn, the action says)
                self.taken[dst] |= known
        self.counted += 1
        return True

    def add(self, moves: Iterable[MoveRecord], action_of: Callable[[MoveRecord], object]) -> None:
        """Count ``moves``, the next ones after those counted (see :func:`books` for what
        each kind of move adds)."""
        step = self.step
        for record in moves:
            cards, src, dst, seen = record[3], record[4], record[5], record[6]
            if step(cards, src, dst, seen):
                continue
            known = cards if cards > 0 else 0
            cls = action_of(record).__class__
            if src == _STOCK:  # a card from the stock that only its seat saw
                self.taken[dst] |= known
                if cls is Draw:
                    self.drawn[dst] |= known
            elif cls is Call:  # from a hand to a hand
                self.giver = src
                self.called = cards
            elif cls is GiveBack and not self.gave_back:  # (the first: a later one is not it)
                self.gave_back = cards
            self.counted += 1

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
