"""calabrasella simulate: many deals between bots, the same table serially and on processes."""

from __future__ import annotations

import os
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import calabrasella as cb
from calabrasella.cli import main
from calabrasella.cli._play import heuristic_opponent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_prints_a_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The table names the rules, the deals, the seed, each player and the contracts."""
    status, out, err = run(capsys, "--deals", "12", "--seed", "3", "--no-progress")
    assert status == 0 and err == ""
    assert out.startswith("cavendish: 12 deals, seed 3, seats rotated\n")
    assert "0 heuristic" in out and "1 random" in out and "2 random" in out
    assert "95% CI" in out


def test_the_same_table_on_two_processes(capsys: pytest.CaptureFixture[str]) -> None:
    """--workers 2 gives exactly the serial table (per-deal seeds from the master seed)."""
    args = ("--rules", "calabresella", "--bots", "random", "--deals", "30", "--seed", "5")
    _, serial, _ = run(capsys, *args, "--no-progress")
    _, pooled, _ = run(capsys, *args, "--workers", "2", "--no-progress")
    assert serial == pooled


def test_progress_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """--progress draws the bar on stderr, ending at the total; stdout holds only the table."""
    status, out, err = run(capsys, "--deals", "4", "--progress")
    assert status == 0
    assert err.endswith("4/4 deals\n")
    assert "deals\r" not in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bots", "oracle"], "no bot called 'oracle'"),
        (["--bots", "random,random"], "2 names for 3 players"),
        (["--deals", "0"], "--deals 0"),
        (["--workers", "0"], "--workers 0"),
        (["--rules", "whist"], "--rules whist"),
        (["--option", "stramazzo=never", "--rules", "calabresella"], "--option"),
    ],
)
def test_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """A bad argument prints the usage and a one-line error, exit status 2, no traceback."""
    with pytest.raises(SystemExit) as info:
        main(["simulate", *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert words in err
    assert "Traceback" not in err


def test_play_may_seat_heuristic_opponents() -> None:
    """play --opponents heuristic: the bot answers with one of the view's legal actions."""
    view = cb.new_deal(cb.CALABRESELLA, seed=4).view(1)
    assert heuristic_opponent(2)(view) in view.legal_actions


def test_bots_by_short_name_and_by_module_and_class() -> None:
    from calabrasella.bots import HeuristicBot, SamplingBot
    from calabrasella.cli._simulate import parse_bots
    from calabrasella.errors import CommandError

    assert parse_bots("sampling,calabrasella.bots:HeuristicBot,random", 3)[:2] == [SamplingBot, HeuristicBot]
    for bad, said in [
        ("nosuchmodule_h7:Bot", "cannot import 'nosuchmodule_h7'"),
        ("calabrasella.bots:NoSuchBot", "module 'calabrasella.bots' has no 'NoSuchBot'"),
        ("calabrasella.bots:__doc__", "is not a bot: a str, not a bot class"),
        (":Bot", "expected module:Class"),
    ]:
        with pytest.raises(CommandError, match=re.escape(said)):
            parse_bots(bad, 3)


def test_the_help_writes_a_percent_sign_once(capsys: pytest.CaptureFixture[str]) -> None:
    """simulate --help says "95% confidence interval", not "95%%"."""
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "95% confidence" in " ".join(out.split())
    assert "%%" not in out


MYBOTS = """
import calabrasella as cb

class GreedyBot:
    name = "greedy"
    def __init__(self, rng):
        self.rng = rng
    def choose(self, view):
        return view.legal_actions[0]

class NoChoose:
    def __init__(self, rng):
        pass

class CheatBot:  # plays the ace of coins when it is to bid
    name = "cheat"
    def __init__(self, rng):
        pass
    def choose(self, view):
        return cb.Play(cb.Card.parse("Ad"))

def make_nothing(rng):
    return 42
"""


@pytest.fixture
def bots_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A module of bots in the current folder, which is not on sys.path (as under the
    installed ``calabrasella`` script); yields its name."""
    name = f"mybots_{os.getpid()}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MYBOTS), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    here = str(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if os.path.abspath(p or ".") != here])
    yield name
    sys.modules.pop(name, None)


def test_a_bot_module_in_the_current_folder_is_found(
    capsys: pytest.CaptureFixture[str], bots_here: str
) -> None:
    """--bots mybots:GreedyBot imports mybots.py from the current folder, as python -m does."""
    status, out, err = run(capsys, "--bots", f"{bots_here}:GreedyBot", "--deals", "3", "--no-progress")
    assert (status, err) == (0, "")
    assert "0 greedy" in out and "2 greedy" in out


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("collections:OrderedDict", "the class OrderedDict has no choose(view) method"),
        ("os:system", "calling it with a random.Random raised TypeError"),
        ("{here}:NoChoose", "the class NoChoose has no choose(view) method"),
        ("{here}:make_nothing", "it returned int, which has no choose(view) method"),
    ],
)
def test_something_that_is_not_a_bot_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], bots_here: str, name: str, words: str
) -> None:
    """A class without choose, or a function that makes no bot: the usage and one line, no traceback."""
    with pytest.raises(SystemExit) as info:
        main(["simulate", "--bots", name.format(here=bots_here), "--deals", "2", "--no-progress"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "is not a bot" in err and words in err
    assert "Traceback" not in err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_breaking_the_rules_is_named_with_its_deal(
    capsys: pytest.CaptureFixture[str], bots_here: str, workers: str
) -> None:
    """A bot returning an illegal action: status 1 and one line naming the bot, the seat,
    the deal's number and the master seed, and how to replay that deal."""
    argv = ["--bots", f"random,{bots_here}:CheatBot,random", "--deals", "4", "--seed", "9"]
    status, out, err = run(capsys, *argv, "--workers", workers, "--no-progress")
    assert status == 1 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert "illegal action Play(card=Card.parse('Ad'))" in err
    assert f"{bots_here}.CheatBot" in err
    assert re.search(r"deal \d+ of the simulation with seed 9, player 1's bot", err)
    assert "replay_deal(rules, bots, seed=9, index=" in err
