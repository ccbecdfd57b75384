"""A variant's own kinds of action: :class:`CustomAction` and the registry of kinds.

Import these from :mod:`calabrasella` (or :mod:`calabrasella.actions`).
"""

from __future__ import annotations

import abc
import contextlib
import inspect
import itertools
import re
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, Optional, TypeVar, Union, cast

import attrs

from .errors import RulesetError

__all__ = [
    "RESERVED_WORDS",
    "ActionField",
    "ActionKind",
    "CustomAction",
    "JsonValue",
    "action_kinds",
    "declare_action",
    "declared_action",
    "register_action",
    "registered_action",
    "unregister_action",
    "withdraw_action",
]

#: A plain JSON value: what :meth:`CustomAction.to_json` returns and
#: :meth:`CustomAction.from_json` reads.
JsonValue = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]

#: The words the built-in actions' text begins with (and the bids and raises
#: written alone): no kind may be one of them. Live: it follows the declared
#: kinds (:func:`declare_action`).
RESERVED_WORDS: set[str] = set()
_KIND = re.compile(r"[a-z][a-z0-9_-]{0,39}")

_C = TypeVar("_C", bound="CustomAction")
_T = TypeVar("_T", bound="type[CustomAction]")
_A = TypeVar("_A", bound=type)


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


# --- the built-in way: one declaration per kind ------------------------------------------


@attrs.frozen
class ActionField:
    """How one field of a declared action kind is written, read and numbered.

    The fields of a kind's :class:`ActionKind` follow its attrs fields in
    order. A field of few values (a card, a seat, a contract) numbers them
    (``values``), so that every action of the kind has its place in the
    pickle codes and the action ids; a field of many (a set of cards) packs
    to a plain value that a pickle keeps beside the codes.

    Attributes:
        form: The field in a list of the text forms (``"<card>"``).
        example: A value's text, for error messages (``"Ad"``).
        needs: What a text missing the field lacks (``"a card"``).
        pattern: The regular expression a value's text matches.
        read: Reads a value's text (raising ``NotationError`` or ``ValueError``).
        write: Writes a value as text (``str`` when ``None``).
        values: Every value, in the order of their numbers (a value's
            number is its place); ``None`` for a field of many values.
        pack: A value as a plain picklable value (for a field of many values).
        unpack: The value :attr:`pack` packed.
        keyword: The text of every value is a lowercase keyword (a contract,
            a seat), so that an action's whole text may be looked up.
    """

    form: str
    example: str
    needs: str
    pattern: str
    read: Callable[[str], Any]
    write: Optional[Callable[[Any], str]] = None
    values: Optional[tuple[Any, ...]] = None
    pack: Optional[Callable[[Any], Any]] = None
    unpack: Optional[Callable[[Any], Any]] = None
    keyword: bool = False


@attrs.frozen
class ActionKind:
    """The one declaration of a built-in kind of action: every format follows from it.

    A built-in action class is a small frozen attrs class that holds its
    declaration as the class attribute ``declared`` and is registered with
    :func:`declare_action`. Its text form (``str()``, and what
    :func:`~calabrasella.parse_action` reads), its JSON (the text), its
    pickle code, its action id in the fixed action space of
    :mod:`calabrasella.encoding`, the kind a face-down move of it shows
    (:class:`~calabrasella.Hidden`), its words in error messages and the
    phase it belongs to all follow from the declaration.

    Attributes:
        word: The kind's word: a face-down move of it is a ``Hidden`` of this
            kind, and the observation names its moves so (``"give_back"``).
        text: The text form, with each field in braces (``"give back {card}"``).
        description: What the action does, in a few words (``"give back a card"``).
        fields: How each attrs field is written and numbered, in order.
        code: The pickle code of its first action; the others follow, one a
            value (a kind with a field of many values has one code, its
            values kept beside the codes).
        action_id: The action id of its first action, or ``None``: no id
            (a chance outcome's, or a kind a fixed action space leaves out).
        aliases: Other forms the text is read in (``"giveback {card}"``).
        alone: The single field's value alone is read as the action
            (``"solo"`` for ``"bid solo"``).
        phase: The name of the :class:`~calabrasella.Phase` its moves are
            made in (``"PLAYING"`` makes its history entries the play's).
        table: Table mode's only (an irregularity, see the rules page):
            its action ids come after the regular actions'.
        chance: A chance outcome, no seat's action.

    Example:
        >>> from calabrasella import GiveBack
        >>> kind = GiveBack.declared
        >>> kind.word, kind.text, kind.description, kind.code, kind.action_id
        ('give_back', 'give back {card}', 'give back a card', 48, 48)
    """

    word: str
    text: str
    description: str
    fields: tuple[ActionField, ...] = ()
    code: int = -1
    action_id: Optional[int] = None
    aliases: tuple[str, ...] = ()
    alone: bool = False
    phase: str = "EXCHANGING"
    table: bool = False
    chance: bool = False


class Declared:
    """A registered :class:`ActionKind` with what follows from it, worked out once.

    Attributes:
        cls: The action class.
        kind: Its declaration.
        names: Its attrs fields' names, in order.
        instances: Every action of the kind in the order of their numbers
            (the shared instances), or ``None`` for a kind with a field of many values.
        heads: ``(head, pattern, example)`` of each text form.
        words: The first words of its text forms (no custom kind may take them).
    """

    __slots__ = ("cls", "heads", "instances", "kind", "names", "words")

    def __init__(self, cls: type, kind: ActionKind) -> None:
        self.cls = cls
        self.kind = kind
        self.names: tuple[str, ...] = tuple(f.name for f in attrs.fields(cls))
        if len(self.names) != len(kind.fields):
            raise RulesetError(
                f"{cls.__qualname__} has {len(self.names)} fields but its declaration "
                f"describes {len(kind.fields)}"
            )
        domains = [f.values for f in kind.fields]
        self.instances: Optional[tuple[Any, ...]] = None
        if all(values is not None for values in domains):
            product = itertools.product(*cast(list[tuple[Any, ...]], domains))
            self.instances = tuple(cls(*values) for values in product)
        elif len(kind.fields) != 1 or kind.fields[0].pack is None:
            raise RulesetError(
                f"{cls.__qualname__}: a kind with a field of many values has that one field, "
                "which packs to a plain value"
            )
        self.heads = tuple(self._form(text) for text in (kind.text, *kind.aliases))
        self.words = frozenset(head.split(" ", 1)[0] for head, _, _ in self.heads)
        if kind.alone:
            self.words |= {str(value).lower() for value in kind.fields[0].values or ()}

    def _form(self, text: str) -> tuple[str, re.Pattern[str], str]:
        """Return the head (the words before the first field), the pattern and an example."""
        parts = _FIELD.split(text)
        literal, names = parts[0::2], parts[1::2]
        if tuple(names) != self.names:
            raise RulesetError(
                f"{self.cls.__qualname__}: the text form {text!r} names the fields {names}, "
                f"not {list(self.names)} in order"
            )
        fields = self.kind.fields
        pattern = "".join(
            re.escape(lit) + (f"({fields[i].pattern})" if i < len(fields) else "")
            for i, lit in enumerate(literal)
        )
        example = "".join(
            lit + (fields[i].example if i < len(fields) else "") for i, lit in enumerate(literal)
        )
        return literal[0].strip(), re.compile(pattern, re.IGNORECASE), example

    def text_of(self, action: Any) -> str:
        """Return the text form of ``action``."""
        kind = self.kind
        return _FIELD.sub(
            lambda m: _write(kind.fields[self.names.index(m.group(1))], getattr(action, m.group(1))),
            kind.text,
        )

    def read(self, spaced: str) -> Any:
        """Return the action ``spaced`` writes in one of the kind's text forms, or ``None``.

        Raises:
            NotationError: The text is of this kind, but a field's text is not one.
        """
        for _, pattern, _ in self.heads:
            match = pattern.fullmatch(spaced)
            if match is not None:
                fields = self.kind.fields
                return self.cls(*(f.read(match.group(i + 1)) for i, f in enumerate(fields)))
        return None


_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def _write(field: ActionField, value: Any) -> str:
    return str(value) if field.write is None else field.write(value)


def _make_str(declared: Declared) -> Callable[[Any], str]:
    """Return the ``__str__`` of a declared kind: its text form."""
    kind, names = declared.kind, declared.names
    if not names:
        text = kind.text
        return lambda self: text
    if len(names) == 1 and kind.text.count("{") == 1:
        before, _, after = _FIELD.split(kind.text)
        name = names[0]
        write = kind.fields[0].write or str
        return lambda self: before + write(getattr(self, name)) + after
    text_of = declared.text_of
    return lambda self: text_of(self)


# The declared kinds, by class, in the order they were declared.
_DECLARED: dict[type, Declared] = {}
# Called with no argument whenever the declared kinds change (each format's tables).
_WATCHERS: list[Callable[[], None]] = []
#: Every built-in action class (live: kept up to date as kinds are declared).
ACTION_CLASSES: set[type] = set()
#: The classes whose history entries are the play's (live).
PLAY_CLASSES: set[type] = set()
#: Table mode's irregular action classes (live).
IRREGULAR_CLASSES: set[type] = set()
#: Each declared class's word (live), as a face-down move of it is named.
WORDS: dict[type, str] = {}
#: Each declared class's description (live).
DESCRIPTIONS: dict[type, str] = {}


def declared() -> tuple[Declared, ...]:
    """Return the declared kinds, in the order they were declared."""
    return tuple(_DECLARED.values())


def declaration(cls: type) -> Optional[Declared]:
    """Return the declared kind of ``cls``, or ``None``."""
    return _DECLARED.get(cls)


def watch_kinds(callback: Callable[[], None]) -> None:
    """Call ``callback`` now and whenever a kind is declared or withdrawn (a format's tables)."""
    _WATCHERS.append(callback)
    callback()


def _changed() -> None:
    values = _DECLARED.values()
    for target, items in (
        (ACTION_CLASSES, [d.cls for d in values]),
        (PLAY_CLASSES, [d.cls for d in values if d.kind.phase == "PLAYING"]),
        (IRREGULAR_CLASSES, [d.cls for d in values if d.kind.table]),
    ):
        target.clear()
        target.update(items)
    WORDS.clear()
    WORDS.update({d.cls: d.kind.word for d in values})
    DESCRIPTIONS.clear()
    DESCRIPTIONS.update({d.cls: d.kind.description for d in values})
    RESERVED_WORDS.clear()
    RESERVED_WORDS.update(*(d.words for d in values))
    for callback in _WATCHERS:
        callback()


def _blocks(d: Declared) -> list[tuple[str, int, int]]:
    size = 1 if d.instances is None else len(d.instances)
    out = [("pickle code", d.kind.code, d.kind.code + size)]
    if d.kind.action_id is not None:
        out.append(("action id", d.kind.action_id, d.kind.action_id + size))
    return out


def declare_action(cls: _A) -> _A:
    """Register a built-in-style action class by its ``declared`` :class:`ActionKind`.

    Usable as a class decorator, below ``@attrs.frozen``'s line (so, applied
    after it). The class's ``__str__`` becomes its text form; every format
    reads and writes the kind from then on. Declaring the same class again
    does nothing.

    Raises:
        RulesetError: ``cls`` is no attrs class with an ``ActionKind`` as
            ``declared``; its declaration does not fit its fields; its word,
            a first word of its text or one of its pickle codes or action
            ids is another kind's.
    """
    if cls in _DECLARED:
        return cls
    kind = getattr(cls, "declared", None)
    if not isinstance(cls, type) or not attrs.has(cast(type, cls)) or not isinstance(kind, ActionKind):
        raise RulesetError(f"{cls!r} is no attrs class with an ActionKind as 'declared'")
    if not _KIND.fullmatch(kind.word):
        raise RulesetError(
            f"{cls.__qualname__}: the word {kind.word!r} is not a lowercase word of letters, "
            "digits, _ and - (at most 40)"
        )
    if kind.code < 0 or kind.code >= _CODE_LIMIT:
        raise RulesetError(f"{cls.__qualname__}: the pickle code {kind.code} is not 0 to {_CODE_LIMIT - 1}")
    new = Declared(cls, kind)
    for other in _DECLARED.values():
        if other.kind.word == kind.word:
            raise RulesetError(f"{cls.__qualname__}: the word {kind.word!r} is {other.cls.__qualname__}'s")
        for (what, lo, hi), (other_what, olo, ohi) in itertools.product(_blocks(new), _blocks(other)):
            if what == other_what and lo < ohi and olo < hi:
                raise RulesetError(
                    f"{cls.__qualname__}: its {what}s {lo} to {hi - 1} meet "
                    f"{other.cls.__qualname__}'s, {olo} to {ohi - 1}"
                )
    taken = new.words & set(_KINDS)
    if taken:
        raise RulesetError(f"{cls.__qualname__}: {sorted(taken)} is a registered custom kind")
    if kind.code <= _CUSTOM_CODE < kind.code + (len(new.instances) if new.instances else 1):
        raise RulesetError(f"{cls.__qualname__}: the pickle code {_CUSTOM_CODE} is the custom kinds'")
    cls.__str__ = _make_str(new)  # type: ignore[method-assign,assignment]
    _DECLARED[cls] = new
    _changed()
    return cls


def withdraw_action(cls: type) -> None:
    """Undo :func:`declare_action`: the formats no longer know the kind.

    Raises:
        RulesetError: ``cls`` is not declared.
    """
    if _DECLARED.pop(cls, None) is None:
        raise RulesetError(f"{getattr(cls, '__qualname__', cls)!r} is not a declared action kind")
    _changed()


@contextlib.contextmanager
def declared_action(cls: _A) -> Iterator[_A]:
    """Declare ``cls`` for the length of a ``with`` block, then withdraw it."""
    declare_action(cls)
    try:
        yield cls
    finally:
        withdraw_action(cls)


#: The pickle code of an action of a custom kind (its kind and data kept beside the codes).
_CUSTOM_CODE = 414
#: Pickle codes are two bytes.
_CODE_LIMIT = 1 << 16
