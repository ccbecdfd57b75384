"""What RULES.md says is always true, over random deals and random legal play.

One test per invariant ("What is always true"), each over deals drawn by
:func:`strategies.playouts` (any preset or option combination of either
ruleset, any dealer, uniformly random legal actions), then the public
conformance helper :func:`calabrasella.testing.check_ruleset` on the presets
and on random variants (``tests/unit/test_testing_kit.py`` has the broken
cases it must reject). The tests share the helper's tools rather than copy
them: :func:`~calabrasella.testing.state_contents`,
:func:`~calabrasella.testing.played_cards`,
:func:`~calabrasella.testing.recount_tricks`,
:func:`~calabrasella.testing.cards_seat_may_know` and the relabelling functions.
"""

from __future__ import annotations

import contextlib
import pickle
from collections import Counter
from typing import Any, Callable

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from strategies import (
    PRESETS,
    Playout,
    actions,
    junk,
    playouts,
    rulesets_and_variants,
    seeds,
    swap_variant,
)

import calabrasella as cb
from calabrasella.testing import (
    CheckReport,
    cards_seat_may_know,
    check_ruleset,
    played_cards,
    recount_tricks,
    relabel_action,
    relabel_cards,
    revoke_penalty,
    same_contents,
    state_contents,
    table_mode_problem,
)

# ``apply`` and ``is_legal`` called with anything, junk included.
apply_any: Callable[[cb.State, Any], cb.State] = cb.apply
is_legal_any: Callable[[cb.State, Any], bool] = cb.is_legal


# --- 40 cards are always accounted for ---------------------------------------------


@given(playouts())
def test_cards_are_accounted_for_exactly_once(playout: Playout) -> None:
    """Hands + stock + completed tricks + current trick hold each of the 40 cards once."""
    for state in playout.states:
        played = [card for _, card in played_cards(state)]
        where = Counter([card for hand in state.hands for card in hand])
        where.update(state.stock)
        where.update(played)
        assert where == Counter(cb.DECK), f"after {len(state.history)} actions"
        in_trick = len(played) % 3
        assert state.trick == tuple(played[len(played) - in_trick :])


# --- applying an action never changes the state it was applied to --------------------


@given(playouts(), st.lists(st.one_of(actions(), junk()), max_size=3))
def test_apply_never_changes_its_input_state(playout: Playout, probes: list[object]) -> None:
    """Neither a legal action nor a refused one changes the state it was applied to.

    A state is a slotted value of immutable fields (``copy.copy`` returns it
    itself): it changes only if a slot is rebound, which the identity of
    its fields shows; its hash and an equal twin rebuilt by pickling show a
    change of value.
    """
    for state, action in playout.steps():
        twin = pickle.loads(pickle.dumps(state))
        digest, snapshot = hash(state), state_contents(state)
        after = cb.apply(state, action)
        for probe in probes:
            with contextlib.suppress(cb.IllegalActionError):
                apply_any(state, probe)
        assert twin is not state
        assert state == twin
        assert hash(state) == digest
        assert same_contents(snapshot, state_contents(state))
        assert after.history == (*state.history, after.history[-1])
        assert after.history[-1][1] == action


# --- listed actions apply; unlisted ones raise, naming the action, and change nothing --


@given(playouts(), st.lists(st.one_of(actions(), junk()), min_size=1, max_size=6))
def test_listed_actions_apply_and_unlisted_ones_raise(
    playout: Playout, probes: list[object]
) -> None:
    """Every listed action applies; unlisted ones (revokes included) raise IllegalActionError."""
    for state in playout.states:
        legal = cb.legal_actions(state)
        assert len(set(legal)) == len(legal)
        assert bool(legal) != state.is_over
        for action in legal:
            cb.apply(state, action)
            assert cb.is_legal(state, action)
        unlisted = [p for p in probes if p not in legal]
        if state.phase is cb.Phase.PLAYING and state.to_move is not None:
            # revokes: a card held but not of the suit led, while holding that suit
            unlisted += [p for p in map(cb.Play, state.hand(state.to_move)) if p not in legal]
        before = state_contents(state)
        for probe in unlisted:
            with pytest.raises(cb.IllegalActionError) as info:
                apply_any(state, probe)
            assert info.value.action is probe
            assert info.value.reason
            assert not is_legal_any(state, probe)
            assert same_contents(before, state_contents(state))


# --- the same deal and the same actions always give the same result --------------------


@given(playouts())
def test_same_deal_and_actions_give_the_same_states(playout: Playout) -> None:
    """Replaying a deal (from its seed, or its cards) with its actions gives equal states."""
    first = playout.states[0]
    assert cb.new_deal(playout.rules, dealer=playout.dealer, seed=playout.seed) == first
    deal = first.deal
    state = cb.deal_from(playout.rules, deal.hands, deal.stock, dealer=deal.dealer)
    for recorded, action in playout.steps():
        assert state == recorded
        assert cb.legal_actions(state) == cb.legal_actions(recorded)
        state = cb.apply(state, action)
    assert state == playout.final
    assert hash(state) == hash(playout.final)
    assert state.result == playout.final.result


# --- a finished deal shares 35 units; payments add up to 0 ---------------------------


@given(playouts())
def test_finished_deal_shares_35_units_and_payments_sum_to_zero(playout: Playout) -> None:
    """Not void: the sides' units add to 35 (points to 11), as the tricks say; payments to 0.

    The tricks are recounted from the history by the conformance kit's
    :func:`~calabrasella.testing.recount_tricks`, not by the engine's scoring.
    """
    final = playout.final
    result = final.result
    assert final.is_over and result is not None
    assert len(result.payments) == playout.rules.players
    assert sum(result.payments) == 0
    if result.void:
        if final.history and isinstance(final.history[-1][1], cb.TurnStock):  # table mode
            assert table_mode_problem(final) is None
        else:
            assert not any(result.payments)
        assert not played_cards(final)
        return
    assert result.declarer_units + result.adversary_units == 35
    assert result.declarer_points + result.adversary_points == 11
    if isinstance(final.history[-1][1], cb.Abandon):  # table mode: abandoned after a card out of turn
        assert min(result.declarer_units, result.adversary_units) >= 0
        return
    du, au, dt, at = recount_tricks(final)
    penalty = revoke_penalty(final, du, au)  # table mode's revokes (0 otherwise)
    assert (du + penalty, au - penalty, dt, at) == (
        result.declarer_units,
        result.adversary_units,
        result.declarer_tricks,
        result.adversary_tricks,
    )


# --- a player's view never depends on cards that player cannot know ---------------------


@given(playouts(), st.data())
def test_view_does_not_depend_on_cards_the_seat_cannot_know(
    playout: Playout, data: st.DataObject
) -> None:
    """Swap the cards a seat cannot know for others of their suit: its views stay equal.

    What the seat may know is the conformance kit's
    :func:`~calabrasella.testing.cards_seat_may_know`, worked out from the
    state and the exchange steps' ``hidden_from``, not from the views.
    """
    k = data.draw(st.integers(min_value=0, max_value=len(playout.actions)), label="step")
    seat = data.draw(st.integers(min_value=0, max_value=playout.rules.players - 1), label="seat")
    unknown = cb.CardSet.all() - cards_seat_may_know(playout.states[k], seat)
    perm = list(range(40))  # card i becomes card perm[i]
    for suit in cb.Suit:
        group = [card.index for card in unknown.suit(suit)]
        perm_group = data.draw(st.permutations(group))
        for src, dst in zip(group, perm_group, strict=True):
            perm[src] = dst
    deal = playout.states[0].deal
    world = [
        cb.deal_from(
            playout.rules,
            [relabel_cards(hand, perm) for hand in deal.hands],
            relabel_cards(deal.stock, perm),
            dealer=deal.dealer,
        )
    ]
    for action, recorded in zip(playout.actions[:k], playout.states[1:], strict=False):
        try:
            state = cb.apply(world[-1], relabel_action(action, perm))
        except cb.IllegalActionError:
            reject()  # the seat saw something this world contradicts
        if (state.phase, state.to_move) != (recorded.phase, recorded.to_move):
            reject()  # so did everybody
        world.append(state)
    for step, (state, alternative) in enumerate(zip(playout.states, world, strict=False)):
        assert state.view(seat) == alternative.view(seat), f"seat {seat}, step {step}"


# --- the conformance helper -----------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
@pytest.mark.slow
def test_check_ruleset_passes_for_every_preset(rules: cb.Ruleset) -> None:
    """The public helper finds nothing wrong with the presets over 300 deals."""
    report = check_ruleset(rules, deals=300, seed=1)
    assert isinstance(report, CheckReport)
    assert report.deals == 300
    assert report.decisions > 300 * 10
    assert report.illegal_probes > report.decisions
    assert report.replays == 300
    assert report.views_checked > 0


@settings(max_examples=8)
@given(rulesets_and_variants(), seeds())
@pytest.mark.slow
def test_check_ruleset_passes_for_random_variants(rules: cb.Ruleset, seed: int) -> None:
    """Every option combination of either ruleset, and the swap variant of the examples
    (an exchange step of its own, with its own kind of action), passes the helper."""
    swap = swap_variant()
    if isinstance(rules, swap.SwapCavendish):
        with cb.registered_action(swap.Swap):  # (the kit checks its kind is registered)
            assert check_ruleset(rules, deals=15, seed=seed).deals == 15
    else:
        assert check_ruleset(rules, deals=15, seed=seed).deals == 15
