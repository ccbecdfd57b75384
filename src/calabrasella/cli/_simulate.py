"""``calabrasella simulate``: many deals between bots, with a progress bar and a summary table."""

from __future__ import annotations

import concurrent.futures
import sys
from collections.abc import Iterator, Sequence
from typing import IO

import calabrasella as cb
from calabrasella.bots.base import RandomBot  # noqa: F401 (the doctests' bots)
from calabrasella.bots.heuristic import HeuristicBot  # noqa: F401
from calabrasella.bots.simulate import BotFactory, ProgressBar, bot_name, replay_deal, simulate

from ._bots import BOTS, find_bot
from ._play import CommandError

__all__ = ["BOTS", "parse_bots", "run_simulation", "save_simulation", "simulation_records"]



def parse_bots(text: str, players: int) -> list[BotFactory]:
    """Return one bot factory per player from ``text``, names separated by commas.

    One name seats that bot at every seat. A name is one of :data:`BOTS`
    (``heuristic``, ``random``, ``sampling``) or ``module:Class``.

    Raises:
        CommandError: An unknown name, or not one name (or ``players`` names).

    Example:
        >>> [f.__name__ for f in parse_bots("heuristic,random,random", 3)]
        ['HeuristicBot', 'RandomBot', 'RandomBot']
        >>> parse_bots("oracle", 3)
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: --bots: no bot called 'oracle' (known: heuristic, random, sampling, or module:Class)
    """
    factories = [find_bot(name, "--bots") for name in text.split(",")]
    if len(factories) == 1:
        factories *= players
    if len(factories) != players:
        raise CommandError(f"--bots: {len(factories)} names for {players} players (give 1 or {players})")
    return factories


def run_simulation(
    rules: cb.Ruleset,
    bots: Sequence[BotFactory],
    deals: int,
    *,
    seed: int,
    workers: int,
    progress: IO[str] | None,
) -> str:
    """Play ``deals`` deals (on ``workers`` processes when more than 1) and return the table.

    Example:
        >>> print(run_simulation(cb.CAVENDISH, [RandomBot] * 3, 6, seed=1, workers=1,
        ...                      progress=None).splitlines()[0])
        cavendish: 6 deals, seed 1, seats rotated
    """
    bar = ProgressBar(progress) if progress is not None else None
    if workers <= 1:
        summary = simulate(rules, bots, deals, seed=seed, progress=bar)
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            summary = simulate(rules, bots, deals, seed=seed, executor=pool, progress=bar)
    return summary.table()


def simulation_records(
    rules: cb.Ruleset, bots: Sequence[BotFactory], deals: int, *, seed: int
) -> Iterator[cb.Record]:
    """Yield the record of each deal of a simulation, replayed one at a time as it played.

    Each record's tags say which simulation and deal it is and which bot sat
    in each seat: ``Simulation`` (the master seed and the deal's number, 1
    for the first, as ``show --deal N`` counts; the ``index`` of
    :func:`~calabrasella.bots.replay_deal` is one less) and ``Seats`` (the
    bots' names, seat 0 first).

    Example:
        >>> [r.tags["Seats"] for r in simulation_records(cb.CAVENDISH, [HeuristicBot, RandomBot, RandomBot], 2, seed=1)]
        ['heuristic,random,random', 'heuristic,random,random']
    """
    names = [bot_name(factory) for factory in bots]
    for index in range(deals):
        final, seats = replay_deal(rules, bots, seed=seed, index=index)
        tags = {"Simulation": f"seed {seed} deal {index + 1}", "Seats": ",".join(names[p] for p in seats)}
        yield cb.Record.from_state(final, tags=tags)


def save_simulation(
    path: str, rules: cb.Ruleset, bots: Sequence[BotFactory], deals: int, *, seed: int
) -> int:
    """Write the simulation's deals to the data set ``path`` (:func:`calabrasella.datasets.save`).

    The deals are replayed one at a time (:func:`~calabrasella.bots.replay_deal`)
    and written as they come, so memory stays flat; return how many.
    """
    from calabrasella import datasets

    return datasets.save(path, simulation_records(rules, bots, deals, seed=seed))


def default_progress() -> IO[str] | None:
    """Draw the bar on stderr when it is a terminal, else not at all."""
    try:
        return sys.stderr if sys.stderr.isatty() else None
    except (AttributeError, ValueError):
        return None
