"""A variant's own kinds of action: :class:`CustomAction` and the registry of kinds.

Import these from :mod:`calabrasella` (or :mod:`calabrasella.actions`).
"""

from __future__ import annotations

import abc
import contextlib
import inspect
import re
from collections.abc import Iterator
from typing import ClassVar, TypeVar, Union

from .errors import RulesetError

__all__ = [
    "RESERVED_WORDS",
    "CustomAction",
    "JsonValue",
    "action_kinds",
    "register_action",
    "registered_action",
    "unregister_action",
]

#: A plain JSON value: what :meth:`CustomAction.to_json` returns and
#: :meth:`CustomAction.from_json` reads.
JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]

#: The words the built-in actions' text begins with (and the bids and raises
#: written alone): no kind may be one of them.
RESERVED_WORDS = frozenset(
    {
        "pass", "done", "abandon", "bid", "raise", "call", "give", "giveback", "give_back",
        "discard", "take", "play", "revoke", "draw", "seat",
        "stand", "chiamo", "solo", "solissimo", "dividete", "scegliete",
    }
)  # fmt: skip
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,39}")

_C = TypeVar("_C", bound="CustomAction")
_T = TypeVar("_T", bound="type[CustomAction]")


class CustomAction(abc.ABC):
    """The base of a kind of action a variant declares for its own exchange step.

    Subclass it as a small frozen attrs class (``@attrs.frozen``: compared
    by value, hashable, slotted), give it a ``kind`` and a ``description``,
    write its text form and its JSON, and register it with
    :func:`register_action`. The engine hands it to the running exchange
    step like any other action; the text notation (:func:`parse_action`),
    records, JSON, the text form of a record and pickles then carry it.

    The text form is ``str(action)``: one line that starts with the kind,
    such as ``"swap Ad"``; :func:`parse_action` reads the first word, finds
    the registered class of that kind and hands the rest of the line
    (``"Ad"``) to its :meth:`parse`. In JSON an action of a custom kind is
    the object ``{"kind": "swap", "data": ...}``, whose ``data`` is what
    :meth:`to_json` returns; a pickle keeps the kind and the same data (a
    class that is not registered pickles as itself).

    The conformance check (:func:`calabrasella.testing.check_ruleset`) finds
    the cards an action names in its attrs fields that hold a
    :class:`~calabrasella.Card` or a :class:`~calabrasella.CardSet`, and
    checks that each action it meets reads back equal from its text, its
    JSON and its pickle.

    Attributes:
        kind: The kind's name, unique among the registered kinds: a
            lowercase word of letters, digits, ``_`` and ``-`` (at most 40),
            not one the built-in actions use (:data:`RESERVED_WORDS`).
        description: What the action does, in a few words, for error
            messages ("seat 2 is to bid or pass, not to swap a card");
            the kind itself when empty.

    Example:
        >>> import attrs
        >>> import calabrasella as cb
        >>> @attrs.frozen
        ... class Knock(cb.CustomAction):
        ...     kind = "knock"
        ...     description = "knock on the table"
        ...     times: int
        ...
        ...     def __str__(self):
        ...         return f"knock {self.times}"
        ...
        ...     @classmethod
        ...     def parse(cls, argument):
        ...         if not argument.isdigit():
        ...             raise cb.NotationError(f"knock needs a count, not {argument!r}")
        ...         return cls(int(argument))
        ...
        ...     def to_json(self):
        ...         return self.times
        ...
        ...     @classmethod
        ...     def from_json(cls, data):
        ...         if type(data) is not int:
        ...             raise ValueError(f"expected an int, got {data!r}")
        ...         return cls(data)
        >>> with cb.registered_action(Knock):
        ...     cb.parse_action("KNOCK 3")
        Knock(times=3)
    """

    __slots__ = ()

    kind: ClassVar[str]
    description: ClassVar[str] = ""

    @abc.abstractmethod
    def __str__(self) -> str:
        """Return the text form: one line, the kind first (``"swap Ad"``)."""

    @classmethod
    @abc.abstractmethod
    def parse(cls: type[_C], argument: str) -> _C:
        """Read the text after the kind (``"Ad"`` of ``"swap Ad"``; ``""`` when there is none).

        Spaces are already collapsed; the case is the writer's.

        Raises:
            NotationError: (or ``ValueError``) ``argument`` is not this kind's.
        """

    @abc.abstractmethod
    def to_json(self) -> JsonValue:
        """Return the action's data as plain JSON values (without the kind)."""

    @classmethod
    @abc.abstractmethod
    def from_json(cls: type[_C], data: JsonValue) -> _C:
        """Read what :meth:`to_json` returned; the data is untrusted.

        Raises:
            ValueError: (``TypeError``, ``KeyError``) the data is malformed;
                the reader turns it into a :class:`~calabrasella.RecordError`.
        """


# The registered kinds, by name.
_KINDS: dict[str, type[CustomAction]] = {}


def kind_of(cls: type[CustomAction]) -> str:
    """Return ``cls.kind``, checked, or raise :class:`RulesetError`."""
    kind = getattr(cls, "kind", None)
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        raise RulesetError(
            f"{cls.__qualname__}.kind must be a lowercase word of letters, digits, _ and - "
            f"(at most 40), not {kind!r}"
        )
    if kind in RESERVED_WORDS:
        raise RulesetError(f"{cls.__qualname__}.kind: {kind!r} is a built-in action's word")
    return kind


def registered_class(kind: str) -> type[CustomAction] | None:
    """Return the class registered under ``kind``, or ``None``."""
    return _KINDS.get(kind)


def register_action(cls: _T) -> _T:
    """Make a :class:`CustomAction` subclass readable by its ``kind`` (usable as a class decorator).

    Once registered, :func:`~calabrasella.parse_action`, records, JSON and
    pickles read actions of the kind back. Registering the same class again
    does nothing.

    Args:
        cls: A concrete CustomAction subclass.

    Returns:
        ``cls`` itself.

    Raises:
        RulesetError: ``cls`` is not a CustomAction subclass or is abstract,
            its kind is malformed or a built-in action's word, or another
            class is registered under the kind.
    """
    if not (isinstance(cls, type) and issubclass(cls, CustomAction)):
        raise RulesetError(f"not a CustomAction subclass: {cls!r}")
    if inspect.isabstract(cls):
        missing = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
        raise RulesetError(f"{cls.__qualname__} does not write its {missing}")
    kind = kind_of(cls)
    known = _KINDS.get(kind)
    if known is not None and known is not cls:
        raise RulesetError(
            f"the action kind {kind!r} is registered already, by "
            f"{known.__module__}.{known.__qualname__}"
        )
    _KINDS[kind] = cls
    return cls


def unregister_action(kind_or_cls: str | type[CustomAction]) -> type[CustomAction]:
    """Undo a registration: actions of the kind are no longer read back.

    Given a kind, removes whatever class is registered under it; given a
    class, removes it only if it is the class registered under its kind.

    Returns:
        The class that was removed.

    Raises:
        RulesetError: Nothing (or another class) is registered under the kind.
    """
    if isinstance(kind_or_cls, type) and issubclass(kind_or_cls, CustomAction):
        kind = kind_of(kind_or_cls)
        if _KINDS.get(kind) is not kind_or_cls:
            raise RulesetError(f"{kind_or_cls.__qualname__} is not registered")
    else:
        kind = kind_or_cls if isinstance(kind_or_cls, str) else ""
        if kind not in _KINDS:
            raise RulesetError(f"no action kind {kind_or_cls!r} is registered")
    return _KINDS.pop(kind)


@contextlib.contextmanager
def registered_action(cls: _T) -> Iterator[_T]:
    """Register ``cls`` for the length of a ``with`` block, then restore the registry.

    On leaving the block, normally or by an exception, the registry of kinds
    is put back exactly as it was: handy in tests, examples and scripts.

    Raises:
        RulesetError: On entering, as :func:`register_action` would; the
            block does not run.
    """
    saved = dict(_KINDS)
    register_action(cls)
    try:
        yield cls
    finally:
        _KINDS.clear()
        _KINDS.update(saved)


def action_kinds() -> tuple[str, ...]:
    """Return the registered kinds, sorted."""
    return tuple(sorted(_KINDS))
