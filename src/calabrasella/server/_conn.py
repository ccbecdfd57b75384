"""A seat, and one client's connection: sending without blocking, throttling, really dropping it."""

from __future__ import annotations

import asyncio
import socket
from typing import Any, Protocol

from ._protocol import Limits, Message, encode


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once.

    Example:
        >>> bucket = Bucket(rate=2.0, burst=2, now=0.0)
        >>> bucket.wait(0.0), bucket.wait(0.0), bucket.wait(0.0)
        (0.0, 0.0, 0.5)
    """

    def __init__(self, rate: float, burst: int, now: float) -> None:
        """Start full."""
        self.rate = rate
        self.burst = float(burst)
        self.level = float(burst)
        self.when = now

    def wait(self, now: float) -> float:
        """Take one token; return how long to wait before the message may be read (0: now)."""
        self.level = min(self.burst, self.level + (now - self.when) * self.rate)
        self.when = now
        self.level -= 1.0
        return 0.0 if self.level >= 0 else -self.level / self.rate


class LineTooLong(Exception):
    """A client sent a message longer than the connection's limit."""


class Link(Protocol):
    """One client's transport, as the table sees it: a TCP stream of lines, or a WebSocket.

    The table reads one message at a time from it and writes without
    waiting; both transports go through the same :class:`Connection` and the
    same table code.
    """

    #: The client's address (without its port): the per-address limits count by it.
    host: str
    #: The client's address and port, for the log.
    peer: str

    async def read_line(self) -> bytes:
        """The next message (one line); ``b""`` once the client has gone.

        Raises:
            LineTooLong: The message is longer than the limit.
        """

    def write(self, data: bytes) -> None:
        """Queue ``data`` (one encoded message) without waiting."""

    def pending(self) -> int:
        """Bytes written and not yet taken by the client."""

    def closing(self) -> bool:
        """Whether the link is closing or closed."""

    def close(self, timeout: float) -> None:
        """Close once the queued output is sent, or abort after ``timeout`` seconds."""

    def abort(self) -> None:
        """Close now, throwing away unsent output."""


class StreamLink:
    """A TCP connection of the JSON-lines protocol (:mod:`asyncio` streams)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        send_buffer: int | None = None,
    ) -> None:
        """Wrap a connection's two ends; ``send_buffer``: the kernel's ``SO_SNDBUF``, if set."""
        self.reader = reader
        self.writer = writer
        sock = writer.get_extra_info("socket")
        if send_buffer is not None and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, send_buffer)
        peer = writer.get_extra_info("peername")
        self.host = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    async def read_line(self) -> bytes:
        """The next line (with its newline); ``b""`` at the end."""
        try:
            return await self.reader.readline()
        except ValueError:  # longer than the reader's limit
            raise LineTooLong from None
        except OSError:
            return b""

    def write(self, data: bytes) -> None:
        """Hand ``data`` to the transport."""
        self.writer.transport.write(data)

    def pending(self) -> int:
        """The transport's unsent bytes."""
        return self.writer.transport.get_write_buffer_size()

    def closing(self) -> bool:
        """Whether the transport is closing."""
        return self.writer.transport.is_closing()

    def close(self, timeout: float) -> None:
        """Close after the queued output, aborting after ``timeout`` seconds."""
        transport = self.writer.transport
        if transport.is_closing():
            return
        transport.close()
        asyncio.get_running_loop().call_later(timeout, transport.abort)

    def abort(self) -> None:
        """Abort the transport."""
        self.writer.transport.abort()


class Connection:
    """A client's connection: where to write, and the seat it sits at."""

    def __init__(self, link: Link, limits: Limits) -> None:
        """Wrap ``link``.

        Args:
            link: The client's transport.
            limits: The limits it is held to.
        """
        self.link = link
        self.limits = limits
        self.seat: Seat | None = None
        self.errors = 0
        self.dropped: str | None = None
        self.task: asyncio.Task[Any] | None = None
        self.host = link.host
        self.peer = link.peer

    @property
    def is_open(self) -> bool:
        """Whether messages sent now may still reach the client."""
        return self.dropped is None and not self.link.closing()

    def send(self, message: Message) -> None:
        """Queue one message; drop the client at once if it has stopped reading.

        Args:
            message: A JSON-ready dict.
        """
        if not self.is_open:
            return
        self.link.write(encode(message))
        if self.link.pending() > self.limits.pending_bytes:
            self.drop("slow")

    def error(self, code: str, message: str) -> None:
        """Send an error message.

        Args:
            code: The error's code.
            message: What went wrong.
        """
        self.send({"type": "error", "code": code, "message": message})

    def drop(self, why: str) -> None:
        """Abort the link: unsent output is thrown away and the connection closed now."""
        if self.dropped is None:
            self.dropped = why
        self.link.abort()

    def close(self) -> None:
        """Close after the queued output is sent, or abort if that takes too long."""
        if self.dropped is None:
            self.dropped = "closed"
        self.link.close(self.limits.close_timeout)


class Seat:
    """A seat at the table: who owns it, with which token, and whether connected."""

    def __init__(self, number: int, *, bot: bool = False) -> None:
        """Create an empty seat, or a seat the server's bot holds.

        Args:
            number: The seat's number.
            bot: Whether the server's bot sits here for the whole match.
        """
        self.number = number
        self.bot = bot
        self.name: str | None = f"bot {number}" if bot else None
        self.token: str | None = None
        self.conn: Connection | None = None
        self.left_at = 0.0
        #: The move (deal, turn) whose grace it has used some of, and how much (seconds away).
        self.away_key: tuple[int, int] | None = None
        self.away_used = 0.0

    @property
    def taken(self) -> bool:
        """Whether somebody (a player or the bot) holds the seat for this match."""
        return self.bot or self.token is not None
