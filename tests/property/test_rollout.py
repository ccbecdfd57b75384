"""``rollout`` is the random bot loop, to the draw: the same final state for the same rng.

The loop it must equal (the README's, every seat choosing with
``rng.choice(legal_actions(state))`` and chance drawn with
``sample_chance(state, rng)``) is written out here, and both are run from
random mid-deal states of every ruleset and option, table mode included
(where the legal actions list the irregular ones too), and of the swap
variant of the examples, whose exchange step the package does not know.
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from strategies import Playout, playouts, rulesets_and_variants

import calabrasella as cb


def the_loop(state: cb.State, rng: random.Random) -> cb.State:
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


class CountingRandom(random.Random):
    """A generator of its own class: ``rollout`` must call its ``choice`` and ``randrange``."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def choice(self, seq):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().choice(seq)

    def randrange(self, *args):  # type: ignore[no-untyped-def]
        self.calls += 1
        return super().randrange(*args)


@given(playouts(rulesets_and_variants()), st.data(), st.integers(min_value=0, max_value=2**32 - 1))
def test_rollout_ends_where_the_loop_ends_with_the_same_draws(
    playout: Playout, data: st.DataObject, seed: int
) -> None:
    """From any state of a deal, rollout and the loop reach equal final states, histories
    included, and leave their generators in the same state."""
    at = data.draw(st.integers(min_value=0, max_value=len(playout.states) - 1), label="from state")
    start = playout.states[at]
    ours, theirs = random.Random(seed), random.Random(seed)
    end = cb.rollout(start, ours)
    expected = the_loop(start, theirs)
    assert end == expected
    assert end.history == expected.history and end.result == expected.result
    assert ours.getstate() == theirs.getstate()


@given(playouts(rulesets_and_variants()), st.data(), st.integers(min_value=0, max_value=2**32 - 1))
def test_rollout_draws_through_a_subclass_own_methods(
    playout: Playout, data: st.DataObject, seed: int
) -> None:
    """With a generator that overrides choice and randrange, rollout calls them as the loop does."""
    at = data.draw(st.integers(min_value=0, max_value=len(playout.states) - 1), label="from state")
    start = playout.states[at]
    ours, theirs = CountingRandom(seed), CountingRandom(seed)
    assert cb.rollout(start, ours) == the_loop(start, theirs)
    assert ours.calls == theirs.calls and ours.getstate() == theirs.getstate()
