"""Helpers for the table server's tests: loopback clients and the checks on what they received.

Every view a client receives is compared with ``cb.to_data(state.view(seat))``
for the server's state when it was sent (found by replaying the deal to the
view's turn), and its cards with :func:`calabrasella.testing.cards_seat_may_know`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import calabrasella as cb
from calabrasella.server import Table
from calabrasella.testing import cards_seat_may_know

T = TypeVar("T")
Message = dict[str, Any]
LIMIT = 20.0
CODES = frozenset(card.code for card in cb.DECK)


def run(scenario: Coroutine[Any, Any, T], limit: float = LIMIT) -> T:
    """Run a scenario in a fresh event loop, failing it after ``limit`` seconds."""
    return asyncio.run(asyncio.wait_for(scenario, limit))


async def until(condition: Callable[[], bool]) -> None:
    """Wait for the server to reach a condition (the scenario's limit bounds the wait)."""
    while not condition():
        await asyncio.sleep(0.001)


class Watched(Table):
    """A table that keeps each finished deal's final state, for the checks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.finished: list[cb.State] = []
        super().__init__(*args, on_finished=self.finished.append, **kwargs)


def cards_in(data: object) -> set[str]:
    """Every card code written anywhere in plain data (hands, history entries, legal actions)."""
    if isinstance(data, str):
        return {word for word in data.split() if word in CODES}
    if isinstance(data, dict):
        return set().union(*(cards_in(v) for v in data.values())) if data else set()
    if isinstance(data, list):
        return set().union(*(cards_in(v) for v in data)) if data else set()
    return set()


@functools.lru_cache(maxsize=64)
def states_to(final: cb.State) -> tuple[cb.State, ...]:
    """The states of a deal up to ``final``: the first, then one after each action."""
    return tuple(cb.Record.from_state(final).states())


def state_at(server: Any, deal: int, turn: int) -> cb.State:
    """The server's state of deal ``deal`` (1-based) when its history was ``turn`` long."""
    final = server.finished[deal - 1] if deal <= len(server.finished) else server.state
    assert final is not None
    return states_to(final)[turn]


def check_view(server: Any, seat: int, message: Message) -> cb.State:
    """A view message is exactly the seat's view of the state it was sent for; return that state."""
    assert message["turn"] == len(message["view"]["history"])
    state = state_at(server, message["deal"], message["turn"])
    assert message["view"] == cb.to_data(state.view(seat))
    known = {card.code for card in cards_seat_may_know(state, seat)}
    # a call names the card the declarer wants, wherever it lies: it shows no one's card
    shown = {**message["view"], "legal_actions": [
        text for text in message["view"]["legal_actions"] if not text.startswith("call ")
    ]}  # fmt: skip
    assert cards_in(shown) <= known, (seat, cards_in(shown) - known)
    # the places (the stock now, each seat's discards) show only cards the seat may know,
    # and as many cards as lie there
    places = message.get("places", [])
    assert cards_in(places) <= known, (seat, cards_in(places) - known)
    laid = sum(len(p["shown"]) + p["face_down"] for p in places)
    played = sum(len(cards) for cards in state.view(seat).cards_played)
    held = sum(state.view(seat).hand_sizes)
    assert laid + played + held == len(cb.DECK), (laid, played, held)
    return state


def check_messages(server: Any, seat: int, messages: list[Message]) -> None:
    """Every message a seat received shows it only what it may know.

    Views are checked with :func:`check_view`; a deal's result only once the
    deal is over (it is public then); no other message names a card.
    ``server`` is anything with the ``finished`` deals' final states and the
    ``state`` in progress (a :class:`Watched` table, or the records it saved).
    """
    for message in messages:
        if message["type"] == "view":
            check_view(server, seat, message)
        elif message["type"] == "over":
            assert message["result"] == cb.to_data(server.finished[message["deal"] - 1].result)
        elif message["type"] != "timeout":  # a timeout names the seat's own action
            assert cards_in(message) == set(), message


def check_views_in_order(server: Watched, seat: int, messages: list[Message]) -> None:
    """The seat got its own view of every state of every deal, once, in order."""
    check_messages(server, seat, messages)
    got = [(m["deal"], m["turn"]) for m in messages if m["type"] == "view"]
    expected = [
        (number, length)
        for number, final in enumerate(server.finished, start=1)
        for length in range(len(final.history) + 1)
    ]
    assert got == expected


class Raw:
    """A hand-driven client: sends what the test says and keeps every message it receives."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.messages: list[Message] = []
        self.seat = -1
        self.token = ""
        self.last: tuple[int, int] | None = None  # the (deal, turn) of its last view

    @classmethod
    async def connect(cls, port: int) -> Raw:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
        return cls(reader, writer)

    async def send(self, message: Message | bytes) -> None:
        data = message if isinstance(message, bytes) else (json.dumps(message) + "\n").encode()
        self.writer.write(data)
        await self.writer.drain()

    async def recv(self) -> Message:
        line = await self.reader.readline()
        assert line, "the server closed the connection"
        message: Message = json.loads(line)
        self.messages.append(message)
        return message

    async def expect(self, kind: str) -> Message:
        """The next message of ``kind``, past the table's seating news (``"table"``)."""
        while (message := await self.recv())["type"] == "table" != kind:
            pass
        assert message["type"] == kind, message
        return message

    async def error(self, code: str) -> Message:
        message = await self.expect("error")
        assert message["code"] == code, message
        return message

    async def hello(self, name: str, **more: object) -> Message:
        await self.send({"type": "hello", "name": name, **more})
        welcome = await self.expect("welcome")
        self.seat, self.token = welcome["seat"], welcome.get("token", "")
        return welcome

    async def is_closed(self) -> bool:
        """Whether the server hangs up, once the messages before are read."""
        while line := await self.reader.readline():
            self.messages.append(json.loads(line))
        return True

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


def position(server: Table) -> tuple[int, int]:
    """The (deal, turn) the server is at."""
    assert server.state is not None
    return len(server.match.finished) + 1, len(server.state.history)


async def catch_up(server: Watched, clients: dict[int, Raw]) -> None:
    """Each client reads to the server's present, checking each view and that none is skipped."""
    for seat, client in clients.items():
        while server.state is None or client.last != position(server):
            message = await client.recv()
            if message["type"] == "over":
                final = server.finished[message["deal"] - 1]
                assert message["result"] == cb.to_data(final.result)
            elif message["type"] == "match_over":
                assert server.state is None
                assert await client.is_closed()
                break
            elif message["type"] == "view":
                check_view(server, seat, message)
                key = (message["deal"], message["turn"])
                last = client.last
                following = ((last[0], last[1] + 1), (last[0] + 1, 0)) if last else (key,)
                assert key in following, (last, key)
                client.last = key


def pick(view: cb.View, rng: random.Random) -> cb.Action:
    """A random legal action, never a pass while there is something else (no void deals)."""
    choices = [a for a in view.legal_actions if not isinstance(a, cb.Pass)]
    return rng.choice(choices or list(view.legal_actions))


def action_message(server: Table, action: object) -> Message:
    """An action message answering the server's present position."""
    deal, turn = position(server)
    return {"type": "action", "deal": deal, "turn": turn, "action": action}


async def act(server: Watched, clients: dict[int, Raw], seat: int, action: object) -> None:
    """``seat`` sends a legal action; once the server has taken it, everyone catches up."""
    before = server.state
    await clients[seat].send(action_message(server, action))
    await until(lambda: server.state is not before)
    await catch_up(server, clients)


async def drive(
    server: Watched, clients: dict[int, Raw], rng: random.Random, stop: Callable[[cb.State], bool]
) -> None:
    """The seat to move sends a random action, everyone catches up; until ``stop`` or the end."""
    while server.state is not None and not stop(server.state):
        seat = server.state.to_move
        assert seat is not None
        await act(server, clients, seat, str(pick(server.state.view(seat), rng)))


async def seat_three(server: Watched, port: int) -> dict[int, Raw]:
    """Three hand-driven clients sit at seats 0, 1, 2 and read the first deal's first views."""
    clients = {}
    for seat, name in enumerate(("ann", "bob", "cid")):
        client = await Raw.connect(port)
        assert (await client.hello(name, seat=seat))["seat"] == seat
        clients[seat] = client
    await catch_up(server, clients)
    return clients


def mid_play(state: cb.State) -> bool:
    """Seat 1 is to play to a trick in the middle of the play."""
    return state.phase is cb.Phase.PLAYING and state.to_move == 1 and 2 <= state.tricks_played <= 8
