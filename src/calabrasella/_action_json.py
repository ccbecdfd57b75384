"""The JSON of one action: its text, or ``{"kind": ..., "data": ...}`` for a custom kind.

Below the records (which use it for every action they write and read) and
the conformance kit (which reads each action it meets back from its JSON),
as the text of one action (:func:`~calabrasella.parse_action`) is below them.
"""

from __future__ import annotations

import math
from typing import Any, NoReturn

from ._action_kinds import action_kinds, registered_class
from .actions import Action, CustomAction
from .errors import RecordError

__all__ = ["MAX_DEPTH", "action_data", "custom_action"]

#: How deep the JSON data of a custom action may nest.
MAX_DEPTH = 32
#: The longest kind read.
_MAX_KIND = 40


def _fail(where: str, reason: str) -> NoReturn:
    raise RecordError(where=where, reason=reason)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _quote(value: object) -> str:
    """A few words about ``value``, never a long repr."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else f"{value[:37]!r}... ({len(value)} characters)"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value) if len(repr(value)) <= 40 else f"a {type(value).__name__}"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def custom_action(value: dict[Any, Any], where: str) -> Action:
    """Read ``{"kind": ..., "data": ...}``: an action of a registered custom kind.

    Raises:
        RecordError: A key missing or unknown, a kind not registered in this
            process, or data the kind's ``from_json`` refuses.
    """
    for key in value:
        if key not in ("kind", "data"):
            _fail(_join(where, str(key)), f"unknown key {_quote(key)} (expected: data, kind)")
    for key in ("kind", "data"):
        if key not in value:
            _fail(_join(where, key), "missing")
    at = _join(where, "kind")
    kind = value["kind"]
    if type(kind) is not str:
        _fail(at, f"expected a string, got {_quote(kind)}")
    if len(kind) > _MAX_KIND:
        _fail(at, f"a string of {len(kind)} characters is too long (at most {_MAX_KIND})")
    cls = registered_class(kind)
    if cls is None:
        known = ", ".join(action_kinds()) or "none"
        _fail(at, f"no action kind {_quote(kind)} is registered in this process (registered: {known})")
    try:
        read = cls.from_json(value["data"])
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        _fail(_join(where, "data"), f"not the data of a {kind} action: {str(error)[:200]}")
    if not isinstance(read, cls):
        _fail(where, f"{cls.__qualname__}.from_json returned {_quote(read)}, not a {cls.__qualname__}")
    return read


def action_data(value: Action, where: str) -> str | dict[str, Any]:
    """Return an action as JSON: its text, or ``{"kind": ..., "data": ...}`` for a custom kind.

    Raises:
        RecordError: The data of a custom kind is not plain JSON (at ``where``).
    """
    if not isinstance(value, CustomAction):
        return str(value)
    data = value.to_json()
    _check_plain(data, _join(where, "data"), 0)
    return {"kind": type(value).kind, "data": data}


def _check_plain(value: object, where: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        _fail(where, f"nested more than {MAX_DEPTH} deep")
    kind = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return
    if isinstance(value, float) and kind is float:
        if not math.isfinite(value):
            _fail(where, f"{value!r} is not a number JSON allows")
        return
    if isinstance(value, (list, tuple)) and (kind is list or kind is tuple):
        for i, item in enumerate(value):
            _check_plain(item, f"{where}[{i}]", depth + 1)
        return
    if isinstance(value, dict) and kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                _fail(where, f"the key {_quote(key)} is not a string")
            _check_plain(item, _join(where, key), depth + 1)
        return
    _fail(where, f"{_quote(value)} is not a plain JSON value")
