"""The solver's threshold answer (does each play reach N units?), held to its exact values.

``_action_wins`` is the cheap path a ``SamplingBot(win_only=True)`` takes under
Calabresella: one null-window test a class of equivalent cards instead of the
exact value. Here it must say, for every legal play, exactly what
``action_values`` says when compared with the threshold.
"""

from __future__ import annotations

import pytest
from test_solver import random_ending

import calabrasella as cb
from calabrasella.bots.solver import SearchLimitError, _action_wins, action_values

RULESETS = (cb.CAVENDISH, cb.CALABRESELLA, cb.Calabresella(follow_suit=False))
THRESHOLDS = (-3, 0, 1, 5, 10, 18, 24, 35, 36)


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_the_threshold_answer_agrees_with_the_exact_values(rules: cb.Ruleset) -> None:
    """Endings of three to six tricks, mid-trick too, every threshold from below 0 to above 35."""
    answers: set[bool] = set()
    for seed in range(10):
        state = random_ending(rules, seed, cards_left=8 + seed)
        values = action_values(state)
        for units in THRESHOLDS:
            wins, nodes = _action_wins(state, "test", units, None, 0.0)
            assert wins == {play: value >= units for play, value in values.items()}, (seed, units)
            assert nodes >= 0
            answers.update(wins.values())
    assert answers == {True, False}  # both answers were given


def test_revokes_in_table_mode_move_the_threshold() -> None:
    """With revokes recorded (9 units each, clamped to 0..35) the threshold applies to the
    units the Result will give, as action_values reports them."""
    rules = cb.Cavendish(irregularities="record")
    checked = 0
    for seed in range(60):
        chances = [True]

        def once(_: cb.State, left: list[bool] = chances) -> bool:
            return bool(left) and left.pop()

        state = random_ending(rules, seed, 9, extra=once)
        if not any(isinstance(action, cb.Revoke) for _, action in state.history):
            continue
        values = action_values(state)
        for units in range(0, 37, 3):
            wins, _ = _action_wins(state, "test", units, None, 0.0)
            assert wins == {play: value >= units for play, value in values.items()}
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_a_node_limit_stops_it() -> None:
    """A whole deal's play cannot be decided in one node: SearchLimitError, as for values."""
    state = random_ending(cb.CALABRESELLA, 3, cards_left=33)
    with pytest.raises(SearchLimitError):
        _action_wins(state, "test", 18, 1, 0.0)
