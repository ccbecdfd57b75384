"""States: a deal in progress, as an immutable value.

A :class:`State` never changes, compares and hashes by value, and holds
everything about a deal in progress, hidden cards included. Hand a seat its
:meth:`State.view` rather than the state itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from . import _legal, _pictures, _state_text, places, views
from .actions import Action, Contract, Modifier
from .cards import DECK, Card, CardSet, _cardset
from .errors import SeatError
from .phases import DRAWING, OVER, Phase, name_of
from .places import Move
from .rulesets._books import called_card
from .rulesets.base import Ruleset
from .rulesets.steps import Exchange
from .scoring import Result

if TYPE_CHECKING:
    from ._auction import Position
    from .deal import Deal
    from .rulesets._books import _Tally

__all__ = ["HistoryEntry", "Phase", "State"]

#: One entry of a state's history: the seat that acted (or drew) and the action.
HistoryEntry = tuple[int, Action]



class State:
    """A deal in progress: immutable, hashable, comparing by value.

    Build one with :func:`calabrasella.new_deal` or
    :func:`calabrasella.deal_from`; move on with :func:`calabrasella.apply`.
    A state holds hidden cards: hand a seat ``state.view(seat)`` instead.

    Cards are kept as 40-bit int masks and card indices (see
    :class:`~calabrasella.CardSet`); the properties give them as cards too.
    A state is a plain value: a slotted object rebuilt on every action, with
    read-only properties (there is no public constructor: its ``__init__``
    is the engine's). ``print(state)`` shows the table as text, every hand
    face up (who deals and acts, the contract, the stock, the trick, the
    result); ``repr(state)`` is one short line.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
        >>> state.phase, state.to_move, len(state.hand(1))
        (<Phase.BIDDING: 0>, 1, 12)
    """

    __slots__ = (
        "_auction",
        "_card_units_won",
        "_deal",
        "_exchange",
        "_hand_masks",
        "_history",
        "_leader",
        "_phase",
        "_result",
        "_rules",
        "_stock_mask",
        "_tally",
        "_to_move",
        "_trick_cards",
        "_tricks_won",
    )

    # Not a field: the auction position of a state of the auction (see
    # calabrasella._auction), None elsewhere and in a state rebuilt from a
    # pickle until first asked; left out of the value.
    _auction: Optional[Position]
    # Not a field either: what the exchange's moves add up to, as the work that
    # made this state counted them (see rulesets.protocol.Work), or None; the
    # next action's work starts from a copy of it. Left out of the value, and
    # unset in the states of the play the engine's hot path makes (read it with
    # getattr).
    _tally: Optional[_Tally]

    def __init__(
        self,
        rules: Ruleset,
        deal: Deal,
        phase: Phase,
        to_move: Optional[int],
        hand_masks: tuple[int, ...],
        stock_mask: int,
        exchange: Optional[Exchange],
        trick_cards: tuple[int, ...],
        leader: int,
        card_units_won: tuple[int, ...],
        tricks_won: tuple[int, ...],
        history: tuple[HistoryEntry, ...],
        result: Optional[Result],
    ) -> None:
        self._rules = rules
        self._deal = deal
        self._phase = phase
        self._to_move = to_move
        self._hand_masks = hand_masks
        self._stock_mask = stock_mask
        self._exchange = exchange
        self._trick_cards = trick_cards
        self._leader = leader
        self._card_units_won = card_units_won
        self._tricks_won = tricks_won
        self._history = history
        self._result = result
        self._auction = None
        self._tally = None

    # --- the fields ------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        """The ruleset."""
        return self._rules

    @property
    def deal(self) -> Deal:
        """The deal: the chance outcome the state started from."""
        return self._deal

    @property
    def phase(self) -> Phase:
        """What kind of action is expected."""
        return self._phase

    @property
    def phase_name(self) -> str:
        """The phase as the rules name it: the waiting exchange step's own name, if it
        gives one (see :attr:`calabrasella.rulesets.Step.phase_name`), else ``str(phase)``.

        Example:
            >>> import calabrasella as cb
            >>> cb.new_deal(cb.CAVENDISH, seed=1).phase_name
            'bidding'
        """
        return name_of(self._phase, self._exchange)

    @property
    def to_move(self) -> Optional[int]:
        """The seat to act; ``None`` at a chance node and when over."""
        return self._to_move

    @property
    def hand_masks(self) -> tuple[int, ...]:
        """Each seat's hand as a card mask (hidden information)."""
        return self._hand_masks

    @property
    def stock_mask(self) -> int:
        """The stock (monte) as a card mask (hidden information)."""
        return self._stock_mask

    @property
    def exchange(self) -> Optional[Exchange]:
        """What the auction decided and the exchange did, once the auction is won."""
        return self._exchange

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The card indices played to the current trick."""
        return self._trick_cards

    @property
    def leader(self) -> int:
        """The seat that leads (led) the current trick."""
        return self._leader

    @property
    def card_units_won(self) -> tuple[int, ...]:
        """The card units in each seat's tricks so far (stock and last trick not counted)."""
        return self._card_units_won

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """How many tricks each seat has won so far."""
        return self._tricks_won

    @property
    def history(self) -> tuple[HistoryEntry, ...]:
        """Every action so far as ``(seat, action)``; a chance outcome under the seat that drew."""
        return self._history

    @property
    def result(self) -> Optional[Result]:
        """The result, once the deal is over."""
        return self._result

    # --- derived queries ---------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the deal is over (played out, or void)."""
        return self._phase is OVER

    @property
    def is_chance(self) -> bool:
        """Whether chance moves next (see :func:`calabrasella.sample_chance`)."""
        return self._phase is DRAWING

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self._hand_masks)

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._deal.dealer

    @property
    def hands(self) -> tuple[CardSet, ...]:
        """Every seat's current hand (hidden information)."""
        return tuple(CardSet(h) for h in self._hand_masks)

    def hand(self, seat: int) -> CardSet:
        """Return ``seat``'s current hand (hidden information).

        Raises:
            SeatError: ``seat`` is not a seat at this table.
        """
        if type(seat) is not int or not 0 <= seat < len(self._hand_masks):
            raise SeatError(seat, len(self._hand_masks))
        return _cardset(self._hand_masks[seat])

    @property
    def stock(self) -> CardSet:
        """The cards set aside: the stock (monte) now (hidden information)."""
        return CardSet(self._stock_mask)

    @property
    def declarer(self) -> int | None:
        """The declarer's seat, once the auction is won."""
        ex = self._exchange
        return None if ex is None else ex.declarer

    @property
    def contract(self) -> Contract | None:
        """The winning bid, once the auction is won."""
        ex = self._exchange
        return None if ex is None else ex.contract

    @property
    def modifier(self) -> Modifier | None:
        """Solissimo's raise, if one was made."""
        ex = self._exchange
        return None if ex is None else ex.modifier

    @property
    def called(self) -> Card | None:
        """The card the declarer called (asked for), if any."""
        ex = self._exchange
        card = -1 if ex is None else called_card(self._history)
        return None if card < 0 else DECK[card]

    @property
    def giver(self) -> int | None:
        """The seat that handed the called card to the declarer, if any."""
        ex = self._exchange
        giver = -1 if ex is None else ex.books(self._history, len(self._hand_masks)).giver
        return None if giver < 0 else giver

    @property
    def exposed(self) -> CardSet:
        """The stock cards that were turned face up for every seat."""
        ex = self._exchange
        return CardSet() if ex is None else _cardset(ex.books(self._history, len(self._hand_masks)).exposed)

    @property
    def forced_moves(self) -> tuple[tuple[int, int, Action], ...]:
        """The moves the engine made by itself, as ``(at, seat, action)``.

        When a rule leaves no choice, the engine moves the cards itself and
        the history records no decision: the rest of a Cavendish take once
        only that many stock cards are left, a Calabresella take of the whole
        monte, the second adversary's two cards after a dividete draw, and
        the rest of the monte that the second adversary is given after a
        scegliete.
        ``at`` is the number of history entries before the move. A player's
        view shows the ones it may see (:attr:`calabrasella.View.forced_moves`).

        Example:
            >>> import calabrasella as cb
            >>> s = cb.new_deal(cb.CALABRESELLA, seed=0)
            >>> for action in (cb.Bid("solo"), cb.Pass(), cb.Pass()):
            ...     s = cb.apply(s, action)
            >>> [(at, seat, str(action)) for at, seat, action in s.forced_moves]
            [(3, 1, 'take Ad'), (3, 1, 'take 7h'), (3, 1, 'take Qs'), (3, 1, 'take 7s')]
        """
        ex = self._exchange
        return () if ex is None else tuple((at, seat, action) for at, _, seat, action in ex.forced)

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of cards so far, in order, with its cards and who saw them: the
        exchange's, then the play's (see :func:`calabrasella.places.moves`).

        A seat's view has the same moves as that seat knows them
        (:attr:`calabrasella.View.moves`).
        """
        return places.moves(self)

    def _ledger(self) -> places.Ledger:
        """What :mod:`calabrasella.places` reads of this state's moves."""
        ex = self._exchange
        return places.Ledger(
            () if ex is None else ex.moves, self._history, None, len(self._hand_masks)
        )

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards played to the current trick, from the leader's."""
        return tuple(DECK[c] for c in self._trick_cards)

    @property
    def tricks_played(self) -> int:
        """How many tricks are complete."""
        return sum(self._tricks_won)

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions (see :func:`calabrasella.legal_actions`)."""
        return _legal.legal_actions(self)

    view = views.build_view  # (the seat checked there: one call less)

    # --- value semantics -----------------------------------------------------------

    def _fields(self) -> tuple[Any, ...]:
        return (
            self._rules,
            self._deal,
            self._phase,
            self._to_move,
            self._hand_masks,
            self._stock_mask,
            self._exchange,
            self._trick_cards,
            self._leader,
            self._card_units_won,
            self._tricks_won,
            self._history,
            self._result,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not State:
            return NotImplemented
        return self is other or self._fields() == other._fields()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as plain ints, masks and action codes (see :mod:`calabrasella._pickle`)."""
        from ._pickle import encode_exchange, encode_history, encode_rules  # (on first use)

        ex = self._exchange
        deal = self._deal
        seats, codes, draws = encode_history(self._history)
        return (
            _state_from,
            (
                encode_rules(self._rules),
                deal,
                self._phase.value,
                self._to_move,
                self._hand_masks,
                self._stock_mask,
                None if ex is None else encode_exchange(ex, self._rules, deal.order),
                self._trick_cards,
                self._leader,
                self._card_units_won,
                self._tricks_won,
                seats,
                codes,
                draws,
                self._result,
            ),
        )

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self

    __repr__ = _pictures.state_repr  # (ruleset, phase, who acts, contract, tricks, history)
    __str__ = _state_text.state_text  # the table as text: every hand, stock, trick, result
    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty



_new = object.__new__
_PHASES = tuple(Phase)


def _state_from(
    rules: Any,
    deal: Deal,
    phase: int,
    to_move: Optional[int],
    hand_masks: tuple[int, ...],
    stock_mask: int,
    exchange: Optional[tuple[Any, ...]],
    trick_cards: tuple[int, ...],
    leader: int,
    card_units_won: tuple[int, ...],
    tricks_won: tuple[int, ...],
    seats: bytes,
    codes: bytes,
    draws: tuple[Any, ...],
    result: Optional[Result],
) -> State:
    """Return the state :meth:`State.__reduce__` pickled."""
    from ._pickle import decode_exchange, decode_history, decode_rules  # (on first use)

    ruleset = decode_rules(rules)
    return make_state(
        rules=ruleset,
        deal=deal,
        phase=_PHASES[phase],
        to_move=to_move,
        hand_masks=hand_masks,
        stock_mask=stock_mask,
        exchange=None if exchange is None else decode_exchange(exchange, ruleset, deal.order),
        trick_cards=trick_cards,
        leader=leader,
        card_units_won=card_units_won,
        tricks_won=tricks_won,
        history=decode_history(seats, codes, draws),
        result=result,
    )


def make_state(
    *,
    rules: Ruleset,
    deal: Deal,
    phase: Phase,
    to_move: Optional[int],
    hand_masks: tuple[int, ...],
    stock_mask: int,
    exchange: Optional[Exchange] = None,
    trick_cards: tuple[int, ...] = (),
    leader: int,
    card_units_won: tuple[int, ...],
    tricks_won: tuple[int, ...],
    history: tuple[HistoryEntry, ...],
    result: Optional[Result] = None,
    auction: Optional[Position] = None,
    tally: Optional[_Tally] = None,
) -> State:
    """Return a state with these fields: the engine's one constructor (nothing is checked).

    ``auction`` is the auction position a state of the auction carries (see
    :mod:`calabrasella._auction`). The play's hot path in
    :func:`calabrasella.apply` sets the same slots itself.
    """
    s = _new(State)
    s._rules = rules
    s._deal = deal
    s._phase = phase
    s._to_move = to_move
    s._hand_masks = hand_masks
    s._stock_mask = stock_mask
    s._exchange = exchange
    s._trick_cards = trick_cards
    s._leader = leader
    s._card_units_won = card_units_won
    s._tricks_won = tricks_won
    s._history = history
    s._result = result
    s._auction = auction
    s._tally = tally
    return s


class _Same:
    """The default of :func:`evolve`'s fields: keep the field as it is."""

    def __repr__(self) -> str:
        return "SAME"


_SAME: Any = _Same()


def evolve(
    state: State,
    *,
    phase: Phase = _SAME,
    to_move: Optional[int] = _SAME,
    hand_masks: tuple[int, ...] = _SAME,
    stock_mask: int = _SAME,
    exchange: Optional[Exchange] = _SAME,
    trick_cards: tuple[int, ...] = _SAME,
    leader: int = _SAME,
    card_units_won: tuple[int, ...] = _SAME,
    tricks_won: tuple[int, ...] = _SAME,
    history: tuple[HistoryEntry, ...] = _SAME,
    result: Optional[Result] = _SAME,
) -> State:
    """Return ``state`` with the fields named changed (the ruleset and the deal stay).

    The new state carries no auction position: the engine builds the states
    of the auction with :func:`make_state`.
    """
    s = _new(State)
    s._rules = state._rules
    s._deal = state._deal
    s._phase = state._phase if phase is _SAME else phase
    s._to_move = state._to_move if to_move is _SAME else to_move
    s._hand_masks = state._hand_masks if hand_masks is _SAME else hand_masks
    s._stock_mask = state._stock_mask if stock_mask is _SAME else stock_mask
    s._exchange = state._exchange if exchange is _SAME else exchange
    s._trick_cards = state._trick_cards if trick_cards is _SAME else trick_cards
    s._leader = state._leader if leader is _SAME else leader
    s._card_units_won = state._card_units_won if card_units_won is _SAME else card_units_won
    s._tricks_won = state._tricks_won if tricks_won is _SAME else tricks_won
    s._history = state._history if history is _SAME else history
    s._result = state._result if result is _SAME else result
    s._auction = None
    s._tally = None
    return s
