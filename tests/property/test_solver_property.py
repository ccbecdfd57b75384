"""The solver against brute force on random endings, and its lines replayed through the engine.

Endings: any ruleset and option (:func:`strategies.rulesets`: both games,
four at the table, ``follow_suit=False``, Cavendish table mode with a revoke
now and then), a random auction and exchange, then random legal play until
2 to 4 tricks are left, sometimes stopped within a trick. The brute force
is a plain minimax over ``cb.legal_actions`` and ``cb.apply`` (regular plays
only), scored by the engine's own ``Result.declarer_units``.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from strategies import rulesets, seeds

import calabrasella as cb
from brute_force import brute_values
from calabrasella.actions import IRREGULAR as _IRREGULAR
from calabrasella.bots.solver import action_values, solve


@st.composite
def endings(draw: st.DrawFn) -> cb.State:
    """A random deal in its play with 2 to 4 tricks left, possibly within a trick."""
    rules = draw(rulesets())
    seed = draw(seeds())
    rng = random.Random(draw(st.integers(min_value=0, max_value=2**32 - 1)))
    tricks_left = draw(st.integers(min_value=2, max_value=4))
    within = draw(st.integers(min_value=0, max_value=2))
    revoke_rate = draw(st.sampled_from((0.0, 0.0, 0.1)))
    state = cb.new_deal(rules, dealer=rng.randrange(rules.players), seed=seed)
    state = cb.apply(
        state, rng.choice([a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)])
    )
    while not state.is_over:
        if state.phase is cb.Phase.PLAYING:
            left = 12 - state.tricks_played
            if left < tricks_left or (left == tricks_left and len(state.trick_cards) == within):
                break
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        revokes = [a for a in actions if isinstance(a, cb.Revoke)]
        if revokes and rng.random() < revoke_rate:
            state = cb.apply(state, rng.choice(revokes))
        else:
            state = cb.apply(
                state, rng.choice([a for a in actions if not isinstance(a, _IRREGULAR)])
            )
    assert state.phase is cb.Phase.PLAYING
    return state


@given(endings())
def test_value_and_best_actions_match_brute_force(state: cb.State) -> None:
    """The declarer's units and the set of best actions equal a plain minimax's."""
    values = brute_values(state)
    best = max(values.values()) if state.to_move == state.declarer else min(values.values())
    solution = solve(state, all_best=True)
    assert solution.declarer_units == best
    assert solution.best_actions == tuple(a for a, v in values.items() if v == best)


@given(endings())
def test_action_values_match_brute_force(state: cb.State) -> None:
    """Every legal play's exact value equals a plain minimax's."""
    assert action_values(state) == brute_values(state)


@given(endings(), st.randoms(use_true_random=False))
def test_playing_best_actions_ends_with_the_promised_units(
    state: cb.State, choose: random.Random
) -> None:
    """Each seat plays any one of its best actions, re-solving after each move: every solve
    promises the same units, and the engine's Result ends with exactly them."""
    promised = solve(state, all_best=True).declarer_units
    while not state.is_over:
        solution = solve(state, all_best=True)
        assert solution.declarer_units == promised
        state = cb.apply(state, choose.choice(solution.best_actions))
    assert state.result is not None
    assert state.result.declarer_units == promised


@given(endings())
def test_best_line_ends_with_the_promised_units(state: cb.State) -> None:
    """The best line is legal move by move and the engine's Result gives the promised units."""
    solution = solve(state, line=True, all_best=True)
    for action in solution.best_line:
        state = cb.apply(state, action)
    assert state.is_over
    assert state.result is not None
    assert state.result.declarer_units == solution.declarer_units


@given(endings(), st.integers(min_value=-5, max_value=45))
def test_one_best_action_and_any_guess_match_brute_force(state: cb.State, guess: int) -> None:
    """``all_best=False`` returns one action a plain minimax calls best, and the units;
    a first guess, good or bad, changes neither the units nor the best actions."""
    values = brute_values(state)
    best = max(values.values()) if state.to_move == state.declarer else min(values.values())
    one = solve(state, all_best=False, guess=guess)
    assert one.declarer_units == best
    assert len(one.best_actions) == 1 and values[one.best_actions[0]] == best
    every = solve(state, guess=guess, all_best=True)
    assert every.declarer_units == best
    assert every.best_actions == tuple(a for a, v in values.items() if v == best)
