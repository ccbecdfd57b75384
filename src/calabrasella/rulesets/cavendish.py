"""Calabrasella as Cavendish wrote it down (see the rules page of the docs)."""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from .._bits import FULL
from ..actions import Contract
from ..cards import CardSet, _cardset
from ..scoring import Bonus, Result, Tally, result_of
from .base import Calls, Ruleset, Terms, choice, flag
from .steps import CallStep, DiscardStep, ExposeStep, GiveBackStep, Role, Step, TakeStep

__all__ = ["CAVENDISH", "Cavendish", "threes_then_twos"]

_THREES = sum(1 << (10 * s) for s in range(4))
_TWOS = _THREES << 1
_STAND = (Contract.STAND,)
_PLAN: tuple[Step, ...] = (
    CallStep(),
    GiveBackStep(face_up=False),
    DiscardStep(Role.DECLARER, 1, 4),
    ExposeStep(),
    TakeStep(Role.DECLARER, "as_discarded"),
)


def threes_then_twos(hand: CardSet) -> CardSet:
    """Return the 3s not in ``hand``; if it holds all four, the 2s not in it.

    Example:
        >>> threes_then_twos(CardSet.parse("3d 3h 3s 3c 2d"))
        CardSet.parse('2h 2s 2c')
    """
    missing = _THREES & ~hand.mask
    return _cardset(missing or _TWOS & ~hand.mask & FULL)


@attrs.frozen(kw_only=True)
class Cavendish(Ruleset):
    """Calabrasella as Cavendish wrote it down; preset :data:`CAVENDISH`.

    The first to stand plays alone; he asks for a 3 (or a 2), gives a card
    back to its holder unseen by the other adversary, discards 1 to 4 and
    takes as many from the exposed stock. The value is the difference of the
    sides' units, 70 when one side has all 35, from or to each adversary.

    Attributes:
        first_lead: ``"eldest"`` (default, Foster 1897): the eldest
            hand leads to the first trick; ``"after_declarer"`` (Denexa Games
            and CatsAtCards 2015): the seat after the single player.
        players: 3, or 4 with the dealer sitting out (Foster 1897 and
            CatsAtCards 2015).
        packet: Cards per packet in the deal (4: Foster 1897; 2: CatsAtCards 2015).
        dealer_shares: With four at the table, the sitting-out dealer shares
            the adversaries' fortunes (default ``True``, Foster 1897).
        irregularities: ``"forbid"`` (default): an irregular play is an
            illegal action; ``"record"`` (table mode, Foster 1897's penalties):
            revokes, a card out of turn, abandoning the hand and turning the
            stock early are actions that the engine records and settles.

    Example:
        >>> Cavendish(first_lead="after_declarer").first_lead
        'after_declarer'
        >>> Cavendish(first_lead="left")
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetError: first_lead='left': expected one of 'eldest', 'after_declarer'
    """

    name: ClassVar[str] = "cavendish"
    version: ClassVar[int] = 2
    contracts: ClassVar[tuple[Contract, ...]] = _STAND
    terms: ClassVar[Terms] = Terms(
        title="Calabrasella (Cavendish)", declarer="single player", stock="stock", base="difference"
    )

    first_lead: Literal["eldest", "after_declarer"] = attrs.field(
        default="eldest", validator=choice("eldest", "after_declarer")
    )
    dealer_shares: bool = attrs.field(default=True, validator=flag)
    irregularities: Literal["forbid", "record"] = attrs.field(
        default="forbid", validator=choice("forbid", "record")
    )

    def bidding_turn(
        self, order: tuple[int, ...], calls: Calls
    ) -> tuple[int, tuple[Contract, ...]] | None:
        """The eldest, the next, then the dealer say stand or pass; the first to stand plays."""
        for _, bid in calls:
            if bid is not None:
                return None
        if len(calls) == 3:
            return None
        return order[len(calls)], _STAND

    def exchange_plan(self, contract: Contract) -> tuple[Step, ...]:
        """Ask, give back unseen, discard 1 to 4, expose the stock, take as many."""
        return _PLAN

    def callable_cards(self, hand: CardSet, contract: Contract) -> CardSet:
        """A 3 he does not hold; holding all four, a 2 he does not hold."""
        return threes_then_twos(hand)

    def first_leader(
        self, *, order: tuple[int, ...], declarer: int, contract: Contract, modifier: object
    ) -> int:
        """The eldest hand, or the seat after the single player (option ``first_lead``)."""
        if self.first_lead == "eldest":
            return order[0]
        return order[(order.index(declarer) + 1) % 3]

    def units_payment(self, units: int) -> int:
        """What each adversary pays the single player when he ends with ``units``: the
        difference of the sides' units, doubled when one side has them all.

        Example:
            >>> CAVENDISH.units_payment(23), CAVENDISH.units_payment(16), CAVENDISH.units_payment(35)
            (11, -3, 70)
        """
        return _payment(units, self.deal_units, self.winning_units)

    def score(self, tally: Tally) -> Result:
        """The difference of the sides' units, 70 if one side has all 35 (:meth:`units_payment`)."""
        du, au = tally.declarer_units, tally.adversary_units
        whole, winning = self.deal_units, self.winning_units
        won = du >= winning
        paid = _payment(du, whole, winning)  # (units_payment's rule, the numbers asked once)
        bonus = None
        multiplier = 1
        notes = [f"single player {du}, adversaries {au}"]
        if tally.abandoned:
            notes.append(
                "an adversary played out of turn and the single player abandoned the hand: "
                "he claims the stock, the last trick and all the adversaries had not won before"
            )
        if tally.declarer_revokes or tally.adversary_revokes:
            notes.append(
                f"revokes: single player {tally.declarer_revokes}, adversaries "
                f"{tally.adversary_revokes}; {tally.revoke_units} units each move to the other side "
                f"(net {tally.penalty_units:+d} to the single player, no side below 0)"
            )
        if du == whole or au == whole:
            bonus, multiplier = Bonus.ALL_POINTS, 2
            notes.append(f"one side took all {whole}: the value is doubled")
        return result_of(
            tally,
            declarer_won=won,
            base=abs(paid) // multiplier,
            multiplier=multiplier,
            bonus=bonus,
            notes=tuple(notes),
            dealer_shares=self.dealer_shares,
            who="he",
        )


#: Cavendish's Calabrasella with its defaults.
CAVENDISH = Cavendish()


def _payment(units: int, whole: int, winning: int) -> int:
    """:meth:`Cavendish.units_payment` for a deal of ``whole`` units won with ``winning``."""
    difference = abs(2 * units - whole)  # his units less the adversaries'
    if units < winning:
        difference = -difference
    return 2 * difference if units in (0, whole) else difference
