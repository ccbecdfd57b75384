"""Load the table server with many connections: spectators watching a table of bots.

    python benchmarks/server_load.py --spectators 200 --deals 40

One table of :mod:`calabrasella.server`, seat 0 played by a client taking
the first legal action and the others by the server's bot, and
``--spectators`` TCP connections on 127.0.0.1 watching it (each
is sent the public view after every action). It prints the connections
held, the memory they took (``VmRSS``, per connection), and the messages
per second delivered to them while ``--deals`` deals are played.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from server_soak import rss_kib

import calabrasella as cb
from calabrasella.server import Limits, Table


async def watch(port: int, counts: list[int], ready: asyncio.Event, total: int) -> None:
    """Watch the table until the server closes the connection, counting messages."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write((json.dumps({"type": "hello", "name": "eve", "spectate": True}) + "\n").encode())
    await reader.readline()  # welcome
    counts[1] += 1
    if counts[1] == total:
        ready.set()
    while await reader.readline():
        counts[0] += 1
    writer.transport.abort()


async def player(port: int) -> None:
    """Sit at seat 0 and play the first legal action of each view, to the match's end."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write((json.dumps({"type": "hello", "name": "ann", "seat": 0}) + "\n").encode())
    while line := await reader.readline():
        message = json.loads(line)
        if message["type"] == "view" and message["view"]["legal_actions"]:
            answer = {"type": "action", "deal": message["deal"], "turn": message["turn"],
                      "action": message["view"]["legal_actions"][0]}  # fmt: skip
            writer.write((json.dumps(answer) + "\n").encode())
    writer.transport.abort()


async def load(spectators: int, deals: int) -> None:
    """Run the load and print its figures."""
    limits = Limits(max_connections=spectators + 8, per_address=spectators + 8, rate=1e6,
                    burst=10**6)
    table = Table(cb.CAVENDISH, deals=deals, seed=1, bots=(1, 2), limits=limits)
    before = rss_kib()
    port = await table.start()
    counts = [0, 0]
    ready = asyncio.Event()
    tasks = [asyncio.ensure_future(watch(port, counts, ready, spectators))
             for _ in range(spectators)]  # fmt: skip
    await asyncio.wait_for(ready.wait(), 60)
    held = rss_kib()
    print(f"{spectators} spectator connections held: {held - before} KiB, "
          f"{(held - before) / spectators:.1f} KiB per connection")  # fmt: skip
    started = time.monotonic()
    await asyncio.wait_for(asyncio.gather(player(port), table.wait()), 600)
    took = time.monotonic() - started
    await asyncio.gather(*tasks, return_exceptions=True)
    await table.close()
    print(f"{deals} deals in {took:.1f} s; {counts[0]} messages to spectators, "
          f"{counts[0] / took:.0f} messages/s; RSS {rss_kib()} KiB")  # fmt: skip


def main() -> None:
    """Read the command line and load the server."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--deals", type=int, default=40)
    args = parser.parse_args()
    asyncio.run(load(args.spectators, args.deals))


if __name__ == "__main__":
    main()
