"""A table server: three players at one table over TCP, each seeing only its own view.

With no arguments it runs a demo and exits: it serves on an ephemeral
loopback port, three bots in this process connect as real TCP clients, play
a short match, and the ledger is printed. With ``--port N`` it serves until
interrupted (Ctrl-C), one match after another.

usage: python examples/table_server.py [--port N] [--host H] [--rules NAME]
       [--deals N] [--matches N] [--seed S] [--grace SECONDS] [--save DIR]

The protocol: JSON lines over TCP. Each message is one JSON object on one
line of UTF-8 text ending in a newline, both ways; blank lines are ignored.

Client to server:

- ``{"type": "hello", "name": "ann"}``: sit at the first free seat.
  ``"seat": 2`` asks for that seat; ``"token": T`` comes back to the seat
  whose ``welcome`` gave token ``T`` (a name is 1 to 32 printable
  characters).
- ``{"type": "action", "action": "play Ad"}``: an action in its text form
  (:func:`calabrasella.parse_action`), or as an object
  ``{"kind": "play", "card": "Ad"}``, ``{"kind": "bid", "contract": "solo"}``,
  ``{"kind": "raise", "modifier": "dividete"}``, ``{"kind": "give_back",
  "card": "4d"}``, ``{"kind": "pass"}`` (table mode's ``turn_stock`` and
  ``out_of_turn`` go as text).
- ``{"type": "view"}``: send me my view again.

Server to client:

- ``{"type": "welcome", "seat": 0, "name": "ann", "token": T, "rules": "cavendish", "deals": 3}``
- ``{"type": "table", "players": [{"name": "ann", "connected": true}, null, null]}``
  whenever someone sits down, leaves or comes back.
- ``{"type": "view", "deal": 1, "view": V}`` where ``V`` is
  ``cb.to_data(state.view(seat))``: sent to every connected seat, each its
  own view only, when a deal starts, after every action (chance draws and
  the server's bot moves included), on a reconnect and on request.
- ``{"type": "over", "deal": 1, "result": R, "totals": [..]}`` after the
  final view of each deal; ``R`` is ``cb.to_data(state.result)``.
- ``{"type": "match_over", "deals": 3, "totals": [..], "players": [..]}``,
  then the server closes the connection (connect again for the next match).
- ``{"type": "error", "code": C, "message": M}``: the message was refused
  and nothing changed. Codes: ``bad_json``, ``bad_message``, ``not_seated``,
  ``already_seated``, ``seat_taken``, ``table_full``, ``bad_token``,
  ``no_deal``, ``bad_action`` (not an action), ``illegal`` (not legal now,
  or another seat's: the message names both seats), ``closed``: the
  connection stays open. ``too_long`` (a line over :data:`LINE_LIMIT` bytes)
  and ``replaced`` (a new connection came with your token) close it.

The match starts when every seat is taken. Chance (the deal and dividete's
draw) is drawn by the server from its own seeded generator. A player who
disconnects keeps the seat: when it is to act, the table waits up to
``--grace`` seconds from the moment it left, then a random bot on the server
plays for it until it comes back with its token. After the grace a
newcomer may also take the seat over (the old token then stops working).
If nobody at all is connected, the table waits. ``--save DIR`` writes each
finished deal as a JSON record (``cb.Record``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import hmac
import json
import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

import calabrasella as cb

#: The longest line a client may send, in bytes (a hello or an action is far shorter).
LINE_LIMIT = 8192
#: A client whose unread output exceeds this many bytes is dropped.
MAX_PENDING = 1 << 20
#: The longest player name.
MAX_NAME = 32
#: The table-mode actions that record a player's mistake: the server's bot never makes them.
IRREGULAR = (cb.Revoke, cb.TurnStock, cb.OutOfTurn, cb.Abandon)
#: The argument keys of an action written as an object.
ACTION_ARGUMENTS = ("contract", "modifier", "card")
#: The seats' names in the demo.
DEMO_NAMES = ("ann", "bob", "cid")

Message = dict[str, Any]


class ProtocolError(Exception):
    """A message the server refuses: the client gets an error and nothing changes."""

    def __init__(self, code: str, message: str) -> None:
        """Create the error.

        Args:
            code: The error's code, for programs.
            message: What went wrong, for people.
        """
        super().__init__(message)
        self.code = code
        self.message = message


def read_message(line: bytes) -> Message:
    """Return the JSON object a line holds.

    Args:
        line: One line as received.

    Returns:
        The message, a dict with a string ``"type"``.

    Raises:
        ProtocolError: The line is not UTF-8 JSON, or not an object with a type.
    """
    try:
        data = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProtocolError("bad_json", "a line must be UTF-8 text") from None
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        raise ProtocolError("bad_json", f"not JSON: {error}") from None
    if type(data) is not dict or not isinstance(data.get("type"), str):
        raise ProtocolError("bad_message", 'a message is a JSON object with a "type"')
    return data


def read_action(value: object) -> cb.Action:
    """Return the action a message's ``"action"`` holds, as text or as an object.

    Args:
        value: ``"play Ad"``, or ``{"kind": "play", "card": "Ad"}``.

    Returns:
        The action (not yet checked against the deal).

    Raises:
        ProtocolError: ``value`` is not an action.
    """
    if type(value) is dict:
        kind = value.get("kind")
        arguments = [value[key] for key in ACTION_ARGUMENTS if key in value]
        extra = set(value) - {"kind", *ACTION_ARGUMENTS}
        if not isinstance(kind, str) or extra or len(arguments) > 1:
            raise ProtocolError(
                "bad_action",
                'an action object is {"kind": K} with at most one of "contract", "modifier", "card"',
            )
        value = " ".join([kind.replace("_", " "), *map(str, arguments)])
    if not isinstance(value, str):
        raise ProtocolError("bad_message", '"action" is a text such as "play Ad" or an object')
    try:
        return cb.parse_action(value)
    except cb.NotationError as error:
        raise ProtocolError("bad_action", str(error)) from None


class Connection:
    """One client's connection: where to write, and the seat it sits at."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        """Wrap ``writer``.

        Args:
            writer: The connection's writing end.
        """
        self.writer = writer
        self.seat: Seat | None = None

    def send(self, message: Message) -> None:
        """Queue one message; drop the client if it has stopped reading.

        Args:
            message: A JSON-ready dict.
        """
        if self.writer.is_closing():
            return
        self.writer.write((json.dumps(message, ensure_ascii=False) + "\n").encode("utf-8"))
        if self.writer.transport.get_write_buffer_size() > MAX_PENDING:
            self.writer.close()

    def error(self, code: str, message: str) -> None:
        """Send an error message.

        Args:
            code: The error's code.
            message: What went wrong.
        """
        self.send({"type": "error", "code": code, "message": message})


class Seat:
    """A seat at the table: who owns it, with which token, and whether connected."""

    def __init__(self, number: int) -> None:
        """Create an empty seat.

        Args:
            number: The seat's number.
        """
        self.number = number
        self.name: str | None = None
        self.token: str | None = None
        self.conn: Connection | None = None
        self.left_at = 0.0


class TableServer:
    """One table: seats players, deals, hands out views, applies their actions.

    Every change happens in the event loop's thread between two awaits, so
    the table needs no locks.
    """

    def __init__(
        self,
        rules: cb.Ruleset = cb.CAVENDISH,
        *,
        deals: int = 3,
        matches: int | None = 1,
        seed: int = 0,
        grace: float = 30.0,
        save_dir: Path | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        """Create the table; :meth:`start` opens it.

        Args:
            rules: The ruleset played.
            deals: Deals per match.
            matches: Matches before :meth:`wait` returns (``None``: forever).
            seed: Seeds the deals, chance and the server's bot.
            grace: Seconds a disconnected seat is waited for before the bot plays for it.
            save_dir: Where each finished deal is saved as a JSON record, if given.
            log: Called with a line of text at each event worth telling.
        """
        self.rules = rules
        self.deals = deals
        self.matches = matches
        self.grace = grace
        self.save_dir = save_dir
        self.log = log if log is not None else (lambda _line: None)
        self.rng = random.Random(seed)
        self.bot_rng = random.Random(seed + 1)
        self.seats = [Seat(n) for n in range(rules.players)]
        self.match = cb.Match(rules=rules, deals=deals)
        self.state: cb.State | None = None
        self.finished: list[cb.State] = []
        self.matches_played = 0
        self.done = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._conns: dict[Connection, asyncio.Task[Any] | None] = {}
        self._closing = False

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Start listening and return the port (``port=0`` picks a free one).

        Args:
            host: The address to listen on.
            port: The port, or 0.

        Returns:
            The port listened on.
        """
        self._server = await asyncio.start_server(self._client, host, port, limit=LINE_LIMIT)
        return int(self._server.sockets[0].getsockname()[1])

    async def wait(self) -> None:
        """Return when the table has played its matches."""
        await self.done.wait()

    async def close(self) -> None:
        """Stop listening and close every connection."""
        self._closing = True
        if self._timer is not None:
            self._timer.cancel()
        if self._server is not None:
            self._server.close()
        for conn in list(self._conns):
            conn.writer.close()
        # each handler sees its connection closed and ends; wait for them
        await asyncio.gather(*filter(None, self._conns.values()), return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    # --- connections ---------------------------------------------------------------

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(writer)
        self._conns[conn] = asyncio.current_task()
        try:
            while True:
                try:
                    line = await reader.readline()
                except ValueError:  # the line is longer than the reader's limit
                    conn.error("too_long", f"a line is at most {LINE_LIMIT} bytes; closing")
                    break
                except ConnectionError:
                    break
                if not line:
                    break
                if line.strip():
                    self._receive(conn, line)
        finally:
            self._conns.pop(conn, None)
            self._leave(conn)
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    def _receive(self, conn: Connection, line: bytes) -> None:
        try:
            message = read_message(line)
            kind = message["type"]
            if kind == "hello":
                self._hello(conn, message)
            elif kind == "action":
                self._action(conn, message)
            elif kind == "view":
                seat = self._seated(conn)
                if self.state is None:
                    raise ProtocolError("no_deal", "no deal is being played")
                conn.send(self._view_message(seat.number))
            else:
                raise ProtocolError(
                    "bad_message", f"unknown type {kind[:40]!r}: hello, action or view"
                )
        except ProtocolError as error:
            conn.error(error.code, error.message)

    def _seated(self, conn: Connection) -> Seat:
        if conn.seat is None:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "name": ...}')
        return conn.seat

    def _is_free(self, seat: Seat) -> bool:
        if seat.token is None:
            return True
        return seat.conn is None and self._now() - seat.left_at >= self.grace

    def _hello(self, conn: Connection, message: Message) -> None:
        if conn.seat is not None:
            raise ProtocolError("already_seated", f"you sit at seat {conn.seat.number} already")
        if self.done.is_set():
            raise ProtocolError("closed", "the server has played its matches")
        name, token, wanted = message.get("name"), message.get("token"), message.get("seat")
        if (
            not isinstance(name, str)
            or not 0 < len(name.strip()) <= MAX_NAME
            or not name.isprintable()
        ):
            raise ProtocolError("bad_message", f"a name is 1 to {MAX_NAME} printable characters")
        if token is not None:
            seat = self._seat_of_token(token)
            if seat.conn is not None:
                seat.conn.error(
                    "replaced", "your seat was taken up by a new connection with your token"
                )
                seat.conn.seat = None
                seat.conn.writer.close()
        else:
            seat = self._free_seat(wanted)
            seat.token = secrets.token_hex(16)
        seat.name, seat.conn, conn.seat = name.strip(), conn, seat
        conn.send({"type": "welcome", "seat": seat.number, "name": seat.name, "token": seat.token,
                   "rules": self.rules.name, "deals": self.deals})  # fmt: skip
        self.log(
            f"{seat.name} sits at seat {seat.number}" + (" again" if token is not None else "")
        )
        self._announce()
        if self.state is not None:
            conn.send(self._view_message(seat.number))
        elif all(s.token is not None for s in self.seats):
            self._start_deal()
        self._advance()

    def _seat_of_token(self, token: object) -> Seat:
        if isinstance(token, str) and len(token) <= 64:
            for seat in self.seats:
                if seat.token is not None and hmac.compare_digest(
                    seat.token.encode(), token.encode()
                ):
                    return seat
        raise ProtocolError(
            "bad_token", "no seat has this token (taken over, or the match is over)"
        )

    def _free_seat(self, wanted: object) -> Seat:
        if wanted is None:
            for seat in self.seats:
                if self._is_free(seat):
                    return seat
            raise ProtocolError("table_full", "every seat is taken")
        if type(wanted) is not int or not 0 <= wanted < len(self.seats):
            raise ProtocolError("bad_message", f'"seat" is a seat number 0..{len(self.seats) - 1}')
        if not self._is_free(self.seats[wanted]):
            raise ProtocolError("seat_taken", f"seat {wanted} is taken")
        return self.seats[wanted]

    def _leave(self, conn: Connection) -> None:
        seat = conn.seat
        if seat is None or seat.conn is not conn:
            return
        conn.seat, seat.conn, seat.left_at = None, None, self._now()
        self.log(f"{seat.name} left seat {seat.number}")
        self._announce()
        self._advance()

    def _action(self, conn: Connection, message: Message) -> None:
        seat = self._seated(conn)
        if "action" not in message:
            raise ProtocolError("bad_message", 'an action message needs "action"')
        action = read_action(message["action"])
        if self.state is None:
            raise ProtocolError("no_deal", "no deal is being played")
        try:
            after = cb.apply(self.state, action, seat=seat.number)
        except cb.IllegalActionError as error:
            raise ProtocolError("illegal", str(error)) from None
        self._set_state(after)
        self._advance()

    # --- the table -----------------------------------------------------------------

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _broadcast(self, message: Message) -> None:
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(message)

    def _announce(self) -> None:
        players = [None if s.token is None else {"name": s.name, "connected": s.conn is not None}
                   for s in self.seats]  # fmt: skip
        self._broadcast({"type": "table", "players": players})

    def _view_message(self, seat: int) -> Message:
        assert self.state is not None
        deal = len(self.match.finished) + 1
        return {"type": "view", "deal": deal, "view": cb.to_data(self.state.view(seat))}

    def _set_state(self, state: cb.State) -> None:
        self.state = state
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(self._view_message(seat.number))

    def _start_deal(self) -> None:
        self._set_state(self.match.next_deal(seed=self.rng))

    def _advance(self) -> None:
        """Move the deal on as far as it goes without a connected player."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        while self.state is not None and not self._closing:
            state = self.state
            if state.is_over:
                self._end_deal(state)
                continue
            if state.is_chance:
                self._set_state(cb.apply(state, cb.sample_chance(state, self.rng)))
                continue
            if all(s.conn is None for s in self.seats):
                return  # nobody at the table: wait for someone
            assert state.to_move is not None
            seat = self.seats[state.to_move]
            if seat.conn is not None:
                return  # wait for that player
            wait = seat.left_at + self.grace - self._now()
            if wait > 0:
                self._timer = asyncio.get_running_loop().call_later(wait, self._advance)
                return
            view = state.view(seat.number)
            choices = [a for a in view.legal_actions if not isinstance(a, IRREGULAR)]
            self._set_state(cb.apply(state, self.bot_rng.choice(choices), seat=seat.number))

    def _end_deal(self, state: cb.State) -> None:
        assert state.result is not None
        self.match = self.match.record(state)
        self.finished.append(state)
        number = len(self.match.finished)
        totals = list(self.match.totals)
        self._save(state, number)
        self._broadcast({"type": "over", "deal": number, "result": cb.to_data(state.result),
                         "totals": totals})  # fmt: skip
        payments = " ".join(f"{p:+d}" for p in state.result.payments)
        self.log(f"deal {number} (dealer {state.dealer}): {describe(state.result)}; {payments}")
        if not self.match.is_over:
            self._start_deal()
            return
        self.matches_played += 1
        names = [s.name for s in self.seats]
        self._broadcast({"type": "match_over", "deals": number, "totals": totals, "players": names})
        self.log("totals: " + ", ".join(f"{n} {t:+d}" for n, t in zip(names, totals)))
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.seat = None
                seat.conn.writer.close()
        self.state = None
        self.seats = [Seat(n) for n in range(self.rules.players)]
        self.match = cb.Match(rules=self.rules, deals=self.deals)
        if self.matches is not None and self.matches_played >= self.matches:
            self.done.set()

    def _save(self, state: cb.State, number: int) -> None:
        if self.save_dir is None:
            return
        tags = {
            "event": "calabrasella table server",
            "date": datetime.date.today().isoformat(),
            "round": f"{self.matches_played + 1}.{number}",
            "players": ", ".join(s.name or "?" for s in self.seats),
        }
        record = cb.Record.from_state(state, tags=tags)
        self.save_dir.mkdir(parents=True, exist_ok=True)
        path = self.save_dir / f"match{self.matches_played + 1:03d}-deal{number:03d}.json"
        path.write_text(cb.to_json(record, indent=2) + "\n", encoding="utf-8")


def describe(result: cb.Result) -> str:
    """Return a deal's outcome in a few words.

    Args:
        result: A finished deal's result.

    Returns:
        Who declared what and how it went.
    """
    if result.void or result.contract is None:
        return "all passed: void"
    contract = result.contract.value
    if result.modifier is not None:
        contract += f"+{result.modifier.value}"
    won = "won" if result.declarer_won else "lost"
    return (
        f"seat {result.declarer} {contract} {result.declarer_units}-{result.adversary_units} {won}"
    )


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
    reader, writer = await asyncio.open_connection(host, port, limit=MAX_PENDING)
    writer.write((json.dumps({"type": "hello", "name": name, "seat": seat}) + "\n").encode())
    try:
        while line := await reader.readline():
            message = json.loads(line)
            if message["type"] == "view" and message["view"]["legal_actions"]:
                action = rng.choice(message["view"]["legal_actions"])
                writer.write((json.dumps({"type": "action", "action": action}) + "\n").encode())
            elif message["type"] in ("match_over", "error"):
                break
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def demo(rules: cb.Ruleset, deals: int, seed: int, save_dir: Path | None) -> TableServer:
    """Serve on a loopback port while three in-process bots play a match; return the table.

    Args:
        rules: The ruleset.
        deals: Deals in the match.
        seed: Seeds the server and the players.
        save_dir: Where to save the deals' records, if given.

    Returns:
        The table after the match.
    """
    server = TableServer(rules, deals=deals, seed=seed, grace=1.0, save_dir=save_dir, log=print)
    port = await server.start("127.0.0.1", 0)
    print(f"demo: {rules.name}, {deals} deals, seed {seed}, served on 127.0.0.1:{port}")
    players = [
        demo_player("127.0.0.1", port, name, n, seed + 10 + n) for n, name in enumerate(DEMO_NAMES)
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*players), timeout=60)
        await asyncio.wait_for(server.wait(), timeout=60)
    finally:
        await server.close()
    return server


async def serve(args: argparse.Namespace) -> None:
    """Serve matches until interrupted (or until ``--matches`` are played).

    Args:
        args: The parsed command line.
    """
    server = TableServer(cb.find_ruleset(args.rules), deals=args.deals, matches=args.matches,
                         seed=args.seed, grace=args.grace, save_dir=args.save,
                         log=lambda line: print(line, flush=True))  # fmt: skip
    port = await server.start(args.host, args.port)
    print(f"serving {args.rules} on {args.host}:{port}; Ctrl-C stops", flush=True)
    try:
        await server.wait()
    finally:
        await server.close()


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
    parser.add_argument("--matches", type=int, help="stop after this many matches (default: never)")
    parser.add_argument("--seed", type=int, default=1, help="seeds the deals and chance (1)")
    parser.add_argument(
        "--grace", type=float, default=30.0, help="seconds to wait for a player who left (30)"
    )
    parser.add_argument("--save", type=Path, metavar="DIR", help="save each finished deal here")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.grace < 0 or (args.matches is not None and args.matches < 1):
        parser.error("--deals and --matches must be at least 1 and --grace not negative")
    if args.port is None:
        asyncio.run(demo(cb.find_ruleset(args.rules), args.deals, args.seed, args.save))
        return 0
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
