"""A perfect-information solver for the card play: every hand open, all three playing perfectly.

:func:`solve` takes a :class:`~calabrasella.State` in the play phase (all
hands known: a real deal, or one world a sampler drew) and returns the
exact card units the declarer ends the deal with when he plays to maximise
them and the two adversaries, as one side, play to minimise them, with one
action of the seat to move that achieves it (every one with ``all_best=True``).

The units are what the deal's :class:`~calabrasella.Result` reports as
``declarer_units``: the card units of his tricks, plus the stock and 3 if
he wins the last trick (and, in Cavendish table mode, the revoke penalties
already recorded). Play goes on from the state as it is, mid-trick too;
in table mode (``irregularities="record"``) only regular plays are
searched: nobody revokes, plays out of turn or abandons from here on.

The search is an alpha-beta over whole tricks on card masks (see
``calabrasella.bots._solver_core``), with a transposition table, cards
that cannot matter searched once, and bounds from the tricks a side can
cash. The search at trick boundaries comes in two builds with the same
answers: a compiled one (a C extension module: in the platform wheels, and
built by ``pip install`` wherever a C compiler works), a whole deal of twelve tricks in about a hundredth of
a second at the median and a few tenths at most, and the pure-Python one,
the reference and the fallback, half a second to a second at the median
and ten seconds or more for a close deal (``benchmarks/solver.py``).
:data:`COMPILED` tells which one is in use, and :data:`WHY_PURE` why not the
compiled one; the install page (docs/quickstart.md) says how to get it. The cyclic garbage collector is held off during a search
and switched back on after it.

The objective is the declarer's units, as the Result reports them. In
Cavendish the payment grows with the units, so the same play maximises
it. In Calabresella it does not quite: cappotto and stramazzo depend on the
tricks each side takes and on the losing side's card units, so a line
perfect for the units may miss a cappotto or allow a stramazzo.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

import attrs

import calabrasella as cb
from calabrasella.errors import SolveError

from . import _solver_core as core
from . import _solver_moves as moves

__all__ = [
    "COMPILED", "WHY_PURE", "SearchLimitError", "Solution", "SolveError", "action_values", "solve",
    "solves",
]  # fmt: skip

#: Whether the search is the compiled one (an extension module a wheel built
#: with a C compiler holds) rather than pure Python. Both give the same values
#: and best actions. ``CALABRASELLA_PURE_SOLVER=1`` in the environment before
#: the import turns the compiled one off.
COMPILED: bool = core.NATIVE is not None
#: Why the search is pure Python, when :data:`COMPILED` is False: the package
#: was installed without the compiled module, the module failed to load, or
#: ``CALABRASELLA_PURE_SOLVER=1`` turned it off. Empty when it is compiled.
WHY_PURE: str = core.WHY_PURE

_PLAYS: tuple[cb.Play, ...] = tuple(cb.Play(card) for card in cb.DECK)
_T = TypeVar("_T")


@attrs.frozen
class Solution:
    """What perfect play gets from a state: the declarer's units and the best actions.

    Attributes:
        declarer_units: The card units the declarer ends the deal with
            (``Result.declarer_units``, 0 to the ruleset's ``deal_units``) when all
            three play perfectly.
        best_actions: Legal actions of the seat to move that achieve it, in
            :func:`calabrasella.legal_actions` order: one by default, every one
            with ``solve(state, all_best=True)``.
        nodes: Positions the search examined (a measure of its work).
        best_line: If asked for (``solve(state, line=True)``), one line of
            perfect play to the end of the deal, from the seat to move: at
            each turn the first legal action that keeps the declarer's units
            at the solution's value. Empty otherwise.
    """

    declarer_units: int
    best_actions: tuple[cb.Play, ...]
    nodes: int
    best_line: tuple[cb.Play, ...] = ()


@attrs.frozen
class _Root:
    """A play state in the solver's terms (positions: 0 the declarer, 1 and 2 after him)."""

    hands: tuple[int, int, int]
    trick: tuple[int, ...]  # the cards played to the current trick
    leader: int  # the position that led it (or leads next)
    won: int  # the declarer's card units so far
    net_revokes: int  # adversaries' revokes minus the declarer's (table mode)
    search: core.Search
    units: tuple[int, ...]  # each card's units (the ruleset's)
    total: int  # the units of a deal (the ruleset's deal_units)
    revoke_units: int  # the units a revoke moves to the other side (the ruleset's)


@contextlib.contextmanager
def _quiet(search: core.Search) -> Iterator[None]:
    """Hold the cyclic garbage collector off while searching (a third faster), then tidy up.

    The search allocates many small containers and frees none until the
    end, so the collector's passes only cost time. Its tables are emptied
    before the collector is switched back on (if it was on), however the
    search ends: freed at once, they are not walked by the collector's
    next pass.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        search.release()
        if enabled:
            gc.enable()
        moves.trim_caches()


class SearchLimitError(SolveError):
    """The search gave up: it passed its node limit (``max_nodes``) or its deadline."""


def _set_limit(search: core.Search, max_nodes: int | None) -> None:
    if max_nodes is not None:
        if type(max_nodes) is not int or max_nodes < 1:
            raise SolveError(f"max_nodes={max_nodes!r}: expected a positive int or None")
        search.limit = max_nodes


@contextlib.contextmanager
def _limited(search: core.Search) -> Iterator[None]:
    """Turn the search's NodeLimit into a SearchLimitError."""
    try:
        yield
    except core.NodeLimit:
        raise SearchLimitError(
            f"the search gave up after {search.nodes} positions (its limit or deadline)"
        ) from None


def _root(state: object, function: str) -> _Root:
    if not isinstance(state, cb.State):
        if isinstance(state, cb.View):
            raise SolveError(
                f"{function}() was given a View: the solver needs every hand, a State "
                "(sample one from a view with calabrasella.bots.sampling)"
            )
        raise SolveError(f"{function}() needs a State, not {state!r}")
    if state.phase is not cb.Phase.PLAYING:
        raise SolveError(f"{function}() needs a state in the play phase, not in {state.phase.name}")
    declarer = state.declarer
    assert declarer is not None  # the play has a declarer
    order = state.deal.order
    at = order.index(declarer)
    seats = (declarer, order[(at + 1) % 3], order[(at + 2) % 3])
    masks = state.hand_masks
    revokes = [0, 0]
    if state.rules.irregularities != "forbid":
        for seat, action in state.history:
            if isinstance(action, cb.Revoke):
                revokes[seat != declarer] += 1
    rules = state.rules
    units = rules.units_by_card
    if not solves(rules):
        raise SolveError(
            f"{function}() counts the cards as the standard game does (ace 3; 3, 2, K, Q, J 1; "
            f"others 0); {type(rules).__qualname__}.card_units counts otherwise"
        )
    bonus = rules.last_trick_units + rules.units_in(state.stock_mask)  # the last trick takes the stock
    return _Root(
        hands=(masks[seats[0]], masks[seats[1]], masks[seats[2]]),
        trick=state.trick_cards,
        leader=seats.index(state.leader),
        won=state.card_units_won[declarer],
        net_revokes=revokes[1] - revokes[0],
        search=_new_search(bonus, bool(rules.follow_suit), units),
        units=units,
        total=rules.deal_units,
        revoke_units=rules.revoke_units,
    )


def solves(rules: cb.Ruleset) -> bool:
    """Whether the search solves deals of ``rules``: it counts the cards as the standard game
    does (ace 3; 3, 2, K, Q, J 1; others 0), and takes any last trick's units.

    Example:
        >>> solves(cb.CAVENDISH), solves(cb.CALABRESELLA)
        (True, True)
    """
    return rules.units_by_card == moves.UNITS


def _new_search(bonus: int, follow: bool, units: tuple[int, ...] | None = None) -> core.Search:
    """A search for one solve: the compiled one if it is in use (:data:`COMPILED`), given
    each card's units (the ruleset's; the pure one's tables count them so: see :func:`_root`)."""
    if _native:
        return core.NativeSearch(bonus, follow, units=units)
    return core.Search(bonus, follow)


#: Whether solves use the compiled search; tests set it to False to compare.
_native: bool = COMPILED


def _final(root: _Root, future: int) -> int:
    """The declarer's units in the Result when he collects ``future`` more."""
    base = root.won + future
    if root.net_revokes:  # units a revoke, net, to the other side; never below 0 (scoring.Tally)
        return min(root.total, max(0, base + root.revoke_units * root.net_revokes))
    return base


def _classes(
    hands: tuple[int, int, int], trick: tuple[int, ...], mover: int, follow: bool
) -> list[list[int]]:
    """The mover's legal cards in classes of equivalent cards (see ``_solver_moves.classes``)."""
    hand = hands[mover]
    if trick and follow:
        suit_mask = 1023 << (trick[0] - trick[0] % 10)
        if hand & suit_mask:
            hand &= suit_mask
    out = 0
    for i, h in enumerate(hands):
        if i != mover:
            out |= h
    for card in trick:
        out |= 1 << card
    return moves.classes(hand, out)


def _future_range(root: _Root, future: int) -> tuple[int, int]:
    """The futures that give the same final units as ``future`` (penalties clamp at 0 and
    the deal's units)."""
    final = _final(root, future)
    lo = future
    while lo > 0 and _final(root, lo - 1) == final:
        lo -= 1
    hi = future
    while hi < root.total and _final(root, hi + 1) == final:
        hi += 1
    return lo, hi


#: Without a guess, MTD(f) climbs from the lowest value this many units a probe (a
#: null-window probe below the value mostly returns just its threshold). 3 against 1:
#: about a quarter fewer nodes on the first 8 random-exchange deals of
#: benchmarks/solver.py, 6% fewer on 16 heuristic-exchange deals, but the same total
#: (+0.2%) over the 50 random-exchange deals, more on 28 of them, fewer on 16.
#: 2 against 3 (the compiled search, 12 tricks, one best action, four sets of 50 deals
#: after each exchange): the median nodes lower in 6 of the 8 sets (by 2 to 31%,
#: higher by 1.4 and 1.6% in two), the total nodes lower in 7 (by 1.6 to 12%): the
#: probe that overshoots the value by two, as costly as any, is met less often.
_STEP = 2


def _mtd(test: Callable[[int], int], lo: int, hi: int, guess: int | None) -> int:
    """The exact value in ``lo..hi`` by null-window tests (``test(t)`` fail-soft around
    ``t``): from ``guess`` one unit at a time, else up from ``lo`` by :data:`_STEP`."""
    step = _STEP if guess is None else 1
    g = lo + 1 if guess is None else guess
    while lo < hi:
        g = max(lo + 1, min(g, hi))
        v = test(g)
        if v >= g:
            lo, g = v, v + step
        else:
            hi, g = v, v
    return lo


class _Moves:
    """The mover's legal cards in classes of equivalent cards, each with bounds on its value.

    A class's value is the declarer's units from the state after its card
    on. The bounds learnt while finding the state's value often settle
    which classes are best without searching them again.
    """

    def __init__(
        self,
        search: core.Search,
        hands: tuple[int, int, int],
        trick: tuple[int, ...],
        leader: int,
        total: int,
    ) -> None:
        self.search = search
        self.total = total  # no value is above the units of a deal
        self.leader = leader
        self.mover = mover = (leader + len(trick)) % 3
        self.classes = _classes(hands, trick, mover, search.follow)
        self.after = [
            (
                tuple(h ^ (1 << same[0]) if i == mover else h for i, h in enumerate(hands)),
                (*trick, same[0]),
            )
            for same in self.classes
        ]
        self.lo = [0] * len(self.classes)
        self.hi = [total] * len(self.classes)
        preferred = search.candidates(hands, leader, trick)  # the search's own order first
        rank = {card: k for k, card in enumerate(preferred)}
        self.order = sorted(
            range(len(self.classes)),
            key=lambda i: min((rank.get(c, 99) for c in self.classes[i]), default=99),
        )

    def test(self, i: int, t: int) -> int:
        """Bound class ``i``'s value around ``t`` (fail-soft), keeping what is learnt."""
        if self.lo[i] >= t:
            return self.lo[i]
        if self.hi[i] < t:
            return self.hi[i]
        hands, trick = self.after[i]
        v = self.search.after(hands, self.leader, trick, t)  # type: ignore[arg-type]
        if v >= t:
            self.lo[i] = max(self.lo[i], v)
        else:
            self.hi[i] = min(self.hi[i], v)
        return v

    def probe(self, t: int) -> int:
        """Bound the state's value around ``t`` (fail-soft), the likeliest cards first."""
        if self.mover == 0:
            self.order.sort(key=lambda i: -self.hi[i])
            value = -1
            for i in self.order:
                v = self.test(i, t)
                value = max(value, v)
                if v >= t:
                    break
            return value
        self.order.sort(key=lambda i: self.lo[i])
        value = 99
        for i in self.order:
            v = self.test(i, t)
            value = min(value, v)
            if v < t:
                break
        return value

    def exact(self, i: int, guess: int | None = None) -> int:
        """Class ``i``'s exact value (MTD(f) from what is known, or from ``guess``)."""
        return _mtd(lambda t: self.test(i, t), self.lo[i], self.hi[i], guess)

    def value(self, guess: int | None = None) -> int:
        """The state's exact value (MTD(f), upward from 1 or from ``guess``)."""
        return _mtd(self.probe, 0, self.total, guess)

    def one_best(self, lo: int, hi: int) -> int:
        """One card of :meth:`best`: from a class the bounds already settle if there is one."""
        declarer = self.mover == 0
        for i, same in enumerate(self.classes):
            if (self.lo[i] >= lo) if declarer else (self.hi[i] <= hi):
                return same[0]
        return self.best(lo, hi)[0]

    def best(self, lo: int, hi: int) -> list[int]:
        """The cards whose value keeps the result: at least ``lo`` for the declarer, at most
        ``hi`` for an adversary; in canonical order."""
        found: list[int] = []
        for i, same in enumerate(self.classes):
            declarer = self.mover == 0
            if self.test(i, lo) >= lo if declarer else self.test(i, hi + 1) <= hi:
                found.extend(same)  # equivalent cards have equal values
        return sorted(found)


def solve(
    state: cb.State,
    *,
    line: bool = False,
    all_best: bool = False,
    guess: int | None = None,
    max_nodes: int | None = None,
) -> Solution:
    """Solve the rest of the play with every hand open.

    The declarer plays to maximise the card units he ends the deal with,
    the two adversaries together to minimise them.

    Args:
        state: A state in the play phase, any ruleset and options.
        line: Also find one perfect line of play to the end
            (:attr:`Solution.best_line`); this costs a little more.
        all_best: Find every best action. By default (``False``)
            :attr:`Solution.best_actions` holds one best action only (one the
            search has already proved best, not necessarily the first in
            legal order), which is all a bot needs and saves proving each
            other action best or not: up to half the work.
        guess: A first guess of the declarer's units (the value of a
            similar position, say): the search starts from it. Any int is
            accepted and the answer is the same; a close guess saves work.
        max_nodes: Give up (:class:`SearchLimitError`) after examining this
            many positions (``None``: no limit).

    Returns:
        The declarer's units under perfect play, the mover's best actions (one,
        or all with ``all_best=True``) and the nodes searched.

    Raises:
        SolveError: ``state`` is not a :class:`~calabrasella.State`, or not
            in the play phase (the auction, the exchange, a finished deal);
            ``guess`` is not an int or ``max_nodes`` not a positive int.
        SearchLimitError: The search passed ``max_nodes``.

    Example:
        Seat 1 stood and leads to the eleventh trick with 9 units won. If
        he leads the 2, seat 0 lets it win and takes the ace with the 3 in
        the last trick (12); after the ace, the best seat 0 can do is to
        let it win and keep the last trick (14).

        >>> import calabrasella as cb
        >>> from calabrasella.bots.solver import solve
        >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> while state.phase is not cb.Phase.PLAYING or state.tricks_played < 10:
        ...     state = cb.apply(state, cb.legal_actions(state)[-1])
        >>> state.declarer, state.to_move, [str(hand) for hand in state.hands], str(state.stock)
        (1, 1, ['3d Qd', '2d Ad', '3h 2s'], '5s 3c Jc 6c')
        >>> solution = solve(state, line=True, all_best=True)
        >>> solution.declarer_units, [str(action) for action in solution.best_actions]
        (14, ['play Ad'])
        >>> [str(action) for action in solution.best_line]
        ['play Ad', 'play 3h', 'play Qd', 'play 2d', 'play 2s', 'play 3d']
    """
    root = _root(state, "solve")
    search = root.search
    if guess is not None and type(guess) is not int:
        raise SolveError(f"guess={guess!r}: expected an int or None")
    _set_limit(search, max_nodes)
    hands, trick = root.hands, root.trick
    with _quiet(search), _limited(search):
        at_root = _Moves(search, hands, trick, root.leader, root.total)
        future = at_root.value(None if guess is None else guess - root.won)
        if all_best:
            cards = set(at_root.best(*_future_range(root, future)))
        else:
            cards = {at_root.one_best(*_future_range(root, future))}
        path = _line(root, future) if line else ()
    best = tuple(
        action
        for action in cb.legal_actions(state)
        if isinstance(action, cb.Play) and action.card.index in cards
    )
    return Solution(
        declarer_units=_final(root, future), best_actions=best, nodes=search.nodes, best_line=path
    )


def _line(root: _Root, future: int) -> tuple[cb.Play, ...]:
    """One perfect line from the root to the end of the deal."""
    hands, trick, leader = root.hands, root.trick, root.leader
    search = root.search
    units = root.units
    out: list[cb.Play] = []
    while hands[0] | hands[1] | hands[2]:
        mover = (leader + len(trick)) % 3
        card = _Moves(search, hands, trick, leader, root.total).best(future, future)[0]
        out.append(_PLAYS[card])
        hands = tuple(h ^ (1 << card) if i == mover else h for i, h in enumerate(hands))  # type: ignore[assignment]
        trick = (*trick, card)
        if len(trick) == 3:
            suit_low = trick[0] - trick[0] % 10
            won = min(c for c in trick if suit_low <= c < suit_low + 10)
            winner = (leader + trick.index(won)) % 3
            if winner == 0:
                future -= units[trick[0]] + units[trick[1]] + units[trick[2]]
                if not (hands[0] | hands[1] | hands[2]):
                    future -= search.bonus
            trick, leader = (), winner
    return tuple(out)


def action_values(state: cb.State) -> dict[cb.Play, int]:
    """Return, for each legal play of the seat to move, the declarer's units after it.

    Each value is exact: the units :func:`solve` would report after that
    play. This costs more than :func:`solve`, which only tells the best
    actions from the others; it suits averaging actions over sampled worlds.

    Raises:
        SolveError: ``state`` is not a State, or not in the play phase.

    Example:
        The ending of :func:`solve`'s example: the ace gives 14, the 2 only 12.

        >>> import calabrasella as cb
        >>> from calabrasella.bots.solver import action_values
        >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> while state.phase is not cb.Phase.PLAYING or state.tricks_played < 10:
        ...     state = cb.apply(state, cb.legal_actions(state)[-1])
        >>> {str(action): units for action, units in action_values(state).items()}
        {'play 2d': 12, 'play Ad': 14}
        >>> action_values(cb.new_deal(cb.CAVENDISH, seed=7))
        Traceback (most recent call last):
        ...
        calabrasella.errors.SolveError: action_values() needs a state in the play phase, not in BIDDING
    """
    return _action_values(state, "action_values", None, 0.0, None)[0]


def _per_class(
    state: cb.State,
    function: str,
    max_nodes: int | None,
    deadline: float,
    answer: Callable[[_Root, _Moves, int], _T],
) -> tuple[dict[cb.Play, _T], int]:
    """``answer(root, moves, i)`` for each class ``i`` of equivalent legal plays, given to
    each play of it, and the nodes searched; with a node limit and a ``perf_counter()``
    deadline (0.0: none; either raises :class:`SearchLimitError`)."""
    root = _root(state, function)
    search = root.search
    _set_limit(search, max_nodes)
    search.deadline = deadline
    with _quiet(search), _limited(search):
        answers = _by_class(state, root, answer)
    return answers, search.nodes


def _by_class(
    state: cb.State, root: _Root, answer: Callable[[_Root, _Moves, int], _T]
) -> dict[cb.Play, _T]:
    """``answer(root, moves, i)`` for each class ``i`` of equivalent legal plays at
    ``root`` (``state``'s, on whichever search it carries), given to each play of it."""
    found: dict[int, _T] = {}
    at_root = _Moves(root.search, root.hands, root.trick, root.leader, root.total)
    for i, same in enumerate(at_root.classes):
        value = answer(root, at_root, i)
        for card in same:  # equivalent cards have equal values
            found[card] = value
    return {
        action: found[action.card.index]
        for action in cb.legal_actions(state)
        if isinstance(action, cb.Play)
    }


def _action_values(
    state: cb.State,
    function: str,
    max_nodes: int | None,
    deadline: float,
    guesses: Mapping[cb.Play, float] | None,
    shift: bool = False,
) -> tuple[dict[cb.Play, int], int]:
    """:func:`action_values` and the nodes searched, with the limits of :func:`_per_class`
    and a first guess of each play's value (its value in another world, say).

    With ``shift``, each guess is moved by how far the plays solved before it in this
    state came out from their own guesses, on average: a world that is better or worse
    for the declarer than the guesses is so for most of its plays. The guesses only set
    where each play's search starts: the values are the same with any guesses.
    """
    misses: list[float] = []

    def exact(root: _Root, moves: _Moves, i: int) -> int:
        guess = None if guesses is None else guesses.get(_PLAYS[moves.classes[i][0]])
        if guess is None:
            return _final(root, moves.exact(i))
        start = guess + sum(misses) / len(misses) if shift and misses else guess
        value = _final(root, moves.exact(i, round(start) - root.won))
        misses.append(value - guess)
        return value

    return _per_class(state, function, max_nodes, deadline, exact)


def _action_wins(
    state: cb.State,
    function: str,
    units: int,
    max_nodes: int | None,
    deadline: float,
) -> tuple[dict[cb.Play, bool], int]:
    """Whether each legal play leaves the declarer at least ``units`` in the Result under
    perfect play, and the nodes searched (the limits of :func:`_per_class`).

    One null-window test a class of equivalent cards answers it, where
    :func:`_action_values` needs the exact value (several tests): about three
    times cheaper with eight or nine tricks left. A test holds it to
    ``_action_values``.
    """

    def reaches(root: _Root, moves: _Moves, i: int) -> bool:
        # the least future units that give ``units`` in the Result (None: none do)
        need = next((f for f in range(root.total + 1) if _final(root, f) >= units), None)
        return need is not None and (need <= 0 or moves.test(i, need) >= need)

    return _per_class(state, function, max_nodes, deadline, reaches)


def _value(
    state: cb.State, function: str, max_nodes: int | None, guess: int | None
) -> tuple[int, int]:
    """The declarer's units in the Result under perfect play from ``state`` on (what
    :func:`solve` reports, without finding a best action) and the nodes searched; with a
    node limit (:class:`SearchLimitError`) and a first guess of the units."""
    root = _root(state, function)
    search = root.search
    _set_limit(search, max_nodes)
    with _quiet(search), _limited(search):
        future = _Moves(search, root.hands, root.trick, root.leader, root.total).value(
            None if guess is None else guess - root.won
        )
    return _final(root, future), search.nodes
