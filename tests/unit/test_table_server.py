"""examples/table_server.py and examples/bot_client.py, end to end over loopback sockets.

Each test starts the server on an ephemeral loopback port and plays with
real TCP clients: the bot client of the example, or a hand-driven client
that sends what the test says. Every view a client receives is compared
with ``cb.to_data(state.view(seat))`` for the server's state when it was
sent (found by replaying the deal to the view's history length), and its
cards with :func:`calabrasella.testing.cards_seat_may_know`. Each test runs
under a 20-second limit, so a bug cannot hang the run.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from support import load_example

import calabrasella as cb
from calabrasella.testing import cards_seat_may_know

ts = load_example("table_server")  # before bot_client, whose demo imports it by name
bc = load_example("bot_client")

T = TypeVar("T")
Message = dict[str, Any]
LIMIT = 20.0
CODES = frozenset(card.code for card in cb.DECK)


def run(scenario: Coroutine[Any, Any, T]) -> T:
    """Run a scenario in a fresh event loop, failing it after LIMIT seconds."""
    return asyncio.run(asyncio.wait_for(scenario, LIMIT))


async def until(condition: Callable[[], bool]) -> None:
    """Wait for the server to reach a condition (the scenario's limit bounds the wait)."""
    while not condition():
        await asyncio.sleep(0.001)


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


def state_at(server: Any, deal: int, length: int) -> cb.State:
    """The server's state of deal ``deal`` (1-based) when its history was ``length`` long."""
    final = server.finished[deal - 1] if deal <= len(server.finished) else server.state
    assert final is not None
    return states_to(final)[length]


def check_view(server: Any, seat: int, message: Message) -> cb.State:
    """A view message is exactly the seat's view of the state it was sent for; return that state."""
    state = state_at(server, message["deal"], len(message["view"]["history"]))
    assert message["view"] == cb.to_data(state.view(seat))
    known = {card.code for card in cards_seat_may_know(state, seat)}
    # a call names the card the declarer wants, wherever it lies: it shows no one's card
    shown = {**message["view"], "legal_actions": [
        text for text in message["view"]["legal_actions"] if not text.startswith("call ")
    ]}  # fmt: skip
    assert cards_in(shown) <= known, (seat, cards_in(shown) - known)
    return state


def check_views_in_order(server: Any, seat: int, messages: list[Message]) -> None:
    """The seat got its own view of every state of every deal, once, in order, and nothing else."""
    got = []
    for message in messages:
        if message["type"] == "view":
            check_view(server, seat, message)
            got.append((message["deal"], len(message["view"]["history"])))
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
        self.last: tuple[int, int] | None = None  # the (deal, history length) of its last view

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
        self.seat, self.token = welcome["seat"], welcome["token"]
        return welcome

    async def is_closed(self) -> bool:
        """Whether the server hangs up, once the messages before are read."""
        while line := await self.reader.readline():
            self.messages.append(json.loads(line))
        return True

    async def close(self) -> None:
        self.writer.close()
        await self.writer.wait_closed()


async def catch_up(server: Any, clients: dict[int, Raw]) -> None:
    """Each client reads to the server's present, checking each view and that none is skipped."""
    for seat, client in clients.items():
        while server.state is None or client.last != (
            len(server.match.finished) + 1,
            len(server.state.history),
        ):
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
                key = (message["deal"], len(message["view"]["history"]))
                last = client.last
                following = ((last[0], last[1] + 1), (last[0] + 1, 0)) if last else (key,)
                assert key in following, (last, key)
                client.last = key


def pick(view: cb.View, rng: random.Random) -> cb.Action:
    """A random legal action, never a pass while there is something else (no void deals)."""
    choices = [a for a in view.legal_actions if not isinstance(a, cb.Pass)]
    return rng.choice(choices or list(view.legal_actions))


async def act(server: Any, clients: dict[int, Raw], seat: int, action: object) -> None:
    """``seat`` sends a legal action; once the server has taken it, everyone catches up."""
    before = server.state
    await clients[seat].send({"type": "action", "action": action})
    await until(lambda: server.state is not before)
    await catch_up(server, clients)


async def drive(
    server: Any, clients: dict[int, Raw], rng: random.Random, stop: Callable[[cb.State], bool]
) -> None:
    """The seat to move sends a random action, everyone catches up; until ``stop`` or the end."""
    while server.state is not None and not stop(server.state):
        seat = server.state.to_move
        await act(server, clients, seat, str(pick(server.state.view(seat), rng)))


async def seat_three(server: Any, port: int) -> dict[int, Raw]:
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


def bold(view: cb.View, rng: random.Random) -> cb.Action:
    """Bid solissimo and raise dividete whenever allowed, so the server must draw for chance."""
    for text in ("bid solissimo", "raise dividete"):
        action = cb.parse_action(text)
        if action in view.legal_actions:
            return action
    result: cb.Action = bc.random_choice(view, rng)
    return result


@pytest.mark.parametrize(("rules", "choose"), [(cb.CAVENDISH, None), (cb.CALABRESELLA, bold)])
def test_three_bot_clients_play_a_match_each_seeing_only_its_views(
    rules: cb.Ruleset, choose: Any, tmp_path: Path
) -> None:
    """Whole deals: every seat gets exactly its own view of every state; results, ledger, records."""

    async def scenario() -> tuple[Any, list[Any]]:
        server = ts.TableServer(rules, deals=3, seed=5, save_dir=tmp_path)
        port = await server.start()
        more = {} if choose is None else {"choose": choose}
        try:
            bots = [
                bc.play("127.0.0.1", port, name=f"p{n}", seat=n, seed=n, **more) for n in range(3)
            ]
            outcomes = await asyncio.gather(*bots)
            await server.wait()
            late = await Raw.connect(port)
            await late.send({"type": "hello", "name": "late"})
            await late.error("closed")
        finally:
            await server.close()
        return server, outcomes

    server, outcomes = run(scenario())
    assert len(server.finished) == 3
    assert [state.dealer for state in server.finished] == [0, 1, 2]
    totals = [sum(s.result.payments[seat] for s in server.finished) for seat in range(3)]
    for seat, outcome in enumerate(outcomes):
        assert outcome.seat == seat
        assert outcome.errors == []
        assert outcome.results == [state.result for state in server.finished]
        assert outcome.totals == totals
        check_views_in_order(server, seat, outcome.messages)
        assert outcome.messages[-1] == {"type": "match_over", "deals": 3, "totals": totals,
                                        "players": ["p0", "p1", "p2"]}  # fmt: skip
    if choose is bold:  # the server resolved dividete's draw, and each seat saw only its part
        assert any(isinstance(a, cb.Draw) for s in server.finished for _, a in s.history)
    paths = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in paths] == [f"match001-deal00{n}.json" for n in (1, 2, 3)]
    for path, final in zip(paths, server.finished):
        record = cb.from_json(path.read_text(encoding="utf-8"), cb.Record)
        assert record.replay() == final
        assert record.tags["players"] == "p0, p1, p2"


def test_bad_messages_get_an_error_and_change_nothing() -> None:
    """Garbage, wrong shapes, non-actions, illegal or another seat's actions: an error, same state."""

    async def scenario() -> None:
        server = ts.TableServer(cb.CAVENDISH, deals=1, seed=3, grace=60.0)
        port = await server.start()
        try:
            stranger = await Raw.connect(port)
            await stranger.send({"type": "action", "action": "pass"})
            await stranger.error("not_seated")
            await stranger.send({"type": "view"})
            await stranger.error("not_seated")
            clients = await seat_three(server, port)
            state = server.state
            mover = state.to_move
            other = (mover + 1) % 3
            client = clients[mover]
            nested = b"[" * 4000 + b"]" * 4000 + b"\n"
            cases = [
                (b"garbage\n", "bad_json"),
                (b"\xff\xfe{}\n", "bad_json"),
                (nested, "bad_json"),
                (b"[1, 2]\n", "bad_message"),
                (b'{"no": "type"}\n', "bad_message"),
                (b'{"type": 7}\n', "bad_message"),
                (b'{"type": "dance"}\n', "bad_message"),
                (b'{"type": "action"}\n', "bad_message"),
                (b'{"type": "action", "action": 42}\n', "bad_message"),
                (b'{"type": "action", "action": "fly me to the moon"}\n', "bad_action"),
                (b'{"type": "action", "action": {"kind": "play", "card": "Zz"}}\n', "bad_action"),
                (b'{"type": "action", "action": {"kind": "pass", "x": 1}}\n', "bad_action"),
                (b'{"type": "action", "action": {"card": "Ad"}}\n', "bad_action"),
                # no card is played in the auction; a draw is chance's, never a seat's
                (b'{"type": "action", "action": "play Ad"}\n', "illegal"),
                (b'{"type": "action", "action": "draw 7c 6c"}\n', "illegal"),
                (b'{"type": "hello", "name": "again"}\n', "already_seated"),
            ]
            for line, code in cases:
                await client.send(line)
                await client.error(code)
                assert server.state is state, line
            # another seat sends the mover's legal action: refused, naming both seats
            await clients[other].send({"type": "action", "action": str(state.legal_actions()[0])})
            message = await clients[other].error("illegal")
            assert f"seat {other}" in message["message"]
            assert f"seat {mover}'s" in message["message"]
            # a full table, a taken seat, bad hellos
            hellos: list[tuple[Message, str]] = [
                ({}, "table_full"),
                ({"seat": 0}, "seat_taken"),
                ({"seat": 3}, "bad_message"),
                ({"seat": True}, "bad_message"),
                ({"token": "not a token"}, "bad_token"),
            ]
            for hello, code in hellos:
                await stranger.send({"type": "hello", "name": "dan", **hello})
                await stranger.error(code)
            for name in ("", "   ", "\x07bell", "x" * 33, 5):
                await stranger.send({"type": "hello", "name": name})
                await stranger.error("bad_message")
            # asking for the view again gives the same view
            await client.send({"type": "view"})
            assert (await client.expect("view"))["view"] == cb.to_data(state.view(mover))
            assert server.state is state
            # a line over the limit: an error, then the server hangs up; the seat is kept
            await clients[other].send(b'{"type": "' + b"x" * (2 * ts.LINE_LIMIT) + b'"}\n')
            await clients[other].error("too_long")
            assert await clients.pop(other).is_closed()
            await until(lambda: server.seats[other].conn is None)
            assert server.state is state
            assert server.seats[other].token is not None
            # the mover's action as an object is taken; the others see exactly one new view
            await act(server, clients, mover, {"kind": "bid", "contract": "stand"})
            assert server.state.history == ((mover, cb.Bid(cb.Contract.STAND)),)
        finally:
            await server.close()

    run(scenario())


def test_a_seat_waits_for_its_player_who_comes_back_with_the_token() -> None:
    """Grace 60 s: the table waits at the leaver's turn; the token gives back the seat and view."""

    async def scenario() -> Any:
        server = ts.TableServer(cb.CAVENDISH, deals=1, seed=2, grace=60.0)
        port = await server.start()
        try:
            clients = await seat_three(server, port)
            rng = random.Random(1)
            await drive(server, clients, rng, mid_play)
            left = server.state
            assert mid_play(left)
            leaver = clients.pop(1)
            await leaver.close()
            await until(lambda: server.seats[1].conn is None)
            table = await clients[0].expect("table")
            assert table["players"][1] == {"name": "bob", "connected": False}
            # seat 0 may not play for seat 1, and nothing moves while seat 1 is away
            await clients[0].send({"type": "action", "action": str(left.legal_actions()[0])})
            await clients[0].error("illegal")
            assert server.state is left
            back = await Raw.connect(port)
            welcome = await back.hello("bob", token=leaver.token)
            assert (welcome["seat"], welcome["token"]) == (1, leaver.token)
            view = await back.expect("view")
            assert view["view"] == cb.to_data(left.view(1))
            back.last = (1, len(left.history))
            # the token used again replaces the connection that holds the seat
            again = await Raw.connect(port)
            await again.hello("bob", token=leaver.token)
            await back.error("replaced")
            assert await back.is_closed()
            assert (await again.expect("view"))["view"] == cb.to_data(left.view(1))
            again.last = back.last
            clients[1] = again
            await drive(server, clients, rng, lambda state: False)
            await server.wait()
        finally:
            await server.close()
        return server

    server = run(scenario())
    assert len(server.finished) == 1
    assert server.finished[0].is_over


def test_with_no_grace_the_server_bot_plays_for_a_player_who_left() -> None:
    """Grace 0: the server's bot moves for the absent seat at once; the token still brings it back."""

    async def scenario() -> Any:
        server = ts.TableServer(cb.CAVENDISH, deals=1, seed=2, grace=0.0)
        port = await server.start()
        try:
            clients = await seat_three(server, port)
            rng = random.Random(1)
            await drive(server, clients, rng, mid_play)
            left = server.state
            leaver = clients.pop(1)
            await leaver.close()
            await until(lambda: len(server.state.history) > len(left.history))
            assert server.state.history[len(left.history)][0] == 1  # seat 1's card, by the bot
            await catch_up(server, clients)
            back = await Raw.connect(port)
            assert (await back.hello("bob", token=leaver.token))["seat"] == 1
            view = await back.expect("view")
            assert view["view"] == cb.to_data(server.state.view(1))
            back.last = (1, len(server.state.history))
            clients[1] = back
            await drive(server, clients, rng, lambda state: False)
            await server.wait()
        finally:
            await server.close()
        return server

    server = run(scenario())
    assert server.finished[0].is_over


def test_after_the_grace_a_newcomer_may_take_the_seat_and_the_old_token_is_void() -> None:
    """Grace 0: a new player without a token sits in the empty seat; the leaver's token is refused."""

    async def scenario() -> None:
        server = ts.TableServer(cb.CAVENDISH, deals=1, seed=2, grace=0.0)
        port = await server.start()
        try:
            clients = await seat_three(server, port)
            await drive(server, clients, random.Random(1), mid_play)
            leaver = clients.pop(1)
            await leaver.close()
            await until(lambda: server.seats[1].conn is None)
            newcomer = await Raw.connect(port)
            welcome = await newcomer.hello("dan")
            assert welcome["seat"] == 1
            assert welcome["token"] != leaver.token
            assert (await newcomer.expect("view"))["view"] == cb.to_data(server.state.view(1))
            late = await Raw.connect(port)
            await late.send({"type": "hello", "name": "bob", "token": leaver.token})
            await late.error("bad_token")
        finally:
            await server.close()

    run(scenario())


def test_action_objects_read_as_the_text_forms() -> None:
    """An action written as an object is the action its words name."""
    cases = [
        ({"kind": "pass"}, cb.Pass()),
        ({"kind": "bid", "contract": "solo"}, cb.Bid(cb.Contract.SOLO)),
        ({"kind": "raise", "modifier": "dividete"}, cb.Raise(cb.Modifier.DIVIDETE)),
        ({"kind": "give_back", "card": "4d"}, cb.GiveBack(cb.Card.parse("4d"))),
        ({"kind": "play", "card": "Ad"}, cb.Play(cb.Card.parse("Ad"))),
        ("discard 4c", cb.Discard(cb.Card.parse("4c"))),
    ]
    for value, action in cases:
        assert ts.read_action(value) == action


def test_the_examples_run_with_no_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """`python examples/table_server.py` plays a demo match; `bot_client.py` one deal; both exit 0."""
    assert ts.main([]) == 0
    out = capsys.readouterr().out
    assert "ann sits at seat 0" in out
    assert "deal 3 (dealer 2)" in out
    assert "totals: ann" in out
    assert bc.main([]) == 0
    out = capsys.readouterr().out
    assert "north at seat 0" in out
    assert "0 errors" in out
    assert "payments:" in out
