"""``calabrasella serve --tables N --save DIR``, killed by SIGKILL, then ``--resume DIR``.

Every table of the lobby comes back as it last saved, and each player's
token sits it again at its own table (a hello with only the token finds the
table). The resumed matches end with the same totals as uninterrupted ones.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest
from test_server_process import WAIT, Client, check_against_records, play, serving

import calabrasella as cb

SETTINGS = ("--tables", "2", "--players", "1", "--seed", "11", "--deals", "3")
Message = dict[str, Any]


def mid_deal(deal: int, turn: int) -> Any:
    def stop(message: Message) -> bool:
        return bool(message["type"] == "view" and message["deal"] == deal
                    and message["turn"] >= turn)  # fmt: skip

    return stop


@pytest.mark.slow
def test_kill_9_then_resume_restores_every_table_of_a_lobby_with_its_tokens(tmp_path: Path) -> None:
    """Two tables, each with a player at seat 0, killed mid-deal; resumed: both matches end alike."""
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    ends = {}
    with serving(*SETTINGS, "--save", str(whole)) as (proc, port):
        for name in ("1", "2"):
            client = Client(port)
            try:
                ends[name] = play(client, {"name": f"p{name}", "table": name, "seat": 0},
                                  lambda _m: False)  # fmt: skip
            finally:
                client.close()
        assert proc.wait(WAIT) == 0
    assert all(end is not None and end["type"] == "match_over" for end in ends.values())

    hellos: dict[str, Message] = {name: {"name": f"p{name}", "table": name, "seat": 0}
                                  for name in ("1", "2")}  # fmt: skip
    firsts = {}
    with serving(*SETTINGS, "--save", str(broken)) as (proc, port):
        for name, stop in (("1", mid_deal(2, 6)), ("2", mid_deal(1, 8))):
            firsts[name] = client = Client(port)
            try:
                stopped = play(client, hellos[name], stop)
                assert stopped is not None and stop(stopped)
            finally:
                client.close()
        os.kill(proc.pid, signal.SIGKILL)  # the subprocess this test started
        assert proc.wait(WAIT) == -signal.SIGKILL
    saved = {name: cb.from_json((broken / name / "deal.json").read_text("utf-8"), cb.State)
             for name in ("1", "2")}  # fmt: skip
    at = {name: (len(cb.from_json((broken / name / "ledger.json").read_text("utf-8"),
                                  cb.Match).finished) + 1, len(saved[name].history))
          for name in ("1", "2")}  # fmt: skip
    assert at["1"][0] == 2 and at["2"][0] == 1

    with serving("--resume", str(broken)) as (proc, port):
        assert proc.stdout is not None
        for name in ("1", "2"):
            client = Client(port)
            try:  # only the token: the lobby finds its table
                again = play(client, {"name": f"p{name}", "token": hellos[name]["token"]},
                             lambda _m: False)  # fmt: skip
            finally:
                client.close()
            welcome = client.messages[0]
            assert welcome["type"] == "welcome" and welcome["token"] == hellos[name]["token"]
            resumed = next(m for m in client.messages if m["type"] == "view")
            assert (resumed["deal"], resumed["turn"]) == at[name]
            assert resumed["view"] == cb.to_data(saved[name].view(0))
            assert again is not None and again["type"] == "match_over"
            end = ends[name]
            assert end is not None and again["totals"] == end["totals"]
            check_against_records(broken / name, firsts[name].messages + client.messages)
        assert proc.wait(WAIT) == 0
    for name in ("1", "2"):
        ledgers = [cb.from_json((folder / name / "match001-ledger.json").read_text("utf-8"),
                                cb.Match) for folder in (whole, broken)]  # fmt: skip
        assert ledgers[0] == ledgers[1] and len(ledgers[0].finished) == 3
