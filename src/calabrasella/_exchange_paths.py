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

from .actions import DISCARDS, DONE, GIVE_BACKS, Action, Call, Discard, GiveBack, Pass
from .errors import RulesetError
from .phases import Phase
from .rulesets.base import Ruleset
from .rulesets.protocol import _DECLARER, card_actions, role_seat
from .rulesets.steps import DiscardStep, Exchange, GiveBackStep
from .state import State, make_state

__all__ = [
    "after_call",
    "after_give_back",
    "after_last_discard",
    "after_no_raise",
    "first_lead",
    "waiting_state",
]

_tuple_new = tuple.__new__
_new = object.__new__
_PLAYING = Phase.PLAYING
_GIVING_BACK = Phase.GIVING_BACK
_DISCARDING = Phase.DISCARDING
_DONE_FIRST: tuple[Action, ...] = (DONE,)


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
    plan = ex.plan
    at = ex.step + 1
    if at >= len(plan) or plan[at].__class__ is not GiveBackStep or action not in ex.legal:
        return None
    card = action.card.index
    bit = 1 << card
    hands = state._hand_masks
    giver = 0
    for hand in hands:
        if hand & bit:
            break
        giver += 1
    else:  # in the stock: nobody gives, and the give-back is skipped
        return None
    declarer = ex.declarer
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


def after_give_back(state: State, ex: Exchange, action: GiveBack) -> State | None:
    """Return the state after a legal give-back when a :class:`DiscardStep` that asks comes
    next (``None`` otherwise: the general way).

    What :meth:`GiveBackStep.apply`, then the discard's ``start`` and ``legal_actions``, do.
    """
    plan = ex.plan
    at = ex.step + 1
    if at >= len(plan) or plan[at].__class__ is not DiscardStep or action not in ex.legal:
        return None
    step: DiscardStep = plan[at]  # type: ignore[assignment]
    (
        declarer, contract, modifier, _, _, _, called, giver,
        _, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    role = step.role
    seat = declarer if role is _DECLARER else role_seat(role, order, declarer)
    if step.as_taken:
        if not taken[seat]:  # skipped: the general way
            return None
        low = taken[seat].bit_count()
    else:
        low = step.min_count
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
    (
        declarer, contract, modifier, plan, at, _, called, giver,
        gave_back, exposed, discards, taken, drawn, starts, forced, order, _,
    ) = ex  # fmt: skip
    if at + 1 != len(plan):
        return None
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


