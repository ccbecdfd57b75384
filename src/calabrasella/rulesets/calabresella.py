"""Calabresella, or Terziglio (see the rules page of the docs)."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import attrs

from ..actions import Contract, Modifier
from ..cards import CardSet
from ..errors import RulesetError
from ..scoring import Bonus, Result, Tally, plural, result_of
from .base import Calls, Ruleset, Terms, choice, flag
from .cavendish import threes_then_twos
from .steps import (
    CallStep,
    DiscardStep,
    DrawStep,
    ExposeStep,
    GiveBackStep,
    RaiseStep,
    Role,
    Step,
    TakeStep,
)

__all__ = ["CALABRESELLA", "STAKES", "Calabresella"]

#: The stake of each contract, and of solissimo raised.
STAKES: dict[Contract | Modifier, int] = {
    Contract.CHIAMO: 1,
    Contract.SOLO: 2,
    Contract.SOLISSIMO: 4,
    Modifier.DIVIDETE: 8,
    Modifier.SCEGLIETE: 16,
}
_BIDS = (Contract.CHIAMO, Contract.SOLO, Contract.SOLISSIMO)


# The plans, built once (steps are frozen values): chiamo's by whether the card
# given back is face up, solo's by whether the monte is exposed.
_CHIAMO_PLANS: dict[bool, tuple[Step, ...]] = {
    face_up: (
        CallStep(),
        ExposeStep(),
        TakeStep(Role.DECLARER, "all"),
        GiveBackStep(face_up=face_up),
        DiscardStep(Role.DECLARER, 4, 4),
    )
    for face_up in (False, True)
}
_SOLO_PLANS: dict[bool, tuple[Step, ...]] = {
    exposed: (
        *((ExposeStep(),) if exposed else ()),
        TakeStep(Role.DECLARER, "all"),
        DiscardStep(Role.DECLARER, 4, 4),
    )
    for exposed in (False, True)
}
_SOLISSIMO_PLAN: tuple[Step, ...] = (RaiseStep((Modifier.DIVIDETE, Modifier.SCEGLIETE)),)
_DIVIDETE_PLAN: tuple[Step, ...] = (
    DrawStep(Role.FIRST, 2),
    DrawStep(Role.SECOND, 2),
    DiscardStep(Role.FIRST, 2, 2),
    DiscardStep(Role.SECOND, 2, 2),
)
_SCEGLIETE_PLAN: tuple[Step, ...] = (
    ExposeStep(),
    TakeStep(Role.FIRST, "any"),
    TakeStep(Role.SECOND, "all"),  # every card left, taken for him
    DiscardStep(Role.FIRST, as_taken=True),
    DiscardStep(Role.SECOND, as_taken=True),
)

#: The values of the option ``stramazzo``, the default first.
STRAMAZZO_READINGS = ("under_a_point", "no_card_points", "no_points")


def _stramazzo_below(value: object) -> str:
    """Map the deprecated ``stramazzo_below`` to ``stramazzo``: 3 is ``"under_a_point"``;
    1 is refused (it was no source's reading)."""
    if value == 3 and type(value) is int:
        return "under_a_point"
    if value == 1 and type(value) is int:
        raise RulesetError(
            "stramazzo_below=1 is gone: it counted only the card units in the losing side's "
            "tricks, never the monte, which is no source's reading; CatsAtCards 2015's "
            "stramazzo='no_card_points' also counts the monte for the winner of the last trick, "
            "and Rules page 2024's stramazzo='no_points' counts his whole score"
        )
    raise RulesetError(
        f"stramazzo_below={value!r}: the option is now stramazzo, one of "
        f"{', '.join(map(repr, STRAMAZZO_READINGS))}"
    )


@attrs.frozen(kw_only=True)
class Calabresella(Ruleset):
    """Calabresella (Terziglio): chiamo, solo, solissimo; preset :data:`CALABRESELLA`.

    Attributes:
        auction: ``"single_round"`` (default, CatsAtCards 2015 and
            Calabresella (3p)): each seat speaks once, each bid higher than
            the last; ``"until_two_pass"`` (Rules page 2024): bidding goes
            round, a passed seat is out, it ends when two have passed.
            Either way a solissimo ends it at once.
        callable: ``"any_unheld"`` (default, Calabresella (3p) and Rules page
            2024): chiamo calls any card not held; ``"threes_then_twos"``
            (CatsAtCards 2015, as in Cavendish): a 3, or a 2 holding all 3s.
        give_back: ``"face_up"`` (default, Calabresella (3p)) or ``"face_down"``
            (CatsAtCards 2015): how the card returned to the seat that gave the
            called card travels.
        solo_monte_exposed: Whether solo turns the monte face up before
            taking it (default ``True``, CatsAtCards 2015, Calabresella (3p)
            and Rules page 2024; ``False`` is the library's own option, from
            no source).
        first_lead: ``"declarer"`` (default, Calabresella (3p)) or
            ``"eldest_except_solissimo"`` (CatsAtCards 2015 and Rules page
            2024, and Calabresella (3p)'s variation).
        stramazzo: When the losing side, having won at least one trick,
            falls to stramazzo (x3): ``"under_a_point"`` (default,
            Calabresella (3p)): its tricks hold fewer than 3 card units, the
            last-trick bonus and the monte not counted; ``"no_card_points"``
            (CatsAtCards 2015): it captured no card unit at all, the monte
            counting for the winner of the last trick; ``"no_points"`` (Rules
            page 2024): its whole score, last trick and monte included, is
            under one point (3 units).
            The old keyword ``stramazzo_below`` is deprecated: ``3`` still
            means ``"under_a_point"`` (with a ``DeprecationWarning``); ``1``
            is refused, as it matches no source.
        follow_suit: Whether a seat must follow suit when it can (default
            ``True``, CatsAtCards 2015 and Calabresella (3p)); ``False`` is
            Rules page 2024's "players are not required to follow suit": any
            card held may be played, and the trick still goes to the highest
            card of the suit led.
        players: 3, or 4 with the dealer sitting out (CatsAtCards 2015's
            rotation).
        packet: Cards per packet in the deal (4: Calabresella (3p) and Rules
            page 2024; 2: CatsAtCards 2015).
        dealer_shares: With four at the table, whether the sitting-out dealer
            shares the adversaries' fortunes (default ``False``: CatsAtCards 2015's
            dealer "takes no other active part").

    The option ``callable`` keeps its name although it is also a builtin's:
    option names are written in game records and in the test vectors
    (``options``), so a rename would change records for no gain in play. It
    shadows nothing a method sees (a class attribute is not in a method's
    scope); read it as ``rules.callable`` or ``rules.options()["callable"]``.

    Example:
        >>> Calabresella(auction="until_two_pass", stramazzo="no_points").stramazzo
        'no_points'
        >>> Calabresella(stramazzo="none")
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetError: stramazzo='none': expected one of 'under_a_point', 'no_card_points', 'no_points'
    """

    name: ClassVar[str] = "calabresella"
    #: 2: scegliete shares the whole monte (the second adversary is given the rest).
    version: ClassVar[int] = 2
    contracts: ClassVar[tuple[Contract, ...]] = _BIDS
    terms: ClassVar[Terms] = Terms(
        title="Calabresella (Terziglio)", declarer="declarer", stock="monte", base="stake", points=True
    )

    auction: Literal["single_round", "until_two_pass"] = attrs.field(
        default="single_round", validator=choice("single_round", "until_two_pass")
    )
    callable: Literal["any_unheld", "threes_then_twos"] = attrs.field(
        default="any_unheld", validator=choice("any_unheld", "threes_then_twos")
    )
    give_back: Literal["face_up", "face_down"] = attrs.field(
        default="face_up", validator=choice("face_up", "face_down")
    )
    solo_monte_exposed: bool = attrs.field(default=True, validator=flag)
    first_lead: Literal["declarer", "eldest_except_solissimo"] = attrs.field(
        default="declarer", validator=choice("declarer", "eldest_except_solissimo")
    )
    stramazzo: Literal["under_a_point", "no_card_points", "no_points"] = attrs.field(
        default="under_a_point", validator=choice(*STRAMAZZO_READINGS)
    )

    follow_suit: bool = attrs.field(default=True, validator=flag)

    @classmethod
    def _legacy_options(cls, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """Accept ``stramazzo_below=3`` for one release, as ``stramazzo="under_a_point"``."""
        if "stramazzo_below" not in options:
            return options
        new = dict(options)
        # it wins over ``stramazzo``, which attrs.evolve passes along with the change
        new["stramazzo"] = _stramazzo_below(new.pop("stramazzo_below"))
        warnings.warn(
            "Calabresella(stramazzo_below=3) is deprecated: write stramazzo='under_a_point'",
            DeprecationWarning,
            stacklevel=3,
        )
        return new

    @property
    def stramazzo_below(self) -> int:
        """Deprecated: 3 when :attr:`stramazzo` is ``"under_a_point"`` (read :attr:`stramazzo`)."""
        warnings.warn(
            "Calabresella.stramazzo_below is deprecated: read stramazzo", DeprecationWarning, 2
        )
        if self.stramazzo != "under_a_point":
            raise AttributeError(f"stramazzo={self.stramazzo!r} has no stramazzo_below")
        return 3

    def bidding_turn(
        self, order: tuple[int, ...], calls: Calls
    ) -> tuple[int, tuple[Contract, ...]] | None:
        """Whoever speaks next must bid higher than every earlier bid, or pass."""
        high = max((_BIDS.index(bid) + 1 for _, bid in calls if bid is not None), default=0)
        if high == len(_BIDS):  # solissimo: nobody can bid higher
            return None
        allowed = _BIDS[high:]
        if self.auction == "single_round":
            return None if len(calls) == 3 else (order[len(calls)], allowed)
        passed = {seat for seat, bid in calls if bid is None}
        if len(passed) == 3 or (len(passed) == 2 and high):
            return None
        k = 0 if not calls else order.index(calls[-1][0]) + 1
        while order[k % 3] in passed:
            k += 1
        return order[k % 3], allowed

    def exchange_plan(self, contract: Contract) -> tuple[Step, ...]:
        """Chiamo: call, expose, take, give back, discard four; solo: expose, take,
        discard four; solissimo: only the chance to raise."""
        if contract is Contract.CHIAMO:
            return _CHIAMO_PLANS[self.give_back == "face_up"]
        if contract is Contract.SOLO:
            return _SOLO_PLANS[self.solo_monte_exposed]
        if contract is Contract.SOLISSIMO:
            return _SOLISSIMO_PLAN
        raise RulesetError(f"calabresella has no contract {contract.value!r}")

    def raise_plan(self, modifier: Modifier) -> tuple[Step, ...]:
        """Dividete: each adversary draws two unseen, then each discards two.

        Scegliete: the monte face up; the first adversary takes any of it (0 to
        4, ``Done`` to stop), the second is given the rest (a forced move),
        and each discards as many as he took: the whole monte is shared and
        the four discards are the new monte (CatsAtCards 2015, Calabresella (3p),
        Rules page 2024).
        """
        return _DIVIDETE_PLAN if modifier is Modifier.DIVIDETE else _SCEGLIETE_PLAN

    def callable_cards(self, hand: CardSet, contract: Contract) -> CardSet:
        """Any card not held, or (option) a 3, else a 2."""
        if self.callable == "threes_then_twos":
            return threes_then_twos(hand)
        return CardSet.all() - hand

    def first_leader(
        self,
        *,
        order: tuple[int, ...],
        declarer: int,
        contract: Contract,
        modifier: Modifier | None,
    ) -> int:
        """The declarer; or the eldest hand except after a solissimo (option ``first_lead``)."""
        if self.first_lead == "declarer" or contract is Contract.SOLISSIMO:
            return declarer
        return order[0]

    def stake(self, contract: Contract, modifier: Modifier | None) -> int:
        """Return the stake of a contract: chiamo 1, solo 2, solissimo 4, dividete 8, scegliete 16.

        Override it in a subclass for another stake table.

        Example:
            >>> CALABRESELLA.stake(Contract.SOLISSIMO, Modifier.SCEGLIETE)
            16
        """
        return STAKES[modifier or contract]

    def stramazzo_reason(self, tally: Tally) -> str | None:
        """Say why the losing side falls to stramazzo (option ``stramazzo``), or ``None``.

        Call it only when each side took a trick (otherwise it is cappotto).

        Example:
            >>> t = Tally(players=3, dealer=0, declarer=1, contract=Contract.SOLISSIMO,
            ...           modifier=None, declarer_card_units=0, adversary_card_units=29,
            ...           stock_units=3, declarer_last=False, declarer_tricks=2,
            ...           adversary_tricks=10)
            >>> CALABRESELLA.stramazzo_reason(t)
            'only 0 card units in its tricks, under a point'
        """
        won = tally.declarer_units >= self.winning_units
        if won:
            cards, total, last = tally.adversary_card_units, tally.adversary_units, not tally.declarer_last
        else:
            cards, total, last = tally.declarer_card_units, tally.declarer_units, tally.declarer_last
        reading = self.stramazzo
        if reading == "under_a_point":  # Calabresella (3p): the tricks' card units only
            if cards < 3:
                return f"only {plural(cards, 'card unit')} in its tricks, under a point"
        elif reading == "no_card_points":  # CatsAtCards 2015: the monte is captured with the last trick
            captured = cards + (tally.stock_units if last else 0)
            if captured == 0:
                return "no card units at all"
        elif total < 3:  # Rules page 2024: the whole score
            return f"only {plural(total, 'unit')} in all, under a point"
        return None

    def score(self, tally: Tally) -> Result:
        """The stake, x2 for cappotto, x3 for stramazzo, from or to each adversary."""
        du, au = tally.declarer_units, tally.adversary_units
        won = du >= self.winning_units
        base = self.stake(tally.contract, tally.modifier)
        multiplier, bonus = 1, None
        notes = [
            f"declarer {plural(du, 'unit')} ({plural(du // 3, 'point')}), "
            f"adversaries {plural(au, 'unit')} ({plural(au // 3, 'point')})"
        ]
        if tally.declarer_tricks == 0 or tally.adversary_tricks == 0:
            multiplier, bonus = 2, Bonus.CAPPOTTO
            who = "the declarer" if tally.adversary_tricks == 0 else "the adversaries"
            notes.append(f"cappotto: {who} took every trick (x2)")
        else:
            why = self.stramazzo_reason(tally)
            if why is not None:
                multiplier, bonus = 3, Bonus.STRAMAZZO
                who = "the adversaries" if won else "the declarer"
                notes.append(f"stramazzo: {who} took a trick but {why} (x3)")
        return result_of(
            tally,
            declarer_won=won,
            base=base,
            multiplier=multiplier,
            bonus=bonus,
            notes=tuple(notes),
            dealer_shares=self.dealer_shares,
            who="the declarer",
        )


#: Calabresella with its defaults.
CALABRESELLA = Calabresella()
