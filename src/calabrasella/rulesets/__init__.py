"""Rulesets: Cavendish's Calabrasella, Calabresella, and lookup by name."""

from __future__ import annotations

from typing import Any

from ..errors import RulesetError
from .base import Calls, Ruleset, Terms, choice, flag
from .calabresella import CALABRESELLA, STAKES, Calabresella
from .cavendish import CAVENDISH, Cavendish
from .steps import (
    CallStep,
    DiscardStep,
    DrawStep,
    Exchange,
    ExposeStep,
    GiveBackStep,
    RaiseStep,
    Role,
    Step,
    TakeStep,
    Work,
)

__all__ = [
    "CALABRESELLA",
    "CAVENDISH",
    "STAKES",
    "Calabresella",
    "CallStep",
    "Calls",
    "Cavendish",
    "DiscardStep",
    "DrawStep",
    "Exchange",
    "ExposeStep",
    "GiveBackStep",
    "RaiseStep",
    "Role",
    "Ruleset",
    "Step",
    "TakeStep",
    "Terms",
    "Work",
    "choice",
    "find_ruleset",
    "flag",
    "register_ruleset",
    "ruleset_names",
]

_REGISTRY: dict[str, type[Ruleset]] = {"cavendish": Cavendish, "calabresella": Calabresella}


def register_ruleset(cls: type[Ruleset]) -> type[Ruleset]:
    """Make a ruleset class findable by its ``name`` (usable as a class decorator).

    Raises:
        RulesetError: The name is taken by another class.
    """
    if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
        raise RulesetError(f"not a Ruleset subclass: {cls!r}")
    known = _REGISTRY.get(cls.name)
    if known is not None and known is not cls:
        raise RulesetError(f"a ruleset named {cls.name!r} is registered already")
    _REGISTRY[cls.name] = cls
    return cls


def ruleset_names() -> tuple[str, ...]:
    """Return the names of the registered rulesets, sorted.

    Example:
        >>> ruleset_names()
        ('calabresella', 'cavendish')
    """
    return tuple(sorted(_REGISTRY))


def find_ruleset(name: str, **options: Any) -> Ruleset:
    """Return the ruleset called ``name`` with ``options`` (the defaults otherwise).

    Raises:
        RulesetError: No ruleset has that name, or an option is unknown or invalid.

    Example:
        >>> find_ruleset("cavendish") == CAVENDISH
        True
        >>> find_ruleset("calabresella", auction="until_two_pass").auction
        'until_two_pass'
        >>> find_ruleset("skat")
        Traceback (most recent call last):
        ...
        calabrasella.errors.RulesetError: no ruleset named 'skat' (known: calabresella, cavendish)
    """
    cls = _REGISTRY.get(name.lower().strip()) if isinstance(name, str) else None
    if cls is None:
        raise RulesetError(f"no ruleset named {name!r} (known: {', '.join(ruleset_names())})")
    try:
        return cls(**options)
    except TypeError as exc:
        raise RulesetError(f"{name}: {exc}") from None
