"""A browser table: the static page, and HTTP with server-sent events in front of a table.

Standard library only. Each browser session is one TCP connection of the
JSON-lines protocol to the table, made by this bridge on the browser's
behalf: ``GET /events?name=...`` opens it and streams every line the table
sends as a server-sent event; ``POST /send?session=ID`` passes one message
to it. So the table applies all its limits and checks to a browser as to
any client, and the page receives exactly what its seat's connection does.

The cards are the library's pictures (:mod:`calabrasella.svg`):
``GET /card/<code>.svg`` is a card's face (``/card/Ad.svg``) and
``/card/back.svg`` a face-down card, each drawn once per process; the page
asks only for the cards its views name.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from importlib import resources
from urllib.parse import parse_qs, urlsplit

import calabrasella as cb

#: The static files, by path.
FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/static/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/static/style.css": ("style.css", "text/css; charset=utf-8"),
}
_HEAD_LIMIT = 8192
_BODY_LIMIT = 8192
#: The card pictures, by the name in their path (a card's code, or "back"), once drawn.
_PICTURES: dict[str, bytes] = {}
_CARD_NAMES = frozenset(card.code for card in cb.DECK) | {"back"}


def card_picture(name: str) -> bytes | None:
    """Return the SVG picture of a card (by its code) or of its back (``"back"``); None if neither.

    Example:
        >>> card_picture("Ad").startswith(b"<svg"), card_picture("Zz")
        (True, None)
    """
    if name not in _CARD_NAMES:
        return None
    if name not in _PICTURES:
        from calabrasella import svg

        text = svg.back() if name == "back" else svg.card(name)
        _PICTURES[name] = text.encode("utf-8")
    return _PICTURES[name]


def static_file(name: str) -> bytes:
    """Return one of the page's files as shipped in the package."""
    return resources.files("calabrasella.server").joinpath("static").joinpath(name).read_bytes()


class WebBridge:
    """Serves the page and bridges browsers (HTTP + server-sent events) to a table's TCP port."""

    def __init__(self, table_port: int, table_host: str = "127.0.0.1", max_sessions: int = 64):
        """Bridge to the table (or lobby) listening on ``table_host:table_port``."""
        self.table = (table_host, table_port)
        self.max_sessions = max_sessions
        self.port = 0
        self._sessions: dict[str, asyncio.StreamWriter] = {}
        self._server: asyncio.Server | None = None

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen for browsers; return the port."""
        self._server = await asyncio.start_server(self._http, host, port, limit=_HEAD_LIMIT)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        """Stop listening and end every session."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._sessions.values()):
            writer.transport.abort()
        if self._server is not None:
            await self._server.wait_closed()

    async def _http(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10.0)
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {k.strip().lower(): v.strip() for k, _, v in
                       (line.partition(":") for line in lines[1:] if line)}  # fmt: skip
            url = urlsplit(target)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            picture = None
            if url.path.startswith("/card/") and url.path.endswith(".svg"):
                picture = card_picture(url.path[len("/card/"):-len(".svg")])
            if method == "GET" and url.path in FILES:
                name, kind = FILES[url.path]
                await self._reply(writer, 200, kind, static_file(name))
            elif method == "GET" and picture is not None:
                await self._reply(writer, 200, "image/svg+xml", picture, "max-age=86400")
            elif method == "GET" and url.path == "/events":
                await self._events(writer, query)
            elif method == "POST" and url.path == "/send":
                length = int(headers.get("content-length", "0"))
                if not 0 < length <= _BODY_LIMIT:
                    await self._reply(writer, 413, "text/plain", b"too long\n")
                    return
                body = await asyncio.wait_for(reader.readexactly(length), 10.0)
                await self._send(writer, query.get("session", ""), body)
            else:
                await self._reply(writer, 404, "text/plain", b"not found\n")
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                ValueError, OSError):  # fmt: skip
            pass
        finally:
            writer.transport.close()

    async def _reply(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        kind: str,
        body: bytes,
        cache: str = "no-store",
    ) -> None:
        reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 413: "Too Large",
                  503: "Busy"}.get(status, "Error")  # fmt: skip
        head = (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {kind}\r\n"
                f"Content-Length: {len(body)}\r\nCache-Control: {cache}\r\n"
                "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n")  # fmt: skip
        writer.write(head.encode("latin-1") + body)
        await writer.drain()

    async def _send(self, writer: asyncio.StreamWriter, session: str, body: bytes) -> None:
        table = self._sessions.get(session) if session.isascii() else None
        if table is None or b"\n" in body or b"\r" in body:
            await self._reply(writer, 400, "text/plain", b"no such session, or not one line\n")
            return
        table.write(body + b"\n")
        await self._reply(writer, 200, "application/json", b'{"ok": true}\n')

    async def _events(self, writer: asyncio.StreamWriter, query: dict[str, str]) -> None:
        if len(self._sessions) >= self.max_sessions:
            await self._reply(writer, 503, "text/plain", b"busy\n")
            return
        reader, table = await asyncio.open_connection(*self.table, limit=1 << 20)
        session = secrets.token_hex(16)
        self._sessions[session] = table
        hello: dict[str, object] = {"type": "hello", "name": query.get("name", "guest")}
        for key in ("token", "table"):
            if key in query:
                hello[key] = query[key]
        if query.get("seat", "").isdigit():
            hello["seat"] = int(query["seat"])
        if query.get("spectate") == "1":
            hello["spectate"] = True
        table.write((json.dumps(hello) + "\n").encode())
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     b"Cache-Control: no-store\r\nX-Accel-Buffering: no\r\n"
                     b"Connection: close\r\n\r\n")  # fmt: skip
        writer.write(b"data: " + json.dumps({"type": "session", "session": session}).encode()
                     + b"\n\n")  # fmt: skip
        try:
            while line := await reader.readline():
                writer.write(b"data: " + line.rstrip(b"\n") + b"\n\n")
                await asyncio.wait_for(writer.drain(), 30.0)
        finally:
            del self._sessions[session]
            table.transport.abort()
            with contextlib.suppress(OSError):
                writer.write(b"event: end\ndata: {}\n\n")
