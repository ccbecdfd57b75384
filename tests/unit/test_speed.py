"""Speed work that a caller can see: rollout's contract, the pickle's size, the deal's shuffle.

(Speed itself is measured in ``benchmarks/``, never in a test.)
"""

from __future__ import annotations

import pickle
import random
from collections.abc import MutableSequence
from typing import Any

import attrs
import pytest

import calabrasella as cb

STAND = cb.Bid(cb.Contract.STAND)


def cavendish_in_the_play() -> cb.State:
    """Cavendish, seed 7: eldest stands, asks for 3h, gives back 4h, discards 2, takes 2."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ("bid stand", "call 3h", "give back 4h", "discard 2d", "discard 5c", "done"):
        state = cb.apply(state, cb.parse_action(text))
    while state.phase is cb.Phase.TAKING:
        state = cb.apply(state, cb.legal_actions(state)[0])
    assert state.phase is cb.Phase.PLAYING
    return state


def test_rollout_refuses_a_view_and_a_bad_generator() -> None:
    """A view is not a state (StateError); a generator must be a Random or an int (SeedError)."""
    state = cb.new_deal(cb.CAVENDISH, seed=1)
    with pytest.raises(cb.StateError, match="rollout"):
        cb.rollout(state.view(1), random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(cb.SeedError, match="rng"):
        cb.rollout(state, "seven")  # type: ignore[arg-type]


def test_rollout_of_a_finished_deal_is_the_deal_and_draws_nothing() -> None:
    """Nothing is left to play: the same state comes back and the generator is untouched."""
    rng = random.Random(3)
    end = cb.rollout(cb.new_deal(cb.CAVENDISH, seed=1), rng)
    before = rng.getstate()
    assert cb.rollout(end, rng) is end
    assert rng.getstate() == before


def test_rollout_with_an_int_plays_with_a_random_of_that_seed() -> None:
    """``rollout(state, 5)`` is ``rollout(state, random.Random(5))``."""
    state = cb.new_deal(cb.CALABRESELLA, seed=11)
    assert cb.rollout(state, 5) == cb.rollout(state, random.Random(5))


def test_a_state_in_the_play_pickles_small() -> None:
    """A Cavendish state in the play pickles in well under 800 bytes (actions as codes)."""
    state = cavendish_in_the_play()
    for _ in range(15):
        state = cb.apply(state, cb.legal_actions(state)[-1])
    size = len(pickle.dumps(state))
    assert size <= 800, size
    assert pickle.loads(pickle.dumps(state)) == state


def test_the_shuffle_is_random_shuffle_dealt_in_packets() -> None:
    """new_deal shuffles the pack in card order with random.Random(seed).shuffle, then deals
    packets to the active seats from the eldest hand; the last four cards are the stock."""
    for rules in (cb.CAVENDISH, cb.Cavendish(players=4, packet=2)):
        for seed in range(200):
            dealer = seed % rules.players
            pack = list(range(40))
            random.Random(seed).shuffle(pack)
            hands = [0] * rules.players
            at = 0
            for _ in range(12 // rules.packet):
                for k in range(1, 4):
                    seat = (dealer + k) % rules.players
                    for card in pack[at : at + rules.packet]:
                        hands[seat] |= 1 << card
                    at += rules.packet
            state = cb.new_deal(rules, dealer=dealer, seed=seed)
            assert state.hand_masks == tuple(hands)
            assert state.stock_mask == sum(1 << card for card in pack[36:])


def test_a_random_subclass_shuffles_with_its_own_shuffle() -> None:
    """A generator of another class deals with its own ``shuffle``."""

    class Reversed(random.Random):
        def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
            x.reverse()

    state = cb.new_deal(cb.CAVENDISH, dealer=2, seed=Reversed(0))
    assert state.stock == cb.CardSet.parse("3d 2d Ad Kd")


def test_table_mode_follows_the_option_through_evolve_and_pickle() -> None:
    """Irregular actions are offered in the play exactly when the ruleset records them."""
    recording = attrs.evolve(cb.CAVENDISH, irregularities="record")
    for rules, offered in (
        (recording, True),
        (pickle.loads(pickle.dumps(recording)), True),
        (attrs.evolve(recording, irregularities="forbid"), False),
    ):
        state = cb.new_deal(rules, dealer=0, seed=7)
        for text in ("bid stand", "call 3h", "give back 4h", "discard 2d", "done"):
            state = cb.apply(state, cb.parse_action(text))
        state = cb.apply(state, cb.legal_actions(state)[0])  # take
        assert state.phase is cb.Phase.PLAYING
        kinds = {type(action) for action in cb.legal_actions(state)}
        assert (cb.OutOfTurn in kinds) is offered
        assert "irregularities" in rules.options() and "_play" not in rules.options()
