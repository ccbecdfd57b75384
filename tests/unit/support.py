"""Helpers shared by the unit tests."""

from __future__ import annotations

import importlib.util
import pickle
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import cast

import pytest

import calabrasella as cb
from calabrasella.testing import same_contents, state_contents


def assert_illegal(state: cb.State, action: object, *words: str) -> cb.IllegalActionError:
    """Apply ``action``, expect IllegalActionError naming it and a reason; ``state`` is unchanged."""
    before = state_contents(state)
    twin = pickle.loads(pickle.dumps(state))  # an equal state built anew
    digest = hash(state)
    with pytest.raises(cb.IllegalActionError) as info:
        cb.apply(state, cast(cb.Action, action))
    error = info.value
    assert isinstance(error, ValueError)
    assert error.action is action
    assert error.reason
    for word in words:
        assert word in error.reason.lower(), (word, error.reason)
    assert same_contents(before, state_contents(state))
    assert state == twin
    assert hash(state) == digest
    assert not cb.is_legal(state, cast(cb.Action, action))
    assert action not in cb.legal_actions(state)
    return error


def make_tally(
    *,
    declarer_cards: int,
    adversary_cards: int | None = None,
    stock: int,
    declarer_last: bool,
    contract: cb.Contract = cb.Contract.STAND,
    modifier: cb.Modifier | None = None,
    players: int = 3,
    dealer: int = 0,
    declarer: int = 1,
    declarer_tricks: int = 6,
) -> cb.Tally:
    """A tally built by hand; the cards in tricks and the stock add to 32 units.

    ``adversary_cards`` defaults to the rest of the 32 card units.
    """
    if adversary_cards is None:
        adversary_cards = 32 - declarer_cards - stock
    assert declarer_cards + adversary_cards + stock == 32
    return cb.Tally(
        players=players,
        dealer=dealer,
        declarer=declarer,
        contract=contract,
        modifier=modifier,
        declarer_card_units=declarer_cards,
        adversary_card_units=adversary_cards,
        stock_units=stock,
        declarer_last=declarer_last,
        declarer_tricks=declarer_tricks,
        adversary_tricks=12 - declarer_tricks,
    )


cavendish_tally = make_tally


def load_example(name: str) -> ModuleType:
    """Load ``examples/<name>.py`` as a module (the examples are not a package)."""
    return load_script("examples", name, name)


def load_script(folder: str, name: str, key: str) -> ModuleType:
    """Load ``<folder>/<name>.py`` of the repository as the module ``key``, once."""
    path = Path(__file__).resolve().parents[2] / folder / f"{name}.py"
    spec = importlib.util.spec_from_file_location(key, path)
    assert spec is not None and spec.loader is not None
    module = sys.modules.get(key)
    if module is None:
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return module


def played(rules: cb.Ruleset, seed: int, steps: int | None = None) -> cb.State:
    """A seeded random deal of ``rules``, played to the end or to ``steps`` history entries."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    while not state.is_over and (steps is None or len(state.history) < steps):
        state = cb.apply(
            state,
            cb.sample_chance(state, rng)
            if state.is_chance
            else rng.choice(cb.legal_actions(state)),
        )
    return state
