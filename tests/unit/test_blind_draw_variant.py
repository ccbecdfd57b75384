"""examples/blind_draw_variant.py: a variant whose own step draws a stock card unseen by the others.

The example is loaded from its file (examples/ is not a package). These tests
check that the draw is one recorded move seen by the drawer alone, that the
variant passes the conformance check, and that the sampler follows the draw
through its move: every view's worlds give it back, the worlds are counted by
formula, and they are equally likely (chi-square against brute force), with
no fallback of the sampling bot.
"""

from __future__ import annotations

import math
import random
import warnings
from collections import Counter
from collections.abc import Callable, Hashable

from support import load_example
from test_sampling import assert_uniform, relabelled_worlds, replay, run, tricks

import calabrasella as cb
from calabrasella import places
from calabrasella.bots import Sampler, SamplingBot, play_deal, sample_state
from calabrasella.testing import check_ruleset

blind = load_example("blind_draw_variant")
RULES = blind.BlindDrawCavendish()


def first_adversary(state: cb.State) -> int:
    order, declarer = state.deal.order, state.declarer
    return order[(order.index(declarer) + 1) % 3]


def laid_by(state: cb.State, seat: int) -> int:
    """The cards ``seat`` laid aside, read from the state's moves."""
    mask = 0
    for move in state.moves:
        assert move.cards is not None
        if move.target == places.laid_aside(seat):
            mask |= move.cards.mask
        elif move.source == places.laid_aside(seat):
            mask &= ~move.cards.mask
    return mask


def drawn(seed: int) -> cb.State:
    """A deal of the variant where the first seat to speak stands, after the draw and lay-aside."""
    state = cb.apply(cb.new_deal(RULES, dealer=0, seed=seed), cb.Bid(cb.Contract.STAND))
    rng = random.Random(seed)
    while state.phase is not cb.Phase.CALLING:
        chance = state.is_chance
        state = cb.apply(state, cb.sample_chance(state, rng) if chance else state.legal_actions()[0])
    return state


def test_the_variant_passes_the_conformance_check() -> None:
    report = check_ruleset(RULES, deals=40)
    assert report.deals == 40 and report.chance_moves > 0


def test_the_draw_is_one_move_from_the_stock_seen_by_the_drawer_alone() -> None:
    state = drawn(3)
    first = first_adversary(state)
    move = state.moves[0]
    assert (move.source, move.target, move.number) == (places.STOCK, places.hand(first), 1)
    assert move.seen_by == frozenset((first,)) and move.words == blind.WORDS
    assert move.cards is not None and move.cards <= state.hand(first) | cb.CardSet(laid_by(state, first))
    for seat in range(3):
        shown = state.view(seat).moves[0]
        assert (shown.cards is None) == (seat != first)
        assert shown.number == 1 and shown.words == blind.WORDS


def test_the_single_players_worlds_are_counted_by_formula() -> None:
    """Right after the draw and the lay-aside, the single player knows his hand only: any
    split of the 28 other cards into the two hands, the stock and the card laid aside,
    times the 13 cards of the drawer's hand that may have come from the stock."""
    state = drawn(5)
    f = math.factorial
    assert Sampler(state.view(state.declarer or 0)).count == f(28) // (f(12) ** 2 * f(3)) * 13


def test_every_view_of_a_deal_samples_worlds_that_give_it() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = cb.new_deal(RULES, dealer=seed % 3, seed=seed)
        while True:
            for seat in range(3):
                view = state.view(seat)
                sampler = Sampler(view)
                assert sampler.sample(seed).view(seat) == view
            if state.is_over:
                break
            chance = state.is_chance
            state = cb.apply(state, cb.sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))


def test_worlds_vary_the_card_drawn() -> None:
    """The single player did not see the draw: his worlds draw other cards."""
    state = drawn(3)
    view = state.view(state.declarer or 0)
    first = first_adversary(state)
    assert len({sample_state(view, k).moves[0].cards for k in range(20)}) > 5
    assert all(sample_state(view, k).view(first).moves[0].cards is not None for k in range(3))


def test_uniform_over_the_adversaries_cards_seen_by_the_single_player() -> None:
    """Three cards left each, seen by the single player, who saw neither the draw nor the
    card laid aside: every placement of the seven unseen cards into the two hands and the
    card laid aside that keeps his view is equally likely, and every world drawn is one of
    them (found by brute force), each with 13 ways to have drawn."""
    states = run(RULES, 12, ("bid stand",), until=tricks(9))
    final = states[-1]
    d = final.declarer
    assert d is not None
    first = first_adversary(final)
    second = 3 - d - first
    groups: list[Callable[[cb.State], int]] = [
        lambda s: s.hand(first).mask,
        lambda s: s.hand(second).mask,
        lambda s: laid_by(s, first),
    ]
    worlds = relabelled_worlds(states, replay(states), d, groups)
    assert 2 < len(worlds) <= 140
    sampler = Sampler(final.view(d))
    assert sampler.count == len(worlds) * 13  # and any of the drawer's 13 cards was the one drawn
    rng = random.Random(2026)
    seen: Counter[Hashable] = Counter()
    for _ in range(6 * len(worlds)):
        world = sampler.sample(rng)
        seen[tuple(g(world) for g in groups)] += 1
    assert_uniform(seen, worlds)


def test_the_sampling_bot_plays_the_variant_with_its_sampler() -> None:
    """SamplingBots in every seat play 20 deals without once falling back (they would warn)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for seed in range(20):
            bots = [SamplingBot(seed * 3 + k, worlds=2, nodes=400, search_from=12) for k in range(3)]
            final = play_deal(RULES, bots, seed, dealer=seed % 3)
            assert final.is_over
            assert not any(bot.warned for bot in bots)
