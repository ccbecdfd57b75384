"""Soak the table server: many deals on loopback, memory measured as they go.

    python benchmarks/server_soak.py --tables 4 --deals 10000

Starts ``--tables`` tables of :mod:`calabrasella.server` in this process,
each with three TCP clients on 127.0.0.1 that answer every view they are to
act on with a random legal action (naming its deal and turn), reconnecting
for each new match. It runs until ``--deals`` deals in all are finished (or
``--seconds`` pass) and prints, at each tenth of the way and at the end: the
deals, the messages per second both ways, and the process's resident memory
(``VmRSS``), with the entries held in the engine's bounded caches (scores,
draws, callable cards, view parts, decoded records: each capped by a size
constant in its module). Memory is flat when finished deals are not kept.
``--clear-caches`` empties those caches at each tenth, to tell the server's
own memory from theirs. ``--warm N`` first plays N random deals in this
process, with no server, so that the soak starts with the caches as full as
a long-running server's: the memory it then measures is the server's own,
plus what the caches still gain. The clients run in the same process as the
server, so the rates are those of the pair.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import time
from pathlib import Path
from typing import Any

import calabrasella as cb
from calabrasella import _auction, _pickle, views
from calabrasella.rulesets import _raise_steps
from calabrasella.server import Limits, Table

#: The engine's bounded caches (each drops its oldest entry when it holds its module's
#: size constant, at most calabrasella._memo.LARGEST).
CACHES: dict[str, dict[Any, Any]] = {
    "draws": _raise_steps._DRAWS,
    "view parts": views._MEMO,
    "auction roots": _auction._ROOTS,
    "records": _pickle._RECORDS,
    "exchanges": _pickle._EXCHANGES,
}


def cache_entries() -> int:
    """The entries held in the engine's bounded caches, all together."""
    return sum(len(cache) for cache in CACHES.values())


def rss_kib() -> int:
    """The process's resident memory in KiB (Linux), or 0 where unknown."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Counts:
    """What went over the wire."""

    def __init__(self) -> None:
        self.received = 0
        self.sent = 0
        self.deals = 0


async def client(port: int, seat: int, rng: random.Random, counts: Counts, stop: asyncio.Event) -> None:
    """Play ``seat`` match after match until ``stop``."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        except OSError:
            return
        writer.write((json.dumps({"type": "hello", "name": f"p{seat}", "seat": seat}) + "\n").encode())
        try:
            while not stop.is_set() and (line := await reader.readline()):
                counts.received += 1
                message = json.loads(line)
                kind = message["type"]
                if kind == "view" and message["view"]["legal_actions"]:
                    answer = {"type": "action", "deal": message["deal"], "turn": message["turn"],
                              "action": rng.choice(message["view"]["legal_actions"])}  # fmt: skip
                    writer.write((json.dumps(answer) + "\n").encode())
                    counts.sent += 1
                elif kind == "error" and message["code"] in ("seat_taken", "closed", "busy"):
                    await asyncio.sleep(0.01)
                    break
                elif kind == "match_over":
                    break
        finally:
            writer.transport.abort()


def warm(deals: int, seed: int) -> None:
    """Play ``deals`` random Cavendish deals in this process, to fill the engine's caches."""
    rng = random.Random(seed)
    for n in range(deals):
        state = cb.new_deal(cb.CAVENDISH, dealer=n % 3, seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))


async def soak(
    tables: int,
    deals: int,
    seconds: float,
    seed: int,
    clear: bool = False,
    warmed: int = 0,
    collect: bool = False,
) -> None:
    """Run the soak and print its figures."""
    if warmed:
        warm(warmed, seed)
        print(f"warmed with {warmed} random deals: {cache_entries()} entries cached")
    counts = Counts()
    stop = asyncio.Event()
    limits = Limits(rate=1e6, burst=10**6)  # the clients are machines: no throttling

    def finished(_state: cb.State) -> None:
        counts.deals += 1
        if counts.deals >= deals:
            stop.set()

    servers = [Table(cb.CAVENDISH, deals=4, matches=None, seed=seed + n, limits=limits,
                     on_finished=finished) for n in range(tables)]  # fmt: skip
    before = rss_kib()
    ports = [await table.start() for table in servers]
    rng = random.Random(seed)
    tasks = [asyncio.ensure_future(client(port, seat, random.Random(rng.random()), counts, stop))
             for port in ports for seat in range(3)]  # fmt: skip
    started = time.monotonic()
    print(f"{tables} tables, {3 * tables} connections, up to {deals} deals or {seconds:g} s")
    print(f"memory before the tables: {before} KiB")
    print(f"{'deals':>8} {'seconds':>8} {'msgs/s':>9} {'deals/s':>8} {'RSS KiB':>9} {'cached':>7}")
    mark = max(1, deals // 10)
    next_mark = mark
    rows = []
    while not stop.is_set() and time.monotonic() - started < seconds:
        await asyncio.sleep(0.05)
        if counts.deals >= next_mark or stop.is_set():
            took = time.monotonic() - started
            if collect:
                gc.collect()
            rate = (counts.received + counts.sent) / took
            rows.append((counts.deals, rss_kib()))
            print(f"{counts.deals:>8} {took:>8.1f} {rate:>9.0f} {counts.deals / took:>8.1f} "
                  f"{rows[-1][1]:>9} {cache_entries():>7}", flush=True)  # fmt: skip
            if clear:
                for cache in CACHES.values():
                    cache.clear()
            next_mark += mark
    stop.set()
    for table in servers:
        await table.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    if len(rows) >= 2:
        first, last = rows[0], rows[-1]
        print(f"memory from {first[0]} to {last[0]} deals: {last[1] - first[1]:+d} KiB; "
              f"about {(first[1] - before) // tables} KiB per table with its 3 connections")  # fmt: skip


def main() -> None:
    """Read the command line and soak."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clear-caches", action="store_true",
                        help="empty the engine's bounded caches at each tenth")  # fmt: skip
    parser.add_argument("--warm", type=int, default=0, metavar="N",
                        help="first fill the caches with N random deals, no server")  # fmt: skip
    parser.add_argument("--collect", action="store_true",
                        help="run the cyclic garbage collector before each reading")  # fmt: skip
    args = parser.parse_args()
    options = (args.clear_caches, args.warm, args.collect)
    asyncio.run(soak(args.tables, args.deals, args.seconds, args.seed, *options))


if __name__ == "__main__":
    main()
