"""Data sets of deals: many records in one file, written and read as streams.

Two formats, like a PGN file of many games:

- **JSON lines** (``.jsonl``): one record a line, each as :func:`calabrasella.to_json`
  writes it (compact); blank lines are skipped.
- **A multi-deal text file** (any other suffix, ``.txt`` say): the records'
  text forms (:meth:`Record.to_text`) one after another, separated by a blank
  line; a record begins at its first tag line (``[Ruleset "..."]``).

Readers are generators: they read one record at a time, so a file of a
million deals is never held whole. Each record is read with the same limits
as one record on its own (``max_bytes`` characters, ``max_actions``
actions, checked before it is parsed) and the same
:class:`~calabrasella.RecordError`, whose ``where`` also names the line
(JSON lines) or the record and the line it starts on (text). A reader stops
at the first bad record; records before it have been yielded.

A layer above :mod:`calabrasella.records`, as the command line is: nothing
in the engine imports it.

Example:
    >>> import io
    >>> import calabrasella as cb
    >>> from calabrasella import datasets
    >>> records = [cb.Record.from_state(cb.new_deal(cb.CAVENDISH, seed=s)) for s in range(3)]
    >>> out = io.StringIO()
    >>> datasets.write_jsonl(records, out)
    3
    >>> list(datasets.read_jsonl(io.StringIO(out.getvalue()))) == records
    True
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO, Protocol, Union

from .errors import RecordError
from .records import MAX_ACTIONS, MAX_BYTES, Record, from_json, to_json

__all__ = [
    "JSONL_SUFFIXES",
    "ReadsLines",
    "Source",
    "load",
    "read_jsonl",
    "read_text",
    "save",
    "write_jsonl",
    "write_text",
]

#: The file suffixes :func:`save` and :func:`load` take for JSON lines; any other is text.
JSONL_SUFFIXES = (".jsonl", ".ndjson")

class ReadsLines(Protocol):
    """Anything with a text file's ``readline(limit)``."""

    def readline(self, limit: int = -1, /) -> str: ...


#: Where a reader takes its lines: an open text file (read a bounded line at a
#: time), anything with ``readline``, or any iterable of lines.
Source = Union[IO[str], ReadsLines, Iterable[str]]


def _lines(source: Source, limit: int) -> Iterator[str]:
    """The lines of ``source``; a file is read at most ``limit`` + 1 characters a line."""
    readline = getattr(source, "readline", None)
    if readline is None:
        yield from source  # type: ignore[misc]
        return
    while True:
        line = readline(limit + 1)
        if not line:
            return
        yield line


def _located(error: RecordError, where: str) -> RecordError:
    inner = f"{where}: {error.where}" if error.where else where
    return RecordError(where=inner, reason=error.reason)


def _check_count(count: int, max_records: int | None, where: str) -> None:
    if max_records is not None and count > max_records:
        raise RecordError(where=where, reason=f"more than {max_records} records")


def write_jsonl(records: Iterable[Record], out: IO[str]) -> int:
    """Write each record as one line of JSON to ``out``; return how many.

    Raises:
        RecordError: A record that cannot be written (as :func:`calabrasella.to_json`).
    """
    count = 0
    for record in records:
        out.write(to_json(record))
        out.write("\n")
        count += 1
    return count


def read_jsonl(
    source: Source,
    *,
    max_bytes: int = MAX_BYTES,
    max_actions: int = MAX_ACTIONS,
    max_records: int | None = None,
) -> Iterator[Record]:
    """Yield the records of a JSON-lines file (an open text file, or any iterable of lines).

    Raises:
        RecordError: A line longer than ``max_bytes`` characters, a line that
            is not a record (``where`` begins with ``line N``), or more than
            ``max_records`` records.

    Example:
        >>> next(read_jsonl(['{"type": "view"}']))
        Traceback (most recent call last):
        ...
        calabrasella.errors.RecordError: line 1: type: expected 'record', got 'view'
    """
    count = 0
    for number, line in enumerate(_lines(source, max_bytes), 1):
        line = line.rstrip("\r\n")
        if len(line) > max_bytes:
            raise RecordError(
                where=f"line {number}", reason=f"longer than {max_bytes} characters"
            )
        if not line.strip():
            continue
        count += 1
        _check_count(count, max_records, f"line {number}")
        try:
            yield from_json(line, Record, max_bytes=max_bytes, max_actions=max_actions)
        except RecordError as error:
            raise _located(error, f"line {number}") from None


def write_text(records: Iterable[Record], out: IO[str]) -> int:
    """Write the records' text forms to ``out``, a blank line between two; return how many.

    Raises:
        RecordError: A record that cannot be written as text (as :meth:`Record.to_text`).
    """
    count = 0
    for record in records:
        if count:
            out.write("\n")
        text = record.to_text()
        out.write(text if text.endswith("\n") else text + "\n")
        count += 1
    return count


def _is_tag(line: str) -> bool:
    return line.lstrip().startswith("[")


def read_text(
    source: Source,
    *,
    max_bytes: int = MAX_BYTES,
    max_actions: int = MAX_ACTIONS,
    max_records: int | None = None,
) -> Iterator[Record]:
    """Yield the records of a multi-deal text file (an open text file, or any iterable of lines).

    A record runs from a tag line that follows other lines of a record to
    the line before the next such tag line; each is read by
    :meth:`Record.from_text`.

    Raises:
        RecordError: A record longer than ``max_bytes`` characters, a record
            that does not read (``where`` names it and the line it starts
            on; its own line numbers count from its first line), or more
            than ``max_records`` records.
    """
    buffer: list[str] = []
    size = 0
    start = 1
    count = 0
    body = False  # the buffer holds more than tags, blank lines and comments

    def flush() -> Record:
        nonlocal count
        count += 1
        where = f"record {count} (line {start})"
        _check_count(count, max_records, where)
        try:
            return Record.from_text("".join(buffer), max_bytes=max_bytes, max_actions=max_actions)
        except RecordError as error:
            raise _located(error, where) from None

    for number, line in enumerate(_lines(source, max_bytes), 1):
        if _is_tag(line) and body:
            yield flush()
            buffer, size, body = [], 0, False
        if not buffer:
            if not line.strip():
                continue  # blank lines between records
            start = number
        stripped = line.strip()
        if stripped and not _is_tag(line) and not stripped.startswith("#"):
            body = True
        buffer.append(line)
        size += len(line)
        if size > max_bytes:
            raise RecordError(
                where=f"record {count + 1} (line {start})",
                reason=f"longer than {max_bytes} characters",
            )
    if buffer and any(line.strip() for line in buffer):
        yield flush()


def _is_jsonl(path: Union[str, os.PathLike[str]]) -> bool:
    return os.fspath(path).lower().endswith(JSONL_SUFFIXES)


def save(path: Union[str, os.PathLike[str]], records: Iterable[Record]) -> int:
    """Write ``records`` to the file ``path``: JSON lines for a ``.jsonl`` name, else text.

    Returns:
        How many records were written.
    """
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        return write_jsonl(records, out) if _is_jsonl(path) else write_text(records, out)


def load(
    path: Union[str, os.PathLike[str]],
    *,
    max_bytes: int = MAX_BYTES,
    max_actions: int = MAX_ACTIONS,
    max_records: int | None = None,
) -> Iterator[Record]:
    """Yield the records of the file ``path`` (JSON lines for a ``.jsonl`` name, else text).

    The file is opened on the first record asked for and closed when the
    last is read (or the generator is closed).

    Raises:
        RecordError: As :func:`read_jsonl` and :func:`read_text`.
        OSError: The file cannot be read.
    """
    read = read_jsonl if _is_jsonl(path) else read_text
    with open(path, encoding="utf-8") as source:
        yield from read(source, max_bytes=max_bytes, max_actions=max_actions, max_records=max_records)
