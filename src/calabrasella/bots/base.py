"""The bot interface: a bot is handed a view and returns one of its legal actions.

A bot never sees a :class:`~calabrasella.State`, only the
:class:`~calabrasella.View` of the seat it plays, so it cannot read a
hidden card by accident. Every bot takes an explicit ``random.Random`` (or an
int seed for one) and is deterministic given it: the same seed and the same
views give the same choices.

Bots here are *stateless between calls*: :meth:`Bot.choose` reads everything
it needs from the view (the view's history holds every public action, and
the seat's own face-down ones), and the only thing a bot keeps is its own
random generator. A bot that wants memory within a deal (a sampling bot's
cache of worlds, say) may keep it, keyed on what the view shows, but must
not rely on being asked at every step: a driver may skip its forced moves,
and :func:`~calabrasella.bots.simulate.simulate` builds fresh bots for each
deal from factories.
"""

from __future__ import annotations

import random
from typing import Protocol, Union, runtime_checkable

import calabrasella as cb
from calabrasella import actions
from calabrasella.errors import BotError

__all__ = ["Bot", "BotError", "RandomBot", "as_rng", "regular_actions"]

#: The table-mode actions that record a player's mistake: no bot here chooses them
#: (the one tuple of them, from calabrasella.actions).
IRREGULAR = actions.IRREGULAR


@runtime_checkable
class Bot(Protocol):
    """What a bot is: anything with ``choose(view) -> action``.

    ``choose`` is called only when the view's seat is to act, so
    ``view.legal_actions`` is never empty; it must return one of them.

    Example:
        >>> import calabrasella as cb
        >>> class FirstBot:
        ...     def choose(self, view: cb.View) -> cb.Action:
        ...         return view.legal_actions[0]
        >>> isinstance(FirstBot(), Bot)
        True
    """

    def choose(self, view: cb.View) -> cb.Action:
        """Return one of ``view.legal_actions``."""
        ...


def as_rng(rng: Union[random.Random, int], name: str = "rng") -> random.Random:
    """Return ``rng`` if it is a ``random.Random``, else a new one seeded with the int.

    Raises:
        SeedError: ``rng`` is neither (a bool is not taken for an int).

    Example:
        >>> as_rng(7).random() == random.Random(7).random()
        True
    """
    if isinstance(rng, random.Random):
        return rng
    if type(rng) is int:
        return random.Random(rng)
    raise cb.SeedError(f"{name}={rng!r}: expected an int or a random.Random")


def regular_actions(view: cb.View) -> tuple[cb.Action, ...]:
    """Return the view's legal actions without table mode's irregular ones.

    Under a ruleset that records irregularities (Cavendish with
    ``irregularities="record"``) a view also lists the mistakes its seat
    could make (``Revoke``, ``TurnStock``, ...); a bot that plays by the
    rules chooses among the rest, which is never empty when the seat is to act.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> [str(a) for a in regular_actions(view)]
        ['pass', 'bid stand']
    """
    actions = view.legal_actions
    if view.rules.irregularities == "forbid":
        return actions
    return tuple(a for a in actions if not isinstance(a, IRREGULAR))


def _choices(view: cb.View) -> tuple[cb.Action, ...]:
    """Return :func:`regular_actions` of a view whose seat is to act, for a bot's ``choose``.

    Raises:
        BotError: The view's seat is not to act (another seat is, chance is,
            or the deal is over): a bot is asked only when its seat is to act.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> [str(a) for a in _choices(state.view(1))]
        ['pass', 'bid stand']
        >>> _choices(state.view(0))
        Traceback (most recent call last):
        ...
        calabrasella.errors.BotError: seat 0 is not to act (seat 1 is): a bot is asked to choose only when its seat is to act
    """
    actions = regular_actions(view)
    if not actions:
        if view.to_move is not None:
            why = f"seat {view.to_move} is"
        else:
            why = "the deal is over" if view.phase is cb.Phase.OVER else "a chance draw is next"
        raise BotError(
            f"seat {view.seat} is not to act ({why}): a bot is asked to choose only when its "
            "seat is to act"
        )
    return actions


class RandomBot:
    """A bot that picks uniformly among its view's regular legal actions.

    Args:
        rng: A ``random.Random`` (used, and advanced, as is) or an int seed.

    Raises:
        SeedError: ``rng`` is neither an int nor a ``random.Random``.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> RandomBot(3).choose(view) in view.legal_actions
        True
    """

    #: The bot's name in a simulation's table.
    name = "random"

    def __init__(self, rng: Union[random.Random, int]) -> None:
        self.rng = as_rng(rng)

    def choose(self, view: cb.View) -> cb.Action:
        """Return one of the view's regular legal actions, uniformly at random.

        Raises:
            BotError: The view's seat is not to act.
        """
        return self.rng.choice(_choices(view))

    def __repr__(self) -> str:
        return "RandomBot(<rng>)"
