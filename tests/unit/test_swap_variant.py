"""examples/swap_variant.py: a variant whose exchange step lives outside the package.

The example is loaded from its file (examples/ is not a package); these
tests check that its step moves exactly one card each way, hides the swap
from everyone but the two adversaries, refuses what it must refuse without
touching the state, and that the variant passes the conformance check.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from support import assert_illegal, load_example

import calabrasella as cb
from calabrasella.rulesets.steps import Role, Work
from calabrasella.testing import check_ruleset

swap = load_example("swap_variant")


@pytest.fixture(autouse=True)
def _no_leak() -> Iterator[None]:
    """No test leaves the variant registered."""
    yield
    assert "cavendish-swap" not in cb.ruleset_names()


def stand(seed: int, **options: Any) -> cb.State:
    """A deal of the variant where the first seat to speak stands: the swap is next."""
    state = cb.new_deal(swap.SwapCavendish(**options), dealer=0, seed=seed)
    return cb.apply(state, cb.Bid(cb.Contract.STAND))


def adversaries(state: cb.State) -> tuple[int, int]:
    """The adversary after the declarer, then the other one."""
    order = state.deal.order
    i = order.index(state.declarer)
    return order[(i + 1) % 3], order[(i + 2) % 3]


def after_swaps(state: cb.State, rng: random.Random) -> cb.State:
    while state.phase is cb.Phase.GIVING_BACK:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


def test_the_first_adversary_is_asked_for_any_card_he_holds() -> None:
    state = stand(3)
    first, _ = adversaries(state)
    assert state.phase is cb.Phase.GIVING_BACK
    assert state.to_move == first
    assert state.legal_actions() == tuple(cb.GiveBack(card) for card in state.hand(first))
    assert state.view(first).legal_actions == state.legal_actions()


@pytest.mark.parametrize("seed", range(8))
def test_each_swap_moves_exactly_one_card_each_way(seed: int) -> None:
    rng = random.Random(seed)
    state = stand(seed)
    declarer = state.declarer
    assert declarer is not None
    first, second = adversaries(state)
    before = [state.hand(seat) for seat in range(3)]

    card = rng.choice(list(state.hand(first)))
    one = cb.apply(state, cb.GiveBack(card))
    assert one.hand(first) == before[first] - {card}
    assert one.hand(second) == before[second] | {card}
    assert one.hand(declarer) == before[declarer]
    assert one.to_move == second and one.phase is cb.Phase.GIVING_BACK

    back = rng.choice(list(one.hand(second)))  # may be the card just received
    two = cb.apply(one, cb.GiveBack(back))
    assert two.hand(second) == one.hand(second) - {back}
    assert two.hand(first) == one.hand(first) | {back}
    assert two.hand(declarer) == before[declarer]
    assert [len(h) for h in two.hands] == [12, 12, 12]
    assert two.stock == state.stock
    assert two.history[-2:] == ((first, cb.GiveBack(card)), (second, cb.GiveBack(back)))
    # then Cavendish's exchange: the single player asks for a card
    assert two.phase is cb.Phase.CALLING and two.to_move == declarer


@pytest.mark.parametrize("seed", range(6))
def test_only_the_adversaries_see_the_cards_swapped(seed: int) -> None:
    state = stand(seed)
    start = len(state.history)
    state = after_swaps(state, random.Random(seed))
    declarer = state.declarer
    assert declarer is not None
    swaps = state.history[start:]
    assert len(swaps) == 2
    assert state.view(declarer).history[start:] == (
        (swaps[0][0], cb.Hidden("swap")),
        (swaps[1][0], cb.Hidden("swap")),
    )
    for seat in adversaries(state):
        view = state.view(seat)
        assert view.history[start:] == swaps  # each adversary sees both: his own and the other's
        assert view.given_back is None  # and nothing of a give-back that has not happened


@pytest.mark.parametrize("seed", range(6))
def test_the_swap_stays_hidden_through_the_deal(seed: int) -> None:
    """After the give-back, the play and the result, the single player still sees no swapped card."""
    rng = random.Random(seed)
    state = stand(seed)
    start = len(state.history)
    while not state.is_over:
        state = cb.apply(state, rng.choice(state.legal_actions()))
    declarer = state.declarer
    assert declarer is not None
    assert [a for _, a in state.view(declarer).history[start : start + 2]] == [
        cb.Hidden("swap"),
        cb.Hidden("swap"),
    ]
    for seat in adversaries(state):
        view = state.view(seat)
        assert view.history[start : start + 2] == state.history[start : start + 2]
        # the give-back stays between the single player and the seat that gave
        assert (view.given_back is not None) == (seat == state.giver)


def test_the_dealer_sitting_out_sees_the_swap_hidden() -> None:
    state = stand(5, players=4)
    start = len(state.history)
    state = after_swaps(state, random.Random(5))
    dealer = state.deal.dealer
    assert dealer not in state.deal.order
    assert [a for _, a in state.view(dealer).history[start:]] == [
        cb.Hidden("swap"),
        cb.Hidden("swap"),
    ]
    for seat in adversaries(state):
        assert state.view(seat).history[start:] == state.history[start:]


def test_an_illegal_swap_is_refused_and_changes_nothing() -> None:
    state = stand(3)
    first, second = adversaries(state)
    declarer = state.declarer
    assert declarer is not None
    not_his = next(iter(state.hand(second)))
    error = assert_illegal(state, cb.GiveBack(not_his), "cannot pass", "not in his hand")
    assert f"seat {first}" in error.reason and str(not_his) in error.reason
    assert_illegal(state, cb.GiveBack(next(iter(state.hand(declarer)))), "not in his hand")
    assert_illegal(state, cb.GiveBack(next(iter(state.stock))), "not in his hand")
    for wrong in (cb.Play(next(iter(state.hand(first)))), cb.Pass(), cb.Done(), "Ad"):
        error = assert_illegal(state, wrong, f"seat {first} is to pass a card face down")
        assert f"to seat {second}" in error.reason


def test_the_step_is_skipped_when_the_giver_holds_nothing() -> None:
    state = stand(3)
    assert state.exchange is not None
    work = Work(state.rules, [0, 0, 0], state.stock_mask, state.exchange, 0)
    plan = work.plan
    assert swap.SwapStep(Role.FIRST, Role.SECOND).start(work) is False
    assert work.plan is plan  # nothing bound, nobody asked


def test_a_swap_needs_two_roles() -> None:
    with pytest.raises(cb.RulesetError, match="cannot pass a card to himself"):
        swap.SwapStep(Role.FIRST, Role.FIRST)
    with pytest.raises(cb.RulesetError, match="expected two Roles"):
        swap.SwapStep("first", Role.SECOND)


@pytest.mark.parametrize("players", [3, 4])
def test_the_variant_passes_the_conformance_check(players: int) -> None:
    report = check_ruleset(swap.SwapCavendish(players=players), deals=12, seed=players)
    assert report.deals == 12
    assert report.views_checked > 0
    assert report.rollouts >= 12  # from the first state of every deal, and one more


def test_it_is_found_by_name_only_while_registered() -> None:
    with cb.registered_ruleset(swap.SwapCavendish):
        rules = cb.find_ruleset("Cavendish-Swap", first_lead="after_declarer")
        assert rules == swap.SwapCavendish(first_lead="after_declarer")
        assert rules.terms.title == "Calabrasella with a blind swap"


def test_the_script_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["swap_variant.py", "--deals", "3"])
    swap.main()
    out = capsys.readouterr().out
    assert "swap (face down), swap (face down)" in out
    assert "check_ruleset(cavendish-swap, deals=3): passed" in out
