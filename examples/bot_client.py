"""A bot that plays at a table server (``calabrasella serve``, calabrasella.server) over TCP.

It connects, says hello, reads each view the server sends with
``cb.from_data(message["view"], cb.View)`` and, when its seat is to act,
sends one of the view's legal actions, chosen at random from a seeded
generator, as text (``str(action)``), with the view's ``deal`` and
``turn`` (so an answer to an old view is refused, never misapplied). It
plays until the match is over.

With no arguments it starts a table server in this process on a loopback
port, plays one deal with three of these bots and prints the result. With
``--port N`` it joins the server there.

usage: python examples/bot_client.py [--port N] [--host H] [--name NAME]
       [--seat S] [--token T] [--seed S]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from typing import Any

import calabrasella as cb

#: The longest line read from the server, in bytes (a view is a few kilobytes).
READ_LIMIT = 1 << 20
#: The table-mode actions that record a player's mistake: the bot never makes them.
IRREGULAR = (cb.Revoke, cb.TurnStock, cb.OutOfTurn, cb.Abandon)
#: Errors after which staying connected is pointless.
FATAL = ("table_full", "seat_taken", "bad_token", "closed", "too_long", "replaced", "busy",
         "timeout", "too_many_errors")  # fmt: skip

Message = dict[str, Any]
Chooser = Callable[[cb.View, random.Random], cb.Action]


def random_choice(view: cb.View, rng: random.Random) -> cb.Action:
    """Return a legal action of the view, uniformly at random (never a table-mode mistake).

    Args:
        view: The seat's view; the seat is to act.
        rng: The generator the choice comes from.

    Returns:
        The chosen action.
    """
    return rng.choice([a for a in view.legal_actions if not isinstance(a, IRREGULAR)])


class Outcome:
    """What a bot saw at the table."""

    def __init__(self) -> None:
        """Start with nothing seen."""
        self.seat: int | None = None
        self.token: str | None = None
        self.results: list[cb.Result] = []
        self.totals: list[int] | None = None
        self.errors: list[str] = []
        self.messages: list[Message] = []


async def play(
    host: str,
    port: int,
    *,
    name: str,
    seat: int | None = None,
    token: str | None = None,
    seed: int = 0,
    choose: Chooser = random_choice,
    stop: Callable[[Message], bool] | None = None,
    tell: Callable[[str], None] | None = None,
) -> Outcome:
    """Join the table at ``host:port`` and play until the match ends or the server hangs up.

    Args:
        host: The server's address.
        port: The server's port.
        name: The name to sit down with.
        seat: The seat to ask for (default: the first free one).
        token: A token from an earlier ``welcome``: come back to that seat.
        seed: Seeds the bot's choices.
        choose: Picks the action from the view when the seat is to act.
        stop: Called with each message before it is acted on; ``True`` hangs up.
        tell: Called with a line for the user once seated: the seat and the
            token that brings the bot back to it (``--token``).

    Returns:
        The seat, the token, each deal's result, the match totals, any
        errors, and every message received in order.
    """
    rng = random.Random(seed)
    outcome = Outcome()
    reader, writer = await asyncio.open_connection(host, port, limit=READ_LIMIT)

    def send(message: Message) -> None:
        writer.write((json.dumps(message) + "\n").encode("utf-8"))

    hello: Message = {"type": "hello", "name": name}
    if seat is not None:
        hello["seat"] = seat
    if token is not None:
        hello["token"] = token
    send(hello)
    try:
        while line := await reader.readline():
            message = json.loads(line)
            outcome.messages.append(message)
            if stop is not None and stop(message):
                break
            kind = message["type"]
            if kind == "welcome":
                outcome.seat, outcome.token = message["seat"], message["token"]
                if tell is not None:
                    tell(f"{name} sits at seat {outcome.seat}; to come back to it: "
                         f"--token {outcome.token}")  # fmt: skip
            elif kind == "view":
                view = cb.from_data(message["view"], cb.View)
                if view.to_move == view.seat and view.legal_actions:
                    send({"type": "action", "deal": message["deal"], "turn": message["turn"],
                          "action": str(choose(view, rng))})  # fmt: skip
            elif kind == "over":
                outcome.results.append(cb.from_data(message["result"], cb.Result))
            elif kind == "match_over":
                outcome.totals = message["totals"]
                break
            elif kind == "error":
                outcome.errors.append(f"{message['code']}: {message['message']}")
                if message["code"] in FATAL:
                    break
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    return outcome


async def demo(seed: int) -> list[Outcome]:
    """Start a table server in this process, play one deal with three bots, return what they saw.

    Args:
        seed: Seeds the server and the bots.

    Returns:
        Each bot's outcome, seat 0 first.
    """
    from calabrasella.server import Table

    server = Table(cb.CAVENDISH, deals=1, seed=seed, grace=1.0)
    port = await server.start("127.0.0.1", 0)
    bots = [play("127.0.0.1", port, name=name, seat=n, seed=seed + n)
            for n, name in enumerate(("north", "east", "west"))]  # fmt: skip
    try:
        outcomes = await asyncio.wait_for(asyncio.gather(*bots), timeout=60)
    finally:
        await server.close()
    return list(outcomes)


def report(name: str, outcome: Outcome) -> str:
    """Return one line about what a bot saw.

    Args:
        name: The bot's name.
        outcome: What it saw.

    Returns:
        Its seat, the views it got, the errors and its total.
    """
    views = sum(1 for m in outcome.messages if m["type"] == "view")
    total = (
        "?"
        if outcome.totals is None or outcome.seat is None
        else f"{outcome.totals[outcome.seat]:+d}"
    )
    return (
        f"{name} at seat {outcome.seat}: {views} views, {len(outcome.errors)} errors, total {total}"
    )


def main(argv: list[str] | None = None) -> int:
    """Play one deal in-process, or join a server with ``--port``; return the exit status.

    Args:
        argv: The command line arguments (default: ``sys.argv[1:]``).

    Returns:
        0 when the match was played to its end, 1 otherwise.
    """
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--port", type=int, help="join the server on this port")
    parser.add_argument("--host", default="127.0.0.1", help="the server's address (127.0.0.1)")
    parser.add_argument("--name", default="bot", help="the name to sit down with")
    parser.add_argument("--seat", type=int, help="the seat to ask for")
    parser.add_argument("--token", help="come back to the seat this token was given for")
    parser.add_argument("--seed", type=int, default=7, help="seeds the bot (7)")
    args = parser.parse_args(argv)
    if args.port is None:
        outcomes = asyncio.run(demo(args.seed))
        for name, outcome in zip(("north", "east", "west"), outcomes):
            print(report(name, outcome))
        result = outcomes[0].results[0]
        print(f"result: {'; '.join(result.notes)}")
        print(f"payments: {' '.join(f'{p:+d}' for p in result.payments)}")
        return 0 if all(o.totals is not None for o in outcomes) else 1
    where = f"{args.host}:{args.port}"
    options = {"name": args.name, "seat": args.seat, "token": args.token, "seed": args.seed}
    try:
        outcome = asyncio.run(play(args.host, args.port, **options,
                                   tell=lambda line: print(line, flush=True)))  # fmt: skip
    except OSError as problem:
        print(f"cannot play at {where}: {problem}")
        return 1
    print(report(args.name, outcome))
    for error in outcome.errors:
        print(f"  error {error}")
    if outcome.totals is None:
        print(f"the server at {where} hung up before the match was over")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
