"""The error classes: one module defines them all, the docs' table says their bases, old paths still work.

The table "Which error to catch" in docs/reference/errors.md is read here, so the
documented hierarchy and the code cannot drift apart.
"""

from __future__ import annotations

import importlib
import pickle
import re
from pathlib import Path

import pytest

import calabrasella as cb
from calabrasella import errors

API_DOC = Path(__file__).resolve().parents[2] / "docs" / "reference" / "errors.md"
ROW = re.compile(r"^\| `(\w+)` \| ([^|]+) \| [^|]+ \| ([^|]+) \|$")


def documented() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each row of the table: class name -> (its bases, where else it is importable)."""
    text = API_DOC.read_text(encoding="utf-8")
    table = text[text.index("## Which error to catch") :]
    rows: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for line in table.splitlines():
        found = ROW.match(line)
        if found:
            name, bases, places = found.groups()
            rows[name] = (tuple(re.findall(r"`([\w.]+)`", bases)), tuple(re.findall(r"`([\w.]+)`", places)))
    return rows


def test_the_table_lists_every_error_class_once() -> None:
    """Every class errors.py exports is in the table, and nothing else is."""
    assert sorted(documented()) == sorted(errors.__all__)
    assert len(errors.__all__) == 17


@pytest.mark.parametrize("name", sorted(errors.__all__))
def test_each_class_has_the_bases_the_table_gives(name: str) -> None:
    """The stdlib and library bases of each class, in order, as documented."""
    bases, _ = documented()[name]
    cls = getattr(errors, name)
    assert cls.__module__ == "calabrasella.errors"
    assert tuple(base.__name__ for base in cls.__bases__) == bases
    assert issubclass(cls, cb.CalabrasellaError)


@pytest.mark.parametrize("name", sorted(errors.__all__))
def test_each_class_is_the_same_object_where_it_was_before(name: str) -> None:
    """``cb.X``, ``calabrasella.bots.X``... name the class errors.py defines (nothing was removed)."""
    _, places = documented()[name]
    assert places
    for place in places:
        module_name, _, attribute = place.rpartition(".")
        module = cb if module_name == "cb" else importlib.import_module(module_name)
        assert getattr(module, attribute) is getattr(errors, name), place


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("calabrasella.match", "MatchError"),
        ("calabrasella.bots.base", "BotError"),
        ("calabrasella.bots.play", "BotError"),
        ("calabrasella.bots.sampling", "InconsistentViewError"),
        ("calabrasella.bots.solver", "SolveError"),
        ("calabrasella.testing", "ConformanceError"),
        ("calabrasella.cli._play", "CommandError"),
        ("calabrasella.cli._replay", "FileProblem"),
    ],
)
def test_the_modules_that_defined_them_still_export_them(module: str, name: str) -> None:
    assert getattr(importlib.import_module(module), name) is getattr(errors, name)


def test_a_seed_error_is_a_type_error_not_a_record_error() -> None:
    """A bad seed is a wrong argument: a TypeError, not a malformed record (nor a ValueError)."""
    with pytest.raises(cb.SeedError) as info:
        cb.new_deal(cb.CAVENDISH, seed="7")  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)
    assert not isinstance(info.value, cb.RecordError)
    assert not isinstance(info.value, ValueError)
    assert not issubclass(cb.SeedError, cb.RecordError)


def start_or_none(seed: object) -> cb.Match | None:
    """What a loader that catches ``RecordError`` does: None for a bad record."""
    try:
        return cb.Match.start(cb.CAVENDISH, seed=seed)  # type: ignore[arg-type]
    except cb.RecordError:
        return None


def test_a_record_error_handler_does_not_swallow_a_bad_seed() -> None:
    """``except RecordError`` around a deal with a bad seed lets the SeedError through."""
    assert start_or_none(1) is not None
    with pytest.raises(cb.SeedError):
        start_or_none(1.5)


@pytest.mark.parametrize(
    "error",
    [
        errors.MatchError("deal 1 is not over"),
        errors.InconsistentViewError("seat 1 holds 13 cards"),
        errors.SolveError("not in play"),
        errors.BotError("3 bots needed, 2 given"),
        errors.ConformanceError("35 units expected", invariant="conservation"),
        errors.CommandError("no bot called 'oracle'"),
        errors.FileProblem("x.json: cannot read it"),
        errors.SeedError("seed='7': expected an int"),
    ],
    ids=type,
)
def test_the_moved_errors_pickle(error: Exception) -> None:
    """An error raised in a worker process comes back whole (the class, the message, the fields)."""
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert str(back) == str(error)
    assert vars(back) == vars(error)
