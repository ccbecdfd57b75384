"""Deals and states: immutable plain data.

A :class:`State` is a value: it never changes, compares and hashes by value,
and holds everything about a deal in progress, hidden cards included. Hand
a seat its :meth:`State.view` rather than the state itself.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, NamedTuple, Optional

import attrs

from . import _bits
from .actions import Action, Contract, Modifier
from .cards import DECK, Card, CardSet, _cardset
from .errors import RecordError

if TYPE_CHECKING:
    from .rulesets.base import Ruleset, Step
    from .scoring import Result
    from .views import View

__all__ = ["Deal", "HistoryEntry", "Phase", "State"]

#: One entry of a state's history: the seat that acted (or drew) and the action.
HistoryEntry = tuple[int, Action]


class Phase(enum.IntEnum):
    """The phase of a deal; it says what kind of action is expected.

    ``BIDDING`` is Cavendish's declaring (stand or pass) and Calabresella's
    auction; ``RAISING`` is the solissimo declarer's dividete/scegliete;
    ``DRAWING`` is a chance node (dividete's unseen draw), where no seat is
    to move.
    """

    BIDDING = 0
    CALLING = 1
    GIVING_BACK = 2
    DISCARDING = 3
    TAKING = 4
    RAISING = 5
    DRAWING = 6
    PLAYING = 7
    OVER = 8


def _dealer_validator(instance: Any, attribute: Any, value: Any) -> None:
    if type(value) is not int or not 0 <= value < 4:
        raise RecordError(f"dealer={value!r}: expected a seat number 0..3")


def _hands_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, tuple) or not all(isinstance(h, CardSet) for h in value):
        raise RecordError(f"hands={value!r}: expected a tuple of CardSet")


def _stock_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, CardSet):
        raise RecordError(f"stock={value!r}: expected a CardSet")


@attrs.frozen
class Deal:
    """The chance outcome of a deal: who dealt, every hand, and the stock.

    With four at the table the dealer's hand is empty. Use
    :func:`calabrasella.new_deal` or :func:`calabrasella.deal_from` rather
    than building one by hand; both validate it.

    Attributes:
        dealer: The dealer's seat.
        hands: Each seat's twelve cards, seat 0 first (the sitting-out
            dealer's hand is empty).
        stock: The four cards left over (Calabresella's monte).
        order: The three active seats in turn order from the eldest hand.
    """

    dealer: int = attrs.field(validator=_dealer_validator)
    hands: tuple[CardSet, ...] = attrs.field(validator=_hands_validator)
    stock: CardSet = attrs.field(validator=_stock_validator)
    order: tuple[int, int, int] = attrs.field(init=False, eq=False, repr=False)
    next_seat: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        n = len(self.hands)
        if n not in (3, 4):
            raise RecordError(f"a deal has 3 or 4 hands, not {n}")
        if self.dealer >= n:
            raise RecordError(f"dealer={self.dealer}: no such seat at a table of {n}")
        order, next_seat = _geometry(self.dealer, n)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "next_seat", next_seat)
        seen = self.stock.mask
        if len(self.stock) != 4:
            raise RecordError(f"the stock has {len(self.stock)} cards, not 4")
        for seat, hand in enumerate(self.hands):
            want = 0 if n == 4 and seat == self.dealer else 12
            if len(hand) != want:
                what = "the sitting-out dealer" if want == 0 else f"seat {seat}"
                raise RecordError(f"{what} holds {len(hand)} cards, not {want}")
            if hand.mask & seen:
                dup = CardSet(hand.mask & seen)
                raise RecordError(f"cards dealt twice: {dup}")
            seen |= hand.mask
        if seen != _bits.FULL:  # pragma: no cover - counts and disjointness imply it
            raise RecordError("the deal does not hold the 40 cards")

    @property
    def eldest(self) -> int:
        """The eldest hand: the first seat after the dealer in turn order."""
        return self.order[0]


_OVER = Phase.OVER
_DRAWING = Phase.DRAWING


@attrs.frozen(slots=False)
class Exchange:
    """What the auction decided and what has happened since (engine bookkeeping).

    Card fields are int masks or card indices (-1 for none); read them through
    the :class:`State` properties instead.
    """

    declarer: int
    contract: Contract
    modifier: Modifier | None
    plan: tuple[Step, ...]
    step: int
    count: int = 0
    called: int = -1
    giver: int = -1
    gave_back: int = -1
    exposed: int = 0
    discards: tuple[int, ...] = ()
    taken: tuple[int, ...] = ()
    drawn: tuple[int, ...] = ()


class State(NamedTuple):
    """A deal in progress: immutable, hashable, comparing by value.

    Build one with :func:`calabrasella.new_deal` or
    :func:`calabrasella.deal_from`; move on with :func:`calabrasella.apply`.
    A state holds hidden cards: hand a seat ``state.view(seat)`` instead.

    A state is a :class:`typing.NamedTuple` of plain values: it is rebuilt
    on every action, and a tuple is the cheapest immutable record Python
    has (four times cheaper to build than a frozen attrs class). Cards are
    kept as 40-bit int masks and card indices (see :class:`CardSet`); the
    properties give them as cards.

    Attributes:
        rules: The ruleset.
        deal: The deal (the chance outcome it started from).
        phase: What kind of action is expected.
        to_move: The seat to act; ``None`` at a chance node and when over.
        hand_masks: Each seat's hand as a card mask (hidden information).
        stock_mask: The stock (monte) as a card mask (hidden information).
        exchange: What the auction decided and the exchange did, once won.
        trick_cards: The card indices played to the current trick.
        leader: The seat that leads (led) the current trick.
        card_units_won: The card units in each seat's tricks so far (stock
            and last trick not counted).
        tricks_won: How many tricks each seat has won so far.
        history: Every action so far as ``(seat, action)``.
        result: The result, once the deal is over.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
        >>> state.phase, state.to_move, len(state.hand(1))
        (<Phase.BIDDING: 0>, 1, 12)
    """

    rules: Ruleset
    deal: Deal
    phase: Phase
    to_move: Optional[int]
    hand_masks: tuple[int, ...]
    stock_mask: int
    exchange: Optional[Exchange]
    trick_cards: tuple[int, ...]
    leader: int
    card_units_won: tuple[int, ...]
    tricks_won: tuple[int, ...]
    history: tuple[HistoryEntry, ...]
    result: Optional[Result]

    # --- read-only queries -------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is over (played out, or void)."""
        return self.phase is _OVER

    @property
    def is_chance(self) -> bool:
        """Whether chance moves next (see :func:`calabrasella.sample_chance`)."""
        return self.phase is _DRAWING

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.hand_masks)

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.deal.dealer

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Every seat's current hand (hidden information)."""
        return tuple(CardSet(h) for h in self.hand_masks)

    def hand(self, seat: int) -> CardSet:
        """Return ``seat``'s current hand (hidden information)."""
        return CardSet(self.hand_masks[seat])

    @property
    def stock(self) -> CardSet:
        """The cards set aside: the stock (monte) now (hidden information)."""
        return CardSet(self.stock_mask)

    @property
    def declarer(self) -> int | None:
        """The declarer's seat, once the auction is won."""
        return None if self.exchange is None else self.exchange.declarer

    @property
    def contract(self) -> Contract | None:
        """The winning bid, once the auction is won."""
        return None if self.exchange is None else self.exchange.contract

    @property
    def modifier(self) -> Modifier | None:
        """Solissimo's raise, if one was made."""
        return None if self.exchange is None else self.exchange.modifier

    @property
    def called(self) -> Card | None:
        """The card the declarer called (asked for), if any."""
        ex = self.exchange
        return None if ex is None or ex.called < 0 else DECK[ex.called]

    @property
    def giver(self) -> int | None:
        """The seat that handed the called card to the declarer, if any."""
        ex = self.exchange
        return None if ex is None or ex.giver < 0 else ex.giver

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards played to the current trick, from the leader's."""
        return tuple(DECK[c] for c in self.trick_cards)

    @property
    def tricks_played(self) -> int:
        """How many tricks are complete."""
        return sum(self.tricks_won)

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions (same as :func:`calabrasella.legal_actions`)."""
        from .engine import legal_actions

        return legal_actions(self)

    def view(self, seat: int) -> View:
        """Return what ``seat`` may know of this state (see :class:`calabrasella.View`)."""
        return _view(self, seat)

    def __repr__(self) -> str:
        return (
            f"<State {self.rules.name} {self.phase.name.lower()} "
            f"to_move={self.to_move} history={len(self.history)}>"
        )


_new = object.__new__
_set = object.__setattr__


_GEOMETRY: dict[tuple[int, int], tuple[tuple[int, int, int], tuple[int, ...]]] = {}


def _geometry(dealer: int, players: int) -> tuple[tuple[int, int, int], tuple[int, ...]]:
    """Return the active seats from the eldest hand, and each seat's next active seat."""
    key = (dealer, players)
    known = _GEOMETRY.get(key)
    if known is None:
        order = ((dealer + 1) % players, (dealer + 2) % players, (dealer + 3) % players)
        next_seat = [0] * players
        for k in range(3):
            next_seat[order[k]] = order[(k + 1) % 3]
        if players == 4:
            next_seat[dealer] = order[0]
        known = _GEOMETRY[key] = (order, tuple(next_seat))
    return known


def _trusted_deal(dealer: int, hands: tuple[int, ...], stock: int) -> Deal:
    """Return a deal the engine made itself (no validation)."""
    deal = _new(Deal)
    order, next_seat = _geometry(dealer, len(hands))
    _set(deal, "dealer", dealer)
    _set(deal, "hands", tuple(_cardset(h) for h in hands))
    _set(deal, "stock", _cardset(stock))
    _set(deal, "order", order)
    _set(deal, "next_seat", next_seat)
    return deal


def _make_exchange(d: dict[str, Any]) -> Exchange:
    """Return an exchange record whose fields are ``d`` (trusted: no validation)."""
    new = _new(Exchange)
    _set(new, "__dict__", d)
    return new


# views.py needs Phase and State from here: import it last.
from .views import view as _view  # noqa: E402
