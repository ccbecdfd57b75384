"""Scoring: what a finished deal's play adds up to, and what each seat pays.

The engine sums the play into a :class:`Tally` (plain numbers) and hands it
to the ruleset's ``score`` hook, which returns a :class:`Result`. Units are
thirds of a Calabresella point: ace 3; 3, 2, K, Q, J 1; the last trick 3.
Every deal distributes exactly 35. A ruleset may count otherwise (its
``card_units``, ``last_trick_units`` and ``revoke_units``): the engine puts its
numbers in the :class:`Tally`, and every deal then distributes its
``deal_units``.
"""

from __future__ import annotations

import enum
from typing import Any

import attrs

from . import _bits, _pictures
from .actions import Contract, Modifier

__all__ = ["TOTAL_UNITS", "Bonus", "Result", "Side", "Tally", "result_of", "settle"]

#: Units for winning the last trick in the standard game (the default of
#: :attr:`Ruleset.last_trick_units <calabrasella.Ruleset.last_trick_units>`).
LAST_TRICK_UNITS = 3
#: Units a revoke moves from the offending side to the other in the standard game
#: (table mode; the default of :attr:`Ruleset.revoke_units <calabrasella.Ruleset.revoke_units>`).
REVOKE_UNITS = 9
#: Units distributed in every deal of the standard game: the cards' 32 and the last
#: trick's 3. A ruleset's own is its :attr:`~calabrasella.Ruleset.deal_units`.
TOTAL_UNITS = _bits.units(_bits.FULL) + LAST_TRICK_UNITS


class Side(enum.Enum):
    """One of the two sides of a deal."""

    DECLARER = "declarer"
    ADVERSARIES = "adversaries"


class Bonus(enum.Enum):
    """Why a deal's value was multiplied.

    ``ALL_POINTS``: Cavendish, one side took all 35 units (value 70).
    ``CAPPOTTO``: Calabresella, one side took every trick (x2).
    ``STRAMAZZO``: Calabresella, the losing side took a trick but (almost) no
    points, as the ruleset's option ``stramazzo`` reads it (x3).
    """

    ALL_POINTS = "all_points"
    CAPPOTTO = "cappotto"
    STRAMAZZO = "stramazzo"


@attrs.frozen(kw_only=True)
class Tally:
    """The plain numbers of a finished play, as the ruleset's ``score`` hook sees them.

    Attributes:
        players: Seats at the table (3, or 4 with the dealer sitting out).
        dealer: The dealer's seat.
        declarer: The declarer's seat.
        contract: The winning bid.
        modifier: Solissimo's raise, if any.
        declarer_card_units: Card units in the declarer's tricks (no stock, no bonus).
        adversary_card_units: Card units in the adversaries' tricks.
        stock_units: Card units in the final stock (monte).
        declarer_last: Whether the declarer won the last trick.
        declarer_tricks: Tricks the declarer won.
        adversary_tricks: Tricks the adversaries won.
        declarer_revokes: Revokes by the declarer (table mode).
        adversary_revokes: Revokes by the adversaries (table mode).
        abandoned: Whether the declarer abandoned the hand after an
            adversary's card out of turn (table mode): the engine has then
            given him the stock, the last trick and every unit the
            adversaries had not won before the error.
        last_trick_units: The units the last trick brings besides the stock
            (the ruleset's :attr:`~calabrasella.Ruleset.last_trick_units`; 3 by default).
        revoke_units: The units each revoke moves to the other side (the
            ruleset's :attr:`~calabrasella.Ruleset.revoke_units`; 9 by default).
    """

    players: int
    dealer: int
    declarer: int
    contract: Contract
    modifier: Modifier | None
    declarer_card_units: int
    adversary_card_units: int
    stock_units: int
    declarer_last: bool
    declarer_tricks: int
    adversary_tricks: int
    declarer_revokes: int = 0
    adversary_revokes: int = 0
    abandoned: bool = False
    last_trick_units: int = LAST_TRICK_UNITS
    revoke_units: int = REVOKE_UNITS

    @property
    def penalty_units(self) -> int:
        """The units the revokes move to the declarer (negative: to the adversaries).

        :attr:`revoke_units` per revoke, from the offending side to the other; the two
        sides' revokes are set against each other, and a side never goes
        below 0 (the house reading on the docs' rules page, table mode).

        Example:
            >>> from calabrasella import Contract
            >>> t = Tally(players=3, dealer=0, declarer=1, contract=Contract.STAND,
            ...           modifier=None, declarer_card_units=21, adversary_card_units=7,
            ...           stock_units=4, declarer_last=False, declarer_tricks=7,
            ...           adversary_tricks=5, adversary_revokes=1)
            >>> t.declarer_units, t.adversary_units, t.penalty_units
            (30, 5, 9)
        """
        net = self.revoke_units * (self.adversary_revokes - self.declarer_revokes)
        if net > 0:
            return min(net, self._played_units(adversaries=True))
        return -min(-net, self._played_units(adversaries=False))

    def _played_units(self, *, adversaries: bool) -> int:
        last = self.stock_units + self.last_trick_units
        if adversaries:
            return self.adversary_card_units + (0 if self.declarer_last else last)
        return self.declarer_card_units + (last if self.declarer_last else 0)

    @property
    def declarer_units(self) -> int:
        """The declarer's units: his cards, plus stock and last trick if he won it,
        plus or minus the revoke penalties (:attr:`penalty_units`)."""
        extra = self.stock_units + self.last_trick_units if self.declarer_last else 0
        units = self.declarer_card_units + extra
        if self.declarer_revokes or self.adversary_revokes:
            units += self.penalty_units
        return units

    @property
    def adversary_units(self) -> int:
        """The adversaries' units: their cards, plus stock and last trick if they won it,
        minus or plus the revoke penalties (:attr:`penalty_units`)."""
        extra = 0 if self.declarer_last else self.stock_units + self.last_trick_units
        units = self.adversary_card_units + extra
        if self.declarer_revokes or self.adversary_revokes:
            units -= self.penalty_units
        return units


@attrs.frozen(kw_only=True)
class Result:
    """The outcome of a deal: units, winner, value and each seat's payment.

    Attributes:
        void: Whether the deal is void: everybody passed (nothing is
            scored), or, in table mode, the single player turned the stock
            before his discard (he pays 35 to each adversary).
        declarer: The declarer's seat (``None`` for a void deal).
        contract: The winning bid (``None`` for a void deal).
        modifier: Solissimo's raise, if any.
        declarer_units: The declarer's units (0 for a void deal).
        adversary_units: The adversaries' units; the two add up to the ruleset's
            :attr:`~calabrasella.Ruleset.deal_units` (35).
        declarer_tricks: Tricks the declarer won.
        adversary_tricks: Tricks the adversaries won.
        winner: The side that won (``None`` for a void deal).
        base: The value before any multiplier: Cavendish's difference of the
            sides' units, Calabresella's stake.
        multiplier: 1, or 2 / 3 when :attr:`bonus` applied.
        bonus: Why the value was multiplied, if it was.
        value: What each paying seat pays: ``base * multiplier``.
        payments: What each seat receives (+) or pays (-), seat 0 first;
            the payments add up to 0.
        notes: The reasons in words.
    """

    void: bool
    declarer: int | None
    contract: Contract | None
    modifier: Modifier | None = None
    declarer_units: int = 0
    adversary_units: int = 0
    declarer_tricks: int = 0
    adversary_tricks: int = 0
    winner: Side | None = None
    base: int = 0
    multiplier: int = 1
    bonus: Bonus | None = None
    value: int = 0
    payments: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def declarer_points(self) -> int:
        """The declarer's Calabresella points: ``declarer_units // 3``."""
        return self.declarer_units // 3

    @property
    def adversary_points(self) -> int:
        """The adversaries' points; the sides' points add up to 11 in a played deal."""
        return self.adversary_units // 3

    @property
    def declarer_won(self) -> bool:
        """Whether the declarer won (``False`` for a void deal)."""
        return self.winner is Side.DECLARER

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as plain values (the enums by their place)."""
        return (
            _result_from,
            (
                self.void,
                self.declarer,
                _CONTRACTS.index(self.contract) if self.contract is not None else -1,
                _MODIFIERS.index(self.modifier) if self.modifier is not None else -1,
                self.declarer_units,
                self.adversary_units,
                self.declarer_tricks,
                self.adversary_tricks,
                _SIDES.index(self.winner) if self.winner is not None else -1,
                self.base,
                self.multiplier,
                _BONUSES.index(self.bonus) if self.bonus is not None else -1,
                self.value,
                self.payments,
                self.notes,
            ),
        )

    @classmethod
    def void_deal(cls, players: int) -> Result:
        """Return the result of a deal that everybody passed."""
        return cls(
            void=True,
            declarer=None,
            contract=None,
            payments=(0,) * players,
            notes=("everybody passed: the deal is void",),
        )

    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty


def settle(
    tally: Tally, *, declarer_won: bool, value: int, dealer_shares: bool
) -> tuple[int, ...]:
    """Return each seat's payment when the declarer wins or loses ``value`` per payer.

    Each adversary pays ``value`` to the declarer, or receives it from him;
    with four at the table the sitting-out dealer does the same when
    ``dealer_shares`` is true, and is left out otherwise.

    Example:
        >>> from calabrasella import Contract
        >>> t = Tally(players=3, dealer=0, declarer=1, contract=Contract.STAND,
        ...           modifier=None, declarer_card_units=20, adversary_card_units=12,
        ...           stock_units=0, declarer_last=True, declarer_tricks=7,
        ...           adversary_tricks=5)
        >>> settle(t, declarer_won=True, value=11, dealer_shares=True)
        (-11, 22, -11)
    """
    sign = 1 if declarer_won else -1
    payments = [0] * tally.players
    sitting_out = tally.dealer if tally.players == 4 else -1
    for seat in range(tally.players):
        if seat == tally.declarer or (seat == sitting_out and not dealer_shares):
            continue
        payments[seat] = -sign * value
        payments[tally.declarer] += sign * value
    return tuple(payments)


def plural(n: int, noun: str) -> str:
    """Return ``n`` and ``noun``, with an ``s`` unless ``n`` is 1: ``"1 unit"``, ``"3 units"``.

    Example:
        >>> plural(1, "point"), plural(0, "point")
        ('1 point', '0 points')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def result_of(
    tally: Tally,
    *,
    declarer_won: bool,
    base: int,
    multiplier: int = 1,
    bonus: Bonus | None = None,
    notes: tuple[str, ...] = (),
    dealer_shares: bool,
    who: str | None = None,
) -> Result:
    """Return the :class:`Result` of a tally whose value per payer is ``base * multiplier``.

    The shared tail of every ruleset's ``score`` hook: it fills in the units,
    tricks, winner and each seat's payment (see :func:`settle`).

    Args:
        tally: The finished play.
        declarer_won: Whether the declarer won.
        base: The value before any multiplier.
        multiplier: 1, or what :attr:`Result.bonus` multiplies by.
        bonus: Why the value was multiplied, if it was.
        notes: The reasons in words.
        dealer_shares: With four at the table, whether the sitting-out
            dealer pays and receives like each adversary.
        who: If given, the notes end with what the declarer, so named,
            wins from each or loses to each: ``"he wins 22 from each"``.

    Example:
        >>> from calabrasella import Contract
        >>> t = Tally(players=3, dealer=0, declarer=1, contract=Contract.STAND,
        ...           modifier=None, declarer_card_units=20, adversary_card_units=12,
        ...           stock_units=0, declarer_last=True, declarer_tricks=7,
        ...           adversary_tricks=5)
        >>> r = result_of(t, declarer_won=True, base=11, multiplier=2, dealer_shares=True, who="he")
        >>> r.payments, r.notes
        ((-22, 44, -22), ('he wins 22 from each',))
    """
    value = base * multiplier
    if who is not None:
        verb, prep = ("wins", "from") if declarer_won else ("loses", "to")
        notes = (*notes, f"{who} {verb} {value} {prep} each")
    return make_result(
        False,
        tally.declarer,
        tally.contract,
        tally.modifier,
        tally.declarer_units,
        tally.adversary_units,
        tally.declarer_tricks,
        tally.adversary_tricks,
        Side.DECLARER if declarer_won else Side.ADVERSARIES,
        base,
        multiplier,
        bonus,
        value,
        settle(tally, declarer_won=declarer_won, value=value, dealer_shares=dealer_shares),
        notes,
    )


# The engine builds a Tally and a Result at the end of every deal: these build
# them field by field through the slots (an attrs frozen class's __init__ goes
# through object.__setattr__ for each field, about twice as dear). Nothing is
# checked: the classes have no validators or converters to skip.
_new = object.__new__
(
    _t_players, _t_dealer, _t_declarer, _t_contract, _t_modifier, _t_declarer_card_units,
    _t_adversary_card_units, _t_stock_units, _t_declarer_last, _t_declarer_tricks,
    _t_adversary_tricks, _t_declarer_revokes, _t_adversary_revokes, _t_abandoned,
    _t_last_trick_units, _t_revoke_units,
) = [Tally.__dict__[f.name].__set__ for f in attrs.fields(Tally)]  # fmt: skip
(
    _r_void, _r_declarer, _r_contract, _r_modifier, _r_declarer_units, _r_adversary_units,
    _r_declarer_tricks, _r_adversary_tricks, _r_winner, _r_base, _r_multiplier, _r_bonus,
    _r_value, _r_payments, _r_notes,
) = [Result.__dict__[f.name].__set__ for f in attrs.fields(Result)]  # fmt: skip


def make_tally(
    players: int,
    dealer: int,
    declarer: int,
    contract: Contract,
    modifier: Modifier | None,
    declarer_card_units: int,
    adversary_card_units: int,
    stock_units: int,
    declarer_last: bool,
    declarer_tricks: int,
    adversary_tricks: int,
    declarer_revokes: int = 0,
    adversary_revokes: int = 0,
    abandoned: bool = False,
    last_trick_units: int = LAST_TRICK_UNITS,
    revoke_units: int = REVOKE_UNITS,
) -> Tally:
    """Return ``Tally(...)`` of these fields, in field order (the engine's constructor)."""
    t = _new(Tally)
    _t_players(t, players)
    _t_dealer(t, dealer)
    _t_declarer(t, declarer)
    _t_contract(t, contract)
    _t_modifier(t, modifier)
    _t_declarer_card_units(t, declarer_card_units)
    _t_adversary_card_units(t, adversary_card_units)
    _t_stock_units(t, stock_units)
    _t_declarer_last(t, declarer_last)
    _t_declarer_tricks(t, declarer_tricks)
    _t_adversary_tricks(t, adversary_tricks)
    _t_declarer_revokes(t, declarer_revokes)
    _t_adversary_revokes(t, adversary_revokes)
    _t_abandoned(t, abandoned)
    _t_last_trick_units(t, last_trick_units)
    _t_revoke_units(t, revoke_units)
    return t


def make_result(
    void: bool,
    declarer: int | None,
    contract: Contract | None,
    modifier: Modifier | None,
    declarer_units: int,
    adversary_units: int,
    declarer_tricks: int,
    adversary_tricks: int,
    winner: Side | None,
    base: int,
    multiplier: int,
    bonus: Bonus | None,
    value: int,
    payments: tuple[int, ...],
    notes: tuple[str, ...],
) -> Result:
    """Return ``Result(...)`` of these fields, in field order (the engine's constructor)."""
    r = _new(Result)
    _r_void(r, void)
    _r_declarer(r, declarer)
    _r_contract(r, contract)
    _r_modifier(r, modifier)
    _r_declarer_units(r, declarer_units)
    _r_adversary_units(r, adversary_units)
    _r_declarer_tricks(r, declarer_tricks)
    _r_adversary_tricks(r, adversary_tricks)
    _r_winner(r, winner)
    _r_base(r, base)
    _r_multiplier(r, multiplier)
    _r_bonus(r, bonus)
    _r_value(r, value)
    _r_payments(r, payments)
    _r_notes(r, notes)
    return r


_CONTRACTS = tuple(Contract)
_MODIFIERS = tuple(Modifier)
_SIDES = tuple(Side)
_BONUSES = tuple(Bonus)


def _result_from(
    void: bool,
    declarer: int | None,
    contract: int,
    modifier: int,
    declarer_units: int,
    adversary_units: int,
    declarer_tricks: int,
    adversary_tricks: int,
    winner: int,
    base: int,
    multiplier: int,
    bonus: int,
    value: int,
    payments: tuple[int, ...],
    notes: tuple[str, ...],
) -> Result:
    """Return the result :meth:`Result.__reduce__` pickled."""
    return make_result(
        void,
        declarer,
        None if contract < 0 else _CONTRACTS[contract],
        None if modifier < 0 else _MODIFIERS[modifier],
        declarer_units,
        adversary_units,
        declarer_tricks,
        adversary_tricks,
        None if winner < 0 else _SIDES[winner],
        base,
        multiplier,
        None if bonus < 0 else _BONUSES[bonus],
        value,
        payments,
        notes,
    )
