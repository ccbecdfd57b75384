"""One test per rule of RULES.md, "Ruleset 1" (Cavendish) items 1-7 and the common rules.

Each situation is a hand-built deal (``cb.deal_from``); what should happen is
worked out by hand in the comments, never with the code under test.

Seat numbers are turn order: with the dealer at seat 0 and three at the
table, the eldest hand is seat 1, then seat 2, then the dealer (seat 0).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, MutableSequence
from typing import Any

import pytest
from support import assert_illegal, cavendish_tally

import calabrasella as cb

P = cb.CardSet.parse
STAND = cb.Bid(cb.Contract.STAND)
PASS = cb.Pass()
DONE = cb.Done()


def card(code: str) -> cb.Card:
    return cb.Card.parse(code)


def play(code: str) -> cb.Play:
    return cb.Play(card(code))


def plays(codes: str) -> tuple[cb.Play, ...]:
    return tuple(play(c) for c in codes.split())


def apply_all(state: cb.State, actions: Iterable[cb.Action]) -> cb.State:
    for action in actions:
        state = cb.apply(state, action)
    return state


# --- DEAL_A: dealer 0, eldest seat 1 -------------------------------------------
# seat 1 holds every coin and 3h 2h; seat 2 the swords (but the 4) and Kh Qh Jh;
# seat 0 the batons (but the 4) and 7h 6h 4h; the stock Ah 5h 4s 4c.
A_SEAT0 = "3c 2c Ac Kc Qc Jc 7c 6c 5c 7h 6h 4h"
A_SEAT1 = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 2h"
A_SEAT2 = "3s 2s As Ks Qs Js 7s 6s 5s Kh Qh Jh"
A_STOCK = "Ah 5h 4s 4c"


def deal_a(rules: cb.Ruleset = cb.CAVENDISH) -> cb.State:
    return cb.deal_from(rules, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)], P(A_STOCK), dealer=0)


def deal_a_after_give_back() -> cb.State:
    """Seat 1 stands, asks for 3s (seat 2 holds it) and gives back 4d."""
    return apply_all(deal_a(), [STAND, cb.Call(card("3s")), cb.GiveBack(card("4d"))])


# --- DEAL_E: dealer 0; seat 1 holds all the 3s and 2s, so he asks for nothing ----
E_SEAT0 = "6d 6h Qs Js 7s 6s 5s 4s Ac Kc Qc Jc"
E_SEAT1 = "3d 2d 5d 7d 3h 2h 4h 5h 3s 2s 3c 2c"
E_SEAT2 = "Ad Kd Qd Jd 4d Ah Kh Qh Jh 7h As Ks"
E_STOCK = "7c 6c 5c 4c"


def deal_e(rules: cb.Ruleset = cb.CAVENDISH) -> cb.State:
    return cb.deal_from(rules, [P(E_SEAT0), P(E_SEAT1), P(E_SEAT2)], P(E_STOCK), dealer=0)


def deal_e_playing() -> cb.State:
    """Seat 1 stands (nothing to ask), discards 2c and 7d, takes 7c and 6c.

    Seat 1 then holds 3d 2d 5d 3h 2h 4h 5h 3s 2s 3c 7c 6c; the stock is
    5c 4c (unused) + 2c 7d (his discards): 1 unit. Seat 1 leads (eldest).
    """
    state = apply_all(
        deal_e(),
        [STAND, cb.Discard(card("2c")), cb.Discard(card("7d")), DONE],
    )
    for code in ("7c", "6c"):
        if state.phase is cb.Phase.TAKING:
            state = cb.apply(state, cb.Take(card(code)))
    assert state.phase is cb.Phase.PLAYING
    return state


# --- Rule 1: declaring ------------------------------------------------------------


def test_rule1_eldest_speaks_first_then_the_next_then_the_dealer() -> None:
    """Rule 1: the eldest hand speaks first, then the next, then the dealer."""
    # dealer 0: eldest 1, then 2, then the dealer 0
    state = deal_a()
    assert state.phase is cb.Phase.BIDDING
    assert state.to_move == 1
    assert cb.legal_actions(state) == (PASS, STAND)
    state = cb.apply(state, PASS)
    assert state.to_move == 2
    state = cb.apply(state, PASS)
    assert state.to_move == 0
    assert cb.legal_actions(state) == (PASS, STAND)


def test_rule1_eldest_follows_the_dealer_whoever_deals() -> None:
    """Rule 1 / common: the eldest hand is the first seat after the dealer in turn order."""
    hands = [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)]
    for dealer, expected in ((0, [1, 2, 0]), (1, [2, 0, 1]), (2, [0, 1, 2])):
        state = cb.deal_from(cb.CAVENDISH, hands, P(A_STOCK), dealer=dealer)
        spoke = []
        while state.phase is cb.Phase.BIDDING:
            assert state.to_move is not None
            spoke.append(state.to_move)
            state = cb.apply(state, PASS)
        assert spoke == expected


def test_rule1_first_to_stand_is_single_player_nobody_overcalls() -> None:
    """Rule 1: the first to stand is the single player at once; the dealer does not speak."""
    state = apply_all(deal_a(), [PASS, STAND])
    # seat 2 stood: he is the single player; the auction is over before the dealer spoke
    assert state.declarer == 2
    assert state.contract is cb.Contract.STAND
    assert state.phase is not cb.Phase.BIDDING
    assert [seat for seat, _ in state.history] == [1, 2]
    # he now asks for a 3; nobody else may stand or pass
    assert state.phase is cb.Phase.CALLING
    assert state.to_move == 2
    assert_illegal(state, STAND)
    assert_illegal(state, PASS)


def test_rule1_eldest_standing_ends_the_declaring_at_once() -> None:
    """Rule 1: if the eldest stands, neither the next player nor the dealer speaks."""
    state = cb.apply(deal_a(), STAND)
    assert state.declarer == 1
    assert state.to_move == 1
    assert len(state.history) == 1


def test_rule1_only_stand_or_pass_may_be_said() -> None:
    """Rule 1: in Cavendish one says stand or pass; Calabresella's bids are illegal."""
    state = deal_a()
    for contract in (cb.Contract.CHIAMO, cb.Contract.SOLO, cb.Contract.SOLISSIMO):
        assert_illegal(state, cb.Bid(contract), "stand")


def test_rule1_all_pass_void_deal_with_zero_payments() -> None:
    """Rule 1 / common: all three pass: the deal is void, nobody pays."""
    state = apply_all(deal_a(), [PASS, PASS, PASS])
    assert state.is_over
    assert state.phase is cb.Phase.OVER
    assert state.to_move is None
    result = state.result
    assert result is not None
    assert result.void
    assert result.declarer is None
    assert result.payments == (0, 0, 0)
    assert cb.legal_actions(state) == ()
    assert_illegal(state, STAND, "over")


def test_rule1_all_pass_at_four_is_void_for_all_four() -> None:
    """Common: all pass at a table of four: void, four zero payments."""
    rules = cb.Cavendish(players=4)
    state = cb.deal_from(
        rules, [P(""), P(A_SEAT1), P(A_SEAT2), P(A_SEAT0)], P(A_STOCK), dealer=0
    )
    state = apply_all(state, [PASS, PASS, PASS])
    assert state.result is not None
    assert state.result.void
    assert state.result.payments == (0, 0, 0, 0)


# --- Rule 2: asking ---------------------------------------------------------------


def test_rule2_asks_only_for_a_three_he_does_not_hold() -> None:
    """Rule 2: the single player asks for a 3 he does not hold, nothing else."""
    # seat 1 holds 3d 3h: he may ask for 3s (seat 2) or 3c (seat 0), in card order
    state = cb.apply(deal_a(), STAND)
    assert state.phase is cb.Phase.CALLING
    assert state.to_move == 1
    assert cb.legal_actions(state) == (cb.Call(card("3s")), cb.Call(card("3c")))
    assert_illegal(state, cb.Call(card("3d")), "3d")  # he holds it
    assert_illegal(state, cb.Call(card("2s")))  # a 2 while 3s are missing
    assert_illegal(state, cb.Call(card("As")))
    assert_illegal(state, cb.Call(card("Ah")))  # a stock card, but not a 3


def test_rule2_asks_for_a_two_only_when_holding_all_four_threes() -> None:
    """Rule 2: holding all four 3s he asks for a 2 he does not hold, never a lower card."""
    # seat 1 holds 3d 3h 3s 3c and 2d: he may ask for 2h (seat 2), 2s (seat 2), 2c (seat 0)
    state = cb.deal_from(
        cb.CAVENDISH,
        [
            P("Ks Qs Js 7s 6s 5s 4s 2c Ac Kc Qc Jc"),
            P("3d 3h 3s 3c 2d Ad Kd Qd Jd 7d 6d 5d"),
            P("2h Ah Kh Qh Jh 7h 6h 5h 4h 4d 2s As"),
        ],
        P("7c 6c 5c 4c"),
        dealer=0,
    )
    state = cb.apply(state, STAND)
    assert state.phase is cb.Phase.CALLING
    assert cb.legal_actions(state) == (
        cb.Call(card("2h")),
        cb.Call(card("2s")),
        cb.Call(card("2c")),
    )
    assert_illegal(state, cb.Call(card("2d")))  # held
    assert_illegal(state, cb.Call(card("Ah")))  # never a lower card
    assert_illegal(state, cb.Call(card("Kc")))
    assert_illegal(state, cb.Call(card("4c")))  # a stock card, but not a 2


def test_rule2_nothing_to_ask_when_holding_all_threes_and_twos() -> None:
    """Rule 2: holding all four 3s and all four 2s there is nothing to ask: skip to the discard."""
    state = cb.deal_from(
        cb.CAVENDISH,
        [
            P("5h 4h Ks Qs Js 7s 6s 5s 4s Kc Qc Jc"),
            P("3d 3h 3s 3c 2d 2h 2s 2c Ad Ah As Ac"),
            P("Kd Qd Jd 7d 6d 5d 4d Kh Qh Jh 7h 6h"),
        ],
        P("7c 6c 5c 4c"),
        dealer=0,
    )
    state = cb.apply(state, STAND)
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1
    assert state.called is None
    assert state.giver is None
    assert_illegal(state, cb.Call(card("Kd")))
    assert all(isinstance(a, cb.Discard) for a in cb.legal_actions(state))


def test_rule2_adversary_holding_the_card_gives_it_up() -> None:
    """Rule 2: the adversary holding the card asked for gives it to the single player."""
    state = apply_all(deal_a(), [STAND, cb.Call(card("3s"))])
    # 3s moves from seat 2 to seat 1: 13 cards against 11 until he gives one back
    assert card("3s") in state.hand(1)
    assert card("3s") not in state.hand(2)
    assert len(state.hand(1)) == 13
    assert len(state.hand(2)) == 11
    assert state.called == card("3s")
    assert state.giver == 2
    assert state.phase is cb.Phase.GIVING_BACK
    assert state.to_move == 1


def test_rule2_receives_in_exchange_a_card_from_the_single_player() -> None:
    """Rule 2: the giver receives one card from the single player's hand."""
    state = deal_a_after_give_back()
    # seat 1 gave 4d back to seat 2: both have 12 again
    assert state.hand(1) == P("3d 2d Ad Kd Qd Jd 7d 6d 5d 3h 2h 3s")
    assert state.hand(2) == P("2s As Ks Qs Js 7s 6s 5s Kh Qh Jh 4d")
    assert state.hand(0) == P(A_SEAT0)
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1


def test_rule2_give_back_not_the_card_just_received() -> None:
    """Rule 2: the card given in exchange may be any of his but the one just received."""
    state = apply_all(deal_a(), [STAND, cb.Call(card("3s"))])
    expected = tuple(cb.GiveBack(c) for c in P(A_SEAT1))  # his twelve original cards
    assert cb.legal_actions(state) == expected
    assert_illegal(state, cb.GiveBack(card("3s")), "called")
    assert_illegal(state, cb.GiveBack(card("Kh")))  # not his card
    assert_illegal(state, cb.Discard(card("4d")))  # he must give back first


def test_rule2_card_given_back_is_seen_by_giver_and_single_player_only() -> None:
    """Rule 2: the card given back is seen by the giver and the single player, never the other."""
    asked = apply_all(deal_a(), [STAND, cb.Call(card("3s"))])
    gave_4d = cb.apply(asked, cb.GiveBack(card("4d")))
    gave_5d = cb.apply(asked, cb.GiveBack(card("5d")))
    assert gave_4d.view(1).given_back == card("4d")
    assert gave_4d.view(2).given_back == card("4d")
    assert gave_4d.view(0).given_back is None
    assert cb.GiveBack(card("4d")) not in [a for _, a in gave_4d.view(0).history]
    # the other adversary (seat 0) cannot tell which card went back
    assert gave_4d.view(0) == gave_5d.view(0)
    assert gave_4d.view(2) != gave_5d.view(2)


def test_rule2_card_in_stock_no_exchange() -> None:
    """Rule 2: a card asked for that is in the stock: nothing is exchanged."""
    # DEAL_A with 3c and 4c swapped: 3c is now in the stock
    seat0 = "4c 2c Ac Kc Qc Jc 7c 6c 5c 7h 6h 4h"
    state = cb.deal_from(
        cb.CAVENDISH, [P(seat0), P(A_SEAT1), P(A_SEAT2)], P("Ah 5h 4s 3c"), dealer=0
    )
    state = apply_all(state, [STAND, cb.Call(card("3c"))])
    assert state.hands == (P(seat0), P(A_SEAT1), P(A_SEAT2))
    assert state.called == card("3c")
    assert state.giver is None
    # no give back: straight to the discard
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1


def test_rule2_card_in_stock_no_other_card_may_be_asked_for() -> None:
    """Rule 2: after asking for a stock card he may not ask for another."""
    seat0 = "4c 2c Ac Kc Qc Jc 7c 6c 5c 7h 6h 4h"
    state = cb.deal_from(
        cb.CAVENDISH, [P(seat0), P(A_SEAT1), P(A_SEAT2)], P("Ah 5h 4s 3c"), dealer=0
    )
    state = apply_all(state, [STAND, cb.Call(card("3c"))])
    assert_illegal(state, cb.Call(card("3s")))
    assert not any(isinstance(a, cb.Call) for a in cb.legal_actions(state))


def test_rule2_asking_is_public() -> None:
    """Rule 2: every seat sees which card was asked for and who gave it."""
    state = apply_all(deal_a(), [STAND, cb.Call(card("3s"))])
    for seat in range(3):
        view = state.view(seat)
        assert view.called == card("3s")
        assert view.giver == 2
        assert view.declarer == 1


# --- Rule 3: discarding -------------------------------------------------------------


def test_rule3_discard_at_least_one_at_most_four() -> None:
    """Rule 3: the single player discards at least 1 card and at most 4."""
    state = deal_a_after_give_back()
    hand = P("3d 2d Ad Kd Qd Jd 7d 6d 5d 3h 2h 3s")
    # no discard yet: "done" is not allowed, only discards (in card order)
    assert cb.legal_actions(state) == tuple(cb.Discard(c) for c in hand)
    assert_illegal(state, DONE, "at least")
    one = cb.apply(state, cb.Discard(card("5d")))
    assert one.phase is cb.Phase.DISCARDING
    assert cb.legal_actions(one)[0] == DONE
    assert cb.is_legal(one, DONE)
    # the fourth discard ends the discarding by itself: no fifth
    four = apply_all(one, [cb.Discard(card(c)) for c in ("6d", "7d", "Jd")])
    assert_illegal(four, cb.Discard(card("Qd")))
    # and with four down he must take the whole stock: no choice is left, so
    # the engine takes it (forced moves) and the play begins
    assert four.phase is cb.Phase.PLAYING
    stock = deal_a_after_give_back().stock
    assert len(stock) == 4
    assert [(seat, move) for _, seat, move in four.forced_moves] == [
        (1, cb.Take(c)) for c in stock
    ]
    assert four.hand(1) == hand - P("5d 6d 7d Jd") | stock


def test_rule3_discard_only_cards_he_holds() -> None:
    """Rule 3: he discards from his own hand."""
    state = deal_a_after_give_back()
    assert_illegal(state, cb.Discard(card("4d")), "4d")  # given back to seat 2
    assert_illegal(state, cb.Discard(card("Ah")), "ah")  # in the stock


def test_rule3_discards_are_face_down() -> None:
    """Rule 3: the discards are face down: the adversaries cannot tell which they were."""
    state = deal_a_after_give_back()
    a = cb.apply(state, cb.Discard(card("5d")))
    b = cb.apply(state, cb.Discard(card("6d")))
    assert a.view(1).discards == P("5d")
    for seat in (0, 2):
        assert a.view(seat) == b.view(seat)
        assert a.view(seat).discards == cb.CardSet()


def test_rule3_discard_cannot_be_amended_after_stock_is_exposed() -> None:
    """Rule 3: once the stock is exposed, the discard cannot be changed or added to."""
    state = apply_all(deal_a_after_give_back(), [cb.Discard(card("5d")), DONE])
    assert state.phase is cb.Phase.TAKING
    assert_illegal(state, cb.Discard(card("6d")))
    assert_illegal(state, DONE)


# --- Rule 4: the stock ----------------------------------------------------------------


def test_rule4_stock_turned_face_up_for_all_to_see() -> None:
    """Rule 4: after the discard the four stock cards are shown to every seat."""
    state = apply_all(deal_a_after_give_back(), [cb.Discard(card("5d")), DONE])
    for seat in range(3):
        assert P(A_STOCK) <= state.view(seat).exposed


def test_rule4_exposing_the_stock_does_not_show_the_discards() -> None:
    """Rule 4: only the four stock cards are turned up; the single player's discards stay hidden."""
    gave = deal_a_after_give_back()
    a = apply_all(gave, [cb.Discard(card("5d")), DONE])
    b = apply_all(gave, [cb.Discard(card("6d")), DONE])
    for seat in range(3):
        assert a.view(seat).exposed == P(A_STOCK)
    # the adversaries cannot tell 5d from 6d even after the stock is shown
    for seat in (0, 2):
        assert a.view(seat) == b.view(seat)


def test_rule4_takes_exactly_as_many_as_discarded() -> None:
    """Rule 4: he takes exactly as many stock cards as he discarded, back to twelve."""
    state = apply_all(
        deal_a_after_give_back(), [cb.Discard(card("5d")), cb.Discard(card("6d")), DONE]
    )
    assert state.phase is cb.Phase.TAKING
    assert state.to_move == 1
    assert DONE not in cb.legal_actions(state)
    assert_illegal(state, DONE)
    one = cb.apply(state, cb.Take(card("Ah")))
    # one taken, one to go: he may not stop at eleven
    assert one.phase is cb.Phase.TAKING
    assert len(one.hand(1)) == 11
    assert_illegal(one, DONE)
    two = cb.apply(one, cb.Take(card("5h")))
    assert two.phase is cb.Phase.PLAYING
    assert two.hand(1) == P("3d 2d Ad Kd Qd Jd 7d 3h 2h 3s Ah 5h")
    assert [len(h) for h in two.hands] == [12, 12, 12]


def test_rule4_takes_only_from_the_four_stock_cards() -> None:
    """Rule 4: he takes from the four exposed stock cards, never back one of his discards."""
    state = apply_all(
        deal_a_after_give_back(), [cb.Discard(card("5d")), cb.Discard(card("6d")), DONE]
    )
    assert cb.legal_actions(state) == tuple(cb.Take(c) for c in P(A_STOCK))
    assert_illegal(state, cb.Take(card("5d")))
    assert_illegal(state, cb.Take(card("Kh")))  # not in the stock at all


def test_rule4_four_discarded_takes_all_four() -> None:
    """Rule 4: with four discarded he takes all four stock cards."""
    state = apply_all(
        deal_a_after_give_back(), [cb.Discard(card(c)) for c in ("5d", "6d", "7d", "Jd")]
    )
    for stock_card in P(A_STOCK):
        if state.phase is cb.Phase.TAKING:
            state = cb.apply(state, cb.Take(stock_card))
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(1) == P("3d 2d Ad Kd Qd 3h 2h 3s Ah 5h 4s 4c")


def test_rule4_unused_stock_cards_join_the_discards_as_new_stock() -> None:
    """Rule 4: the cards not taken join his discards: the new four-card stock."""
    state = apply_all(
        deal_a_after_give_back(),
        [cb.Discard(card("5d")), DONE, cb.Take(card("Ah"))],
    )
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P("5d 5h 4s 4c")
    # every seat knows the stock's size, and only the declarer knows his discard
    for seat in range(3):
        assert state.view(seat).stock_size == 4
    assert state.view(1).discards == P("5d")


# --- Rule 5: the first lead -------------------------------------------------------------


def _rule5_state(rules: cb.Ruleset, declarer: int) -> cb.State:
    """DEAL_A to the first trick with seat ``declarer`` (1 or 2) as the single player."""
    state = deal_a(rules)
    if declarer == 1:
        return apply_all(
            state,
            [STAND, cb.Call(card("3s")), cb.GiveBack(card("4d")),
             cb.Discard(card("5d")), DONE, cb.Take(card("Ah"))],
        )
    # seat 1 passes, seat 2 stands, asks 3c of seat 0, gives 5s back, swaps Jh for Ah
    return apply_all(
        state,
        [PASS, STAND, cb.Call(card("3c")), cb.GiveBack(card("5s")),
         cb.Discard(card("Jh")), DONE, cb.Take(card("Ah"))],
    )


def test_rule5_first_lead_eldest() -> None:
    """Rule 5: by default (Foster) the eldest hand leads to the first trick."""
    assert cb.CAVENDISH.first_lead == "eldest"
    state = _rule5_state(cb.CAVENDISH, declarer=2)
    assert state.phase is cb.Phase.PLAYING
    assert state.to_move == 1  # the eldest, not the single player (2)
    assert state.leader == 1


def test_rule5_first_lead_eldest_when_eldest_is_single_player() -> None:
    """Rule 5: the eldest hand leads even when he is the single player."""
    state = _rule5_state(cb.CAVENDISH, declarer=1)
    assert state.to_move == 1


def test_rule5_first_lead_after_declarer() -> None:
    """Rule 5: option first_lead="after_declarer": the seat after the single player leads."""
    rules = cb.Cavendish(first_lead="after_declarer")
    assert _rule5_state(rules, declarer=2).to_move == 0  # after seat 2 comes seat 0
    assert _rule5_state(rules, declarer=1).to_move == 2  # after seat 1 comes seat 2


# --- Rule 6: showing and scoring ------------------------------------------------------------


def test_rule6_stock_and_last_trick_count_for_the_last_trick_winner() -> None:
    """Rule 6: each side counts its cards, plus stock and 3 for the last trick to its winner."""
    # declarer 15 in his tricks, adversaries 13, stock 4: with the last trick he has 22
    won_last = cb.CAVENDISH.score(
        cavendish_tally(declarer_cards=15, adversary_cards=13, stock=4, declarer_last=True)
    )
    assert (won_last.declarer_units, won_last.adversary_units) == (22, 13)
    lost_last = cb.CAVENDISH.score(
        cavendish_tally(declarer_cards=15, adversary_cards=13, stock=4, declarer_last=False)
    )
    assert (lost_last.declarer_units, lost_last.adversary_units) == (15, 20)


def test_rule6_single_player_wins_with_18_loses_with_17() -> None:
    """Rule 6: 18 or more wins, 17 or fewer loses; there are no ties."""
    won = cb.CAVENDISH.score(cavendish_tally(declarer_cards=18, adversary_cards=10, stock=4,
                                   declarer_last=False))
    # 18 against 10 + 4 + 3 = 17
    assert won.declarer_units == 18
    assert won.declarer_won
    assert won.winner is cb.Side.DECLARER
    lost = cb.CAVENDISH.score(cavendish_tally(declarer_cards=14, adversary_cards=18, stock=0,
                                    declarer_last=True))
    # 14 + 0 + 3 = 17 against 18
    assert lost.declarer_units == 17
    assert not lost.declarer_won
    assert lost.winner is cb.Side.ADVERSARIES


def test_rule6_value_is_the_difference_of_the_totals_from_each_adversary() -> None:
    """Rule 6: the value is the difference of the two sides' totals, paid by each adversary."""
    # 27 + 0 + 3 = 30 against 5: value 25 from each of seats 0 and 2
    result = cb.CAVENDISH.score(cavendish_tally(declarer_cards=27, adversary_cards=5, stock=0,
                                      declarer_last=True))
    assert result.value == 25
    assert result.payments == (-25, 50, -25)
    assert result.bonus is None
    assert result.multiplier == 1


def test_rule6_only_all_35_doubles() -> None:
    """Rule 6: the value is doubled to 70 only when one side has all 35 (34-1 is 33)."""
    # 30 + 1 (stock) + 3 = 34 against 1
    near = cb.CAVENDISH.score(cavendish_tally(declarer_cards=30, adversary_cards=1, stock=1,
                                    declarer_last=True, declarer_tricks=11))
    assert (near.declarer_units, near.adversary_units) == (34, 1)
    assert near.value == 33
    assert near.bonus is None
    # 28 + 4 + 3 = 35 against 0
    full = cb.CAVENDISH.score(cavendish_tally(declarer_cards=28, adversary_cards=0, stock=4,
                                    declarer_last=True, declarer_tricks=12))
    assert full.value == 70
    assert full.bonus is cb.Bonus.ALL_POINTS
    assert full.payments == (-70, 140, -70)


# --- Rule 7 and "four at the table" -----------------------------------------------------------

# DEAL_E's hands at a table of four, dealer seat 1 sitting out: turn order 2, 3, 0.
# Seat 2 holds DEAL_E's seat 1 cards, seat 3 its seat 2 cards, seat 0 its seat 0 cards,
# so the same play as in test_common_stock_goes_to_last_trick_winner gives the
# single player (seat 2) 26 units against 9: value 17.
FOUR_HANDS = [P(E_SEAT0), P(""), P(E_SEAT1), P(E_SEAT2)]

E_PLAY = plays(
    "5d 4d 6d "  # T1  seat 1 leads; 6d (dealer-side seat 0) wins: 0 units
    "6h 3h Ah "  # T2  seat 0 leads; 3h wins for the single player: 4
    "5h 7h Ac "  # T3  single player leads; 7h wins for seat 2: 3
    "Ks 4s 3s "  # T4  seat 2 leads; 3s wins for the single player: 2
    "2s As 5s "  # T5  single player: 4
    "3d Jd Jc "  # T6  single player: 3
    "2d Qd Qc "  # T7  single player: 3
    "3c Qh Kc "  # T8  single player: 3
    "7c Kd 6s "  # T9  single player: 1
    "6c Ad 7s "  # T10 single player: 3
    "2h Jh Js "  # T11 single player: 3
    "4h Kh Qs"  # T12 Kh wins the last trick for seat 2: 2, plus stock (1) and 3
)


def _four_player_game(dealer_shares: bool) -> cb.State:
    rules = cb.Cavendish(players=4, dealer_shares=dealer_shares)
    state = cb.deal_from(rules, FOUR_HANDS, P(E_STOCK), dealer=1)
    state = apply_all(state, [STAND, cb.Discard(card("2c")), cb.Discard(card("7d")), DONE])
    for code in ("7c", "6c"):
        if state.phase is cb.Phase.TAKING:
            state = cb.apply(state, cb.Take(card(code)))
    assert state.phase is cb.Phase.PLAYING
    for action in E_PLAY:
        assert state.to_move != 1  # the dealer never plays
        state = cb.apply(state, action)
    return state


def test_rule7_four_players_dealer_gets_no_cards() -> None:
    """Common: with four at the table the dealer takes no cards."""
    rules = cb.Cavendish(players=4)
    deal = cb.shuffled_deal(rules, dealer=1, seed=11)
    assert len(deal.hands) == 4
    assert [len(h) for h in deal.hands] == [12, 0, 12, 12]
    assert len(deal.stock) == 4
    assert deal.eldest == 2


def test_rule7_four_players_dealer_sits_out() -> None:
    """Common: the sitting-out dealer never speaks nor plays; the three others do, in turn."""
    rules = cb.Cavendish(players=4)
    state = cb.deal_from(rules, FOUR_HANDS, P(E_STOCK), dealer=1)
    spoke = []
    while state.phase is cb.Phase.BIDDING:
        assert state.to_move is not None
        spoke.append(state.to_move)
        state = cb.apply(state, PASS)
    assert spoke == [2, 3, 0]
    assert state.view(1).hand == cb.CardSet()


def test_rule7_dealer_shares_fortunes_by_default() -> None:
    """Rule 7: Cavendish's sitting-out dealer pays or receives like each adversary (default)."""
    assert cb.Cavendish(players=4).dealer_shares is True
    state = _four_player_game(dealer_shares=True)
    result = state.result
    assert result is not None
    # 26 against 9: value 17, from seats 0, 3 and the dealer (1)
    assert (result.declarer_units, result.adversary_units) == (26, 9)
    assert result.declarer == 2
    assert result.value == 17
    assert result.payments == (-17, -17, 51, -17)


def test_rule7_dealer_shares_fortunes_when_the_single_player_loses() -> None:
    """Rule 7: the sitting-out dealer receives like each adversary when the single player loses."""
    rules = cb.Cavendish(players=4)
    # 14 + 0 + 3 = 17 against 18: value 1 to each of seats 1, 2 and the dealer 3
    result = rules.score(cavendish_tally(declarer_cards=14, adversary_cards=18, stock=0,
                               declarer_last=True, players=4, dealer=3, declarer=0))
    assert result.payments == (-3, 1, 1, 1)


def test_rule7_dealer_sharing_off_leaves_dealer_out() -> None:
    """Option dealer_shares=False: the sitting-out dealer neither pays nor receives."""
    state = _four_player_game(dealer_shares=False)
    assert state.result is not None
    assert state.result.payments == (-17, 0, 34, -17)


# --- Common: the play ---------------------------------------------------------------------


def test_common_leader_plays_any_card() -> None:
    """Common: the leader may play any card of his hand."""
    state = deal_e_playing()
    assert state.to_move == 1
    hand = P("3d 2d 5d 3h 2h 4h 5h 3s 2s 3c 7c 6c")
    assert state.hand(1) == hand
    assert cb.legal_actions(state) == tuple(cb.Play(c) for c in hand)
    assert_illegal(state, play("Ad"), "ad")  # seat 2's card


def test_common_must_follow_suit() -> None:
    """Common: the others must follow suit if they can."""
    state = cb.apply(deal_e_playing(), play("5d"))
    # seat 2 holds Ad Kd Qd Jd 4d: only those
    assert state.to_move == 2
    assert cb.legal_actions(state) == plays("Ad Kd Qd Jd 4d")
    assert_illegal(state, play("Ah"), "follow")
    assert_illegal(state, play("Ks"), "follow")


def test_common_void_in_suit_may_play_any_card() -> None:
    """Common: a player void in the suit led may play any card."""
    # seat 1 leads 5d, seat 2 follows 4d, seat 0 follows 6d and wins (T1 of E_PLAY);
    # seat 0 leads 6h, seat 1 plays 3h, seat 2 Ah: seat 1 wins and leads 5h; seat 2
    # follows 7h; seat 0 has no hearts left: any of his ten cards
    state = apply_all(deal_e_playing(), plays("5d 4d 6d 6h 3h Ah 5h 7h"))
    assert state.to_move == 0
    assert cb.legal_actions(state) == plays("Qs Js 7s 6s 5s 4s Ac Kc Qc Jc")


def test_common_nobody_obliged_to_win_the_trick() -> None:
    """Common: nobody must win the trick; a lower card of the suit is legal."""
    # seat 2 could win 5d with Ad but plays 4d; seat 0's 6d then takes the trick
    state = apply_all(deal_e_playing(), plays("5d 4d 6d"))
    assert state.tricks_won == (1, 0, 0)
    assert state.to_move == 0


def test_common_highest_card_of_suit_led_wins_and_leads_next() -> None:
    """Common: the highest card of the suit led wins the trick and its winner leads next."""
    state = apply_all(deal_e_playing(), plays("5d 4d 6d"))
    # seat 0 won with 6d (6 > 5 > 4), the last to play; he leads
    assert state.leader == 0
    assert state.to_move == 0
    # 6h led, 3h (seat 1) beats Ah (seat 2): 3 is above the ace; 4 units to seat 1
    state = apply_all(state, plays("6h 3h Ah"))
    assert state.tricks_won == (1, 1, 0)
    assert state.card_units_won == (0, 4, 0)
    assert state.to_move == 1
    assert state.trick == ()


def test_common_no_trumps_off_suit_card_never_wins() -> None:
    """Common: no trumps: a higher card of another suit does not win the trick."""
    # seat 1 leads 5h, seat 2 plays 7h, seat 0 (void in hearts) throws Ac: 7h wins
    state = apply_all(deal_e_playing(), plays("5d 4d 6d 6h 3h Ah 5h 7h Ac"))
    assert state.tricks_won == (1, 1, 1)
    assert state.card_units_won == (0, 4, 3)
    assert state.to_move == 2


def test_common_play_goes_round_in_turn_order() -> None:
    """Common: the next player is (seat + 1) % n, from the leader round the table."""
    state = deal_e_playing()
    state = cb.apply(state, play("5d"))
    assert state.to_move == 2
    state = cb.apply(state, play("4d"))
    assert state.to_move == 0
    assert state.trick == (card("5d"), card("4d"))


def test_common_stock_goes_to_last_trick_winner() -> None:
    """Common: the final stock belongs to the last-trick winner's side and counts for it."""
    state = deal_e_playing()
    assert state.stock == P("5c 4c 2c 7d")  # 1 unit
    for action in E_PLAY:
        state = cb.apply(state, action)
    assert state.is_over
    result = state.result
    assert result is not None
    # declarer tricks T2 4, T4 2, T5 4, T6 3, T7 3, T8 3, T9 1, T10 3, T11 3 = 26;
    # adversaries T1 0, T3 3, T12 2 = 5, plus the stock 1 and the last trick 3 = 9
    assert result.declarer_units == 26
    assert result.adversary_units == 9
    assert result.declarer_tricks == 9
    assert result.adversary_tricks == 3
    assert state.tricks_won == (1, 9, 2)
    assert result.value == 17
    assert result.payments == (-17, 34, -17)


def test_common_twelve_tricks_then_over() -> None:
    """Common: twelve tricks are played, then the deal is over and no action is legal."""
    state = deal_e_playing()
    for i, action in enumerate(E_PLAY):
        assert not state.is_over
        assert state.tricks_played == i // 3
        state = cb.apply(state, action)
    assert state.tricks_played == 12
    assert state.is_over
    assert cb.legal_actions(state) == ()
    assert_illegal(state, play("4h"), "over")


# --- Common: the deal -------------------------------------------------------------------------


class _NoShuffle(random.Random):
    """A Random that leaves the pack in canonical order (to check how it is dealt)."""

    def shuffle(self, x: MutableSequence[Any], *args: Any, **kwargs: Any) -> None:
        return None


def test_deal_packets_of_four() -> None:
    """Common: twelve cards to each in packets of four from the eldest; the last four are stock."""
    deal = cb.shuffled_deal(cb.CAVENDISH, dealer=0, seed=_NoShuffle())
    # canonical pack 3d..4c: seat 1 cards 0-3, seat 2 4-7, seat 0 8-11, seat 1 12-15, ...
    assert deal.hands[1] == P("3d 2d Ad Kd Ah Kh Qh Jh Qs Js 7s 6s")
    assert deal.hands[2] == P("Qd Jd 7d 6d 7h 6h 5h 4h 5s 4s 3c 2c")
    assert deal.hands[0] == P("5d 4d 3h 2h 3s 2s As Ks Ac Kc Qc Jc")
    assert deal.stock == P("7c 6c 5c 4c")


def test_deal_packets_of_two() -> None:
    """Common: option packet=2 deals the same way two cards at a time."""
    rules = cb.Cavendish(packet=2)
    deal = cb.shuffled_deal(rules, dealer=0, seed=_NoShuffle())
    assert deal.hands[1] == P("3d 2d 7d 6d Ah Kh 5h 4h Qs Js 3c 2c")
    assert deal.hands[2] == P("Ad Kd 5d 4d Qh Jh 3s 2s 7s 6s Ac Kc")
    assert deal.hands[0] == P("Qd Jd 3h 2h 7h 6h As Ks 5s 4s Qc Jc")
    assert deal.stock == P("7c 6c 5c 4c")


def test_deal_from_seed_is_the_documented_shuffle() -> None:
    """Common: a seeded deal shuffles the canonical pack with random.Random(seed)."""
    pack = list(range(40))
    random.Random(2024).shuffle(pack)
    codes = [rank + suit for suit in "dhsc" for rank in "32AKQJ7654"]
    cards = [codes[i] for i in pack]
    # dealer 2: eldest 0, then 1, then 2; packets of four
    expect: dict[int, list[str]] = {0: [], 1: [], 2: []}
    for k in range(9):
        expect[(k % 3)].extend(cards[4 * k : 4 * k + 4])
    deal = cb.shuffled_deal(cb.CAVENDISH, dealer=2, seed=2024)
    for seat in range(3):
        assert deal.hands[seat] == cb.CardSet.of(expect[seat])
    assert deal.stock == cb.CardSet.of(cards[36:])


def test_deal_same_seed_same_deal() -> None:
    """Common: the same seed always gives the same deal; a Random gives what its seed gives."""
    assert cb.new_deal(cb.CAVENDISH, dealer=1, seed=99) == cb.new_deal(
        cb.CAVENDISH, dealer=1, seed=99
    )
    assert cb.shuffled_deal(cb.CAVENDISH, seed=5) == cb.shuffled_deal(
        cb.CAVENDISH, seed=random.Random(5)
    )
    assert cb.shuffled_deal(cb.CAVENDISH, seed=5) != cb.shuffled_deal(cb.CAVENDISH, seed=6)


def test_deal_random_advances() -> None:
    """Common: a random.Random passed in advances, so two deals from it differ."""
    rng = random.Random(5)
    first = cb.shuffled_deal(cb.CAVENDISH, seed=rng)
    second = cb.shuffled_deal(cb.CAVENDISH, seed=rng)
    assert first != second


def test_deal_every_card_once_twelve_each_four_in_stock() -> None:
    """Common: a deal gives 12 cards to each player and 4 to the stock: the 40 cards once each."""
    for seed in range(20):
        deal = cb.shuffled_deal(cb.CAVENDISH, dealer=seed % 3, seed=seed)
        assert [len(h) for h in deal.hands] == [12, 12, 12]
        assert len(deal.stock) == 4
        union = deal.stock
        for hand in deal.hands:
            assert union.isdisjoint(hand)
            union = union | hand
        assert union == cb.CardSet.all()


@pytest.mark.parametrize("seed", ["7", 7.0, None, b"7"])
def test_deal_bad_seed_raises_seed_error(seed: object) -> None:
    """A seed is an int or a random.Random; anything else raises SeedError (a TypeError, not a RecordError)."""
    with pytest.raises(cb.SeedError) as info:
        cb.new_deal(cb.CAVENDISH, seed=seed)  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)
    assert not isinstance(info.value, cb.RecordError)


# --- deal_from validation -----------------------------------------------------------------------


def test_deal_from_wrong_card_count_in_a_hand() -> None:
    """deal_from: a hand of 11 (or 13) cards raises RecordError."""
    with pytest.raises(cb.RecordError):
        # seat 2 has 11 cards, the stock 5
        cb.deal_from(
            cb.CAVENDISH,
            [P(A_SEAT0), P(A_SEAT1), P("3s 2s As Ks Qs Js 7s 6s 5s Kh Qh")],
            P("Ah 5h 4s 4c Jh"),
        )
    with pytest.raises(cb.RecordError):
        # seat 2 has 13 cards, the stock 3
        cb.deal_from(
            cb.CAVENDISH,
            [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2 + " 4c")],
            P("Ah 5h 4s"),
        )


def test_deal_from_wrong_stock_size() -> None:
    """deal_from: a stock of other than four cards raises RecordError."""
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)], P("Ah 5h 4s"))
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)], P(""))


def test_deal_from_duplicate_card_in_two_hands() -> None:
    """deal_from: a card dealt to two seats raises RecordError (counts right, 4c missing)."""
    # seat 2 has Ad (also seat 1's) instead of Jh, and the stock has Jh instead of 4c
    with pytest.raises(cb.RecordError):
        cb.deal_from(
            cb.CAVENDISH,
            [P(A_SEAT0), P(A_SEAT1), P("3s 2s As Ks Qs Js 7s 6s 5s Kh Qh Ad")],
            P("Ah 5h 4s Jh"),
        )


def test_deal_from_duplicate_card_in_hand_and_stock() -> None:
    """deal_from: a card both in a hand and in the stock raises RecordError."""
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)], P("Ah 5h 4s Ad"))


def test_deal_from_duplicate_card_within_one_list() -> None:
    """deal_from: a card listed twice in one hand raises RecordError, not silently 11 cards."""
    seat2 = [*A_SEAT2.split()[:11], "3s"]
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1), seat2], P("Ah 5h 4s 4c"))


def test_deal_from_wrong_number_of_hands() -> None:
    """deal_from: two or four hands for a table of three raises RecordError."""
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1)], P(A_STOCK))
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.CAVENDISH, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2), P("")], P(A_STOCK))


def test_deal_from_four_players_dealer_holding_cards() -> None:
    """deal_from: with four at the table, a dealer holding cards raises RecordError."""
    rules = cb.Cavendish(players=4)
    with pytest.raises(cb.RecordError):
        # dealer 0 holds twelve, seat 3 none
        cb.deal_from(rules, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2), P("")], P(A_STOCK), dealer=0)
    # the same cards with the empty hand at the dealer's seat are a deal
    state = cb.deal_from(rules, [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2), P("")], P(A_STOCK), dealer=3)
    assert state.to_move == 0


@pytest.mark.parametrize("dealer", [-1, 3, "0", None, 1.0])
def test_deal_from_bad_dealer(dealer: object) -> None:
    """deal_from: a dealer that is not a seat of the table raises SeatError, naming the range."""
    with pytest.raises(cb.SeatError, match=r"expected 0\.\.2 at a table of 3"):
        cb.deal_from(
            cb.CAVENDISH,
            [P(A_SEAT0), P(A_SEAT1), P(A_SEAT2)],
            P(A_STOCK),
            dealer=dealer,  # type: ignore[arg-type]
        )


def test_deal_from_accepts_strings_and_card_lists() -> None:
    """deal_from takes each hand as a CardSet, a string of codes or a list of cards."""
    a = deal_a()
    b = cb.deal_from(
        cb.CAVENDISH,
        [A_SEAT0, [card(c) for c in A_SEAT1.split()], A_SEAT2.split()],
        A_STOCK,
        dealer=0,
    )
    assert a == b


def test_deal_from_bad_notation_raises_notation_error() -> None:
    """deal_from: a hand naming no card raises NotationError."""
    with pytest.raises(cb.NotationError):
        cb.deal_from(cb.CAVENDISH, [A_SEAT0, A_SEAT1, A_SEAT2], "Ah 5h 4s 10c")
