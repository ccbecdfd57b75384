"""Table mode: the irregular actions a ruleset set to record them accepts.

A revoke, a card out of turn, the single player's abandon and a stock turned
early (``irregularities="record"``). Which of them are legal is a query in
:mod:`calabrasella._legal`; applying one is here. Under the default
``"forbid"`` every one is refused.
"""

from __future__ import annotations

from . import _legal
from ._end import finish
from ._exchange import close, work_of
from ._tricks import trick_winner
from .actions import Abandon, Action, Revoke, TurnStock
from .errors import IllegalActionError
from .phases import OVER, PLAYING
from .places import _STOCK, EVERYONE
from .rulesets.base import PLAY_TABLE
from .rulesets.steps import describe
from .scoring import Result, Tally, settle
from .state import State, evolve

__all__ = ["apply_irregular"]


def apply_irregular(state: State, action: Action) -> State:
    """Apply a revoke, a card out of turn, an abandon or a stock turned early (table mode)."""
    if state._rules._play != PLAY_TABLE:
        raise IllegalActionError(
            action, "irregularities are not recorded under these rules (irregularities='forbid')"
        )
    if action.__class__ is TurnStock:
        if action not in _legal.stock_turns(state):
            raise IllegalActionError(action, _why_not(state, action))
        return _turn_stock(state, action.seat, action)
    if state._phase is not PLAYING:
        where = "the deal is over" if state._phase is OVER else "the play has not begun"
        raise IllegalActionError(action, f"{describe(action)} belongs to the play: {where}")
    if action not in _legal.irregular_actions(state):
        raise IllegalActionError(action, _why_not(state, action))
    seat: int = state._to_move  # type: ignore[assignment]
    cls = action.__class__
    if cls is Revoke:
        return place(state, seat, action.card.index, action)  # type: ignore[union-attr]
    ex = state._exchange
    assert ex is not None
    who = ex.declarer if cls is Abandon else action.seat  # type: ignore[union-attr]
    new = evolve(state, history=state._history + ((who, action),))
    return finish(new, ex.declarer, abandoned=True) if cls is Abandon else new


def _why_not(state: State, action: Action) -> str:
    seat = state._to_move
    cls = action.__class__
    if cls is Revoke:
        if not state._trick_cards:
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
    """The stock turned early: by the single player the deal is void and he pays a whole
    deal's units (35) to each adversary; by an adversary, no penalty, the stock is face
    up for all."""
    ex = state._exchange
    assert ex is not None
    history = state._history + ((seat, action),)
    if seat != ex.declarer:
        work = work_of(state)
        words = f"turned the {state._rules.terms.stock} face up"
        work._move(work.stock, _STOCK, _STOCK, EVERYONE, words, seat, False)
        return close(state, work, history)
    units = state._rules.deal_units  # the value of a whole deal
    tally = Tally(
        players=state.players, dealer=state._deal.dealer, declarer=seat, contract=ex.contract,
        modifier=ex.modifier, declarer_card_units=0, adversary_card_units=0, stock_units=0,
        declarer_last=False, declarer_tricks=0, adversary_tricks=0,
        last_trick_units=state._rules.last_trick_units, revoke_units=state._rules.revoke_units,
    )  # fmt: skip
    result = Result(
        void=True,
        declarer=seat,
        contract=ex.contract,
        modifier=ex.modifier,
        payments=settle(
            tally, declarer_won=False, value=units, dealer_shares=state._rules.dealer_shares
        ),
        notes=(
            "the single player turned the stock before he had discarded: "
            f"the deal is void and he loses {units} to each adversary",
        ),
    )
    return evolve(state, phase=OVER, to_move=None, history=history, result=result)


def place(state: State, seat: int, card: int, action: Action) -> State:
    """Put ``card`` of ``seat`` to the trick (a revoke): the trick is won as usual."""
    hands = state._hand_masks
    new_hands = (*hands[:seat], hands[seat] & ~(1 << card), *hands[seat + 1 :])
    history = state._history + ((seat, action),)
    cards = (*state._trick_cards, card)
    if len(cards) < 3:
        return evolve(
            state, to_move=state._deal.next_seat[seat], hand_masks=new_hands, trick_cards=cards,
            history=history,
        )  # fmt: skip
    winner = trick_winner(cards, state._leader, state._deal.next_seat)
    won = list(state._card_units_won)
    units = state._rules._numbers.units
    won[winner] += units[cards[0]] + units[cards[1]] + units[card]
    tricks = list(state._tricks_won)
    tricks[winner] += 1
    new = evolve(
        state, to_move=winner, hand_masks=new_hands, trick_cards=(), leader=winner,
        card_units_won=tuple(won), tricks_won=tuple(tricks), history=history,
    )  # fmt: skip
    return new if new_hands[winner] else finish(new, winner)
