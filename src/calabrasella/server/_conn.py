"""A seat, and one client's connection: sending without blocking, throttling, really dropping it."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

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


class Connection:
    """A client's connection: where to write, and the seat it sits at."""

    def __init__(self, writer: asyncio.StreamWriter, limits: Limits) -> None:
        """Wrap ``writer``.

        Args:
            writer: The connection's writing end.
            limits: The limits it is held to.
        """
        self.writer = writer
        self.limits = limits
        self.seat: Seat | None = None
        self.errors = 0
        self.dropped: str | None = None
        self.task: asyncio.Task[Any] | None = None
        sock = writer.get_extra_info("socket")
        if limits.send_buffer is not None and sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    @property
    def is_open(self) -> bool:
        """Whether messages sent now may still reach the client."""
        return self.dropped is None and not self.writer.transport.is_closing()

    def send(self, message: Message) -> None:
        """Queue one message; drop the client at once if it has stopped reading.

        Args:
            message: A JSON-ready dict.
        """
        if not self.is_open:
            return
        transport = self.writer.transport
        transport.write(encode(message))
        if transport.get_write_buffer_size() > self.limits.pending_bytes:
            self.drop("slow")

    def error(self, code: str, message: str) -> None:
        """Send an error message.

        Args:
            code: The error's code.
            message: What went wrong.
        """
        self.send({"type": "error", "code": code, "message": message})

    def drop(self, why: str) -> None:
        """Abort the transport: unsent output is thrown away and the socket closed now."""
        if self.dropped is None:
            self.dropped = why
        self.writer.transport.abort()

    def close(self) -> None:
        """Close after the queued output is sent, or abort if that takes too long."""
        if self.dropped is None:
            self.dropped = "closed"
        transport = self.writer.transport
        if transport.is_closing():
            return
        transport.close()
        asyncio.get_running_loop().call_later(self.limits.close_timeout, transport.abort)


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

    @property
    def taken(self) -> bool:
        """Whether somebody (a player or the bot) holds the seat for this match."""
        return self.bot or self.token is not None
