"""The library's exceptions, all of them: the engine's, the bots', the conformance kit's and the CLI's.

Every error the library raises on purpose derives from
:class:`CalabrasellaError`. The ones caused by bad input also derive from
:class:`ValueError`, so code that already catches ``ValueError`` keeps working.
Each is also importable from where it is raised (``calabrasella.MatchError``,
``calabrasella.bots.BotError``, ``calabrasella.testing.ConformanceError``,
``calabrasella.cli.CommandError``...); the API reference has a table of
which to catch.

This module imports nothing of the package, so every layer may raise them.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BotError",
    "CalabrasellaError",
    "CommandError",
    "ConformanceError",
    "FileProblem",
    "IllegalActionError",
    "InconsistentViewError",
    "MatchError",
    "NotAnActionError",
    "NotationError",
    "RecordError",
    "RulesetError",
    "RulesetOptionError",
    "SeatError",
    "SeedError",
    "SolveError",
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


class NotAnActionError(IllegalActionError, TypeError):
    """Something that is not an action at all was given where an action is needed.

    Text such as ``"bid stand"`` is not an action: read it with
    :func:`calabrasella.parse_action` first. Also an :class:`IllegalActionError`
    (so code that catches that still does) and a ``TypeError``.

    Example:
        >>> err = NotAnActionError("bid stand")
        >>> str(err)
        "illegal action 'bid stand': text is not an action: read it with cb.parse_action('bid stand')"
        >>> isinstance(err, IllegalActionError), isinstance(err, TypeError)
        (True, True)
    """

    def __init__(self, action: Any, reason: str | None = None) -> None:
        if reason is None:
            if isinstance(action, str):
                reason = f"text is not an action: read it with cb.parse_action({action!r})"
            else:
                reason = f"{type(action).__name__} is not an action (Pass(), Bid('solo'), Play('Ad')...)"
        super().__init__(action, reason)


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


class SeedError(CalabrasellaError, TypeError):
    """A seed or generator that is neither an int nor a ``random.Random``.

    A :class:`TypeError`, not a :class:`RecordError`: a bad seed is a wrong
    argument, not a malformed record (it was a ``RecordError`` before).

    Example:
        >>> import calabrasella as cb
        >>> cb.new_deal(cb.CAVENDISH, seed="7")
        Traceback (most recent call last):
        ...
        calabrasella.errors.SeedError: seed='7': expected an int or a random.Random
    """


class MatchError(RecordError):
    """A deal that does not belong to the match, or a match that is over.

    A :class:`RecordError` (and so a ``ValueError``): recording a deal into
    a :class:`~calabrasella.Match` is fitting a record into it, and the
    message says why it does not fit. The match it was given to is unchanged.

    Example:
        >>> import calabrasella as cb
        >>> m = cb.Match.start(cb.CAVENDISH, seed=1)
        >>> m.record(m.next_deal(seed=2))
        Traceback (most recent call last):
        ...
        calabrasella.errors.MatchError: deal 1 is not over (phase bidding)
    """


class InconsistentViewError(RecordError):
    """A view that no deal and actions could produce (a hand-edited view, say).

    Raised by the sampler of :mod:`calabrasella.bots` (and so by the bots
    that sample). A :class:`RecordError`, so also a ``ValueError``; the
    message says what does not fit.

    Example:
        >>> str(InconsistentViewError("seat 1 holds 13 cards"))
        'seat 1 holds 13 cards'
    """


class SolveError(StateError, ValueError):
    """A state the solver of :mod:`calabrasella.bots.solver` cannot solve: not a State, or not in the play phase.

    A :class:`StateError` (the wrong kind of state) and a :class:`ValueError`.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.solver import solve
        >>> solve(cb.new_deal(cb.CAVENDISH, seed=7))
        Traceback (most recent call last):
        ...
        calabrasella.errors.SolveError: solve() needs a state in the play phase, not in BIDDING
    """


class BotError(CalabrasellaError, ValueError):
    """Bots or a simulation set up wrongly: a wrong number of bots, a bot's
    answer that is not an action, a bad number of deals.

    Example:
        >>> str(BotError("3 bots needed, 2 given"))
        '3 bots needed, 2 given'
    """


class ConformanceError(CalabrasellaError, AssertionError):
    """An invariant of the rules is broken (raised by :func:`calabrasella.testing.check_ruleset`).

    The message names the ruleset, the deal (its index, dealer and seed),
    the step (the number of actions applied before it) and the broken
    invariant, and lists the actions of the deal so far.

    Attributes:
        invariant: The broken invariant: ``"cards"``, ``"ledger"``, ``"purity"``,
            ``"history"``, ``"legality"``, ``"determinism"``,
            ``"conservation"``, ``"views"`` or ``"encoding"``.

    Example:
        >>> err = ConformanceError("35 units expected", invariant="conservation")
        >>> err.invariant, isinstance(err, AssertionError)
        ('conservation', True)
    """

    def __init__(self, message: str, *, invariant: str = "") -> None:
        self.invariant = invariant
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_conformance_error, (str(self), self.invariant))


def _rebuild_conformance_error(message: str, invariant: str) -> ConformanceError:
    return ConformanceError(message, invariant=invariant)


class CommandError(CalabrasellaError, ValueError):
    """A command-line request that cannot be carried out; the message is one line.

    Raised by :mod:`calabrasella.cli`: an unknown bot, a seat that sits out,
    a line that chooses no move, a file that is not a record
    (:class:`FileProblem`).
    """


class FileProblem(CommandError):
    """A file that cannot be read as a record or a state; the message is one line.

    Raised by :func:`calabrasella.cli.load_record` and the ``replay`` command.
    """
