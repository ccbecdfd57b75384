"""Legal actions of a state: the auction, the exchange's running step, and the play.

A query over a state's data, below the :class:`~calabrasella.State` that
offers it as :meth:`~calabrasella.State.legal_actions`; the public function
is :func:`calabrasella.legal_actions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import BIDS, PASS, PLAYS, Action, Bid, Contract, Play
from .phases import Phase
from .rulesets.base import Calls
from .rulesets.steps import Work

if TYPE_CHECKING:
    from .state import State

__all__ = ["auction_calls", "legal_actions", "work_of"]

_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING

# Play actions for every within-suit 10-bit mask, per suit: legal actions in
# the play are one or four tuple lookups.
SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    tuple(tuple(PLAYS[10 * s + p] for p in range(10) if m >> p & 1) for m in range(1024))
    for s in range(4)
)


def auction_calls(history: tuple[tuple[int, Action], ...]) -> Calls:
    """Return the auction so far as ``(seat, contract or None)`` pairs."""
    return tuple(
        (seat, action.contract if type(action) is Bid else None) for seat, action in history
    )


def work_of(state: State) -> Work:
    """Return a fresh working copy of ``state`` (which must be in the exchange)."""
    ex = state._exchange
    assert ex is not None
    return Work(
        state._rules,
        list(state._hand_masks),
        state._stock_mask,
        ex,
        len(state._history) + 1,
        state._phase,
        state._to_move,
    )


def legal_actions(state: State) -> tuple[Action, ...]:
    """Return the legal actions in ``state`` (see :func:`calabrasella.legal_actions`)."""
    phase = state._phase
    if phase is _PLAYING:
        hand = state._hand_masks[state._to_move]  # type: ignore[index]
        trick = state._trick_cards
        sp = SUIT_PLAYS
        if trick:
            suit = trick[0] // 10
            in_suit = hand >> (10 * suit) & 1023
            if in_suit and state._rules.follow_suit:
                return sp[suit][in_suit]
        return sp[0][hand & 1023] + sp[1][hand >> 10 & 1023] + sp[2][hand >> 20 & 1023] + sp[3][hand >> 30]
    if phase is _BIDDING:
        turn = state._rules.bidding_turn(state._deal.order, auction_calls(state._history))
        assert turn is not None
        allowed: tuple[Contract, ...] = turn[1]
        return (PASS, *[BIDS[c] for c in allowed])
    ex = state._exchange
    if ex is None or phase is Phase.OVER:
        return ()
    return ex.legal  # listed by the running step when the state was built
