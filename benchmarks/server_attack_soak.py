"""Soak the table and its browser page under four attacks, on loopback, watching the server's memory.

    python benchmarks/server_attack_soak.py --waves 5 --seconds 10 --clients 6

Starts a server in a child process (``calabrasella serve``'s pieces: a table
with the server's bot in seats 1 and 2 and its page, :class:`WebTable`, with
the default caps: 16 web connections per address, 128 in all) and, in this
process, attacks it wave after wave, each attack in turn:

- ``ping``: WebSocket tabs that send ping frames as fast as they can and
  never read (each with a 4 KiB receive buffer), reconnecting when dropped;
- ``upgrade``: ``POST /ws`` requests with upgrade headers and a body, one
  after the other on new connections;
- ``slow``: connections that make one request, then send the next request's
  head a byte every half second, reconnecting when closed;
- ``blank``: TCP clients at the table's port and WebSocket tabs sending
  blank lines and empty messages as fast as they can.

Each wave runs ``--clients`` attackers for ``--seconds``. After each wave it
prints the server's resident memory (``VmRSS`` of the child, from /proc) and
the CPU seconds it used in the wave (``utime + stime``), how often the server
dropped or answered the attackers, and how long a fresh ``GET /`` then took.
Loopback only; every loop is bounded by the wave's seconds; the child is
stopped by its PID. ``--json`` prints the rows as one JSON list at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time
from typing import Any

SERVE = """
import asyncio
import calabrasella as cb
from calabrasella.server import Table, WebTable

async def main() -> None:
    table = Table(cb.CAVENDISH, deals=3, bots=(1, 2), move_time=None)
    port = await table.start()
    web = WebTable(table, output_bytes=table.limits.pending_bytes)
    print(port, await web.start(), flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""
KEY = base64.b64encode(b"sixteen byte key")
UPGRADE = (b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + KEY
           + b"\r\nSec-WebSocket-Version: 13\r\n")  # fmt: skip
ATTACKS = ("ping", "upgrade", "slow", "blank")


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system) a process has used."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frame(opcode: int, payload: bytes) -> bytes:
    """One masked client frame (``payload`` at most 125 bytes)."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[n % 4] for n, b in enumerate(payload))
    return struct.pack("!BB", 0x80 | opcode, 0x80 | len(payload)) + mask + masked


async def upgraded(port: int, rcvbuf: int | None = None) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n" + UPGRADE + b"\r\n")
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    if not head.startswith(b"HTTP/1.1 101 "):
        raise ConnectionError(head[:40].decode("latin-1"))
    return reader, writer


async def ping_flood(port: int, _table: int, until: float, counts: dict[str, int], n: int) -> None:
    pings = frame(0x9, b"p" * 125) * 200
    while time.monotonic() < until:
        try:
            _, writer = await upgraded(port, rcvbuf=4096)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            counts["refused"] += 1
            await asyncio.sleep(0.1)
            continue
        try:
            while time.monotonic() < until:
                writer.write(pings)
                await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
        except (OSError, asyncio.TimeoutError):
            if time.monotonic() < until:
                counts["dropped"] += 1
        finally:
            writer.transport.abort()


async def bad_upgrades(port: int, _table: int, until: float, counts: dict[str, int], n: int) -> None:
    request = (b"POST /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n" + UPGRADE
               + b"\r\nhello")  # fmt: skip
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            answer = await asyncio.wait_for(reader.read(), max(0.01, until - time.monotonic()))
            counts["answered" if answer.startswith(b"HTTP/1.1 ") else "closed"] += 1
            writer.close()
        except (OSError, asyncio.TimeoutError):
            counts["unanswered"] += 1


async def slow_heads(port: int, _table: int, until: float, counts: dict[str, int], n: int) -> None:
    first = b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    second = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    while time.monotonic() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(first)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            if not head.startswith(b"HTTP/1.1 200"):
                counts["refused"] += 1
                writer.close()
                await asyncio.sleep(0.1)
                continue
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            await reader.readexactly(length)
            for byte in second:
                if time.monotonic() >= until:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    if await asyncio.wait_for(reader.read(1), 0.5) == b"":
                        counts["closed"] += 1
                        break
                except asyncio.TimeoutError:
                    pass
            writer.transport.abort()
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, IndexError, ValueError):
            counts["refused"] += 1
            await asyncio.sleep(0.1)


async def blank_lines(port: int, table: int, until: float, counts: dict[str, int], n: int) -> None:
    lines = b"\n" * 4096
    empties = frame(0x1, b"") * 2048
    tcp = n % 2 == 0  # half the attackers at the table's TCP port, half as tabs
    while time.monotonic() < until:
        try:
            if tcp:
                _, writer = await asyncio.open_connection("127.0.0.1", table)
            else:
                _, writer = await upgraded(port)
        except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            counts["refused"] += 1
            await asyncio.sleep(0.1)
            continue
        try:
            while time.monotonic() < until:
                writer.write(lines if tcp else empties)
                await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
                counts["tcp blocks" if tcp else "ws blocks"] += 1
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.transport.abort()


async def page_time(port: int) -> float:
    """Milliseconds for a fresh ``GET /`` (``nan`` if refused or not answered in 10 s)."""
    start = time.monotonic()
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = await asyncio.wait_for(reader.read(), 10)
        writer.close()
    except (OSError, asyncio.TimeoutError):
        return float("nan")
    return (time.monotonic() - start) * 1000 if answer.startswith(b"HTTP/1.1 200") else float("nan")


RUN = {"ping": ping_flood, "upgrade": bad_upgrades, "slow": slow_heads, "blank": blank_lines}


async def soak(pid: int, table: int, port: int, args: argparse.Namespace) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = [{"attack": "(before)", "wave": 0, "rss_mb": round(rss_mb(pid), 2)}]
    print(f"{'attack':>9} {'wave':>4} {'RSS MB':>7} {'CPU s':>6} {'page ms':>8}  counts")
    print(f"{'(before)':>9} {'':>4} {rows[0]['rss_mb']:7.2f}")
    for wave in range(1, args.waves + 1):
        for attack in args.attacks:
            counts: collections.Counter[str] = collections.Counter()
            cpu = cpu_seconds(pid)
            until = time.monotonic() + args.seconds
            await asyncio.wait_for(
                asyncio.gather(*(RUN[attack](port, table, until, counts, n) for n in range(args.clients))),
                args.seconds + 30,
            )
            used = cpu_seconds(pid) - cpu
            probe = await page_time(port)
            await asyncio.sleep(1.0)  # the closed connections' buffers given back
            row = {"attack": attack, "wave": wave, "rss_mb": round(rss_mb(pid), 2),
                   "cpu_s": round(used, 2), "page_ms": round(probe, 1), **counts}  # fmt: skip
            rows.append(row)
            shown = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
            print(f"{attack:>9} {wave:>4} {row['rss_mb']:7.2f} {used:6.2f} {probe:8.1f}  {shown}",
                  flush=True)  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waves", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=10.0, help="each attack's time in a wave")
    parser.add_argument("--clients", type=int, default=6, help="attackers at once (the cap is 16)")
    parser.add_argument("--attacks", nargs="+", choices=ATTACKS, default=list(ATTACKS))
    parser.add_argument("--json", action="store_true", help="print the rows as JSON at the end")
    args = parser.parse_args()
    if not (1 <= args.waves <= 100 and 0 < args.seconds <= 600 and 1 <= args.clients <= 64):
        parser.error("--waves 1..100, --seconds up to 600, --clients 1..64")
    child = subprocess.Popen([sys.executable, "-c", SERVE], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        table, port = map(int, child.stdout.readline().split())
        rows = asyncio.run(soak(child.pid, table, port, args))
        if args.json:
            print(json.dumps(rows))
    finally:
        os.kill(child.pid, signal.SIGTERM)  # the child this script started, by its PID
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(10)


if __name__ == "__main__":
    main()
