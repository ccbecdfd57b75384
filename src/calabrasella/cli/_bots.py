"""The bots the command line can seat, by name: ``play --opponents`` and ``simulate --bots``."""

from __future__ import annotations

import importlib

from calabrasella.bots.base import RandomBot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling_bot import SamplingBot
from calabrasella.bots.simulate import BotFactory
from calabrasella.errors import CommandError

__all__ = ["BOTS", "find_bot"]

#: The bots the command line knows by a short name. Any other bot is named
#: ``module:Class`` (a class, or a function, called with a ``random.Random``
#: that returns a bot).
BOTS: dict[str, BotFactory] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "sampling": SamplingBot,
}


def find_bot(name: str, option: str) -> BotFactory:
    """Return the bot factory ``name`` stands for: a short name of :data:`BOTS` or ``module:Class``.

    Raises:
        CommandError: No such bot, module or class; ``option`` heads the message.

    Example:
        >>> find_bot("Sampling", "--bots").__name__
        'SamplingBot'
        >>> find_bot("calabrasella.bots:HeuristicBot", "--bots").__name__
        'HeuristicBot'
        >>> find_bot("oracle", "--bots")
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: --bots: no bot called 'oracle' (known: heuristic, random, sampling, or module:Class)
        >>> find_bot("calabrasella.bots:Oracle", "--bots")
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: --bots: module 'calabrasella.bots' has no 'Oracle'
    """
    name = name.strip()
    module_name, colon, attribute = name.partition(":")
    if not colon:
        if name.lower() not in BOTS:
            known = ", ".join(sorted(BOTS))
            raise CommandError(f"{option}: no bot called {name!r} (known: {known}, or module:Class)")
        return BOTS[name.lower()]
    if not module_name or not attribute:
        raise CommandError(f"{option}: {name!r}: expected module:Class, e.g. mybots:GreedyBot")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise CommandError(f"{option}: {name!r}: cannot import {module_name!r} ({error})") from None
    found: object = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise CommandError(f"{option}: module {module_name!r} has no {attribute!r}")
        found = getattr(found, part)
    if not callable(found):
        raise CommandError(f"{option}: {name!r} is not a bot class (called with a random.Random)")
    return found
