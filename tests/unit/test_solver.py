"""The perfect-information solver: hand-checked endings, brute force, its errors.

Expected values come from endings worked out by hand (in each test's
docstring) or from a plain minimax written here over ``cb.legal_actions``
and ``cb.apply`` only (the engine's own ``Result.declarer_units`` at the
end), sharing no code with the solver.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import attrs
import pytest

import calabrasella as cb
from brute_force import brute_values
from calabrasella.bots.solver import Solution, SolveError, action_values, solve

# --- a plain minimax, from the engine alone (tests/brute_force.py) ---------------------


def brute(state: cb.State) -> tuple[int, tuple[cb.Play, ...]]:
    """The declarer's final units under perfect play, and the mover's best plays."""
    values = brute_values(state)
    best = max(values.values()) if state.to_move == state.declarer else min(values.values())
    return best, tuple(a for a, v in values.items() if v == best)


# --- reaching endings --------------------------------------------------------------------


def last_actions(rules: cb.Ruleset, seed: int, *, tricks: int, dealer: int = 0) -> cb.State:
    """Deal ``seed`` and always take the last legal action until ``tricks`` tricks are played."""
    state = cb.new_deal(rules, dealer=dealer, seed=seed)
    while state.phase is not cb.Phase.PLAYING or state.tricks_played < tricks:
        state = cb.apply(state, cb.legal_actions(state)[-1])
    return state


def random_ending(
    rules: cb.Ruleset,
    seed: int,
    cards_left: int,
    *,
    extra: Callable[[cb.State], bool] | None = None,
) -> cb.State:
    """A seeded random deal: someone bids, random regular actions until ``cards_left``
    cards are left in the hands; ``extra(state)`` may ask for one irregular action instead."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    state = cb.apply(state, next(a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)))
    while sum(len(hand) for hand in state.hands) > cards_left:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        regular = [a for a in actions if isinstance(a, (cb.Play, cb.Pass, cb.Bid, cb.Call,
                   cb.GiveBack, cb.Discard, cb.Take, cb.Done, cb.Raise))]  # fmt: skip
        revokes = [a for a in actions if isinstance(a, cb.Revoke)]
        if extra is not None and revokes and extra(state):
            state = cb.apply(state, rng.choice(revokes))
        else:
            state = cb.apply(state, rng.choice(regular))
    assert state.phase is cb.Phase.PLAYING
    return state


# --- hand-checked endings ------------------------------------------------------------------


def test_two_tricks_the_ace_first() -> None:
    """Cavendish, seat 1 stood, 9 units won, leads to trick 11: 3d Qd / 2d Ad / 3h 2s.

    Stock 5s 3c Jc 6c (2 units, so the last trick is worth 5 more). Leading
    the 2, seat 0 ducks with the queen and takes the ace with the 3 in the
    last trick: 9 + 3 = 12. Leading the ace, seat 0 either wins it with the
    3 (then the 2 beats the queen in the last trick: 9 + 3 + 5 = 17) or
    ducks with the queen (9 + 5 = 14, the 3 taking the last trick): 14.
    """
    state = last_actions(cb.CAVENDISH, 7, tricks=10)
    assert (state.declarer, state.to_move) == (1, 1)
    assert [str(h) for h in state.hands] == ["3d Qd", "2d Ad", "3h 2s"]
    assert state.card_units_won[1] == 9
    solution = solve(state, line=True, all_best=True)
    assert solution.declarer_units == 14
    assert solution.best_actions == (cb.Play(cb.Card.parse("Ad")),)
    assert [str(a) for a in solution.best_line] == [
        "play Ad", "play 3h", "play Qd", "play 2d", "play 2s", "play 3d"
    ]  # fmt: skip
    assert solution.nodes >= 0


def test_two_top_cards_take_everything_at_a_table_of_four() -> None:
    """Cavendish for four: the dealer (seat 0) sits out; seat 1 stood with 6 units won.

    He holds 3d 2d, the two top diamonds; seat 2 Kd Jd, seat 3 Qh 3s. He
    leads and wins both tricks whichever he leads: 6 + 6 card units, plus
    the last trick, 3 and the stock As Ks 6s 3c (5): 20. Both leads are best.
    """
    state = last_actions(cb.Cavendish(players=4), 1, tricks=10)
    assert (state.dealer, state.declarer, state.to_move) == (0, 1, 1)
    assert [str(h) for h in state.hands] == ["", "3d 2d", "Kd Jd", "Qh 3s"]
    solution = solve(state, all_best=True)
    assert solution.declarer_units == 20
    assert [str(a) for a in solution.best_actions] == ["play 3d", "play 2d"]


def test_the_last_trick_mid_trick() -> None:
    """Calabresella solissimo, seat 1 with 12 units; the last trick, 2d led by seat 2.

    Seat 0 must play the Ad, seat 1 wins with the 3d: 2d Ad 3d are 5 units,
    the monte Kc Qc 6c 5c 2, the last trick 3: 12 + 10 = 22.
    """
    state = last_actions(cb.CALABRESELLA, 4, tricks=11)
    state = cb.apply(state, cb.Play(cb.Card.parse("2d")))
    assert (state.declarer, state.to_move, str(state.stock)) == (1, 0, "Kc Qc 6c 5c")
    assert state.card_units_won[1] == 12
    solution = solve(state, all_best=True)
    assert solution.declarer_units == 22
    assert solution.best_actions == (cb.Play(cb.Card.parse("Ad")),)


def test_adversaries_holding_every_top_card_leave_the_declarer_his_units() -> None:
    """Cavendish, seat 0 leads to trick 11 holding 3d 2d against Ad Qd and Jd 7d.

    Everyone holds only diamonds and seat 0 the two top ones: the
    adversaries take both tricks whatever seat 0 leads, so the declarer
    (seat 1) ends with the 2 units he has.
    """
    state = last_actions(cb.CAVENDISH, 5, tricks=10)
    assert [str(h) for h in state.hands] == ["3d 2d", "Ad Qd", "Jd 7d"]
    assert (state.declarer, state.to_move, state.card_units_won[1]) == (1, 0, 2)
    solution = solve(state, all_best=True)
    assert solution.declarer_units == 2
    assert [str(a) for a in solution.best_actions] == ["play 3d", "play 2d"]


# --- against brute force -------------------------------------------------------------------

RULESETS = (
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(players=4, first_lead="after_declarer"),
    cb.Calabresella(follow_suit=False),
    cb.Calabresella(players=4, stramazzo="no_points", first_lead="eldest_except_solissimo"),
    cb.Cavendish(irregularities="record"),
)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: repr(r))
@pytest.mark.parametrize("seed", range(6))
def test_endings_match_brute_force(rules: cb.Ruleset, seed: int) -> None:
    """Value, best actions and every action's value agree with a plain minimax (3-4 tricks)."""
    state = random_ending(rules, seed, cards_left=9 + 3 * (seed % 2) - seed % 3)
    value, best = brute(state)
    solution = solve(state, all_best=True)
    assert solution.declarer_units == value
    assert solution.best_actions == best
    assert action_values(state) == brute_values(state)


def test_five_tricks_match_brute_force() -> None:
    """Deeper endings (five tricks, either ruleset) against the plain minimax."""
    for seed, rules in enumerate((cb.CAVENDISH, cb.CALABRESELLA)):
        state = random_ending(rules, 100 + seed, cards_left=15)
        assert (solve(state, all_best=True).declarer_units, solve(state, all_best=True).best_actions) == brute(state)


def test_revokes_already_made_count_in_table_mode() -> None:
    """Table mode: revokes recorded before the solve move 9 units each (no side below 0)."""
    rules = cb.Cavendish(irregularities="record")
    seen = 0
    for seed in range(40):
        chances = [True]  # one revoke per deal, at the first chance

        def once(_: cb.State, left: list[bool] = chances) -> bool:
            return bool(left) and left.pop()

        state = random_ending(rules, seed, 9, extra=once)
        if not any(isinstance(a, cb.Revoke) for _, a in state.history):
            continue
        seen += 1
        value, best = brute(state)
        solution = solve(state, all_best=True)
        assert (solution.declarer_units, solution.best_actions) == (value, best)
        if seen == 4:
            break
    assert seen == 4


# --- lines of play --------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.Calabresella(follow_suit=False)], ids=repr)
def test_following_best_actions_ends_with_the_promised_units(rules: cb.Ruleset) -> None:
    """Each seat plays one of its best actions, re-solving each time: the engine's Result
    gives exactly the units the first solve promised, and each re-solve promises the same."""
    rng = random.Random(5)
    state = random_ending(rules, 11, cards_left=15)
    promised = solve(state, all_best=True).declarer_units
    while not state.is_over:
        solution = solve(state, all_best=True)
        assert solution.declarer_units == promised
        state = cb.apply(state, rng.choice(solution.best_actions))
    assert state.result is not None
    assert state.result.declarer_units == promised


def test_best_line_replays_to_the_promised_units() -> None:
    """``best_line`` is legal move by move and ends the deal with the promised units."""
    state = random_ending(cb.CALABRESELLA, 3, cards_left=16)  # mid-trick
    solution = solve(state, line=True, all_best=True)
    assert len(solution.best_line) == 16
    for action in solution.best_line:
        state = cb.apply(state, action)
    assert state.result is not None
    assert state.result.declarer_units == solution.declarer_units


def test_no_line_unless_asked() -> None:
    """``best_line`` is empty unless ``line=True``."""
    assert solve(last_actions(cb.CAVENDISH, 7, tricks=10)).best_line == ()


# --- the value, the state and errors ------------------------------------------------------


def test_solution_is_a_frozen_value_and_the_state_is_untouched() -> None:
    """Solving twice gives equal solutions; the state is unchanged; a Solution is frozen."""
    state = random_ending(cb.CAVENDISH, 4, cards_left=12)
    before = (state.hand_masks, state.trick_cards, state.history, hash(state))
    first, second = solve(state, all_best=True), solve(state, all_best=True)
    assert first == second
    assert before == (state.hand_masks, state.trick_cards, state.history, hash(state))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        first.declarer_units = 0  # type: ignore[misc]
    assert isinstance(first, Solution)


def test_a_state_outside_the_play_is_refused() -> None:
    """The auction, the exchange and a finished deal raise SolveError (a StateError, a ValueError)."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    with pytest.raises(SolveError, match="play phase, not in BIDDING"):
        solve(state, all_best=True)
    state = cb.apply(state, cb.Bid(cb.Contract.STAND))
    with pytest.raises(SolveError, match="not in CALLING"):
        action_values(state)
    while not state.is_over:
        state = cb.apply(state, cb.legal_actions(state)[0])
    with pytest.raises(SolveError, match="not in OVER"):
        solve(state, all_best=True)
    assert issubclass(SolveError, cb.StateError)
    assert issubclass(SolveError, ValueError)


def test_a_view_or_junk_is_refused() -> None:
    """A View (what one seat knows) or anything else is not a state to solve."""
    state = last_actions(cb.CAVENDISH, 7, tricks=10)
    with pytest.raises(SolveError, match="was given a View"):
        solve(state.view(1))  # type: ignore[arg-type]
    with pytest.raises(SolveError, match="needs a State"):
        solve("3d Qd")  # type: ignore[arg-type]


def test_the_solver_caches_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a solve, no module-wide cache of the solver holds more than CACHE_LIMIT entries."""
    from calabrasella.bots import _solver_moves as moves

    monkeypatch.setattr(moves, "CACHE_LIMIT", 20)
    for cache in moves._CACHES:
        cache.clear()
    solve(random_ending(cb.CAVENDISH, 3, cards_left=18))  # six tricks: some caches pass 20
    assert all(len(cache) <= 20 for cache in moves._CACHES)
    assert moves._WHOLE_LIMIT <= 1 << 17  # the one cache trimmed during a search


def test_compiled_says_whether_the_compiled_search_is_in_use() -> None:
    """COMPILED is True when the extension module is built and in use, else False.

    An install with a C compiler has it (CI's checks expect it:
    CALABRASELLA_EXPECT_COMPILED=1); CALABRASELLA_PURE_SOLVER=1 turns it off.
    """
    from calabrasella.bots import _solver_core, solver

    assert isinstance(solver.COMPILED, bool)
    assert (_solver_core.NATIVE is not None) == solver.COMPILED
    search = solver._new_search(3, True)
    assert isinstance(search, _solver_core.NativeSearch) == solver.COMPILED


@pytest.mark.parametrize("function", [solve, action_values])
def test_a_solve_leaves_no_search_behind(function: Callable[[cb.State], object]) -> None:
    """The search and its tables are freed when the call returns, not at a later
    collection: nothing of the search may keep itself alive in a reference cycle."""
    import gc

    from calabrasella.bots import _solver_core

    state = random_ending(cb.CAVENDISH, 5, cards_left=18)
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        function(state)
        left = [o for o in gc.get_objects() if isinstance(o, _solver_core.Search)]
    finally:
        if enabled:
            gc.enable()
    assert left == []


@pytest.mark.parametrize("seed", range(6))
def test_the_exact_hands_table_changes_the_speed_only(seed: int) -> None:
    """With or without the table of exact hands (on by default), a
    search finds the same value over the same nodes; the value is solve()'s."""
    from calabrasella.bots import _solver_core as core
    from calabrasella.bots.solver import _root

    state = random_ending((cb.CAVENDISH, cb.CALABRESELLA)[seed % 2], seed, cards_left=24)
    root = _root(state, "solve")
    assert not root.trick and not root.net_revokes  # eight tricks from a trick's start
    found = []
    for exact in (True, False):
        search = core.Search(root.search.bonus, root.search.follow, exact_table=exact)
        found.append((search.value(*root.hands, root.leader), search.nodes))
    assert found[0] == found[1]
    assert root.won + found[0][0] == solve(state, all_best=True).declarer_units
    assert core.Search(3, True).exact_table
