"""``play --save``, ``replay`` and ``show``: deals saved as records, read back, bad files refused."""

from __future__ import annotations

import io
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import calabrasella as cb
from calabrasella import cli


def play(
    argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("rules", ["cavendish", "calabresella"])
def test_a_finished_deal_is_saved_as_a_json_record(
    rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "deal.json"
    argv = ["--rules", rules, "--seed", "4", "--opponents", "random", "--ascii", "--save", str(path)]
    status, out, err = play(argv, "1\n" * 60, capsys, monkeypatch)
    assert (status, err) == (0, "")
    assert out.endswith(f"\nSaved the deal to {path}.\n")
    record = cb.from_json(path.read_text(encoding="utf-8"), cb.Record)
    final = record.replay()
    assert final.is_over and record.result == final.result
    assert record.ruleset == rules and record.dealer == 0
    assert record.deal == cb.new_deal(cb.find_ruleset(rules), seed=4).deal
    assert dict(record.tags) | {"Date": "-"} == {
        "Event": "calabrasella play",
        "Date": "-",
        "Player": "seat 1 at the terminal",
        "Opponents": "random bots",
        "Seed": "4",
    }
    assert final.result is not None
    paid = ", ".join(
        f"seat {s}{' (you)' if s == 1 else ''} {p:+d}" if p else f"seat {s}{' (you)' if s == 1 else ''} 0"
        for s, p in enumerate(final.result.payments)
    )
    assert f"  payments: {paid}\n" in out
    # what seat 1 chose is in the record: the first move of each menu (a draw is chance's)
    mine = [str(a) for s, a in final.history if s == 1 and not isinstance(a, cb.Draw)]
    menus = [m.group(1) for m in re.finditer(r"Your turn, seat 1: .*\n +1\. (.+?)(?: {2,}|\n)", out)]
    assert mine == menus


def test_a_deal_left_unfinished_is_saved_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "left.json"
    status, out, _ = play(["--seed", "7", "--save", str(path)], "2\nquit\n", capsys, monkeypatch)
    assert status == 0
    assert out.endswith(f"You left the deal unfinished.\nSaved the deal to {path}.\n")
    record = cb.from_json(path.read_text(encoding="utf-8"), cb.Record)
    assert not record.is_over and record.result is None
    assert [str(a) for a in record.actions] == ["bid stand"]
    status, out, _ = play(["--seed", "7", "--save", str(path)], "", capsys, monkeypatch)
    assert cb.from_json(path.read_text(encoding="utf-8"), cb.Record).actions == ()


def test_a_txt_file_gets_the_text_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    as_text, as_json = tmp_path / "deal.txt", tmp_path / "deal.json"
    for path in (as_text, as_json):
        play(["--seed", "9", "--save", str(path)], "1\n" * 60, capsys, monkeypatch)
    text = as_text.read_text(encoding="utf-8")
    assert text.startswith('[Ruleset "cavendish"]\n')
    assert cb.Record.from_text(text) == cb.from_json(as_json.read_text(encoding="utf-8"), cb.Record)


@pytest.mark.parametrize("where", ["dir", "missing"])
def test_a_save_path_that_cannot_be_a_file_is_refused_before_the_deal(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path if where == "dir" else tmp_path / "no" / "deal.json"
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["play", "--save", str(path)])
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    why = "is a directory" if where == "dir" else "no directory"
    assert err.splitlines()[-1].startswith(f"calabrasella play: error: --save {path}: {why}")


def test_a_save_that_fails_is_one_line_and_status_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: Path, text: str, encoding: str) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    path = tmp_path / "deal.json"
    status, out, err = play(["--seed", "7", "--save", str(path)], "quit\n", capsys, monkeypatch)
    assert status == 1
    assert err == f"calabrasella play: cannot save the deal to {path}: Permission denied\n"
    assert "Saved" not in out


def finished_record(rules: cb.Ruleset, seed: int) -> cb.Record:
    """A deal played with the highest bid, then the first legal action (chance: the first draw)."""
    state = cb.new_deal(rules, seed=seed)
    while not state.is_over:
        legal = state.legal_actions()
        state = cb.apply(state, legal[-1] if state.phase is cb.Phase.BIDDING else legal[0])
    return cb.Record.from_state(state, tags={"event": "test"})


@pytest.fixture
def files(tmp_path: Path) -> dict[str, tuple[Path, cb.Record]]:
    """The same kinds of file for both rulesets: a JSON record, a JSON state, a text record."""
    made = {}
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        record = finished_record(rules, 3)
        for kind, text in [
            ("record.json", cb.to_json(record, indent=2)),
            ("state.json", cb.to_json(record.replay())),
            ("record.txt", record.to_text()),
        ]:
            path = tmp_path / f"{rules.name}-{kind}"
            path.write_text(text, encoding="utf-8")
            same = record if kind != "state.json" else attrs.evolve(record, tags={})
            made[f"{rules.name}-{kind}"] = (path, same)
    return made


def test_show_prints_the_records_text_form(
    files: dict[str, tuple[Path, cb.Record]], capsys: pytest.CaptureFixture[str]
) -> None:
    for path, record in files.values():
        assert run(["show", str(path)], capsys) == (0, record.to_text(), "")


def test_replay_prints_the_deal_each_action_and_the_result(
    files: dict[str, tuple[Path, cb.Record]], capsys: pytest.CaptureFixture[str]
) -> None:
    for path, record in files.values():
        status, out, err = run(["replay", str(path), "--ascii"], capsys)
        assert (status, err) == (0, "")
        states = list(record.states())
        first = states[0]
        for seat in first.deal.order:
            assert f"  {cli.format_cards(first.hand(seat), symbols=False)}\n" in out
        actions = re.findall(r"^ +(\d+)\. seat (\d): (.+)$", out, re.M)
        assert [(int(n), int(s), a) for n, s, a in actions] == [
            (n, after.history[-1][0], str(action))
            for n, (after, action) in enumerate(zip(states[1:], record.actions), 1)
        ]
        winners = re.findall(r"^ +trick (\d+): .* -> seat (\d) wins", out, re.M)
        expected = [
            (str(after.tricks_played), str(after.leader))
            for before, after in itertools.pairwise(states)
            if after.tricks_played > before.tricks_played
        ]
        assert winners == expected and len(winners) == 12
        assert record.result is not None
        assert out.split("\nResult\n")[1].startswith("  ")
        assert "  payments: " in out.split("\nResult\n")[1]


def test_replay_step_waits_for_enter_and_q_stops(
    files: dict[str, tuple[Path, cb.Record]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, record = files["cavendish-record.json"]
    prompts: list[str] = []

    def enter(prompt: str) -> str:
        prompts.append(prompt)
        return "" if len(prompts) <= 3 else "q"

    assert cli.main(["replay", str(path), "--step"], read=enter) == 0
    out = capsys.readouterr().out
    assert prompts == ["[Enter] "] * 4
    assert out.endswith(f"\nStopped after 3 actions of {len(record.actions)}.\n")
    assert "   3. seat" in out and "   4. seat" not in out

    def ends(prompt: str) -> str:
        raise EOFError

    assert cli.main(["replay", str(path), "--step"], read=ends) == 0
    assert capsys.readouterr().out.endswith(f"\nStopped after 0 actions of {len(record.actions)}.\n")


def test_replay_step_reads_enter_from_stdin(
    files: dict[str, tuple[Path, cb.Record]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path, record = files["calabresella-record.txt"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * len(record.actions)))
    assert cli.main(["replay", str(path), "--step"]) == 0
    out = capsys.readouterr().out
    assert out.count("[Enter] \n") == len(record.actions)
    assert "\nResult\n" in out


def bad_files(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Files that are no record, and the start of the message each gets."""
    record = finished_record(cb.CAVENDISH, 3)
    data = json.loads(cb.to_json(record))
    data["actions"][5] = "play Zz"
    made = {
        "missing": (tmp_path / "missing.json", "cannot read it: No such file or directory"),
        "directory": (tmp_path, "cannot read it: Is a directory"),
        "empty": (tmp_path / "empty.json", "empty: not a record"),
        "binary": (tmp_path / "binary.json", "not UTF-8 text (byte 1)"),
        "not json": (tmp_path / "junk.json", "not a record: "),
        "a view": (tmp_path / "view.json", "not a record: type: expected 'record', got 'view'"),
        "an illegal action": (tmp_path / "illegal.json", "not a record: actions[5]"),
        "text": (tmp_path / "notes.txt", "not a record: "),
        "too large": (tmp_path / "huge.json", "too large for a record"),
    }
    texts = {
        "empty": b"  \n",
        "binary": b"{\xff\xfe",
        "not json": b"{not json",
        "a view": cb.to_json(record.replay().view(0)).encode(),
        "an illegal action": json.dumps(data).encode(),
        "text": b"shopping list\n- eggs\n",
        "too large": b" " * (4_000_001),
    }
    for name, content in texts.items():
        made[name][0].write_bytes(content)
    return made


@pytest.mark.parametrize("command", ["show", "replay"])
def test_a_bad_file_is_one_line_on_stderr_and_status_2(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, (path, message) in bad_files(tmp_path).items():
        status, out, err = run([command, str(path)], capsys)
        assert (status, out) == (2, ""), name
        assert err.startswith(f"calabrasella {command}: {path}: {message}"), (name, err)
        assert err.count("\n") == 1 and err.endswith("\n"), name


def test_a_bad_file_from_the_real_command_has_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"type": "record", "format": 1}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "calabrasella", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"calabrasella replay: {path}: not a record: ")
    assert done.stderr.count("\n") == 1


_GOOD = cb.to_json(finished_record(cb.CALABRESELLA, 5))


@given(
    cut=st.integers(0, len(_GOOD)),
    length=st.integers(0, 20),
    junk=st.text(max_size=20),
    command=st.sampled_from(["show", "replay"]),
)
def test_a_mangled_record_never_gives_a_traceback(
    cut: int, length: int, junk: str, command: str
) -> None:
    """A slice of a good record replaced by junk: status 0 (it still reads) or 2, one line."""
    text = _GOOD[:cut] + junk + _GOOD[cut + length :]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deal.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out, err = io.StringIO(), io.StringIO()
        saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = out, err
        try:
            status = cli.main([command, str(path)])
        finally:
            sys.stdout, sys.stderr = saved
    assert status in (0, 2)
    if status == 2:
        assert out.getvalue() == ""
        assert err.getvalue().startswith(f"calabrasella {command}: {path}: ")
        assert err.getvalue().count("\n") == 1
    else:
        assert err.getvalue() == "" and "Traceback" not in out.getvalue()


# --- data sets: many deals in one file (simulate --save) -------------------------------


@pytest.mark.parametrize("name", ["deals.jsonl", "deals.txt", "deals.json"])
def test_show_prints_every_deal_of_a_data_set(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """show reads a data set simulate --save wrote (JSON lines, text, or JSON lines named .json):
    every deal's text, a blank line between two, which reads back as the same deals."""
    from calabrasella import datasets

    written = tmp_path / ("deals.jsonl" if name == "deals.json" else name)
    argv = ["simulate", "--deals", "3", "--seed", "4", "--save", str(written), "--no-progress"]
    assert run(argv, capsys)[0] == 0
    saved = list(datasets.load(written))
    path = tmp_path / name
    if path != written:  # JSON lines under a name that does not say so
        path.write_text(written.read_text(encoding="utf-8"), encoding="utf-8")
    assert [r.tags["Simulation"] for r in saved] == [f"seed 4 deal {i}" for i in (1, 2, 3)]  # as --deal N counts
    status, out, err = run(["show", str(path)], capsys)
    assert (status, err) == (0, "")
    assert list(datasets.read_text(io.StringIO(out))) == saved
    assert out.count('[Ruleset "cavendish"]') == 3
    status, out, err = run(["show", str(path), "--deal", "2"], capsys)
    assert (status, err) == (0, "")
    assert out == saved[1].to_text()


def test_replay_picks_one_deal_of_a_data_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """replay of a data set needs --deal N; without it, one line says what the file is and how to read it."""
    path = tmp_path / "deals.jsonl"
    run(["simulate", "--deals", "3", "--seed", "4", "--save", str(path), "--no-progress"], capsys)
    status, out, err = run(["replay", str(path)], capsys)
    assert status == 2 and out == ""
    assert err == (
        f"calabrasella replay: {path}: a data set of 3 deals (JSON lines, as simulate --save writes): "
        f"pick one with --deal N (1 to 3); 'calabrasella show {path}' prints them all, and "
        f"calabrasella.datasets.load({str(path)!r}) reads them in Python\n"
    )
    status, out, err = run(["replay", str(path), "--deal", "3", "--ascii"], capsys)
    assert (status, err) == (0, "")
    assert "tag     Simulation: seed 4 deal 3" in out  # --deal 3 is the deal tagged 3
    for deal, words in [("4", "--deal 4: the data set holds deals 1 to 3"), ("0", "--deal 0: expected 1 or more")]:
        status, _, err = run(["show", str(path), "--deal", deal], capsys)
        assert status == 2 and words in err and len(err.splitlines()) == 1


def test_a_single_deal_file_takes_deal_1_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.json"
    path.write_text(cb.to_json(cb.Record.from_state(cb.new_deal(cb.CAVENDISH, seed=7))), encoding="utf-8")
    assert run(["show", str(path), "--deal", "1"], capsys)[0] == 0
    status, _, err = run(["show", str(path), "--deal", "2"], capsys)
    assert status == 2 and "the file holds one deal (--deal 1)" in err
