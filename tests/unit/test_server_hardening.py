"""The table server held to its limits over 127.0.0.1 (TCP, standard library only).

Per-address caps, a hello due within its timeout whatever the client sends,
the lobby's rate limit and its ``too_many_errors``, the grace of a move not
refilled by coming back, saves retried until written, ``--resume`` refusing
a damaged ``table.json`` cleanly, and a seed of its own for each table of a
lobby. Every wait is bounded by the scenario's limit.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from server_kit import Raw, Watched, run, until

import calabrasella as cb
from calabrasella.server import Limits, Lobby, ResumeError, Table

Message = dict[str, Any]


def test_one_address_may_hold_only_its_share_of_connections() -> None:
    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=1, limits=Limits(per_address=4, max_connections=50))
        await table.start()
        try:
            clients = [await Raw.connect(table.port) for _ in range(4)]
            for client in clients:
                await client.send({"type": "ping"})
                assert (await client.recv())["type"] == "pong"
            extra = await Raw.connect(table.port)
            await extra.error("busy")
            assert await extra.is_closed()
            await clients[0].close()
            await until(lambda: len(table._conns) == 3)
            again = await Raw.connect(table.port)
            await again.send({"type": "ping"})
            assert (await again.recv())["type"] == "pong"
        finally:
            await table.close()

    run(scenario())


def test_the_hello_is_due_within_its_timeout_whatever_else_is_sent() -> None:
    async def scenario() -> tuple[float, Raw]:
        table = Table(cb.CAVENDISH, deals=1, limits=Limits(hello_timeout=0.5))
        await table.start()
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            client = await Raw.connect(table.port)
            for _ in range(40):  # a ping every 0.1 s: at most 4 s if it were never closed
                if client.reader.at_eof():
                    break
                await client.send({"type": "ping"})
                await asyncio.sleep(0.1)
                while not client.reader.at_eof():
                    try:
                        line = await asyncio.wait_for(client.reader.readline(), 0.01)
                    except asyncio.TimeoutError:
                        break
                    if line:
                        client.messages.append(json.loads(line))
            return loop.time() - started, client
        finally:
            await table.close()

    took, client = run(scenario())
    assert client.reader.at_eof(), "still open after 4 s of pings without a hello"
    assert any(m.get("code") == "timeout" for m in client.messages)
    assert took < 3.0


def test_the_lobby_throttles_an_unseated_connection_and_says_too_many_errors() -> None:
    async def scenario() -> tuple[int, list[Any]]:
        limits = Limits(rate=10.0, burst=10, max_errors=20)
        lobby = Lobby({"1": Table(cb.CAVENDISH, deals=1)}, limits)
        port = await lobby.start()
        try:
            client = await Raw.connect(port)
            await client.send(b'{"type": "tables"}\n' * 200)
            answers = 0
            loop = asyncio.get_running_loop()
            end = loop.time() + 1.0
            while (left := end - loop.time()) > 0:
                try:
                    line = await asyncio.wait_for(client.reader.readline(), left)
                except asyncio.TimeoutError:
                    break
                answers += bool(line)
            other = await Raw.connect(port)
            await other.send(b'{"type": "nonsense"}\n' * 25)
            assert await other.is_closed()
            return answers, other.messages
        finally:
            await lobby.close()

    answers, messages = run(scenario())
    assert answers <= 10 + 10 * 1.0 + 3  # the burst, then 10 a second (200 unthrottled)
    assert [m["code"] for m in messages][-1] == "too_many_errors"


def test_coming_back_does_not_refill_a_moves_grace() -> None:
    """A match bank, no move clock: 0.05 s back, 0.4 s away, again and again, cannot hold a move."""

    async def scenario() -> tuple[float, bool]:
        table = Watched(cb.CAVENDISH, deals=1, seed=5, bots=(1, 2), move_time=None,
                        match_time=0.6, grace=0.6)  # fmt: skip
        await table.start()
        loop = asyncio.get_running_loop()
        try:
            client = await Raw.connect(table.port)
            welcome = await client.hello("ann", seat=0)
            await until(lambda: table.state is not None and table.state.to_move == 0)
            assert table.state is not None
            key = (len(table.state.history), table.state.deal)
            started = loop.time()
            token = welcome["token"]
            await client.close()
            for _ in range(12):  # 12 x 0.45 s: the move would still wait without the fix
                await asyncio.sleep(0.4)
                if table.state is None or (len(table.state.history), table.state.deal) != key:
                    break
                client = await Raw.connect(table.port)
                await client.hello("ann", token=token)
                await asyncio.sleep(0.05)
                await client.close()
            moved = table.state is None or (len(table.state.history), table.state.deal) != key
            return loop.time() - started, moved
        finally:
            await table.close()

    took, moved = run(scenario())
    assert moved, "the move was still waiting after 12 comebacks"
    assert took < 0.6 + 0.6 + 0.9  # the bank (charged back) and one grace, with slack


def test_a_record_that_failed_to_save_is_written_once_it_can_be(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        # deal 2's record cannot be written while a folder stands where it goes
        blocker = tmp_path / "match001-deal002.json"
        (blocker / "x").mkdir(parents=True)
        table = Watched(cb.CAVENDISH, deals=3, seed=4, bots=(0, 1, 2), save_dir=tmp_path)
        table.SAVE_RETRY = 0.05
        await table.start()
        try:
            await until(lambda: len(table.finished) >= 2 or table.done.is_set())
            assert table.save_errors, "the blocked save did not fail"
            shutil.rmtree(blocker)
            await table.wait()
            await until(lambda: (blocker).is_file())  # retried until written
        finally:
            await table.close()
        return sorted(p.name for p in tmp_path.glob("match001-deal*.json"))

    names = run(scenario())
    assert names == [f"match001-deal00{n}.json" for n in (1, 2, 3)]
    record = json.loads((tmp_path / "match001-deal002.json").read_text())
    assert record["type"] == "record"


def _saved_table(folder: Path) -> dict[str, Any]:
    async def scenario() -> None:
        table = Table(cb.CAVENDISH, deals=2, seed=1, bots=(1, 2), save_dir=folder)
        await table.start()
        client = await Raw.connect(table.port)
        await client.hello("ann", seat=0)
        await asyncio.sleep(0.05)
        await table.close()

    run(scenario())
    data: dict[str, Any] = json.loads((folder / "table.json").read_text())
    return data


DAMAGES: list[tuple[str, Any]] = [
    ("matches_played", "x"),
    ("deals", None),
    ("grace", -1),
    ("move_time", "60"),
    ("banks", [1, 2]),
    ("bots", [7]),
    ("seats", "nobody"),
    ("token", "zz"),
    ("name", ""),
    ("seats_len", None),
]


@pytest.mark.parametrize(("key", "value"), DAMAGES, ids=[d[0] for d in DAMAGES])
def test_resume_refuses_a_damaged_table_json_cleanly(tmp_path: Path, key: str, value: Any) -> None:
    data = _saved_table(tmp_path)
    if key in ("token", "name"):
        data["seats"][0][key] = value
    elif key == "seats_len":
        data["seats"] = data["seats"][:2]
    else:
        data[key] = value
    (tmp_path / "table.json").write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="cannot resume"):
        Table.resume(tmp_path)


def test_serve_resume_on_a_damaged_file_says_cannot_resume_without_a_traceback(tmp_path: Path) -> None:
    data = _saved_table(tmp_path)
    data["seats"][0]["token"] = "zz"
    data.pop("deals")
    (tmp_path / "table.json").write_text(json.dumps(data))
    done = subprocess.run([sys.executable, "-m", "calabrasella", "serve", "--resume", str(tmp_path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2
    assert "cannot resume" in done.stderr and "Traceback" not in done.stderr


def test_each_table_of_a_seeded_lobby_deals_its_own_cards() -> None:
    command = [sys.executable, "-m", "calabrasella", "serve", "--port", "0", "--tables", "2",
               "--seed", "5", "--players", "1", "--deals", "1"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        port = int(line.split(" on ")[1].split()[0].rsplit(":", 1)[1])

        async def hands() -> list[list[str]]:
            found = []
            for name in ("1", "2"):
                client = await Raw.connect(port)
                await client.hello("ann", table=name, seat=0)
                view = await client.expect("view")
                found.append(view["view"]["hand"])
                await client.close()
            return found

        first, second = run(hands())
        assert first != second
    finally:
        proc.terminate()  # the server this test started, by its handle
        proc.wait(20)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_the_example_bot_client_prints_its_token_to_come_back_with() -> None:
    import re

    command = [sys.executable, "-m", "calabrasella", "serve", "--port", "0", "--players", "1",
               "--deals", "1", "--move-time", "0"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().split(" on ")[1].split()[0].rsplit(":", 1)[1]
        example = Path(__file__).parents[2] / "examples" / "bot_client.py"
        done = subprocess.run([sys.executable, str(example), "--port", port, "--name", "ann"],
                              capture_output=True, text=True, timeout=60)  # fmt: skip
    finally:
        proc.terminate()  # the server this test started, by its handle
        proc.wait(20)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^ann sits at seat 0; to come back to it: --token [0-9a-f]{32}$",
                     done.stdout, re.MULTILINE), done.stdout  # fmt: skip


def test_a_watcher_who_names_no_table_watches_the_lobbys_first_table() -> None:
    async def scenario() -> tuple[Message, int]:
        lobby = Lobby({"1": Table(cb.CAVENDISH, deals=10_000, bots=(0, 1, 2)),
                       "2": Table(cb.CAVENDISH, deals=10_000, bots=(0, 1, 2))})  # fmt: skip
        port = await lobby.start()
        try:
            client = await Raw.connect(port)
            welcome = await client.hello("eve", spectate=True)  # every seat taken: still welcome
            return welcome, len(lobby.tables["1"].spectators)
        finally:
            await lobby.close()

    welcome, watching = run(scenario())
    assert welcome["spectator"] is True and watching == 1


def test_serve_web_without_the_server_extra_serves_the_table_and_says_how_to_get_the_page() -> None:
    hide = ("import sys; sys.modules['starlette'] = None; sys.modules['uvicorn'] = None; "
            "from calabrasella.cli import main; sys.exit(main(sys.argv[1:]))")  # fmt: skip
    command = [sys.executable, "-c", hide, "serve", "--port", "0", "--web", "0", "--players", "1"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        port = int(line.split(" on ")[1].split()[0].rsplit(":", 1)[1])

        async def sit() -> Message:
            client = await Raw.connect(port)
            welcome = await client.hello("ann")
            await client.close()
            return welcome

        assert run(sit())["seat"] == 0
    finally:
        proc.terminate()  # the server this test started, by its handle
        proc.wait(20)
    assert proc.stderr is not None
    said = proc.stderr.read()
    for stream in (proc.stdout, proc.stderr):
        stream.close()
    assert "pip install 'calabrasella[server]'" in said and "TCP table only" in said
