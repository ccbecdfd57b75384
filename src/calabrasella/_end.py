"""The end of a deal: the tally of the tricks and the stock, and the ruleset's score."""

from __future__ import annotations

from .actions import Revoke
from .phases import OVER
from .rulesets.base import PLAY_TABLE
from .scoring import make_tally
from .state import State

__all__ = ["finish", "forget"]


def forget(state: State) -> None:
    """Drop what the engine remembers of the hooks' answers that ``state``'s next action uses.

    The auction positions after ``state``'s (the engine keeps no other
    answer of a hook: it scores every deal and asks ``callable_cards`` at
    every call): the next :func:`~calabrasella.apply` asks the ruleset's hooks
    afresh. The conformance kit calls it, to catch a hook that answers the
    same question twice in two ways.
    """
    here = state._auction
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
    numbers = rules._numbers
    stock = state._stock_mask
    t0, t1, t2, t3 = numbers.suit_units
    stock_units = t0[stock & 1023] + t1[stock >> 10 & 1023] + (
        t2[stock >> 20 & 1023] + t3[stock >> 30 & 1023]
    )
    declarer_cards = won[declarer]
    adversary_cards = sum(won) - declarer_cards
    if abandoned:  # he claims the stock, the last trick and all the adversaries had not won
        declarer_cards = numbers.cards - stock_units - adversary_cards
    contract, modifier = ex.contract, ex.modifier
    declarer_tricks = tricks[declarer]
    tally = make_tally(
        len(state._hand_masks), state._deal.dealer, declarer, contract, modifier, declarer_cards,
        adversary_cards, stock_units, last == declarer, declarer_tricks,
        sum(tricks) - declarer_tricks, revokes[0], revokes[1], abandoned, numbers.last_trick,
        numbers.revoke,
    )  # fmt: skip
    result = rules.score(tally)
    state._phase = OVER
    state._to_move = None
    state._result = result
    return state
