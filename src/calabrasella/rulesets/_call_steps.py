"""The call and the give-back: the declarer asks for a card, and returns one to the seat that gave."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import attrs

from .. import _bits
from ..actions import (
    CALLS,
    GIVE_BACKS,
    Action,
    Call,
    GiveBack,
)
from ..cards import DECK, CardSet, _cardset
from ..errors import IllegalActionError
from ..phases import Phase
from ..places import EVERYONE
from ._step_tools import (
    _bool,
    _own_rule,
)
from .protocol import Step, Work, card_actions, wrong_kind

if TYPE_CHECKING:
    from .base import Terms


def _callable(work: Work) -> int:
    """The cards the declarer may call now: the ruleset's, less those he holds.

    Asked of the ruleset each time (no cache keyed by the hand: on new deals
    keeping the answers cost more than asking again).
    """
    hand = work.hands[work.declarer]
    return work.rules.callable_cards(_cardset(hand), work.contract).mask & ~hand & _bits.FULL


@attrs.frozen
class CallStep(Step):
    """The declarer calls one card from :meth:`Ruleset.callable_cards`.

    An adversary holding it hands it to the declarer; a card in the stock
    stays there. Skipped when nothing can be called.
    """

    phase: ClassVar[Phase] = Phase.CALLING

    def summary(self, terms: Terms) -> str:
        """"single player calls a card"."""
        return f"{terms.declarer} calls a card"

    def start(self, work: Work) -> bool:
        """Ask the declarer, unless nothing can be called."""
        return bool(_callable(work)) and work.ask(work.declarer, Phase.CALLING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """One ``Call`` per callable card."""
        return card_actions(CALLS, _callable(work))

    def apply(self, work: Work, action: Action) -> bool:
        """The called card's holder hands it over (none if it is in the stock)."""
        if type(action) is not Call:
            raise wrong_kind(work, action, "call a card")
        card = action.card.index
        declarer = work.declarer
        if work.hands[declarer] >> card & 1:
            raise IllegalActionError(action, f"seat {declarer} holds {DECK[card]} already")
        allowed = _callable(work)
        if not allowed >> card & 1:
            raise IllegalActionError(
                action, f"{work.rules.name} lets seat {declarer} call only {CardSet(allowed)}"
            )
        self._call(work, card, action)
        return True

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """A random call, on masks (see :meth:`Step.rollout`)."""
        if not _own_rule(self, CallStep):
            return None
        allowed = _callable(work)
        if not allowed:
            return None
        card = _bits.nth(allowed, below(allowed.bit_count()))
        self._call(work, card, CALLS[card])
        return True

    @staticmethod
    def _call(work: Work, card: int, action: Action) -> None:
        """The called ``card``'s holder hands it over; the call is recorded."""
        bit = 1 << card
        declarer = work.declarer
        work.entries.append((declarer, action))
        for seat, hand in enumerate(work.hands):
            if hand & bit:
                work._move(bit, seat, declarer, EVERYONE, "handed over the called card", seat, False)
                break


@attrs.frozen
class GiveBackStep(Step):
    """The declarer gives one card (not the called one) to the seat that gave.

    Skipped when nobody gave. Seen by all when ``face_up``, else only by the two
    (the others are told "gave a card back face down").
    """

    phase: ClassVar[Phase] = Phase.GIVING_BACK

    face_up: bool = attrs.field(default=False, validator=_bool)

    def summary(self, terms: Terms) -> str:
        """"a card given back face down" (or face up)."""
        return f"a card given back face {'up' if self.face_up else 'down'}"

    def start(self, work: Work) -> bool:
        """Ask the declarer, if a seat gave him the called card."""
        return work.giver >= 0 and work.ask(work.declarer, Phase.GIVING_BACK)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """One ``GiveBack`` per card in the declarer's hand but the called one."""
        return card_actions(GIVE_BACKS, self._givable(work))

    @staticmethod
    def _givable(work: Work) -> int:
        called = work.called
        return work.hands[work.declarer] & ~(1 << called if called >= 0 else 0)

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes to the giver."""
        if type(action) is not GiveBack:
            raise wrong_kind(work, action, "give a card back")
        card = action.card.index
        declarer = work.declarer
        if not work.hands[declarer] >> card & 1:
            raise IllegalActionError(action, f"seat {declarer} does not hold {DECK[card]}")
        if card == work.called:
            raise IllegalActionError(action, "the called card may not be given back")
        self._give(work, card, action)
        return True

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """A random give-back, on masks (see :meth:`Step.rollout`)."""
        if not _own_rule(self, GiveBackStep):
            return None
        cards = self._givable(work)
        if not cards:
            return None
        card = _bits.nth(cards, below(cards.bit_count()))
        self._give(work, card, GIVE_BACKS[card])
        return True

    def _give(self, work: Work, card: int, action: Action) -> None:
        """``card`` goes from the declarer to the giver; the give-back is recorded."""
        declarer, giver = work.declarer, work.giver
        seen = EVERYONE if self.face_up else 1 << declarer | 1 << giver
        work.entries.append((declarer, action))
        work._move(1 << card, declarer, giver, seen, "gave a card back face down", declarer, False)

