"""calabrasella.server is fair and safe by default: each defect of the old example has a test here.

Unpredictable deals, the move clock, throttled floods, slow readers really
dropped, a connection cap and timeouts, failed saves that do not stop the
table, and memory that does not grow with the deals played. Every message
every client received is checked against what its seat may know.
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest
from server_kit import (
    Message,
    Raw,
    Watched,
    cards_in,
    check_messages,
    position,
    run,
    seat_three,
    state_at,
    until,
)
from support import load_example

import calabrasella as cb
from calabrasella.server import Limits, Lobby, Table, public_view_data
from calabrasella.testing import cards_seat_may_know

bc = load_example("bot_client")


async def bots_play(server: Watched, port: int, **more: Any) -> list[Any]:
    """Three example bot clients play the table's match to its end."""
    bots = [bc.play("127.0.0.1", port, name=f"p{n}", seat=n, seed=n, **more) for n in range(3)]
    outcomes = await asyncio.gather(*bots)
    await server.wait()
    for seat, outcome in enumerate(outcomes):
        check_messages(server, seat, outcome.messages)
    return list(outcomes)


def test_unseeded_tables_deal_from_the_system_and_a_seed_is_told_only_after_the_match() -> None:
    """No seed: two tables deal different cards. A seed reaches the players only in match_over."""

    async def one(seed: int | None) -> tuple[Watched, list[Any]]:
        server = Watched(cb.CAVENDISH, deals=2, seed=seed)
        port = await server.start()
        try:
            return server, await bots_play(server, port)
        finally:
            await server.close()

    first, outcomes = run(one(None))
    second, _ = run(one(None))
    assert first.finished[0].deal != second.finished[0].deal
    assert [first.finished[n].deal == second.finished[n].deal for n in range(2)] == [False] * 2
    assert all(outcome.messages[-1]["seed"] is None for outcome in outcomes)
    seed = 918273645546372819
    seeded, outcomes = run(one(seed))
    for outcome in outcomes:
        *before, last = outcome.messages
        assert last["type"] == "match_over"
        assert last["seed"] == seed
        assert all(str(seed) not in json.dumps(message) for message in before)
    again, _ = run(one(seed))  # a given seed deals the same cards: records stay replayable
    assert [s.deal for s in again.finished] == [s.deal for s in seeded.finished]


@pytest.mark.slow
def test_a_quiet_seat_moves_on_the_clock_and_its_player_is_told() -> None:
    """The mover says nothing: after move_time the bot moves for it, it gets a timeout, the rest goes on."""

    async def scenario() -> None:
        server = Watched(cb.CAVENDISH, deals=1, seed=4, move_time=0.3, grace=60.0)
        port = await server.start()
        try:
            clients = await seat_three(server, port)
            state = server.state
            assert state is not None and state.to_move is not None
            mover = state.to_move
            deal, turn = position(server)
            started = time.monotonic()
            await until(lambda: server.state is not state)
            waited = time.monotonic() - started
            assert 0.2 <= waited < 30.0  # not before the clock; the bound is only for a hang
            assert server.state is not None
            assert server.state.history[turn][0] == mover  # the bot moved for the quiet seat
            timeout = await clients[mover].expect("timeout")
            assert (timeout["deal"], timeout["turn"]) == (deal, turn)
            assert cb.parse_action(timeout["action"]) == server.state.history[turn][1]
            # the player's late answer to that turn is refused, not applied to the next one
            late = {"type": "action", "deal": deal, "turn": turn, "action": timeout["action"]}
            await clients[mover].send(late)
            while (message := await clients[mover].recv())["type"] != "error":
                assert message["type"] in ("view", "table", "timeout"), message
            assert message["code"] == "stale", message
            server.move_time = 0.01  # the rest of the deal on a short clock, to keep the test short
            # the whole deal then plays itself out on the clock, nobody saying a word
            await server.wait()
            for seat, client in clients.items():
                await client.close()
                check_messages(server, seat, client.messages)
        finally:
            await server.close()

    run(scenario(), limit=60.0)


def _match_time(flood: bool) -> float:
    """Seconds a 4-deal match of three bot clients takes, with or without a flooding client."""

    async def scenario() -> float:
        server = Watched(cb.CAVENDISH, deals=4, seed=8, move_time=None)
        port = await server.start()
        stop = asyncio.Event()
        sent = [0]

        async def flooder() -> None:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            chunk = b"x\n" * 32768
            deadline = time.monotonic() + 20.0
            try:
                while not stop.is_set() and time.monotonic() < deadline and sent[0] < 10**8:
                    writer.write(chunk)
                    sent[0] += len(chunk)
                    try:
                        await asyncio.wait_for(writer.drain(), 0.05)
                    except asyncio.TimeoutError:
                        await asyncio.sleep(0)
            except OSError:
                pass  # the server closed it: fine
            finally:
                writer.transport.abort()

        flooding = asyncio.ensure_future(flooder()) if flood else None
        try:
            if flood:
                await asyncio.sleep(0.05)
            started = time.monotonic()
            await bots_play(server, port)
            took = time.monotonic() - started
        finally:
            stop.set()
            if flooding is not None:
                await flooding
            await server.close()
        assert not flood or sent[0] > 0
        return took

    return run(scenario(), limit=40.0)


@pytest.mark.slow
def test_a_flooding_client_does_not_slow_a_match_by_more_than_twice() -> None:
    """A client sending bad lines as fast as it can is throttled; the match takes under 2x as long.

    Wall times on a shared machine are noisy: up to three rounds, each timing the match
    without and with the flood; the best times of the rounds so far must keep the ratio.
    Without the throttle the flooded match is slower in every round, and this fails.
    """
    quiet: list[float] = []
    flooded: list[float] = []
    for _ in range(3):
        quiet.append(_match_time(False))
        flooded.append(_match_time(True))
        if min(flooded) <= 2 * min(quiet) + 0.1:
            return
    pytest.fail(f"flooded {flooded} s against {quiet} s without the flood")


@pytest.mark.slow
def test_a_client_that_stops_reading_is_dropped_and_its_table_goes_on() -> None:
    """Its unread output passes the limit: its transport is aborted, its seat waits out its grace."""

    async def scenario() -> None:
        limits = Limits(pending_bytes=32 * 1024, send_buffer=4096)
        lines: list[str] = []
        server = Watched(cb.CAVENDISH, deals=3, seed=6, move_time=0.05, grace=0.2, limits=limits,
                         log=lines.append)  # fmt: skip
        port = await server.start()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        loop = asyncio.get_running_loop()
        await loop.sock_connect(sock, ("127.0.0.1", port))
        await loop.sock_sendall(sock, b'{"type": "hello", "name": "sleepy", "seat": 0}\n')
        try:
            others = [bc.play("127.0.0.1", port, name=f"p{n}", seat=n, seed=n) for n in (1, 2)]
            outcomes = await asyncio.gather(*others)  # the match ends although seat 0 never reads
            await server.wait()
            assert all(outcome.totals is not None for outcome in outcomes)
            assert len(server.finished) == 3
            # seat 0 was dropped as a slow reader (not at the match's end), then the bot played it
            assert "sleepy left seat 0 (slow)" in lines, "\n".join(lines)
            assert any(
                message["type"] == "table" and not message["players"][0]["connected"]
                for message in outcomes[0].messages
            )
            for seat, outcome in zip((1, 2), outcomes):
                check_messages(server, seat, outcome.messages)
            # what seat 0 did get before it was dropped shows only what it may know
            got = b""
            while chunk := await loop.sock_recv(sock, 1 << 16):  # the server aborted: ends
                got += chunk
            received = [json.loads(line) for line in got.splitlines() if line.endswith(b"}")]
            check_messages(server, 0, [m for m in received if m["type"] != "welcome"])
        except ConnectionResetError:
            pass  # an abort may reset the connection before the unread data is read
        finally:
            sock.close()
            await server.close()

    run(scenario(), limit=60.0)


def test_a_connection_cap_and_timeouts_for_connections_that_say_nothing() -> None:
    """Over the cap a connection is told busy and closed; a silent one is closed after its timeout."""

    async def scenario() -> None:
        server = Watched(cb.CAVENDISH, deals=1, limits=Limits(max_connections=3, hello_timeout=0.3))
        port = await server.start()
        try:
            idle = [await Raw.connect(port) for _ in range(3)]
            await until(lambda: len(server._conns) == 3)
            extra = await Raw.connect(port)
            await extra.error("busy")
            assert await extra.is_closed()
            for client in idle:  # none said hello within 0.3 s
                await client.error("timeout")
                assert await client.is_closed()
            await until(lambda: len(server._conns) == 0)
            welcome = await (await Raw.connect(port)).hello("ann")
            assert welcome["seat"] == 0
        finally:
            await server.close()

    run(scenario())


def test_a_failed_save_is_reported_and_the_table_plays_on(tmp_path: Path) -> None:
    """The save folder cannot be made: every save fails, each is reported, the match is played."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be\n", encoding="utf-8")
    lines: list[str] = []

    async def scenario() -> tuple[Watched, list[Any]]:
        server = Watched(cb.CAVENDISH, deals=3, seed=2, save_dir=blocked, log=lines.append)
        port = await server.start()
        try:
            return server, await bots_play(server, port)
        finally:
            await server.close()

    server, outcomes = run(scenario())
    assert len(server.finished) == 3
    assert all(outcome.totals == list(cb.Match(rules=cb.CAVENDISH, deals=3,
               finished=tuple(server.finished)).totals) for outcome in outcomes)  # fmt: skip
    assert server.save_errors
    # every save failed, for two causes (the folder is a file: "file exists" to make it,
    # "not a directory" to remove the deal in progress): each is logged and told once
    errors = [line for line in lines if line.startswith("error: could not save")]
    assert len(errors) == 2, errors
    assert "File exists" in errors[0] and "Not a directory" in errors[1]
    for outcome in outcomes:  # told only to who sat when the cause first showed
        notices = [m for m in outcome.messages if m["type"] == "notice"]
        assert len(notices) <= 2 and all(n["code"] == "save_failed" for n in notices)


def test_a_save_refused_with_a_new_file_name_each_time_is_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Permission denied names the temporary file, new at each save: still one notice and one line."""
    import itertools
    import tempfile

    names = itertools.count()

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise PermissionError(13, "Permission denied", str(tmp_path / f".table.json.{next(names)}.tmp"))

    monkeypatch.setattr(tempfile, "mkstemp", refused)  # the table's atomic writes make one
    lines: list[str] = []

    async def scenario() -> tuple[Watched, list[Any]]:
        server = Watched(cb.CAVENDISH, deals=3, seed=2, save_dir=tmp_path, log=lines.append)
        port = await server.start()
        try:
            return server, await bots_play(server, port)
        finally:
            await server.close()

    server, outcomes = run(scenario())
    assert len(server.finished) == 3
    assert next(names) > 20  # the saves were tried again and again, each with a new name
    assert len([line for line in lines if line.startswith("error: could not save")]) == 1
    notices = [[m for m in outcome.messages if m["type"] == "notice"] for outcome in outcomes]
    assert max(map(len, notices)) <= 1  # told at most once (here before anyone sat)


def test_finished_deals_are_not_kept_after_their_match() -> None:
    """A table of bots playing match after match holds as many states at match 40 as at match 5."""
    counts: dict[int, int] = {}

    def count(table: Table) -> None:
        if table.matches_played in (5, 40) and table.matches_played not in counts:
            gc.collect()
            counts[table.matches_played] = sum(isinstance(o, cb.State) for o in gc.get_objects())

    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=2, matches=41, seed=1, bots=(0, 1, 2))
        table.on_finished = lambda _state: count(table)
        await table.start()
        try:
            await table.wait()
        finally:
            await table.close()

    run(scenario(), limit=60.0)
    assert set(counts) == {5, 40}
    assert counts[40] <= counts[5] + 2, counts


def test_a_bots_only_table_plays_with_random_choices_under_no_seed() -> None:
    """Unseeded, the server's bot and chance use the system's source: two tables differ."""

    async def one() -> list[cb.State]:
        table = Watched(cb.CALABRESELLA, deals=2, bots=(0, 1, 2))
        await table.start()
        try:
            await table.wait()
        finally:
            await table.close()
        return table.finished

    first, second = run(one()), run(one())
    assert [s.history for s in first] != [s.history for s in second]


def test_resume_after_a_crash_between_a_deals_ledger_and_the_next_deal(tmp_path: Path) -> None:
    """deal.json still holds the finished deal's last unfinished state: it is not played again."""

    async def play(table: Table) -> None:
        await table.start()
        try:
            await table.wait()
        finally:
            await table.close()

    whole = Watched(cb.CAVENDISH, deals=3, seed=9, bots=(0, 1, 2), save_dir=tmp_path / "whole")
    run(play(whole))
    first = whole.finished[0]
    folder = tmp_path / "crashed"
    folder.mkdir()
    settings = json.loads((tmp_path / "whole" / "table.json").read_text("utf-8"))
    settings["matches_played"] = 0
    (folder / "table.json").write_text(json.dumps(settings), "utf-8")
    (folder / "ledger.json").write_text(
        cb.to_json(cb.Match(rules=cb.CAVENDISH, deals=3, finished=(first,))), "utf-8"
    )
    before_last = list(cb.Record.from_state(first).states())[-2]
    (folder / "deal.json").write_text(cb.to_json(before_last), "utf-8")
    resumed = Table.resume(folder)
    assert resumed.state is None
    assert resumed.match.finished == (first,)
    finished: list[cb.State] = []
    resumed.on_finished = finished.append
    run(play(resumed))
    assert finished == whole.finished[1:]  # the same deals 2 and 3, dealt from the seed
    ledger = cb.from_json((folder / "match001-ledger.json").read_text("utf-8"), cb.Match)
    assert ledger.finished == tuple(whole.finished)


def test_spectators_see_only_what_every_seat_may_know() -> None:
    """A spectator gets each state's public view: no hand, no card some seat may not know."""

    async def scenario() -> tuple[Watched, list[Message]]:
        server = Watched(cb.CALABRESELLA, deals=3, seed=12, move_time=None)
        port = await server.start()
        try:
            watcher = await Raw.connect(port)
            welcome = await watcher.hello("eve", spectate=True)
            assert welcome["spectator"] is True and welcome["seat"] is None
            await watcher.send({"type": "action", "deal": 1, "turn": 0, "action": "pass"})
            await watcher.error("not_seated")
            await bots_play(server, port, choose=bold)
            assert await watcher.is_closed()  # closed with the players at the match's end
        finally:
            await server.close()
        return server, watcher.messages

    server, messages = run(scenario())
    views = [m for m in messages if m["type"] == "view"]
    expected = [(n, t) for n, final in enumerate(server.finished, start=1)
                for t in range(len(final.history) + 1)]  # fmt: skip
    assert [(m["deal"], m["turn"]) for m in views] == expected
    hidden_seen = False
    for message in views:
        state = state_at(server, message["deal"], message["turn"])
        assert message["view"] == public_view_data(state)
        assert message["view"]["hand"] == [] and message["view"]["legal_actions"] == []
        common = set.intersection(*({c.code for c in cards_seat_may_know(state, seat)}
                                    for seat in range(3)))  # fmt: skip
        assert cards_in(message) <= common, cards_in(message) - common
        hidden_seen |= "hidden" in json.dumps(message["view"]["history"])
    assert hidden_seen  # some seat's private move was shown face down
    assert [m for m in messages if m["type"] == "over"]
    assert messages[-1]["type"] == "match_over"


def bold(view: cb.View, rng: Any) -> cb.Action:
    """Bid and raise whenever allowed, so deals have an exchange with private moves."""
    for action in view.legal_actions:
        if isinstance(action, (cb.Bid, cb.Raise)):
            return action
    result: cb.Action = bc.random_choice(view, rng)
    return result


def test_a_lobby_lists_its_tables_and_seats_players_and_spectators_at_them() -> None:
    """Two tables behind one port: a listing, seat choice by table name, a spectator, a bad name."""

    async def first_legal(client: Raw) -> Message:
        """Play the seat with the first legal action but a pass, to the end of the match."""
        while (message := await client.recv())["type"] != "match_over":
            legal = message["view"]["legal_actions"] if message["type"] == "view" else []
            if legal:
                action = next((text for text in legal if text != "pass"), legal[0])
                await client.send({"type": "action", "deal": message["deal"],
                                   "turn": message["turn"], "action": action})  # fmt: skip
        return message

    async def scenario() -> tuple[dict[str, Watched], dict[str, Raw]]:
        tables = {name: Watched(cb.CAVENDISH, deals=2, seed=n, bots=(1, 2), move_time=None)
                  for n, name in enumerate(("a", "b"))}  # fmt: skip
        lobby = Lobby(tables)
        port = await lobby.start()
        try:
            asker = await Raw.connect(port)
            await asker.send({"type": "tables"})
            listing = await asker.expect("tables")
            assert [t["name"] for t in listing["tables"]] == ["a", "b"]
            assert listing["tables"][0]["players"] == [None, {"name": "bot 1", "connected": False,
                                                       "bot": True}, {"name": "bot 2",
                                                       "connected": False, "bot": True}]  # fmt: skip
            await asker.send({"type": "hello", "name": "x", "table": "zz"})
            await asker.error("bad_message")
            watcher = await Raw.connect(port)
            await watcher.hello("eve", table="b", spectate=True)
            bea = await Raw.connect(port)
            assert (await bea.hello("bea", table="b"))["seat"] == 0
            ann = await Raw.connect(port)
            assert (await ann.hello("ann"))["seat"] == 0  # the first table with a free seat: a
            ends = await asyncio.gather(first_legal(ann), first_legal(bea))
            await lobby.wait()
            assert await watcher.is_closed()
            assert [end["players"][0] for end in ends] == ["ann", "bea"]
        finally:
            await lobby.close()
        return tables, {"a": ann, "b": bea, "watch": watcher}

    tables, clients = run(scenario())
    for name in ("a", "b"):
        assert len(tables[name].finished) == 2
        check_messages(tables[name], 0, [m for m in clients[name].messages if m["type"] != "welcome"])
    for message in clients["watch"].messages:
        if message["type"] == "view":
            state = state_at(tables["b"], message["deal"], message["turn"])
            assert message["view"] == public_view_data(state)
