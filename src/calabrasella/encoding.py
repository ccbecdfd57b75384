"""Numbers for learning programs: integer actions, legal masks and observation vectors.

Pure Python; NumPy is used only when it is asked for (``numpy=True``) and
installed. Nothing here imports NumPy at import time.

**Actions.** Every built-in player action has one fixed id, the same in every
ruleset (the table below); :func:`num_actions` is 208 for a ruleset that
forbids irregularities and 413 in table mode (``irregularities="record"``),
whose irregular actions take the ids from 208 on.

| Ids | Action |
| --- | --- |
| 0 | `Pass()` |
| 1 | `Done()` |
| 2-5 | `Bid(contract)`: stand, chiamo, solo, solissimo |
| 6-7 | `Raise(modifier)`: dividete, scegliete |
| 8-47 | `Call(card)`, ``8 + card.index`` |
| 48-87 | `GiveBack(card)` |
| 88-127 | `Discard(card)` |
| 128-167 | `Take(card)` |
| 168-207 | `Play(card)` |
| 208-247 | `Revoke(card)` (table mode) |
| 248-251 | `TurnStock(seat)` (table mode) |
| 252 | `Abandon()` (table mode) |
| 253-412 | `OutOfTurn(seat, card)`, ``253 + 40 * seat + card.index`` (table mode) |

A chance outcome (:class:`~calabrasella.Draw`) is not a player's action and
has no id here (an environment numbers a chance node's outcomes itself), and
a variant's own kind of action (:class:`~calabrasella.CustomAction`) has no
fixed place in a fixed space: both raise
:class:`~calabrasella.IllegalActionError`, and so does
:func:`legal_mask` where such an action is legal. A variant that brings its
own actions needs its own encoding.

**Observations.** :func:`observation` turns a :class:`~calabrasella.View`
into a flat vector of floats laid out as :data:`OBSERVATION_LAYOUT` says
(:func:`observation_layout` gives each part's slice); seats are absolute
(0 to 3; a three-seat table leaves seat 3's entries at zero).

Example:
    >>> import calabrasella as cb
    >>> from calabrasella import encoding
    >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
    >>> view = state.view(state.to_move)
    >>> [encoding.action_id(a) for a in view.legal_actions]
    [0, 2]
    >>> encoding.action_of(2, view)
    Bid(contract=<Contract.STAND: 'stand'>)
    >>> mask = encoding.legal_mask(view)
    >>> len(mask), sum(mask)
    (208, 2)
    >>> len(encoding.observation(view)) == encoding.OBSERVATION_SIZE
    True
"""

from __future__ import annotations

from array import array as _floats
from typing import Any, Union

from ._tricks import winning_play
from .actions import (
    BIDS,
    CALLS,
    DISCARDS,
    DONE,
    GIVE_BACKS,
    PASS,
    PLAYS,
    RAISES,
    REVOKES,
    TAKES,
    Abandon,
    Action,
    Bid,
    Call,
    Contract,
    CustomAction,
    Discard,
    Done,
    Draw,
    GiveBack,
    Modifier,
    OutOfTurn,
    Pass,
    Play,
    Raise,
    Revoke,
    Take,
    TurnStock,
)
from .cards import DECK, Card, CardSet, Suit
from .errors import IllegalActionError, StateError
from .phases import Phase
from .rulesets.base import PLAY_FREE, PLAY_TABLE, Ruleset
from .state import State
from .views import Hidden, View

__all__ = [
    "NUM_REGULAR_ACTIONS",
    "NUM_TABLE_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "action_at",
    "action_id",
    "action_of",
    "cards_played",
    "known_voids",
    "legal_ids",
    "legal_mask",
    "num_actions",
    "observation",
    "observation_layout",
    "partner",
    "tricks_left",
    "unseen_cards",
    "winning_seat",
]


_CONTRACTS = tuple(Contract)
_MODIFIERS = tuple(Modifier)
_PHASES = tuple(Phase)

_CALL, _GIVE_BACK, _DISCARD, _TAKE, _PLAY = 8, 48, 88, 128, 168
_REVOKE, _TURN_STOCK, _ABANDON, _OUT_OF_TURN = 208, 248, 252, 253
#: The size of the action space of a ruleset that forbids irregularities.
NUM_REGULAR_ACTIONS = 208
#: The size of the action space in table mode (``irregularities="record"``).
NUM_TABLE_ACTIONS = 413

_ABANDON_ACTION = Abandon()
_TURN_STOCKS = tuple(TurnStock(s) for s in range(4))
_OUT_OF_TURNS = tuple(OutOfTurn(s, c) for s in range(4) for c in DECK)

#: Every action by id (the shared instances where the engine has them).
_BY_ID: tuple[Action, ...] = (
    PASS,
    DONE,
    *(BIDS[c] for c in _CONTRACTS),
    *(RAISES[m] for m in _MODIFIERS),
    *CALLS,
    *GIVE_BACKS,
    *DISCARDS,
    *TAKES,
    *PLAYS,
    *REVOKES,
    *_TURN_STOCKS,
    _ABANDON_ACTION,
    *_OUT_OF_TURNS,
)
assert len(_BY_ID) == NUM_TABLE_ACTIONS

_CARD_BASES: dict[type, int] = {
    Call: _CALL,
    GiveBack: _GIVE_BACK,
    Discard: _DISCARD,
    Take: _TAKE,
    Play: _PLAY,
    Revoke: _REVOKE,
}
_CONTRACT_IDS = {c: 2 + i for i, c in enumerate(_CONTRACTS)}
_MODIFIER_IDS = {m: 6 + i for i, m in enumerate(_MODIFIERS)}


def num_actions(rules: Ruleset) -> int:
    """Return the size of ``rules``' action space: 208, or 413 in table mode.

    Example:
        >>> import attrs, calabrasella as cb
        >>> num_actions(cb.CALABRESELLA), num_actions(attrs.evolve(cb.CAVENDISH, irregularities="record"))
        (208, 413)
    """
    return NUM_TABLE_ACTIONS if rules._play == PLAY_TABLE else NUM_REGULAR_ACTIONS


def action_id(action: Action) -> int:
    """Return the fixed id of a player's action (see the module's table).

    Raises:
        IllegalActionError: ``action`` is a chance outcome (:class:`Draw`), a
            variant's own kind (:class:`CustomAction`) or not an action.

    Example:
        >>> import calabrasella as cb
        >>> action_id(cb.Play("3d")), action_id(cb.Play("4c")), action_id(cb.Bid("solo"))
        (168, 207, 4)
    """
    cls = action.__class__
    base = _CARD_BASES.get(cls)
    if base is not None:
        return base + action.card.index  # type: ignore[union-attr]
    if cls is Pass:
        return 0
    if cls is Done:
        return 1
    if cls is Bid:
        return _CONTRACT_IDS[action.contract]  # type: ignore[union-attr]
    if cls is Raise:
        return _MODIFIER_IDS[action.modifier]  # type: ignore[union-attr]
    if cls is TurnStock:
        return _TURN_STOCK + action.seat  # type: ignore[union-attr]
    if cls is Abandon:
        return _ABANDON
    if cls is OutOfTurn:
        return _OUT_OF_TURN + 40 * action.seat + action.card.index  # type: ignore[union-attr]
    if cls is Draw:
        raise IllegalActionError(
            action, "a chance outcome, not a player's action: it has no action id"
        )
    if isinstance(action, CustomAction):
        raise IllegalActionError(
            action,
            f"a variant's own kind of action ({type(action).kind!r}) has no action id: "
            "the fixed action space numbers the built-in actions only",
        )
    raise IllegalActionError(action, "not an action: it has no action id")


def action_at(action_id: int) -> Action:
    """Return the action numbered ``action_id``, legal anywhere or not (for display).

    Raises:
        IllegalActionError: ``action_id`` is not an id (0 to 412).

    Example:
        >>> action_at(168), action_at(252)
        (Play(card=Card.parse('3d')), Abandon())
    """
    if type(action_id) is not int or not 0 <= action_id < NUM_TABLE_ACTIONS:
        raise IllegalActionError(action_id, f"not an action id (0 to {NUM_TABLE_ACTIONS - 1})")
    return _BY_ID[action_id]


def _legal(state_or_view: Union[State, View]) -> tuple[Action, ...]:
    if isinstance(state_or_view, View):
        return state_or_view.legal_actions
    if isinstance(state_or_view, State):
        return state_or_view.legal_actions()
    raise StateError(f"expected a State or a View, not {state_or_view!r}")


def _rules(state_or_view: Union[State, View]) -> Ruleset:
    return state_or_view.rules


def action_of(action_id: int, state_or_view: Union[State, View]) -> Action:
    """Return the legal action numbered ``action_id`` in a state or a view.

    The inverse of :func:`action_id` over the legal actions: the action
    returned is the one ``legal_actions`` lists (the same instance).

    Raises:
        IllegalActionError: ``action_id`` is not an id of the ruleset's action
            space, or its action is not legal there.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CALABRESELLA, seed=3).view(1)
        >>> action_of(0, view)
        Pass()
        >>> action_of(168, view)
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action 168: action id 168 (play 3d) is not legal here
    """
    if type(action_id) is not int:
        try:
            action_id = int(action_id.__index__())  # a NumPy integer, say
        except (AttributeError, TypeError):
            raise IllegalActionError(action_id, "not an action id (an int)") from None
    size = num_actions(_rules(state_or_view))
    if not 0 <= action_id < size:
        raise IllegalActionError(action_id, f"not an action id of this ruleset (0 to {size - 1})")
    wanted = _BY_ID[action_id]
    for action in _legal(state_or_view):
        if action == wanted:
            return action
    raise IllegalActionError(action_id, f"action id {action_id} ({wanted}) is not legal here")


def legal_ids(state_or_view: Union[State, View]) -> list[int]:
    """Return the ids of the legal actions, in ``legal_actions``' order.

    Raises:
        IllegalActionError: A legal action has no id (a variant's own kind, or
            the state is a chance node: its outcomes are no player's).
    """
    return [action_id(a) for a in _legal(state_or_view)]


def legal_mask(state_or_view: Union[State, View], *, numpy: bool = False) -> Any:
    """Return a 0/1 vector over the action space: 1 where the action is legal.

    A list of ints, or with ``numpy=True`` a NumPy ``int8`` array. Given a
    view, the seat's own legal actions (none when it is not to act); given a
    state, every legal action (in table mode, every seat's irregular ones too).

    Raises:
        IllegalActionError: As :func:`legal_ids`.
        ImportError: ``numpy=True`` and NumPy is not installed.
    """
    size = num_actions(_rules(state_or_view))
    ids = legal_ids(state_or_view)
    if numpy:
        import numpy as np

        array = np.zeros(size, dtype=np.int8)
        array[ids] = 1
        return array
    mask = [0] * size
    for i in ids:
        mask[i] = 1
    return mask


# --- View helpers -------------------------------------------------------------------


def _in_play(view: View) -> tuple[int, ...]:
    """The seats that play (a four-seat table's dealer sits out)."""
    d, n = view.dealer, view.rules.players
    return ((d + 1) % n, (d + 2) % n, (d + 3) % n)


def _plays(view: View) -> list[tuple[int, int, bool]]:
    """Every card played to a trick, in order: (seat, card index, whether a revoke)."""
    out = []
    for seat, action in view.history:
        cls = action.__class__
        if cls is Play or cls is Revoke:
            out.append((seat, action.card.index, cls is Revoke))  # type: ignore[union-attr]
    return out


def cards_played(view: View) -> tuple[CardSet, ...]:
    """Return the cards each seat played to tricks so far, the current trick included.

    Example:
        >>> import calabrasella as cb
        >>> cards_played(cb.new_deal(cb.CAVENDISH, seed=7).view(0))
        (CardSet.parse(''), CardSet.parse(''), CardSet.parse(''))
    """
    masks = [0] * view.rules.players
    for seat, card, _ in _plays(view):
        masks[seat] |= 1 << card
    return tuple(CardSet(m) for m in masks)


def known_voids(view: View) -> tuple[frozenset[Suit], ...]:
    """Return, for each seat, the suits it is known to lack.

    A seat that played off the suit led (a :class:`Play`, not a recorded
    revoke) where the rules make it follow suit holds no card of that suit.
    Under ``follow_suit=False`` nothing is known this way: every set is empty.
    """
    voids: list[set[Suit]] = [set() for _ in range(view.rules.players)]
    if view.rules._play == PLAY_FREE:
        return tuple(frozenset(v) for v in voids)
    led = -1
    for i, (seat, card, revoke) in enumerate(_plays(view)):
        if i % 3 == 0:
            led = card // 10
        elif card // 10 != led and not revoke:
            voids[seat].add(Suit(led))
    return tuple(frozenset(v) for v in voids)


def unseen_cards(view: View) -> CardSet:
    """Return the cards this seat has not seen: every card it never held or saw face up.

    Seen are its hand, the cards played, the stock cards shown to all (and
    the final stock), its own discards and draws, the card given back if it
    saw it, and every card named by a face-up exchange action in its history
    except a call (a call names a card without showing it).

    Example:
        >>> import calabrasella as cb
        >>> len(unseen_cards(cb.new_deal(cb.CAVENDISH, seed=7).view(0)))
        28
    """
    seen = view.hand.mask | view.exposed.mask | view.discards.mask | view.drawn.mask
    if view.given_back is not None:
        seen |= 1 << view.given_back.index
    if view.final_stock is not None:
        seen |= view.final_stock.mask
    for _, action in view.history:
        cls = action.__class__
        if cls is Hidden or cls is Call:
            continue
        card = getattr(action, "card", None)
        if card is not None and card.__class__ is Card:
            seen |= 1 << card.index
        elif cls is Draw:
            seen |= action.cards.mask  # type: ignore[union-attr]
    return CardSet(((1 << 40) - 1) & ~seen)


def winning_seat(view: View) -> int | None:
    """Return the seat whose card is winning the current trick (``None`` with no card in it)."""
    trick = view.trick
    if not trick:
        return None
    return trick[winning_play([card.index for _, card in trick])][0]


def partner(view: View, seat: int | None = None) -> int | None:
    """Return the partner of ``seat`` (the view's own seat by default).

    The two adversaries of the declarer play together: each one's partner is
    the other. The declarer, a seat sitting out, and everyone before the
    declarer is known, have none (``None``).
    """
    seat = view.seat if seat is None else seat
    declarer = view.declarer
    if declarer is None or seat == declarer:
        return None
    others = [s for s in _in_play(view) if s not in (seat, declarer)]
    return others[0] if len(others) == 1 else None


def tricks_left(view: View) -> int:
    """Return how many tricks are still to complete (the current one included).

    Before the play, all of them: the cards each seat will hold when it
    begins (``rules.play_sizes``); none once the deal is over.
    """
    phase = view.phase
    if phase is Phase.OVER:
        return 0
    if phase is Phase.PLAYING:
        sizes = view.hand_sizes
        return max(sizes[s] for s in _in_play(view))
    contract = view.contract if view.contract is not None else view.rules.contracts[0]
    return view.rules.play_sizes(contract, view.modifier)[0]


# --- observations ---------------------------------------------------------------

#: The parts of an observation, in order: (name, size, meaning). Seats are
#: absolute (0 to 3), cards by :attr:`Card.index`, counts as plain numbers; the
#: parts made of cards (40 entries each, 1.0 where the card is) come last.
OBSERVATION_LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("phase", len(_PHASES), "one-hot Phase (bidding ... over)"),
    ("seat", 4, "one-hot: whose view this is"),
    ("dealer", 4, "one-hot: the dealer"),
    ("to_move", 4, "one-hot: the seat to act (all zero at chance and at the end)"),
    ("declarer", 4, "one-hot: the declarer, once known"),
    ("partner", 4, "one-hot: this seat's partner, if it has one"),
    ("giver", 4, "one-hot: the seat that gave the called card"),
    ("contract", len(_CONTRACTS), "one-hot: stand, chiamo, solo, solissimo"),
    ("modifier", len(_MODIFIERS), "one-hot: dividete, scegliete"),
    ("stake", 1, "the multiplier so far: Calabresella's stake of the contract (1 to 16), 1 for Cavendish, 0 before a contract"),
    ("hand_sizes", 4, "how many cards each seat holds"),
    ("stock_size", 1, "how many cards the stock holds"),
    ("leader", 4, "one-hot: the seat that led the current trick"),
    ("winning", 4, "one-hot: the seat winning the current trick"),
    ("voids", 16, "known voids: 4 suits per seat, seat 0 first (suits in the order of Suit: coins, cups, swords, batons)"),
    ("tricks_won", 4, "tricks won by each seat"),
    ("card_units_won", 4, "card units in each seat's tricks"),
    ("tricks_left", 1, "tricks still to complete"),
    ("hand", 40, "this seat's cards"),
    ("called", 40, "the card called or asked for"),
    ("given_back", 40, "the card given back, if this seat saw it"),
    ("exposed", 40, "the stock cards shown to every seat"),
    ("discards", 40, "this seat's own discards"),
    ("drawn", 40, "the cards this seat drew unseen"),
    ("played", 160, "cards played to tricks by each seat: 40 per seat, seat 0 first"),
    ("trick", 160, "the current trick: the card each seat played to it, 40 per seat"),
    ("unseen", 40, "cards this seat has not seen (see unseen_cards)"),
    ("final_stock", 40, "the stock shown at the end of the deal"),
)

OBSERVATION_SIZE: int = sum(size for _, size, _ in OBSERVATION_LAYOUT)


def _offsets() -> dict[str, slice]:
    out = {}
    at = 0
    for name, size, _ in OBSERVATION_LAYOUT:
        out[name] = slice(at, at + size)
        at += size
    return out


_SLICES = _offsets()
_HEADER = _SLICES["hand"].start  # the parts before the cards
_AT = {name: part.start for name, part in _SLICES.items()}
(_SEAT, _DEALER, _TO_MOVE, _DECLARER, _PARTNER, _GIVER, _CONTRACT, _MODIFIER, _STAKE,
 _HAND_SIZES, _STOCK_SIZE, _LEADER, _WINNING, _VOIDS, _TRICKS_WON, _UNITS_WON,
 _TRICKS_LEFT) = (_AT[name] for name in (
    "seat", "dealer", "to_move", "declarer", "partner", "giver", "contract", "modifier",
    "stake", "hand_sizes", "stock_size", "leader", "winning", "voids", "tricks_won",
    "card_units_won", "tricks_left"))  # fmt: skip
_PHASE_INDEX = {phase: i for i, phase in enumerate(_PHASES)}
_CONTRACT_INDEX = {c: i for i, c in enumerate(_CONTRACTS)}
_MODIFIER_INDEX = {m: i for i, m in enumerate(_MODIFIERS)}
#: Each byte's eight bits as floats, lowest first: the card parts are written bytewise.
_BYTE_FLOATS = tuple(tuple(float(b >> i & 1) for i in range(8)) for b in range(256))


def observation_layout() -> dict[str, slice]:
    """Return each part of an observation and its slice of the vector.

    Example:
        >>> observation_layout()["phase"]
        slice(0, 9, None)
    """
    return dict(_SLICES)


def _scan(view: View) -> tuple[list[int], list[int], int]:
    """One pass over the history: each seat's played cards, its known voids (a 4-bit
    mask per seat) and the cards seen face up in the history."""
    n = view.rules.players
    played = [0] * n
    voids = [0] * n
    seen = 0
    follow = view.rules._play != PLAY_FREE
    count = 0
    led = -1
    for seat, action in view.history:
        cls = action.__class__
        if cls is Play or cls is Revoke:
            card = action.card.index  # type: ignore[union-attr]
            played[seat] |= 1 << card
            if count % 3 == 0:
                led = card // 10
            elif follow and cls is Play and card // 10 != led:
                voids[seat] |= 1 << led
            count += 1
        elif cls is Hidden or cls is Call:
            continue
        elif cls is Draw:
            seen |= action.cards.mask  # type: ignore[union-attr]
        else:
            card_ = getattr(action, "card", None)
            if card_ is not None and card_.__class__ is Card:
                seen |= 1 << card_.index
    return played, voids, seen


def observation(view: View, *, numpy: bool = False) -> Any:
    """Return the view as a flat vector laid out as :data:`OBSERVATION_LAYOUT` says.

    Built from the view alone, so worlds the seat cannot tell apart give
    equal vectors. A list of floats, or with ``numpy=True`` a NumPy
    ``float32`` array.

    Raises:
        ImportError: ``numpy=True`` and NumPy is not installed.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> obs = observation(view)
        >>> sum(obs[observation_layout()["hand"]])
        12.0
    """
    out = [0.0] * _HEADER
    rules = view.rules
    out[_PHASE_INDEX[view.phase]] = 1.0
    out[_SEAT + view.seat] = 1.0
    out[_DEALER + view.dealer] = 1.0
    if view.to_move is not None:
        out[_TO_MOVE + view.to_move] = 1.0
    declarer = view.declarer
    if declarer is not None:
        out[_DECLARER + declarer] = 1.0
        mate = partner(view)
        if mate is not None:
            out[_PARTNER + mate] = 1.0
    if view.giver is not None:
        out[_GIVER + view.giver] = 1.0
    contract = view.contract
    if contract is not None:
        out[_CONTRACT + _CONTRACT_INDEX[contract]] = 1.0
        stake = getattr(rules, "stake", None)
        out[_STAKE] = float(stake(contract, view.modifier)) if stake else 1.0
    if view.modifier is not None:
        out[_MODIFIER + _MODIFIER_INDEX[view.modifier]] = 1.0
    sizes = view.hand_sizes
    out[_HAND_SIZES : _HAND_SIZES + len(sizes)] = sizes
    out[_STOCK_SIZE] = view.stock_size
    trick = view.trick
    trick_masks = [0, 0, 0, 0]
    if trick:
        out[_LEADER + view.leader] = 1.0
        best_seat, best = trick[0]
        for seat, card in trick:
            trick_masks[seat] = 1 << card.index
            if card.beats(best):
                best_seat, best = seat, card
        out[_WINNING + best_seat] = 1.0
    played, voids, seen = _scan(view)
    for seat, suits in enumerate(voids):
        if suits:
            for suit in range(4):
                if suits >> suit & 1:
                    out[_VOIDS + 4 * seat + suit] = 1.0
    won = view.tricks_won
    out[_TRICKS_WON : _TRICKS_WON + len(won)] = won
    units = view.card_units_won
    out[_UNITS_WON : _UNITS_WON + len(units)] = units
    out[_TRICKS_LEFT] = tricks_left(view)
    hand = view.hand.mask
    called = 0 if view.called is None else 1 << view.called.index
    given_back = 0 if view.given_back is None else 1 << view.given_back.index
    final = 0 if view.final_stock is None else view.final_stock.mask
    exposed, discards, drawn = view.exposed.mask, view.discards.mask, view.drawn.mask
    seen |= hand | exposed | discards | drawn | given_back | final
    for m in played:
        seen |= m
    played += [0] * (4 - len(played))
    masks = (
        hand, called, given_back, exposed, discards, drawn, *played, *trick_masks,
        _ALL & ~seen, final,
    )  # fmt: skip
    bits = b"".join([m.to_bytes(5, "little") for m in masks])
    if numpy:
        import numpy as np

        array = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        array[:_HEADER] = np.frombuffer(_floats("f", out).tobytes(), dtype=np.float32)
        array[_HEADER:] = np.unpackbits(np.frombuffer(bits, dtype=np.uint8), bitorder="little")
        return array
    out = [float(x) for x in out]  # (counts were set as ints)
    table = _BYTE_FLOATS
    for b in bits:
        out += table[b]
    return out


_ALL = (1 << 40) - 1
