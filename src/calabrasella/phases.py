"""The phases of a deal: what kind of action is expected next."""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["Phase"]


class Phase(enum.IntEnum):
    """The phase of a deal; it says what kind of action is expected.

    ``BIDDING`` is Cavendish's declaring (stand or pass) and Calabresella's
    auction; ``RAISING`` is the solissimo declarer's dividete/scegliete;
    ``DRAWING`` is a chance node (dividete's unseen draw), where no seat is
    to move. The phases from ``CALLING`` to ``DRAWING``, and
    ``EXCHANGING``, belong to the exchange: each exchange step names the
    phase it waits in (see :class:`calabrasella.rulesets.Step`).
    ``EXCHANGING`` is a variant's own exchange step, one the other phases do
    not describe; the step gives it a name of its own, which
    :attr:`calabrasella.State.phase_name` reports (a swap of cards waits in
    "swapping").

    >>> str(Phase.GIVING_BACK)
    'giving back'
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
    EXCHANGING = 9

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
EXCHANGING = Phase.EXCHANGING


def name_of(phase: Phase, exchange: Any) -> str:
    """Return the name of ``phase``: the waiting exchange step's own name, if it gives one."""
    if exchange is not None and phase is not BIDDING and phase is not PLAYING and phase is not OVER:
        plan = exchange.plan
        if exchange.step < len(plan):
            name: str | None = plan[exchange.step].phase_name
            if name is not None:
                return name
    return str(phase)
