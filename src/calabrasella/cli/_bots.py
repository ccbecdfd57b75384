"""The bots the command line can seat, by name: ``play --opponents`` and ``simulate --bots``."""

from __future__ import annotations

import importlib
import os
import random
import sys

from calabrasella.bots.base import RandomBot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling_bot import SamplingBot
from calabrasella.bots.simulate import BotFactory
from calabrasella.errors import CommandError

__all__ = ["BOTS", "find_bot"]

#: The bots the command line knows by a short name. Any other bot is named
#: ``module:Class`` (a class, or a function, called with a ``random.Random``
#: that returns a bot); the module is looked for in the current folder first,
#: as ``python -m calabrasella`` does.
BOTS: dict[str, BotFactory] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "sampling": SamplingBot,
}


def find_bot(name: str, option: str) -> BotFactory:
    """Return the bot factory ``name`` stands for: a short name of :data:`BOTS` or ``module:Class``.

    ``module`` is imported with the current folder first on ``sys.path``, as
    ``python -m calabrasella`` (and ``python`` itself) would: a ``mybot.py``
    beside you is found. A class must have a ``choose`` method; a function
    (or any other callable) is called once with a ``random.Random`` to check
    that it returns a bot.

    Raises:
        CommandError: No such bot, module or class, or not a bot: a class
            without ``choose``, or a callable that fails when called with a
            ``random.Random`` or returns something without ``choose``;
            ``option`` heads the message.

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
        >>> find_bot("collections:OrderedDict", "--bots")
        Traceback (most recent call last):
        ...
        calabrasella.errors.CommandError: --bots: 'collections:OrderedDict' is not a bot: the class OrderedDict has no choose(view) method
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
    _current_folder_first()
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise CommandError(f"{option}: {name!r}: cannot import {module_name!r} ({error})") from None
    found: object = module
    for part in attribute.split("."):
        if not hasattr(found, part):
            raise CommandError(f"{option}: module {module_name!r} has no {attribute!r}")
        found = getattr(found, part)
    return _checked(found, name, option)


def _current_folder_first() -> None:
    """Put the current folder first on ``sys.path`` unless it is there already.

    ``python -m calabrasella`` starts with it there; the installed
    ``calabrasella`` script does not, and without it a ``mybot.py`` beside
    the user would not import. It stays for the rest of the command, so
    worker processes started later import the bot's module the same way.
    """
    here = os.getcwd()
    if not any(os.path.abspath(entry or os.curdir) == here for entry in sys.path):
        sys.path.insert(0, here)


_WHAT_IS_A_BOT = "a bot class (called with a random.Random) with a choose(view) method"


def _checked(found: object, name: str, option: str) -> BotFactory:
    """``found`` if it makes bots; else a :class:`CommandError` saying why not."""
    head = f"{option}: {name!r} is not a bot"
    if isinstance(found, type):
        if not callable(getattr(found, "choose", None)):
            raise CommandError(f"{head}: the class {found.__name__} has no choose(view) method")
        return found
    if not callable(found):
        raise CommandError(f"{head}: a {type(found).__name__}, not {_WHAT_IS_A_BOT}")
    # a function that makes bots: make one, to see that it does
    try:
        bot = found(random.Random(0))
    except Exception as error:
        why = " ".join(str(error).split())[:200] or "no message"
        raise CommandError(
            f"{head}: calling it with a random.Random raised {type(error).__name__} ({why}); "
            f"expected {_WHAT_IS_A_BOT}, or a function returning a bot"
        ) from None
    if not callable(getattr(bot, "choose", None)):
        raise CommandError(
            f"{head}: called with a random.Random it returned {type(bot).__name__}, "
            f"which has no choose(view) method"
        )
    return found
