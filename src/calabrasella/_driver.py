"""The engine's machinery below its public functions.

The exchange driver (it runs a ruleset's exchange steps on a :class:`Work`),
the end of a deal (the tally and the ruleset's score), and table mode's
irregular actions. :mod:`calabrasella.engine` keeps the public functions,
the auction and the play's hot path; :mod:`calabrasella._rollout` drives
the same steps without building the states in between.
"""

from __future__ import annotations

from typing import Any

from . import _bits, legal
from ._auction import Position
from ._exchange_paths import (
    after_call,
    after_done,
    after_draw,
    after_give_back,
    after_last_discard,
    after_no_raise,
    after_raise,
    after_take,
    after_take_done,
    first_lead,
    run_steps,
    waiting_state,
)
from .actions import (
    CALLS,
    DISCARDS,
    DONE,
    PASS,
    RAISES,
    Abandon,
    Action,
    Call,
    Discard,
    Done,
    Draw,
    GiveBack,
    OutOfTurn,
    Pass,
    Raise,
    Revoke,
    Take,
    TurnStock,
)
from .cards import _cardset
from .errors import IllegalActionError, RulesetError
from .phases import Phase
from .rulesets.base import PLAY_TABLE, Ruleset
from .rulesets.protocol import _DECLARER, Role, card_actions
from .rulesets.steps import (
    CallStep,
    DiscardStep,
    DrawStep,
    Exchange,
    GiveBackStep,
    RaiseStep,
    Step,
    TakeStep,
    Work,
    describe,
)
from .scoring import Result, Tally, make_tally, settle
from .state import State, make_state

__all__ = [
    "IRREGULAR",
    "advance",
    "apply_exchange",
    "apply_irregular",
    "begin_exchange",
    "begin_play",
    "check_wait",
    "close",
    "finish",
    "forget",
    "place",
    "work_of",
]

_UNITS = _bits.UNITS
_SUIT_UNITS = _bits._SUIT_UNITS
_tuple_new = tuple.__new__
_new = object.__new__
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_OVER = Phase.OVER
_DRAWING = Phase.DRAWING
_CALLING = Phase.CALLING
_GIVING_BACK = Phase.GIVING_BACK
_DISCARDING = Phase.DISCARDING
_RAISING = Phase.RAISING
_FULL = _bits.FULL
_DONE_FIRST: tuple[Action, ...] = (DONE,)
_SECOND = Role.SECOND
#: The irregular actions of table mode, by class.
IRREGULAR = (Revoke, OutOfTurn, Abandon, TurnStock)


# --- the exchange ------------------------------------------------------------------


def work_of(state: State) -> Work:
    """Return a fresh working copy of ``state`` (which must be in the exchange).

    The same as :func:`calabrasella.legal.work_of`, built field by field.
    """
    w = _new(Work)
    w.rules = state._rules
    w.hands = list(state._hand_masks)
    w.stock = state._stock_mask
    w.phase = state._phase
    w.to_move = state._to_move
    w.history_length = len(state._history) + 1
    w.entries = []
    (
        w.declarer, w.contract, w.modifier, w.plan, w.step, w.moved, w.called, w.giver,
        w.gave_back, w.exposed, w.discards, w.taken, w.drawn, w.starts, w.forced, w.order, _,
    ) = state._exchange  # type: ignore[misc]  # fmt: skip
    return w


# A raise step's legal actions by the step (a frozen value): what its
# legal_actions lists, made once (a modifier's hash is dear).
_RAISE_LEGAL: dict[int, tuple[RaiseStep, tuple[Action, ...]]] = {}


def begin_exchange(state: State, won: Position, history: tuple[tuple[int, Action], ...]) -> State:
    """Return the state after the auction's last call: the exchange runs to its first decision."""
    declarer, contract = won.won  # type: ignore[misc]
    zeros = (0,) * len(state._hand_masks)
    plan = won.plan
    if plan and plan[0].__class__ is CallStep:  # the usual first step, at once: the declarer calls
        hand = state._hand_masks[declarer]
        allowed = state._rules.callable_cards(_cardset(hand), contract).mask & ~hand & _FULL
        if allowed:
            record: Exchange = _tuple_new(Exchange, (
                declarer, contract, None, plan, 0, 0, -1, -1, -1, 0, zeros, zeros, zeros,
                (len(history),), (), state._deal.order, card_actions(CALLS, allowed),
            ))  # fmt: skip
            return waiting_state(state, _CALLING, declarer, state._hand_masks, record, history)
    elif plan and plan[0].__class__ is RaiseStep:  # solissimo: the declarer may raise
        step: RaiseStep = plan[0]
        known = _RAISE_LEGAL.get(id(step))
        if known is None or known[0] is not step:
            if len(_RAISE_LEGAL) >= 64:
                _RAISE_LEGAL.clear()
            known = _RAISE_LEGAL[id(step)] = (step, (PASS, *[RAISES[m] for m in step.choices]))
        record = _tuple_new(Exchange, (
            declarer, contract, None, plan, 0, 0, -1, -1, -1, 0, zeros, zeros, zeros,
            (len(history),), (), state._deal.order, known[1],
        ))  # fmt: skip
        return waiting_state(state, _RAISING, declarer, state._hand_masks, record, history)
    fields = [
        declarer, contract, None, plan, 0, 0, -1, -1, -1, 0,
        zeros, zeros, zeros, (), (), state._deal.order, (),
    ]  # fmt: skip
    new = run_steps(state, fields, list(state._hand_masks), state._stock_mask, history)
    if new is not None:
        return new
    exchange: Exchange = _tuple_new(Exchange, (
        declarer, contract, None, plan, 0, 0, -1, -1, -1, 0,
        zeros, zeros, zeros, (), (), state._deal.order, (),
    ))  # fmt: skip
    work = Work(state._rules, list(state._hand_masks), state._stock_mask, exchange, len(history))
    advance(work)
    return close(state, work, history)


def apply_exchange(state: State, action: Action) -> State:
    """Return the state after ``action`` in the exchange (the running step applies it)."""
    ex: Exchange = state._exchange  # type: ignore[assignment]
    step = ex.plan[ex.step]
    cls = action.__class__
    kind = step.__class__
    new: State | None = None
    if cls is Discard and kind is DiscardStep:
        new = _discard(state, ex, step, action)  # type: ignore[arg-type]
    elif cls is GiveBack and kind is GiveBackStep:
        new = after_give_back(state, ex, action)  # type: ignore[arg-type]
    elif cls is Call and kind is CallStep:
        new = after_call(state, ex, action)  # type: ignore[arg-type]
    elif cls is Pass and kind is RaiseStep and ex.step + 1 == len(ex.plan):
        new = after_no_raise(state, ex, action)  # type: ignore[arg-type]
    elif cls is Take and kind is TakeStep:
        new = after_take(state, ex, step, action)  # type: ignore[arg-type]
    elif cls is Done and kind is DiscardStep:
        new = after_done(state, ex, step, action)  # type: ignore[arg-type]
    elif cls is Draw and kind is DrawStep:
        new = after_draw(state, ex, step, action)  # type: ignore[arg-type]
    elif cls is Raise and kind is RaiseStep:
        new = after_raise(state, ex, step, action)  # type: ignore[arg-type]
    elif cls is Done and kind is TakeStep:
        new = after_take_done(state, ex, step, action)  # type: ignore[arg-type]
    if new is not None:
        return new
    work = work_of(state)
    if step.apply(work, action):
        work.step += 1
        advance(work)
    entries = work.entries
    history = state._history + (entries[0],) if len(entries) == 1 else state._history + tuple(entries)
    return close(state, work, history)


def _discard(state: State, ex: Exchange, step: DiscardStep, action: Discard) -> State | None:
    """Return the state after a discard that leaves the discard open (``None`` otherwise).

    What :meth:`DiscardStep.apply` and :meth:`DiscardStep.legal_actions` do,
    without a working copy, for the most frequent action of the exchange; a
    discard that ends the step goes the general way unless it ends the
    exchange too (see :func:`_last_discard`), and one that is refused does.
    """
    role = step.role
    declarer = ex.declarer
    if role is _DECLARER:
        seat = declarer
    else:  # the next active seat after the declarer, or the one after that (role_seat)
        seat = state._deal.next_seat[declarer]
        if role is _SECOND:
            seat = state._deal.next_seat[seat]
    if step.as_taken:
        low = high = ex.taken[seat].bit_count()
    else:
        low, high = step.min_count, step.max_count
    moved = ex.moved + 1
    bit = 1 << action.card.index
    hands = state._hand_masks
    hand = hands[seat]
    if not hand & bit:
        return None
    if moved >= high:  # the discard is over
        return after_last_discard(state, ex, seat, bit, moved, action)
    held = list(hands)
    held[seat] = hand = hand ^ bit
    discards = list(ex.discards)
    discards[seat] |= bit
    cards = card_actions(DISCARDS, hand)
    (
        declarer, contract, modifier, plan, at, _, called, giver,
        gave_back, exposed, _, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at, moved, called, giver, gave_back, exposed,
        tuple(discards), taken, drawn, starts, forced, order,
        _DONE_FIRST + cards if moved >= low else cards,
    ))  # fmt: skip
    s = state
    return make_state(
        s._rules, s._deal, s._phase, s._to_move, tuple(held), s._stock_mask | bit,
        record, (), s._leader, s._card_units_won, s._tricks_won, s._history + ((seat, action),),
        None,
    )  # fmt: skip


def advance(work: Work) -> None:
    """Run the plan from ``work.step`` until a step waits for a decision, or begin the play."""
    plan = work.plan
    while work.step < len(plan):
        step = plan[work.step]
        work.moved = 0
        work.starts += (work.history_length,)  # one start per step, in order
        if step.start(work):
            phase = work.phase
            if phase is _BIDDING or phase is _PLAYING or phase is _OVER or (
                (work.to_move is None) != (phase is _DRAWING)
            ):
                check_wait(work, step)
            return
        work.step += 1
        plan = work.plan  # a step may have inserted steps (a raise does so in apply, not start)
    begin_play(work)


def check_wait(work: Work, step: Step) -> None:
    """Refuse a step that waits in a phase that is not the exchange's, or chance out of DRAWING."""
    phase = work.phase
    if phase is _BIDDING or phase is _PLAYING or phase is _OVER or (
        (work.to_move is None) != (phase is _DRAWING)
    ):
        raise RulesetError(
            f"{work.rules.name}: {step!r} waits in phase {phase.name} for "
            f"{'chance' if work.to_move is None else f'seat {work.to_move}'}: an exchange "
            "step waits in an exchange phase, and only chance waits in DRAWING"
        )


def begin_play(work: Work) -> None:
    """Check the hands and the stock the exchange leaves, and let the first leader lead."""
    leader = first_lead(
        work.rules, work.contract, work.modifier, work.order, work.declarer, work.hands, work.stock
    )
    work.phase, work.to_move = _PLAYING, leader


def close(state: State, work: Work, history: tuple[tuple[int, Action], ...]) -> State:
    """Build the next state from the work of one action."""
    s = state
    w = work
    phase = w.phase
    legal: tuple[Action, ...] = ()
    if phase is _PLAYING and w.to_move is not None:
        leader = w.to_move
    else:  # a step waits: list its legal actions now, while the work is at hand
        leader, legal = s._leader, w.plan[w.step].legal_actions(w)
    record: Exchange = _tuple_new(Exchange, (
        w.declarer, w.contract, w.modifier, w.plan, w.step, w.moved, w.called, w.giver,
        w.gave_back, w.exposed, w.discards, w.taken, w.drawn, w.starts, w.forced, w.order, legal,
    ))  # fmt: skip
    new = _new(State)
    new._rules = s._rules
    new._deal = s._deal
    new._phase = phase
    new._to_move = w.to_move
    new._hand_masks = tuple(w.hands)
    new._stock_mask = w.stock
    new._exchange = record
    new._trick_cards = ()
    new._leader = leader
    new._card_units_won = s._card_units_won
    new._tricks_won = s._tricks_won
    new._history = history
    new._result = None
    return new


# --- the end of the deal ----------------------------------------------------------

# The results scored last, by ruleset and tally (a ruleset is a value and its
# score hook a function of the tally, so an equal tally under the same ruleset
# scores the same): a few thousand, then started afresh. Random play meets the
# same tallies again and again, and a result is an immutable value to share.
_SCORES: dict[tuple[Any, ...], tuple[Ruleset, Result]] = {}
_SCORES_SIZE = 8192


def forget(state: State) -> None:
    """Drop what the engine remembers of the hooks' answers that ``state``'s next action uses.

    The results reused for equal tallies, and the auction positions after
    ``state``'s: the next :func:`~calabrasella.apply` asks the ruleset's hooks
    afresh. The conformance kit calls it, to catch a hook that answers the
    same question twice in two ways.
    """
    _SCORES.clear()
    here = getattr(state, "_auction", None)
    if here is not None:
        here.children.clear()


def finish(state: State, last: int, *, abandoned: bool = False) -> State:
    """Return ``state`` (the last trick just won by ``last``) with the deal scored and over.

    ``state`` is one the caller has just made for this action and shown to
    nobody: it is completed in place (the phase, the mover and the result).
    """
    ex = state._exchange
    assert ex is not None
    declarer = ex.declarer
    won = state._card_units_won
    tricks = state._tricks_won
    rules = state._rules
    revokes = [0, 0]  # the declarer's, the adversaries'
    if rules._play == PLAY_TABLE:
        for who, action in state._history:
            if action.__class__ is Revoke:
                revokes[who != declarer] += 1
    stock = state._stock_mask
    stock_units = _SUIT_UNITS[stock & 1023] + _SUIT_UNITS[stock >> 10 & 1023] + (
        _SUIT_UNITS[stock >> 20 & 1023] + _SUIT_UNITS[stock >> 30 & 1023]
    )
    declarer_cards = won[declarer]
    adversary_cards = sum(won) - declarer_cards
    if abandoned:  # he claims the stock, the last trick and all the adversaries had not won
        declarer_cards = 32 - stock_units - adversary_cards
    contract, modifier = ex.contract, ex.modifier
    declarer_tricks = tricks[declarer]
    key = (
        id(rules), len(state._hand_masks), state._deal.dealer, declarer, id(contract), id(modifier),
        declarer_cards, adversary_cards, stock_units, last == declarer, declarer_tricks,
        sum(tricks) - declarer_tricks, revokes[0], revokes[1], abandoned,
    )  # fmt: skip
    known = _SCORES.get(key)
    if known is not None and known[0] is rules:
        result = known[1]
    else:
        tally = make_tally(
            key[1], key[2], declarer, contract, modifier, declarer_cards, adversary_cards,
            stock_units, key[9], declarer_tricks, key[11], revokes[0], revokes[1], abandoned,
        )  # fmt: skip
        result = rules.score(tally)
        if len(_SCORES) >= _SCORES_SIZE:
            _SCORES.clear()
        _SCORES[key] = (rules, result)
    state._phase = _OVER
    state._to_move = None
    state._result = result
    return state


# --- table mode: irregular actions --------------------------------------------------


def apply_irregular(state: State, action: Action) -> State:
    """Apply a revoke, a card out of turn, an abandon or a stock turned early (table mode)."""
    if state._rules._play != PLAY_TABLE:
        raise IllegalActionError(
            action, "irregularities are not recorded under these rules (irregularities='forbid')"
        )
    if action.__class__ is TurnStock:
        if action not in legal.stock_turns(state):
            raise IllegalActionError(action, _why_not(state, action))
        return _turn_stock(state, action.seat, action)
    if state._phase is not _PLAYING:
        where = "the deal is over" if state._phase is _OVER else "the play has not begun"
        raise IllegalActionError(action, f"{describe(action)} belongs to the play: {where}")
    if action not in legal.irregular_actions(state):
        raise IllegalActionError(action, _why_not(state, action))
    s = state
    seat: int = s._to_move  # type: ignore[assignment]
    cls = action.__class__
    if cls is Revoke:
        return place(state, seat, action.card.index, action)  # type: ignore[union-attr]
    ex = s._exchange
    assert ex is not None
    who = ex.declarer if cls is Abandon else action.seat  # type: ignore[union-attr]
    history = s._history + ((who, action),)
    new = make_state(
        s._rules, s._deal, _PLAYING, seat, s._hand_masks, s._stock_mask, s._exchange,
        s._trick_cards, s._leader, s._card_units_won, s._tricks_won, history, None,
    )  # fmt: skip
    return finish(new, ex.declarer, abandoned=True) if cls is Abandon else new


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
    history = s._history + ((seat, action),)
    if seat != ex.declarer:
        work = work_of(state)
        work.exposed |= work.stock
        return close(state, work, history)
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


def place(state: State, seat: int, card: int, action: Action) -> State:
    """Put ``card`` of ``seat`` to the trick (a revoke): the trick is won as usual."""
    s = state
    hands = s._hand_masks
    new_hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1 :])
    history = s._history + ((seat, action),)
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
    return new if new_hands[winner] else finish(new, winner)
