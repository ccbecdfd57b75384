"""The text of an action: :func:`parse_action`, read from the declared kinds' text forms.

Import it from :mod:`calabrasella` (or :mod:`calabrasella.actions`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._action_kinds import (
    CustomAction,
    Declared,
    action_kinds,
    declared,
    registered_class,
    watch_kinds,
)
from .errors import NotationError, RulesetError

if TYPE_CHECKING:
    from .actions import Action

__all__ = ["MAX_ACTION_TEXT", "parse_action"]

# --- notation ------------------------------------------------------------------

# Read from the declared kinds (kept up to date as kinds are declared): each whole
# text of a kind of keywords only (``"bid solo"``, ``"solo"``), the kinds by the
# head of their text forms (longest first), and the forms, for error messages.
_WHOLE: dict[str, Action] = {}
_HEADS: list[tuple[str, list[Declared]]] = []
_FORMS: list[str] = [""]


def _notation() -> None:
    whole: dict[str, Action] = {}
    heads: dict[str, list[Declared]] = {}
    forms: list[str] = []
    kinds = sorted(declared(), key=lambda d: (bool(d.names), d.kind.code))
    for d in kinds:
        fields = d.kind.fields
        if d.instances is not None and all(f.keyword for f in fields):
            for action in d.instances:
                whole[str(action).lower()] = action
                if d.kind.alone:
                    whole[str(getattr(action, d.names[0])).lower()] = action
        for head, _, _ in d.heads:
            listed = heads.setdefault(head.lower(), [])
            if d not in listed:
                listed.append(d)
        form = d.kind.text
        for name, field in zip(d.names, fields):
            form = form.replace("{" + name + "}", field.form)
        verb, _, rest = form.rpartition(" ")
        if forms and rest == "<card>" and forms[-1].endswith(" <card>") and len(fields) == 1:
            forms[-1] = f"{forms[-1][: -len(' <card>')]}/{verb} <card>"
        else:
            forms.append(form)
    _WHOLE.clear()
    _WHOLE.update(whole)
    _HEADS[:] = sorted(heads.items(), key=lambda item: -len(item[0]))
    _FORMS[0] = ", ".join(forms)


watch_kinds(_notation)

#: The longest action text :func:`parse_action` reads (a draw of a whole
#: pack spelled out in words is well under it).
MAX_ACTION_TEXT = 1000


def parse_action(text: str) -> Action:
    """Read an action from its text form, the inverse of ``str(action)``.

    The forms are ``str()`` of each action: ``"pass"``, ``"done"``,
    ``"bid solo"``, ``"raise scegliete"``, ``"call 3c"``,
    ``"give back 4d"``, ``"discard 4c"``, ``"take 7h"``, ``"play Ad"``,
    ``"draw 7c 6c"``, and in table mode ``"revoke Ad"``,
    ``"seat 2 turns the stock"``, ``"seat 1 plays Ad out of turn"`` and
    ``"abandon"``. Case and spacing do not matter, a bid or a raise may be
    written alone (``"solo"``, ``"dividete"``), and a card may be written
    any way :meth:`~calabrasella.Card.parse` reads (``"play ace of coins"``). A text whose
    first word is a registered kind (:func:`register_action`) is read by
    that kind's :meth:`CustomAction.parse`.

    Raises:
        NotationError: ``text`` is not an action; the message quotes it and
            lists the forms and the registered kinds.
        RulesetError: A registered kind's parser returned something else
            than an action of its kind.

    Example:
        >>> parse_action("play Ad"), parse_action("  Bid  SOLO ")
        (Play(card=Card.parse('Ad')), Bid(contract=<Contract.SOLO: 'solo'>))
        >>> str(parse_action("give back asso di denari"))
        'give back Ad'
        >>> parse_action("play")
        Traceback (most recent call last):
        ...
        calabrasella.errors.NotationError: not an action: 'play' (play needs a card, e.g. 'play Ad')
    """
    if not isinstance(text, str):
        raise NotationError(f"not an action: {text!r} (expected a string such as 'play Ad')")
    if len(text) > MAX_ACTION_TEXT:
        raise NotationError(
            f"not an action: a text of {len(text)} characters (at most {MAX_ACTION_TEXT})"
        )
    spaced = " ".join(text.split())
    words = spaced.lower()
    known = _WHOLE.get(words)
    if known is not None:
        return known
    head, _, argument = spaced.partition(" ")
    custom = registered_class(head.lower())
    if custom is not None:
        return _parse_custom(custom, argument, text)
    try:
        return _parse_with_argument(spaced, words)
    except NotationError as error:
        raise NotationError(f"not an action: {text!r} ({error})") from None


def _parse_with_argument(spaced: str, words: str) -> Action:
    for head, kinds in _HEADS:
        if words == head:
            first = kinds[0]
            example = first.heads[0][2]
            raise NotationError(f"{head} needs {first.kind.fields[0].needs}, e.g. '{example}'")
        if words.startswith(head + " "):
            for d in kinds:
                action = d.read(spaced)
                if action is not None:
                    return action  # type: ignore[no-any-return]
    kinds_text = ", ".join(action_kinds()) or "none is registered"
    first_word = words.split(" ", 1)[0]
    raise NotationError(
        f"expected one of: {_FORMS[0]}; or an action of a registered kind ({kinds_text}): "
        f"{first_word!r} is no action kind"
    )


def _parse_custom(cls: type[CustomAction], argument: str, text: str) -> Action:
    """Read ``argument`` (the text after the kind) with the kind's own parser."""
    try:
        action = cls.parse(argument)
    except (ValueError, TypeError, KeyError, IndexError) as error:  # NotationError is a ValueError
        raise NotationError(f"not an action: {text!r} ({cls.kind}: {error})") from None
    if not isinstance(action, cls):
        raise RulesetError(
            f"{cls.__qualname__}.parse returned {action!r}, not a {cls.__qualname__}"
        )
    return action
