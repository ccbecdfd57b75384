"""One deal between bots in one call: :func:`play_deal`."""

from __future__ import annotations

import random
import typing
from collections.abc import Sequence
from typing import Union

import calabrasella as cb

from .base import Bot, BotError, as_rng

__all__ = ["play_deal"]


def play_deal(
    rules: cb.Ruleset,
    bots: Sequence[Bot],
    rng: Union[random.Random, int],
    *,
    dealer: int = 0,
    state: cb.State | None = None,
) -> cb.State:
    """Play one deal between ``bots`` and return the finished state.

    The deal is shuffled from ``rng``; then, until the deal is over, the bot
    of the seat to move is handed that seat's view (never the state) and its
    choice is applied for that seat; a chance node (dividete's unseen draw)
    is resolved with :func:`calabrasella.sample_chance` from ``rng``. The
    same ``rng`` seed and the same (deterministic) bots give the same deal.

    Args:
        rules: The ruleset.
        bots: One bot per seat, seat 0 first (``rules.players`` of them; with
            four at the table the sitting-out dealer's bot is never asked).
        rng: A ``random.Random`` (advanced) or an int seed: the deal, then
            chance. The bots draw from their own generators.
        dealer: The dealer's seat.
        state: Play on from this state of a deal under ``rules`` instead of
            dealing a new one (``rng`` then only resolves chance).

    Returns:
        The finished state; its ``result`` holds the payments.

    Raises:
        BotError: ``bots`` does not hold one bot per seat, or a bot returned
            something that is not an action.
        IllegalActionError: A bot returned an action that is not legal for
            its seat (the message names it).
        SeedError: ``rng`` is neither an int nor a ``random.Random``.
        SeatError: ``dealer`` is not a seat at the table.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.base import RandomBot
        >>> bots = [RandomBot(seat) for seat in range(3)]
        >>> final = play_deal(cb.CAVENDISH, bots, 7)
        >>> final.is_over, sum(final.result.payments)
        (True, 0)
    """
    if len(bots) != rules.players:
        raise BotError(f"{rules.players} bots needed (one per seat), {len(bots)} given")
    pick = as_rng(rng)
    if state is None:
        state = cb.new_deal(rules, dealer=dealer, seed=pick)
    elif state.rules != rules:
        raise BotError(f"the state is a deal under {state.rules!r}, not {rules!r}")
    apply, sample = cb.apply, cb.sample_chance
    while not state.is_over:
        seat = state.to_move
        if seat is None:  # a chance node
            state = apply(state, sample(state, pick))
            continue
        action = bots[seat].choose(state.view(seat))
        if not isinstance(action, _ACTION_TYPES):
            raise BotError(f"the bot of seat {seat} returned {action!r}, not an action")
        state = apply(state, action, seat=seat)
    return state


_ACTION_TYPES = typing.get_args(cb.Action)
