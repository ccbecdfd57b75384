"""The compiled search against the pure-Python one, the reference: same values, same best actions.

Random endings of every length (1 to 12 tricks left, some stopped within a
trick), both games and every option that changes the play: follow suit off
(Calabresella), Cavendish table mode with revokes recorded before the
ending, four at the table, each first-lead rule. For each, ``solve(state,
all_best=True)`` with the compiled search and with the pure one give the
same units and the same best actions. Most endings are short (the pure
search is slow on long ones); the count per length is in :data:`PER_LENGTH`.

The long run, by hand (about 100,000 endings; hours of the pure search)::

    CALABRASELLA_NATIVE_DIFF=100000 python -m pytest -q tests/unit/test_solver_native.py

spreads that many endings over the lengths in the same proportions.
Without the compiled search (a pure-Python install) these tests skip; CI
runs them on the compiled search (an install with a C compiler, and the
compiled wheel: ``.ci/release_check``), under the sanitizers on a sample
(``.ci/compiled_check``) and inside each platform wheel (cibuildwheel).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator

import pytest

import calabrasella as cb
from calabrasella.actions import IRREGULAR
from calabrasella.bots import _solver_core as core
from calabrasella.bots import solver
from calabrasella.bots.solver import SearchLimitError, action_values, solve

needs_native = pytest.mark.skipif(core.NATIVE is None, reason="the compiled search is not built")

#: Rulesets whose play differs: the presets, no following suit, table mode, four at the
#: table, the other first leads.
RULESETS: tuple[cb.Ruleset, ...] = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Calabresella(follow_suit=False),
    cb.Cavendish(irregularities="record"),
    cb.Cavendish(players=4, first_lead="after_declarer"),
    cb.Calabresella(first_lead="eldest_except_solissimo", players=4),
)

#: Endings compared per tricks left in CI: 2,000 in all, most of them short.
PER_LENGTH: dict[int, int] = {
    1: 360, 2: 360, 3: 350, 4: 320, 5: 290, 6: 190, 7: 80, 8: 33, 9: 10, 10: 4, 11: 2, 12: 1
}  # fmt: skip


def _scaled() -> dict[int, int]:
    total = int(os.environ.get("CALABRASELLA_NATIVE_DIFF", "0") or 0)
    if total <= 0:
        return PER_LENGTH
    base = sum(PER_LENGTH.values())
    return {n: max(1, PER_LENGTH[n] * total // base) for n in PER_LENGTH}


def ending(rng: random.Random, rules: cb.Ruleset, left: int) -> cb.State | None:
    """A random deal stopped with ``left`` tricks to play (sometimes within a trick); a
    random bid and exchange; in table mode a revoke now and then. None if nobody bid."""
    state = cb.new_deal(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(32))
    within = rng.choice((0, 0, 1, 2)) if left < 12 else 0
    while not state.is_over:
        if state.phase is cb.Phase.PLAYING:
            to_play = 12 - state.tricks_played
            if to_play < left or (to_play == left and len(state.trick_cards) >= within):
                return state
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        revokes = [a for a in actions if isinstance(a, cb.Revoke)]
        if revokes and rng.random() < 0.1:
            state = cb.apply(state, rng.choice(revokes))
            continue
        regular = [a for a in actions if not isinstance(a, IRREGULAR)]
        if state.phase is cb.Phase.BIDDING and any(isinstance(a, cb.Bid) for a in regular):
            regular = [a for a in regular if isinstance(a, cb.Bid)]  # someone bids
        state = cb.apply(state, rng.choice(regular))
    return None


def endings(seed: int, counts: dict[int, int]) -> Iterator[cb.State]:
    rng = random.Random(seed)
    for left, count in counts.items():
        made = 0
        while made < count:
            state = ending(rng, RULESETS[made % len(RULESETS)], left)
            if state is not None and state.phase is cb.Phase.PLAYING:
                made += 1
                yield state


def _both(state: cb.State, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    monkeypatch.setattr(solver, "_native", True)
    native = solve(state, all_best=True)
    monkeypatch.setattr(solver, "_native", False)
    pure = solve(state, all_best=True)
    return (native.declarer_units, native.best_actions), (pure.declarer_units, pure.best_actions)


@needs_native
def test_native_and_pure_agree_on_random_endings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same units and same set of best actions on 2,000 endings of every length."""
    counts = _scaled()
    seen: dict[int, int] = dict.fromkeys(counts, 0)
    rules_seen: set[str] = set()
    revoked = within = 0
    for state in endings(2026, counts):
        native, pure = _both(state, monkeypatch)
        assert native == pure, cb.to_record(state) if hasattr(cb, "to_record") else state
        seen[12 - state.tricks_played] += 1
        rules_seen.add(repr(state.rules))
        revoked += any(isinstance(a, cb.Revoke) for _, a in state.history)
        within += bool(state.trick_cards)
    assert seen == counts
    assert len(rules_seen) == len(RULESETS)
    if counts == PER_LENGTH:  # not a sample (CALABRASELLA_NATIVE_DIFF, e.g. under the sanitizers)
        assert sum(seen.values()) >= 2000
        assert revoked >= 20 and within >= 200  # table mode's revokes and mid-trick endings were met


@needs_native
def test_native_action_values_match_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every legal play's exact value, compiled and pure, on 150 endings of 2 to 7 tricks."""
    for state in endings(7, {n: 25 for n in range(2, 8)}):
        monkeypatch.setattr(solver, "_native", True)
        native = action_values(state)
        monkeypatch.setattr(solver, "_native", False)
        assert native == action_values(state)


@needs_native
@pytest.mark.parametrize("bits", [4, 13])
def test_native_tables_small_or_growing_keep_the_answers(
    monkeypatch: pytest.MonkeyPatch, bits: int
) -> None:
    """Tiny tables (entries replaced all the time) and tables that grow while searching
    give the pure search's answers, on endings either side of the tricks left where the
    compiled search moves a position from its deep table to its compact one (6)."""
    monkeypatch.setattr(core, "TABLE_BITS", bits)
    for state in endings(17, {4: 10, 5: 10, 6: 10, 7: 8, 8: 4, 9: 2}):
        native, pure = _both(state, monkeypatch)
        assert native == pure


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_native), False])
def test_shifted_guesses_leave_action_values_unchanged(
    monkeypatch: pytest.MonkeyPatch, native: bool
) -> None:
    """The sampling bot's first guesses (a mean over worlds, a float, moved by how this
    world's plays solved first came out: ``shift=True``) only set where each play's
    search starts: every value is the pure search's without guesses, even from guesses
    far off, below 0 or above the deal's units."""
    from calabrasella.bots.solver import _action_values

    rng = random.Random(5)
    for state in endings(13, {n: 12 for n in range(2, 8)}):
        monkeypatch.setattr(solver, "_native", False)
        plain = action_values(state)
        guesses = {play: value + rng.uniform(-9.0, 9.0) for play, value in plain.items()}
        if rng.random() < 0.3:  # some plays without a guess
            guesses.pop(next(iter(guesses)))
        if rng.random() < 0.2:
            guesses = dict.fromkeys(guesses, rng.choice((-40.5, 70.25)))
        monkeypatch.setattr(solver, "_native", native)
        shifted, _nodes = _action_values(state, "action_values", None, 0.0, guesses, shift=True)
        assert shifted == plain


@needs_native
def test_one_best_action_is_a_best_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default solve (one best action) gives a play of the all-best set."""
    monkeypatch.setattr(solver, "_native", True)
    for state in endings(11, {n: 20 for n in range(3, 10)}):
        one = solve(state)
        every = solve(state, all_best=True)
        assert one.declarer_units == every.declarer_units
        assert len(one.best_actions) == 1
        assert one.best_actions[0] in every.best_actions


@needs_native
def test_native_node_limit_and_deadline_raise_search_limit_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled search gives up past max_nodes or a deadline, as the pure one does,
    and a limit above the work done changes nothing."""
    from calabrasella.bots.solver import _action_values

    monkeypatch.setattr(solver, "_native", True)
    state = next(endings(3, {12: 1}))
    plain = solve(state)
    assert plain.nodes > 10
    with pytest.raises(SearchLimitError, match="gave up"):
        solve(state, max_nodes=10)
    assert solve(state, max_nodes=plain.nodes + 1) == plain
    with pytest.raises(SearchLimitError):
        _action_values(state, "action_values", None, 1e-9, None)  # a deadline long past


def test_the_pure_search_can_be_forced_from_the_environment() -> None:
    """CALABRASELLA_PURE_SOLVER=1 before the import: COMPILED is False, solves are pure."""
    code = (
        "from calabrasella.bots import solver, _solver_core as c;"
        "print(solver.COMPILED, c.NATIVE, type(solver._new_search(3, True)).__name__)"
    )
    env = {**os.environ, "CALABRASELLA_PURE_SOLVER": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "None", "Search"]
    assert done.stderr == ""  # no warning at import


def test_native_tables_come_from_the_engine() -> None:
    """The compiled search's suits, units and unit classes are the engine's cards'."""
    tables = core.native_tables()
    assert tables is not None
    suits, units, classes = tables
    assert [bin(s).count("1") for s in suits] == [10] * 4
    assert sum(suits) == (1 << 40) - 1
    assert units == tuple(card.units for card in cb.DECK)
    assert sum(units) == 32  # RULES.md: 32 card units in the pack (3 for the last trick)
    for a in cb.DECK:
        for b in cb.DECK:
            assert (units[a.index] == units[b.index]) == (classes[a.index] == classes[b.index])


@needs_native
def test_the_compiled_core_rejects_bad_tables() -> None:
    """A core built from tables that are not a partition of 40 cards is refused clearly."""
    assert core.NATIVE is not None
    tables = core.native_tables()
    assert tables is not None
    suits, units, classes = tables
    with pytest.raises(ValueError, match="suit masks"):
        core.NATIVE.Core(3, True, (suits[0],) * 4, units, classes, lambda: 0.0, core.NodeLimit, 10)
    with pytest.raises(ValueError, match="units"):
        core.NATIVE.Core(3, True, suits, units[:5], classes, lambda: 0.0, core.NodeLimit, 10)
