"""The library's exceptions.

Every error the library raises on purpose derives from
:class:`CalabrasellaError`. The ones caused by bad input also derive from
:class:`ValueError`, so code that already catches ``ValueError`` keeps working.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "CalabrasellaError",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RulesetError",
    "RulesetOptionError",
    "SeatError",
    "SeedError",
    "StateError",
]


class CalabrasellaError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalActionError(CalabrasellaError, ValueError):
    """An action that is not legal in the state it was applied to.

    The state it was applied to is left unchanged (states are immutable).

    Attributes:
        action: The offending action (or whatever object was passed).
        reason: Why it is illegal, in words.

    Example:
        >>> err = IllegalActionError("Ad", "the deal is over")
        >>> str(err)
        "illegal action 'Ad': the deal is over"
        >>> isinstance(err, ValueError)
        True
    """

    def __init__(self, action: Any, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action!r}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.action, self.reason))


class NotationError(CalabrasellaError, ValueError):
    """Text that does not name a card, a suit, a rank, a set of cards, a contract or a raise.

    Example:
        >>> from calabrasella import Card
        >>> Card.parse("10h")
        Traceback (most recent call last):
        ...
        calabrasella.errors.NotationError: not a card: '10h' (no rank '10' in a 40-card pack)
    """


class RulesetError(CalabrasellaError, ValueError):
    """An unknown ruleset name or an invalid ruleset option."""


class RulesetOptionError(RulesetError, TypeError):
    """A ruleset built with an option it does not have, without one it needs, or by position.

    A :class:`RulesetError` and a :class:`TypeError` (what a wrong keyword
    argument raised before). The message names the ruleset and lists its options.

    Example:
        >>> from calabrasella import Cavendish
        >>> Cavendish(auction="single_round")
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetOptionError: Cavendish() has no option 'auction' (its options: players, packet, first_lead, dealer_shares, irregularities)
    """


class RecordError(CalabrasellaError, ValueError):
    """A malformed game record, deal description or replay that does not fit.

    Raised by the loaders of :mod:`calabrasella.records` for anything
    malformed or forged, with the place in the document and the reason.
    ``RecordError(message)`` alone works too (``where`` is then empty).

    Attributes:
        where: Where in the input: a path such as ``"actions[12]"`` or
            ``"deal.hands[1]"``, or ``"line 7"`` in a text record; empty
            when the whole input is at fault or no place is known.
        reason: Why, in words (the message without the place).

    Example:
        >>> err = RecordError(where="actions[3]", reason="not an action: 'jump'")
        >>> str(err), err.where
        ("actions[3]: not an action: 'jump'", 'actions[3]')
    """

    def __init__(self, message: str = "", *, where: str = "", reason: str = "") -> None:
        self.where = where
        self.reason = reason or message
        if not message:
            message = f"{where}: {reason}" if where else reason
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self),), {"where": self.where, "reason": self.reason})


class StateError(CalabrasellaError, TypeError):
    """Something that is not a :class:`~calabrasella.State` where a state is needed.

    A :class:`~calabrasella.View` is what a seat may know, not a state: it
    cannot be advanced with :func:`~calabrasella.apply`.
    """


class SeatError(CalabrasellaError, ValueError, IndexError):
    """A seat number that is not a seat at the table.

    Also an :class:`IndexError`, which a bad seat used to raise.

    Attributes:
        seat: The offending value.
        players: Seats at the table.

    Example:
        >>> str(SeatError(5, 3))
        'seat 5: expected 0..2 at a table of 3'
    """

    def __init__(self, seat: Any, players: int) -> None:
        self.seat = seat
        self.players = players
        super().__init__(f"seat {seat!r}: expected 0..{players - 1} at a table of {players}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.seat, self.players))


class SeedError(RecordError, TypeError):
    """A seed or generator that is neither an int nor a ``random.Random``.

    A :class:`RecordError` (what a bad seed raised before) and a :class:`TypeError`.
    """
