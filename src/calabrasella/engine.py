"""The driver: apply an action, list the legal ones, resolve chance.

Nothing here mutates anything or draws a random number by itself: a deal
comes from :mod:`calabrasella.deal`; dividete's unseen draw is a chance node
whose outcome you pass to :func:`apply` (or draw with :func:`sample_chance`).
The engine keeps the auction and the play; everything between them is run
by the ruleset's exchange steps (:mod:`calabrasella.rulesets.steps`).
"""

from __future__ import annotations

import random
from typing import Union

from . import _bits, legal
from .actions import Abandon, Action, Bid, Draw, OutOfTurn, Pass, Play, Revoke, TurnStock
from .cards import DECK
from .deal import as_random
from .errors import IllegalActionError, RulesetError, SeatError, StateError
from .legal import work_of
from .phases import TABLE_PLAYING, Phase
from .rulesets.steps import Exchange, Work, describe
from .scoring import Result, Tally, settle
from .state import State, make_state
from .views import View

__all__ = [
    "apply",
    "chance_outcomes",
    "check",
    "is_legal",
    "legal_actions",
    "sample_chance",
    "view",
]

_UNITS = _bits.UNITS
_SUIT_PLAYS = legal.SUIT_PLAYS
_tuple_new = tuple.__new__
_SUIT_MASKS = _bits.SUIT_MASKS
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_OVER = Phase.OVER
_DRAWING = Phase.DRAWING
_IRREGULAR = (Revoke, OutOfTurn, Abandon, TurnStock)
_RECORD = "record"
_FORBID = "forbid"  # the default, an interned literal: the play path tests it by identity


# --- queries -------------------------------------------------------------------


def legal_actions(state: State | View) -> tuple[Action, ...]:
    """Return the legal actions in ``state``, in a fixed order.

    This is the main spelling. ``state.legal_actions()`` is the same call as
    a method, and a :class:`View` carries its seat's legal actions as
    ``view.legal_actions`` so that a bot handed only a view can choose.

    The order: a "no" (``Pass``, ``Done``) first when allowed, then bids from
    the lowest, raises dividete then scegliete, cards in canonical order
    (suit by suit, coins first, the strongest rank first), and chance
    outcomes by their cards. At a chance node the actions are the possible
    outcomes, equally likely; when the deal is over there are none. Given a
    :class:`View`, it returns the view's own ``legal_actions`` (empty when
    that seat is not to act).

    Raises:
        StateError: ``state`` is neither a :class:`State` nor a :class:`View`.

    Example:
        >>> import calabrasella as cb
        >>> cb.legal_actions(cb.new_deal(cb.CAVENDISH, seed=7))
        (Pass(), Bid(contract=<Contract.STAND: 'stand'>))
    """
    if state.__class__ is State:
        if state._phase is _PLAYING:  # the hot path, inline
            hand = state._hand_masks[state._to_move]  # type: ignore[index]
            trick = state._trick_cards
            if trick:
                suit = trick[0] // 10
                in_suit = hand >> (10 * suit) & 1023
                if in_suit and state._rules.follow_suit:  # read only when it matters
                    return _SUIT_PLAYS[suit][in_suit]
            sp = _SUIT_PLAYS
            return sp[0][hand & 1023] + sp[1][hand >> 10 & 1023] + sp[2][hand >> 20 & 1023] + sp[3][hand >> 30]
        if state._phase is _BIDDING:
            return legal.legal_actions(state)
        ex = state._exchange
        if ex is None or state._phase is _OVER:
            return ()
        if state._rules.irregularities is _FORBID:  # the default (table mode has TABLE_PLAYING)
            return ex.legal
        return legal.legal_actions(state)  # table mode: irregular actions too
    if isinstance(state, View):
        return state.legal_actions
    raise _not_a_state(state, "legal_actions")


def view(state: State, seat: int) -> View:
    """Return what ``seat`` may know of ``state`` (the same as ``state.view(seat)``).

    Raises:
        SeatError: ``seat`` is not a seat at this table.
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.view(s, 0).hand == s.hand(0)
        True
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "view")
    return state.view(seat)


def _not_a_state(obj: object, function: str) -> StateError:
    if isinstance(obj, View):
        return StateError(
            f"{function}() was given a View: a view is what one seat may know, "
            "not the state of the deal; pass the State"
        )
    return StateError(f"{function}() needs a State, not {obj!r}")


# --- applying ------------------------------------------------------------------


def apply(state: State, action: Action, *, seat: int | None = None) -> State:
    """Return the state after ``action``; ``state`` itself never changes.

    A server that applies what a client sent passes that client's ``seat``:
    the action is then refused unless it is that seat's to make (the seat to
    move, or the seat an irregular table-mode action names; a chance action
    is no seat's). Without ``seat`` the action is taken as the mover's.

    Raises:
        IllegalActionError: ``action`` is not legal in ``state`` (or is not
            an action at all), or not ``seat``'s to make; the message names
            it and says why.
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is not a :class:`State` (a view, say).

    Example:
        >>> import calabrasella as cb
        >>> s0 = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> s1 = cb.apply(s0, cb.Pass())
        >>> s0.to_move, s1.to_move, len(s0.history), len(s1.history)
        (1, 2, 0, 1)
        >>> cb.apply(s1, cb.Pass(), seat=0)
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action Pass(): sent by seat 0, but it is seat 2's to make
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "apply")
    if seat is not None:
        legal.check_sender(state, action, seat)
    phase = state._phase
    if phase is _PLAYING:
        return _apply_playing(state, action)
    if phase is _BIDDING:
        return _apply_bidding(state, action)
    if phase is TABLE_PLAYING:
        return _apply_table_play(state, action)
    if phase is _OVER:
        if action.__class__ in _IRREGULAR:
            return _apply_irregular(state, action)
        raise IllegalActionError(action, "the deal is over")
    try:
        return _apply_exchange(state, action)
    except IllegalActionError:
        if action.__class__ in _IRREGULAR:  # the stock turned early (table mode), or refused
            return _apply_irregular(state, action)
        raise


def check(state: State, action: Action, *, seat: int | None = None) -> None:
    """Raise :class:`IllegalActionError` if ``action`` is not legal in ``state``.

    The short name is kept on purpose (renaming it would break callers for
    little gain): spelled with the package, as the docs spell it,
    ``cb.check(state, action)`` reads plainly beside ``cb.is_legal`` and
    ``cb.apply`` as the one that says why. Imported bare it is ambiguous (a
    "check" of what?); import it under a longer name then:
    ``from calabrasella import check as check_action``.

    Raises:
        IllegalActionError: ``action`` is not legal, or not ``seat``'s to
            make (see :func:`apply`); the message says why.
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> cb.check(cb.new_deal(cb.CAVENDISH, seed=7), cb.Play(cb.Card.parse("Ad")))
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action Play(card=Card.parse('Ad')): seat 1 is to bid or pass, not to play a card
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "check")
    apply(state, action, seat=seat)


def is_legal(state: State | View, action: Action, *, seat: int | None = None) -> bool:
    """Tell whether ``action`` is legal in ``state`` (and ``seat``'s to make, if given).

    Given a :class:`View`, it tells whether the view's seat may take
    ``action`` now (whether it is among the view's ``legal_actions``).

    Raises:
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is neither a :class:`State` nor a :class:`View`.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.is_legal(s, cb.Pass()), cb.is_legal(s, cb.Done())
        (True, False)
        >>> cb.is_legal(s.view(1), cb.Pass()), cb.is_legal(s.view(0), cb.Pass())
        (True, False)
    """
    if state.__class__ is not State:
        if isinstance(state, View):
            if seat is not None:
                if type(seat) is not int or not 0 <= seat < len(state.hand_sizes):
                    raise SeatError(seat, len(state.hand_sizes))
                if seat != state.seat:
                    return False
            try:
                return action in state.legal_actions
            except TypeError:  # an unhashable non-action compared with actions
                return False
        raise _not_a_state(state, "is_legal")
    if seat is not None:
        players = len(state._hand_masks)
        if type(seat) is not int or not 0 <= seat < players:
            raise SeatError(seat, players)
    try:
        apply(state, action, seat=seat)
    except IllegalActionError:
        return False
    return True


def _wrong_kind(state: State, action: object, expected: str) -> IllegalActionError:
    return IllegalActionError(
        action, f"seat {state._to_move} is to {expected}, not to {describe(action)}"
    )


# --- the auction -----------------------------------------------------------------


def _apply_bidding(state: State, action: Action) -> State:
    seat: int = state._to_move  # type: ignore[assignment]
    cls = action.__class__
    if cls is not Pass and cls is not Bid:
        if cls in _IRREGULAR:
            return _apply_irregular(state, action)
        raise _wrong_kind(state, action, "bid or pass")
    rules = state._rules
    order = state._deal.order
    calls = legal.auction_calls(state._history)
    if cls is Bid:
        turn = rules.bidding_turn(order, calls)
        assert turn is not None
        if action.contract not in turn[1]:  # type: ignore[union-attr]
            allowed = ", ".join(c.value for c in turn[1]) or "nothing"
            raise IllegalActionError(action, f"seat {seat} may bid {allowed} or pass")
    calls = (*calls, (seat, action.contract if cls is Bid else None))  # type: ignore[union-attr]
    history = (*state._history, (seat, action))
    turn = rules.bidding_turn(order, calls)
    s = state
    if turn is not None:
        return make_state(
            s._rules, s._deal, _BIDDING, turn[0], s._hand_masks, s._stock_mask, None,
            (), s._leader, s._card_units_won, s._tricks_won, history, None,
        )  # fmt: skip
    won = rules.auction_winner(calls)
    if won is None:
        result = rules.void_result(players=state.players, dealer=state._deal.dealer, calls=calls)
        return make_state(
            s._rules, s._deal, _OVER, None, s._hand_masks, s._stock_mask, None,
            (), s._leader, s._card_units_won, s._tricks_won, history, result,
        )  # fmt: skip
    declarer, contract = won
    zeros = (0,) * state.players
    exchange: Exchange = _tuple_new(Exchange, (
        declarer, contract, None, rules.exchange_plan(contract), 0, 0, -1, -1, -1, 0,
        zeros, zeros, zeros, (), (), order, (),
    ))  # fmt: skip
    work = Work(rules, list(state._hand_masks), state._stock_mask, exchange, len(history))
    _advance(work)
    return _close(state, work, history)


# --- the exchange ------------------------------------------------------------------


def _apply_exchange(state: State, action: Action) -> State:
    ex = state._exchange
    assert ex is not None
    work = work_of(state)
    step = ex.plan[ex.step]
    if step.apply(work, action):
        work.step += 1
        _advance(work)
    entries = work.entries
    history = state._history + (entries[0],) if len(entries) == 1 else (*state._history, *entries)
    return _close(state, work, history)


def _advance(work: Work) -> None:
    """Run the plan from ``work.step`` until a step waits for a decision, or begin the play."""
    while work.step < len(work.plan):
        step = work.plan[work.step]
        work.moved = 0
        work.starts += (work.history_length,)  # one start per step, in order
        if step.start(work):
            phase = work.phase
            if phase is _BIDDING or phase is _PLAYING or phase is _OVER or (
                (work.to_move is None) != (phase is _DRAWING)
            ):
                raise RulesetError(
                    f"{work.rules.name}: {step!r} waits in phase {phase.name} for "
                    f"{'chance' if work.to_move is None else f'seat {work.to_move}'}: an exchange "
                    "step waits in an exchange phase, and only chance waits in DRAWING"
                )
            return
        work.step += 1
    _begin_play(work)


def _begin_play(work: Work) -> None:
    rules = work.rules
    hand_size, stock_size = rules.play_sizes(work.contract, work.modifier)
    for seat in work.order:
        held = work.hands[seat].bit_count()
        if held != hand_size:
            raise RulesetError(
                f"{rules.name}: the exchange leaves seat {seat} with {held} cards, not {hand_size}"
            )
    if work.stock.bit_count() != stock_size:
        raise RulesetError(
            f"{rules.name}: the exchange leaves {work.stock.bit_count()} cards in the stock, "
            f"not {stock_size}"
        )
    leader = rules.first_leader(
        order=work.order, declarer=work.declarer, contract=work.contract, modifier=work.modifier
    )
    table = rules.irregularities is not _FORBID and rules.irregularities == _RECORD
    work.phase, work.to_move = TABLE_PLAYING if table else _PLAYING, leader


def _close(state: State, work: Work, history: tuple[tuple[int, Action], ...]) -> State:
    """Build the next state from the work of one action."""
    s = state
    if (work.phase is _PLAYING or work.phase is TABLE_PLAYING) and work.to_move is not None:
        leader, exchange = work.to_move, work.exchange()
    else:  # a step waits: list its legal actions now, while the work is at hand
        leader, exchange = s._leader, work.exchange(work.plan[work.step].legal_actions(work))
    return make_state(
        s._rules, s._deal, work.phase, work.to_move, tuple(work.hands), work.stock,
        exchange, (), leader, s._card_units_won, s._tricks_won, history, None,
    )  # fmt: skip


# --- the play ------------------------------------------------------------------------


def _apply_playing(state: State, action: Action) -> State:
    if action.__class__ is not Play:
        if action.__class__ in _IRREGULAR:
            return _apply_irregular(state, action)
        raise _wrong_kind(state, action, "play a card")
    card = action.card.index
    seat: int = state._to_move  # type: ignore[assignment]
    hands = state._hand_masks
    hand = hands[seat]
    if not hand >> card & 1:
        raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
    trick = state._trick_cards
    if trick:
        suit_mask = _SUIT_MASKS[trick[0] // 10]
        if not suit_mask >> card & 1 and hand & suit_mask and state._rules.follow_suit:
            raise IllegalActionError(
                action, f"seat {seat} must follow suit: {DECK[trick[0]].suit.name.lower()} was led"
            )
    new_hands = (*hands[:seat], hand & ~(1 << card), *hands[seat + 1 :])
    history = (*state._history, (seat, action))
    s = state
    if len(trick) < 2:
        return make_state(
            s._rules, s._deal, _PLAYING, s._deal.next_seat[seat], new_hands, s._stock_mask,
            s._exchange, (*trick, card), s._leader, s._card_units_won, s._tricks_won,
            history, None,
        )  # fmt: skip
    # the third card: the lowest index of the suit led wins
    c0, c1 = trick
    best, where = c0, 0
    suit = c0 // 10
    if c1 // 10 == suit and c1 < best:
        best, where = c1, 1
    if card // 10 == suit and card < best:
        where = 2
    leader = s._leader
    winner = leader if where == 0 else s._deal.next_seat[leader] if where == 1 else seat
    won = list(s._card_units_won)
    won[winner] += _UNITS[c0] + _UNITS[c1] + _UNITS[card]
    tricks = list(s._tricks_won)
    tricks[winner] += 1
    new = make_state(
        s._rules, s._deal, _PLAYING, winner, new_hands, s._stock_mask, s._exchange, (),
        winner, tuple(won), tuple(tricks), history, None,
    )  # fmt: skip
    if new_hands[winner]:
        return new
    return _finish(new, winner)


def _finish(state: State, last: int, *, abandoned: bool = False) -> State:
    ex = state._exchange
    assert ex is not None
    declarer = ex.declarer
    won = state._card_units_won
    tricks = state._tricks_won
    revokes = [0, 0]  # the declarer's, the adversaries'
    if state._rules.irregularities == _RECORD:
        for who, action in state._history:
            if action.__class__ is Revoke:
                revokes[who != declarer] += 1
    stock_units = _bits.units(state._stock_mask)
    declarer_cards = won[declarer]
    adversary_cards = sum(won) - declarer_cards
    if abandoned:  # he claims the stock, the last trick and all the adversaries had not won
        declarer_cards = 32 - stock_units - adversary_cards
    tally = Tally(
        players=state.players,
        dealer=state._deal.dealer,
        declarer=declarer,
        contract=ex.contract,
        modifier=ex.modifier,
        declarer_card_units=declarer_cards,
        adversary_card_units=adversary_cards,
        stock_units=stock_units,
        declarer_last=last == declarer,
        declarer_tricks=tricks[declarer],
        adversary_tricks=sum(tricks) - tricks[declarer],
        declarer_revokes=revokes[0],
        adversary_revokes=revokes[1],
        abandoned=abandoned,
    )
    result = state._rules.score(tally)
    s = state
    return make_state(
        s._rules, s._deal, _OVER, None, s._hand_masks, s._stock_mask, s._exchange,
        s._trick_cards, s._leader, s._card_units_won, s._tricks_won, s._history, result,
    )  # fmt: skip


# --- table mode: irregular actions --------------------------------------------------


def _apply_table_play(state: State, action: Action) -> State:
    """Apply an action in table mode's play: a state of it is marked ``TABLE_PLAYING``."""
    if action.__class__ is Play:
        new = _apply_playing(state, action)
    elif action.__class__ in _IRREGULAR:
        new = _apply_irregular(state, action)
    else:
        raise _wrong_kind(state, action, "play a card")
    if new._phase is not _PLAYING:
        return new
    s = new
    return make_state(
        s._rules, s._deal, TABLE_PLAYING, s._to_move, s._hand_masks, s._stock_mask, s._exchange,
        s._trick_cards, s._leader, s._card_units_won, s._tricks_won, s._history, None,
    )  # fmt: skip


def _apply_irregular(state: State, action: Action) -> State:
    """Apply a revoke, a card out of turn or an abandon (``irregularities="record"``)."""
    if state._rules.irregularities != _RECORD:
        raise IllegalActionError(
            action, "irregularities are not recorded under these rules (irregularities='forbid')"
        )
    if action.__class__ is TurnStock:
        if action not in legal.stock_turns(state):
            raise IllegalActionError(action, _why_not(state, action))
        return _turn_stock(state, action.seat, action)
    if state._phase is not TABLE_PLAYING:
        where = "the deal is over" if state._phase is _OVER else "the play has not begun"
        raise IllegalActionError(action, f"{describe(action)} belongs to the play: {where}")
    if action not in legal.irregular_actions(state):
        raise IllegalActionError(action, _why_not(state, action))
    s = state
    seat: int = s._to_move  # type: ignore[assignment]
    cls = action.__class__
    if cls is Revoke:
        return _place(state, seat, action.card.index, action)  # type: ignore[union-attr]
    ex = s._exchange
    assert ex is not None
    who = ex.declarer if cls is Abandon else action.seat  # type: ignore[union-attr]
    history = (*s._history, (who, action))
    new = make_state(
        s._rules, s._deal, _PLAYING, seat, s._hand_masks, s._stock_mask, s._exchange,
        s._trick_cards, s._leader, s._card_units_won, s._tricks_won, history, None,
    )  # fmt: skip
    return _finish(new, ex.declarer, abandoned=True) if cls is Abandon else new


def _why_not(state: State, action: Action) -> str:
    seat = state._to_move
    cls = action.__class__
    if cls is Revoke:
        trick = state._trick_cards
        if not trick:
            return f"seat {seat} leads: there is no suit to revoke"
        return f"seat {seat} does not hold {action.card} or does not hold the suit led"  # type: ignore[union-attr]
    if cls is Abandon:
        return "the single player may abandon only right after an adversary's card out of turn"
    if cls is TurnStock:
        return (
            "the stock may be turned early only by a seat at the table, while it is face "
            "down and before the single player's first discard"
        )
    return (
        f"only an adversary who is not to move may play out of turn, a card he holds "
        f"(seat {seat} is to move)"
    )


def _turn_stock(state: State, seat: int, action: Action) -> State:
    """The stock turned early: by the single player the deal is void and he pays 35 to
    each adversary; by an adversary, no penalty, the stock is face up for all."""
    s = state
    ex = s._exchange
    assert ex is not None
    history = (*s._history, (seat, action))
    if seat != ex.declarer:
        work = work_of(state)
        work.exposed |= work.stock
        return _close(state, work, history)
    tally = Tally(
        players=s.players, dealer=s._deal.dealer, declarer=seat, contract=ex.contract,
        modifier=ex.modifier, declarer_card_units=0, adversary_card_units=0, stock_units=0,
        declarer_last=False, declarer_tricks=0, adversary_tricks=0,
    )  # fmt: skip
    dealer_shares: bool = s._rules.dealer_shares
    result = Result(
        void=True,
        declarer=seat,
        contract=ex.contract,
        modifier=ex.modifier,
        payments=settle(tally, declarer_won=False, value=35, dealer_shares=dealer_shares),
        notes=(
            "the single player turned the stock before he had discarded: "
            "the deal is void and he loses 35 to each adversary",
        ),
    )
    return make_state(
        s._rules, s._deal, _OVER, None, s._hand_masks, s._stock_mask, ex, (),
        s._leader, s._card_units_won, s._tricks_won, history, result,
    )  # fmt: skip


def _place(state: State, seat: int, card: int, action: Action) -> State:
    """Put ``card`` of ``seat`` to the trick (a revoke): the trick is won as usual."""
    s = state
    hands = s._hand_masks
    new_hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1 :])
    history = (*s._history, (seat, action))
    trick = s._trick_cards
    if len(trick) < 2:
        return make_state(
            s._rules, s._deal, _PLAYING, s._deal.next_seat[seat], new_hands, s._stock_mask,
            s._exchange, (*trick, card), s._leader, s._card_units_won, s._tricks_won,
            history, None,
        )  # fmt: skip
    cards = (*trick, card)
    suit = cards[0] // 10
    where = min((c, i) for i, c in enumerate(cards) if c // 10 == suit)[1]
    winner = s._leader
    for _ in range(where):
        winner = s._deal.next_seat[winner]
    won = list(s._card_units_won)
    won[winner] += _UNITS[cards[0]] + _UNITS[cards[1]] + _UNITS[card]
    tricks = list(s._tricks_won)
    tricks[winner] += 1
    new = make_state(
        s._rules, s._deal, _PLAYING, winner, new_hands, s._stock_mask, s._exchange, (),
        winner, tuple(won), tuple(tricks), history, None,
    )  # fmt: skip
    return new if new_hands[winner] else _finish(new, winner)


# --- chance ------------------------------------------------------------------------


def chance_outcomes(state: State) -> tuple[Draw, ...]:
    """Return the equally likely outcomes of the chance node ``state`` (none elsewhere).

    Raises:
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> cb.chance_outcomes(cb.new_deal(cb.CAVENDISH, seed=7))
        ()
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "chance_outcomes")
    if state._phase is not _DRAWING:
        return ()
    return legal.legal_actions(state)  # type: ignore[return-value]


def sample_chance(state: State, rng: Union[random.Random, int]) -> Draw:
    """Draw one outcome of the chance node ``state`` with ``rng`` (or a seed for one).

    Raises:
        IllegalActionError: ``state`` is not a chance node.
        StateError: ``state`` is not a :class:`State`.
        SeedError: ``rng`` is neither a ``random.Random`` nor an int (also a TypeError).
    """
    outcomes = chance_outcomes(state)
    pick = as_random(rng, "rng")
    if not outcomes:
        who = "the deal is over" if state.is_over else f"seat {state.to_move} is to act"
        raise IllegalActionError(None, f"no chance outcome to draw: {who}")
    return outcomes[pick.randrange(len(outcomes))]
