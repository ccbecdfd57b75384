"""The browser table: the page, and a WebSocket per browser, on Starlette under uvicorn.

Needs the ``server`` extra (``pip install 'calabrasella[server]'``). Each
browser tab is one WebSocket carrying the table's own protocol (one JSON
message per WebSocket message, both ways) straight into the table: the
table serves it with the same code as a TCP client (:class:`Link`), with the
same limits, and sends it exactly what its seat's connection gets.

HTTP parsing, WebSocket framing, message-size limits, reading only as fast
as the table takes messages, pings that find dead tabs, and reading the
client's address from a trusted proxy's ``X-Forwarded-For`` come from
uvicorn (h11 and the ``websockets`` package); ``Host`` checking from
Starlette's ``TrustedHostMiddleware``. This module adds the connection caps
(counted when a connection is accepted, in total and per address), a
deadline for every request's head and every WebSocket handshake, a cap on
each connection's unsent output whatever wrote it (pongs included), the
``Origin`` check of a WebSocket against the ``Host`` it was asked of, and a
log that says each cause once a minute at most.

The cards are the library's pictures (:mod:`calabrasella.svg`):
``GET /card/<code>.svg`` is a card's face (``/card/Ad.svg``) and
``/card/back.svg`` a face-down card, each drawn once per process.

After a deal ends, all its cards are public: ``GET /analysis/<n>.svg?key=K``
(``&table=NAME`` behind a lobby) is the chart of the analysis of the
table's finished deal ``n`` of its match (:func:`calabrasella.bots.analyse`,
every hand open), computed once in a worker process, a search at a time and
each bounded (:mod:`._analysis`). ``K`` is the table's analysis key, told to
its players and spectators in their ``welcome``: a request without it is
refused (403). A deal not finished has none (404).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hmac
import logging
import socket
import time
from collections.abc import Iterable
from importlib import resources
from typing import Any, Protocol

import calabrasella as cb

try:
    import h11
    import uvicorn
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError as error:  # pragma: no cover - the tests run with the extra
    raise ImportError(
        "the browser table needs the server extra: pip install 'calabrasella[server]'"
    ) from error

from ._analysis import Analyst, Finished, tables_of
from ._conn import Link

#: Seconds between two log lines of the same cause (what a stranger can make the server log).
LOG_EVERY = 60.0
#: What a connection refused by a cap is told (a browser's page cannot read it; a program can).
FULL = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Content-Length: 45\r\nRetry-After: 10\r\nConnection: close\r\n\r\n"
        b"the table is full: no room for another page\r\n")  # fmt: skip

#: What the page's files are, by name.
FILES = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
#: The headers of every answer: nothing cached but the cards, nothing from elsewhere.
SECURITY = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
}
_PICTURES: dict[str, bytes] = {}
_CARD_NAMES = frozenset(card.code for card in cb.DECK) | {"back"}


class OncePerCause(logging.Filter):
    """Lets one record of each cause through every ``every`` seconds, without its traceback.

    A cause is the record's message before its arguments. The next record
    of that cause let through says how many were held back. Strangers can
    make uvicorn log (a broken WebSocket message, a refused ``Host``), so
    none of them may fill the log.

    Example:
        >>> f = OncePerCause(every=60.0)
        >>> def record(message):
        ...     return logging.LogRecord("x", logging.ERROR, "", 0, message, None, None)
        >>> [f.filter(record("bad frame")) for _ in range(3)], f.filter(record("other"))
        ([True, False, False], True)
    """

    def __init__(self, every: float = LOG_EVERY) -> None:
        """Let a cause through at most once every ``every`` seconds."""
        super().__init__()
        self.every = every
        self._last: dict[str, float] = {}
        self._held: collections.Counter[str] = collections.Counter()

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to log ``record`` (trimmed to its one line)."""
        cause = str(record.msg)[:200]
        now = time.monotonic()
        last = self._last.get(cause)
        if last is not None and now - last < self.every:
            self._held[cause] += 1
            return False
        if len(self._last) > 256:  # causes are few; never let them grow without bound
            self._last.clear()
        self._last[cause] = now
        held = self._held.pop(cause, 0)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        if held:
            record.msg = f"{record.getMessage()} ({held} more like it not logged)"
            record.args = None
        return True


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


class Target(Protocol):
    """A table or a lobby: anything that serves a client's link until it goes."""

    async def handle_link(self, link: Link) -> None:
        """Serve one client."""


class WebLink:
    """A browser's WebSocket as a :class:`Link`: one table message per WebSocket message.

    What the table writes is queued and sent in order by a task of its own,
    so the table never waits for a browser; :meth:`pending` counts what is
    queued, so a tab that stops reading is dropped like a TCP client.
    """

    def __init__(self, websocket: WebSocket) -> None:
        """Wrap an accepted WebSocket."""
        self.ws = websocket
        client = websocket.client
        self.host = client.host if client is not None else "unknown"
        self.peer = f"{client.host}:{client.port}" if client is not None else "unknown"
        self._queue: collections.deque[bytes] = collections.deque()
        self._size = 0
        self._wake = asyncio.Event()
        self._gone = asyncio.Event()
        self._state = "open"  # then "closing" (flush, then close), "closed" or "aborted"
        self._writer = asyncio.ensure_future(self._write())

    async def read_line(self) -> bytes:
        """The next message, as a line; ``b""`` once the tab has gone or the link is closed."""
        if self._gone.is_set():
            return b""
        receive = asyncio.ensure_future(self.ws.receive())
        gone = asyncio.ensure_future(self._gone.wait())
        try:
            await asyncio.wait({receive, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for future in (receive, gone):
                if not future.done():
                    future.cancel()
        if not receive.done() or receive.cancelled() or receive.exception() is not None:
            self._gone.set()
            return b""
        message = receive.result()
        if message["type"] != "websocket.receive":
            self._gone.set()
            return b""
        data = message.get("bytes") or (message.get("text") or "").encode("utf-8")
        return bytes(data) + b"\n"  # never b"": an empty message is a blank line

    def write(self, data: bytes) -> None:
        """Queue one encoded message (a line of ASCII JSON)."""
        if self._state != "open":
            return
        self._queue.append(data)
        self._size += len(data)
        self._wake.set()

    def pending(self) -> int:
        """Bytes queued and not yet taken by the tab's connection."""
        return self._size

    def closing(self) -> bool:
        """Whether the link is closing or closed."""
        return self._state != "open" or self._gone.is_set()

    def close(self, timeout: float) -> None:
        """Send what is queued, then close the WebSocket; abort after ``timeout`` seconds."""
        if self._state != "open":
            return
        self._state = "closing"
        self._wake.set()
        asyncio.get_running_loop().call_later(timeout, self.abort)

    def abort(self) -> None:
        """Throw away what is queued and end the link now."""
        if self._state in ("closed", "aborted"):
            return
        self._state = "aborted"
        self._queue.clear()
        self._size = 0
        self._writer.cancel()
        self._gone.set()

    async def finish(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) until the queued messages are sent and the link closed."""
        self.close(timeout)
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(self._writer), timeout)
        self.abort()

    async def _write(self) -> None:
        try:
            while True:
                while self._queue:
                    data = self._queue[0]
                    await self.ws.send_text(data.decode("ascii").rstrip("\n"))
                    self._queue.popleft()
                    self._size -= len(data)
                if self._state == "closing":
                    self._state = "closed"
                    await self.ws.close(1000)
                    return
                self._wake.clear()
                await self._wake.wait()
        except (OSError, RuntimeError, WebSocketDisconnect):  # the tab went
            self._gone.set()
        finally:
            self._gone.set()


class WebTable:
    """Serves the page and each browser's WebSocket in front of a table (or a lobby).

    Example:
        >>> import asyncio
        >>> from calabrasella.server import Table
        >>> async def page() -> bool:
        ...     table = Table(cb.CAVENDISH, bots=(0, 1, 2), deals=1, seed=1)
        ...     web = WebTable(table)
        ...     port = await web.start()
        ...     reader, writer = await asyncio.open_connection("127.0.0.1", port)
        ...     writer.write(b"HEAD / HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n")
        ...     answer = await reader.readline()
        ...     writer.close()
        ...     await web.close()
        ...     return answer.startswith(b"HTTP/1.1 200")
        >>> asyncio.run(page())
        True
    """

    def __init__(
        self,
        target: Target,
        *,
        hosts: Iterable[str] = (),
        max_connections: int = 128,
        per_address: int = 16,
        ping: float = 5.0,
        open_timeout: float = 10.0,
        message_bytes: int = 8192,
        close_timeout: float = 5.0,
        output_bytes: int = 1 << 20,
        queued_messages: int = 1024,
        forwarded_allow_ips: Iterable[str] = (),
    ) -> None:
        """Put the page in front of ``target``.

        Args:
            target: The :class:`~calabrasella.server.Table` or
                :class:`~calabrasella.server.Lobby` the tabs play at.
            hosts: Names the page may be asked for (the ``Host`` header)
                besides ``localhost``, the loopback addresses and the address
                listened on; a request for any other is refused (400), and a
                WebSocket whose ``Origin`` is not the page it was asked of (403).
            max_connections: Open web connections at most (pages, pictures
                and tabs); one more is closed at once.
            per_address: Open web connections at most from one address.
            ping: Seconds between the pings of each tab's WebSocket, and to
                wait for its answer: a dead tab is gone within twice this.
            open_timeout: Seconds a connection has to send each request's head
                (its first, and each next one on a kept-alive connection), and
                a WebSocket to finish its handshake; it is closed after that.
            message_bytes: The longest message a tab may send; a longer one
                closes its WebSocket (code 1009).
            close_timeout: Seconds a closing tab has to take its last messages.
            output_bytes: A connection whose unsent output passes this many
                bytes is dropped, whatever wrote it (messages, or pongs to a
                flood of pings).
            queued_messages: A tab with more messages received and not yet
                read by the table is dropped (it sends far faster than the
                rate limit: thousands of tiny messages in one packet).
            forwarded_allow_ips: The addresses of trusted reverse proxies
                (uvicorn's ``forwarded_allow_ips``; ``"*"``: any). A request
                from one of them is taken to come from the address its
                ``X-Forwarded-For`` names: the table's caps per address, and
                ``per_address`` (counted per request and tab there), count
                that address; the proxy's own connections count only
                towards ``max_connections``. Empty (the default): the header
                is ignored.
        """
        self.target = target
        self.hosts = [*hosts]
        self.max_connections = max_connections
        self.per_address = per_address
        self.ping = ping
        self.open_timeout = open_timeout
        self.message_bytes = message_bytes
        self.close_timeout = close_timeout
        self.output_bytes = output_bytes
        self.queued_messages = queued_messages
        self.proxies = [*forwarded_allow_ips]
        self.port = 0
        self.refused = 0
        self._open: dict[Any, str] = {}
        self._forwarded: collections.Counter[str] = collections.Counter()
        self._log_filter = OncePerCause()
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.finished = Finished(target)
        self.analyst = Analyst()

    # --- the application -----------------------------------------------------------

    def app(self, listening: str) -> Starlette:
        """The ASGI application: the page, its files, the cards and ``/ws``."""
        allowed = {"localhost", "127.0.0.1", "::1", listening, *self.hosts} - {"", "0.0.0.0", "::"}
        routes = [
            Route("/", self._index),
            Route("/static/{name}", self._static),
            Route("/card/{name}.svg", self._card),
            Route("/analysis/{deal}.svg", self._analysis),
            Route("/favicon.ico", self._favicon),
            WebSocketRoute("/ws", self._socket),
        ]
        trusted = Middleware(TrustedHostMiddleware, allowed_hosts=sorted(allowed), www_redirect=False)
        return Starlette(routes=routes, middleware=[trusted])

    async def _index(self, request: Request) -> Response:
        return Response(static_file("index.html"), media_type="text/html; charset=utf-8",
                        headers={**SECURITY, "Cache-Control": "no-store"})  # fmt: skip

    async def _static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in FILES:
            return Response("not found\n", 404, media_type="text/plain", headers=SECURITY)
        return Response(static_file(name), media_type=FILES[name],
                        headers={**SECURITY, "Cache-Control": "no-cache"})  # fmt: skip

    async def _card(self, request: Request) -> Response:
        picture = card_picture(request.path_params["name"])
        if picture is None:
            return Response("not found\n", 404, media_type="text/plain", headers=SECURITY)
        return Response(picture, media_type="image/svg+xml",
                        headers={**SECURITY, "Cache-Control": "max-age=86400"})  # fmt: skip

    async def _favicon(self, request: Request) -> Response:
        return Response(card_picture("back"), media_type="image/svg+xml",
                        headers={**SECURITY, "Cache-Control": "max-age=86400"})  # fmt: skip

    async def _analysis(self, request: Request) -> Response:
        number = request.path_params["deal"]
        name = request.query_params.get("table", "")
        table = tables_of(self.target).get(name)
        key = request.query_params.get("key", "")
        if table is None or not hmac.compare_digest(key.encode(), table.analysis_key.encode()):
            return Response("the analysis is for the table's players and spectators\n", 403,
                            media_type="text/plain", headers=SECURITY)  # fmt: skip
        plain = number.isascii() and number.isdigit() and len(number) <= 6
        state = self.finished.get(name, int(number)) if plain else None
        if state is None:
            return Response("no such finished deal\n", 404, media_type="text/plain",
                            headers=SECURITY)  # fmt: skip
        try:
            picture = await self.analyst.picture(state, self.finished.names.get((name, int(number)), ()))
        except asyncio.TimeoutError:
            return Response("the analysis took too long\n", 503, media_type="text/plain",
                            headers=SECURITY)  # fmt: skip
        return Response(picture, media_type="image/svg+xml",
                        headers={**SECURITY, "Cache-Control": "no-store"})  # fmt: skip

    async def _socket(self, websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host", "")
        if origin is not None and origin not in (f"http://{host}", f"https://{host}"):
            await websocket.close(1008)  # before accepting: the handshake is refused (403)
            return
        await websocket.accept()
        link = WebLink(websocket)
        try:
            await self.target.handle_link(link)
        finally:
            await link.finish(self.close_timeout)

    # --- the caps, where a connection is accepted -----------------------------------

    def _trusted(self, host: str) -> bool:
        return bool(self.proxies) and ("*" in self.proxies or host in self.proxies)

    def _admit(self, transport: Any, host: str) -> bool:
        from_host = sum(1 for h in self._open.values() if h == host)
        over = from_host >= self.per_address and not self._trusted(host)
        if len(self._open) >= self.max_connections or over:
            self.refused += 1
            return False
        self._open[transport] = host
        return True

    def _per_client(self, app: Any) -> Any:
        """Behind trusted proxies: ``per_address`` counted by the forwarded address."""
        web = self

        async def counted(scope: Any, receive: Any, send: Any) -> None:
            client = scope.get("client")
            if not web.proxies or scope["type"] not in ("http", "websocket") or not client:
                await app(scope, receive, send)
                return
            host = str(client[0])
            if web._forwarded[host] >= web.per_address:
                web.refused += 1
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1013})
                else:
                    await Response("too many connections from your address\n", 503,
                                   media_type="text/plain")(scope, receive, send)  # fmt: skip
                return
            web._forwarded[host] += 1
            try:
                await app(scope, receive, send)
            finally:
                web._forwarded[host] -= 1
                if not web._forwarded[host]:
                    del web._forwarded[host]

        return counted

    def _protocols(self) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
        web = self

        def too_much_output(transport: Any) -> bool:
            if transport.is_closing():
                return False
            if transport.get_write_buffer_size() <= web.output_bytes:
                return False
            transport.abort()  # unread output past the limit, whatever wrote it
            return True

        class Guarded(H11Protocol):
            _head_timer: asyncio.TimerHandle | None = None

            def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
                super().connection_made(transport)
                host = self.client[0] if self.client else "unknown"
                if not web._admit(transport, host):
                    transport.write(FULL)  # the reason, for whoever can read it
                    transport.close()
                    asyncio.get_running_loop().call_later(1.0, transport.abort)
                    return
                self._head_due_after(None)

            def _head_due_after(self, scope: object) -> None:
                """Each request's head is due ``open_timeout`` after the connection is free for it."""
                if self._head_timer is not None:
                    self._head_timer.cancel()
                loop = asyncio.get_running_loop()
                self._head_timer = loop.call_later(web.open_timeout, self._head_due, scope)

            def _head_due(self, scope: object) -> None:
                if getattr(self, "scope", None) is scope and self.transport.get_protocol() is self:
                    self.transport.close()  # no new request in time (or a head sent too slowly)

            def on_response_complete(self) -> None:
                super().on_response_complete()
                if not self.transport.is_closing():
                    self._head_due_after(getattr(self, "scope", None))

            def data_received(self, data: bytes) -> None:
                super().data_received(data)
                too_much_output(self.transport)

            def handle_websocket_upgrade(self, event: h11.Request) -> None:
                length = next((v for k, v in self.headers if k == b"content-length"), b"0")
                chunked = any(k == b"transfer-encoding" for k, _ in self.headers)
                if event.method != b"GET" or length.strip() not in (b"", b"0") or chunked:
                    self.send_400_response("a WebSocket is opened by a GET with no body")
                    return
                super().handle_websocket_upgrade(event)

            def connection_lost(self, exc: Exception | None) -> None:
                web._open.pop(self.transport, None)
                if self._head_timer is not None:  # a cancelled timer lets the connection go
                    self._head_timer.cancel()
                    self._head_timer = None
                super().connection_lost(exc)

        class GuardedSocket(WebSocketsSansIOProtocol):
            _handshake_timer: asyncio.TimerHandle | None = None

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                loop = asyncio.get_running_loop()
                self._handshake_timer = loop.call_later(web.open_timeout, self._handshake_due)

            def _handshake_due(self) -> None:
                if not self.handshake_complete and not self.transport.is_closing():
                    self.transport.abort()  # the upgrade was never finished

            def data_received(self, data: bytes) -> None:
                super().data_received(data)
                if self.queue.qsize() > web.queued_messages and not self.transport.is_closing():
                    while not self.queue.empty():  # what it queued goes with it
                        self.queue.get_nowait()
                    self.transport.abort()
                    return
                too_much_output(self.transport)

            def connection_lost(self, exc: Exception | None) -> None:
                web._open.pop(self.transport, None)
                if self._handshake_timer is not None:
                    self._handshake_timer.cancel()
                    self._handshake_timer = None
                super().connection_lost(exc)

        return Guarded, GuardedSocket

    # --- running --------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Listen for browsers on ``host:port`` (0: a free port); return the port."""
        http, ws = self._protocols()
        config = uvicorn.Config(
            self._per_client(self.app(host)),
            http=http,
            ws=ws,
            lifespan="off",
            log_config=None,
            access_log=False,
            server_header=False,
            date_header=False,
            ws_max_size=self.message_bytes,
            ws_ping_interval=self.ping,
            ws_ping_timeout=self.ping,
            ws_per_message_deflate=False,
            timeout_keep_alive=5,
            proxy_headers=bool(self.proxies),
            forwarded_allow_ips=self.proxies or None,
            timeout_graceful_shutdown=max(1, round(self.close_timeout)),
        )
        # a malformed request is answered (400) and not logged: a hostile client cannot
        # fill the log; uvicorn's errors (an exception in the application) still are
        errors = logging.getLogger("uvicorn.error")
        errors.setLevel(logging.ERROR)
        errors.addFilter(self._log_filter)  # and each cause at most once a minute
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
        sock.setblocking(False)
        self.port = int(sock.getsockname()[1])
        self._server = _Quiet(config)
        self._task = asyncio.ensure_future(self._server.serve(sockets=[sock]))
        while not self._server.started and not self._task.done():
            await asyncio.sleep(0.01)
        if self._task.done():
            self._task.result()  # it failed: say why
        return self.port

    async def close(self) -> None:
        """Stop listening and close every connection (and the analyses' worker)."""
        self.analyst.close()
        logging.getLogger("uvicorn.error").removeFilter(self._log_filter)
        if self._server is None or self._task is None:
            return
        self._server.should_exit = True
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._task), self.close_timeout + 2)
        if not self._task.done():
            self._server.force_exit = True
            await self._task


class _Quiet(uvicorn.Server):
    """uvicorn's server without its signal handlers: the table's runner has its own."""

    @contextlib.contextmanager
    def capture_signals(self) -> Any:
        yield
