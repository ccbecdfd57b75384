"""calabrasella simulate: many deals between bots, the same table serially and on processes."""

from __future__ import annotations

import re

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
        ("calabrasella.bots:__doc__", "is not a bot class"),
        (":Bot", "expected module:Class"),
    ]:
        with pytest.raises(CommandError, match=re.escape(said)):
            parse_bots(bad, 3)
