"""The pure functions of the game: deal, list legal actions, apply one.

Nothing here mutates anything or draws a random number: a deal comes from a
seed, a :class:`random.Random` you pass, or cards you give; dividete's unseen
draw is a chance node whose outcome you pass to :func:`apply` (or draw with
:func:`sample_chance`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any, Callable, Union

from . import _bits
from .actions import (
    BIDS,
    CALLS,
    DISCARDS,
    DONE,
    GIVE_BACKS,
    PASS,
    PLAYS,
    RAISES,
    TAKES,
    Action,
    Bid,
    Call,
    Contract,
    Discard,
    Done,
    Draw,
    GiveBack,
    Pass,
    Play,
    Raise,
    Take,
)
from .cards import DECK, CardLike, CardSet, _cardset
from .errors import IllegalActionError, RecordError, RulesetError, StateError
from .rulesets.base import (
    CallStep,
    DiscardStep,
    DrawStep,
    ExposeStep,
    GiveBackStep,
    RaiseStep,
    Role,
    Ruleset,
    TakeStep,
)
from .scoring import Result, Tally
from .state import Deal, Exchange, Phase, State, _make_exchange, _trusted_deal
from .views import View

__all__ = [
    "apply",
    "chance_outcomes",
    "check",
    "deal_from",
    "is_legal",
    "legal_actions",
    "new_deal",
    "sample_chance",
    "shuffled_deal",
]

_UNITS = _bits.UNITS
_PLAYING = Phase.PLAYING
_tuple_new = tuple.__new__
_SUIT_MASKS = _bits.SUIT_MASKS
_indices = _bits.indices

# Play actions for every within-suit 10-bit mask, per suit: legal_actions in
# the play is one or four tuple lookups.
_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[10 * s + p] for p in range(10) if m >> p & 1) for m in range(1024))
    for s in range(4)
)


_SUIT_TABLES: dict[int, list[tuple[Action, ...]]] = {}


def _card_actions(table: tuple[Action, ...], mask: int) -> tuple[Action, ...]:
    """Return ``table[i]`` for every card ``i`` in ``mask``, in card order.

    The tuples for each suit's 1,024 possible holdings are built the first
    time a table is used, so this is four list lookups.
    """
    parts = _SUIT_TABLES.get(id(table))
    if parts is None:
        parts = _SUIT_TABLES[id(table)] = [
            tuple(table[10 * s + p] for p in range(10) if m >> p & 1)
            for s in range(4)
            for m in range(1024)
        ]
    return (
        parts[mask & 1023]
        + parts[1024 + (mask >> 10 & 1023)]
        + parts[2048 + (mask >> 20 & 1023)]
        + parts[3072 + (mask >> 30 & 1023)]
    )


# --- dealing ---------------------------------------------------------------


def shuffled_deal(
    rules: Ruleset, *, dealer: int = 0, seed: Union[int, random.Random]
) -> Deal:
    """Shuffle the pack with ``seed`` and deal it in packets (the chance of a deal).

    The pack in canonical order is shuffled with ``random.Random(seed)`` (or
    the ``random.Random`` given, which advances), then dealt in packets of
    ``rules.packet`` to the active seats in turn order from the eldest hand
    until each has twelve; the last four cards are the stock. The same seed
    gives the same deal on every machine.

    Raises:
        RecordError: ``dealer`` is not a seat, or ``seed`` is neither an int
            nor a ``random.Random``.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, dealer=2, seed=1)
        >>> d.eldest, [len(h) for h in d.hands], len(d.stock)
        (0, [12, 12, 12], 4)
    """
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"not a ruleset: {rules!r}")
    if isinstance(seed, random.Random):
        rng = seed
    elif type(seed) is int:
        rng = random.Random(seed)
    else:
        raise RecordError(f"seed={seed!r}: expected an int or a random.Random")
    n = rules.players
    if type(dealer) is not int or not 0 <= dealer < n:
        raise RecordError(f"dealer={dealer!r}: expected a seat 0..{n - 1}")
    pack = list(range(40))
    rng.shuffle(pack)
    bit = _BIT
    hands = tuple(
        sum([bit[pack[i]] for i in places]) for places in _deal_places(dealer, n, rules.packet)
    )
    stock = bit[pack[36]] | bit[pack[37]] | bit[pack[38]] | bit[pack[39]]
    return _trusted_deal(dealer, hands, stock)


_BIT = tuple(1 << i for i in range(40))
_PLACES: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}


def _deal_places(dealer: int, players: int, packet: int) -> tuple[tuple[int, ...], ...]:
    """Return, for each seat, the positions of the shuffled pack dealt to it."""
    key = (dealer, players, packet)
    places = _PLACES.get(key)
    if places is None:
        order = [(dealer + k) % players for k in range(1, 4)]
        lists: list[list[int]] = [[] for _ in range(players)]
        pos = 0
        for _ in range(12 // packet):
            for seat in order:
                lists[seat].extend(range(pos, pos + packet))
                pos += packet
        places = _PLACES[key] = tuple(tuple(p) for p in lists)
    return places


def new_deal(rules: Ruleset, *, dealer: int = 0, seed: Union[int, random.Random]) -> State:
    """Return the first state of a deal shuffled from ``seed`` (see :func:`shuffled_deal`).

    Raises:
        RecordError: ``dealer`` is not a seat, or ``seed`` is neither an int
            nor a ``random.Random``.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> cb.new_deal(cb.CAVENDISH, dealer=0, seed=7) == cb.new_deal(cb.CAVENDISH, seed=7)
        True
    """
    return start(rules, shuffled_deal(rules, dealer=dealer, seed=seed))


def deal_from(
    rules: Ruleset,
    hands: Sequence[Union[CardSet, str, Iterable[CardLike]]],
    stock: Union[CardSet, str, Iterable[CardLike]],
    *,
    dealer: int = 0,
) -> State:
    """Return the first state of a deal with the given hands and stock.

    ``hands`` has one entry per seat (``rules.players`` of them; the
    sitting-out dealer's is empty), each a :class:`CardSet`, a string of card
    codes or an iterable of cards.

    Raises:
        RecordError: The cards are not a deal: not 40 distinct cards, not
            twelve to each player and four to the stock, or the wrong number
            of hands for the table.
        NotationError: Some text names no card.
        RulesetError: ``rules`` is not a ruleset.

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, seed=3)
        >>> cb.deal_from(cb.CAVENDISH, d.hands, d.stock) == cb.new_deal(cb.CAVENDISH, seed=3)
        True
    """
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"not a ruleset: {rules!r}")
    if isinstance(hands, (str, CardSet)) or not isinstance(hands, Sequence):
        raise RecordError(f"hands={hands!r}: expected one hand per seat")
    sets = tuple(_as_cardset(h) for h in hands)
    if len(sets) != rules.players:
        raise RecordError(f"{len(sets)} hands given for a table of {rules.players}")
    return start(rules, Deal(dealer, sets, _as_cardset(stock)))


def _as_cardset(cards: Union[CardSet, str, Iterable[CardLike]]) -> CardSet:
    if isinstance(cards, CardSet):
        return cards
    if isinstance(cards, str):
        return CardSet.parse(cards)
    try:
        items = list(cards)
    except TypeError:
        raise RecordError(f"not a collection of cards: {cards!r}") from None
    result = CardSet.of(items)
    if len(result) != len(items):
        raise RecordError(f"cards dealt twice in {[str(c) for c in items]}")
    return result


def start(rules: Ruleset, deal: Deal) -> State:
    """Return the first state (the auction) of ``deal`` under ``rules``.

    Raises:
        RulesetError: ``rules`` is not a ruleset, or it seats another number
            of players than the deal has hands.
    """
    if not isinstance(rules, Ruleset):
        raise RulesetError(f"not a ruleset: {rules!r}")
    n = len(deal.hands)
    if n != rules.players:
        raise RulesetError(f"the deal has {n} hands but {rules.name} seats {rules.players}")
    turn = rules.bidding_turn(deal.order, ())
    if turn is None:  # pragma: no cover - a ruleset must let someone speak
        raise RulesetError(f"{rules.name}: nobody may speak in the auction")
    zeros = (0,) * n
    return State(
        rules,
        deal,
        Phase.BIDDING,
        turn[0],
        tuple([h.mask for h in deal.hands]),
        deal.stock.mask,
        None,
        (),
        turn[0],
        zeros,
        zeros,
        (),
        None,
    )


# --- legal actions -----------------------------------------------------------


def legal_actions(state: State | View) -> tuple[Action, ...]:
    """Return the legal actions in ``state``, in a fixed order.

    The order: a "no" (``Pass``, ``Done``) first when allowed, then bids from
    the lowest, raises dividete then scegliete, cards in canonical order
    (suit by suit, coins first, the strongest rank first), and chance
    outcomes by their cards. At a chance node the actions are the possible
    outcomes, equally likely; when the deal is over there are none. Given a
    :class:`View`, it returns the view's own ``legal_actions``.

    Raises:
        StateError: ``state`` is neither a :class:`State` nor a :class:`View`.

    Example:
        >>> import calabrasella as cb
        >>> cb.legal_actions(cb.new_deal(cb.CAVENDISH, seed=7))
        (Pass(), Bid(contract=<Contract.STAND: 'stand'>))
    """
    if not isinstance(state, State):
        if isinstance(state, View):
            return state.legal_actions
        raise _not_a_state(state)
    if state.phase is _PLAYING:
        hand = state.hand_masks[state.to_move]  # type: ignore[index]
        trick = state.trick_cards
        if trick:
            suit = trick[0] // 10
            in_suit = hand >> (10 * suit) & 1023
            if in_suit:
                return _SUIT_PLAYS[suit][in_suit]
        sp = _SUIT_PLAYS
        return (
            sp[0][hand & 1023]
            + sp[1][hand >> 10 & 1023]
            + sp[2][hand >> 20 & 1023]
            + sp[3][hand >> 30]
        )
    return _LEGAL[state.phase](state)


def _legal_bidding(state: State) -> tuple[Action, ...]:
    turn = state.rules.bidding_turn(state.deal.order, _calls(state))
    assert turn is not None
    return (PASS, *(BIDS[c] for c in sorted(turn[1], key=lambda c: c.level)))


def _legal_calling(state: State) -> tuple[Action, ...]:
    return _card_actions(CALLS, _callable(state))


def _legal_giving_back(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None
    hand = state.hand_masks[ex.declarer] & ~(1 << ex.called if ex.called >= 0 else 0)
    return _card_actions(GIVE_BACKS, hand)


def _legal_discarding(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None and state.to_move is not None
    low, _ = _discard_bounds(state, ex)
    cards = _card_actions(DISCARDS, state.hand_masks[state.to_move])
    return (DONE, *cards) if ex.count >= low else cards


def _legal_taking(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, TakeStep)
    cards = _card_actions(TAKES, state.stock_mask & ~_laid_down(ex.discards))
    return (DONE, *cards) if step.count == "any" else cards


def _legal_raising(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, RaiseStep)
    return (PASS, *(RAISES[m] for m in step.choices))


def _legal_drawing(state: State) -> tuple[Action, ...]:
    return tuple(Draw(CardSet(m)) for m in _draw_masks(state))


def _legal_over(state: State) -> tuple[Action, ...]:
    return ()


def _draw_masks(state: State) -> list[int]:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, DrawStep)
    masks = [sum(1 << i for i in combo) for combo in combinations(_indices(state.stock_mask), step.count)]
    return sorted(masks)


# --- applying ----------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """Return the state after ``action``; ``state`` itself never changes.

    Raises:
        IllegalActionError: ``action`` is not legal in ``state`` (or is not
            an action at all); the message names it and says why.
        StateError: ``state`` is not a :class:`State` (a view, say).

    Example:
        >>> import calabrasella as cb
        >>> s0 = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> s1 = cb.apply(s0, cb.Pass())
        >>> s0.to_move, s1.to_move, len(s0.history), len(s1.history)
        (1, 2, 0, 1)
    """
    try:
        return _APPLY[state.phase](state, action)
    except (AttributeError, TypeError, IndexError):
        if state.__class__ is not State:
            raise _not_a_state(state) from None
        raise


def _not_a_state(obj: object) -> StateError:
    if obj.__class__.__name__ == "View":
        return StateError("a View is what a seat may know, not a state: apply needs the State")
    return StateError(f"not a state: {obj!r}")


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` if ``action`` is not legal in ``state``.

    Raises:
        IllegalActionError: ``action`` is not legal; the message says why.

    Example:
        >>> import calabrasella as cb
        >>> cb.check(cb.new_deal(cb.CAVENDISH, seed=7), cb.Play(cb.Card.parse("Ad")))
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action Play(card=Card.parse('Ad')): seat 1 is to bid or pass, not to play a card
    """
    apply(state, action)


def is_legal(state: State, action: Action) -> bool:
    """Tell whether ``action`` is legal in ``state``.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.is_legal(s, cb.Pass()), cb.is_legal(s, cb.Done())
        (True, False)
    """
    try:
        apply(state, action)
    except (IllegalActionError, StateError):
        return False
    return True


def _wrong_kind(state: State, action: object, expected: str) -> IllegalActionError:
    who = "chance" if state.to_move is None else f"seat {state.to_move}"
    if state.phase == Phase.OVER:
        return IllegalActionError(action, "the deal is over")
    return IllegalActionError(action, f"{who} is to {expected}, not to {_describe(action)}")


def _describe(action: object) -> str:
    names = {
        Pass: "pass",
        Done: "stop",
        Bid: "bid",
        Raise: "raise",
        Call: "call a card",
        GiveBack: "give back a card",
        Discard: "discard",
        Take: "take a card",
        Play: "play a card",
        Draw: "draw cards",
    }
    return names.get(type(action), f"do {type(action).__name__!r} (not an action)")


def _push(state: State, seat: int, action: Action) -> tuple[tuple[int, Action], ...]:
    return state.history + ((seat, action),)


def _calls(state: State) -> tuple[tuple[int, Contract | None], ...]:
    return tuple(
        (seat, action.contract if type(action) is Bid else None)
        for seat, action in state.history
    )


# The exchange handlers copy the state's and the exchange's field dicts once,
# change the copies, and make one new state at the end: the input is never
# touched, and no intermediate states are built.

_Fields = dict[str, Any]
_Slots = list[Any]  # a state's fields, in order, while an action is applied
(
    _RULES,
    _DEAL,
    _PHASE,
    _TO_MOVE,
    _HANDS,
    _STOCK,
    _EXCHANGE,
    _TRICK,
    _LEADER,
    _UNITS_WON,
    _TRICKS_WON,
    _HISTORY,
    _RESULT,
) = range(13)
assert State._fields[_STOCK] == "stock_mask" and State._fields[_HISTORY] == "history"


def _open(state: State) -> tuple[_Slots, _Fields, list[int]]:
    assert state.exchange is not None
    xd = state.exchange.__dict__.copy()
    xd.pop("_view_memo", None)
    return list(state), xd, list(state.hand_masks)


def _close(sd: _Slots, xd: _Fields, hands: list[int]) -> State:
    sd[_HANDS] = tuple(hands)
    sd[_EXCHANGE] = _make_exchange(xd)
    return _tuple_new(State, sd)


def _role_seat(role: Role, order: tuple[int, ...], declarer: int) -> int:
    if role is Role.DECLARER:
        return declarer
    i = order.index(declarer)
    return order[(i + 1) % 3] if role is Role.FIRST else order[(i + 2) % 3]


def _callable_mask(rules: Ruleset, hand: int, contract: Contract) -> int:
    return rules.callable_cards(_cardset(hand), contract).mask & ~hand & _bits.FULL


def _callable(state: State) -> int:
    ex = state.exchange
    assert ex is not None
    return _callable_mask(state.rules, state.hand_masks[ex.declarer], ex.contract)


def _discard_bounds(state: State, ex: Exchange) -> tuple[int, int]:
    step = ex.plan[ex.step]
    assert isinstance(step, DiscardStep)
    if step.as_taken:
        n = ex.taken[state.to_move].bit_count()  # type: ignore[index]
        return n, n
    return step.min_count, step.max_count


def _laid_down(discards: tuple[int, ...]) -> int:
    """Return every card discarded so far: face down in the stock, never shown or taken."""
    mask = 0
    for m in discards:
        mask |= m
    return mask


def _replace(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _advance(sd: _Slots, xd: _Fields, hands: list[int]) -> None:
    """Run the exchange plan from step ``xd["step"]`` until a decision is due, or start play."""
    plan = xd["plan"]
    rules: Ruleset = sd[_RULES]
    order = sd[_DEAL].order
    declarer = xd["declarer"]
    i = xd["step"]
    xd["count"] = 0
    while i < len(plan):
        step = plan[i]
        kind = step.__class__
        xd["step"] = i
        if kind is CallStep:
            if _callable_mask(rules, hands[declarer], xd["contract"]):
                sd[_PHASE], sd[_TO_MOVE] = Phase.CALLING, declarer
                return
        elif kind is GiveBackStep:
            if xd["giver"] >= 0:
                sd[_PHASE], sd[_TO_MOVE] = Phase.GIVING_BACK, declarer
                return
        elif kind is DiscardStep:
            seat = _role_seat(step.role, order, declarer)
            if not step.as_taken or xd["taken"][seat]:
                sd[_PHASE], sd[_TO_MOVE] = Phase.DISCARDING, seat
                return
        elif kind is ExposeStep:
            xd["exposed"] |= sd[_STOCK] & ~_laid_down(xd["discards"])
        elif kind is TakeStep:
            seat = _role_seat(step.role, order, declarer)
            takeable = sd[_STOCK] & ~_laid_down(xd["discards"])
            if step.count == "all":
                hands[seat] |= takeable
                xd["taken"] = _replace(xd["taken"], seat, xd["taken"][seat] | takeable)
                sd[_STOCK] &= ~takeable
            elif takeable:
                sd[_PHASE], sd[_TO_MOVE] = Phase.TAKING, seat
                return
        elif kind is RaiseStep:
            sd[_PHASE], sd[_TO_MOVE] = Phase.RAISING, declarer
            return
        elif kind is DrawStep:
            seat = _role_seat(step.role, order, declarer)
            stock = sd[_STOCK]
            if step.count >= stock.bit_count():  # forced: no chance involved
                hands[seat] |= stock
                xd["drawn"] = _replace(xd["drawn"], seat, xd["drawn"][seat] | stock)
                sd[_STOCK] = 0
            elif step.count > 0:
                sd[_PHASE], sd[_TO_MOVE] = Phase.DRAWING, None
                return
        else:
            raise RulesetError(f"{rules.name}: unknown exchange step {step!r}")
        i += 1
    xd["step"] = i
    _begin_play(sd, xd, hands)


def _begin_play(sd: _Slots, xd: _Fields, hands: list[int]) -> None:
    rules: Ruleset = sd[_RULES]
    order = sd[_DEAL].order
    for seat in order:
        if hands[seat].bit_count() != 12:
            raise RulesetError(
                f"{rules.name}: the exchange leaves seat {seat} with "
                f"{hands[seat].bit_count()} cards, not 12"
            )
    if sd[_STOCK].bit_count() != 4:
        raise RulesetError(
            f"{rules.name}: the exchange leaves {sd[_STOCK].bit_count()} cards in the stock, not 4"
        )
    leader = rules.first_leader(
        order=order, declarer=xd["declarer"], contract=xd["contract"], modifier=xd["modifier"]
    )
    sd[_PHASE], sd[_TO_MOVE], sd[_LEADER] = Phase.PLAYING, leader, leader


def _next(sd: _Slots, xd: _Fields, hands: list[int]) -> State:
    """Close the current step, run on to the next decision, and make the new state."""
    xd["step"] += 1
    _advance(sd, xd, hands)
    return _close(sd, xd, hands)


def _apply_bidding(state: State, action: Action) -> State:
    seat = state.to_move
    assert seat is not None
    cls = type(action)
    if cls is not Pass and cls is not Bid:
        raise _wrong_kind(state, action, "bid or pass")
    rules = state.rules
    order = state.deal.order
    calls = _calls(state)
    if cls is Bid:
        turn = rules.bidding_turn(order, calls)
        assert turn is not None
        if action.contract not in turn[1]:  # type: ignore[union-attr]
            allowed = ", ".join(c.value for c in turn[1]) or "nothing"
            raise IllegalActionError(action, f"seat {seat} may bid {allowed} or pass")
    calls = (*calls, (seat, action.contract if cls is Bid else None))  # type: ignore[union-attr]
    history = _push(state, seat, action)
    turn = rules.bidding_turn(order, calls)
    if turn is not None:
        sd = list(state)
        sd[_TO_MOVE], sd[_HISTORY] = turn[0], history
        return _tuple_new(State, sd)
    bids = [(c.level, -i, s, c) for i, (s, c) in enumerate(calls) if c is not None]
    if not bids:
        result = Result.void_deal(state.players)
        return state._replace(phase=Phase.OVER, to_move=None, history=history, result=result)
    _, _, declarer, contract = max(bids)
    zeros = (0,) * state.players
    xd: _Fields = {
        "declarer": declarer,
        "contract": contract,
        "modifier": None,
        "plan": rules.exchange_plan(contract),
        "step": 0,
        "count": 0,
        "called": -1,
        "giver": -1,
        "gave_back": -1,
        "exposed": 0,
        "discards": zeros,
        "taken": zeros,
        "drawn": zeros,
    }
    sd = list(state)
    sd[_HISTORY] = history
    hands = list(state.hand_masks)
    _advance(sd, xd, hands)
    return _close(sd, xd, hands)


def _apply_calling(state: State, action: Action) -> State:
    if type(action) is not Call:
        raise _wrong_kind(state, action, "call a card")
    ex = state.exchange
    assert ex is not None
    card = action.card.index
    declarer = ex.declarer
    if state.hand_masks[declarer] >> card & 1:
        raise IllegalActionError(action, f"seat {declarer} holds {DECK[card]} already")
    allowed = _callable(state)
    if not allowed >> card & 1:
        raise IllegalActionError(
            action, f"{state.rules.name} lets seat {declarer} call only {CardSet(allowed)}"
        )
    sd, xd, hands = _open(state)
    bit = 1 << card
    giver = -1
    for seat, hand in enumerate(hands):
        if hand & bit:
            giver = seat
            hands[seat] = hand & ~bit
            hands[declarer] |= bit
            break
    xd["called"], xd["giver"] = card, giver
    sd[_HISTORY] = _push(state, declarer, action)
    return _next(sd, xd, hands)


def _apply_giving_back(state: State, action: Action) -> State:
    if type(action) is not GiveBack:
        raise _wrong_kind(state, action, "give a card back")
    ex = state.exchange
    assert ex is not None
    card = action.card.index
    declarer = ex.declarer
    if not state.hand_masks[declarer] >> card & 1:
        raise IllegalActionError(action, f"seat {declarer} does not hold {DECK[card]}")
    if card == ex.called:
        raise IllegalActionError(action, "the called card may not be given back")
    sd, xd, hands = _open(state)
    hands[declarer] &= ~(1 << card)
    hands[ex.giver] |= 1 << card
    xd["gave_back"] = card
    sd[_HISTORY] = _push(state, declarer, action)
    return _next(sd, xd, hands)


def _apply_discarding(state: State, action: Action) -> State:
    ex = state.exchange
    seat = state.to_move
    assert ex is not None and seat is not None
    low, high = _discard_bounds(state, ex)
    cls = type(action)
    if cls is Done:
        if ex.count < low:
            raise IllegalActionError(
                action, f"seat {seat} must discard at least {low} (has discarded {ex.count})"
            )
        sd, xd, hands = _open(state)
        sd[_HISTORY] = _push(state, seat, action)
        return _next(sd, xd, hands)
    if cls is not Discard:
        raise _wrong_kind(state, action, "discard" + (" or stop" if ex.count >= low else ""))
    card = action.card.index  # type: ignore[union-attr]
    bit = 1 << card
    if not state.hand_masks[seat] & bit:
        raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
    sd, xd, hands = _open(state)
    hands[seat] &= ~bit
    sd[_STOCK] |= bit
    sd[_HISTORY] = _push(state, seat, action)
    xd["discards"] = _replace(ex.discards, seat, ex.discards[seat] | bit)
    xd["count"] += 1
    if xd["count"] >= high:
        return _next(sd, xd, hands)
    return _close(sd, xd, hands)


def _apply_taking(state: State, action: Action) -> State:
    ex = state.exchange
    seat = state.to_move
    assert ex is not None and seat is not None
    step = ex.plan[ex.step]
    assert isinstance(step, TakeStep)
    cls = type(action)
    if cls is Done and step.count == "any":
        sd, xd, hands = _open(state)
        sd[_HISTORY] = _push(state, seat, action)
        return _next(sd, xd, hands)
    if cls is not Take:
        raise _wrong_kind(state, action, "take a card from the stock")
    card = action.card.index  # type: ignore[union-attr]
    bit = 1 << card
    laid_down = _laid_down(ex.discards)
    if not state.stock_mask & bit:
        raise IllegalActionError(action, f"{DECK[card]} is not in the stock")
    if laid_down & bit:
        raise IllegalActionError(action, f"{DECK[card]} was discarded: a discard is final")
    sd, xd, hands = _open(state)
    hands[seat] |= bit
    sd[_STOCK] = state.stock_mask & ~bit
    takeable = sd[_STOCK] & ~laid_down
    taken = xd["taken"] = _replace(ex.taken, seat, ex.taken[seat] | bit)
    xd["count"] += 1
    sd[_HISTORY] = _push(state, seat, action)
    if step.count == "as_discarded":
        left = ex.discards[seat].bit_count() - taken[seat].bit_count()
        if left == takeable.bit_count():  # forced: take the rest at once
            hands[seat] |= takeable
            xd["taken"] = _replace(taken, seat, taken[seat] | takeable)
            sd[_STOCK] &= ~takeable
            left = 0
        if left == 0:
            return _next(sd, xd, hands)
    elif not takeable:
        return _next(sd, xd, hands)
    return _close(sd, xd, hands)


def _apply_raising(state: State, action: Action) -> State:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, RaiseStep)
    cls = type(action)
    if cls is not Pass and cls is not Raise:
        raise _wrong_kind(state, action, "raise or pass")
    sd, xd, hands = _open(state)
    sd[_HISTORY] = _push(state, ex.declarer, action)
    if cls is Raise:
        modifier = action.modifier  # type: ignore[union-attr]
        if modifier not in step.choices:
            raise IllegalActionError(action, f"{state.rules.name} does not allow {modifier.value}")
        extra = state.rules.raise_plan(modifier)
        xd["modifier"] = modifier
        xd["plan"] = (*ex.plan[: ex.step + 1], *extra, *ex.plan[ex.step + 1 :])
    return _next(sd, xd, hands)


def _apply_drawing(state: State, action: Action) -> State:
    if type(action) is not Draw:
        raise _wrong_kind(state, action, "draw (a chance outcome)")
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, DrawStep)
    cards = action.cards.mask
    if cards & ~state.stock_mask or cards.bit_count() != step.count:
        raise IllegalActionError(
            action, f"a draw is {step.count} of the stock cards, not {CardSet(cards)}"
        )
    seat = _role_seat(step.role, state.deal.order, ex.declarer)
    sd, xd, hands = _open(state)
    hands[seat] |= cards
    sd[_STOCK] = state.stock_mask & ~cards
    xd["drawn"] = _replace(ex.drawn, seat, ex.drawn[seat] | cards)
    sd[_HISTORY] = _push(state, seat, action)
    return _next(sd, xd, hands)


def _apply_playing(state: State, action: Action) -> State:
    if action.__class__ is not Play:
        raise _wrong_kind(state, action, "play a card")
    card = action.card.index
    seat: int = state.to_move  # type: ignore[assignment]
    hands = state.hand_masks
    hand = hands[seat]
    if not hand >> card & 1:
        raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
    trick = state.trick_cards
    if trick:
        suit_mask = _SUIT_MASKS[trick[0] // 10]
        if not suit_mask >> card & 1 and hand & suit_mask:
            raise IllegalActionError(
                action, f"seat {seat} must follow suit: {DECK[trick[0]].suit.name.lower()} was led"
            )
    new_hands = list(hands)
    new_hands[seat] = hand & ~(1 << card)
    sd = list(state)
    sd[_HANDS] = tuple(new_hands)
    sd[_HISTORY] = state.history + ((seat, action),)
    if len(trick) < 2:
        sd[_TO_MOVE] = state.deal.next_seat[seat]
        sd[_TRICK] = (*trick, card)
        return _tuple_new(State, sd)
    # the third card: the lowest index of the suit led wins
    c0, c1 = trick
    best, where = c0, 0
    suit = c0 // 10
    if c1 // 10 == suit and c1 < best:
        best, where = c1, 1
    if card // 10 == suit and card < best:
        where = 2
    leader = state.leader
    winner = leader if where == 0 else state.deal.next_seat[leader] if where == 1 else seat
    won = list(state.card_units_won)
    won[winner] += _UNITS[c0] + _UNITS[c1] + _UNITS[card]
    tricks = list(state.tricks_won)
    tricks[winner] += 1
    sd[_TO_MOVE] = sd[_LEADER] = winner
    sd[_TRICK] = ()
    sd[_UNITS_WON] = tuple(won)
    sd[_TRICKS_WON] = tuple(tricks)
    new = _tuple_new(State, sd)
    if new_hands[winner]:
        return new
    return _finish(new, winner)


def _finish(state: State, last: int) -> State:
    ex = state.exchange
    assert ex is not None
    declarer = ex.declarer
    won = state.card_units_won
    tricks = state.tricks_won
    tally = Tally(
        players=state.players,
        dealer=state.deal.dealer,
        declarer=declarer,
        contract=ex.contract,
        modifier=ex.modifier,
        declarer_card_units=won[declarer],
        adversary_card_units=sum(won) - won[declarer],
        stock_units=_bits.units(state.stock_mask),
        declarer_last=last == declarer,
        declarer_tricks=tricks[declarer],
        adversary_tricks=sum(tricks) - tricks[declarer],
    )
    result = state.rules.score(tally)
    return state._replace(phase=Phase.OVER, to_move=None, result=result)


def _apply_over(state: State, action: Action) -> State:
    raise IllegalActionError(action, "the deal is over")


_APPLY: tuple[Callable[[State, Action], State], ...] = (
    _apply_bidding,
    _apply_calling,
    _apply_giving_back,
    _apply_discarding,
    _apply_taking,
    _apply_raising,
    _apply_drawing,
    _apply_playing,
    _apply_over,
)
_LEGAL: tuple[Callable[[State], tuple[Action, ...]], ...] = (
    _legal_bidding,
    _legal_calling,
    _legal_giving_back,
    _legal_discarding,
    _legal_taking,
    _legal_raising,
    _legal_drawing,
    (lambda state: ()),  # playing: handled inline
    _legal_over,
)


# --- chance -------------------------------------------------------------------


def chance_outcomes(state: State) -> tuple[Draw, ...]:
    """Return the equally likely outcomes of the chance node ``state`` (none elsewhere).

    Example:
        >>> import calabrasella as cb
        >>> cb.chance_outcomes(cb.new_deal(cb.CAVENDISH, seed=7))
        ()
    """
    if state.phase != Phase.DRAWING:
        return ()
    return _legal_drawing(state)  # type: ignore[return-value]


def sample_chance(state: State, rng: random.Random) -> Draw:
    """Draw one outcome of the chance node ``state`` with ``rng``.

    Raises:
        IllegalActionError: ``state`` is not a chance node.
    """
    outcomes = chance_outcomes(state)
    if not outcomes:
        raise IllegalActionError(None, "chance does not move here")
    return outcomes[rng.randrange(len(outcomes))]
