"""Compact pickles: states, views and results load back as equal values, of every phase.

A state pickles as plain ints, masks and action codes, its ruleset by the
registered name and options (see ``calabrasella._pickle``); these tests hold
it to the same values back (equality and hash), for every state of random
deals under every ruleset and option, and to the size the issue asks for.
"""

from __future__ import annotations

import pickle
from typing import TypeVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import PRESETS, Playout, playouts, seeds

import calabrasella as cb

T = TypeVar("T")


@attrs.frozen(kw_only=True)
class House(cb.Cavendish):
    """A Cavendish variant defined in the tests, registered only inside ``with`` blocks."""

    name = "house-pickling"


def round_trip(obj: T) -> T:
    loaded: T = pickle.loads(pickle.dumps(obj))
    return loaded


@given(playouts())
def test_every_state_loads_back_equal_with_an_equal_hash(playout: Playout) -> None:
    """Each state of a deal, from the first to the last, pickles and loads as an equal value."""
    for state in playout.states:
        loaded = round_trip(state)
        assert isinstance(loaded, cb.State)
        assert loaded == state and hash(loaded) == hash(state)
        assert loaded.history == state.history and loaded.exchange == state.exchange


@given(playouts())
def test_a_loaded_state_plays_on_as_the_original(playout: Playout) -> None:
    """A loaded state lists the same legal actions and, given the same action, moves alike."""
    for state, action in playout.steps():
        loaded = round_trip(state)
        assert cb.legal_actions(loaded) == cb.legal_actions(state)
        assert cb.apply(loaded, action) == cb.apply(state, action)


@given(playouts())
def test_every_view_and_the_result_load_back_equal(playout: Playout) -> None:
    """Each seat's view of each state, and the result, pickle and load as equal values."""
    for state in playout.states[:: max(1, len(playout.states) // 8)] + (playout.final,):
        for seat in range(state.players):
            view = state.view(seat)
            loaded = round_trip(view)
            assert loaded == view and hash(loaded) == hash(view)
    result = playout.final.result
    assert result is not None
    assert round_trip(result) == result and hash(round_trip(result)) == hash(result)


@given(playouts(rules=st.sampled_from(PRESETS)))
def test_a_preset_state_before_the_end_pickles_in_800_bytes(playout: Playout) -> None:
    """Every state of a preset deal before its end pickles in at most 800 bytes."""
    for state in playout.states[:-1]:
        assert len(pickle.dumps(state)) <= 800


@given(seeds())
def test_an_unregistered_ruleset_travels_as_itself_a_registered_one_by_name(seed: int) -> None:
    """Unregistered, the ruleset is pickled itself; registered, by name, and loading such a
    pickle once the name is gone says so."""
    state = cb.new_deal(House(), seed=seed)
    assert round_trip(state) == state
    with cb.registered_ruleset(House):
        by_name = pickle.dumps(state)
        assert pickle.loads(by_name) == state
    assert len(by_name) < len(pickle.dumps(state))
    with pytest.raises(cb.RulesetError, match="not registered"):
        pickle.loads(by_name)
