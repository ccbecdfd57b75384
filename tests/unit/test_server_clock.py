"""The per-match clock: a time bank per player per match, beside the per-move clock.

A quiet player (it reads but never acts) sits at seat 0 against the server's
bot; the times its moves took are read off the messages it got.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from server_kit import Raw, Watched, check_messages, run

import calabrasella as cb
from calabrasella.server import Table


async def quiet_match(server: Watched) -> list[tuple[float, dict[str, object]]]:
    """Seat 0 says hello and never acts; return each message it got with the time it came."""
    port = await server.start()
    loop = asyncio.get_running_loop()
    client = await Raw.connect(port)
    got: list[tuple[float, dict[str, object]]] = []
    try:
        await client.hello("quiet", seat=0)
        while (message := await client.recv())["type"] != "match_over":
            got.append((loop.time(), message))
        await server.wait()
    finally:
        await client.close()
        await server.close()
    check_messages(server, 0, client.messages[1:])
    return got


def turns_and_timeouts(got: list[tuple[float, dict[str, object]]]) -> list[tuple[float, str]]:
    """For each of seat 0's turns: the seconds from its view to its timeout, and which clock ran out."""
    begun: dict[tuple[object, object], float] = {}
    out = []
    for when, message in got:
        if message["type"] == "view":
            view = message["view"]
            assert isinstance(view, dict)
            if view["legal_actions"]:
                begun.setdefault((message["deal"], message["turn"]), when)
        elif message["type"] == "timeout":
            start = begun.pop((message["deal"], message["turn"]))
            out.append((when - start, str(message["clock"])))
    assert not begun, f"turns with no timeout: {sorted(begun)}"
    return out


def test_a_spent_match_clock_has_the_bot_move_at_once_and_the_player_told() -> None:
    """A 1 s bank and no move clock: the bank goes on the first turns, then every move is instant.

    A clock cannot run out early, so the lower bounds are exact; the upper ones allow
    for a loaded machine (a message may come late) but not for a second bank.
    """
    bank = 1.0
    server = Watched(cb.CAVENDISH, deals=1, seed=4, move_time=None, match_time=bank, bots=(1, 2))
    got = run(quiet_match(server))
    timed = turns_and_timeouts(got)
    assert len(timed) >= 5 and {which for _, which in timed} == {"match"}
    assert timed[0][0] >= bank - 0.01  # the whole bank went on the first turn
    assert all(seconds < bank for seconds, _ in timed[1:])  # then nothing was left
    banks = [m["banks"] for _, m in got if m["type"] == "view"]
    assert banks[0] == [bank, bank, bank]
    assert banks[-1] == [0.0, bank, bank]  # the bot's seats spend nothing
    mine = [b[0] for b in banks if isinstance(b, list)]
    assert mine == sorted(mine, reverse=True)


def test_the_move_clock_runs_out_first_until_the_bank_is_lower() -> None:
    """0.1 s a move and 1 s a match: the first turns time out on the move clock, the rest on the bank.

    (At least two on the move clock even if a loaded machine fires each clock late.)
    """
    server = Watched(cb.CAVENDISH, deals=1, seed=4, move_time=0.1, match_time=1.0, bots=(1, 2))
    timed = turns_and_timeouts(run(quiet_match(server)))
    kinds = [which for _, which in timed]
    moves = kinds.index("match")
    assert moves >= 2 and kinds == ["move"] * moves + ["match"] * (len(kinds) - moves), kinds
    assert all(0.09 <= seconds < 1.0 for seconds, _ in timed[:moves])


def test_a_player_who_answers_at_once_is_never_timed_out_by_its_bank() -> None:
    """A 20 s bank, answers at once: a whole match with no timeout, some of the bank spent.

    (A bank that a loaded machine could not outlast by answering at once would test the load.)
    """

    async def scenario() -> list[dict[str, Any]]:
        server = Watched(cb.CAVENDISH, deals=2, seed=8, move_time=None, match_time=20.0,
                         bots=(1, 2))  # fmt: skip
        port = await server.start()
        client = await Raw.connect(port)
        try:
            await client.hello("quick", seat=0)
            while (message := await client.recv())["type"] != "match_over":
                if message["type"] == "view" and message["view"]["legal_actions"]:
                    action = message["view"]["legal_actions"][-1]
                    await client.send({"type": "action", "deal": message["deal"],
                                       "turn": message["turn"], "action": action})  # fmt: skip
            await server.wait()
        finally:
            await client.close()
            await server.close()
        check_messages(server, 0, client.messages[1:])
        return client.messages

    messages = run(scenario())
    assert "timeout" not in [m["type"] for m in messages]
    last = [m["banks"] for m in messages if m["type"] == "view"][-1]
    assert 10.0 < last[0] < 20.0 and last[1:] == [20.0, 20.0]


def test_the_banks_are_saved_after_each_deal_and_resumed(tmp_path: Path) -> None:
    """table.json keeps the banks after a deal; a resumed table starts from them."""

    async def scenario() -> None:
        server = Watched(cb.CAVENDISH, deals=2, seed=4, move_time=None, match_time=0.3,
                         bots=(1, 2), save_dir=tmp_path)  # fmt: skip
        port = await server.start()
        client = await Raw.connect(port)
        try:
            await client.hello("quiet", seat=0)
            while (await client.recv())["type"] != "over":
                pass
        finally:
            await server.close()
            await client.close()

    run(scenario())
    saved = json.loads((tmp_path / "table.json").read_text("utf-8"))
    assert saved["match_time"] == 0.3 and saved["banks"][1:] == [0.3, 0.3]
    assert saved["banks"][0] < 0.05  # seat 0 spent its bank in deal 1
    resumed = Table.resume(tmp_path)
    assert resumed.match_time == 0.3 and resumed.clocks.banks == saved["banks"]
