"""A lobby: several tables on one port; a client lists them, then sits at (or watches) one."""

from __future__ import annotations

import asyncio
import hmac
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ._conn import Bucket, Connection, LineTooLong, Link, StreamLink
from ._protocol import Limits, Message, ProtocolError, read_message, read_token
from ._store import ResumeError
from ._table import Table


class Lobby:
    """Several named tables behind one listening socket.

    A new connection may ask ``{"type": "tables"}`` (answered with each
    table's name, rules, seats and spectators), then says ``hello`` with
    ``"table": NAME`` to sit at that table (or watch it, with ``"spectate":
    true``); without ``"table"`` it goes to the table whose seat its
    ``"token"`` names, or else to the first table with a free seat (a
    watcher to the first table). From its
    ``hello`` on, the connection belongs to the table.

    Served with a folder per table (named as the table, in one parent
    folder), a lobby is resumed whole by :meth:`resume`.
    """

    def __init__(self, tables: Mapping[str, Table], limits: Limits = Limits()) -> None:  # noqa: B008
        """Gather ``tables`` (by name) behind one port.

        Args:
            tables: The tables, each made with its own settings.
            limits: The lobby's limits (timeouts and the connection cap).
        """
        if not tables:
            raise ValueError("a lobby has at least one table")
        self.tables = dict(tables)
        self.limits = limits
        self.port = 0
        self._server: asyncio.Server | None = None
        self._waiting: set[Connection] = set()

    @classmethod
    def resume(
        cls,
        folder: Path,
        limits: Limits = Limits(),  # noqa: B008 (a frozen value)
        **options: Any,
    ) -> Lobby:
        """Return the lobby whose tables saved in ``folder``'s subfolders, each as it last saved.

        Each subfolder holding a ``table.json`` is a table of that name
        (resumed by :meth:`Table.resume`, so every player's token is valid
        again at its table); the tables are in the order of their names
        (shorter names first: 1, 2, ..., 10).

        Args:
            folder: The folder given to ``calabrasella serve --tables N --save``.
            limits: The lobby's limits.
            options: Settings for every table instead of the saved ones (see
                :meth:`Table.resume`).

        Raises:
            calabrasella.server.ResumeError: No table is saved there, or one cannot be resumed.
        """
        try:
            names = [d.name for d in folder.iterdir() if (d / "table.json").is_file()]
        except OSError as error:
            raise ResumeError(f"cannot resume from {folder}: {error}") from None
        if not names:
            raise ResumeError(f"cannot resume from {folder}: no table.json in it or its folders")
        names.sort(key=lambda name: (len(name), name))
        return cls({name: Table.resume(folder / name, **options) for name in names}, limits)

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Open every table and listen; return the port (``port=0`` picks a free one)."""
        self._server = await asyncio.start_server(
            self._client, host, port, limit=self.limits.line_bytes
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        for table in self.tables.values():
            table.open()
        return self.port

    async def wait(self) -> None:
        """Return when every table has played its matches."""
        await asyncio.gather(*(table.wait() for table in self.tables.values()))

    async def close(self) -> None:
        """Stop listening and close every table."""
        if self._server is not None:
            self._server.close()
        for conn in list(self._waiting):
            conn.drop("shutdown")
        for table in self.tables.values():
            await table.close()
        if self._server is not None:
            await self._server.wait_closed()

    def listing(self) -> Message:
        """The ``tables`` message: each table's name, rules, seats and spectators."""
        tables = []
        for name, table in self.tables.items():
            players = table._table_message()
            tables.append({"name": name, "rules": table.rules.name, "deals": table.deals,
                           "players": players["players"],
                           "spectators": players["spectators"]})  # fmt: skip
        return {"type": "tables", "tables": tables}

    def _choose(self, message: Message) -> Table:
        name, token = message.get("table"), message.get("token")
        if name is None and token is not None:
            token = read_token(token)
            for table in self.tables.values():
                if any(s.token is not None and hmac.compare_digest(s.token, token)
                       for s in table.seats):  # fmt: skip
                    return table
            raise ProtocolError("bad_token", "no seat of any table has this token")
        if name is None and message.get("spectate") is True:
            return next(iter(self.tables.values()))  # a watcher who names no table: the first
        if name is None:
            for table in self.tables.values():
                if any(table._is_free(seat) for seat in table.seats):
                    return table
            raise ProtocolError("table_full", "every seat of every table is taken")
        if not isinstance(name, str) or name not in self.tables:
            raise ProtocolError("bad_message", '"table" names one of the lobby\'s tables')
        return self.tables[name]

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await self.handle_link(StreamLink(reader, writer, self.limits.send_buffer))

    def room_for(self, host: str) -> bool:
        """Whether one more connection from ``host`` fits under the lobby's caps."""
        conns = [*self._waiting, *(c for t in self.tables.values() for c in t._conns)]
        from_host = sum(1 for conn in conns if conn.host == host)
        return len(conns) < self.limits.max_connections and from_host < self.limits.per_address

    async def handle_link(self, link: Link) -> None:
        """Serve one client (over TCP or a WebSocket): list the tables, then hand it to one."""
        conn = Connection(link, self.limits)
        if not self.room_for(conn.host):
            conn.error("busy", "the server is full: it has no room for another connection; "
                       "try later")  # fmt: skip
            conn.close()
            return
        self._waiting.add(conn)
        loop = asyncio.get_running_loop()
        since = loop.time()
        bucket = Bucket(self.limits.rate, self.limits.burst, since)
        table, line, errors = None, b"", 0
        try:
            while table is None:
                left = since + self.limits.hello_timeout - loop.time()
                try:
                    if left <= 0:
                        raise asyncio.TimeoutError
                    line = await asyncio.wait_for(link.read_line(), left)
                except asyncio.TimeoutError:
                    conn.error("timeout", f"no hello within {self.limits.hello_timeout:g} s; closing")
                    break
                except LineTooLong:
                    conn.error("too_long", f"a line is at most {self.limits.line_bytes} bytes")
                    break
                if not line:
                    break
                pause = bucket.wait(loop.time())  # every line, a blank one too, takes its turn
                if pause > 0:
                    await asyncio.sleep(pause)
                if not line.strip():
                    await asyncio.sleep(0)
                    continue
                try:
                    message = read_message(line)
                    if message["type"] == "tables":
                        conn.send(self.listing())
                    elif message["type"] == "ping":
                        conn.send({"type": "pong"})
                    elif message["type"] == "hello":
                        table = self._choose(message)
                    else:
                        raise ProtocolError("not_seated", 'ask {"type": "tables"} or say hello')
                    errors = 0
                except ProtocolError as error:
                    conn.error(error.code, error.message)
                    errors += 1
                    if errors >= self.limits.max_errors:
                        conn.error("too_many_errors", f"{errors} refused messages in a row; closing")
                        break
                await asyncio.sleep(0)
        finally:
            self._waiting.discard(conn)
        if table is None:
            conn.close()
            return
        await table.handle_link(link, first=line, since=since)
