"""Soak the browser table: waves of spectator tabs on loopback while a match is played.

    python benchmarks/server_web_soak.py --tabs 200 --waves 6

Starts a server in a child process (a table with the server's bot in seats
1 and 2, its page with :class:`calabrasella.server.WebTable`, pings every
``--ping`` seconds, the caps raised so that all tabs from 127.0.0.1 fit)
and, in this process, a TCP player at seat 0 who answers each view it is to
act on after ``--think`` seconds, deal after deal. Each wave opens ``--tabs``
WebSocket tabs that watch (every view of the deal reaches each), keeps them
``--hold`` seconds, then closes half of them cleanly and freezes the other
half (their sockets stay open but stop reading and stop answering pings: a
tab whose machine went to sleep). It prints, per wave: the tabs that got in,
the seconds until the table counted no spectator (the dead tabs gone), the
server's resident memory (``VmRSS`` of the child, read from /proc) after the
wave, and the deals played so far; at the end, whether the player was ever
refused or dropped. Loopback only; every wait is bounded; the child is
stopped by its PID.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from typing import Any

SERVE = """
import asyncio, sys
import calabrasella as cb
from calabrasella.server import Limits, Lobby, Table, WebTable

async def main(ping: float) -> None:
    limits = Limits(per_address=10_000, max_connections=10_000)
    table = Table(cb.CAVENDISH, deals=100_000, bots=(1, 2), move_time=None, grace=60.0,
                  limits=limits)
    lobby = Lobby({"1": table}, limits)  # a lobby answers {"type": "tables"}: the spectators
    lobby_port = await lobby.start()
    web = WebTable(lobby, max_connections=10_000, per_address=10_000, ping=ping)
    port = await web.start()
    print(lobby_port, port, flush=True)
    await asyncio.Event().wait()

asyncio.run(main(float(sys.argv[1])))
"""


def rss_mb(pid: int) -> float:
    """The resident memory of a process, in MB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class Player:
    """Seat 0 over TCP: the first legal action that is not a pass, after a pause."""

    def __init__(self, think: float) -> None:
        self.think = think
        self.deals = 0
        self.refused: list[str] = []
        self.done = False

    async def run(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        writer.write(b'{"type": "hello", "name": "ann", "seat": 0}\n')
        rng = random.Random(1)
        while not self.done:
            line = await reader.readline()
            if not line:
                self.refused.append("the server hung up")
                return
            message = json.loads(line)
            kind = message["type"]
            if kind == "over":
                self.deals += 1
            elif kind == "error":
                self.refused.append(f"{message['code']}: {message['message']}")
            elif kind == "view":
                legal = message["view"]["legal_actions"]
                if legal and message["view"]["to_move"] == 0:
                    await asyncio.sleep(self.think)
                    choices = [a for a in legal if a != "pass"] or legal
                    writer.write((json.dumps({"type": "action", "deal": message["deal"],
                                              "turn": message["turn"],
                                              "action": rng.choice(choices)}) + "\n").encode())  # fmt: skip
        writer.close()


async def spectators(port: int) -> int:
    """How many tabs the table counts, asked of the lobby on a connection of its own."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    try:
        writer.write(b'{"type": "tables"}\n')
        listing = json.loads(await asyncio.wait_for(reader.readline(), 10))
        return int(listing["tables"][0]["spectators"])
    finally:
        writer.close()


async def open_tab(port: int) -> Any:
    from websockets.asyncio.client import connect

    ws = await connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, ping_interval=None,
                       max_queue=None)  # fmt: skip
    await ws.send(json.dumps({"type": "hello", "name": "tab", "spectate": True}))
    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "welcome":
        pass
    return ws


async def drain(ws: Any) -> None:
    """Read (and throw away) what a live tab is sent, as a browser does."""
    try:
        async for _ in ws:
            pass
    except Exception:
        pass


async def soak(args: argparse.Namespace) -> int:
    child = subprocess.Popen([sys.executable, "-c", SERVE, str(args.ping)],
                             stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert child.stdout is not None
        table_port, web_port = map(int, child.stdout.readline().split())
        player = Player(args.think)
        playing = asyncio.ensure_future(player.run(table_port))
        await asyncio.sleep(1.0)
        print(f"server pid {child.pid}: rss {rss_mb(child.pid):.1f} MB before any tab")
        print("wave  tabs in  counted  dead gone after  rss MB  deals")
        for wave in range(1, args.waves + 1):
            tabs = await asyncio.gather(*(open_tab(web_port) for _ in range(args.tabs)),
                                        return_exceptions=True)  # fmt: skip
            live = [ws for ws in tabs if not isinstance(ws, BaseException)]
            counted = await spectators(table_port)
            readers = [asyncio.ensure_future(drain(ws)) for ws in live]
            await asyncio.sleep(args.hold)
            half = len(live) // 2
            for ws in live[:half]:
                await ws.close()
            for ws, reader in zip(live[half:], readers[half:]):
                reader.cancel()
                ws.transport.pause_reading()  # frozen: no reading, no pong, no close
            start = time.monotonic()
            while await spectators(table_port) > 0 and time.monotonic() - start < 60:
                await asyncio.sleep(0.1)
            gone = time.monotonic() - start
            for ws in live[half:]:
                ws.transport.abort()
            for reader in readers:
                reader.cancel()
            await asyncio.sleep(0.5)
            print(f"{wave:4d}  {len(live):7d}  {counted:7d}  {gone:13.1f} s  {rss_mb(child.pid):6.1f}  "
                  f"{player.deals:5d}")  # fmt: skip
        player.done = True
        playing.cancel()
        print("player refused or dropped:", player.refused or "never")
        return 0
    finally:
        os.kill(child.pid, signal.SIGTERM)  # the child this script started, by its PID
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(20)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tabs", type=int, default=200, help="tabs per wave (200)")
    parser.add_argument("--waves", type=int, default=6, help="waves (6)")
    parser.add_argument("--hold", type=float, default=5.0, help="seconds each wave watches (5)")
    parser.add_argument("--ping", type=float, default=4.0,
                        help="seconds between pings, and to wait for a pong (4)")  # fmt: skip
    parser.add_argument("--think", type=float, default=0.05,
                        help="seconds the player takes per move (0.05)")  # fmt: skip
    return asyncio.run(soak(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
