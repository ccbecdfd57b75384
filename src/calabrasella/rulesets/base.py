"""The interface between the engine and a ruleset.

A ruleset is a frozen value: its fields are its options, and a handful of
small hooks say what differs between games. The engine owns the mechanics
(whose turn it is, moving cards, validating actions, tricks); a ruleset says:

- :attr:`Ruleset.contracts`: its bids, lowest first;
- :meth:`Ruleset.bidding_turn`: who speaks next in the auction and what he may bid;
- :meth:`Ruleset.auction_winner` and :meth:`Ruleset.void_result`: who won
  the auction, and what a deal nobody won is worth;
- :meth:`Ruleset.exchange_plan` and :meth:`Ruleset.raise_plan`: the steps
  between the auction and the play (see :mod:`calabrasella.rulesets.steps`);
- :meth:`Ruleset.callable_cards`: which cards the declarer may call;
- :meth:`Ruleset.play_sizes`: the cards in each hand and in the stock when the play begins;
- :meth:`Ruleset.first_leader`: who leads to the first trick;
- :meth:`Ruleset.score`: the result of a finished play;
- :attr:`Ruleset.terms`: the words its sources use, for display.

The four hooks every game must fill in (``bidding_turn``, ``exchange_plan``,
``first_leader`` and ``score``) are abstract: a ruleset class missing one
cannot be built.
"""

from __future__ import annotations

import abc
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from .._bits import DEALT
from .._tricks import legal_plays, winning_play
from ..actions import Contract, Modifier
from ..cards import DECK, Card, CardSet
from ..errors import RulesetError, RulesetOptionError
from ..scoring import LAST_TRICK_UNITS, REVOKE_UNITS, Result, Tally
from ._numbers import Numbers, numbers_of
from .steps import Step

__all__ = ["Calls", "Ruleset", "Terms", "choice", "flag"]

# How the engine lists and checks the play under a ruleset (``Ruleset._play``),
# worked out once from its options when it is built: follow suit (the default),
# any card (``follow_suit=False``), or table mode (``irregularities="record"``).
PLAY_FOLLOW, PLAY_FREE, PLAY_TABLE = 0, 1, 2


#: The auction so far: (seat, bid) pairs, ``None`` for a pass, in speaking order.
Calls = Sequence[tuple[int, Contract | None]]


def _players_validator(instance: object, attribute: Any, value: object) -> None:
    if value not in (3, 4):
        raise RulesetError(f"{attribute.name}={value!r}: the table seats 3, or 4 with the dealer out")


def _packet_validator(instance: object, attribute: Any, value: object) -> None:
    if value not in (1, 2, 3, 4, 6, 12):
        raise RulesetError(f"{attribute.name}={value!r}: a packet size divides 12 (4 or 2 usually)")


def choice(*values: str) -> Any:
    """Return an attrs validator for an option that takes one of ``values``.

    For a variant's own options: the error names the option and the values allowed.

    Example:
        >>> import attrs
        >>> @attrs.frozen
        ... class Options:
        ...     lead: str = attrs.field(default="eldest", validator=choice("eldest", "dealer"))
        >>> Options(lead="left")
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetError: lead='left': expected one of 'eldest', 'dealer'
    """

    def check(instance: object, attribute: Any, value: object) -> None:
        if value not in values:
            raise RulesetError(
                f"{attribute.name}={value!r}: expected one of {', '.join(map(repr, values))}"
            )

    return check


def flag(instance: object, attribute: Any, value: object) -> None:
    """Validate a boolean option: an attrs validator that raises :class:`RulesetError`."""
    if not isinstance(value, bool):
        raise RulesetError(f"{attribute.name}={value!r}: expected True or False")


def _is_option(attribute: Any, value: object) -> bool:
    return bool(attribute.init)


@attrs.frozen
class Terms:
    """The words a ruleset's sources use, for display (the command line, records).

    Attributes:
        title: The game's name as a player would say it.
        declarer: The declarer (Cavendish: "single player").
        stock: The cards set aside (Cavendish: "stock"; Calabresella: "monte").
        base: What a deal's value is made of before multipliers
            (Cavendish: the "difference" of the sides' units; Calabresella: the "stake").
        points: Whether results are also told in points (units // 3).
    """

    title: str = "a variant"
    declarer: str = "declarer"
    stock: str = "stock"
    base: str = "base"
    points: bool = False


class _RulesetMeta(abc.ABCMeta):
    """Check a ruleset's options before attrs' ``__init__`` sees them.

    A wrong keyword would otherwise raise a bare :class:`TypeError` from the
    generated ``__init__``; this raises :class:`RulesetOptionError` (also a
    TypeError) naming the ruleset and its options, for every subclass, the
    ones defined outside the package too. Only construction pays for it
    (``attrs.evolve`` included); copying and unpickling do not come here.

    It then works out the private ``_play`` from the options (a ruleset is
    frozen, so once is enough; a copy or a pickle carries it along), and
    returns the ruleset already built with the same class and options if
    there is one still in use (:func:`_interned`): ``cb.Cavendish() is
    cb.CAVENDISH``. A new one gets its numbers (``_numbers``: each card's
    units, the last trick's, the deal's, the revoke's; see
    :mod:`calabrasella.rulesets._numbers`), asked of its hooks once.
    """

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if attrs.has(cls):
            kwargs = dict(cls._legacy_options(kwargs))  # type: ignore[attr-defined]
            fields = [f for f in attrs.fields(cls) if f.init]
            names = [f.alias for f in fields]
            listed = ", ".join(names) or "none"
            if args:
                raise RulesetOptionError(
                    f"{cls.__qualname__}() takes its options by keyword, not {len(args)} "
                    f"by position (its options: {listed})"
                )
            unknown = [k for k in kwargs if k not in names]
            if unknown:
                what = "option" if len(unknown) == 1 else "options"
                raise RulesetOptionError(
                    f"{cls.__qualname__}() has no {what} {', '.join(map(repr, unknown))} "
                    f"(its options: {listed})"
                )
            missing = [
                f.alias for f in fields if f.default is attrs.NOTHING and f.alias not in kwargs
            ]
            if missing:
                raise RulesetOptionError(
                    f"{cls.__qualname__}() needs {', '.join(map(repr, missing))} "
                    f"(its options: {listed})"
                )
        rules = super().__call__(*args, **kwargs)
        if attrs.has(cls):
            play = (
                PLAY_TABLE
                if rules.irregularities == "record"
                else PLAY_FOLLOW
                if rules.follow_suit
                else PLAY_FREE
            )
            object.__setattr__(rules, "_play", play)
            known = _interned(rules)
            if known._numbers is None:  # a new one: its numbers, asked once
                object.__setattr__(known, "_numbers", numbers_of(known))
            return known
        return rules


# Every ruleset built, by class and options, while it is in use: a ruleset equal to
# one already built is that one (see _interned).
_BUILT: weakref.WeakValueDictionary[tuple[Any, ...], Any] = weakref.WeakValueDictionary()


def _interned(rules: Any) -> Any:
    """Return the ruleset already built equal to ``rules`` (same class and options), if any.

    The engine remembers the hooks' answers per ruleset *object*, so a ruleset
    rebuilt from a record or a JSON document (equal, but a new object) would
    otherwise start afresh and hold entries of its own in every cache: a
    server that saves each deal's record grew by some 2 kB a deal that way.
    Options that do not hash leave the ruleset as it is.
    """
    cls = rules.__class__
    try:
        key = (cls, *(getattr(rules, f.name) for f in attrs.fields(cls) if f.eq))
        known = _BUILT.get(key)
    except TypeError:  # an option that does not hash
        return rules
    if known is not None and known == rules:
        return known
    _BUILT[key] = rules
    return rules


@attrs.frozen(kw_only=True)
class Ruleset(abc.ABC, metaclass=_RulesetMeta):
    """Base of every ruleset: the options every game has, and the hooks.

    Subclass it (one level: a frozen attrs class whose fields are its
    options) and fill in the abstract hooks; or take an existing ruleset and
    change options with ``attrs.evolve``. The class attributes :attr:`name`
    and :attr:`version` identify the rules in records.

    A ruleset is a value, and an equal one is the same object: building a
    ruleset with the class and options of one already in use (by hand, by
    ``attrs.evolve``, from a record or a JSON document) returns that one, so
    ``cb.Cavendish() is cb.CAVENDISH``, and what the engine remembers of its
    hooks' answers is shared (options that do not hash build a new object;
    an unpickled ruleset is a new object, equal to the first).

    Building one with an option it does not have, without an option that
    has no default, or with options by position raises
    :class:`~calabrasella.errors.RulesetOptionError` (a :class:`RulesetError`
    and a :class:`TypeError`), naming the ruleset and listing its options.

    Attributes:
        players: Seats at the table: 3, or 4 with the dealer sitting out.
        packet: Cards per packet when dealing from a shuffled pack.
        dealer_shares: With four at the table, whether the sitting-out dealer
            pays and receives like each adversary.

    Example:
        >>> Ruleset()
        Traceback (most recent call last):
        ...
        TypeError: Can't instantiate abstract class Ruleset with abstract methods bidding_turn, exchange_plan, first_leader, score
    """

    #: The name the ruleset is found by (:func:`calabrasella.find_ruleset`).
    name: ClassVar[str] = "base"
    #: The version of the rules, bumped when a change alters results.
    version: ClassVar[int] = 1
    #: The bids, lowest first; a later bid beats an earlier one.
    contracts: ClassVar[tuple[Contract, ...]] = ()
    #: The words the sources use (see :class:`Terms`).
    terms: ClassVar[Terms] = Terms()

    #: Whether a seat holding the suit led must play it (the common rule of the play).
    #: Not an option here: a ruleset that lets players revoke (Calabresella, after
    #: Rules page 2024) declares ``follow_suit`` as one of its fields. The engine reads it once, when
    #: the ruleset is built (into ``_play``), so the default costs the play nothing.
    follow_suit = True

    #: Whether irregular plays are refused (``"forbid"``) or recorded and settled
    #: (``"record"``, table mode). Not an option here: a ruleset that records them
    #: (Cavendish, Foster 1897) declares ``irregularities`` as one of its fields.
    irregularities = "forbid"

    players: int = attrs.field(default=3, validator=_players_validator)
    packet: int = attrs.field(default=4, validator=_packet_validator)
    dealer_shares: bool = attrs.field(default=False, validator=flag)

    #: How the engine runs the play (``PLAY_FOLLOW``, ``PLAY_FREE`` or
    #: ``PLAY_TABLE``), set from ``follow_suit`` and ``irregularities`` when the
    #: ruleset is built: one slot the play's hot path reads. Not an option.
    _play: int = attrs.field(default=PLAY_FOLLOW, init=False, eq=False, repr=False, hash=False)
    #: The ruleset's numbers, asked of its hooks when it is built (see
    #: :mod:`calabrasella.rulesets._numbers`): what the engine, the scoring, the
    #: codecs, the searches and the pictures read. Not an option.
    _numbers: Numbers = attrs.field(default=None, init=False, eq=False, repr=False, hash=False)

    @classmethod
    def _legacy_options(cls, options: Mapping[str, Any]) -> Mapping[str, Any]:
        """Return ``options`` with deprecated option names mapped to their new form.

        Called on every construction before the options are checked; a
        ruleset that renames an option overrides it for a release, warning.
        """
        return options

    def options(self) -> dict[str, Any]:
        """Return the options as a dict of plain values (for records and display).

        Example:
            >>> from calabrasella import CAVENDISH
            >>> CAVENDISH.options()["first_lead"]
            'eldest'
        """
        return attrs.asdict(self, filter=_is_option)

    # --- the rules a consumer asks (bots, the solver, pictures, servers) -------------

    @property
    def deal_units(self) -> int:
        """The units every deal distributes: the cards' and the last trick's (35).

        Worked out from :meth:`card_units` and :attr:`last_trick_units`: a
        variant overrides those, not this.

        Example:
            >>> from calabrasella import CAVENDISH
            >>> CAVENDISH.deal_units, CAVENDISH.last_trick_units, CAVENDISH.winning_units
            (35, 3, 18)
        """
        return self._numbers.deal

    @property
    def last_trick_units(self) -> int:
        """The units for winning the last trick (3), besides the stock's cards.

        A variant may override it (a property, or a plain class attribute):
        the engine, the scoring, the searches, the bots, the codecs and the
        pictures follow, and :attr:`deal_units` with them.
        """
        return LAST_TRICK_UNITS

    @property
    def winning_units(self) -> int:
        """The fewest units with which the declarer wins the deal: more than half of
        :attr:`deal_units` (18 of 35)."""
        return self.deal_units // 2 + 1

    @property
    def revoke_units(self) -> int:
        """The units a revoke moves from the offending side to the other (9; table mode).

        A side never gives more units than its tricks hold (see
        :attr:`calabrasella.Tally.penalty_units`).
        """
        return REVOKE_UNITS

    def card_units(self, card: Card | int) -> int:
        """Return the units a card counts in a trick (ace 3; 3, 2, K, Q, J 1; others 0).

        A variant may override it; the engine asks it once for each card,
        when the ruleset is built (see :attr:`units_by_card`).

        Example:
            >>> from calabrasella import CALABRESELLA, Card
            >>> CALABRESELLA.card_units(Card.parse("Ad")), CALABRESELLA.card_units(Card.parse("7d"))
            (3, 0)
        """
        return DECK[card if type(card) is int else card.index].units  # type: ignore[union-attr]

    @property
    def units_by_card(self) -> tuple[int, ...]:
        """Each card's units (:meth:`card_units`), by card index: asked once, when built.

        Example:
            >>> from calabrasella import CAVENDISH, Card
            >>> CAVENDISH.units_by_card[Card.parse("As").index], sum(CAVENDISH.units_by_card)
            (3, 32)
        """
        return self._numbers.units

    def units_in(self, cards: CardSet | int) -> int:
        """Return the units of ``cards`` (a :class:`CardSet` or a 40-bit card mask).

        Example:
            >>> from calabrasella import CAVENDISH, CardSet
            >>> CAVENDISH.units_in(CardSet.parse("Ad 3d 7d"))
            4
        """
        return self._numbers.of(cards if type(cards) is int else cards.mask)  # type: ignore[union-attr]

    def units_payment(self, units: int) -> int | None:
        """Return what each adversary pays the declarer (negative: receives from him)
        when the deal ends with ``units`` for the declarer, if the units alone say it.

        ``None`` (the default) when the payment hangs on more than the units
        (a stake game's contract, tricks and bonuses). The bots average it
        over sampled worlds (:func:`calabrasella.bots.sampling_bot.utility`);
        a ruleset whose :meth:`score` pays by the units alone overrides it,
        and its ``score`` uses it, so the two cannot differ.

        Example:
            >>> from calabrasella import CALABRESELLA
            >>> CALABRESELLA.units_payment(20) is None
            True
        """
        return None

    def legal_plays(self, hand: CardSet, trick: Sequence[Card]) -> CardSet:
        """Return the cards of ``hand`` that may be played to ``trick`` (the cards so far,
        from the lead): the suit led where the hand holds it and suit must be followed.

        Example:
            >>> from calabrasella import CAVENDISH, CardSet, Card
            >>> str(CAVENDISH.legal_plays(CardSet.parse("Ad 4d 5s"), [Card.parse("7d")]))
            'Ad 4d'
        """
        cards = tuple(c.index for c in trick)
        plays = legal_plays(hand.mask, cards, self._play != PLAY_FREE)
        mask = 0
        for play in plays:
            mask |= 1 << play.card.index
        return CardSet(mask)

    def trick_winner(self, trick: Sequence[Card], leader: int, order: Sequence[int]) -> int:
        """Return the seat that wins ``trick`` (the cards from the lead) led by ``leader``,
        the seats playing in ``order`` (the three active seats from the eldest hand).

        Example:
            >>> from calabrasella import CAVENDISH, Card
            >>> trick = [Card.parse(c) for c in ("4d", "Ad", "3s")]
            >>> CAVENDISH.trick_winner(trick, leader=2, order=(1, 2, 0))
            0
        """
        cards = [c.index for c in trick]
        i = list(order).index(leader)
        return order[(i + winning_play(cards)) % len(order)]

    def contract_rank(self, contract: Contract) -> int:
        """Return the place of ``contract`` among :attr:`contracts` (higher beats lower).

        Raises:
            RulesetError: The ruleset has no such contract.
        """
        try:
            return self.contracts.index(contract)
        except ValueError:
            raise RulesetError(f"{self.name} has no contract {contract.value!r}") from None

    @abc.abstractmethod
    def bidding_turn(
        self, order: tuple[int, ...], calls: Calls
    ) -> tuple[int, tuple[Contract, ...]] | None:
        """Return who speaks next and what he may bid, or ``None`` when the auction is over.

        ``order`` holds the three active seats from the eldest hand; ``calls``
        the auction so far. Passing is always allowed. The bids allowed come
        lowest first, in :attr:`contracts` order (the order of the legal actions).
        """

    def auction_winner(self, calls: Calls) -> tuple[int, Contract] | None:
        """Return the declarer and his contract once the auction is over; ``None``: nobody bid.

        By default the highest bid in :attr:`contracts` order wins, the
        earliest of equal bids first.
        """
        best: tuple[int, Contract] | None = None
        rank = -1
        for seat, bid in calls:
            if bid is not None:
                r = self.contract_rank(bid)
                if r > rank:
                    best, rank = (seat, bid), r
        return best

    def void_result(self, *, players: int, dealer: int, calls: Calls) -> Result:
        """Return the result of a deal that nobody won in the auction.

        By default it is void and nobody pays (:meth:`Result.void_deal`).
        """
        return Result.void_deal(players)

    @abc.abstractmethod
    def exchange_plan(self, contract: Contract) -> tuple[Step, ...]:
        """Return the steps between the auction won with ``contract`` and the play."""

    def raise_plan(self, modifier: Modifier) -> tuple[Step, ...]:
        """Return the steps a raise adds after the ``RaiseStep``."""
        return ()

    def callable_cards(self, hand: CardSet, contract: Contract) -> CardSet:
        """Return the cards the declarer holding ``hand`` may call (held cards are removed)."""
        return CardSet()

    def play_sizes(self, contract: Contract, modifier: Modifier | None) -> tuple[int, int]:
        """Return the cards each active seat holds and the stock holds when the play begins.

        The engine checks them at the end of the exchange (a ruleset whose
        steps leave other counts is broken). By default as dealt: twelve and
        four.
        """
        return DEALT

    @abc.abstractmethod
    def first_leader(
        self, *, order: tuple[int, ...], declarer: int, contract: Contract, modifier: Modifier | None
    ) -> int:
        """Return the seat that leads to the first trick."""

    @abc.abstractmethod
    def score(self, tally: Tally) -> Result:
        """Return the result of a finished play."""
