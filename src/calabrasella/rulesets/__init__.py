"""Rulesets: Cavendish's Calabrasella, Calabresella, and lookup by name."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, TypeVar

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
    "registered_ruleset",
    "ruleset_class",
    "ruleset_names",
    "unregister_ruleset",
]

_REGISTRY: dict[str, type[Ruleset]] = {"cavendish": Cavendish, "calabresella": Calabresella}

_R = TypeVar("_R", bound="type[Ruleset]")


def _registry_key(name: object, owner: type | None = None) -> str:
    """Return ``name`` as the registry keeps it: lowercase, without surrounding spaces."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if not key:
        what = f"{owner.__qualname__}.name" if owner is not None else "a ruleset name"
        raise RulesetError(f"{what} must be a non-empty string, not {name!r}")
    return key


def register_ruleset(cls: _R) -> _R:
    """Make a ruleset class findable by its ``name`` (usable as a class decorator).

    The name is kept lowercase and stripped, as :func:`find_ruleset` reads it:
    a class named ``"MyRules"`` is listed as ``"myrules"`` and found by either
    spelling. Registering the same class again does nothing.

    Args:
        cls: A :class:`Ruleset` subclass.

    Returns:
        ``cls`` itself.

    Raises:
        RulesetError: ``cls`` is not a Ruleset subclass, its name is empty or
            not a string, or the name is taken by another class.

    Example:
        >>> import attrs
        >>> from calabrasella import Cavendish
        >>> @register_ruleset
        ... @attrs.frozen(kw_only=True)
        ... class House(Cavendish):
        ...     name = "House"
        >>> ruleset_names()
        ('calabresella', 'cavendish', 'house')
        >>> find_ruleset("House") == House()
        True
        >>> unregister_ruleset(House) is House    # leave the registry as it was
        True
    """
    if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
        raise RulesetError(f"not a Ruleset subclass: {cls!r}")
    key = _registry_key(cls.name, cls)
    known = _REGISTRY.get(key)
    if known is not None and known is not cls:
        raise RulesetError(f"a ruleset named {key!r} is registered already")
    _REGISTRY[key] = cls
    return cls


def unregister_ruleset(name_or_cls: str | type[Ruleset]) -> type[Ruleset]:
    """Undo a registration: :func:`find_ruleset` no longer finds the class.

    Given a name (any case), removes whatever class is registered under it.
    Given a class, removes it only if it is the class registered under its
    name, never another class of the same name. The built-in rulesets can be
    removed too, and registered again with :func:`register_ruleset`.

    Args:
        name_or_cls: A registered name, or a registered Ruleset subclass.

    Returns:
        The class that was removed.

    Raises:
        RulesetError: Nothing is registered under that name, the class is
            not the one registered under its name, or ``name_or_cls`` is
            neither a non-empty string nor a Ruleset subclass.

    Example:
        >>> import attrs
        >>> from calabrasella import Cavendish
        >>> @attrs.frozen(kw_only=True)
        ... class House(Cavendish):
        ...     name = "house"
        >>> _ = register_ruleset(House)
        >>> unregister_ruleset("HOUSE") is House
        True
        >>> ruleset_names()
        ('calabresella', 'cavendish')
    """
    if isinstance(name_or_cls, type) and issubclass(name_or_cls, Ruleset):
        key = _registry_key(name_or_cls.name, name_or_cls)
        known = _REGISTRY.get(key)
        if known is None:
            raise RulesetError(f"{name_or_cls.__qualname__} is not registered")
        if known is not name_or_cls:
            raise RulesetError(
                f"{name_or_cls.__qualname__} is not registered: {key!r} is another class, "
                f"{known.__module__}.{known.__qualname__}"
            )
    else:
        if not isinstance(name_or_cls, str):
            raise RulesetError(f"not a ruleset name or Ruleset subclass: {name_or_cls!r}")
        key = _registry_key(name_or_cls)
        if key not in _REGISTRY:
            raise RulesetError(
                f"no ruleset named {name_or_cls!r} (known: {', '.join(ruleset_names())})"
            )
    return _REGISTRY.pop(key)


@contextlib.contextmanager
def registered_ruleset(cls: _R) -> Iterator[_R]:
    """Register ``cls`` for the length of a ``with`` block, then restore the registry.

    On leaving the block, normally or by an exception, the registry is put
    back exactly as it was on entering it, so registrations made inside the
    block (this one and any other) do not leak into the rest of the program:
    handy in tests and examples.

    Args:
        cls: A :class:`Ruleset` subclass.

    Yields:
        ``cls`` itself.

    Raises:
        RulesetError: On entering, as :func:`register_ruleset` would; the
            block does not run.

    Example:
        >>> import attrs
        >>> from calabrasella import Cavendish
        >>> @attrs.frozen(kw_only=True)
        ... class House(Cavendish):
        ...     name = "house"
        >>> with registered_ruleset(House):
        ...     find_ruleset("house") == House()
        True
        >>> ruleset_names()
        ('calabresella', 'cavendish')
    """
    saved = dict(_REGISTRY)
    register_ruleset(cls)
    try:
        yield cls
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(saved)


def ruleset_class(name: str) -> type[Ruleset] | None:
    """Return the ruleset class registered under ``name`` (as written), or ``None``.

    Example:
        >>> ruleset_class("cavendish") is Cavendish, ruleset_class("skat")
        (True, None)
    """
    return _REGISTRY.get(name)


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
    except RulesetError:  # the ruleset's own error names the option (and is a TypeError)
        raise
    except TypeError as exc:
        raise RulesetError(f"{name}: {exc}") from None
