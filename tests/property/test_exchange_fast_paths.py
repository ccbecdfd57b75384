"""The exchange's one-step paths (the auction's winning call, a call, a give-back, declining
to raise) give what the working copy gives, and refuse what it refuses, with the same words."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import Playout, general_exchange, playouts

import calabrasella as cb
from calabrasella import _driver
from calabrasella.actions import CALLS, DISCARDS, GIVE_BACKS, TAKES
from calabrasella.rulesets import Work


def general_begin(state: cb.State, after: cb.State) -> cb.State:
    """The state after the auction's winning call, made with a working copy."""
    ex = after.exchange
    assert ex is not None
    zeros = (0,) * state.players
    record = ex._replace(
        modifier=None, step=0, moved=0, called=-1, giver=-1, gave_back=-1, exposed=0,
        discards=zeros, taken=zeros, drawn=zeros, starts=(), forced=(), legal=(),
    )  # fmt: skip
    work = Work(state.rules, list(state.hand_masks), state.stock_mask, record, len(after.history))
    _driver.advance(work)
    return _driver.close(state, work, after.history)


def error_of(fn: object, *args: object) -> str:
    try:
        fn(*args)  # type: ignore[operator]
    except cb.IllegalActionError as e:
        return str(e)
    return "no error"


def assert_same_both_ways(state: cb.State, attempt: cb.Action) -> None:
    """``attempt`` is refused with the same words both ways, or gives the same state."""
    fast = error_of(cb.apply, state, attempt)
    slow = error_of(general_exchange, state, attempt)
    assert fast == slow
    if fast == "no error":
        assert cb.apply(state, attempt) == general_exchange(state, attempt)


@given(playouts())
def test_the_exchange_begins_as_the_working_copy_begins_it(playout: Playout) -> None:
    """After the auction's winning call, the first state of the exchange is the same both ways."""
    for state, action in playout.steps():
        if state.phase is cb.Phase.BIDDING:
            after = cb.apply(state, action)
            if after.phase is not cb.Phase.BIDDING and after.exchange is not None:
                assert after == general_begin(state, after)


@given(playouts(), st.randoms(use_true_random=False))
def test_calls_and_give_backs_build_what_the_working_copy_builds(
    playout: Playout, rng: random.Random
) -> None:
    """A call or a give-back, legal or not, gives the same state or the same refusal both ways."""
    for state, action in playout.steps():
        if state.phase not in (cb.Phase.CALLING, cb.Phase.GIVING_BACK):
            continue
        table: tuple[cb.Action, ...] = CALLS if state.phase is cb.Phase.CALLING else GIVE_BACKS
        tries: list[cb.Action] = [rng.choice(table), rng.choice(CALLS + GIVE_BACKS)]
        if type(action) in (cb.Call, cb.GiveBack):  # (not a stock turned early, in table mode)
            tries.append(action)
        for attempt in tries:
            assert_same_both_ways(state, attempt)


@given(playouts())
def test_declining_to_raise_builds_what_the_working_copy_builds(playout: Playout) -> None:
    """The declarer's pass or raise at solissimo gives the same state both ways."""
    for state, action in playout.steps():
        if state.phase is cb.Phase.RAISING:
            for attempt in (cb.Pass(), action):
                assert cb.apply(state, attempt) == general_exchange(state, attempt)


@given(playouts(), st.randoms(use_true_random=False))
def test_every_exchange_action_builds_what_the_working_copy_builds(
    playout: Playout, rng: random.Random
) -> None:
    """Any exchange action, legal or not (the end of a discard, a take, a done, a draw),
    gives the same state or the same refusal both ways."""
    for state, action in playout.steps():
        if state.exchange is None or state.phase in (
            cb.Phase.BIDDING, cb.Phase.PLAYING, cb.Phase.OVER
        ):  # fmt: skip
            continue
        tries: list[cb.Action] = [
            cb.Done(), rng.choice(DISCARDS), rng.choice(TAKES), *state.exchange.legal[:1],
            *state.exchange.legal[-1:]
        ]
        if type(action) is not cb.TurnStock:  # the listed instance, and an equal new one
            tries += [action, cb.parse_action(str(action))]
        for attempt in tries:
            assert_same_both_ways(state, attempt)


@pytest.mark.parametrize("raise_to", [cb.Modifier.DIVIDETE, cb.Modifier.SCEGLIETE])
def test_solissimo_raised_builds_what_the_working_copy_builds(raise_to: cb.Modifier) -> None:
    """Dividete's draws (one by chance, one forced) and discards, and scegliete's takes and
    discards, give the same state or the same refusal both ways, over seeded deals."""
    for seed in range(12):
        rng = random.Random(seed)
        state = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=seed), cb.Bid(cb.Contract.SOLISSIMO))
        state = general_exchange(state, cb.Raise(raise_to))  # the way the raise is held to
        assert state == cb.apply(
            cb.apply(cb.new_deal(cb.CALABRESELLA, seed=seed), cb.Bid(cb.Contract.SOLISSIMO)),
            cb.Raise(raise_to),
        )
        while state.phase is not cb.Phase.PLAYING:
            ex = state.exchange
            assert ex is not None
            tries = [*ex.legal[:1], *ex.legal[-1:], cb.Done(), rng.choice(DISCARDS), rng.choice(TAKES)]
            for attempt in tries:
                fast = error_of(cb.apply, state, attempt)
                assert fast == error_of(general_exchange, state, attempt)
                if fast == "no error":
                    assert cb.apply(state, attempt) == general_exchange(state, attempt)
            state = cb.apply(state, rng.choice(ex.legal))
        assert state.exchange is not None and state.exchange.modifier is raise_to
