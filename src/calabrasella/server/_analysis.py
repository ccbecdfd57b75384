"""The browser table's analysis of each finished deal: kept, then computed on request in a worker process.

A finished deal is public: its result is announced, and its cards may all
be shown. :class:`Finished` keeps the last deals finished at each table (the
latest of each number), and :class:`Analyst` computes a deal's analysis
(:func:`calabrasella.bots.analyse`, every hand open) in one worker process,
so the search never holds the event loop; each search is bounded by a node
limit, each request by a timeout, and the answers are cached.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import multiprocessing
import re
from collections.abc import Callable, Sequence
from typing import Any
from xml.sax.saxutils import escape

import calabrasella as cb

from ._table import Table

__all__ = ["MAX_KEPT", "MAX_NODES", "Analyst", "Finished", "analysis_picture", "tables_of"]

#: Finished deals kept, over all tables (the oldest goes first).
MAX_KEPT = 64
#: The node limit of each search of a deal's analysis (a play past it is not valued).
MAX_NODES = 2_000_000

Key = tuple[str, int]


def tables_of(target: object) -> dict[str, Table]:
    """The tables behind a web page's target, by name (``""`` for a lone table)."""
    if isinstance(target, Table):
        return {"": target}
    tables = getattr(target, "tables", None)
    return dict(tables) if isinstance(tables, dict) else {}


class Finished:
    """The last finished deals of each table, by the table's name and the deal's number in its match.

    It follows each table's ``on_finished`` (calling what was there before).
    """

    def __init__(self, target: object) -> None:
        """Follow every table of ``target`` (a Table or a Lobby)."""
        self.deals: collections.OrderedDict[Key, cb.State] = collections.OrderedDict()
        #: The players' names at each kept deal's table when it finished.
        self.names: dict[Key, tuple[str, ...]] = {}
        for name, table in tables_of(target).items():
            table.on_finished = self._follow(name, table, table.on_finished)

    def _follow(
        self, name: str, table: Table, before: Callable[[cb.State], None] | None
    ) -> Callable[[cb.State], None]:
        def finished(state: cb.State) -> None:
            key = (name, len(table.match.finished))  # the table records the deal first
            self.deals.pop(key, None)
            self.deals[key] = state
            self.names[key] = tuple(s.name or f"seat {s.number}" for s in table.seats)
            while len(self.deals) > MAX_KEPT:
                old, _ = self.deals.popitem(last=False)
                self.names.pop(old, None)
            if before is not None:
                before(state)

        return finished

    def get(self, name: str, number: int) -> cb.State | None:
        """The finished deal ``number`` of table ``name``'s match (the latest so numbered), or None."""
        return self.deals.get((name, number))


def analysis_picture(record_json: str, max_nodes: int, names: Sequence[str] = ()) -> str:
    """The SVG chart of a finished deal's analysis (runs in the worker process).

    With ``names``, the chart calls each seat by its player's name, as the
    page does, where it would say ``seat N``.

    Example:
        >>> end = cb.rollout(cb.new_deal(cb.CAVENDISH, dealer=0, seed=7), 7)
        >>> chart = analysis_picture(cb.to_json(cb.Record.from_state(end)), 2_000,
        ...                          ("ann", "bob", "<cid>"))
        >>> chart.startswith("<svg"), "seat 1" in chart, "&lt;cid&gt;" in chart
        (True, False, True)
    """
    from calabrasella import svg
    from calabrasella.bots import analyse

    record = cb.from_json(record_json, cb.Record)
    chart = svg.analysis(analyse(record, max_nodes=max_nodes))
    if names:
        called = [escape(name, {'"': "&quot;"}) for name in names]
        chart = re.sub(r"\bseat (\d)\b", lambda m: called[int(m[1])]
                       if int(m[1]) < len(called) else m[0], chart)  # fmt: skip
    return chart


class Analyst:
    """Computes analyses one at a time in a worker process, and keeps the answers."""

    def __init__(self, max_nodes: int = MAX_NODES, timeout: float = 60.0) -> None:
        """Set the node limit of each search and the seconds a request may wait."""
        self.max_nodes = max_nodes
        self.timeout = timeout
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._done: collections.OrderedDict[int, tuple[cb.State, str]] = collections.OrderedDict()
        self._running: dict[int, asyncio.Future[str]] = {}

    async def picture(self, state: cb.State, names: Sequence[str] = ()) -> str:
        """The analysis chart of the finished deal ``state`` (seats called by ``names``).

        Raises:
            asyncio.TimeoutError: It took longer than the timeout.
        """
        key = id(state)
        done = self._done.get(key)
        if done is not None and done[0] is state:
            return done[1]
        running = self._running.get(key)
        if running is None:
            if self._pool is None:
                context = multiprocessing.get_context("spawn")  # never fork a threaded server
                self._pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=context)
            loop = asyncio.get_running_loop()
            text = cb.to_json(cb.Record.from_state(state))
            running = asyncio.ensure_future(
                loop.run_in_executor(self._pool, analysis_picture, text, self.max_nodes,
                                     tuple(names))
            )
            self._running[key] = running
            running.add_done_callback(lambda _: self._finish(key, state, running))
        return await asyncio.wait_for(asyncio.shield(running), self.timeout)

    def _finish(self, key: int, state: cb.State, future: asyncio.Future[Any]) -> None:
        self._running.pop(key, None)
        if not future.cancelled() and future.exception() is None:
            self._done[key] = (state, future.result())
            while len(self._done) > MAX_KEPT:
                self._done.popitem(last=False)

    def close(self) -> None:
        """Stop the worker process (a computation under way is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
