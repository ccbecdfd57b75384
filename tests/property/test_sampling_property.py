"""Property tests of hidden-card sampling over random deals of every ruleset and option."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st
from strategies import Playout, cavendish_rulesets, playouts

import calabrasella as cb
from calabrasella.bots.sampling import Sampler, sample_state
from calabrasella.testing import cards_seat_may_know, played_cards, relabel_action, relabel_cards


@given(playouts(), st.data())
def test_a_sampled_world_gives_the_seat_its_own_view(playout: Playout, data: st.DataObject) -> None:
    """At two points (one counted from the end), for every seat: the sampled state's view is the view sampled from, the
    seat knows the same cards in it (its dealt hand, its hand, the cards played, the stock
    shown), and the same seed gives the same state."""
    last = len(playout.states) - 1
    early = data.draw(st.integers(min_value=0, max_value=last), label="point from the start")
    late = last - data.draw(st.integers(min_value=0, max_value=last), label="point from the end")
    seed = data.draw(st.integers(min_value=0, max_value=2**32 - 1), label="seed")
    for state, seat in itertools.product(
        {playout.states[early], playout.states[late]}, range(playout.rules.players)
    ):
        view = state.view(seat)
        world = sample_state(view, seed)
        assert world.view(seat) == view
        if not (state.is_over and state.exchange is None):  # all passed: no view shows the stock
            assert cards_seat_may_know(world, seat) == cards_seat_may_know(state, seat)
        assert world.deal.hands[seat] == state.deal.hands[seat]
        assert world.hand(seat) == state.hand(seat)
        assert played_cards(world) == played_cards(state)
        if view.exposed:
            assert world.deal.stock == state.deal.stock
        if view.final_stock is not None:
            assert world.stock == state.stock
        assert sample_state(view, seed) == world
        assert Sampler(view).count >= 1


@given(playouts(cavendish_rulesets()), st.data())
def test_the_single_player_count_is_every_consistent_split(
    playout: Playout, data: st.DataObject
) -> None:
    """Cavendish, two tricks or fewer left, seen by the single player: the number of worlds
    is the number of ways (brute force: relabel, replay, compare the view) to share the
    adversaries' unseen cards between their hands."""
    final = playout.final
    declarer = final.declarer
    late = [
        i
        for i, s in enumerate(playout.states)
        if s.phase is cb.Phase.PLAYING and s.tricks_played >= 10
    ]
    if declarer is None or not late:
        return
    k = data.draw(st.sampled_from(late), label="point")
    state = playout.states[k]
    view = state.view(declarer)
    unknown = ~cards_seat_may_know(state, declarer).mask
    others = [s for s in final.deal.order if s != declarer]
    true = [state.hand(s).mask & unknown for s in others]
    cards = [c for c in range(40) if (true[0] | true[1]) >> c & 1]
    found = 0
    for first in itertools.combinations(cards, true[0].bit_count()):
        perm = list(range(40))
        second = [c for c in cards if c not in first]
        for mask, new in zip(true, (first, second)):
            for old, card in zip([c for c in range(40) if mask >> c & 1], new):
                perm[old] = card
        deal = state.deal
        world = cb.deal_from(
            playout.rules,
            [relabel_cards(h, perm) for h in deal.hands],
            relabel_cards(deal.stock, perm),
            dealer=deal.dealer,
        )
        try:
            for action in playout.actions[:k]:
                world = cb.apply(world, relabel_action(action, perm))
        except cb.IllegalActionError:
            continue
        found += world.view(declarer) == view
    assert Sampler(view).count == found
