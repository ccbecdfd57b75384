"""Bots, a perfect-information solver, hidden-card sampling and simulation.

Everything here uses only the public API and views; the engine never imports
this package (import it as ``from calabrasella import bots`` or
``from calabrasella.bots import HeuristicBot``).

Example:
    >>> import random
    >>> import calabrasella as cb
    >>> from calabrasella.bots import HeuristicBot, RandomBot, play_deal
    >>> rng = random.Random(1)
    >>> final = play_deal(cb.CAVENDISH, [HeuristicBot(rng), RandomBot(rng), RandomBot(rng)], rng)
    >>> final.is_over, sum(final.result.payments)
    (True, 0)
"""

from __future__ import annotations

from .._public import public_dir as _public_dir
from .analysis import Analysis, Decision, analyse
from .base import Bot, BotError, RandomBot, regular_actions
from .heuristic import HeuristicBot
from .play import play_deal
from .sampling import InconsistentViewError, Sampler, sample_state
from .sampling_bot import SamplingBot
from .simulate import (
    BotFactory,
    ContractStats,
    PlayerStats,
    ProgressBar,
    Summary,
    deal_seed,
    replay_deal,
    seating,
    simulate,
)
from .solver import Solution, SolveError, action_values, solve

__all__ = [
    "Analysis",
    "Bot",
    "BotError",
    "BotFactory",
    "ContractStats",
    "Decision",
    "HeuristicBot",
    "InconsistentViewError",
    "PlayerStats",
    "ProgressBar",
    "RandomBot",
    "Sampler",
    "SamplingBot",
    "Solution",
    "SolveError",
    "Summary",
    "action_values",
    "analyse",
    "deal_seed",
    "play_deal",
    "regular_actions",
    "replay_deal",
    "sample_state",
    "seating",
    "simulate",
    "solve",
]


def __dir__() -> list[str]:
    """The public names: ``__all__`` and the package's own public submodules.

    ``dir()`` would otherwise list what the package imports too (``annotations``, the ``from __future__`` import).
    """
    return _public_dir(globals(), __all__)
