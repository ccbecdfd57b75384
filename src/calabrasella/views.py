"""Per-seat views: what one seat may know, and nothing more.

A server or a bot loop hands out views, never states. A view holds the seat's
own hand and its own private moves (its discards, the card it gave or got
back, its unseen draw), every public action and played card, the stock cards
that were shown to all, and, once the deal is over, the final stock and the
result. Actions others made face down appear in its history as
:class:`Hidden`. Two states that differ only in cards the seat cannot know
give it equal views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

import attrs

from . import _encoding_views as _facts
from . import _legal, _pictures, places
from ._auction import position_of
from ._hidden import Hidden, _hidden, told
from ._memo import keep
from ._tricks import legal_plays
from .actions import (
    Abandon,
    Action,
    Contract,
    Modifier,
    OutOfTurn,
    Pass,
    Play,
    Revoke,
)
from .cards import DECK, Card, CardSet, _cardset
from .errors import SeatError
from .phases import BIDDING, OVER, PLAYING, Phase, name_of
from .places import Move, MoveRecord
from .rulesets._books import called_card
from .rulesets.base import PLAY_FOLLOW, PLAY_TABLE, Ruleset
from .rulesets.steps import Exchange
from .scoring import Result
from .suits import Suit

if TYPE_CHECKING:
    from .state import State

__all__ = ["Hidden", "View", "build_view"]

_Entries = tuple[tuple[int, Union[Action, "Hidden"]], ...]
_bit_count = int.bit_count
# The key under which a view of the play keeps what its lazy fields are made
# from (all of it what the seat may know), and the fields it fills in when first read.
_PENDING = "_pending"
_LAZY = frozenset(("hand", "hand_sizes", "trick", "history"))


@attrs.frozen(kw_only=True, slots=False, repr=False)
class View:
    """What one seat may know of a deal: hand it to that seat's player or bot.

    Attributes:
        rules: The ruleset.
        seat: Whose view this is.
        dealer: The dealer's seat.
        phase: The phase of the deal.
        to_move: The seat to act (``None`` at chance and at the end).
        hand: This seat's cards.
        hand_sizes: How many cards each seat holds.
        stock_size: How many cards the stock (monte) holds.
        declarer: The declarer, once known.
        contract: The winning bid, once known.
        modifier: Solissimo's raise, if made.
        called: The card called (asked for), if any.
        giver: The seat that handed over the called card, if any.
        given_back: The card returned to the giver, if this seat saw it.
        exposed: The stock cards that were shown to every seat.
        discards: This seat's own discards.
        drawn: The cards this seat drew unseen (dividete).
        trick: The current trick as (seat, card) pairs, from the leader's.
        leader: The seat that leads (led) the current trick.
        tricks_won: Tricks won by each seat.
        card_units_won: Card units in each seat's tricks.
        history: Every action as (seat, action), others' face-down ones as :class:`Hidden`.
        forced_moves: The moves the engine made by itself as ``(at, seat, action)``
            (see :attr:`calabrasella.State.forced_moves`), others' face-down
            ones as :class:`Hidden`.
        legal_actions: This seat's legal actions when it is to act, else empty.
        final_stock: The stock shown at the end of the deal (``None`` before).
        result: The result, once the deal is over.

    Example:
        >>> import calabrasella as cb
        >>> v = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> v.seat, len(v.hand), v.legal_actions
        (1, 12, (Pass(), Bid(contract=<Contract.STAND: 'stand'>)))
    """

    rules: Ruleset
    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    hand: CardSet
    hand_sizes: tuple[int, ...]
    stock_size: int
    declarer: int | None
    contract: Contract | None
    modifier: Modifier | None
    called: Card | None
    giver: int | None
    given_back: Card | None
    exposed: CardSet
    discards: CardSet
    drawn: CardSet
    trick: tuple[tuple[int, Card], ...]
    leader: int
    tricks_won: tuple[int, ...]
    card_units_won: tuple[int, ...]
    history: tuple[tuple[int, Union[Action, Hidden]], ...]
    forced_moves: tuple[tuple[int, int, Union[Action, Hidden]], ...]
    legal_actions: tuple[Action, ...]
    final_stock: CardSet | None
    result: Result | None
    #: The exchange's move records as this seat knows them (see :attr:`moves`); its
    #: keyword is ``moves``.
    _moves: tuple[MoveRecord, ...] = attrs.field(default=())

    @property
    def is_over(self) -> bool:
        """Whether the deal is over."""
        return self.phase == Phase.OVER

    @property
    def phase_name(self) -> str:
        """The phase as the rules name it (see :attr:`calabrasella.State.phase_name`)."""
        name: str | None = self.__dict__.get("_phase_name")
        return str(self.phase) if name is None else name

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.to_move == self.seat

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move of cards so far, as this seat knows it: the exchange's, then the
        play's (see :func:`calabrasella.places.moves`).

        A move whose cards this seat did not see has ``cards=None``: its
        ``number`` and ``words`` tell what happened.
        """
        return places.moves(self)

    def _ledger(self) -> places.Ledger:
        """What :mod:`calabrasella.places` reads of this view's moves."""
        return places.Ledger(
            self._moves, self.history, self.seat, len(self.tricks_won)
        )

    # What the view tells beyond its fields, worked out when read (not when the view
    # is made): calabrasella.encoding's functions of the same names.

    @property
    def cards_played(self) -> tuple[CardSet, ...]:
        """The cards each seat played to tricks so far, the current trick included.

        Example:
            >>> import calabrasella as cb, random
            >>> rng, state = random.Random(1), cb.new_deal(cb.CALABRESELLA, seed=7)
            >>> while len(state.trick) < 2 or not any(state.tricks_won):
            ...     chance = state.is_chance
            ...     state = cb.apply(state, cb.sample_chance(state, rng) if chance
            ...                      else rng.choice(state.legal_actions()))
            >>> view = state.view(0)
            >>> view.cards_played
            (CardSet.parse('Ks Qc'), CardSet.parse('5s'), CardSet.parse('As 3c'))
            >>> view.trick, view.winning_seat, view.known_voids
            (((2, Card.parse('3c')), (0, Card.parse('Qc'))), 2, (frozenset(), frozenset(), frozenset()))
            >>> view.declarer, view.partner, view.tricks_left, len(view.unseen_cards)
            (2, 1, 11, 25)
        """
        return _facts.cards_played(self)

    @property
    def unseen_cards(self) -> CardSet:
        """The cards this seat has not seen: never held, never shown face up to it."""
        return _facts.unseen_cards(self)

    @property
    def known_voids(self) -> tuple[frozenset[Suit], ...]:
        """For each seat, the suits it showed out of where suit must be followed."""
        return _facts.known_voids(self)

    @property
    def winning_seat(self) -> int | None:
        """The seat winning the current trick so far (``None`` with no card in it)."""
        return _facts.winning_seat(self)

    @property
    def partner(self) -> int | None:
        """The declarer's other adversary, for an adversary (else ``None``)."""
        return _facts.partner(self)

    @property
    def tricks_left(self) -> int:
        """The tricks still to complete, the current one included."""
        return _facts.tricks_left(self)

    __repr__ = _pictures.view_repr  # (seat, phase, who acts, contract, tricks, hand)
    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty

    if not TYPE_CHECKING:  # (to type checkers, a view has only its fields)

        def __getattr__(self, name: str) -> Any:
            # Only for the fields a view of the play made by build_view fills in on
            # first use (_LAZY): its hand, hand sizes, trick and history, from what
            # the view itself holds (its own hand's mask, the cards of the trick and
            # the seats that played them, each seat's cards when the play began, its
            # history before the play as it saw it, the plays since).
            d = self.__dict__
            if name in _LAZY:
                if name in d:  # another thread filled it meanwhile
                    return d[name]
                pending = d.get(_PENDING)
                if pending is not None:
                    _fill_play(d, pending)
                    return d[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as plain ints, masks and action codes (see :mod:`calabrasella._pickle`)."""
        from ._pickle import (  # (on first use)
            CONTRACTS,
            MODIFIERS,
            encode_actions,
            encode_moves,
            encode_rules,
        )

        history = self.history
        forced = self.forced_moves
        return (
            _view_from,
            (
                encode_rules(self.rules),
                self.seat,
                self.dealer,
                self.phase.value,
                self.to_move,
                self.hand.mask,
                self.hand_sizes,
                self.stock_size,
                self.declarer,
                -1 if self.contract is None else CONTRACTS.index(self.contract),
                -1 if self.modifier is None else MODIFIERS.index(self.modifier),
                -1 if self.called is None else self.called.index,
                self.giver,
                -1 if self.given_back is None else self.given_back.index,
                self.exposed.mask,
                self.discards.mask,
                self.drawn.mask,
                tuple([n for seat, card in self.trick for n in (seat, card.index)]),
                self.leader,
                self.tricks_won,
                self.card_units_won,
                *_encode_entries([entry[1] for entry in history], bytes([e[0] for e in history])),
                *_encode_entries([m[2] for m in forced], tuple([n for m in forced for n in m[:2]])),
                encode_actions(self.legal_actions),
                -1 if self.final_stock is None else self.final_stock.mask,
                self.result,
                *encode_moves(self._moves),
                self.__dict__.get("_phase_name"),
            ),
        )


def build_view(state: State, seat: int) -> View:
    """Return what ``seat`` may know of this state (see :class:`calabrasella.View`).

    Raises:
        SeatError: ``seat`` is not a seat at this table.
    """
    # It is State.view itself (one call less). In the play (and at its end) the
    # exchange never changes, and every state of the play shares one exchange
    # record: the fields that stay the same for the whole play, and the seat's
    # history up to the play as it saw it, are worked out the first time and
    # kept (see _MEMO); each view copies them and sets what the play changes.
    if type(seat) is not int or not 0 <= seat < len(state._hand_masks):
        raise SeatError(seat, len(state._hand_masks))
    ex = state._exchange
    phase = state._phase
    play = state._rules._play
    if ex is None or (phase is not PLAYING and phase is not OVER) or play == PLAY_TABLE:
        return _general_view(state, seat)
    history = state._history
    trick = state._trick_cards
    entry = _MEMO.get(id(ex))
    part = entry[1].get(seat) if entry is not None and entry[0] is ex else None
    if part is None:
        cut = len(history) - 3 * sum(state._tricks_won) - len(trick)
        part = _play_part(state, ex, seat, cut)
    fixed, entries, cut, start = part
    hand = state._hand_masks[seat]
    to_move = state._to_move
    leader = state._leader
    d = fixed.copy()
    d["to_move"] = to_move
    d["leader"] = leader
    d["tricks_won"] = state._tricks_won
    d["card_units_won"] = state._card_units_won
    # hand, hand sizes, trick and history are filled in when first read (see View.__getattr__)
    d[_PENDING] = (hand, trick, leader, state._deal.next_seat, entries, history[cut:], start)
    if phase is OVER:
        d["phase"] = OVER
        d["final_stock"] = _cardset(state._stock_mask)
        d["result"] = state._result
    elif to_move == seat:
        if play != PLAY_FOLLOW:
            d["legal_actions"] = _legal.legal_actions(state)
        else:
            d["legal_actions"] = legal_plays(hand, trick, True)
    new = _new(View)
    _set_dict(new, d)
    return new


def _general_view(state: State, seat: int) -> View:
    """Return a view of the auction or the exchange (or of table mode's play)."""
    ex = state._exchange
    phase = state._phase
    hands = state._hand_masks
    history = state._history
    trick = state._trick_cards
    over = phase is OVER
    to_move = state._to_move
    rules = state._rules
    if to_move != seat:
        actions: tuple[Action, ...] = ()
    elif ex is not None and phase is not PLAYING and not over and rules._play != PLAY_TABLE:
        actions = ex.legal  # the exchange's, listed when the state was built
    elif phase is BIDDING:  # the auction position's (kept on the state when the engine built it)
        actions = position_of(state).legal
    else:
        actions = _legal.legal_actions(state)
    d: dict[str, Any] = {
        "rules": rules,
        "seat": seat,
        "dealer": state._deal.dealer,
        "phase": phase,
        "to_move": to_move,
        "hand": _cardset(hands[seat]),
        "hand_sizes": (
            (hands[0].bit_count(), hands[1].bit_count(), hands[2].bit_count())
            if len(hands) == 3
            else tuple(map(_bit_count, hands))
        ),
        "stock_size": state._stock_mask.bit_count(),
        "leader": state._leader,
        "tricks_won": state._tricks_won,
        "card_units_won": state._card_units_won,
        "legal_actions": actions,
        "result": state._result,
        "trick": _trick_pairs(state) if trick else (),
    }
    if ex is None:
        d.update(_NO_EXCHANGE)
        d["history"] = history
    else:
        plays = 3 * sum(state._tricks_won) + len(trick)
        if rules._play == PLAY_TABLE:  # table mode: irregular entries in the play
            if not over:  # each seat's irregular actions too
                d["legal_actions"] = _legal_for(state, seat)
            plays = 0
            while plays < len(history) and history[-1 - plays][1].__class__ in _PLAY_KINDS:
                plays += 1
        cut = len(history) - plays
        if not over and phase is not PLAYING:  # a variant's step may name its phase
            name = name_of(phase, ex)
            if name != str(phase):
                d["_phase_name"] = name
        _exchange_fields(d, ex, seat, history, len(hands), getattr(state, "_tally", None))
        entries, d["given_back"], d["forced_moves"], d["_moves"] = told(ex, seat, history, cut)
        tail = history[cut:]
        d["history"] = entries + tail if tail else entries
        d["final_stock"] = _cardset(state._stock_mask) if over else None
    new = _new(View)
    _set(new, "__dict__", d)
    return new


def _trick_pairs(state: State) -> tuple[tuple[int, Card], ...]:
    nxt = state._deal.next_seat
    s = state._leader
    pairs = []
    for c in state._trick_cards:
        pairs.append((s, DECK[c]))
        s = nxt[s]
    return tuple(pairs)


# Once the play has begun the exchange never changes, and every state of the
# play shares one exchange record: each seat's part of its views is kept here,
# keyed by the record's id (the record is kept alive by the entry, so the id
# cannot be reused while it is cached). Oldest entries go first. A part is a
# dict of every field of the view, those that the play does not change set
# (the ruleset, the dealer, the stock's size and what the exchange decided),
# what the seat was told of the exchange (worked out when first read), the
# length of the history before the play, and each seat's cards when it began.
_PlayPart = tuple[dict[str, Any], _Entries, int, tuple[int, ...]]
_MEMO: dict[int, tuple[Exchange, dict[int, _PlayPart]]] = {}
_MEMO_SIZE = 256


def _play_part(state: State, ex: Exchange, seat: int, cut: int) -> _PlayPart:
    """Work out and keep ``seat``'s part of the views of a play (see :data:`_MEMO`)."""
    fixed: dict[str, Any] = {
        "rules": state._rules,
        "seat": seat,
        "dealer": state._deal.dealer,
        "phase": PLAYING,
        "to_move": None,
        "stock_size": state._stock_mask.bit_count(),
        "leader": None,
        "tricks_won": None,
        "card_units_won": None,
        "legal_actions": (),
        "final_stock": None,
        "result": None,
    }
    _exchange_fields(
        fixed, ex, seat, state._history, len(state._hand_masks), getattr(state, "_tally", None)
    )
    # each seat's cards when the play began (none for a dealer sitting out)
    played = sum(state._tricks_won)
    order = state._deal.order
    start = [h.bit_count() + (played if h or s in order else 0)
             for s, h in enumerate(state._hand_masks)]  # fmt: skip
    seat_at = state._leader
    for _ in state._trick_cards:
        start[seat_at] += 1
        seat_at = state._deal.next_seat[seat_at]
    entries, fixed["given_back"], fixed["forced_moves"], fixed["_moves"] = told(
        ex, seat, state._history, cut
    )
    part = (fixed, entries, cut, tuple(start))
    entry = _MEMO.get(id(ex))
    if entry is None or entry[0] is not ex:
        entry = keep(_MEMO, id(ex), (ex, {}), _MEMO_SIZE)
    entry[1][seat] = part
    return part


def _legal_for(state: State, seat: int) -> tuple[Action, ...]:
    """The legal actions ``seat`` may take in table mode's play: its irregular ones too."""
    return tuple(a for a in state.legal_actions() if _legal.actor(state, a) == seat)


_PLAY_KINDS = (Play, Revoke, OutOfTurn, Abandon)
_EMPTY = CardSet()
_NO_EXCHANGE: dict[str, Any] = {
    "declarer": None,
    "contract": None,
    "modifier": None,
    "called": None,
    "giver": None,
    "given_back": None,
    "exposed": _EMPTY,
    "discards": _EMPTY,
    "drawn": _EMPTY,
    "forced_moves": (),
    "final_stock": None,
    "_moves": (),
}
_new = object.__new__
_set = object.__setattr__
_set_dict = View.__dict__["__dict__"].__set__  # a view's fields, set at once



def _exchange_fields(
    d: dict[str, Any],
    ex: Exchange,
    seat: int,
    history: tuple[tuple[int, Action], ...],
    players: int,
    tally: Any,
) -> None:
    """Put the view fields the exchange's moves tell ``seat`` into ``d``."""
    d["declarer"] = ex.declarer
    d["contract"] = ex.contract
    d["modifier"] = ex.modifier
    called = called_card(history)
    d["called"] = DECK[called] if called >= 0 else None
    if ex.moves:
        # (the tally the engine kept of these moves, else the moves added up now)
        known = tally is not None and tally.counted == len(ex.moves)
        books: Any = tally if known else ex.books(history, players)
        d["giver"] = books.giver if books.giver >= 0 else None
        d["exposed"] = _cardset(books.exposed) if books.exposed else _EMPTY
        mask = books.laid[seat]
        d["discards"] = _cardset(mask) if mask else _EMPTY
        mask = books.drawn[seat]
        d["drawn"] = _cardset(mask) if mask else _EMPTY
    else:
        d["giver"] = None
        d["exposed"] = d["discards"] = d["drawn"] = _EMPTY


def _fill_play(d: dict[str, Any], pending: tuple[Any, ...]) -> None:
    """Fill in a view of the play's hand, hand sizes, trick and history (see View.__getattr__)."""
    hand, trick, leader, next_seat, entries, plays, start = pending
    d["hand"] = _cardset(hand)
    played = sum(d["tricks_won"])  # every seat at play holds start - played ...
    sizes = [n - played if n else 0 for n in start]
    at = leader
    for _ in trick:  # ... but those that played to the trick one fewer
        sizes[at] -= 1
        at = next_seat[at]
    d["hand_sizes"] = tuple(sizes)
    if not trick:
        d["trick"] = ()
    elif len(trick) == 1:
        d["trick"] = ((leader, DECK[trick[0]]),)
    else:
        d["trick"] = ((leader, DECK[trick[0]]), (next_seat[leader], DECK[trick[1]]))
    d["history"] = entries + plays
    # every field is in place before the pending data goes, and two threads
    # filling one view at once fill it alike: no reader sees a gap
    d.pop(_PENDING, None)


# --- pickling ----------------------------------------------------------------------

_Coded = tuple[Any, bytes, tuple[Any, ...], tuple[tuple[int, str, str], ...]]


def _encode_entries(actions: list[Union[Action, Hidden]], head: Any) -> _Coded:
    """Return ``head``, the codes of ``actions`` with each Hidden as a pass, their draws,
    and the Hidden ones as (place, kind)."""
    from ._pickle import encode_actions
    hidden = tuple([(i, a.kind, a.words) for i, a in enumerate(actions) if a.__class__ is Hidden])
    if hidden:
        actions = [_STAND_IN if a.__class__ is Hidden else a for a in actions]
    codes, draws = encode_actions(actions)  # type: ignore[arg-type]
    return head, codes, draws, hidden


def _decode_entries(
    codes: bytes, draws: tuple[Any, ...], hidden: tuple[tuple[int, str, str], ...]
) -> list[Any]:
    from ._pickle import decode_actions

    actions: list[Any] = decode_actions(codes, draws)
    for i, kind, words in hidden:
        actions[i] = _hidden(kind, words)
    return actions


_STAND_IN = Pass()
_PHASES = tuple(Phase)


def _view_from(
    rules: Any, seat: int, dealer: int, phase: int, to_move: int | None, hand: int,
    hand_sizes: tuple[int, ...], stock_size: int, declarer: int | None, contract: int,
    modifier: int, called: int, giver: int | None, given_back: int, exposed: int, discards: int,
    drawn: int, trick: tuple[int, ...], leader: int, tricks_won: tuple[int, ...],
    card_units_won: tuple[int, ...], seats: bytes, codes: bytes, draws: tuple[Any, ...],
    hidden: tuple[tuple[int, str, str], ...], forced_head: tuple[int, ...], forced_codes: bytes,
    forced_draws: tuple[Any, ...], forced_hidden: tuple[tuple[int, str, str], ...],
    legal: tuple[bytes, tuple[int, ...]], final_stock: int, result: Result | None,
    move_bytes: bytes = b"", move_words: tuple[str, ...] = (), phase_name: str | None = None,
) -> View:  # fmt: skip
    """Return the view :meth:`View.__reduce__` pickled."""
    from ._pickle import CONTRACTS, MODIFIERS, decode_actions, decode_moves, decode_rules
    forced = _decode_entries(forced_codes, forced_draws, forced_hidden)
    d = {
        "rules": decode_rules(rules),
        "seat": seat,
        "dealer": dealer,
        "phase": _PHASES[phase],
        "to_move": to_move,
        "hand": _cardset(hand),
        "hand_sizes": hand_sizes,
        "stock_size": stock_size,
        "declarer": declarer,
        "contract": None if contract < 0 else CONTRACTS[contract],
        "modifier": None if modifier < 0 else MODIFIERS[modifier],
        "called": None if called < 0 else DECK[called],
        "giver": giver,
        "given_back": None if given_back < 0 else DECK[given_back],
        "exposed": _cardset(exposed),
        "discards": _cardset(discards),
        "drawn": _cardset(drawn),
        "trick": tuple([(trick[i], DECK[trick[i + 1]]) for i in range(0, len(trick), 2)]),
        "leader": leader,
        "tricks_won": tricks_won,
        "card_units_won": card_units_won,
        "history": tuple(zip(seats, _decode_entries(codes, draws, hidden))),
        "forced_moves": tuple(
            (forced_head[2 * i], forced_head[2 * i + 1], action) for i, action in enumerate(forced)
        ),
        "legal_actions": tuple(decode_actions(*legal)) if legal[0] else (),
        "final_stock": None if final_stock < 0 else _cardset(final_stock),
        "result": result,
        "_moves": decode_moves(move_bytes, move_words) if move_bytes else (),
    }
    if phase_name is not None:
        d["_phase_name"] = phase_name
    new = _new(View)
    _set(new, "__dict__", d)
    return new
