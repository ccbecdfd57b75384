"""Hostile clients against the table and its browser page, all on 127.0.0.1, each bounded.

Each test is one attack of a hostile-client run, written by hand on a socket
so that no client library hides what the server does: a flood of WebSocket
pings never read, upgrade requests that are not a plain GET, a second request
whose head comes a byte at a time, blank lines and empty WebSocket messages
past the rate limit, messages that make a server log, a damaged save folder,
spectators who fill a table, and clients behind a reverse proxy. Every loop
is bounded in count, and every scenario in time.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import socket
import struct
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from server_kit import Raw, run, until
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

import calabrasella as cb
from calabrasella.cli import main
from calabrasella.server import Limits, Lobby, ResumeError, Table, WebTable, serve
from calabrasella.server._public import places_data

Message = dict[str, Any]
KEY = base64.b64encode(b"sixteen byte key").decode()
UPGRADE = (f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {KEY}\r\n"
           "Sec-WebSocket-Version: 13\r\n").encode()  # fmt: skip


@asynccontextmanager
async def serving(table: Table, **web: Any) -> AsyncIterator[tuple[WebTable, int]]:
    await table.start()
    page = WebTable(table, **web)
    port = await page.start()
    try:
        yield page, port
    finally:
        await table.close()
        await page.close()


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (``payload`` at most 125 bytes)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[n % 4] for n, b in enumerate(payload))
    return struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + mask + masked


async def upgraded(port: int, rcvbuf: int | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A WebSocket opened by hand (``rcvbuf``: the client's small receive buffer)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n" + UPGRADE + b"\r\n")
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.1 101 "), head
    return reader, writer


async def answer_of(port: int, request: bytes, wait: float = 3.0) -> bytes:
    """What the server says to ``request`` before it hangs up (``wait`` bounds it)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    try:
        return await asyncio.wait_for(reader.read(), wait)
    finally:
        writer.close()


def test_a_ping_flood_that_never_reads_is_dropped() -> None:
    """Pongs queue up for a client that never reads: past the output limit it is dropped."""

    async def scenario() -> tuple[int, int]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, output_bytes=64 * 1024) as (page, port):
            _, writer = await upgraded(port, rcvbuf=4096)
            assert len(page._open) == 1
            pings = frame(0x9, b"p" * 125) * 1000
            sent = 0
            deadline = time.monotonic() + 15
            while page._open and sent < 400 and time.monotonic() < deadline:
                try:
                    writer.write(pings)
                    await asyncio.wait_for(writer.drain(), 2)
                except (ConnectionError, asyncio.TimeoutError):
                    break
                sent += 1
            await until(lambda: not page._open)
            writer.close()
            return sent, len(page._open)

    sent, left = run(scenario(), limit=30)
    assert left == 0  # dropped, its place given back
    assert sent < 400  # long before the flood's end (400,000 pings, 52 MB)


@pytest.mark.parametrize(
    "head",
    [
        b"POST /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n" + UPGRADE + b"\r\nhello",
        b"POST /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n" + UPGRADE + b"\r\n",
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n" + UPGRADE + b"\r\nhello",
        b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n" + UPGRADE
        + b"\r\n5\r\nhello\r\n0\r\n\r\n",
    ],
    ids=["post-with-body", "post", "get-with-body", "get-chunked"],
)
def test_upgrade_requests_that_are_not_a_plain_get_are_answered_and_closed(head: bytes) -> None:
    """Sixteen at once from one address (its cap), twice: each refused at once; the page still loads."""

    async def scenario() -> tuple[list[bytes], bytes]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table) as (_, port):
            answers = []
            for _ in range(2):
                answers += await asyncio.gather(*(answer_of(port, head) for _ in range(16)))
            page = await answer_of(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return answers, page

    answers, page = run(scenario())
    assert all(a.startswith(b"HTTP/1.1 400 ") and b"GET with no body" in a for a in answers)
    assert page.startswith(b"HTTP/1.1 200 ")


def test_an_upgrade_head_that_never_ends_is_closed_at_the_deadline() -> None:
    async def scenario() -> float:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, open_timeout=1.0) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n" + UPGRADE)  # no blank line
            start = time.monotonic()
            assert await asyncio.wait_for(reader.read(), 10) == b""
            writer.close()
            return time.monotonic() - start

    assert run(scenario()) >= 0.9  # closed by the deadline, not before


def test_a_second_request_sent_a_byte_at_a_time_is_closed_at_the_deadline() -> None:
    """After one answered request, the next head is due within open_timeout, however it trickles."""

    async def scenario() -> tuple[int, bytes]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, open_timeout=1.0) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            second = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 40 + b"\r\n\r\n"
            sent = 0
            for byte in second:  # one byte every 0.1 s: the whole head would take 8 s
                try:
                    writer.write(bytes([byte]))
                    await writer.drain()
                except ConnectionError:
                    break
                sent += 1
                if reader.at_eof():
                    break
                try:
                    if await asyncio.wait_for(reader.read(1), 0.1) == b"":
                        break
                except asyncio.TimeoutError:
                    pass
            writer.close()
            again = await answer_of(port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return sent, again

    sent, again = run(scenario())
    assert sent < 40  # closed long before the head was done
    assert again.startswith(b"HTTP/1.1 200 ")


def test_blank_lines_take_their_turn_in_the_rate_limit() -> None:
    """1,000 blank lines then a ping, at 500 lines a second: the pong comes after about 2 s."""

    async def scenario(lobby: bool) -> float:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None,
                      limits=Limits(rate=500, burst=10))  # fmt: skip
        server: Table | Lobby = Lobby({"a": table}, Limits(rate=500, burst=10)) if lobby else table
        port = await server.start()
        try:
            client = await Raw.connect(port)
            if not lobby:
                await client.hello("ann", seat=0)
            start = time.monotonic()
            await client.send(b"\n" * 1000 + b'{"type": "ping"}\n')
            while (await client.recv())["type"] != "pong":
                pass
            await client.close()
            return time.monotonic() - start
        finally:
            await server.close()

    assert run(scenario(False)) >= 1.5
    assert run(scenario(True)) >= 1.5


def test_empty_websocket_messages_take_their_turn_in_the_rate_limit() -> None:
    async def scenario() -> float:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None,
                      limits=Limits(rate=500, burst=10))  # fmt: skip
        async with serving(table) as (_, port):
            ws = await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5)
            start = time.monotonic()
            for _ in range(1000):
                await ws.send("")
            await ws.send(json.dumps({"type": "ping"}))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                pass
            await ws.close()
            return time.monotonic() - start

    assert run(scenario()) >= 1.5


def test_a_tab_that_sends_thousands_of_tiny_messages_at_once_is_dropped() -> None:
    """20,000 empty messages in a few packets would wait for the table (20 a second) for hours."""

    async def scenario() -> tuple[bool, int]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table) as (page, port):
            reader, writer = await upgraded(port)
            await until(lambda: len(table._conns) == 1)
            writer.write(frame(0x1, b"") * 20_000)
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            try:
                closed = await asyncio.wait_for(reader.read(), 10) == b""
            except ConnectionResetError:  # aborted: reset, not closed politely
                closed = True
            await until(lambda: not table._conns and not page._open)
            writer.close()
            return closed, len(table._conns)

    closed, left = run(scenario())
    assert closed and left == 0


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_strangers_cannot_fill_the_log() -> None:
    """Broken UTF-8 from ten tabs and ten refused foreign hosts: a line for each cause, no traceback."""
    seen = Records()
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(seen)

    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table) as (_, port):
            for _ in range(10):
                reader, writer = await upgraded(port)
                writer.write(frame(0x1, b"\xff\xfe"))
                await asyncio.wait_for(reader.read(), 5)  # closed (1007)
                writer.close()
            for _ in range(10):
                foreign = b"GET /ws HTTP/1.1\r\nHost: evil.example\r\n" + UPGRADE + b"\r\n"
                assert (await answer_of(port, foreign)).startswith(b"HTTP/1.1 400 ")

    try:
        run(scenario())
    finally:
        logger.removeHandler(seen)
    causes = [str(r.msg) for r in seen.records]
    assert len(causes) == len(set(causes)) <= 2, causes
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in seen.records)


def test_a_deeply_nested_table_json_is_a_clear_resume_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "table.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(ResumeError, match="nested too deeply"):
        Table.resume(tmp_path)
    lobby = tmp_path / "lobby"
    (lobby / "1").mkdir(parents=True)
    (lobby / "1" / "table.json").write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(ResumeError, match="nested too deeply"):
        Lobby.resume(lobby)
    assert main(["serve", "--resume", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "cannot resume from" in err and "Traceback" not in err


def test_spectators_leave_room_for_a_player_coming_back() -> None:
    """With the table's connections full of spectators, a dropped player still gets its seat back."""

    async def scenario() -> tuple[int, Message, Message]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None, grace=60,
                      limits=Limits(max_connections=12, per_address=64))  # fmt: skip
        port = await table.start()
        try:
            player = await Raw.connect(port)
            await player.hello("ann", seat=0)
            watchers = []
            refused: Message = {}
            for n in range(20):  # more than the table has room for
                watcher = await Raw.connect(port)
                await watcher.send({"type": "hello", "name": f"w{n}", "spectate": True})
                message = await watcher.recv()
                if message["type"] == "error":
                    refused = message
                    await watcher.close()
                    break
                watchers.append(watcher)
            await player.close()
            await until(lambda: table.seats[0].conn is None)
            back = await Raw.connect(port)
            welcome = await back.hello("ann", token=player.token)
            for client in [*watchers, back]:
                await client.close()
            return len(watchers), refused, welcome
        finally:
            await table.close()

    watching, refused, welcome = run(scenario())
    assert watching == 12 - 2 * 3  # two connections a seat are kept from spectators
    assert refused["code"] == "full" and "the table is full" in refused["message"]
    assert welcome["seat"] == 0


async def forwarded_tab(port: int, address: str) -> ClientConnection:
    return await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5,
                         additional_headers={"X-Forwarded-For": address})  # fmt: skip


def test_behind_a_trusted_proxy_each_browser_is_known_by_its_forwarded_address() -> None:
    async def scenario() -> tuple[set[str], int, bool, set[str]]:
        table = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(table, per_address=2, forwarded_allow_ips=["127.0.0.1"]) as (page, port):
            tabs = [await forwarded_tab(port, f"10.0.0.{n % 3}") for n in range(6)]
            await until(lambda: len(table._conns) == 6)
            hosts = {conn.host for conn in table._conns}
            try:  # a third tab from 10.0.0.1: over its cap of 2
                await forwarded_tab(port, "10.0.0.1")
                third = False
            except InvalidStatus as error:
                third = error.response.status_code == 403
            for ws in tabs:
                await ws.close()
            refused = page.refused
        plain = Table(cb.CAVENDISH, deals=1, bots=(1, 2), move_time=None)
        async with serving(plain) as (_, port):  # no proxy trusted: the header is ignored
            ws = await forwarded_tab(port, "10.9.9.9")
            await until(lambda: len(plain._conns) == 1)
            ignored = {conn.host for conn in plain._conns}
            await ws.close()
        return hosts, refused, third, ignored

    hosts, refused, third, ignored = run(scenario())
    assert hosts == {"10.0.0.0", "10.0.0.1", "10.0.0.2"}
    assert third and refused == 1
    assert ignored == {"127.0.0.1"}


def test_after_the_matches_the_page_stays_for_the_analysis_then_the_server_ends() -> None:
    """``serve(..., web=0, linger=3)``: the match ends, the page answers, then serve returns."""

    async def scenario() -> tuple[str, bytes, float]:
        table = Table(cb.CAVENDISH, deals=1, bots=(0, 1, 2), seed=2)
        ports: list[int] = []
        start = time.monotonic()
        serving_task = asyncio.ensure_future(
            serve(table, web=0, web_ready=lambda _h, p: ports.append(p), linger=3.0)
        )
        await until(lambda: table.done.is_set() and bool(ports))
        key = table.analysis_key
        # the page and its analyses still answer (deal 9 was never played: 404, not 403)
        page = await answer_of(ports[0], f"GET /analysis/9.svg?key={key} HTTP/1.1\r\n"
                               "Host: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())  # fmt: skip
        why = await serving_task
        return why, page, time.monotonic() - start

    why, page, took = run(scenario(), limit=90)
    assert why == "done"
    assert page.startswith(b"HTTP/1.1 404 "), page
    assert took >= 3.0


def test_the_stock_shown_is_what_is_in_it_once_the_exposed_cards_are_taken() -> None:
    """Cavendish seed 5: seat 1 stands, the four exposed cards go to its hand, it lays four aside."""
    import random

    state = cb.new_deal(cb.CAVENDISH, seed=5)
    rng = random.Random(1)
    while not (state.phase is cb.Phase.PLAYING and state.tricks_played == 2):
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        moves = [a for a in state.legal_actions() if not isinstance(a, cb.Pass)]
        state = cb.apply(state, rng.choice(moves))
    view = state.view(0)
    assert view.declarer == 1 and len(view.exposed) == 4  # face up once, then taken
    exposed = {card.code for card in view.exposed}
    for seat in (0, 2, None):
        found = {(p["where"], p["seat"]): p for p in places_data(state, seat)}
        stock = found.get(("stock", None))
        assert stock is None or not exposed & set(stock["shown"])  # none of them is in the stock
        assert found[("laid aside", 1)]["shown"] == [] and found[("laid aside", 1)]["face_down"] == 4
    mine = {(p["where"], p["seat"]): p for p in places_data(state, 1)}
    discarded = {str(action).split()[1] for seat, action in state.history if isinstance(action, cb.Discard)}
    assert set(mine[("laid aside", 1)]["shown"]) == discarded and len(discarded) == 4


@pytest.mark.slow
def test_a_soak_under_the_four_attacks_keeps_the_server_s_memory_flat() -> None:
    """``benchmarks/server_attack_soak.py`` in short: three waves of each attack, memory flat
    from the second wave to the third (the first settles the server's own buffers)."""
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "server_attack_soak.py"
    done = subprocess.run(
        [sys.executable, str(script), "--waves", "3", "--seconds", "2", "--clients", "4", "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    waves = [row for row in rows if row["wave"] > 0]
    assert len(waves) == 12
    for attack in ("ping", "upgrade", "slow", "blank"):
        mine = [row for row in waves if row["attack"] == attack]
        first, last = mine[1]["rss_mb"], mine[-1]["rss_mb"]
        assert last - first < 4.0, mine  # no growth from wave to wave (MB)
        assert all(row["page_ms"] == row["page_ms"] for row in mine), mine  # the page answered
    assert sum(row.get("dropped", 0) for row in waves if row["attack"] == "ping") > 0
    assert all(row.get("unanswered", 0) <= 4 for row in waves if row["attack"] == "upgrade")
