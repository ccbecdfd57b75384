"""A table server: three players at one table over TCP, each seeing only its own view.

A thin use of :mod:`calabrasella.server` (``calabrasella serve`` on the
command line is the same server). With no arguments it runs a demo and
exits: a table on an ephemeral loopback port, three players in this
process connecting as real TCP clients, a short match, the ledger printed.
With ``--port N`` it serves until interrupted (Ctrl-C or SIGTERM).

usage: python examples/table_server.py [--port N] [--host H] [--rules NAME]
       [--deals N] [--seed S] [--move-time S] [--match-time S] [--save DIR]

The protocol is in docs/server.md: JSON lines, ``hello``, then one
``action`` per view the seat is to answer, naming that view's ``deal`` and
``turn``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
from pathlib import Path

import calabrasella as cb
from calabrasella.server import Table, serve

#: The seats' names in the demo.
DEMO_NAMES = ("ann", "bob", "cid")


async def demo_player(host: str, port: int, name: str, seat: int, seed: int) -> None:
    """Play at the table as a TCP client choosing random legal actions, until the match ends.

    Args:
        host: The server's address.
        port: The server's port.
        name: The player's name.
        seat: The seat asked for.
        seed: Seeds the player's choices.
    """
    rng = random.Random(seed)
    reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
    writer.write((json.dumps({"type": "hello", "name": name, "seat": seat}) + "\n").encode())
    try:
        while line := await reader.readline():
            message = json.loads(line)
            if message["type"] == "view" and message["view"]["legal_actions"]:
                action = rng.choice(message["view"]["legal_actions"])
                answer = {"type": "action", "deal": message["deal"], "turn": message["turn"],
                          "action": action}  # fmt: skip
                writer.write((json.dumps(answer) + "\n").encode())
            elif message["type"] in ("match_over", "error"):
                break
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def demo(rules: cb.Ruleset, deals: int, seed: int | None, save_dir: Path | None) -> Table:
    """Serve on a loopback port while three in-process players play a match; return the table.

    Args:
        rules: The ruleset.
        deals: Deals in the match.
        seed: Seeds the table (``None``: the system's secure random source).
        save_dir: Where the table saves, if given.

    Returns:
        The table after the match.
    """
    table = Table(rules, deals=deals, seed=seed, grace=1.0, save_dir=save_dir, log=print)
    port = await table.start("127.0.0.1", 0)
    print(f"demo: {rules.name}, {deals} deals, served on 127.0.0.1:{port}")
    players = [demo_player("127.0.0.1", port, name, n, n) for n, name in enumerate(DEMO_NAMES)]
    try:
        await asyncio.wait_for(asyncio.gather(*players), timeout=60)
        await asyncio.wait_for(table.wait(), timeout=60)
    finally:
        await table.close()
    return table


def main(argv: list[str] | None = None) -> int:
    """Run the demo, or serve with ``--port``; return the exit status.

    Args:
        argv: The command line arguments (default: ``sys.argv[1:]``).

    Returns:
        0.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, help="serve on this port until interrupted")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (127.0.0.1)")
    parser.add_argument("--rules", default="cavendish", choices=cb.ruleset_names())
    parser.add_argument("--deals", type=int, default=3, help="deals per match (3)")
    parser.add_argument("--seed", type=int, help="for tests only: deal from this seed")
    parser.add_argument("--move-time", type=float, default=60.0, help="seconds per move (60)")
    parser.add_argument("--match-time", type=float, help="seconds per player per match (none)")
    parser.add_argument("--save", type=Path, metavar="DIR", help="save the table here")
    args = parser.parse_args(argv)
    rules = cb.find_ruleset(args.rules)
    if args.port is None:
        asyncio.run(demo(rules, args.deals, args.seed, args.save))
        return 0
    table = Table(rules, deals=args.deals, matches=None, seed=args.seed,
                  move_time=args.move_time, match_time=args.match_time, save_dir=args.save,
                  log=print)  # fmt: skip
    asyncio.run(serve(table, args.host, args.port,
                      ready=lambda host, port: print(f"serving on {host}:{port}", flush=True)))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
