"""Private: one search kept for the solves of one deal's positions (the deal analysis's).

:func:`calabrasella.bots.analyse` values decision after decision of one deal.
A search's transposition table holds bounds on the units still to come from
positions at trick boundaries, keyed on the cards left and the leader; they
hold for any deal with the same last-trick bonus and rules of play. So a
solve of a later position of the deal starts from what the earlier solves
learnt (the position after a card is one the earlier search has met): the
same answers as a new search's, found with fewer nodes.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator

import attrs

import calabrasella as cb

from . import _solver_core as core
from . import _solver_moves as moves
from . import solver
from .solver import _PLAYS, SearchLimitError, SolveError, _by_class, _final, _Moves, _Root, _root

__all__ = ["SHARED_ENTRIES", "Shared", "shared_action_values", "shared_value"]


#: A pure-Python search kept by :class:`Shared` is let go when its table holds more
#: entries than this, and a new one started: kept for a whole deal, the hardest deals'
#: tables pass a million entries (a whole-deal analysis of four Cavendish deals peaked
#: at 377 MB against 256 MB with a new search each decision; 263 MB with this limit).
#: The compiled search's table has a size limit of its own.
SHARED_ENTRIES = 500_000


class Shared:
    """One search kept from solve to solve of one deal's positions (the deal analysis's).

    A search's table holds bounds on the units still to come from positions at
    trick boundaries, keyed on the cards left and the leader; they hold for any
    deal with the same last-trick bonus and rules of play. So a solve of a later
    position of the deal (the position after a card is one the earlier search
    has met) starts from what the earlier solves learnt: the same answers, found
    with fewer nodes. One search is kept at a time: a solve with another bonus or
    other rules (another exchange option's stock, say) releases it and starts a
    new one, as does one after the pure-Python table passed :data:`SHARED_ENTRIES`.

    Use it in a ``with`` block: the cyclic garbage collector is held off inside
    (as during a solve) and the search is released at its end. Each solve's node
    limit counts the nodes of that solve only.
    """

    def __init__(self) -> None:
        self._key: tuple[int, bool, bool] | None = None
        self._search: core.Search | None = None
        self._gc = False

    def __enter__(self) -> Shared:
        self._gc = gc.isenabled()
        gc.disable()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
        if self._gc:
            gc.enable()
        moves.trim_caches()

    def release(self) -> None:
        """Free the search kept (the next solve starts a new one)."""
        if self._search is not None:
            self._search.release()
        self._key = self._search = None

    def root(self, state: cb.State, function: str) -> _Root:
        """The state's :class:`_Root`, its search the one kept when it fits, else a new one kept."""
        root = _root(state, function)
        key = (root.search.bonus, root.search.follow, solver._native)
        kept = self._search
        if key != self._key or kept is None or len(kept.table) > SHARED_ENTRIES:
            self.release()
            self._key, self._search = key, root.search
            return root
        return attrs.evolve(root, search=kept)

    @contextlib.contextmanager
    def limited(self, search: core.Search, max_nodes: int | None) -> Iterator[Callable[[], int]]:
        """Limit a solve to ``max_nodes`` more nodes (``None``: none) and no deadline; turn
        NodeLimit into a SearchLimitError; yield a function that gives the solve's nodes."""
        if max_nodes is not None and (type(max_nodes) is not int or max_nodes < 1):
            raise SolveError(f"max_nodes={max_nodes!r}: expected a positive int or None")
        start = search.nodes
        search.limit = -1 if max_nodes is None else start + max_nodes
        search.deadline = 0.0
        try:
            yield lambda: search.nodes - start
        except core.NodeLimit:
            raise SearchLimitError(
                f"the search gave up after {search.nodes - start} positions (its limit)"
            ) from None


def shared_action_values(
    shared: Shared,
    state: cb.State,
    function: str,
    max_nodes: int | None,
    guesses: dict[cb.Play, int] | None,
) -> tuple[dict[cb.Play, int], int]:
    """``solver._action_values`` (no deadline) with the search ``shared`` keeps."""
    def exact(root: _Root, at_root: _Moves, i: int) -> int:
        guess = None if guesses is None else guesses.get(_PLAYS[at_root.classes[i][0]])
        return _final(root, at_root.exact(i, None if guess is None else guess - root.won))

    root = shared.root(state, function)
    with shared.limited(root.search, max_nodes) as nodes:
        answers = _by_class(state, root, exact)
    return answers, nodes()


def shared_value(
    shared: Shared, state: cb.State, function: str, max_nodes: int | None, guess: int | None
) -> tuple[int, int]:
    """``solver._value`` with the search ``shared`` keeps."""
    root = shared.root(state, function)
    search = root.search
    with shared.limited(search, max_nodes) as nodes:
        future = _Moves(search, root.hands, root.trick, root.leader, root.total).value(
            None if guess is None else guess - root.won
        )
    return _final(root, future), nodes()
