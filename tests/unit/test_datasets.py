"""Data sets: many records in one file, JSON lines and multi-deal text, read back as streams."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import calabrasella as cb
from calabrasella import datasets
from calabrasella.cli import main

RULES = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(irregularities="record", players=4),
    cb.Calabresella(follow_suit=False, give_back="face_down"),
)


def _records(n: int) -> list[cb.Record]:
    """Finished, unfinished and tagged records of several rulesets."""
    out = []
    for i in range(n):
        rules = RULES[i % len(RULES)]
        rng = random.Random(i)
        state = cb.new_deal(rules, dealer=i % rules.players, seed=i)
        stop = 10**6 if i % 3 else rng.randrange(1, 30)  # every third one unfinished
        while not state.is_over and stop:
            state = cb.apply(state, cb.sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions()))
            stop -= 1
        out.append(cb.Record.from_state(state, tags={"Event": f"deal {i}"} if i % 2 else None))
    return out


@pytest.mark.parametrize(("write", "read"), [(datasets.write_jsonl, datasets.read_jsonl), (datasets.write_text, datasets.read_text)])
def test_records_round_trip_through_one_file(write: object, read: object) -> None:
    records = _records(12)
    out = io.StringIO()
    assert write(records, out) == 12  # type: ignore[operator]
    assert list(read(io.StringIO(out.getvalue()))) == records  # type: ignore[operator]
    assert list(read(io.StringIO(""))) == []  # type: ignore[operator]


@pytest.mark.parametrize("suffix", [".jsonl", ".txt"])
def test_save_and_load_choose_the_format_by_name(tmp_path: Path, suffix: str) -> None:
    records = _records(5)
    path = tmp_path / f"deals{suffix}"
    assert datasets.save(path, records) == 5
    text = path.read_text(encoding="utf-8")
    assert text.startswith("{") == (suffix == ".jsonl")
    assert list(datasets.load(path)) == records


class _Lines:
    """A file whose lines are counted as they are read."""

    def __init__(self, text: str) -> None:
        self._file = io.StringIO(text)
        self.read = 0

    def readline(self, limit: int = -1, /) -> str:
        line = self._file.readline(limit)
        self.read += bool(line)
        return line


def test_readers_stream() -> None:
    """Taking the first record reads only its own lines (and, for text, the next tag line)."""
    records = _records(6)
    out = io.StringIO()
    datasets.write_jsonl(records, out)
    source = _Lines(out.getvalue())
    assert next(datasets.read_jsonl(source)) == records[0]
    assert source.read == 1
    out = io.StringIO()
    datasets.write_text(records, out)
    source = _Lines(out.getvalue())
    assert next(datasets.read_text(source)) == records[0]
    assert source.read == len(records[0].to_text().splitlines()) + 2  # its lines, the blank, the next tag


def test_a_bad_json_line_is_a_record_error_naming_its_line() -> None:
    records = _records(3)
    lines = [cb.to_json(r) for r in records]
    lines.insert(2, '{"type": "record", "format": 1}')
    got: list[cb.Record] = []
    with pytest.raises(cb.RecordError) as caught:
        got.extend(datasets.read_jsonl(lines))
    assert got == records[:2]
    assert caught.value.where.startswith("line 3")
    with pytest.raises(cb.RecordError) as caught:
        list(datasets.read_jsonl(["not json"]))
    assert caught.value.where.startswith("line 1")


def test_the_limits_of_one_record_hold_for_each() -> None:
    """A line over max_bytes is refused before it is parsed; max_actions and max_records hold."""
    records = _records(4)
    text = "".join(cb.to_json(r) + "\n" for r in records)
    longest = max(len(cb.to_json(r)) for r in records)
    with pytest.raises(cb.RecordError, match="longer than"):
        list(datasets.read_jsonl(io.StringIO(text), max_bytes=longest - 1))
    assert len(list(datasets.read_jsonl(io.StringIO(text), max_bytes=longest))) == 4
    with pytest.raises(cb.RecordError, match="more than 3 records"):
        list(datasets.read_jsonl(io.StringIO(text), max_records=3))
    most = max(len(r.actions) for r in records)
    with pytest.raises(cb.RecordError, match="line"):
        list(datasets.read_jsonl(io.StringIO(text), max_actions=most - 1))
    out = io.StringIO()
    datasets.write_text(records, out)
    biggest = max(len(r.to_text()) for r in records)
    with pytest.raises(cb.RecordError, match=r"record \d+ \(line \d+\): longer than"):
        list(datasets.read_text(io.StringIO(out.getvalue()), max_bytes=biggest // 2))


def test_a_bad_text_record_names_the_record_and_its_first_line() -> None:
    records = _records(3)
    texts = [r.to_text() for r in records]
    broken = texts[1].replace("Hands", "Hands\n  nonsense line", 1)
    whole = "\n".join([texts[0], broken, texts[2]])
    reader = datasets.read_text(io.StringIO(whole))
    assert next(reader) == records[0]
    with pytest.raises(cb.RecordError) as caught:
        next(reader)
    first_line = len(texts[0].splitlines()) + 2
    assert caught.value.where.startswith(f"record 2 (line {first_line})")


def _chunks(text: str) -> Iterator[str]:
    yield from text.splitlines(keepends=True)


def test_comments_and_blank_lines_between_text_records() -> None:
    records = _records(3)
    whole = "# a data set\n\n" + "\n\n# next\n".join(r.to_text() for r in records)
    assert list(datasets.read_text(_chunks(whole))) == records


def test_simulate_save_writes_every_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate --save`` writes each deal as played: the records replay the simulation's deals."""
    from calabrasella.bots import replay_deal
    from calabrasella.bots.base import RandomBot
    from calabrasella.bots.heuristic import HeuristicBot

    for name in ("deals.jsonl", "deals.txt"):
        path = tmp_path / name
        status = main(["simulate", "--deals", "4", "--seed", "3", "--rules", "calabresella", "--save", str(path), "--no-progress"])
        assert status == 0
        assert f"Saved 4 deals to {path}" in capsys.readouterr().out
        records = list(datasets.load(path))
        assert len(records) == 4
        for index, record in zip(itertools.count(), records):
            final, _ = replay_deal(cb.CALABRESELLA, [HeuristicBot, RandomBot, RandomBot], seed=3, index=index)
            assert record.replay() == final
            assert record.tags["Simulation"] == f"seed 3 deal {index + 1}"
    with pytest.raises(SystemExit) as exited:  # refused before any deal is played
        main(["simulate", "--deals", "1", "--save", str(tmp_path / "no" / "x.txt")])
    assert exited.value.code == 2
    assert capsys.readouterr().out == ""
