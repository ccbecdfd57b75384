"""One table: seats, deals, views, the move clock, the server's bot, and what is saved.

What a table saves (its settings, the deal in progress, each finished deal's
record, the ledger) is written through :mod:`._store`; a save that fails is
told once and tried again until it is written."""

from __future__ import annotations

import asyncio
import datetime
import hmac
import random
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import calabrasella as cb

from . import _store
from ._clock import Clocks
from ._conn import Bucket, Connection, LineTooLong, Link, Seat, StreamLink
from ._protocol import (
    IRREGULAR,
    Limits,
    Message,
    ProtocolError,
    describe,
    read_action,
    read_message,
    read_name,
    read_position,
    read_token,
)
from ._public import places_data, public_view_data


class Table:
    """One table served over TCP: seats players, deals, hands out views, applies actions.

    Every change happens in the event loop's thread between two awaits, so
    the table needs no locks. Each client is read one line per turn of the
    loop and throttled to :attr:`Limits.rate`, so no client can hold the loop.
    """

    #: Seconds between two tries of a save that failed.
    SAVE_RETRY = 2.0

    def __init__(
        self,
        rules: cb.Ruleset = cb.CAVENDISH,
        *,
        deals: int = 3,
        matches: int | None = 1,
        seed: int | None = None,
        grace: float = 30.0,
        move_time: float | None = 60.0,
        match_time: float | None = None,
        bots: Iterable[int] = (),
        save_dir: Path | None = None,
        limits: Limits = Limits(),  # noqa: B008 (a frozen value)
        log: Callable[[str], None] | None = None,
        on_finished: Callable[[cb.State], None] | None = None,
    ) -> None:
        """Create the table; :meth:`start` opens it.

        Args:
            rules: The ruleset played.
            deals: Deals per match.
            matches: Matches before :meth:`wait` returns (``None``: forever).
            seed: For tests and replays only: deal, draw and play the bot from
                generators derived from it. ``None`` (the default) takes every
                card and bot choice from the operating system's secure source.
                A given seed is sent to the players only in ``match_over``.
            grace: Seconds a disconnected seat is waited for before the bot plays for it.
            move_time: Seconds a connected player has for each move, after
                which the bot moves for it and it is told (``None``: no clock).
            match_time: Seconds each player has for all its moves in a match (a
                time bank, charged only while it is to move and connected);
                once it is spent the bot makes the player's moves at once and
                the player is told each time (``None``: no bank).
            bots: Seats the server's bot holds for the whole match.
            save_dir: Where the table saves what it needs to resume, and each finished deal.
            limits: What each connection may do.
            log: Called with a line of text at each event worth telling.
            on_finished: Called with each finished deal's final state.
        """
        if deals < 1 or grace < 0 or any(t is not None and t <= 0 for t in (move_time, match_time)):
            raise ValueError("deals must be at least 1, grace not negative, the clocks positive")
        self.rules = rules
        self.deals = deals
        self.matches = matches
        self.seed = seed
        self.grace = grace
        self.move_time = move_time
        self.match_time = match_time
        self.clocks = Clocks(move_time, match_time, rules.players)
        self.bot_seats = frozenset(bots)
        if not self.bot_seats <= set(range(rules.players)):
            raise ValueError(f"bots: seats 0..{rules.players - 1}")
        self.save_dir = save_dir
        self.limits = limits
        self.log = log if log is not None else (lambda _line: None)
        self.on_finished = on_finished
        self.seats = self._new_seats()
        self.match = cb.Match(rules=rules, deals=deals)
        self.state: cb.State | None = None
        self.matches_played = 0
        self.save_errors: list[str] = []
        self.done = asyncio.Event()
        self.port = 0
        #: Told to the table's players and spectators: it opens the analyses of its deals.
        self.analysis_key = secrets.token_hex(16)
        self._system = random.SystemRandom()
        self._server: asyncio.Server | None = None
        self._timer: asyncio.Handle | None = None
        self._conns: set[Connection] = set()
        self.spectators: set[Connection] = set()
        self._closing = False
        self._resumed = False
        self._unsaved: dict[str, Callable[[Path], None]] = {}
        self._told: set[tuple[str, int | None]] = set()  # the causes of failed saves told
        self._failed: set[str] = set()  # what could not be saved, until it is
        self._save_timer: asyncio.TimerHandle | None = None

    # --- the life of the table -----------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> int:
        """Start listening and return the port (``port=0`` picks a free one).

        Args:
            host: The address to listen on.
            port: The port, or 0.

        Returns:
            The port listened on.
        """
        self._server = await asyncio.start_server(
            self.handle, host, port, limit=self.limits.line_bytes
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        self.open()
        return self.port

    def open(self) -> None:
        """Open the table without listening (a :class:`Lobby` hands it its connections)."""
        if self._resumed:
            now = self._now()
            for seat in self.seats:
                seat.left_at = now
        self._save_table()
        if self.state is None and all(seat.taken for seat in self.seats):
            self._start_deal()
        self._advance()

    async def wait(self) -> None:
        """Return when the table has played its matches."""
        await self.done.wait()

    async def close(self) -> None:
        """Stop listening, close every connection and wait for their handlers to end."""
        self._closing = True
        self._cancel_timer()
        self._retry_saves()  # one last try of whatever could not be saved
        if self._save_timer is not None:
            self._save_timer.cancel()
            self._save_timer = None
        if self._server is not None:
            self._server.close()
        for conn in list(self._conns):
            conn.send({"type": "closing", "message": "the server is shutting down"})
            conn.close()
        tasks = [conn.task for conn in self._conns if conn.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=self.limits.close_timeout + 1)
        for conn in list(self._conns):
            conn.drop("shutdown")
        if self._server is not None:
            await self._server.wait_closed()

    @classmethod
    def resume(cls, folder: Path, **options: Any) -> Table:
        """Return the table saved in ``folder``, as it was when it last saved.

        The deal in progress goes on from its last saved action (its action
        log); the players' tokens are valid again, and each seat's grace
        starts when the table starts.

        Args:
            folder: The table's ``save_dir``.
            options: Settings to use instead of the saved ones (``grace``,
                ``move_time``, ``limits``, ``log``, ``on_finished``, ``matches``).

        Raises:
            calabrasella.server.ResumeError: Nothing there can be resumed.
        """
        saved = _store.load(folder)
        try:
            return cls._from_saved(folder, saved, options)
        except (ValueError, TypeError, KeyError) as error:  # what load's checks let through
            raise _store.ResumeError(f"cannot resume from {folder}: {error!r}") from None

    @classmethod
    def _from_saved(cls, folder: Path, saved: _store.Saved, options: dict[str, Any]) -> Table:
        settings = saved.settings
        kept = {key: settings.get(key) for key in ("matches", "seed", "grace", "move_time",
                                                    "match_time")}  # fmt: skip
        table = cls(
            saved.match.rules,
            deals=settings["deals"],
            bots=settings["bots"],
            save_dir=folder,
            **{**kept, **options},
        )
        table.matches_played = settings["matches_played"]
        table.clocks.reset(settings.get("banks"))
        table.match = saved.match
        for seat, data in zip(table.seats, settings["seats"]):
            if not seat.bot and data is not None:
                seat.name, seat.token = data["name"], data["token"]
        state = saved.state
        finished = table.match.finished
        if table.match.is_over:  # it ended before the table could say so
            table.matches_played += 1
            table.match = cb.Match(rules=table.rules, deals=table.deals)
            table.seats = table._new_seats()
            state = None
        if state is not None and finished and state.deal == finished[-1].deal:
            state = None  # the crash came after the deal's ledger, before the next deal
        if state is not None and state.dealer == table.match.dealer and not state.is_over:
            table.state = state
        table._resumed = True
        return table

    # --- connections ---------------------------------------------------------------

    async def handle(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, first: bytes = b""
    ) -> None:
        """Serve one client's TCP connection until it ends; ``first``: a line already read from it."""
        await self.handle_link(StreamLink(reader, writer, self.limits.send_buffer), first)

    def room_for(self, host: str) -> bool:
        """Whether one more connection from ``host`` fits under the table's caps."""
        from_host = sum(1 for conn in self._conns if conn.host == host)
        return len(self._conns) < self.limits.max_connections and from_host < self.limits.per_address

    async def handle_link(self, link: Link, first: bytes = b"", since: float | None = None) -> None:
        """Serve one client (over TCP or a WebSocket) until it goes.

        Args:
            link: The client's transport.
            first: A message already read from it (by a lobby).
            since: When it connected (the loop's time), if before now: its
                hello is due ``hello_timeout`` after that.
        """
        conn = Connection(link, self.limits)
        if self._closing or not self.room_for(conn.host):
            conn.error("busy", "the table is full: it has no room for another connection; "
                       "try later")  # fmt: skip
            conn.close()
            return
        conn.task = asyncio.current_task()
        self._conns.add(conn)
        loop = asyncio.get_running_loop()
        bucket = Bucket(self.limits.rate, self.limits.burst, loop.time())
        hello_due = (loop.time() if since is None else since) + self.limits.hello_timeout
        try:
            if first.strip():
                self._receive(conn, first)
            while conn.dropped is None:
                seated = conn.seat is not None or conn in self.spectators
                timeout = self.limits.idle_timeout if seated else hello_due - loop.time()
                try:
                    if timeout <= 0:
                        raise asyncio.TimeoutError
                    line = await asyncio.wait_for(link.read_line(), timeout)
                except asyncio.TimeoutError:
                    what = (f"nothing heard for {timeout:g} s" if seated else
                            f"no hello within {self.limits.hello_timeout:g} s")  # fmt: skip
                    conn.error("timeout", f"{what}; closing")
                    break
                except LineTooLong:
                    limit = self.limits.line_bytes
                    conn.error("too_long", f"a line is at most {limit} bytes; closing")
                    break
                if not line:
                    break
                pause = bucket.wait(loop.time())  # every line, a blank one too, takes its turn
                if pause > 0:
                    await asyncio.sleep(pause)
                if conn.dropped is not None:
                    break
                if line.strip():
                    self._receive(conn, line)
                await asyncio.sleep(0)  # one line per turn of the loop: nobody holds it
        finally:
            self._conns.discard(conn)
            self._leave(conn)
            conn.close()

    def _receive(self, conn: Connection, line: bytes) -> None:
        try:
            message = read_message(line)
            kind = message["type"]
            if kind == "hello":
                self._hello(conn, message)
            elif kind == "action":
                self._action(conn, message)
            elif kind == "view":
                seat = None if conn in self.spectators else self._seated(conn).number
                if self.state is None:
                    raise ProtocolError("no_deal", "no deal is being played")
                conn.send(self._view_message(seat))
            elif kind == "ping":
                conn.send({"type": "pong"})
            else:
                raise ProtocolError(
                    "bad_message", f"unknown type {kind[:40]!r}: hello, action, view or ping"
                )
            conn.errors = 0
        except ProtocolError as error:
            conn.error(error.code, error.message)
            conn.errors += 1
            if conn.errors >= self.limits.max_errors:
                conn.error("too_many_errors", f"{conn.errors} refused messages in a row; closing")
                conn.close()

    def _seated(self, conn: Connection) -> Seat:
        if conn.seat is None:
            raise ProtocolError("not_seated", 'say hello first: {"type": "hello", "name": ...}')
        return conn.seat

    def _is_free(self, seat: Seat) -> bool:
        if seat.bot:
            return False
        if seat.token is None:
            return True
        return seat.conn is None and self._now() - seat.left_at >= self.grace

    def _hello(self, conn: Connection, message: Message) -> None:
        if conn.seat is not None or conn in self.spectators:
            raise ProtocolError("already_seated", "you said hello already")
        if self.done.is_set():
            raise ProtocolError("closed", "the table has closed: it has played its matches")
        name = read_name(message.get("name"))
        if message.get("spectate") is True:
            self._spectate(conn, name)
            return
        token = message.get("token")
        if token is not None:
            seat = self._seat_of_token(read_token(token))
            if seat.conn is None and self.state is not None and self.state.to_move == seat.number:
                key = self._position()  # back during its move: the time away used its grace
                before = self._grace_used(seat, key)
                used = before + max(0.0, self._now() - seat.left_at)
                seat.away_key, seat.away_used = key, used
                # and once the grace is spent, the time away comes out of its bank
                self.clocks.take(seat.number, max(0.0, used - self.grace) - max(0.0, before - self.grace))
            if seat.conn is not None:
                old = seat.conn
                old.error("replaced", "your seat was taken up by a new connection with your token")
                old.seat = None
                old.close()
        else:
            seat = self._free_seat(message.get("seat"))
            seat.token = secrets.token_hex(16)
        seat.name, seat.conn, conn.seat = name, conn, seat
        conn.send({"type": "welcome", "seat": seat.number, "name": seat.name, "token": seat.token,
                   "rules": self.rules.name, "deals": self.deals, "move_time": self.move_time,
                   "match_time": self.match_time, "analysis_key": self.analysis_key,
                   "stock_name": self.rules.terms.stock,
                   "seeded": self.seed is not None})  # fmt: skip
        self.log(f"{name} sits at seat {seat.number}" + (" again" if token is not None else ""))
        self._announce()
        self._save_table()
        if self.state is not None:
            conn.send(self._view_message(seat.number))
        elif all(s.taken for s in self.seats):
            self._start_deal()
        self._advance()

    def spectator_room(self) -> int:
        """Spectators at most: the connection cap less two connections a seat.

        Spectators never take the last connections, so a player can always come
        back to its seat (with its token) whatever the spectators do.
        """
        return max(0, self.limits.max_connections - 2 * len(self.seats))

    def _spectate(self, conn: Connection, name: str) -> None:
        if len(self.spectators) >= self.spectator_room():
            raise ProtocolError("full", f"the table is full: {len(self.spectators)} spectators "
                                "already watch; try later")  # fmt: skip
        self.spectators.add(conn)
        conn.send({"type": "welcome", "seat": None, "name": name, "spectator": True,
                   "rules": self.rules.name, "deals": self.deals, "move_time": self.move_time,
                   "match_time": self.match_time, "analysis_key": self.analysis_key,
                   "stock_name": self.rules.terms.stock,
                   "seeded": self.seed is not None})  # fmt: skip
        self.log(f"{name} watches")
        conn.send(self._table_message())
        if self.state is not None:
            conn.send(self._view_message(None))

    def _seat_of_token(self, token: str) -> Seat:
        for seat in self.seats:
            if seat.token is not None and hmac.compare_digest(seat.token, token):
                return seat
        raise ProtocolError("bad_token", "no seat has this token (taken over, or the match is over)")

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
        self.spectators.discard(conn)
        seat = conn.seat
        if seat is None or seat.conn is not conn:
            return
        conn.seat, seat.conn, seat.left_at = None, None, self._now()
        self.clocks.charge(seat.left_at)
        why = "" if conn.dropped in (None, "closed") else f" ({conn.dropped})"
        self.log(f"{seat.name} left seat {seat.number}{why}")
        self._announce()
        self._advance()

    def _action(self, conn: Connection, message: Message) -> None:
        seat = self._seated(conn)
        if "action" not in message:
            raise ProtocolError("bad_message", 'an action message needs "action"')
        position = read_position(message)
        action = read_action(message["action"])
        if self.state is None:
            raise ProtocolError("no_deal", "no deal is being played")
        now = self._position()
        if position != now:
            raise ProtocolError(
                "stale",
                f"the action answers deal {position[0]} turn {position[1]}, "
                f"but the table is at deal {now[0]} turn {now[1]}: nothing was done",
            )
        try:
            after = cb.apply(self.state, action, seat=seat.number)
        except cb.IllegalActionError as error:
            raise ProtocolError("illegal", str(error)) from None
        self._set_state(after)
        self._advance()

    # --- the table -----------------------------------------------------------------

    def _grace_used(self, seat: Seat, key: tuple[int, int]) -> float:
        """Seconds of the move ``key``'s grace the seat has used away (coming back does not refill it)."""
        return seat.away_used if seat.away_key == key else 0.0

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _new_seats(self) -> list[Seat]:
        return [Seat(n, bot=n in self.bot_seats) for n in range(self.rules.players)]

    def _position(self) -> tuple[int, int]:
        """The deal (1-based) and turn (the history's length) the table is at."""
        assert self.state is not None
        return len(self.match.finished) + 1, len(self.state.history)

    def _rng(self, *what: object) -> random.Random:
        """The generator for one purpose: the system's, or derived from the seed."""
        if self.seed is None:
            return self._system
        return random.Random("/".join(map(str, (self.seed, self.matches_played, *what))))

    def _broadcast(self, message: Message) -> None:
        """Send a public message to every player and spectator."""
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(message)
        for conn in list(self.spectators):
            conn.send(message)

    def _table_message(self) -> Message:
        players = [
            None
            if not s.taken
            else {"name": s.name, "connected": s.conn is not None, "bot": s.bot}
            for s in self.seats
        ]
        return {"type": "table", "players": players, "spectators": len(self.spectators)}

    def _announce(self) -> None:
        self._broadcast(self._table_message())

    def _view_message(self, seat: int | None, public: dict[str, Any] | None = None) -> Message:
        """The view message of a seat, or (``seat=None``) a spectator's."""
        assert self.state is not None
        deal, turn = self._position()
        now = self._now()
        clock, banks = self.clocks.move_left((deal, turn), now), self.clocks.banks_at(now)
        if seat is not None:
            view = cb.to_data(self.state.view(seat))
        else:
            view = public if public is not None else public_view_data(self.state)
        return {"type": "view", "deal": deal, "turn": turn, "clock": clock, "banks": banks,
                "view": view, "places": places_data(self.state, seat)}

    def _set_state(self, state: cb.State) -> None:
        self.clocks.charge(self._now())  # whatever move was under way is over
        self.state = state
        if not state.is_over:  # a finished deal is saved with the ledger
            self._try_save("the deal in progress", lambda folder: _store.write_atomic(
                folder / "deal.json", cb.to_json(state)))  # fmt: skip
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.send(self._view_message(seat.number))
        if self.spectators:
            message = self._view_message(None)
            for conn in list(self.spectators):
                conn.send(message)

    def _start_deal(self) -> None:
        self._set_state(self.match.next_deal(seed=self._rng(len(self.match.finished) + 1, "deal")))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _advance(self) -> None:
        """Move the deal on by one step that needs no player, or set the timer that will."""
        self._cancel_timer()
        state = self.state
        if state is None or self._closing:
            return
        loop = asyncio.get_running_loop()
        if state.is_over:
            self._end_deal(state)
        elif state.is_chance:
            self._set_state(cb.apply(state, cb.sample_chance(state, self._rng(*self._position()))))
        else:
            humans = [s for s in self.seats if not s.bot]
            if humans and all(s.conn is None for s in humans):
                return  # nobody at the table: wait for someone
            assert state.to_move is not None
            seat = self.seats[state.to_move]
            if seat.conn is not None:
                key = self._position()
                wait = self.clocks.start(key, seat.number, self._now())
                if wait is not None:
                    self._timer = loop.call_later(wait, self._clock_out, key)
                return
            grace = self.grace - self._grace_used(seat, self._position())
            wait = seat.left_at + grace - self._now()
            if not seat.bot and wait > 0:
                self._timer = loop.call_later(wait, self._advance)
                return
            self._bot_move(seat.number)
        if self.state is not None and not self._closing:
            self._timer = loop.call_soon(self._advance)  # the next step, after other clients

    def _bot_move(self, seat: int) -> cb.Action:
        state = self.state
        assert state is not None
        view = state.view(seat)
        choices = [a for a in view.legal_actions if not isinstance(a, IRREGULAR)]
        action = self._rng(*self._position(), "bot").choice(choices)
        self._set_state(cb.apply(state, action, seat=seat))
        return action

    def _clock_out(self, key: tuple[int, int]) -> None:
        self._timer = None
        if self.state is None or self._position() != key or self.state.to_move is None:
            return
        seat = self.seats[self.state.to_move]
        conn = seat.conn
        deal, turn = key
        state = self.state
        view = state.view(seat.number)
        choices = [a for a in view.legal_actions if not isinstance(a, IRREGULAR)]
        action = self._rng(deal, turn, "bot").choice(choices)
        which = self.clocks.ran_out(key, self._now())
        what = "time for the match" if which == "match" else f"{self.move_time:g} s for the move"
        if conn is not None:
            conn.send({"type": "timeout", "deal": deal, "turn": turn, "action": str(action),
                       "clock": which, "message": f"your {what} ran out: the bot played for you"})  # fmt: skip
        self.log(f"{seat.name}'s {which} clock ran out at deal {deal} turn {turn}: "
                 f"the bot played {action}")  # fmt: skip
        self._set_state(cb.apply(state, action, seat=seat.number))
        self._advance()

    def _end_deal(self, state: cb.State) -> None:
        assert state.result is not None
        self.match = self.match.record(state)
        number = len(self.match.finished)
        totals = list(self.match.totals)
        if self.on_finished is not None:
            self.on_finished(state)
        self._save_finished(state, number)
        self._broadcast({"type": "over", "deal": number, "result": cb.to_data(state.result),
                         "summary": describe(state.result), "totals": totals})  # fmt: skip
        payments = " ".join(f"{p:+d}" for p in state.result.payments)
        self.log(f"deal {number} (dealer {state.dealer}): {describe(state.result)}; {payments}")
        if not self.match.is_over:
            self._start_deal()
            return
        self.matches_played += 1
        names = [s.name for s in self.seats]
        closed = self.matches is not None and self.matches_played >= self.matches
        self._broadcast({"type": "match_over", "deals": number, "totals": totals,
                         "players": names, "seed": self.seed, "closed": closed})  # fmt: skip
        self.log("totals: " + ", ".join(f"{n} {t:+d}" for n, t in zip(names, totals)))
        for seat in self.seats:
            if seat.conn is not None:
                seat.conn.seat = None
                seat.conn.close()
        for conn in list(self.spectators):
            conn.close()
        self.spectators.clear()
        self.state = None
        self.clocks.reset()
        self.seats = self._new_seats()
        self.match = cb.Match(rules=self.rules, deals=self.deals)
        self._try_save("the new match", self._write_new_match)
        self._save_table()
        if closed:
            self.done.set()
        elif all(seat.bot for seat in self.seats):
            self._start_deal()

    # --- saving -------------------------------------------------------------------

    def _try_save(self, what: str, save: Callable[[Path], None]) -> None:
        """Save with ``save(folder)``; a failure is logged, told to the players, and retried.

        What could not be saved is tried again before each later save and
        every :attr:`SAVE_RETRY` seconds until it is written (a newer save
        of the same file takes the older one's place); nothing is raised.
        """
        if self.save_dir is None:
            return
        self._unsaved.pop(what, None)
        self._unsaved[what] = save  # last: the files are tried in the order they were meant
        self._retry_saves()

    def _retry_saves(self) -> None:
        if self._save_timer is not None:
            self._save_timer.cancel()
            self._save_timer = None
        folder = self.save_dir
        if folder is None:
            return
        for what, save in list(self._unsaved.items()):
            try:
                save(folder)
            except (OSError, ValueError, cb.CalabrasellaError) as error:
                self._failed.add(what)
                # told once for each cause until every file is saved: the error's text
                # names a temporary file of its own each time, so it is not the cause
                cause = (type(error).__name__, getattr(error, "errno", None))
                if cause not in self._told:
                    self._told.add(cause)
                    text = f"could not save {what}: {error}"
                    self.save_errors.append(text)
                    self.log(f"error: {text}")
                    self._broadcast({"type": "notice", "code": "save_failed",
                                     "message": f"the server {text}; the table goes on and "
                                                "tries again"})  # fmt: skip
                continue
            del self._unsaved[what]
            if what in self._failed:
                self._failed.discard(what)
                self.log(f"saved {what} after all")
        if not self._unsaved:
            self._told.clear()
            self._failed.clear()
        elif not self._closing:
            loop = asyncio.get_running_loop()
            self._save_timer = loop.call_later(self.SAVE_RETRY, self._retry_saves)

    def _save_table(self) -> None:
        seats = [None if s.bot or s.token is None else {"name": s.name, "token": s.token}
                 for s in self.seats]  # fmt: skip
        settings = {
            "version": _store.TABLE_VERSION,
            "deals": self.deals,
            "matches": self.matches,
            "matches_played": self.matches_played,
            "seed": self.seed,
            "grace": self.grace,
            "move_time": self.move_time,
            "match_time": self.match_time,
            "banks": self.clocks.banks,
            "bots": sorted(self.bot_seats),
            "seats": seats,
        }
        self._try_save("the table", lambda folder: _store.write_atomic(
            folder / "table.json", _store.dumps(settings)))  # fmt: skip
        if self.match.deals_played == 0 and self.state is None:
            self._try_save("the ledger", lambda folder: _store.write_atomic(
                folder / "ledger.json", cb.to_json(self.match)))  # fmt: skip

    def _write_new_match(self, folder: Path) -> None:
        (folder / "deal.json").unlink(missing_ok=True)

    def _save_finished(self, state: cb.State, number: int) -> None:
        match = f"match{self.matches_played + 1:03d}"
        tags = {
            "event": "calabrasella table server",
            "date": datetime.date.today().isoformat(),
            "round": f"{self.matches_played + 1}.{number}",
            "players": ", ".join(s.name or "?" for s in self.seats),
        }

        def record(folder: Path) -> None:
            text = cb.to_json(cb.Record.from_state(state, tags=tags), indent=2) + "\n"
            _store.write_atomic(folder / f"{match}-deal{number:03d}.json", text)

        def ledger(folder: Path) -> None:
            text = cb.to_json(self.match)
            _store.write_atomic(folder / "ledger.json", text)
            _store.write_atomic(folder / f"{match}-ledger.json", text)

        self._try_save(f"deal {number}'s record (match {self.matches_played + 1})", record)
        self._try_save("the ledger", ledger)
        if self.clocks.banks is not None:
            self._save_table()  # the banks as they stand after the deal
