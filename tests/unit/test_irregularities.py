"""Table mode (``Cavendish(irregularities="record")``): revokes and cards out of turn (seed 000)."""

from __future__ import annotations

import pytest

import calabrasella as cb
from calabrasella.testing import check_ruleset, recount_tricks

RECORD = cb.Cavendish(irregularities="record")


def tally(du: int, au: int, *, declarer_revokes: int = 0, adversary_revokes: int = 0) -> cb.Tally:
    """A tally whose sides have ``du`` and ``au`` units (the single player won the last trick)."""
    assert du + au == 35 and du >= 3
    return cb.Tally(
        players=3, dealer=0, declarer=1, contract=cb.Contract.STAND, modifier=None,
        declarer_card_units=du - 3, adversary_card_units=au, stock_units=0,
        declarer_last=True, declarer_tricks=6, adversary_tricks=6,
        declarer_revokes=declarer_revokes, adversary_revokes=adversary_revokes,
    )  # fmt: skip


def test_rules_md_worked_example_24_11_one_adversary_revoke() -> None:
    r = RECORD.score(tally(24, 11, adversary_revokes=1))
    assert (r.declarer_units, r.adversary_units) == (33, 2)
    assert r.value == 31 and r.payments == (-31, 62, -31)
    assert any("revokes" in note for note in r.notes)


def test_declarer_revoke_moves_9_to_the_adversaries() -> None:
    r = RECORD.score(tally(20, 15, declarer_revokes=1))
    assert (r.declarer_units, r.adversary_units) == (11, 24)
    assert not r.declarer_won and r.payments == (13, -26, 13)


def test_house_reading_a_side_never_goes_below_0_and_35_0_doubles() -> None:
    r = RECORD.score(tally(30, 5, adversary_revokes=1))
    assert (r.declarer_units, r.adversary_units) == (35, 0)
    assert r.bonus is cb.Bonus.ALL_POINTS and r.value == 70
    r = RECORD.score(tally(5, 30, declarer_revokes=2))
    assert (r.declarer_units, r.adversary_units) == (0, 35)
    assert r.value == 70 and sum(r.payments) == 0
    r = RECORD.score(tally(24, 11, declarer_revokes=1, adversary_revokes=1))
    assert (r.declarer_units, r.adversary_units) == (24, 11)


def play_to_the_play(rules: cb.Ruleset, seed: int) -> cb.State:
    state = cb.new_deal(rules, seed=seed)
    while state.phase is not cb.Phase.PLAYING:
        legal = cb.legal_actions(state)
        chosen: list[cb.Action] = [a for a in legal if not isinstance(a, (cb.Pass, cb.Done))]
        chosen = chosen or list(legal)
        state = cb.apply(state, chosen[0])
    return state


def regular(state: cb.State) -> cb.Action:
    return next(a for a in cb.legal_actions(state) if isinstance(a, cb.Play))


def test_a_whole_deal_with_an_adversary_revoke() -> None:
    for seed in range(50):
        state = play_to_the_play(RECORD, seed)
        revoked = False
        while not state.is_over:
            legal = cb.legal_actions(state)
            revokes = [a for a in legal if isinstance(a, cb.Revoke)]
            if not revoked and revokes and state.to_move != state.declarer:
                assert legal.index(revokes[0]) > max(
                    i for i, a in enumerate(legal) if isinstance(a, cb.Play)
                )  # after the regular actions
                state = cb.apply(state, revokes[0])
                revoked = True
                assert state.history[-1][1] == revokes[0]
                for seat in range(3):  # a public event: every seat sees it
                    assert state.view(seat).history[-1][1] == revokes[0]
            else:
                state = cb.apply(state, regular(state))
        if not revoked:
            continue
        result = state.result
        assert result is not None
        du, au, _, _ = recount_tricks(state)
        moved = min(9, au)
        assert (result.declarer_units, result.adversary_units) == (du + moved, au - moved)
        assert sum(result.payments) == 0
        return
    pytest.fail("no deal offered an adversary a revoke")


def test_out_of_turn_then_abandon_and_decline() -> None:
    state = play_to_the_play(RECORD, 3)
    for _ in range(4):  # a trick and a card
        state = cb.apply(state, regular(state))
    legal = cb.legal_actions(state)
    oot = [a for a in legal if isinstance(a, cb.OutOfTurn)]
    assert oot and all(a.seat not in (state.to_move, state.declarer) for a in oot)
    assert cb.Abandon() not in legal
    after = cb.apply(state, oot[0])
    assert after.history[-1] == (oot[0].seat, oot[0])
    assert after.hands == state.hands and after.to_move == state.to_move  # the card goes back
    assert cb.Abandon() in cb.legal_actions(after)
    assert cb.Abandon() in after.view(after.declarer).legal_actions  # type: ignore[arg-type]
    for seat in range(3):
        after.view(seat)
    # decline: play goes on from the seat that was to move, the claim lapses
    on = cb.apply(after, regular(after))
    assert cb.Abandon() not in cb.legal_actions(on)
    # abandon: the adversaries keep what they had won before the error
    over = cb.apply(after, cb.Abandon())
    assert over.is_over and over.result is not None
    adversaries = sum(u for s, u in enumerate(state.card_units_won) if s != state.declarer)
    assert over.result.adversary_units == adversaries
    assert over.result.declarer_units == 35 - adversaries
    assert sum(over.result.payments) == 0 and any("abandon" in n for n in over.result.notes)
    for seat in range(3):
        assert over.view(seat).result == over.result


def test_forbid_mode_refuses_every_irregular_action() -> None:
    state = play_to_the_play(cb.CAVENDISH, 3)
    assert not any(
        isinstance(a, (cb.Revoke, cb.OutOfTurn, cb.Abandon)) for a in cb.legal_actions(state)
    )
    seat = next(s for s in state.deal.order if s not in (state.to_move, state.declarer))
    card = next(iter(state.hand(seat)))
    for action in (cb.Revoke(card), cb.OutOfTurn(seat, card), cb.Abandon()):
        with pytest.raises(cb.IllegalActionError, match="irregularities are not recorded"):
            cb.apply(state, action)
    with pytest.raises(cb.IllegalActionError, match="irregularities are not recorded"):
        cb.apply(cb.new_deal(cb.CAVENDISH, seed=1), cb.Abandon())


def test_record_mode_refuses_irregular_actions_out_of_place() -> None:
    state = play_to_the_play(RECORD, 3)
    with pytest.raises(cb.IllegalActionError):
        cb.apply(state, cb.Abandon())
    with pytest.raises(cb.IllegalActionError):
        cb.apply(state, cb.OutOfTurn(state.to_move, next(iter(state.hand(state.to_move)))))  # type: ignore[arg-type]
    with pytest.raises(cb.IllegalActionError, match="play has not begun"):
        cb.apply(cb.new_deal(RECORD, seed=1), cb.Abandon())


def test_option_is_validated_and_notation() -> None:
    with pytest.raises(cb.RulesetError):
        cb.Cavendish(irregularities="allow")  # type: ignore[arg-type]
    assert str(cb.Revoke("Ad")) == "revoke Ad"
    assert str(cb.OutOfTurn(2, "7c")) == "seat 2 plays 7c out of turn"
    assert str(cb.Abandon()) == "abandon"
    with pytest.raises(cb.NotationError):
        cb.OutOfTurn(7, "Ad")


@pytest.mark.slow
def test_check_ruleset_in_record_mode() -> None:
    assert check_ruleset(RECORD, deals=300).deals == 300
    assert check_ruleset(cb.Cavendish(irregularities="record", players=4), deals=30).deals == 30


def to_the_discard(rules: cb.Ruleset, seed: int) -> cb.State:
    """The first state where the single player is to discard."""
    state = cb.new_deal(rules, seed=seed)
    while state.phase is not cb.Phase.DISCARDING:
        legal = cb.legal_actions(state)
        chosen = [a for a in legal if not isinstance(a, (cb.Pass, cb.TurnStock))]
        state = cb.apply(state, chosen[0])
    return state


def test_stock_turned_by_the_single_player_before_discarding_voids_the_deal() -> None:
    state = to_the_discard(RECORD, 5)
    declarer = state.declarer
    assert declarer is not None
    turns = [a for a in cb.legal_actions(state) if isinstance(a, cb.TurnStock)]
    assert [a.seat for a in turns] == sorted(state.deal.order)
    over = cb.apply(state, cb.TurnStock(declarer))
    result = over.result
    assert over.is_over and result is not None and result.void
    assert result.payments[declarer] == -70 and sum(result.payments) == 0
    assert all(p == 35 for s, p in enumerate(result.payments) if s != declarer)
    for seat in range(3):
        assert over.view(seat).history[-1] == (declarer, cb.TurnStock(declarer))


def test_stock_turned_by_an_adversary_no_penalty_play_goes_on() -> None:
    state = to_the_discard(RECORD, 5)
    adversary = next(s for s in state.deal.order if s != state.declarer)
    after = cb.apply(state, cb.TurnStock(adversary))
    assert not after.is_over and after.to_move == state.to_move
    assert after.exposed == state.stock  # face up for everyone
    for seat in range(3):
        assert after.view(seat).exposed == state.stock
        assert after.view(seat).history[-1] == (adversary, cb.TurnStock(adversary))
    assert not any(isinstance(a, cb.TurnStock) for a in cb.legal_actions(after))
    assert cb.TurnStock(adversary) in state.view(adversary).legal_actions
    # once he has discarded, the stock may no longer be turned early
    discard = next(a for a in cb.legal_actions(state) if isinstance(a, cb.Discard))
    later = cb.apply(state, discard)
    assert not any(isinstance(a, cb.TurnStock) for a in cb.legal_actions(later))
    with pytest.raises(cb.IllegalActionError, match="before the single player's first discard"):
        cb.apply(later, cb.TurnStock(adversary))


def test_turn_stock_refused_in_forbid_mode_and_in_the_auction() -> None:
    state = to_the_discard(cb.CAVENDISH, 5)
    with pytest.raises(cb.IllegalActionError, match="irregularities are not recorded"):
        cb.apply(state, cb.TurnStock(0))
    with pytest.raises(cb.IllegalActionError):
        cb.apply(cb.new_deal(RECORD, seed=1), cb.TurnStock(0))
    assert not any(
        isinstance(a, cb.TurnStock) for a in cb.legal_actions(cb.new_deal(RECORD, seed=1))
    )


def test_table_mode_play_states_show_playing_and_pickle() -> None:
    import pickle

    state = play_to_the_play(RECORD, 3)
    assert state.phase is cb.Phase.PLAYING and state.view(0).phase is cb.Phase.PLAYING
    assert "playing" in repr(state)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and hash(again) == hash(state)
    assert cb.legal_actions(again) == cb.legal_actions(state)
    after = cb.apply(state, regular(state))
    assert after.phase is cb.Phase.PLAYING and cb.legal_actions(after)
