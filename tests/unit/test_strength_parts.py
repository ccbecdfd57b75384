"""``benchmarks/strength.py`` in parts: ``--first``, ``--save`` and ``--combine``.

Tiny runs (a few deals of the heuristic bot against random bots, serially):
parts saved by separate runs and combined print what one run over all their
deals prints, and bad or mismatched files stop the script with a message.
"""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable
from typing import Any

import pytest
from support import load_script

SMALL = ["--workers", "0", "--rules", "cavendish", "calabresella", "--lineups", "1v2", "2v1"]

Run = Callable[..., str]


strength: Any = load_script("benchmarks", "strength", "strength_script")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run the script with arguments; return what it printed, less the timing lines."""

    def go(*argv: str) -> str:
        capsys.readouterr()
        strength.main(list(argv))
        out = capsys.readouterr().out
        return "\n".join(line for line in out.splitlines() if not line.startswith("("))

    return go


def _rows(path: pathlib.Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["rows"]
    for row in rows:
        del row["seconds"], row["parts"]
    return rows


def test_two_saved_parts_combine_to_the_one_run(run: Run, tmp_path: pathlib.Path) -> None:
    """Deals 0-6 and 7-11 saved apart and combined: the tables and edges of deals 0-11."""
    a, b, both, whole = (tmp_path / name for name in ("a.json", "b.json", "ab.json", "w.json"))
    part_a = run("--deals", "7", *SMALL, "--save", str(a))
    part_b = run("--deals", "5", "--first", "7", *SMALL, "--save", str(b))
    one = run("--deals", "12", *SMALL, "--save", str(whole))
    combined = run("--combine", str(b), str(a), "--save", str(both))
    assert combined == one
    assert "cavendish: 5 deals, nos. 7-11, seed 1, seats rotated" in part_b
    assert part_a != one and part_b != one
    edges = one.split("95% CI\n")[-1].splitlines()
    assert len(edges) == 4 and all(line in combined for line in edges)
    assert _rows(both) == _rows(whole)
    assert [row["spans"] for row in _rows(b)] == [[[7, 12]]] * 4


def test_parts_with_a_gap_combine_in_any_order(run: Run, tmp_path: pathlib.Path) -> None:
    """Deals 0-2 and 6-8 alone list their numbers; with 3-5 they are deals 0-8."""
    files = [tmp_path / f"{k}.json" for k in range(3)]
    for path, (first, deals) in zip(files, [(0, 3), (6, 3), (3, 3)]):
        run("--deals", str(deals), "--first", str(first), *SMALL, "--save", str(path))
    gapped = run("--combine", str(files[1]), str(files[0]))
    assert "cavendish: 6 deals, nos. 0-2, 6-8, seed 1, seats rotated" in gapped
    one = run("--deals", "9", *SMALL)
    assert run("--combine", *map(str, files[::-1])) == one
    assert run("--combine", str(files[2]), str(files[0]), str(files[1])) == one


def test_a_plain_run_prints_as_before(run: Run) -> None:
    """Without the new options the output starts and ends as it always did."""
    out = run("--deals", "3", "--workers", "0", "--rules", "cavendish")
    assert out.startswith("cavendish: 3 deals, seed 1, seats rotated\n")
    assert out.splitlines()[-3:-1] == [
        "candidate calabrasella.bots.heuristic:HeuristicBot {} vs baseline "
        "calabrasella.bots.base:RandomBot {}, 3 deals each",
        "rules          line-up      edge   95% CI",
    ]
    assert out == run("--deals", "3", "--first", "0", "--workers", "0", "--rules", "cavendish")


@pytest.fixture
def saved(run: Run, tmp_path: pathlib.Path) -> pathlib.Path:
    """A saved part: deals 0-2 of Cavendish, 1v2."""
    path = tmp_path / "part.json"
    run("--deals", "3", "--workers", "0", "--rules", "cavendish", "--save", str(path))
    return path


def _edit(path: pathlib.Path, change: Callable[[dict[str, Any]], object]) -> pathlib.Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def _set(data: dict[str, Any], where: str, value: object) -> None:
    *keys, last = where.split(".")
    for key in keys:
        data = data[int(key)] if isinstance(data, list) else data[key]
    data[last] = value


@pytest.mark.parametrize(
    ("where", "value", "words"),
    [
        ("format", "something else", "not a file of saved strength rows"),
        ("version", 99, "version 99"),
        ("rows", {}, "'rows': expected a list"),
        ("rows.0.seed", "1", r"rows\[0\]: 'seed': expected an integer, got '1'"),
        ("rows.0.totals.players.1.total", 2.5, r"players\[1\]: 'total': expected an integer"),
        ("rows.0.totals.deals", 4, "do not add up"),
        ("rows.0.spans", [[0, 2]], "spans="),
        ("rows.0.spans", [[1, 4]], None),  # other deals, same count: fine alone
        ("rows.0.rules.name", "skat", "no ruleset named 'skat'"),
        ("rows.0.rules.version", 1, "this library plays version"),
        ("rows.0.lineup", "3v0", "lineup"),
        ("rows.0.totals.players", [], "0 players"),
    ],
)
def test_a_bad_file_stops_with_a_message(
    run: Run, saved: pathlib.Path, where: str, value: object, words: str | None
) -> None:
    """Each malformed field is named in a SystemExit; nothing is printed before it."""
    edited = _edit(saved, lambda data: _set(data, where, value))
    if words is None:
        assert "nos. 1-3" in run("--combine", str(edited))
        return
    with pytest.raises(SystemExit, match=words):
        run("--combine", str(edited))


def test_files_that_are_not_json_or_not_there_stop_with_a_message(
    run: Run, tmp_path: pathlib.Path
) -> None:
    """A missing file, broken JSON, or JSON that is not an object."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":', encoding="utf-8")
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(SystemExit, match="No such file"):
        run("--combine", str(tmp_path / "missing.json"))
    with pytest.raises(SystemExit, match="not a JSON file"):
        run("--combine", str(broken))
    with pytest.raises(SystemExit, match="expected a JSON object"):
        run("--combine", str(listed))


def test_parts_of_different_experiments_or_the_same_deals_do_not_combine(
    run: Run, saved: pathlib.Path, tmp_path: pathlib.Path
) -> None:
    """Another seed, another candidate's options, or a deal in two parts: SystemExit."""
    other_seed = tmp_path / "seed2.json"
    three = ["--deals", "3", "--workers", "0", "--rules", "cavendish"]
    run(*three, "--first", "3", "--seed", "2", "--save", str(other_seed))
    with pytest.raises(SystemExit, match=r"not the same experiment.*seed 2, not 1"):
        run("--combine", str(saved), str(other_seed))
    options = _edit(saved, lambda data: _set(data, "rows.0.candidate_options", {"x": 1}))
    with pytest.raises(SystemExit, match="candidate_options"):
        run("--combine", str(saved), str(options))
    overlap = tmp_path / "overlap.json"
    run(*three, "--first", "2", "--save", str(overlap))
    with pytest.raises(SystemExit, match="deal 2 is in both"):
        run("--combine", str(saved), str(overlap))


def test_a_saved_part_is_never_overwritten_and_combine_takes_no_run_options(
    run: Run, saved: pathlib.Path
) -> None:
    """--save to an existing file, or --combine with --deals or --seed: SystemExit, file intact."""
    before = saved.read_text(encoding="utf-8")
    with pytest.raises(SystemExit, match="exists"):
        run("--deals", "2", "--workers", "0", "--rules", "cavendish", "--save", str(saved))
    assert saved.read_text(encoding="utf-8") == before
    with pytest.raises(SystemExit, match="drop --deals, --seed"):
        run("--combine", str(saved), "--deals", "4", "--seed", "3")
    with pytest.raises(SystemExit, match="--first -1"):
        run("--deals", "2", "--first", "-1", "--workers", "0")
