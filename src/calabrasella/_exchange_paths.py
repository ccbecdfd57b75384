"""The exchange's one-step paths: the usual actions, applied without a working copy.

What the exchange steps would do on a :class:`~calabrasella.rulesets.Work`
(apply the action, start the next step, list its legal actions), done
directly on the state for the built-in steps and their usual order; each
returns ``None`` when its case is not met, and the engine goes the general
way (:mod:`calabrasella._driver`). tests/property/test_exchange_fast_paths.py
holds them to it.
"""

from __future__ import annotations

from typing import Any

from .actions import DISCARDS, DONE, GIVE_BACKS, TAKES, Action, Call, Discard, GiveBack, Pass
from .errors import RulesetError
from .phases import Phase
from .rulesets.base import Ruleset
from .rulesets.protocol import _DECLARER, card_actions, role_seat
from .rulesets.steps import (
    DiscardStep,
    DrawStep,
    Exchange,
    ExposeStep,
    GiveBackStep,
    RaiseStep,
    TakeStep,
    _draw,
    _draw_outcomes,
)
from .state import State, make_state

__all__ = [
    "after_call",
    "after_discard_end",
    "after_done",
    "after_draw",
    "after_give_back",
    "after_last_discard",
    "after_no_raise",
    "after_raise",
    "after_take",
    "after_take_done",
    "first_lead",
    "run_steps",
    "waiting_state",
]

_tuple_new = tuple.__new__
_new = object.__new__
_PLAYING = Phase.PLAYING
_GIVING_BACK = Phase.GIVING_BACK
_DISCARDING = Phase.DISCARDING
_TAKING = Phase.TAKING
_DRAWING = Phase.DRAWING
_DONE_FIRST: tuple[Action, ...] = (DONE,)


def _listed(action: Action, legal: tuple[Action, ...]) -> bool:
    """Tell whether ``action`` is one of ``legal``: the shared instance the engine lists
    is found by identity, before any ``==`` (an action's is written in Python, and dear)."""
    for listed in legal:
        if listed is action:
            return True
    return action in legal


def waiting_state(
    state: State,
    phase: Phase,
    seat: int,
    hands: tuple[int, ...],
    record: Exchange,
    history: tuple[tuple[int, Action], ...],
) -> State:
    """Return the state of the exchange that waits for ``seat`` (the stock and the play as in ``state``)."""
    new = _new(State)
    new._rules = state._rules
    new._deal = state._deal
    new._phase = phase
    new._to_move = seat
    new._hand_masks = hands
    new._stock_mask = state._stock_mask
    new._exchange = record
    new._trick_cards = ()
    new._leader = state._leader
    new._card_units_won = state._card_units_won
    new._tricks_won = state._tricks_won
    new._history = history
    new._result = None
    return new


def after_no_raise(state: State, ex: Exchange, action: Pass) -> State:
    """Return the state after the declarer declines to raise, the exchange's last step: the
    play begins (what :meth:`RaiseStep.apply` and :func:`begin_play` do)."""
    (
        declarer, contract, modifier, plan, at, moved, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    rules = state._rules
    hands = state._hand_masks
    stock = state._stock_mask
    leader = first_lead(rules, contract, modifier, order, declarer, hands, stock)  # type: ignore[arg-type]
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at + 1, moved, called, giver, gave_back, exposed,
        discards, taken, drawn, starts, forced, order, (),
    ))  # fmt: skip
    s = state
    return make_state(
        rules, s._deal, _PLAYING, leader, hands, stock, record, (), leader,
        s._card_units_won, s._tricks_won, s._history + ((declarer, action),), None,
    )  # fmt: skip


def after_call(state: State, ex: Exchange, action: Call) -> State | None:
    """Return the state after a legal call whose card an adversary holds, when a
    :class:`GiveBackStep` comes next (``None`` otherwise: the general way).

    What :meth:`CallStep.apply`, then the give-back's ``start`` and
    ``legal_actions``, do.
    """
    if not _listed(action, ex.legal):
        return None
    plan = ex.plan
    at = ex.step + 1
    card = action.card.index
    bit = 1 << card
    hands = state._hand_masks
    giver = 0
    for hand in hands:
        if hand & bit:
            break
        giver += 1
    else:
        giver = -1
    declarer = ex.declarer
    if at >= len(plan) or plan[at].__class__ is not GiveBackStep:  # the next steps start
        fields: list[Any] = list(ex)
        held = list(hands)
        if giver >= 0:
            held[giver] ^= bit
            held[declarer] |= bit
        fields[4], fields[6], fields[7] = at, card, giver
        entries = state._history + ((declarer, action),)
        return run_steps(state, fields, held, state._stock_mask, entries)
    if giver < 0:  # in the stock: nobody gives, and the give-back is skipped
        return _call_from_stock(state, ex, at + 1, action)
    held = list(hands)
    held[giver] ^= bit
    held[declarer] |= bit
    (
        _, contract, modifier, _, _, _, _, _,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    history = state._history
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at, 0, card, giver, gave_back, exposed, discards,
        taken, drawn, starts + (len(history) + 1,), forced, order,
        card_actions(GIVE_BACKS, held[declarer] ^ bit),
    ))  # fmt: skip
    return waiting_state(
        state, _GIVING_BACK, declarer, tuple(held), record, history + ((declarer, action),)
    )


def discard_bounds(
    step: DiscardStep, declarer: int, order: tuple[int, ...], taken: tuple[int, ...]
) -> tuple[int, int]:
    """Return the seat ``step`` asks to discard and the fewest cards it must put down
    (with ``as_taken`` as many as it took: none means the step is skipped)."""
    role = step.role
    seat = declarer if role is _DECLARER else role_seat(role, order, declarer)
    return seat, taken[seat].bit_count() if step.as_taken else step.min_count


def _call_from_stock(state: State, ex: Exchange, at: int, action: Call) -> State | None:
    """Return the state after a legal call of a stock card when a :class:`DiscardStep`
    that asks follows the (skipped) give-back at ``at - 1`` (``None`` otherwise)."""
    plan = ex.plan
    if at >= len(plan) or plan[at].__class__ is not DiscardStep:
        return None
    step: DiscardStep = plan[at]  # type: ignore[assignment]
    (
        declarer, contract, modifier, _, _, _, _, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    seat, low = discard_bounds(step, declarer, order, taken)
    if step.as_taken and not low:  # skipped: the general way
        return None
    hands = state._hand_masks
    cards = card_actions(DISCARDS, hands[seat])
    history = state._history
    length = len(history) + 1
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at, 0, action.card.index, giver, gave_back,
        exposed, discards, taken, drawn, starts + (length, length), forced, order,
        _DONE_FIRST + cards if low <= 0 else cards,
    ))  # fmt: skip
    return waiting_state(state, _DISCARDING, seat, hands, record, history + ((declarer, action),))


def after_give_back(state: State, ex: Exchange, action: GiveBack) -> State | None:
    """Return the state after a legal give-back when a :class:`DiscardStep` that asks comes
    next (``None`` otherwise: the general way).

    What :meth:`GiveBackStep.apply`, then the discard's ``start`` and ``legal_actions``, do.
    """
    plan = ex.plan
    at = ex.step + 1
    if at >= len(plan) or plan[at].__class__ is not DiscardStep or not _listed(action, ex.legal):
        return None
    step: DiscardStep = plan[at]  # type: ignore[assignment]
    (
        declarer, contract, modifier, _, _, _, called, giver,
        _, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    seat, low = discard_bounds(step, declarer, order, taken)
    if step.as_taken and not low:  # skipped: the general way
        return None
    card = action.card.index
    bit = 1 << card
    held = list(state._hand_masks)
    held[declarer] ^= bit
    held[giver] |= bit
    cards = card_actions(DISCARDS, held[seat])
    history = state._history
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at, 0, called, giver, card, exposed, discards,
        taken, drawn, starts + (len(history) + 1,), forced, order,
        _DONE_FIRST + cards if low <= 0 else cards,
    ))  # fmt: skip
    return waiting_state(
        state, _DISCARDING, seat, tuple(held), record, history + ((declarer, action),)
    )


def after_last_discard(
    state: State, ex: Exchange, seat: int, bit: int, moved: int, action: Discard
) -> State | None:
    """Return the state after a discard that ends the last step of the plan: the play
    begins (``None`` when more steps follow: the general way)."""
    if ex.step + 1 != len(ex.plan):
        return after_discard_end(state, ex, seat, bit, action)
    (
        declarer, contract, modifier, plan, at, _, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    held = list(state._hand_masks)
    held[seat] ^= bit
    stock = state._stock_mask | bit
    rules = state._rules
    leader = first_lead(rules, contract, modifier, order, declarer, held, stock)
    put = list(discards)
    put[seat] |= bit
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at + 1, moved, called, giver, gave_back, exposed,
        tuple(put), taken, drawn, starts, forced, order, (),
    ))  # fmt: skip
    s = state
    return make_state(
        rules, s._deal, _PLAYING, leader, tuple(held), stock, record, (), leader,
        s._card_units_won, s._tricks_won, s._history + ((seat, action),), None,
    )  # fmt: skip


def first_lead(
    rules: Ruleset,
    contract: Any,
    modifier: Any,
    order: tuple[int, ...],
    declarer: int,
    hands: list[int],
    stock: int,
) -> int:
    """Check the hands and the stock an exchange leaves; return the seat that leads first.

    Raises:
        RulesetError: The ruleset's exchange left a hand or the stock of the wrong size.
    """
    hand_size, stock_size = rules.play_sizes(contract, modifier)
    for seat in order:
        held = hands[seat].bit_count()
        if held != hand_size:
            raise RulesetError(
                f"{rules.name}: the exchange leaves seat {seat} with {held} cards, not {hand_size}"
            )
    if stock.bit_count() != stock_size:
        raise RulesetError(
            f"{rules.name}: the exchange leaves {stock.bit_count()} cards in the stock, "
            f"not {stock_size}"
        )
    leader: int = rules.first_leader(
        order=order, declarer=declarer, contract=contract, modifier=modifier
    )
    return leader




def after_discard_end(
    state: State, ex: Exchange, seat: int, bit: int, action: Action
) -> State | None:
    """Return the state after a discard step ends (its last discard ``bit``, or ``Done``
    with ``bit`` 0) when the plan's last two steps follow: the stock turned up, then a
    :class:`TakeStep` of ``"as_discarded"`` or ``"all"`` (``None`` otherwise: the general way).

    What :meth:`DiscardStep.apply`, then :meth:`ExposeStep.start` and
    :meth:`TakeStep.start` (a forced take, or asking the seat) and, when
    nothing is left to choose, :func:`begin_play`, do.
    """
    plan = ex.plan
    at = ex.step
    step = plan[at + 2] if at + 3 == len(plan) else None
    if (
        step is None
        or plan[at + 1].__class__ is not ExposeStep
        or step.__class__ is not TakeStep
        or step.count == "any"
    ):
        return _discard_then_steps(state, ex, seat, bit, action)
    count = step.count
    (
        declarer, contract, modifier, _, _, _, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    held = list(state._hand_masks)
    held[seat] ^= bit
    stock = state._stock_mask | bit
    if bit:
        put = list(discards)
        put[seat] |= bit
        discards = tuple(put)
    laid = 0
    for m in discards:
        laid |= m
    takeable = stock & ~laid
    exposed |= takeable
    history = state._history
    length = len(history) + 1
    starts = starts + (length, length)
    role = step.role
    taker = declarer if role is _DECLARER else role_seat(role, order, declarer)
    if count == "all":
        cards = takeable
    else:
        left = discards[taker].bit_count() - taken[taker].bit_count()
        if left <= 0:
            cards = 0
        elif left >= takeable.bit_count():
            cards = takeable
        else:  # a choice to make: the taker is asked
            record: Exchange = _tuple_new(Exchange, (
                declarer, contract, modifier, plan, at + 2, 0, called, giver, gave_back,
                exposed, discards, taken, drawn, starts, forced, order,
                card_actions(TAKES, takeable),
            ))  # fmt: skip
            new = waiting_state(
                state, _TAKING, taker, tuple(held), record, history + ((seat, action),)
            )
            new._stock_mask = stock
            return new
    if cards:
        stock &= ~cards
        held[taker] |= cards
        got = list(taken)
        got[taker] |= cards
        taken = tuple(got)
        forced += tuple([(length, at + 2, taker, a) for a in card_actions(TAKES, cards)])
    rules = state._rules
    leader = first_lead(rules, contract, modifier, order, declarer, held, stock)
    record = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at + 3, 0, called, giver, gave_back, exposed,
        discards, taken, drawn, starts, forced, order, (),
    ))  # fmt: skip
    s = state
    return make_state(
        rules, s._deal, _PLAYING, leader, tuple(held), stock, record, (), leader,
        s._card_units_won, s._tricks_won, history + ((seat, action),), None,
    )  # fmt: skip


def _discard_then_steps(
    state: State, ex: Exchange, seat: int, bit: int, action: Action
) -> State | None:
    """Return the state after a discard step ends (its last discard ``bit``, or ``Done``
    with ``bit`` 0), the next steps started by :func:`run_steps` (``None``: the general way)."""
    fields: list[Any] = list(ex)
    held = list(state._hand_masks)
    held[seat] ^= bit
    if bit:
        put = list(ex.discards)
        put[seat] |= bit
        fields[10] = tuple(put)
        fields[5] = ex.moved + 1
    fields[4] = ex.step + 1
    entries = state._history + ((seat, action),)
    return run_steps(state, fields, held, state._stock_mask | bit, entries)


def after_done(state: State, ex: Exchange, step: DiscardStep, action: Action) -> State | None:
    """Return the state after a legal ``Done`` that ends a discard step, when the stock is
    turned up and taken from next (see :func:`after_discard_end`; ``None`` otherwise)."""
    if step.as_taken or ex.moved < step.min_count:  # refused, or as_taken: the general way
        return None
    role = step.role
    declarer = ex.declarer
    seat = declarer if role is _DECLARER else role_seat(role, ex.order, declarer)
    return after_discard_end(state, ex, seat, 0, action)


def after_take(state: State, ex: Exchange, step: TakeStep, action: Any) -> State | None:
    """Return the state after a legal ``Take`` that leaves the take open, or ends the
    plan's last step (the play begins); ``None`` otherwise: the general way.

    What :meth:`TakeStep.apply` (a forced take of the rest included), then its
    ``legal_actions`` or :func:`begin_play`, do.
    """
    (
        declarer, contract, modifier, plan, at, moved, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    bit = 1 << action.card.index
    stock = state._stock_mask
    laid = 0
    for m in discards:
        laid |= m
    if not stock & bit or laid & bit:  # refused: the general way says why
        return None
    role = step.role
    seat = declarer if role is _DECLARER else role_seat(role, order, declarer)
    stock ^= bit
    held = list(state._hand_masks)
    held[seat] |= bit
    got = list(taken)
    got[seat] = mine = got[seat] | bit
    moved += 1
    takeable = stock & ~laid
    history = state._history
    count = step.count
    if count == "as_discarded":
        left = discards[seat].bit_count() - mine.bit_count()
        if left and left == takeable.bit_count():  # forced: the rest at once
            stock ^= takeable
            held[seat] |= takeable
            got[seat] |= takeable
            length = len(history) + 1
            forced += tuple([(length, at, seat, a) for a in card_actions(TAKES, takeable)])
            left = 0
        over = left == 0
    else:
        over = not takeable
    entries = history + ((seat, action),)
    s = state
    if not over:
        cards = card_actions(TAKES, takeable)
        record: Exchange = _tuple_new(Exchange, (
            declarer, contract, modifier, plan, at, moved, called, giver, gave_back, exposed,
            discards, tuple(got), drawn, starts, forced, order,
            _DONE_FIRST + cards if count == "any" else cards,
        ))  # fmt: skip
        return make_state(
            s._rules, s._deal, s._phase, s._to_move, tuple(held), stock, record, (),
            s._leader, s._card_units_won, s._tricks_won, entries, None,
        )  # fmt: skip
    if at + 1 != len(plan):  # the next steps start
        fields: list[Any] = list(ex)
        fields[4], fields[5], fields[11], fields[14] = at + 1, moved, tuple(got), forced
        return run_steps(state, fields, held, stock, entries)
    rules = s._rules
    leader = first_lead(rules, contract, modifier, order, declarer, held, stock)
    record = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at + 1, moved, called, giver, gave_back, exposed,
        discards, tuple(got), drawn, starts, forced, order, (),
    ))  # fmt: skip
    return make_state(
        rules, s._deal, _PLAYING, leader, tuple(held), stock, record, (), leader,
        s._card_units_won, s._tricks_won, entries, None,
    )  # fmt: skip


def after_take_done(state: State, ex: Exchange, step: TakeStep, action: Action) -> State | None:
    """Return the state after ``Done`` ends a take of ``"any"`` (``None`` otherwise: the
    general way); the next steps start as :func:`run_steps` starts them."""
    if step.count != "any":
        return None
    role = step.role
    declarer = ex.declarer
    seat = declarer if role is _DECLARER else role_seat(role, ex.order, declarer)
    fields: list[Any] = list(ex)
    fields[4] = ex.step + 1
    entries = state._history + ((seat, action),)
    return run_steps(state, fields, list(state._hand_masks), state._stock_mask, entries)


def after_draw(state: State, ex: Exchange, step: DrawStep, action: Any) -> State | None:
    """Return the state after a legal draw (``None`` otherwise: the general way); the next
    steps start as :func:`run_steps` starts them. What :meth:`DrawStep.apply`, then the
    driver, do."""
    cards = action.cards.mask
    stock = state._stock_mask
    if cards & ~stock or cards.bit_count() != step.count:  # refused: the general way says why
        return None
    role = step.role
    declarer = ex.declarer
    seat = declarer if role is _DECLARER else role_seat(role, ex.order, declarer)
    held = list(state._hand_masks)
    held[seat] |= cards
    fields: list[Any] = list(ex)
    got = list(ex.drawn)
    got[seat] |= cards
    fields[12] = tuple(got)
    fields[4] = ex.step + 1
    entries = state._history + ((seat, action),)
    return run_steps(state, fields, held, stock & ~cards, entries)


def after_raise(state: State, ex: Exchange, step: RaiseStep, action: Any) -> State | None:
    """Return the state after a legal raise (``None`` otherwise: the general way): the
    ruleset's steps for it go in after the raise, and start as :func:`run_steps` starts them.

    What :meth:`RaiseStep.apply`, then the driver, do.
    """
    if not _listed(action, ex.legal):
        return None
    modifier = action.modifier
    extra = state._rules.raise_plan(modifier)
    plan = ex.plan
    at = ex.step + 1
    fields: list[Any] = list(ex)
    fields[2], fields[3], fields[4] = modifier, (*plan[:at], *extra, *plan[at:]), at
    entries = state._history + ((ex.declarer, action),)
    return run_steps(state, fields, list(state._hand_masks), state._stock_mask, entries)


def run_steps(
    state: State,
    fields: list[Any],
    held: list[int],
    stock: int,
    history: tuple[tuple[int, Action], ...],
) -> State | None:
    """Start the plan's steps from ``fields[4]`` until one waits or the play begins, and
    return the state; ``None`` when a step is not one this knows (the general way).

    ``fields`` are the exchange record's, as a list (changed here), ``held``
    the hands and ``stock`` the stock after the action, ``history`` with the
    action's entry. What :func:`~calabrasella._driver.advance` does with the
    built-in steps' ``start`` and ``legal_actions``: a turned-up stock, a
    take with no choice, a skipped give-back or discard; a call, a raise, a
    forced draw, or a step of any other class, go the general way.
    """
    (
        declarer, contract, modifier, plan, at, moved, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = fields  # fmt: skip
    length = len(state._history) + 1
    laid = 0
    for m in discards:
        laid |= m
    phase: Phase = _PLAYING
    seat = -1
    legal: tuple[Action, ...] = ()
    while at < len(plan):
        step = plan[at]
        kind = step.__class__
        moved = 0
        starts += (length,)
        if kind is ExposeStep:
            exposed |= stock & ~laid
        elif kind is TakeStep:
            role = step.role
            seat = declarer if role is _DECLARER else role_seat(role, order, declarer)
            takeable = stock & ~laid
            count = step.count
            if count == "all":
                cards: int | None = takeable
            elif count == "as_discarded":
                left = discards[seat].bit_count() - taken[seat].bit_count()
                cards = 0 if left <= 0 else takeable if left >= takeable.bit_count() else None
            else:
                cards = None if takeable else 0
            if cards is None:
                phase = _TAKING
                legal = card_actions(TAKES, takeable)
                if count == "any":
                    legal = _DONE_FIRST + legal
                break
            if cards:
                stock &= ~cards
                held[seat] |= cards
                got = list(taken)
                got[seat] |= cards
                taken = tuple(got)
                forced += tuple([(length, at, seat, a) for a in card_actions(TAKES, cards)])
        elif kind is DiscardStep:
            seat, low = discard_bounds(step, declarer, order, taken)
            if step.as_taken and not low:  # it took nothing: skipped
                at += 1
                continue
            phase = _DISCARDING
            legal = card_actions(DISCARDS, held[seat])
            if low <= 0:
                legal = _DONE_FIRST + legal
            break
        elif kind is GiveBackStep:
            if giver >= 0:
                phase, seat = _GIVING_BACK, declarer
                legal = card_actions(GIVE_BACKS, held[declarer] & ~(1 << called if called >= 0 else 0))
                break
        elif kind is DrawStep:
            count = step.count
            if count >= stock.bit_count():  # no chance left: the whole stock, for him
                role = step.role
                seat = declarer if role is _DECLARER else role_seat(role, order, declarer)
                held[seat] |= stock
                got = list(drawn)
                got[seat] |= stock
                drawn = tuple(got)
                if stock:
                    forced += ((length, at, seat, _draw(stock)),)
                stock = 0
            elif count > 0:
                phase = _DRAWING
                legal = _draw_outcomes(stock, count)
                break
        else:
            return None
        at += 1
    rules = state._rules
    if phase is _PLAYING:
        seat = leader = first_lead(rules, contract, modifier, order, declarer, held, stock)
    else:
        leader = state._leader
    record: Exchange = _tuple_new(Exchange, (
        declarer, contract, modifier, plan, at, moved, called, giver, gave_back, exposed,
        discards, taken, drawn, starts, forced, order, legal,
    ))  # fmt: skip
    s = state
    return make_state(
        rules, s._deal, phase, None if phase is _DRAWING else seat, tuple(held), stock,
        record, (), leader, s._card_units_won, s._tricks_won, history, None,
    )  # fmt: skip
