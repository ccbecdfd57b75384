"""Legal actions of a state: the auction, the exchange's running step, and the play.

A query over a state's data, below the :class:`~calabrasella.State` that
offers it as :meth:`~calabrasella.State.legal_actions`; the public function
is :func:`calabrasella.legal_actions`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._auction import position_of
from ._tricks import legal_plays
from .actions import PLAYS, REVOKES, Abandon, Action, Draw, OutOfTurn, TurnStock
from .errors import IllegalActionError, SeatError
from .phases import BIDDING, CALLING, DISCARDING, EXCHANGING, GIVING_BACK, OVER, PLAYING
from .rulesets.base import PLAY_TABLE

if TYPE_CHECKING:
    from .state import State

__all__ = ["actor", "check_sender", "irregular_actions", "legal_actions", "stock_turns"]

_ABANDON = Abandon()


def actor(state: State, action: Action) -> int | None:
    """Return the seat that takes ``action`` in ``state``.

    The seat to move, except for table mode's irregular actions: the
    offender of :class:`OutOfTurn` and :class:`TurnStock`, the declarer for
    :class:`Abandon`.
    """
    cls = action.__class__
    if cls is OutOfTurn or cls is TurnStock:
        return action.seat  # type: ignore[union-attr]
    if cls is Abandon:
        ex = state._exchange
        return None if ex is None else ex.declarer
    return state._to_move


def irregular_actions(state: State) -> tuple[Action, ...]:
    """Return table mode's irregular actions in a play state, in a fixed order.

    The seat to move's revokes (every card off the suit led while it holds
    that suit, in canonical order); :class:`Abandon` right after a card out
    of turn; then each adversary not to move, by seat, with each card it
    holds as :class:`OutOfTurn`, in canonical order.
    """
    ex = state._exchange
    assert ex is not None
    seat: int = state._to_move  # type: ignore[assignment]
    hand = state._hand_masks[seat]
    out: list[Action] = []
    trick = state._trick_cards
    if trick:
        suit_mask = 1023 << (10 * (trick[0] // 10))
        if hand & suit_mask:
            out.extend(REVOKES[c] for c in range(40) if hand >> c & 1 and not suit_mask >> c & 1)
    history = state._history
    if history and history[-1][1].__class__ is OutOfTurn:
        out.append(_ABANDON)
    for other in sorted(state._deal.order):
        if other != seat and other != ex.declarer:
            held = state._hand_masks[other]
            out.extend(OutOfTurn(other, PLAYS[c].card) for c in range(40) if held >> c & 1)
    return tuple(out)


#: The exchange phases in which the stock may be turned early (table mode): a
#: variant's own step (EXCHANGING) comes before the single player's first discard too.
_EARLY = (CALLING, GIVING_BACK, DISCARDING, EXCHANGING)


def stock_turns(state: State) -> tuple[Action, ...]:
    """Return table mode's :class:`TurnStock` actions, every active seat's by seat.

    Legal while the stock is still face down and the single player has not
    discarded a card: asking, giving back, and discarding until his first.
    """
    ex = state._exchange
    if ex is None or state._phase not in _EARLY:
        return ()
    books = ex.books(state._history, len(state._hand_masks))
    if books.exposed or books.laid[ex.declarer]:
        return ()
    return tuple(TurnStock(seat) for seat in sorted(state._deal.order))


def legal_actions(state: State) -> tuple[Action, ...]:
    """Return the legal actions in ``state`` (see :func:`calabrasella.legal_actions`)."""
    phase = state._phase
    if phase is PLAYING:
        plays = legal_plays(
            state._hand_masks[state._to_move],  # type: ignore[index]
            state._trick_cards,
            state._rules.follow_suit,
        )
        if state._rules._play == PLAY_TABLE:
            return plays + irregular_actions(state)
        return plays
    if phase is BIDDING:
        return position_of(state).legal
    ex = state._exchange
    if ex is None or phase is OVER:
        return ()
    if state._rules._play == PLAY_TABLE:
        return ex.legal + stock_turns(state)
    return ex.legal  # listed by the running step when the state was built


def check_sender(state: State, action: Action, seat: int) -> None:
    """Refuse ``action`` unless it is ``seat``'s to make in ``state`` (see :func:`actor`).

    Raises:
        SeatError: ``seat`` is not a seat of this table.
        IllegalActionError: the action is another seat's, or chance's.
    """
    players = len(state._hand_masks)
    if type(seat) is not int or not 0 <= seat < players:
        raise SeatError(seat, players)
    if action.__class__ is Draw:
        raise IllegalActionError(
            action, f"sent by seat {seat}, but a draw is chance's, not a seat's to send"
        )
    by = actor(state, action)
    if by is None:
        raise IllegalActionError(action, f"sent by seat {seat}, but no seat may make it now")
    if by != seat:
        raise IllegalActionError(action, f"sent by seat {seat}, but it is seat {by}'s to make")
