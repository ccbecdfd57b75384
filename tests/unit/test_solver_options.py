"""The solver's options (one best action, a first guess, a node limit) on whole deals.

Whole deals are too large for brute force, so the reference here is a plain
alpha-beta written in this file: whole tricks of every legal card, no
transposition table, no bounds, no equivalent cards, over
``cb.legal_actions`` and ``cb.apply``, scored by the engine's own
``Result.declarer_units``. It is fast enough only for endings of up to six
tricks; on whole deals the options are checked against each other and
against the solver's own driver with no option (a different path through
the search), and the best action they name is checked by re-solving the
position after it.
"""

from __future__ import annotations

import random

import pytest

import calabrasella as cb
from calabrasella.bots.solver import SearchLimitError, SolveError, action_values, solve


def alphabeta(state: cb.State, alpha: int, beta: int) -> int:
    """The declarer's final units under perfect play, within (alpha, beta) (fail-hard)."""
    if state.is_over:
        assert state.result is not None
        return state.result.declarer_units
    maximise = state.to_move == state.declarer
    plays = [a for a in cb.legal_actions(state) if isinstance(a, cb.Play)]
    for action in plays:
        v = alphabeta(cb.apply(state, action), alpha, beta)
        if maximise and v > alpha:
            alpha = v
        elif not maximise and v < beta:
            beta = v
        if alpha >= beta:
            break
    return alpha if maximise else beta


def random_play_state(rules: cb.Ruleset, seed: int, tricks_left: int) -> cb.State:
    """A seeded random deal (random bid, exchange and play) with ``tricks_left`` tricks left."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % 3, seed=seed)
    state = cb.apply(state, next(a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)))
    while not state.is_over:
        left = 12 - state.tricks_played
        if state.phase is cb.Phase.PLAYING and left <= tricks_left and not state.trick_cards:
            break
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        regular = [
            a for a in cb.legal_actions(state) if not isinstance(a, (cb.Revoke, cb.TurnStock))
        ]
        state = cb.apply(state, rng.choice(regular))
    assert state.phase is cb.Phase.PLAYING
    return state


@pytest.mark.parametrize("seed", range(6))
def test_five_trick_endings_against_a_plain_alpha_beta(seed: int) -> None:
    """With five tricks left, every option gives the plain alpha-beta's units."""
    rules = (cb.CAVENDISH, cb.CALABRESELLA)[seed % 2]
    state = random_play_state(rules, 100 + seed, 5)
    expected = alphabeta(state, -1, 36)
    assert solve(state, all_best=True).declarer_units == expected
    for guess in (0, expected, 35):
        one = solve(state, all_best=False, guess=guess)
        assert one.declarer_units == expected
        (action,) = one.best_actions
        assert alphabeta(cb.apply(state, action), -1, 36) == expected


# Whole deals of twelve tricks (random bid, exchange): each option must agree with the
# plain solve.
HARD = [(cb.CAVENDISH, 2), (cb.CALABRESELLA, 5), (cb.CAVENDISH, 6)]


@pytest.mark.parametrize(("rules", "seed"), HARD, ids=lambda x: str(x))
@pytest.mark.slow
def test_whole_deals_one_best_and_guesses_agree(rules: cb.Ruleset, seed: int) -> None:
    """One best action and a first guess give the plain solve's units, and the one action
    is among its best actions; its value (action_values) is the units."""
    state = random_play_state(rules, seed, 12)
    plain = solve(state, all_best=True)
    for guess in (None, 0, plain.declarer_units, 35):
        one = solve(state, all_best=False, guess=guess)
        assert one.declarer_units == plain.declarer_units
        assert one.best_actions[0] in plain.best_actions
    values = action_values(state)
    assert values[plain.best_actions[0]] == plain.declarer_units


def test_a_node_limit_gives_up_with_search_limit_error() -> None:
    """Past max_nodes the solve raises SearchLimitError (a SolveError); a limit above the
    work done changes nothing."""
    state = random_play_state(cb.CAVENDISH, 2, 12)
    plain = solve(state, all_best=True)
    with pytest.raises(SearchLimitError, match="gave up"):
        solve(state, max_nodes=10)
    assert issubclass(SearchLimitError, SolveError)
    again = solve(state, max_nodes=plain.nodes + 1, all_best=True)
    assert again.declarer_units == plain.declarer_units
    assert again.best_actions == plain.best_actions


@pytest.mark.parametrize(
    "options", [{"max_nodes": 0}, {"max_nodes": 1.5}, {"max_nodes": True}, {"guess": 1.0}]
)
def test_bad_options_raise_solve_error(options: dict[str, object]) -> None:
    state = random_play_state(cb.CAVENDISH, 2, 3)
    with pytest.raises(SolveError):
        solve(state, **options)  # type: ignore[arg-type]
