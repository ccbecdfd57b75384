"""The interface between the engine and a ruleset.

A ruleset is a frozen value: its fields are its options, and a handful of
small hooks say what differs between games. The engine owns the mechanics
(whose turn it is, moving cards, validating actions, tricks); a ruleset says:

- :meth:`Ruleset.bidding_turn`: who speaks next in the auction and what he may bid;
- :meth:`Ruleset.exchange_plan` and :meth:`Ruleset.raise_plan`: the steps
  between the auction and the play, as a tuple of step values (below);
- :meth:`Ruleset.callable_cards`: which cards the declarer may call;
- :meth:`Ruleset.first_leader`: who leads to the first trick;
- :meth:`Ruleset.score`: the result of a finished play.

The steps are plain values the engine interprets, one decision at a time:

========================  ====================================================
Step                      What happens
========================  ====================================================
``CallStep()``            the declarer calls a card; its holder hands it over
``GiveBackStep(face_up)`` the declarer returns a card to the seat that gave
``DiscardStep(...)``      a seat lays cards face down into the stock
``ExposeStep()``          the stock is turned face up for all
``TakeStep(...)``         a seat takes cards from the stock
``RaiseStep(choices)``    the declarer may raise (solissimo)
``DrawStep(role, n)``     chance: a seat draws ``n`` stock cards unseen
========================  ====================================================
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any, ClassVar, Literal, Union

import attrs

from ..actions import Contract, Modifier
from ..cards import CardSet
from ..errors import RulesetError
from ..scoring import Result, Tally

__all__ = [
    "CallStep",
    "DiscardStep",
    "DrawStep",
    "ExposeStep",
    "GiveBackStep",
    "RaiseStep",
    "Role",
    "Ruleset",
    "Step",
    "TakeStep",
]


class Role(enum.Enum):
    """A seat named by its part in the deal."""

    DECLARER = "declarer"
    #: The adversary next after the declarer in turn order.
    FIRST = "first"
    #: The other adversary.
    SECOND = "second"


@attrs.frozen
class CallStep:
    """The declarer calls one card from :meth:`Ruleset.callable_cards`.

    An adversary holding it hands it to the declarer; a card in the stock
    stays there. Skipped when nothing can be called.
    """


@attrs.frozen
class GiveBackStep:
    """The declarer gives one card (not the called one) to the seat that gave.

    Skipped when nobody gave. Seen by all when ``face_up``, else only by the two.
    """

    face_up: bool = False


@attrs.frozen
class DiscardStep:
    """A seat discards ``min_count`` to ``max_count`` cards face down, one at a time.

    With ``as_taken`` it discards exactly as many as it took in this deal
    (skipped when it took none), and the counts are ignored.
    """

    role: Role
    min_count: int = 0
    max_count: int = 0
    as_taken: bool = False


@attrs.frozen
class ExposeStep:
    """The stock (monte) is turned face up: every seat sees its cards."""


@attrs.frozen
class TakeStep:
    """A seat takes cards from the stock.

    ``count``: ``"as_discarded"`` exactly as many as it discarded, chosen one
    at a time; ``"all"`` every stock card at once; ``"any"`` any number,
    chosen one at a time and ended with ``Done``.
    """

    role: Role
    count: Literal["as_discarded", "all", "any"]


@attrs.frozen
class RaiseStep:
    """The declarer may raise with one of ``choices`` or pass."""

    choices: tuple[Modifier, ...]


@attrs.frozen
class DrawStep:
    """Chance: a seat draws ``count`` stock cards unseen (resolved at once if forced)."""

    role: Role
    count: int


Step = Union[CallStep, GiveBackStep, DiscardStep, ExposeStep, TakeStep, RaiseStep, DrawStep]
"""Any exchange step."""

#: The auction so far: (seat, bid) pairs, ``None`` for a pass, in speaking order.
Calls = Sequence[tuple[int, Contract | None]]


def _players_validator(instance: object, attribute: Any, value: object) -> None:
    if value not in (3, 4):
        raise RulesetError(f"{attribute.name}={value!r}: the table seats 3, or 4 with the dealer out")


def _packet_validator(instance: object, attribute: Any, value: object) -> None:
    if value not in (1, 2, 3, 4, 6, 12):
        raise RulesetError(f"{attribute.name}={value!r}: a packet size divides 12 (4 or 2 usually)")


def choice(*values: str) -> Any:
    """Return an attrs validator that accepts only ``values`` (raises RulesetError)."""

    def check(instance: object, attribute: Any, value: object) -> None:
        if value not in values:
            raise RulesetError(
                f"{attribute.name}={value!r}: expected one of {', '.join(map(repr, values))}"
            )

    return check


def flag(instance: object, attribute: Any, value: object) -> None:
    """Validate a boolean option (raises RulesetError)."""
    if not isinstance(value, bool):
        raise RulesetError(f"{attribute.name}={value!r}: expected True or False")


@attrs.frozen(kw_only=True)
class Ruleset:
    """Base of every ruleset: the options every game has, and the hooks.

    Subclass it (one level: a frozen attrs class whose fields are its options)
    and fill in the hooks; or take an existing ruleset and change options with
    ``attrs.evolve``. The class attributes :attr:`name` and :attr:`version`
    identify the rules in records.

    Attributes:
        players: Seats at the table: 3, or 4 with the dealer sitting out.
        packet: Cards per packet when dealing from a shuffled pack.
        dealer_shares: With four at the table, whether the sitting-out dealer
            pays and receives like each adversary.
    """

    name: ClassVar[str] = "base"
    version: ClassVar[int] = 1

    players: int = attrs.field(default=3, validator=_players_validator)
    packet: int = attrs.field(default=4, validator=_packet_validator)
    dealer_shares: bool = attrs.field(default=False, validator=flag)

    def options(self) -> dict[str, Any]:
        """Return the options as a dict of plain values (for records and display).

        Example:
            >>> from calabrasella import CAVENDISH
            >>> CAVENDISH.options()["first_lead"]
            'eldest'
        """
        return attrs.asdict(self)

    def bidding_turn(
        self, order: tuple[int, ...], calls: Calls
    ) -> tuple[int, tuple[Contract, ...]] | None:
        """Return who speaks next and what he may bid, or ``None`` when the auction is over.

        ``order`` holds the three active seats from the eldest hand. Passing is
        always allowed. The winner is the seat of the highest bid (the engine
        works it out); when nobody bid, the deal is void.
        """
        raise NotImplementedError

    def exchange_plan(self, contract: Contract) -> tuple[Step, ...]:
        """Return the steps between the auction won with ``contract`` and the play."""
        raise NotImplementedError

    def raise_plan(self, modifier: Modifier) -> tuple[Step, ...]:
        """Return the steps a raise adds after the ``RaiseStep``."""
        return ()

    def callable_cards(self, hand: CardSet, contract: Contract) -> CardSet:
        """Return the cards the declarer holding ``hand`` may call (held cards are removed)."""
        return CardSet()

    def first_leader(
        self, *, order: tuple[int, ...], declarer: int, contract: Contract, modifier: Modifier | None
    ) -> int:
        """Return the seat that leads to the first trick."""
        raise NotImplementedError

    def score(self, tally: Tally) -> Result:
        """Return the result of a finished play."""
        raise NotImplementedError

    @staticmethod
    def role_seat(role: Role, order: tuple[int, ...], declarer: int) -> int:
        """Return the seat playing ``role`` given the active seats and the declarer."""
        if role is Role.DECLARER:
            return declarer
        i = order.index(declarer)
        return order[(i + 1) % 3] if role is Role.FIRST else order[(i + 2) % 3]
