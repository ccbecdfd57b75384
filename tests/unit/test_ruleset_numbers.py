"""A ruleset's numbers are the engine's numbers.

A variant that overrides only ``last_trick_units`` (a few lines: below) is
followed everywhere: the engine's tally and the scoring, the conformance
kit, the searches (pure and compiled), the sampling bot's utility, the
records (JSON, text, pickle), the observation and the pictures. Its
``deal_units`` and ``winning_units`` are worked out from the cards' units
and the last trick's, so nothing else needs overriding.

The expected numbers come from the rules (RULES.md): the cards hold 32
units, the standard last trick 3; a last trick of 6 makes a deal of 38,
won with more than half of it (20), and Cavendish pays the difference of
the sides' units, doubled when one side has all of them.
"""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Iterator
from typing import ClassVar

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import calabrasella as cb
from calabrasella import svg
from calabrasella.bots import _solver_core as core
from calabrasella.bots import solver
from calabrasella.bots.sampling_bot import SamplingBot, utility
from calabrasella.encoding import observation
from calabrasella.testing import ConformanceError, check_ruleset, played_cards, recount_tricks

# --- the variants: only the last trick's units differ ----------------------------------


@attrs.frozen(kw_only=True)
class BigLastTrick(cb.Cavendish):
    """Cavendish with a last trick worth 6 units: deals of 38."""

    name: ClassVar[str] = "cavendish_big_last_trick"

    @property
    def last_trick_units(self) -> int:
        return 6


@attrs.frozen(kw_only=True)
class NoLastTrick(cb.Calabresella):
    """Calabresella whose last trick brings only the monte: deals of 32."""

    name: ClassVar[str] = "calabresella_no_last_trick"
    last_trick_units = 0  # a plain class attribute does as well as a property


@attrs.frozen(kw_only=True)
class CountingSevens(cb.Cavendish):
    """Cavendish in which a 7 counts 1 unit too: the cards hold 36 units, a deal 39."""

    name: ClassVar[str] = "cavendish_counting_sevens"

    def card_units(self, card: cb.Card | int) -> int:
        index = card if isinstance(card, int) else card.index
        return 1 if cb.DECK[index].rank is cb.Rank.SEVEN else super().card_units(card)


VARIANTS = (BigLastTrick(), NoLastTrick(), BigLastTrick(irregularities="record"), BigLastTrick(players=4))


@pytest.fixture
def registered() -> Iterator[None]:
    with cb.registered_ruleset(BigLastTrick), cb.registered_ruleset(NoLastTrick):
        yield


def played(rules: cb.Ruleset, seed: int) -> cb.State:
    """A deal played to its end by random legal actions (`rollout`)."""
    return cb.rollout(cb.new_deal(rules, dealer=seed % rules.players, seed=seed), seed)


def played_out(rules: cb.Ruleset, seed: int) -> cb.State:
    """The first deal from ``seed`` on that is not void."""
    while True:
        end = played(rules, seed)
        if not end.result.void:  # type: ignore[union-attr]
            return end
        seed += 1000


# --- the numbers ---------------------------------------------------------------------


def test_the_numbers_follow_from_the_last_trick() -> None:
    assert (cb.CAVENDISH.deal_units, cb.CAVENDISH.winning_units) == (35, 18)
    assert (BigLastTrick().deal_units, BigLastTrick().winning_units) == (38, 20)
    assert (NoLastTrick().deal_units, NoLastTrick().winning_units) == (32, 17)
    assert NoLastTrick().last_trick_units == 0
    assert BigLastTrick().units_by_card == cb.CAVENDISH.units_by_card


def test_a_card_units_hook_is_followed_too() -> None:
    rules = CountingSevens()
    assert rules.units_by_card[cb.Card.parse("7d").index] == 1
    assert (rules.deal_units, rules.winning_units) == (39, 20)
    assert rules.units_in(cb.CardSet.parse("7d 7s Ad 4c")) == 5


def test_a_ruleset_is_built_with_its_numbers_and_keeps_them_through_a_pickle() -> None:
    rules = BigLastTrick(first_lead="after_declarer")
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and again.deal_units == 38 and again._numbers is rules._numbers


def test_a_hook_giving_no_units_is_refused_when_the_ruleset_is_built() -> None:
    @attrs.frozen(kw_only=True)
    class Negative(cb.Cavendish):
        name: ClassVar[str] = "negative"
        last_trick_units = -1

    for _ in range(2):  # and again: a ruleset is not kept without its numbers
        with pytest.raises(cb.RulesetError, match="last_trick_units gives -1"):
            Negative()


# --- the engine and the scoring --------------------------------------------------------


@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_the_variant_passes_the_conformance_check(rules: cb.Ruleset) -> None:
    assert check_ruleset(rules, deals=25).deals == 25


def test_a_deal_units_written_out_to_match_is_accepted_and_one_that_does_not_is_caught() -> None:
    @attrs.frozen(kw_only=True)
    class Matching(BigLastTrick):
        name: ClassVar[str] = "matching"

        @property
        def deal_units(self) -> int:
            return 38

    @attrs.frozen(kw_only=True)
    class Mismatched(cb.Cavendish):
        name: ClassVar[str] = "mismatched"

        @property
        def deal_units(self) -> int:
            return 38

    assert check_ruleset(Matching(), deals=10).deals == 10
    with pytest.raises(ConformanceError, match="deal_units is 38, the cards' and last trick's 35"):
        check_ruleset(Mismatched(), deals=10)


def test_a_variant_counting_the_cards_otherwise_passes_the_conformance_check() -> None:
    assert check_ruleset(CountingSevens(), deals=20).deals == 20


@given(st.integers(0, 10**6), st.sampled_from(VARIANTS + (CountingSevens(),)))
def test_every_played_deal_distributes_the_variants_own_total(seed: int, rules: cb.Ruleset) -> None:
    end = played(rules, seed)
    result = end.result
    assert result is not None
    if result.void:
        return
    assert result.declarer_units + result.adversary_units == rules.deal_units
    irregular = {type(a) for _, a in end.history} & {cb.Revoke, cb.Abandon}
    if not irregular:  # (table mode's penalties move units between the sides)
        assert (result.declarer_units, result.adversary_units) == recount_tricks(end)[:2]


def test_the_last_trick_brings_its_own_units_in_the_tally() -> None:
    for seed in range(20):
        big = played_out(BigLastTrick(), seed)
        # the same deal and the same actions under Cavendish: only the last trick differs
        plain = cb.deal_from(cb.CAVENDISH, big.deal.hands, big.deal.stock, dealer=big.deal.dealer)
        for _, action in big.history:
            plain = cb.apply(plain, action)
        b, p = big.result, plain.result
        assert b is not None and p is not None
        assert b.declarer_tricks == p.declarer_tricks
        took_last = big.leader == big.declarer  # the last trick's winner leads no more
        more = (3, 0) if took_last else (0, 3)
        assert (b.declarer_units - p.declarer_units, b.adversary_units - p.adversary_units) == more


def test_cavendish_pays_the_difference_of_the_variants_units() -> None:
    rules = BigLastTrick()
    assert [rules.units_payment(u) for u in (38, 29, 20, 19, 0)] == [76, 20, 2, 0, -76]
    for seed in range(10):
        result = played_out(rules, seed).result
        assert result is not None
        du, au = result.declarer_units, result.adversary_units
        assert result.value == abs(du - au) * (2 if 0 in (du, au) else 1)
        assert result.declarer_won == (du >= 20)


# --- the searches and the bot ---------------------------------------------------------------


def ending(rules: cb.Ruleset, seed: int, tricks_played: int) -> cb.State:
    """A play state with ``tricks_played`` tricks behind it (random legal actions)."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, seed=seed)
    while state.phase is not cb.Phase.PLAYING or state.tricks_played < tricks_played:
        if state.is_over:
            state = cb.new_deal(rules, seed=rng.randrange(10**6))
            continue
        state = cb.apply(state, rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", [BigLastTrick(), NoLastTrick()], ids=repr)
def test_perfect_play_reaches_the_units_the_search_says(rules: cb.Ruleset) -> None:
    """The best line, played in the engine, ends with the solution's units (its own bonus)."""
    for seed in range(4):
        state = ending(rules, seed, 8)
        solution = solver.solve(state, line=True)
        for action in solution.best_line:
            state = cb.apply(state, action)
        assert state.result is not None
        assert state.result.declarer_units == solution.declarer_units


@pytest.mark.skipif(core.NATIVE is None, reason="the compiled search is not built")
@pytest.mark.parametrize("rules", [BigLastTrick(), NoLastTrick()], ids=repr)
def test_the_pure_and_the_compiled_search_agree(rules: cb.Ruleset, monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(6):
        state = ending(rules, seed, 7 + seed % 3)
        compiled = solver.solve(state, all_best=True)
        monkeypatch.setattr(solver, "_native", False)
        pure = solver.solve(state, all_best=True)
        monkeypatch.setattr(solver, "_native", True)
        assert (compiled.declarer_units, compiled.best_actions) == (pure.declarer_units, pure.best_actions)


def test_the_search_refuses_cards_counted_otherwise() -> None:
    state = ending(CountingSevens(), 1, 9)
    with pytest.raises(solver.SolveError, match=r"CountingSevens\.card_units counts otherwise"):
        solver.solve(state)


def test_the_sampling_bot_plays_its_fallback_where_the_search_counts_otherwise() -> None:
    state = ending(CountingSevens(), 3, 9)
    seat = state.to_move
    assert seat is not None and not solver.solves(CountingSevens())
    with pytest.warns(UserWarning, match="does not count the cards as these rules do"):
        action = SamplingBot(1, worlds=3, search_from=3).choose(state.view(seat))
    assert action in state.legal_actions()


def test_the_bots_utility_asks_the_ruleset() -> None:
    assert utility(BigLastTrick(), 38) == 76
    assert utility(BigLastTrick(), 21) == 4
    assert utility(BigLastTrick(), 19) == 0  # 19 to 19: nobody pays
    assert utility(NoLastTrick(), 16) < 0 < utility(NoLastTrick(), 17)  # 17 of 32 wins


@pytest.mark.parametrize("rules", [BigLastTrick(), NoLastTrick()], ids=repr)
def test_the_sampling_bot_plays_the_variant(rules: cb.Ruleset) -> None:
    state = ending(rules, 3, 9)
    bots = [SamplingBot(seat, worlds=3, search_from=3) for seat in range(rules.players)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bots[seat].choose(state.view(seat))
        assert action in state.legal_actions()
        state = cb.apply(state, action)
    assert state.result is not None
    assert state.result.declarer_units + state.result.adversary_units == rules.deal_units


# --- records, pickles, the observation and the pictures ----------------------------------


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("rules", VARIANTS, ids=repr)
def test_deals_of_the_variant_round_trip(rules: cb.Ruleset) -> None:
    for seed in range(3):
        end = played_out(rules, seed)
        record = cb.Record.from_state(end)
        assert cb.from_json(cb.to_json(record), cb.Record).replay() == end
        assert cb.Record.from_text(record.to_text()).replay() == end
        assert cb.from_json(cb.to_json(end), cb.State) == end
        again = pickle.loads(pickle.dumps(end))
        assert again == end and again.result == end.result and again.rules.deal_units == rules.deal_units
        for seat in end.deal.order:
            view = end.view(seat)
            assert cb.from_json(cb.to_json(view), cb.View) == view
            assert observation(cb.from_json(cb.to_json(view), cb.View)) == observation(view)


@pytest.mark.usefixtures("registered")
def test_the_observation_counts_the_variants_units() -> None:
    end = played_out(BigLastTrick(), 5)
    view = end.view(end.deal.order[0])
    assert sum(view.card_units_won) == 32 - BigLastTrick().units_in(end.stock_mask)
    assert observation(view) == observation(cb.from_data(cb.to_data(view), cb.View))


def _text(picture: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", picture).split())


@pytest.mark.usefixtures("registered")
def test_the_picture_draws_the_last_trick_with_its_own_bonus() -> None:
    for rules in (BigLastTrick(), NoLastTrick()):
        end = played_out(rules, 2)
        last = played_cards(end)[-3:]
        winner = end.leader
        units = sum(card.units for _, card in last) + rules.last_trick_units
        words = _text(svg.record(cb.Record.from_state(end)))
        assert f"seat {winner}: {units} unit" in words, words


def test_the_result_picture_names_all_of_the_variants_units() -> None:
    rules = BigLastTrick()
    tally = cb.Tally(
        players=3, dealer=0, declarer=1, contract=cb.Contract.STAND, modifier=None,
        declarer_card_units=32, adversary_card_units=0, stock_units=0, declarer_last=True,
        declarer_tricks=12, adversary_tricks=0, last_trick_units=6,
    )  # fmt: skip
    result = rules.score(tally)
    assert (result.declarer_units, result.value) == (38, 76)
    assert "all 38 units" in _text(svg.result(result, rules=rules))
    assert "one side took all 38" in " ".join(result.notes)
