"""``analyse`` keeps one search for a deal: the same values as a fresh search at each decision.

The analysis solves decision after decision with one search (its table kept
from one solve to the next, ``_shared.Shared``); each value it reports must
be the one a new search finds from that decision alone (``action_values``
for a play, ``solve`` for an exchange option), the reference here. Random
deals played to the end, both games and the options that change the play
(follow suit off, table mode with revokes, four at the table); the pure
search on short endings, the compiled one (where built) on longer ones and
on whole deals with the exchange's last decision.
"""

from __future__ import annotations

import random

import pytest

import calabrasella as cb
from calabrasella.actions import IRREGULAR
from calabrasella.bots import HeuristicBot, _shared, analyse, play_deal, solver
from calabrasella.bots import _solver_core as core
from calabrasella.bots.analysis import Analysis
from calabrasella.bots.solver import SearchLimitError, action_values, solve

needs_native = pytest.mark.skipif(core.NATIVE is None, reason="the compiled search is not built")

RULESETS: tuple[cb.Ruleset, ...] = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Calabresella(follow_suit=False),
    cb.Cavendish(irregularities="record"),
    cb.Cavendish(players=4, first_lead="after_declarer"),
)


def played(rng: random.Random, rules: cb.Ruleset) -> cb.Record | None:
    """A deal played to its end at random (someone bids; in table mode a revoke now and
    then), or None if it ended without twelve tricks."""
    state = cb.new_deal(rules, dealer=rng.randrange(rules.players), seed=rng.getrandbits(32))
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        revokes = [a for a in actions if isinstance(a, cb.Revoke)]
        if revokes and rng.random() < 0.05:
            state = cb.apply(state, rng.choice(revokes))
            continue
        regular = [a for a in actions if not isinstance(a, IRREGULAR)]
        if state.phase is cb.Phase.BIDDING and any(isinstance(a, cb.Bid) for a in regular):
            regular = [a for a in regular if isinstance(a, cb.Bid)]  # someone bids
        state = cb.apply(state, rng.choice(regular))
    return cb.Record.from_state(state) if state.tricks_played == 12 else None


def records(seed: int, count: int) -> list[cb.Record]:
    rng = random.Random(seed)
    out: list[cb.Record] = []
    while len(out) < count:
        record = played(rng, RULESETS[len(out) % len(RULESETS)])
        if record is not None:
            out.append(record)
    return out


def check_against_fresh_searches(record: cb.Record, analysis: Analysis) -> int:
    """Each analysed decision's values against a new search from its state; the number
    of plays checked."""
    states = list(record.states())
    checked = 0
    for decision in analysis.decisions:
        if not decision.analysed:
            continue
        state = states[decision.index]
        if decision.stage == "play":
            assert dict(decision.values) == action_values(state), decision
            checked += 1
        else:  # the exchange's last decision: each option's play solved on its own
            assert decision.stage == "exchange"
            fresh = {
                option: solve(cb.apply(state, option)).declarer_units for option in decision.values
            }
            assert dict(decision.values) == fresh, decision
    return checked


def test_the_pure_search_kept_for_the_deal_gives_the_fresh_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver, "_native", False)
    checked = 0
    for record in records(31, 30):
        checked += check_against_fresh_searches(record, analyse(record, from_trick=8))
    assert checked >= 30 * 12  # five tricks, but for a revoke or two in table mode


@needs_native
def test_the_compiled_search_kept_for_the_deal_gives_the_fresh_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver, "_native", True)
    checked = 0
    for record in records(32, 10):
        checked += check_against_fresh_searches(record, analyse(record, from_trick=5))
    assert checked >= 10 * 20  # eight tricks, but for a revoke or two in table mode


def bots_played(seed: int, rules: cb.Ruleset) -> cb.Record:
    """A deal three heuristic bots bid, exchange and play to the end (not all passing)."""
    rng = random.Random(seed)
    while True:
        final = play_deal(rules, [HeuristicBot(rng) for _ in range(3)], rng)
        if final.declarer is not None and final.tricks_played == 12:
            return cb.Record.from_state(final)


@needs_native
@pytest.mark.parametrize(
    ("rules", "exchanges_valued"),
    [(cb.CAVENDISH, 1), (cb.CALABRESELLA, 0)],  # a Calabresella discard has too many options
    ids=["cavendish", "calabresella"],
)
def test_whole_deals_and_the_exchange_with_the_compiled_search(
    rules: cb.Ruleset, exchanges_valued: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver, "_native", True)
    exchanges = 0
    for seed in range(3):
        record = bots_played(seed, rules)
        analysis = analyse(record)
        assert check_against_fresh_searches(record, analysis) >= 12 * 3 - 2
        exchanges += any(d.analysed and d.stage == "exchange" for d in analysis.decisions)
    assert exchanges >= exchanges_valued


def last_exchange(seed: int) -> tuple[cb.State, list[cb.State]]:
    """A Cavendish deal's last exchange decision whose options leave stocks of different
    units, and the first play after each option."""
    rng = random.Random(seed)
    while True:
        record = played(rng, cb.CAVENDISH)
        if record is None:
            continue
        states = list(record.states())
        at = next(i for i, s in enumerate(states) if s.phase is cb.Phase.PLAYING) - 1
        options = [a for a in cb.legal_actions(states[at]) if not isinstance(a, IRREGULAR)]
        after = [cb.apply(states[at], option) for option in options]
        stocks = {sum(card.units for card in s.stock) for s in after}
        if all(s.phase is cb.Phase.PLAYING for s in after) and len(stocks) > 1:
            return states[at], after


def test_one_search_goes_on_while_the_bonus_and_rules_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "_native", False)
    _, after = last_exchange(5)
    units = [sum(card.units for card in s.stock) for s in after]
    first = after[0]
    other = next(s for s, u in zip(after, units) if u != units[0])  # another last-trick bonus
    later = first
    for _ in range(6):  # two tricks on: the same deal
        later = cb.apply(later, cb.legal_actions(later)[0])
    with _shared.Shared() as shared:
        search = shared.root(first, "analyse").search
        assert shared.root(later, "analyse").search is search
        assert shared.root(other, "analyse").search is not search
        assert shared.root(first, "analyse").search is not search  # one kept at a time
    monkeypatch.setattr(_shared, "SHARED_ENTRIES", 10)  # a pure table past it is let go
    with _shared.Shared() as shared:
        search = shared.root(first, "analyse").search
        assert shared.root(later, "analyse").search is search  # its table is empty so far
        _shared.shared_action_values(shared, later, "analyse", None, None)
        assert len(search.table) > 10
        assert shared.root(later, "analyse").search is not search
    if core.NATIVE is not None:
        with _shared.Shared() as shared:
            search = shared.root(first, "analyse").search
            monkeypatch.setattr(solver, "_native", True)
            assert shared.root(later, "analyse").search is not search  # the other build


def test_each_solve_counts_its_own_nodes_against_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(solver, "_native", False)
    rng = random.Random(9)
    sixes: dict[int, tuple[cb.State, int]] = {}  # a stock's units -> six tricks left, nodes
    while True:  # two deals with the same last-trick bonus, an ending of each
        record = played(rng, cb.CAVENDISH)
        if record is None:
            continue
        states = [s for s in record.states() if s.phase is cb.Phase.PLAYING and not s.trick_cards]
        six, four = states[6], states[8]
        units = sum(card.units for card in six.stock)
        alone = solver._action_values(four, "analyse", None, 0.0, None)[1]
        if units in sixes and 0 < alone < sixes[units][1] // 2:
            break
        sixes.setdefault(units, (six, solver._action_values(six, "analyse", None, 0.0, None)[1]))
    six = sixes[units][0]
    with _shared.Shared() as shared:
        with pytest.raises(SearchLimitError, match="after 1 positions"):
            _shared.shared_action_values(shared, six, "analyse", 1, None)
        values, spent = _shared.shared_action_values(shared, six, "analyse", None, None)
        assert values == action_values(six)  # the same after giving up once
        assert shared.root(four, "analyse").search is shared.root(six, "analyse").search
        # the search kept has counted more than ``spent`` positions: a limit counted from
        # its start would stop this solve (of another deal) at once
        values, nodes = _shared.shared_action_values(shared, four, "analyse", spent, None)
        assert values == action_values(four) and 0 < nodes <= spent
