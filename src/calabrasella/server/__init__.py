"""A table server: three players (people or the server's bot) at a table over TCP.

The protocol is JSON lines (one JSON object per line of UTF-8 text, both
ways) on :mod:`asyncio` streams, from the standard library only; the
browser table (:class:`WebTable`, the ``server`` extra) carries the same
messages over a WebSocket per tab. Every
player is sent only its own seat's view. ``calabrasella serve`` runs one
table from the command line; ``docs/server.md`` is the deployment guide.

Example:
    >>> import asyncio
    >>> import calabrasella as cb
    >>> from calabrasella.server import Table
    >>> async def bots_only():
    ...     table = Table(cb.CAVENDISH, deals=2, seed=3, bots=(0, 1, 2))
    ...     await table.start()
    ...     await table.wait()
    ...     await table.close()
    ...     return table
    >>> table = asyncio.run(bots_only())
    >>> table.matches_played, table.state is None
    (1, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._clock import Clocks
from ._conn import Bucket, Connection, LineTooLong, Link, Seat, StreamLink
from ._lobby import Lobby
from ._protocol import (
    IRREGULAR,
    MAX_NAME,
    TOKEN_LENGTH,
    Limits,
    Message,
    ProtocolError,
    describe,
    encode,
    read_action,
    read_message,
    read_name,
    read_position,
    read_token,
)
from ._public import public_view_data
from ._run import serve
from ._store import ResumeError, Saved, load, write_atomic
from ._table import Table

if TYPE_CHECKING:  # at run time only when asked for: they need the server extra
    from ._web import WebLink, WebTable


def __getattr__(name: str) -> object:
    # The browser table needs the server extra: imported only when asked for.
    if name in ("WebTable", "WebLink"):
        from . import _web

        return getattr(_web, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def web_available() -> bool:
    """Whether the browser table can be served (the ``server`` extra is installed).

    Example:
        >>> web_available() in (True, False)
        True
    """
    import importlib.util

    return all(importlib.util.find_spec(name) is not None
               for name in ("starlette", "uvicorn", "websockets"))  # fmt: skip


__all__ = [
    "IRREGULAR",
    "MAX_NAME",
    "TOKEN_LENGTH",
    "Bucket",
    "Clocks",
    "Connection",
    "Limits",
    "LineTooLong",
    "Link",
    "Lobby",
    "Message",
    "ProtocolError",
    "ResumeError",
    "Saved",
    "Seat",
    "StreamLink",
    "Table",
    "WebLink",
    "WebTable",
    "describe",
    "encode",
    "load",
    "public_view_data",
    "read_action",
    "read_message",
    "read_name",
    "read_position",
    "read_token",
    "serve",
    "web_available",
    "write_atomic",
]
