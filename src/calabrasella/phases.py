"""The phases of a deal: what kind of action is expected next."""

from __future__ import annotations

import enum

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

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")



# The members as module names, for the engine's modules to import once (a
# module global is found faster than an enum attribute on the hot paths).
BIDDING = Phase.BIDDING
CALLING = Phase.CALLING
GIVING_BACK = Phase.GIVING_BACK
DISCARDING = Phase.DISCARDING
TAKING = Phase.TAKING
RAISING = Phase.RAISING
DRAWING = Phase.DRAWING
PLAYING = Phase.PLAYING
OVER = Phase.OVER
