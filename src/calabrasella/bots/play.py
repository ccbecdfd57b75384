"""One deal between bots in one call: :func:`play_deal`."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Union

import calabrasella as cb

from ..actions import is_action
from ..errors import IllegalActionError
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
        BotError: ``bots`` does not hold one bot per seat, a bot is a class
            rather than a bot made from it, a bot has no ``choose`` method,
            or a bot returned something that is not an action (the message
            names the seat and the bot's class).
        IllegalActionError: A bot returned an action that is not legal for
            its seat (the message names the action, why, the seat, the bot's
            class, the action's number in the deal and the seed when ``rng``
            is an int).
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
    return _play_deal(rules, bots, rng, dealer=dealer, state=state)


def _play_deal(
    rules: cb.Ruleset,
    bots: Sequence[Bot],
    rng: Union[random.Random, int],
    *,
    dealer: int = 0,
    state: cb.State | None = None,
    where: Callable[[int], str] | None = None,
) -> cb.State:
    """:func:`play_deal`; ``where(seat)``, if given, says in a bot's error which deal and player it was."""
    if len(bots) != rules.players:
        raise BotError(f"{rules.players} bots needed (one per seat), {len(bots)} given")
    for number, each in enumerate(bots):
        if isinstance(each, type):
            raise BotError(
                f"the bot of seat {number} is the class {each.__qualname__}, not a bot: play_deal "
                f"wants bot objects, e.g. {each.__qualname__}(rng) (simulate is the one that takes "
                "classes, to build fresh bots for each deal)"
            )
        if not callable(getattr(each, "choose", None)):
            raise BotError(
                f"the bot of seat {number}, {_bot_label(each)}, has no choose(view) method: "
                "a bot is an object whose choose(view) returns one of view.legal_actions"
            )
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
        bot = bots[seat]
        action = bot.choose(state.view(seat))
        if not is_action(action):
            raise BotError(
                f"the bot of seat {seat}, {_bot_label(bot)}, returned {action!r}, not an action"
                + _in(where, seat, rng)
            )
        try:
            state = apply(state, action, seat=seat)
        except IllegalActionError as error:
            raise IllegalActionError(
                action,
                f"{error.reason} (chosen by the bot of seat {seat}, {_bot_label(bot)}, "
                f"as action {len(state.history) + 1} of the deal{_in(where, seat, rng)})",
            ) from None
    return state


def check_factories(factories: Sequence[object], caller: str) -> None:
    """Refuse a bot object (or anything not callable) where a bot factory belongs, saying what to give.

    :func:`~calabrasella.bots.simulate` and :func:`~calabrasella.bots.replay_deal`
    build a fresh bot for each deal; :func:`play_deal` takes the bots themselves
    (and refuses their classes).
    """
    for player, factory in enumerate(factories):
        if callable(factory):
            continue
        what = type(factory).__qualname__
        if callable(getattr(factory, "choose", None)):
            raise BotError(
                f"player {player}'s factory is a {what} object, a bot, not a factory: {caller} "
                f"wants a factory per player, called with a random.Random to build a fresh bot "
                f"for each deal: the class itself ({what}), or a function rng -> bot "
                "(play_deal is the one that takes bot objects)"
            )
        shown = repr(factory) if len(repr(factory)) <= 60 else repr(factory)[:57] + "..."
        raise BotError(
            f"player {player}'s factory is {shown}, not callable: {caller} wants a factory "
            "per player, called with a random.Random to build a bot (a bot class, or a function "
            "rng -> bot)"
        )


def _in_simulation(seed: int, index: int, seats: tuple[int, ...], seat: int) -> str:
    """Deal ``index`` of a simulation, as :func:`~calabrasella.bots.replay_deal` names it in an error."""
    return (
        f"deal {index} of the simulation with seed {seed}, player {seats[seat]}'s bot; "
        f"replay_deal(rules, bots, seed={seed}, index={index}) plays that deal alone"
    )


def _in(where: Callable[[int], str] | None, seat: int, rng: object) -> str:
    """Which deal: the caller's words, or the seed when the deal was dealt from an int."""
    if where is not None:
        return f"; {where(seat)}"
    return f"; the deal seeded {rng}" if type(rng) is int else ""


def _bot_label(bot: object) -> str:
    """Name a bot in a message by its class: ``mybots.GreedyBot``, ``HeuristicBot``.

    Example:
        >>> from calabrasella.bots.base import RandomBot
        >>> _bot_label(RandomBot(1)), _bot_label(object())
        ('RandomBot', 'object')
    """
    kind = type(bot)
    module = kind.__module__
    if module == "builtins" or module.startswith("calabrasella."):
        return kind.__qualname__
    return f"{module}.{kind.__qualname__}"

