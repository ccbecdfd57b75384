"""The phases of a deal: what kind of action is expected next."""

from __future__ import annotations

import enum
from typing import Any, cast

__all__ = ["Phase"]


class Phase(enum.IntEnum):
    """The phase of a deal; it says what kind of action is expected.

    ``BIDDING`` is Cavendish's declaring (stand or pass) and Calabresella's
    auction; ``RAISING`` is the solissimo declarer's dividete/scegliete;
    ``DRAWING`` is a chance node (dividete's unseen draw), where no seat is
    to move. The phases from ``CALLING`` to ``DRAWING`` belong to the
    exchange: each exchange step names the phase it waits in (see
    :class:`calabrasella.rulesets.Step`).
    """

    BIDDING = 0
    CALLING = 1
    GIVING_BACK = 2
    DISCARDING = 3
    TAKING = 4
    RAISING = 5
    DRAWING = 6
    PLAYING = 7
    OVER = 8


class _TablePlaying:
    """The play of a deal in table mode, as the engine keeps it (public: ``Phase.PLAYING``).

    A state of table mode's play holds this private marker instead of
    ``Phase.PLAYING``, so that the engine's fast path for the play, which
    tests the phase by identity, never meets table mode and pays nothing for
    it; :attr:`calabrasella.State.phase` and the views show ``Phase.PLAYING``.
    """

    __slots__ = ()
    name = "PLAYING"

    def __reduce__(self) -> Any:
        return "TABLE_PLAYING"

    def __repr__(self) -> str:
        return "<Phase.PLAYING (table mode)>"


#: The engine's marker for table mode's play (see :class:`_TablePlaying`).
TABLE_PLAYING = cast(Phase, _TablePlaying())
