"""The table server's wire protocol: JSON lines, the limits, reading untrusted messages."""

from __future__ import annotations

import json
from typing import Any

import attrs

import calabrasella as cb

Message = dict[str, Any]

#: The longest player name.
MAX_NAME = 32
#: The length of a seat's token (hexadecimal digits).
TOKEN_LENGTH = 32
#: The table-mode actions that record a player's mistake: the server's bot never makes them.
IRREGULAR = (cb.Revoke, cb.TurnStock, cb.OutOfTurn, cb.Abandon)
#: The argument keys of an action written as an object.
ACTION_ARGUMENTS = ("contract", "modifier", "card")
_HEX = frozenset("0123456789abcdef")


@attrs.frozen
class Limits:
    """What one connection may do, and how long it is waited for.

    Attributes:
        line_bytes: The longest line a client may send; a longer one closes the connection.
        pending_bytes: A client whose unread output exceeds this is dropped
            (its transport aborted) and its seat freed to its grace timer.
        rate: Messages per second a connection may send on average; faster
            messages are read later (the connection is throttled, nobody else).
        burst: Messages a connection may send at once before the rate applies.
        max_errors: Refused messages in a row after which the connection is closed.
        max_connections: Open connections at most; one more is told ``busy`` and closed.
        per_address: Open connections at most from one address (a browser's
            tabs count with its other connections); one more is told ``busy`` and closed.
        hello_timeout: Seconds a new connection has to sit down (say ``hello``),
            counted from when it connected, whatever it sends meanwhile.
        idle_timeout: Seconds a seated connection may stay silent (``ping`` keeps it open).
        close_timeout: Seconds a closing connection has to take its last messages
            before its transport is aborted.
        send_buffer: The kernel's send buffer for each connection, in bytes
            (``SO_SNDBUF``), or ``None`` for the system's (autotuned) default.
    """

    line_bytes: int = 8192
    pending_bytes: int = 1 << 20
    rate: float = 20.0
    burst: int = 40
    max_errors: int = 100
    max_connections: int = 256
    per_address: int = 32
    hello_timeout: float = 30.0
    idle_timeout: float = 900.0
    close_timeout: float = 5.0
    send_buffer: int | None = None


class ProtocolError(Exception):
    """A message the server refuses: the client gets an error and nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        """Create the error.

        Args:
            code: The error's code, for programs.
            message: What went wrong, for people.
        """
        super().__init__(message)
        self.code = code
        self.message = message


def encode(message: Message) -> bytes:
    """Return one message as a line of JSON (ASCII, so no text can fail to encode).

    Example:
        >>> encode({"type": "pong"})
        b'{"type": "pong"}\\n'
    """
    return (json.dumps(message, ensure_ascii=True) + "\n").encode("ascii")


def read_message(line: bytes) -> Message:
    """Return the JSON object a line holds.

    Args:
        line: One line as received.

    Returns:
        The message, a dict with a string ``"type"``.

    Raises:
        ProtocolError: The line is not UTF-8 JSON, or not an object with a type.
    """
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", "a line must be UTF-8 text") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    if type(data) is not dict or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", 'a message is a JSON object with a "type"')
    return data


def read_action(value: object) -> cb.Action:
    """Return the action a message's ``"action"`` holds, as text or as an object.

    Args:
        value: ``"play Ad"``, or ``{"kind": "play", "card": "Ad"}``.

    Returns:
        The action (not yet checked against the deal).

    Raises:
        ProtocolError: ``value`` is not an action.

    Example:
        >>> str(read_action({"kind": "give_back", "card": "4d"}))
        'give back 4d'
    """
    if type(value) is dict:
        kind = value.get("kind")
        arguments = [value[key] for key in ACTION_ARGUMENTS if key in value]
        extra = set(value) - {"kind", *ACTION_ARGUMENTS}
        if not isinstance(kind, str) or extra or len(arguments) > 1:
            raise ProtocolError(
                "bad_action",
                'an action object is {"kind": K} with at most one of "contract", "modifier", "card"',
            )
        value = " ".join([kind.replace("_", " "), *map(str, arguments)])
    if not isinstance(value, str):
        raise ProtocolError("bad_message", '"action" is a text such as "play Ad" or an object')
    try:
        return cb.parse_action(value)
    except cb.NotationError as error:
        raise ProtocolError("bad_action", str(error)) from None


def read_name(value: object) -> str:
    """Return a player's name, stripped: 1 to :data:`MAX_NAME` printable characters.

    Raises:
        ProtocolError: ``value`` is not such a name (a lone surrogate is not printable).
    """
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_NAME:
        raise ProtocolError("bad_message", f"a name is 1 to {MAX_NAME} printable characters")
    if not value.isprintable():
        raise ProtocolError("bad_message", f"a name is 1 to {MAX_NAME} printable characters")
    return value.strip()


def read_token(value: object) -> str:
    """Return a token as sent, once it has the shape of one (ASCII hexadecimal digits).

    A token is checked before any use, so no text (a lone surrogate
    included) reaches the comparison.

    Raises:
        ProtocolError: ``bad_token``.

    Example:
        >>> read_token("\\ud800")
        Traceback (most recent call last):
        ...
        calabrasella.server._protocol.ProtocolError: a token is 32 hexadecimal digits
    """
    if (
        not isinstance(value, str)
        or len(value) != TOKEN_LENGTH
        or not value.isascii()
        or not set(value) <= _HEX
    ):
        raise ProtocolError("bad_token", f"a token is {TOKEN_LENGTH} hexadecimal digits")
    return value


def read_position(message: Message) -> tuple[int, int]:
    """Return the ``(deal, turn)`` an action message says it answers.

    Raises:
        ProtocolError: ``bad_message`` when either is missing or not a number.
    """
    deal, turn = message.get("deal"), message.get("turn")
    if type(deal) is not int or type(turn) is not int:
        raise ProtocolError(
            "bad_message",
            'an action names the view it answers: "deal" and "turn" as in that view',
        )
    return deal, turn


def describe(result: cb.Result) -> str:
    """Return a deal's outcome in a few words.

    Args:
        result: A finished deal's result.

    Returns:
        Who declared what and how it went.
    """
    if result.void or result.contract is None:
        return "all passed: void"
    contract = result.contract.value
    if result.modifier is not None:
        contract += f"+{result.modifier.value}"
    won = "won" if result.declarer_won else "lost"
    return (
        f"seat {result.declarer} {contract} {result.declarer_units}-{result.adversary_units} {won}"
    )
