"""``calabrasella serve`` as a process: the address it prints, SIGINT/SIGTERM, kill -9 and --resume.

Each server is a subprocess this test starts on a loopback port and stops
by its PID; every wait is bounded. A client plays seat 0 with a fixed
policy (the first legal action but a pass), the server's bot the other seats from
the seed, so an interrupted and resumed match can be compared with an
uninterrupted one.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from server_kit import check_messages

import calabrasella as cb
from calabrasella.server import web_available

Message = dict[str, Any]
WAIT = 20.0


@contextmanager
def serving(*args: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """Start ``calabrasella serve ARGS`` on a free loopback port; yield it and its port; kill it."""
    command = [sys.executable, "-m", "calabrasella", "serve", "--port", "0", *args]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], WAIT)
        assert ready, "the server printed nothing"
        line = proc.stdout.readline()
        assert line.startswith("serving "), (line, proc.stderr.read() if proc.stderr else "")
        address = line.split(" on ")[1].split()[0]
        host, port = address.rsplit(":", 1)
        assert host == "127.0.0.1"
        yield proc, int(port)
    finally:
        if proc.poll() is None:
            proc.kill()  # this test's own subprocess, by its handle
        proc.wait(WAIT)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


class Client:
    """A blocking JSON-lines client with a timeout on every read."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
        self.file = self.sock.makefile("rb")
        self.messages: list[Message] = []

    def send(self, message: Message) -> None:
        self.sock.sendall((json.dumps(message) + "\n").encode())

    def recv(self) -> Message | None:
        line = self.file.readline()
        if not line:
            return None
        message: Message = json.loads(line)
        self.messages.append(message)
        return message

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def first_legal(view: Message) -> str:
    """The policy: the first legal action the view lists that is not a pass (so deals are played)."""
    legal = view["view"]["legal_actions"]
    return str(next((text for text in legal if text != "pass"), legal[0]))


def play(client: Client, hello: Message, stop: Callable[[Message], bool]) -> Message | None:
    """Say hello and play seat 0 until ``stop`` says so or the match ends; return the last message."""
    client.send({"type": "hello", **hello})
    while (message := client.recv()) is not None:
        if message["type"] == "welcome":
            hello["token"] = message["token"]
        if stop(message) or message["type"] == "match_over":
            return message
        if message["type"] == "view" and message["view"]["legal_actions"]:
            client.send({"type": "action", "deal": message["deal"], "turn": message["turn"],
                         "action": first_legal(message)})  # fmt: skip
        assert message["type"] != "error", message
    return None


def check_against_records(folder: Path, messages: list[Message]) -> None:
    """Every message seat 0 got shows only what it may know, judged by the deals' saved records."""
    records = sorted(folder.glob("match001-deal*.json"))
    finished = [cb.from_json(path.read_text("utf-8"), cb.Record).replay() for path in records]
    check_messages(SimpleNamespace(finished=finished, state=None), 0, [
        message for message in messages if message["type"] not in ("welcome", "match_over")
    ])  # fmt: skip


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_prints_its_address_and_stops_cleanly_on_a_signal(sig: signal.Signals) -> None:
    """A player sits down; the signal tells it ``closing``, closes it, and the process exits 0."""
    with serving("--players", "2") as (proc, port):
        client = Client(port)
        try:
            client.send({"type": "hello", "name": "ann"})
            while (message := client.recv()) is not None and message["type"] != "table":
                pass
            proc.send_signal(sig)
            while (message := client.recv()) is not None:
                last = message
            assert last["type"] == "closing"
        finally:
            client.close()
        assert proc.wait(WAIT) == 0
        assert proc.stdout is not None and proc.stderr is not None
        out = proc.stdout.read()
        assert f"stopped by {sig.name}" in out
        assert "Traceback" not in proc.stderr.read()


def test_resume_of_a_folder_with_nothing_saved_is_one_line_and_status_2(tmp_path: Path) -> None:
    """No table there: a message, no traceback."""
    command = [sys.executable, "-m", "calabrasella", "serve", "--resume", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=WAIT, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("calabrasella serve: cannot resume from")
    assert "Traceback" not in done.stderr


def ledger(folder: Path) -> cb.Match:
    return cb.from_json((folder / "match001-ledger.json").read_text("utf-8"), cb.Match)


@pytest.mark.slow
def test_kill_9_then_resume_finishes_the_match_with_the_same_ledger(tmp_path: Path) -> None:
    """Killed in the middle of deal 2, resumed from its folder: the same deals, ledger and totals."""
    settings = ("--players", "1", "--seed", "11", "--deals", "3")
    whole, broken = tmp_path / "whole", tmp_path / "broken"

    with serving(*settings, "--save", str(whole)) as (proc, port):
        client = Client(port)
        try:
            end = play(client, {"name": "ann", "seat": 0}, lambda _m: False)
        finally:
            client.close()
        assert proc.wait(WAIT) == 0
    assert end is not None and end["type"] == "match_over"
    check_against_records(whole, client.messages)

    def mid_deal_2(message: Message) -> bool:
        return bool(message["type"] == "view" and message["deal"] == 2 and message["turn"] >= 6)

    hello: Message = {"name": "ann", "seat": 0}
    with serving(*settings, "--save", str(broken)) as (proc, port):
        first = Client(port)
        try:
            stopped = play(first, hello, mid_deal_2)
            assert stopped is not None and mid_deal_2(stopped)
            os.kill(proc.pid, signal.SIGKILL)  # the subprocess this test started
            assert proc.wait(WAIT) == -signal.SIGKILL
        finally:
            first.close()
    assert not (broken / "match001-ledger.json").exists() or len(ledger(broken).finished) < 3
    saved = cb.from_json((broken / "deal.json").read_text("utf-8"), cb.State)
    assert not saved.is_over
    with serving("--resume", str(broken)) as (proc, port):
        second = Client(port)
        try:
            again = play(second, {"name": "ann", "token": hello["token"]}, lambda _m: False)
        finally:
            second.close()
        assert proc.wait(WAIT) == 0
    assert second.messages[0]["type"] == "welcome"
    assert second.messages[0]["token"] == hello["token"]  # the token is valid after the restart
    assert again is not None and again["type"] == "match_over"
    assert again["totals"] == end["totals"]
    assert ledger(broken) == ledger(whole)
    assert len(ledger(whole).finished) == 3
    check_against_records(broken, first.messages + second.messages)
    # the deal in progress went on from its saved actions: not dealt again
    resumed = next(message for message in second.messages if message["type"] == "view")
    assert (resumed["deal"], resumed["turn"]) == (2, len(saved.history))
    assert resumed["view"] == cb.to_data(saved.view(0))


@pytest.mark.skipif(not web_available(), reason="the browser table needs the server extra")
def test_serve_with_a_lobby_and_the_browser_table_prints_both_addresses() -> None:
    """--tables 2 --web 0: the lobby lists two tables, the page is served, SIGTERM stops both."""
    with serving("--tables", "2", "--web", "0") as (proc, port):
        assert proc.stdout is not None
        web = proc.stdout.readline()  # printed at once after the first line (or EOF on failure)
        assert web.startswith("browser table on http://127.0.0.1:"), web
        web_port = int(web.rsplit(":", 1)[1].strip().rstrip("/"))
        client = Client(port)
        try:
            client.send({"type": "tables"})
            listing = client.recv()
            assert listing is not None
            assert [t["name"] for t in listing["tables"]] == ["1", "2"]
        finally:
            client.close()
        with socket.create_connection(("127.0.0.1", web_port), timeout=WAIT) as page:
            page.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer = b""
            while chunk := page.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200") and b"<title>calabrasella" in answer
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(WAIT) == 0
        assert "stopped by SIGTERM" in proc.stdout.read()


@pytest.mark.skipif(not web_available(), reason="the server extra is not installed")
def test_with_the_browser_table_serve_stays_up_after_the_match_for_linger_seconds() -> None:
    """Bots play a one-deal match; the page stays for --linger 1 s, then serve ends with status 0."""
    command = [sys.executable, "-m", "calabrasella", "serve", "--port", "0", "--web", "0",
               "--players", "0", "--deals", "1", "--seed", "3", "--linger", "1"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any("stays up after the last match for 1 s" in line for line in lines), lines
    assert lines[-1] == "done" and any(line.startswith("deal 1 ") for line in lines)
    assert "Traceback" not in done.stderr


def test_linger_must_be_a_number_of_seconds() -> None:
    command = [sys.executable, "-m", "calabrasella", "serve", "--linger", "-1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--linger must be a number of seconds" in done.stderr
