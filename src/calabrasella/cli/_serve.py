"""``calabrasella serve``: one table on the network, the server's bot in the empty seats."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

import calabrasella as cb
from calabrasella.server import Lobby, ResumeError, Table, serve, web_available


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add ``serve`` to the command's subparsers and return its parser."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "serve",
        help="serve a table over TCP (JSON lines), the server's bot in the empty seats",
        description="Serve one table on HOST:PORT (default 127.0.0.1 and a free port, "
        "printed) until its matches are played or SIGINT/SIGTERM. Players connect with "
        "JSON lines (see docs/server.md); the server's bot holds the seats not left for "
        "people. Deals come from the system's secure random source unless --seed is given.",
    )
    add = parser.add_argument
    add("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    add("--port", type=int, default=0, metavar="N", help="the port (default: a free one)")
    add("--rules", choices=cb.ruleset_names(), default="cavendish", help="(default: %(default)s)")
    add("--deals", type=int, default=3, metavar="N", help="deals per match (default: %(default)s)")
    add("--matches", type=int, default=1, metavar="N",
        help="matches to play, 0 for no end (default: %(default)s)")  # fmt: skip
    add("--players", type=int, default=1, metavar="N",
        help="seats for people, seats 0..N-1; the bot holds the others (default: %(default)s)")  # fmt: skip
    add("--seed", type=int, metavar="N",
        help="for tests and replays only: deal from this seed (told to players after the match)")  # fmt: skip
    add("--grace", type=float, default=30.0, metavar="S",
        help="seconds to wait for a player who left (default: %(default)s)")  # fmt: skip
    add("--move-time", type=float, default=60.0, metavar="S",
        help="seconds per move before the bot moves for the player, 0 for none (default: %(default)s)")  # fmt: skip
    add("--match-time", type=float, metavar="S",
        help="seconds each player has for all its moves in a match, a time bank; when it is "
        "spent the bot moves for it (default: no bank; --resume keeps the saved one)")  # fmt: skip
    add("--tables", type=int, default=1, metavar="N",
        help="serve N tables (named 1..N) behind one port, a lobby (default: %(default)s)")  # fmt: skip
    add("--web", type=int, metavar="PORT",
        help="also serve the browser table on this port (0: a free one), printed; needs "
        "the server extra: pip install 'calabrasella[server]'")  # fmt: skip
    add("--web-host", action="append", default=[], metavar="NAME",
        help="a name the browser table may be reached by (its Host header), besides "
        "localhost and the addresses; repeatable")  # fmt: skip
    add("--linger", type=float, metavar="S",
        help="with --web: seconds the browser table stays up after the last match, for "
        "the ledger and the last deal's analysis (default: until Ctrl-C)")  # fmt: skip
    add("--forwarded-allow-ips", default="", metavar="IPS",
        help="with --web behind a reverse proxy: the proxy's addresses (comma-separated, "
        "'*' for any); each browser is then known by the X-Forwarded-For address the "
        "proxy sends, and the caps per address count it (default: none, the header is "
        "ignored)")  # fmt: skip
    add("--save", type=Path, metavar="DIR", help="save the table, each deal and the ledger here")
    add("--resume", type=Path, metavar="DIR",
        help="go on with the match saved in DIR (a table served with --save DIR)")  # fmt: skip
    return parser


def run_serve(parser: argparse.ArgumentParser, args: Any) -> int:
    """Run ``serve``; return the exit status (0 when done or stopped by a signal)."""
    if args.deals < 1 or min(args.matches, args.grace, args.move_time, args.match_time or 0) < 0:
        parser.error("--deals must be at least 1; --matches, --grace and the clocks not negative")
    rules = cb.find_ruleset(args.rules)
    if not 0 <= args.players <= rules.players:
        parser.error(f"--players {args.players}: expected 0..{rules.players}")
    if args.resume is not None and args.save is not None and args.save != args.resume:
        parser.error("--resume DIR saves to DIR: leave out --save")
    if args.tables < 1:
        parser.error("--tables must be at least 1")
    if args.linger is not None and not args.linger >= 0:
        parser.error("--linger must be a number of seconds, at least 0")
    proxies = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]

    def log(line: str) -> None:
        print(line, flush=True)

    web = args.web
    if web is not None and not web_available():
        sys.stderr.write("calabrasella serve: the browser table (--web) needs the server extra: "
                         "pip install 'calabrasella[server]'; serving the TCP table only\n")  # fmt: skip
        web = None

    move_time, match_time = args.move_time or None, args.match_time or None

    def web_ready(host: str, port: int) -> None:
        log(f"browser table on http://{host}:{port}/")
        after = "until Ctrl-C" if args.linger is None else f"for {args.linger:g} s"
        log(f"the browser table stays up after the last match {after}, for the ledger and "
            "the analyses")  # fmt: skip
        if host in ("0.0.0.0", "::", "") and not args.web_host:
            log("the browser table answers only to localhost and the loopback addresses: "
                "add --web-host NAME for each name or address players use")  # fmt: skip

    lobby: Lobby | None = None
    if args.resume is not None:
        banked = {} if match_time is None else {"match_time": match_time}
        options = {"log": log, "grace": args.grace, "move_time": move_time, **banked}
        try:
            if (args.resume / "table.json").exists():
                table = Table.resume(args.resume, **options)
            else:  # a lobby: a folder per table
                lobby = Lobby.resume(args.resume, **options)
        except ResumeError as error:
            sys.stderr.write(f"calabrasella serve: {error}\n")
            return 2
    else:

        def make(folder: Path | None, number: int = 1) -> Table:
            # each table of a lobby deals its own cards: table N from seed + N - 1
            seed = None if args.seed is None else args.seed + number - 1
            return Table(rules, deals=args.deals, matches=args.matches or None, seed=seed,
                         grace=args.grace, move_time=move_time, match_time=match_time,
                         bots=range(args.players, rules.players), save_dir=folder, log=log)  # fmt: skip

        if args.tables > 1:
            names = [str(n) for n in range(1, args.tables + 1)]
            lobby = Lobby({name: make(None if args.save is None else args.save / name, int(name))
                           for name in names})  # fmt: skip
        else:
            table = make(args.save)
    if lobby is not None:
        some = next(iter(lobby.tables.values()))
        count = len(lobby.tables)

        def lobby_ready(host: str, port: int) -> None:
            log(f"serving {some.rules.name} on {host}:{port} (a lobby of {count} tables); "
                "Ctrl-C stops")  # fmt: skip

        why = asyncio.run(serve(lobby, args.host, args.port, ready=lobby_ready,
                                web=web, web_ready=web_ready, web_hosts=args.web_host,
                                linger=args.linger, forwarded_allow_ips=proxies))  # fmt: skip
        log("done" if why == "done" else f"stopped by {why}")
        return 0

    def ready(host: str, port: int) -> None:
        bots = ", ".join(str(s.number) for s in table.seats if s.bot) or "none"
        log(f"serving {table.rules.name} on {host}:{port} (bot seats: {bots}); Ctrl-C stops")

    why = asyncio.run(serve(table, args.host, args.port, ready=ready, web=web,
                            web_ready=web_ready, web_hosts=args.web_host,
                            linger=args.linger, forwarded_allow_ips=proxies))  # fmt: skip
    log("done" if why == "done" else f"stopped by {why}")
    return 0
