"""calabrasella.server and examples/bot_client.py, end to end over loopback sockets.

Each test starts a table on an ephemeral loopback port and plays with real
TCP clients: the bot client of the example, or a hand-driven client that
sends what the test says. Every message a client receives is checked
against what its seat may know (server_kit.check_messages). Each test runs
under a 20-second limit, so a bug cannot hang the run.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from server_kit import (
    Message,
    Raw,
    Watched,
    act,
    action_message,
    catch_up,
    check_views_in_order,
    drive,
    mid_play,
    run,
    seat_three,
    until,
)
from support import load_example

import calabrasella as cb
from calabrasella.server import Limits, read_action

ts = load_example("table_server")
bc = load_example("bot_client")


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
        server: Any = Watched(rules, deals=3, seed=5, save_dir=tmp_path)
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
                                        "players": ["p0", "p1", "p2"], "seed": 5,
                                        "closed": True}  # fmt: skip
    if choose is bold:  # the server resolved dividete's draw, and each seat saw only its part
        assert any(isinstance(a, cb.Draw) for s in server.finished for _, a in s.history)
    paths = sorted(tmp_path.glob("match001-deal*.json"))
    assert [p.name for p in paths] == [f"match001-deal00{n}.json" for n in (1, 2, 3)]
    ledger = cb.from_json((tmp_path / "match001-ledger.json").read_text("utf-8"), cb.Match)
    assert ledger.finished == tuple(server.finished)
    assert list(ledger.totals) == totals
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temp
    for path, final in zip(paths, server.finished):
        record = cb.from_json(path.read_text(encoding="utf-8"), cb.Record)
        assert record.replay() == final
        assert record.tags["players"] == "p0, p1, p2"


def test_bad_messages_get_an_error_and_change_nothing() -> None:
    """Garbage, wrong shapes, non-actions, illegal or another seat's actions: an error, same state."""

    async def scenario() -> None:
        server: Any = Watched(cb.CAVENDISH, deals=1, seed=3, grace=60.0)
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
                (b'{"type": "action", "deal": 1, "turn": 0, "action": 42}\n', "bad_message"),
                (b'{"type": "action", "deal": 1, "turn": 0, "action": "fly me to the moon"}\n', "bad_action"),
                (b'{"type": "action", "deal": 1, "turn": 0, "action": {"kind": "play", "card": "Zz"}}\n', "bad_action"),
                (b'{"type": "action", "deal": 1, "turn": 0, "action": {"kind": "pass", "x": 1}}\n', "bad_action"),
                (b'{"type": "action", "deal": 1, "turn": 0, "action": {"card": "Ad"}}\n', "bad_action"),
                # no card is played in the auction; a draw is chance's, never a seat's
                (b'{"type": "action", "deal": 1, "turn": 0, "action": "play Ad"}\n', "illegal"),
                (b'{"type": "action", "deal": 1, "turn": 0, "action": "draw 7c 6c"}\n', "illegal"),
                (b'{"type": "hello", "name": "again"}\n', "already_seated"),
                # an action names the view it answers; an answer to another is stale
                (b'{"type": "action", "action": "pass"}\n', "bad_message"),
                (b'{"type": "action", "deal": 1, "turn": "0", "action": "pass"}\n', "bad_message"),
                (b'{"type": "action", "deal": 1, "turn": 1, "action": "pass"}\n', "stale"),
                (b'{"type": "action", "deal": 0, "turn": 0, "action": "pass"}\n', "stale"),
                (b'{"type": "action", "deal": 2, "turn": 0, "action": "pass"}\n', "stale"),
            ]
            for line, code in cases:
                await client.send(line)
                await client.error(code)
                assert server.state is state, line
            # another seat sends the mover's legal action: refused, naming both seats
            legal = str(state.legal_actions()[0])
            await clients[other].send(action_message(server, legal))
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
                ({"token": "\ud800"}, "bad_token"),  # a lone surrogate: refused, not a crash
                ({"token": "\ud800" * 32}, "bad_token"),
                ({"token": "é" * 32}, "bad_token"),
                ({"token": 7}, "bad_token"),
            ]
            for hello, code in hellos:
                await stranger.send({"type": "hello", "name": "dan", **hello})
                await stranger.error(code)
            for name in ("", "   ", "\x07bell", "x" * 33, 5, "\ud800"):
                await stranger.send({"type": "hello", "name": name})
                await stranger.error("bad_message")
            # the connection lived through all that
            await stranger.send({"type": "ping"})
            assert (await stranger.expect("pong")) == {"type": "pong"}
            # asking for the view again gives the same view
            await client.send({"type": "view"})
            assert (await client.expect("view"))["view"] == cb.to_data(state.view(mover))
            assert server.state is state
            # a line over the limit: an error, then the server hangs up; the seat is kept
            await clients[other].send(b'{"type": "' + b"x" * (2 * Limits().line_bytes) + b'"}\n')
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
        server: Any = Watched(cb.CAVENDISH, deals=1, seed=2, grace=60.0)
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
            assert table["players"][1] == {"name": "bob", "connected": False, "bot": False}
            # seat 0 may not play for seat 1, and nothing moves while seat 1 is away
            await clients[0].send(action_message(server, str(left.legal_actions()[0])))
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
        server: Any = Watched(cb.CAVENDISH, deals=1, seed=2, grace=0.0)
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
        server: Any = Watched(cb.CAVENDISH, deals=1, seed=2, grace=0.0)
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
        assert read_action(value) == action


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
