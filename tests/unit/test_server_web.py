"""The browser table (the server extra) over 127.0.0.1: the page, HTTP's edges, each tab's WebSocket.

A tab is played by the ``websockets`` client, which speaks to ``/ws`` as a
browser does; the HTTP checks are written by hand on a socket, so that
nothing the server does is hidden by a client library. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from server_kit import Raw, Watched, check_messages, run, until
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

import calabrasella as cb
from calabrasella.server import Limits, Table, WebTable, describe

Message = dict[str, Any]


@asynccontextmanager
async def serving(table: Table, **web: Any) -> AsyncIterator[tuple[Table, WebTable, int]]:
    await table.start()
    page = WebTable(table, **web)
    port = await page.start()
    try:
        yield table, page, port
    finally:
        await table.close()
        await page.close()


async def raw_http(port: int, request: bytes, wait: float = 3.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    try:
        return await asyncio.wait_for(reader.read(), wait)
    finally:
        writer.close()


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else -1


def get(path: str, method: str = "GET", host: str = "127.0.0.1", end: bytes = b"\r\n") -> bytes:
    return (f"{method} {path} HTTP/1.1".encode() + end + f"Host: {host}".encode() + end
            + b"Connection: close" + end + end)  # fmt: skip


async def tab(port: int, **options: Any) -> ClientConnection:
    return await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5, **options)


async def next_of(ws: ClientConnection, kind: str) -> Message:
    while True:
        message: Message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if message["type"] == kind:
            return message


def test_the_page_its_files_and_the_edges_of_http() -> None:
    async def scenario() -> None:
        async with serving(Table(cb.CAVENDISH, deals=1, bots=(0, 1, 2), matches=None)) as (_, _, port):
            page = await raw_http(port, get("/"))
            assert status(page) == 200 and b'src="/static/app.js"' in page
            assert b"nosniff" in page and b"default-src 'self'" in page
            body = page.partition(b"\r\n\r\n")[2]
            assert b"http" not in body.replace(b"http-equiv", b"")  # nothing from elsewhere
            for name in ("app.js", "style.css"):
                answer = await raw_http(port, get(f"/static/{name}"))
                assert status(answer) == 200
                assert b"http://" not in answer.partition(b"\r\n\r\n")[2]
            head = await raw_http(port, get("/", "HEAD"))
            assert status(head) == 200 and head.endswith(b"\r\n\r\n")  # headers, no body
            assert status(await raw_http(port, get("/", end=b"\n"))) == 200  # bare LF answered
            assert status(await raw_http(port, get("/", host="evil.example"))) == 400
            assert status(await raw_http(port, get("/", host="evil.example:80"))) == 400
            assert status(await raw_http(port, get("/etc/passwd"))) == 404
            assert status(await raw_http(port, get("/static/index.html"))) == 404
            face = await raw_http(port, get("/card/Ad.svg"))
            assert status(face) == 200 and b"<svg" in face and b"image/svg+xml" in face
            assert status(await raw_http(port, get("/card/back.svg"))) == 200
            icon = await raw_http(port, get("/favicon.ico"))  # no 404 in the console on each load
            assert status(icon) == 200 and b"image/svg+xml" in icon
            assert status(await raw_http(port, get("/card/Zz.svg"))) == 404
            assert status(await raw_http(port, b"GARBAGE\r\n\r\n")) == 400
            # a WebSocket opened from another site's page is refused (DNS rebinding, CSRF)
            with pytest.raises(InvalidStatus) as refused:
                await tab(port, origin="http://evil.example")
            assert refused.value.response.status_code == 403
            ws = await tab(port, origin=f"http://127.0.0.1:{port}")
            await ws.send(json.dumps({"type": "ping"}))
            assert (await next_of(ws, "pong"))["type"] == "pong"
            await ws.close()

    run(scenario())


def test_a_whole_match_through_a_websocket_gets_only_what_seat_0_may_know() -> None:
    async def scenario() -> tuple[Watched, list[Message]]:
        table = Watched(cb.CAVENDISH, deals=2, seed=3, bots=(1, 2), move_time=None)
        received: list[Message] = []
        async with serving(table) as (_, _, port):
            ws = await tab(port)
            await ws.send(json.dumps({"type": "hello", "name": "ann", "seat": 0}))
            async for text in ws:
                message = json.loads(text)
                received.append(message)
                if message["type"] == "view" and message["view"]["legal_actions"]:
                    legal = message["view"]["legal_actions"]
                    action = next((a for a in legal if a != "pass"), legal[0])
                    await ws.send(json.dumps({"type": "action", "deal": message["deal"],
                                              "turn": message["turn"], "action": action}))  # fmt: skip
        return table, received

    table, received = run(scenario(), 30)
    assert received[0]["type"] == "welcome" and len(received[0]["token"]) == 32
    assert received[-1]["type"] == "match_over"
    overs = [m for m in received if m["type"] == "over"]
    assert [m["summary"] for m in overs] == [
        describe(final.result) for final in table.finished if final.result is not None
    ]
    check_messages(table, 0, [m for m in received if m["type"] != "welcome"])


def test_bad_hellos_from_tabs_leave_the_page_working() -> None:
    """Seat "²" (and other nonsense) 100 times: each refused, none keeps a place; then one sits."""

    async def scenario() -> Message:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, per_address=200) as (_, _, port):
            bad: list[object] = ["²", "1", 1.5, -1, 3, 10**100, "0", [0], {"0": 0}, True]
            for n in range(100):
                ws = await tab(port)
                await ws.send(json.dumps({"type": "hello", "name": "x", "seat": bad[n % len(bad)]}))
                error = await next_of(ws, "error")
                assert error["code"] in ("bad_message",)
                await ws.close()
            await until(lambda: len(table._conns) == 0)
            ws = await tab(port)
            await ws.send(json.dumps({"type": "hello", "name": "ann", "seat": 0}))
            welcome = await next_of(ws, "welcome")
            await ws.close()
            return welcome

    assert run(scenario())["seat"] == 0


def test_a_flooding_tab_is_read_only_as_fast_as_the_table_takes_messages() -> None:
    """30,000 posts of 8 KB in 10 s grew the old bridge by 230 MB: now the tab itself is held back."""

    async def scenario() -> tuple[int, str]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table) as (_, _, port):
            ws = await tab(port, max_queue=None)
            await ws.send(json.dumps({"type": "hello", "name": "ann", "spectate": True}))
            await next_of(ws, "welcome")
            junk = json.dumps({"type": "ping", "pad": "x" * 8000})
            sent = 0

            async def flood() -> None:
                nonlocal sent
                for _ in range(100_000):
                    await ws.send(junk)
                    sent += len(junk)

            flooding = asyncio.ensure_future(flood())
            await asyncio.sleep(2.0)
            other = await Raw.connect(table.port)
            await other.send({"type": "ping"})
            answer = await asyncio.wait_for(other.recv(), 2)
            flooding.cancel()
            ws.transport.abort()
            return sent, answer["type"]

    sent, answer = run(scenario())
    assert sent < 16 * 2**20, sent  # the burst, 20 a second, and the sockets' buffers
    assert answer == "pong"


def test_simultaneous_tabs_never_pass_the_web_cap() -> None:
    async def scenario() -> int:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2),
                      limits=Limits(per_address=500, max_connections=500))  # fmt: skip
        async with serving(table, max_connections=64, per_address=500) as (_, _, port):

            async def one() -> ClientConnection | None:
                try:
                    ws = await tab(port)
                    await ws.send(json.dumps({"type": "hello", "name": "w", "spectate": True}))
                    await next_of(ws, "welcome")
                    return ws
                except (OSError, asyncio.TimeoutError, InvalidStatus, Exception):
                    return None

            tabs = await asyncio.gather(*(one() for _ in range(150)))
            opened = [ws for ws in tabs if ws is not None]
            assert len(table.spectators) == len(opened)
            for ws in opened:
                await ws.close()
            return len(opened)

    opened = run(scenario(), 40)
    assert 0 < opened <= 64


def test_closed_and_dead_tabs_give_their_places_back_at_once() -> None:
    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None,
                      limits=Limits(per_address=8))  # fmt: skip
        async with serving(table, ping=0.3) as (_, _, port):
            tabs = []
            for _ in range(8):
                ws = await tab(port)
                await ws.send(json.dumps({"type": "hello", "name": "w", "spectate": True}))
                await next_of(ws, "welcome")
                tabs.append(ws)
            extra = await tab(port)  # the table's per-address cap holds for tabs too
            assert (await next_of(extra, "error"))["code"] == "busy"
            for ws in tabs:
                await ws.close()
            await asyncio.wait_for(until(lambda: not table._conns), 2.0)
            # a seated tab that vanishes without a word (it stops answering pings)
            seated = await tab(port, ping_interval=None)
            await seated.send(json.dumps({"type": "hello", "name": "ann", "seat": 0}))
            await next_of(seated, "welcome")
            await asyncio.wait_for(until(lambda: table.state is not None
                                         and table.state.to_move == 0), 5)  # fmt: skip
            seated.transport.pause_reading()  # a frozen tab: no pong, no close
            await asyncio.wait_for(until(lambda: table.seats[0].conn is None), 2.0)
            seated.transport.abort()

    run(scenario())


def test_idle_web_connections_are_capped_and_closed_and_the_table_still_answers() -> None:
    """300 idle web connections took every descriptor of the old server; now the web port has a cap."""

    async def scenario() -> tuple[int, int, Message]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, max_connections=20, per_address=20, open_timeout=0.5) as (
            _, _, port
        ):  # fmt: skip
            conns = [await asyncio.open_connection("127.0.0.1", port) for _ in range(40)]

            async def closed(reader: asyncio.StreamReader) -> bytes | None:
                try:  # what it was told before the server hung up, or None while open
                    return await asyncio.wait_for(reader.read(), 0.3)
                except (asyncio.TimeoutError, ConnectionError):
                    return None

            told = [await closed(r) for r, _ in conns]
            # refused by the cap: told why, in HTTP, then closed (the others, admitted, are
            # closed without a word once open_timeout passes with no request)
            refused = sum(answer is not None and answer.startswith(b"HTTP/1.1 503 ")
                          and b"the table is full" in answer for answer in told)  # fmt: skip
            await asyncio.sleep(0.5)
            idle_closed = sum([await closed(r) is not None for r, _ in conns])
            player = await Raw.connect(table.port)
            welcome = await player.hello("ann", seat=0)
            for _, writer in conns:
                writer.close()
            await player.close()
            return refused, idle_closed, welcome

    refused, idle_closed, welcome = run(scenario())
    assert refused == 20  # over the cap: told and closed at once
    assert idle_closed == 40  # no request within open_timeout: closed
    assert welcome["seat"] == 0


PENDING = 64 * 1024


def test_a_tab_that_stops_reading_is_dropped_and_a_long_message_closes_its_websocket() -> None:
    async def scenario() -> tuple[int, int | None]:
        table = Table(cb.CAVENDISH, deals=100_000, bots=(0, 1, 2), move_time=None,
                      limits=Limits(pending_bytes=PENDING))  # fmt: skip
        async with serving(table, ping=60.0) as (_, _, port):
            frozen = await tab(port, ping_interval=None, max_queue=None)
            await frozen.send(json.dumps({"type": "hello", "name": "w", "spectate": True}))
            await next_of(frozen, "welcome")
            frozen.transport.pause_reading()  # it reads nothing more: the table's views pile up
            await asyncio.wait_for(until(lambda: not table.spectators), 10)
            frozen.transport.abort()
            long = await tab(port)
            await long.send("x" * 9000)
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(long.recv(), 5)
            code = long.close_code
            return len(table.spectators), code

    left, code = run(scenario())
    assert left == 0  # the frozen tab was dropped (slow), not kept with its views in memory
    assert code == 1009  # too big
