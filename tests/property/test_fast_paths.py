"""The engine's fast paths give what its general paths give.

The play's next state built in place, views of the play made from a per-seat template,
and results reused for equal tallies: each is held here to the general
code it shortcuts, over random deals of every ruleset and option.
"""

from __future__ import annotations

from hypothesis import given
from strategies import Playout, playouts

import calabrasella as cb
from calabrasella import views
from calabrasella.scoring import Tally
from calabrasella.testing import same_contents, state_contents


@given(playouts())
def test_views_of_the_play_equal_the_general_views(playout: Playout) -> None:
    """Every seat's view of every state equals the one built field by field, template or not."""
    for state in playout.states:
        for seat in range(state.players):
            assert state.view(seat) == views._general_view(state, seat)


@given(playouts())
def test_a_reused_result_is_what_the_ruleset_scores(playout: Playout) -> None:
    """The final result equals the ruleset's score of the deal's tally, scored afresh."""
    final = playout.final
    ex, result = final.exchange, final.result
    assert result is not None
    if result.void or ex is None:
        return
    revokes = [0, 0]
    for who, action in final.history:
        if type(action) is cb.Revoke:
            revokes[who != ex.declarer] += 1
    abandoned = any(type(action) is cb.Abandon for _, action in final.history)
    won, tricks = final.card_units_won, final.tricks_won
    stock_units = final.stock.units
    declarer_cards = won[ex.declarer]
    adversary_cards = sum(won) - declarer_cards
    if abandoned:
        declarer_cards = 32 - stock_units - adversary_cards
    last = final.leader if not abandoned else ex.declarer
    tally = Tally(
        players=final.players,
        dealer=final.dealer,
        declarer=ex.declarer,
        contract=ex.contract,
        modifier=ex.modifier,
        declarer_card_units=declarer_cards,
        adversary_card_units=adversary_cards,
        stock_units=stock_units,
        declarer_last=last == ex.declarer,
        declarer_tricks=tricks[ex.declarer],
        adversary_tricks=sum(tricks) - tricks[ex.declarer],
        declarer_revokes=revokes[0],
        adversary_revokes=revokes[1],
        abandoned=abandoned,
    )
    assert final.rules.score(tally) == result


@given(playouts())
def test_the_hot_play_path_leaves_its_input_alone_and_moves_one_card(playout: Playout) -> None:
    """Each play builds a new state: the old one keeps its fields, one card changes hands."""
    for state, action in playout.steps():
        if state.phase is not cb.Phase.PLAYING or type(action) is not cb.Play:
            continue
        before = state_contents(state)
        after = cb.apply(state, action)
        assert same_contents(before, state_contents(state))
        mover = state.to_move
        assert mover is not None
        assert after.hand(mover) == state.hand(mover) - [action.card]
        assert after.history == (*state.history, (mover, action))
