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

import attrs

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
from .cards import DECK, CardLike, CardSet
from .errors import IllegalActionError, RecordError, RulesetError
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
from .state import Deal, Exchange, Phase, State

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
_SUIT_MASKS = _bits.SUIT_MASKS
_indices = _bits.indices

# Play actions for every within-suit 10-bit mask, per suit: legal_actions in
# the play is one or four tuple lookups.
_SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[10 * s + p] for p in range(10) if m >> p & 1) for m in range(1024))
    for s in range(4)
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

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, dealer=2, seed=1)
        >>> d.eldest, [len(h) for h in d.hands], len(d.stock)
        (0, [12, 12, 12], 4)
    """
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
    order = [(dealer + k) % n for k in range(1, 4)]
    hands = [0] * n
    packet = rules.packet
    pos = 0
    for _ in range(12 // packet):
        for seat in order:
            for card in pack[pos : pos + packet]:
                hands[seat] |= 1 << card
            pos += packet
    stock = 0
    for card in pack[36:]:
        stock |= 1 << card
    return Deal(dealer, tuple(CardSet(h) for h in hands), CardSet(stock))


def new_deal(rules: Ruleset, *, dealer: int = 0, seed: Union[int, random.Random]) -> State:
    """Return the first state of a deal shuffled from ``seed`` (see :func:`shuffled_deal`).

    Raises:
        RecordError: ``dealer`` is not a seat, or ``seed`` is neither an int
            nor a ``random.Random``.

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

    Example:
        >>> import calabrasella as cb
        >>> d = cb.shuffled_deal(cb.CAVENDISH, seed=3)
        >>> cb.deal_from(cb.CAVENDISH, d.hands, d.stock) == cb.new_deal(cb.CAVENDISH, seed=3)
        True
    """
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
        tuple(h.mask for h in deal.hands),
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


def legal_actions(state: State) -> tuple[Action, ...]:
    """Return the legal actions in ``state``, in a fixed order.

    The order: a "no" (``Pass``, ``Done``) first when allowed, then bids from
    the lowest, raises dividete then scegliete, cards in canonical order
    (suit by suit, coins first, the strongest rank first), and chance
    outcomes by their cards. At a chance node the actions are the possible
    outcomes, equally likely; when the deal is over there are none.

    Example:
        >>> import calabrasella as cb
        >>> cb.legal_actions(cb.new_deal(cb.CAVENDISH, seed=7))
        (Pass(), Bid(contract=<Contract.STAND: 'stand'>))
    """
    if state.phase == Phase.PLAYING:
        hand = state._hands[state.to_move]  # type: ignore[index]
        trick = state._trick
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
    return tuple(CALLS[i] for i in _indices(_callable(state)))


def _legal_giving_back(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None
    hand = state._hands[ex.declarer] & ~(1 << ex.called if ex.called >= 0 else 0)
    return tuple(GIVE_BACKS[i] for i in _indices(hand))


def _legal_discarding(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None and state.to_move is not None
    low, _ = _discard_bounds(state, ex)
    cards = tuple(DISCARDS[i] for i in _indices(state._hands[state.to_move]))
    return (DONE, *cards) if ex.count >= low else cards


def _legal_taking(state: State) -> tuple[Action, ...]:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, TakeStep)
    cards = tuple(TAKES[i] for i in _indices(state._stock))
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
    masks = [sum(1 << i for i in combo) for combo in combinations(_indices(state._stock), step.count)]
    return sorted(masks)


# --- applying ----------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """Return the state after ``action``; ``state`` itself never changes.

    Raises:
        IllegalActionError: ``action`` is not legal in ``state`` (or is not
            an action at all); the message names it and says why.

    Example:
        >>> import calabrasella as cb
        >>> s0 = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> s1 = cb.apply(s0, cb.Pass())
        >>> s0.to_move, s1.to_move, len(s0.history), len(s1.history)
        (1, 2, 0, 1)
    """
    try:
        handler = _APPLY[state.phase]
    except (AttributeError, TypeError, IndexError):
        raise IllegalActionError(action, f"not a state: {state!r}") from None
    return handler(state, action)


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
    except IllegalActionError:
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
    return (*state.history, (seat, action))


def _calls(state: State) -> tuple[tuple[int, Contract | None], ...]:
    return tuple(
        (seat, action.contract if type(action) is Bid else None)  # type: ignore[union-attr]
        for seat, action in state.history
    )


def _apply_bidding(state: State, action: Action) -> State:
    seat = state.to_move
    assert seat is not None
    cls = type(action)
    if cls is not Pass and cls is not Bid:
        raise _wrong_kind(state, action, "bid or pass")
    rules = state.rules
    order = state.deal.order
    calls = _calls(state)
    turn = rules.bidding_turn(order, calls)
    assert turn is not None
    if cls is Bid and action.contract not in turn[1]:  # type: ignore[union-attr]
        allowed = ", ".join(c.value for c in turn[1]) or "nothing"
        raise IllegalActionError(action, f"seat {seat} may bid {allowed} or pass")
    calls = (*calls, (seat, action.contract if cls is Bid else None))  # type: ignore[union-attr]
    history = _push(state, seat, action)
    turn = rules.bidding_turn(order, calls)
    if turn is not None:
        return attrs.evolve(state, to_move=turn[0], history=history)
    bids = [(c.level, i, s, c) for i, (s, c) in enumerate(calls) if c is not None]
    if not bids:
        result = Result.void_deal(state.players)
        return attrs.evolve(state, phase=Phase.OVER, to_move=None, history=history, result=result)
    _, _, declarer, contract = max(bids, key=lambda b: (b[0], -b[1]))
    n = state.players
    ex = Exchange(
        declarer,
        contract,
        None,
        rules.exchange_plan(contract),
        0,
        discards=(0,) * n,
        taken=(0,) * n,
        drawn=(0,) * n,
    )
    return _enter_step(attrs.evolve(state, exchange=ex, history=history))


def _seat(state: State, ex: Exchange, role: Role) -> int:
    return Ruleset.role_seat(role, state.deal.order, ex.declarer)


def _callable(state: State) -> int:
    ex = state.exchange
    assert ex is not None
    hand = state._hands[ex.declarer]
    allowed = state.rules.callable_cards(CardSet(hand), ex.contract)
    return allowed.mask & ~hand & _bits.FULL


def _discard_bounds(state: State, ex: Exchange) -> tuple[int, int]:
    step = ex.plan[ex.step]
    assert isinstance(step, DiscardStep)
    if step.as_taken:
        n = ex.taken[state.to_move].bit_count()  # type: ignore[index]
        return n, n
    return step.min_count, step.max_count


def _next_step(state: State, **changes: Any) -> State:
    ex = state.exchange
    assert ex is not None
    ex = attrs.evolve(ex, step=ex.step + 1, count=0, **changes)
    return _enter_step(attrs.evolve(state, exchange=ex))


def _enter_step(state: State) -> State:
    """Run the exchange from the current step until a decision is needed."""
    ex = state.exchange
    assert ex is not None
    hands = state._hands
    while ex.step < len(ex.plan):
        step = ex.plan[ex.step]
        kind = type(step)
        phase: Phase | None = None
        seat: int | None = ex.declarer
        if kind is CallStep:
            state = attrs.evolve(state, exchange=ex)
            if _callable(state):
                phase = Phase.CALLING
        elif kind is GiveBackStep:
            if ex.giver >= 0:
                phase = Phase.GIVING_BACK
        elif kind is DiscardStep:
            seat = _seat(state, ex, step.role)  # type: ignore[union-attr]
            if not step.as_taken or ex.taken[seat]:  # type: ignore[union-attr]
                phase = Phase.DISCARDING
        elif kind is ExposeStep:
            ex = attrs.evolve(ex, exposed=ex.exposed | state._stock)
        elif kind is TakeStep:
            seat = _seat(state, ex, step.role)  # type: ignore[union-attr]
            if step.count == "all":  # type: ignore[union-attr]
                hands = _replace(hands, seat, hands[seat] | state._stock)
                ex = attrs.evolve(ex, taken=_replace(ex.taken, seat, ex.taken[seat] | state._stock))
                state = attrs.evolve(state, hands=hands, stock=0)
            elif state._stock:
                phase = Phase.TAKING
        elif kind is RaiseStep:
            phase = Phase.RAISING
        elif kind is DrawStep:
            seat = _seat(state, ex, step.role)  # type: ignore[union-attr]
            count = step.count  # type: ignore[union-attr]
            if count >= state._stock.bit_count():  # forced: no chance involved
                drawn = state._stock
                hands = _replace(hands, seat, hands[seat] | drawn)
                ex = attrs.evolve(ex, drawn=_replace(ex.drawn, seat, ex.drawn[seat] | drawn))
                state = attrs.evolve(state, hands=hands, stock=0)
            elif count > 0:
                phase, seat = Phase.DRAWING, None
        else:  # pragma: no cover - the plan holds steps only
            raise RulesetError(f"{state.rules.name}: unknown exchange step {step!r}")
        if phase is not None:
            return attrs.evolve(state, phase=phase, to_move=seat, exchange=ex)
        ex = attrs.evolve(ex, step=ex.step + 1, count=0)
    return _start_play(attrs.evolve(state, exchange=ex))


def _replace(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _start_play(state: State) -> State:
    ex = state.exchange
    assert ex is not None
    rules = state.rules
    for seat in state.deal.order:
        if state._hands[seat].bit_count() != 12:
            raise RulesetError(
                f"{rules.name}: the exchange leaves seat {seat} with "
                f"{state._hands[seat].bit_count()} cards, not 12"
            )
    if state._stock.bit_count() != 4:
        raise RulesetError(
            f"{rules.name}: the exchange leaves {state._stock.bit_count()} cards in the stock, not 4"
        )
    leader = rules.first_leader(
        order=state.deal.order, declarer=ex.declarer, contract=ex.contract, modifier=ex.modifier
    )
    return attrs.evolve(state, phase=Phase.PLAYING, to_move=leader, leader=leader)


def _apply_calling(state: State, action: Action) -> State:
    if type(action) is not Call:
        raise _wrong_kind(state, action, "call a card")
    ex = state.exchange
    assert ex is not None
    card = action.card.index  # type: ignore[union-attr]
    declarer = ex.declarer
    hands = state._hands
    if hands[declarer] >> card & 1:
        raise IllegalActionError(action, f"seat {declarer} holds {DECK[card]} already")
    allowed = _callable(state)
    if not allowed >> card & 1:
        raise IllegalActionError(
            action, f"{state.rules.name} lets seat {declarer} call only {CardSet(allowed)}"
        )
    giver = -1
    for seat, hand in enumerate(hands):
        if hand >> card & 1:
            giver = seat
            hands = _replace(hands, seat, hand & ~(1 << card))
            hands = _replace(hands, declarer, hands[declarer] | 1 << card)
    state = attrs.evolve(state, hands=hands, history=_push(state, declarer, action))
    return _next_step(state, called=card, giver=giver)


def _apply_giving_back(state: State, action: Action) -> State:
    if type(action) is not GiveBack:
        raise _wrong_kind(state, action, "give a card back")
    ex = state.exchange
    assert ex is not None
    card = action.card.index  # type: ignore[union-attr]
    declarer = ex.declarer
    hands = state._hands
    if not hands[declarer] >> card & 1:
        raise IllegalActionError(action, f"seat {declarer} does not hold {DECK[card]}")
    if card == ex.called:
        raise IllegalActionError(action, "the called card may not be given back")
    hands = _replace(hands, declarer, hands[declarer] & ~(1 << card))
    hands = _replace(hands, ex.giver, hands[ex.giver] | 1 << card)
    state = attrs.evolve(state, hands=hands, history=_push(state, declarer, action))
    return _next_step(state, gave_back=card)


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
        return _next_step(attrs.evolve(state, history=_push(state, seat, action)))
    if cls is not Discard:
        raise _wrong_kind(state, action, "discard" + (" or stop" if ex.count >= low else ""))
    card = action.card.index  # type: ignore[union-attr]
    hands = state._hands
    if not hands[seat] >> card & 1:
        raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
    hands = _replace(hands, seat, hands[seat] & ~(1 << card))
    ex = attrs.evolve(
        ex, count=ex.count + 1, discards=_replace(ex.discards, seat, ex.discards[seat] | 1 << card)
    )
    state = attrs.evolve(
        state,
        hands=hands,
        stock=state._stock | 1 << card,
        exchange=ex,
        history=_push(state, seat, action),
    )
    if ex.count >= high:
        return _next_step(state)
    return state


def _apply_taking(state: State, action: Action) -> State:
    ex = state.exchange
    seat = state.to_move
    assert ex is not None and seat is not None
    step = ex.plan[ex.step]
    assert isinstance(step, TakeStep)
    cls = type(action)
    if cls is Done and step.count == "any":
        return _next_step(attrs.evolve(state, history=_push(state, seat, action)))
    if cls is not Take:
        raise _wrong_kind(state, action, "take a card from the stock")
    card = action.card.index  # type: ignore[union-attr]
    if not state._stock >> card & 1:
        raise IllegalActionError(action, f"{DECK[card]} is not in the stock")
    if step.count == "as_discarded":
        need = ex.discards[seat].bit_count()
        if ex.taken[seat].bit_count() >= need:  # pragma: no cover - the step ends first
            raise IllegalActionError(action, f"seat {seat} has taken {need} already")
    hands = _replace(state._hands, seat, state._hands[seat] | 1 << card)
    taken = _replace(ex.taken, seat, ex.taken[seat] | 1 << card)
    stock = state._stock & ~(1 << card)
    ex = attrs.evolve(ex, count=ex.count + 1, taken=taken)
    state = attrs.evolve(
        state, hands=hands, stock=stock, exchange=ex, history=_push(state, seat, action)
    )
    if step.count == "as_discarded":
        left = ex.discards[seat].bit_count() - taken[seat].bit_count()
        if left == 0:
            return _next_step(state)
        if left == stock.bit_count():  # forced: take the rest at once
            hands = _replace(hands, seat, hands[seat] | stock)
            ex = attrs.evolve(ex, taken=_replace(taken, seat, taken[seat] | stock))
            return _next_step(attrs.evolve(state, hands=hands, stock=0, exchange=ex))
    elif not stock:
        return _next_step(state)
    return state


def _apply_raising(state: State, action: Action) -> State:
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, RaiseStep)
    cls = type(action)
    history = _push(state, ex.declarer, action)
    if cls is Pass:
        return _next_step(attrs.evolve(state, history=history))
    if cls is not Raise:
        raise _wrong_kind(state, action, "raise or pass")
    modifier = action.modifier  # type: ignore[union-attr]
    if modifier not in step.choices:
        raise IllegalActionError(action, f"{state.rules.name} does not allow {modifier.value}")
    plan = (*ex.plan[: ex.step + 1], *state.rules.raise_plan(modifier), *ex.plan[ex.step + 1 :])
    ex = attrs.evolve(ex, modifier=modifier, plan=plan)
    return _next_step(attrs.evolve(state, exchange=ex, history=history))


def _apply_drawing(state: State, action: Action) -> State:
    if type(action) is not Draw:
        raise _wrong_kind(state, action, "draw (a chance outcome)")
    ex = state.exchange
    assert ex is not None
    step = ex.plan[ex.step]
    assert isinstance(step, DrawStep)
    cards = action.cards.mask  # type: ignore[union-attr]
    if cards & ~state._stock or cards.bit_count() != step.count:
        raise IllegalActionError(
            action, f"a draw is {step.count} of the stock cards, not {CardSet(cards)}"
        )
    seat = _seat(state, ex, step.role)
    hands = _replace(state._hands, seat, state._hands[seat] | cards)
    drawn = _replace(ex.drawn, seat, ex.drawn[seat] | cards)
    state = attrs.evolve(
        state, hands=hands, stock=state._stock & ~cards, history=_push(state, seat, action)
    )
    return _next_step(state, drawn=drawn)


def _apply_playing(state: State, action: Action) -> State:
    if action.__class__ is not Play:
        raise _wrong_kind(state, action, "play a card")
    card = action.card.index  # type: ignore[union-attr]
    seat: int = state.to_move  # type: ignore[assignment]
    hands = state._hands
    hand = hands[seat]
    if not hand >> card & 1:
        raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
    trick = state._trick
    if trick:
        suit_mask = _SUIT_MASKS[trick[0] // 10]
        if not suit_mask >> card & 1 and hand & suit_mask:
            raise IllegalActionError(
                action, f"seat {seat} must follow suit: {DECK[trick[0]].suit.name.lower()} was led"
            )
    hands = list(hands)
    hands[seat] = hand & ~(1 << card)
    history = (*state.history, (seat, action))
    if len(trick) < 2:
        return State(
            state.rules,
            state.deal,
            Phase.PLAYING,
            state.deal.next_seat[seat],
            tuple(hands),
            state._stock,
            state.exchange,
            (*trick, card),
            state.leader,
            state._won,
            state._tricks,
            history,
            None,
        )
    # the third card: the lowest index of the suit led wins
    c0, c1 = trick
    best, where = c0, 0
    suit = c0 // 10
    if c1 // 10 == suit and c1 < best:
        best, where = c1, 1
    if card // 10 == suit and card < best:
        where = 2
    nxt = state.deal.next_seat
    leader = state.leader
    winner = leader if where == 0 else nxt[leader] if where == 1 else seat
    won = list(state._won)
    won[winner] += _UNITS[c0] + _UNITS[c1] + _UNITS[card]
    tricks = list(state._tricks)
    tricks[winner] += 1
    new = State(
        state.rules,
        state.deal,
        Phase.PLAYING,
        winner,
        tuple(hands),
        state._stock,
        state.exchange,
        (),
        winner,
        tuple(won),
        tuple(tricks),
        history,
        None,
    )
    if hands[winner]:
        return new
    return _finish(new, winner)


def _finish(state: State, last: int) -> State:
    ex = state.exchange
    assert ex is not None
    declarer = ex.declarer
    won = state._won
    tricks = state._tricks
    tally = Tally(
        players=state.players,
        dealer=state.deal.dealer,
        declarer=declarer,
        contract=ex.contract,
        modifier=ex.modifier,
        declarer_card_units=won[declarer],
        adversary_card_units=sum(won) - won[declarer],
        stock_units=_bits.units(state._stock),
        declarer_last=last == declarer,
        declarer_tricks=tricks[declarer],
        adversary_tricks=sum(tricks) - tricks[declarer],
    )
    result = state.rules.score(tally)
    return attrs.evolve(state, phase=Phase.OVER, to_move=None, result=result)


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
    return tuple(Draw(CardSet(m)) for m in _draw_masks(state))


def sample_chance(state: State, rng: random.Random) -> Draw:
    """Draw one outcome of the chance node ``state`` with ``rng``.

    Raises:
        IllegalActionError: ``state`` is not a chance node.
    """
    outcomes = chance_outcomes(state)
    if not outcomes:
        raise IllegalActionError(None, "chance does not move here")
    return outcomes[rng.randrange(len(outcomes))]
