"""One test per rule of RULES.md, "Ruleset 2" (Calabresella / Terziglio) items 1-8, and per option.

Each situation is a hand-built deal (``cb.deal_from``); what should happen is
worked out by hand in the comments, never with the code under test. The
worked examples at the scoring level (a ``cb.Tally`` handed to ``score``)
live in ``test_worked_examples.py``; here whole deals are played through the
engine.

Seat numbers are turn order: with the dealer at seat 0 and three at the
table, the eldest hand is seat 1, then seat 2, then the dealer (seat 0).
Card units: ace 3; 3, 2, K, Q, J 1 each; 7, 6, 5, 4 nothing; 32 in the cards,
3 more for the last trick, whose winner also takes the monte.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, MutableSequence
from typing import Any, cast

import pytest
from support import assert_illegal

import calabrasella as cb

P = cb.CardSet.parse
PASS = cb.Pass()
DONE = cb.Done()
CHIAMO = cb.Bid(cb.Contract.CHIAMO)
SOLO = cb.Bid(cb.Contract.SOLO)
SOLISSIMO = cb.Bid(cb.Contract.SOLISSIMO)
DIVIDETE = cb.Raise(cb.Modifier.DIVIDETE)
SCEGLIETE = cb.Raise(cb.Modifier.SCEGLIETE)


def card(code: str) -> cb.Card:
    return cb.Card.parse(code)


def call(code: str) -> cb.Call:
    return cb.Call(card(code))


def give(code: str) -> cb.GiveBack:
    return cb.GiveBack(card(code))


def take(code: str) -> cb.Take:
    return cb.Take(card(code))


def play(code: str) -> cb.Play:
    return cb.Play(card(code))


def draw(codes: str) -> cb.Draw:
    return cb.Draw(P(codes))


def discards(codes: str) -> list[cb.Discard]:
    return [cb.Discard(card(c)) for c in codes.split()]


def plays(codes: str) -> list[cb.Play]:
    return [play(c) for c in codes.split()]


def apply_all(state: cb.State, actions: Iterable[cb.Action]) -> cb.State:
    for action in actions:
        state = cb.apply(state, action)
    return state


def finished(state: cb.State) -> cb.Result:
    """The result of a deal that must be over."""
    assert state.is_over
    assert state.phase is cb.Phase.OVER
    assert state.to_move is None
    assert state.result is not None
    return state.result


def history_of(view: cb.View) -> list[tuple[int, cb.Action | cb.Hidden]]:
    return list(view.history)


# --- DEAL_A: dealer 0 (turn order 1, 2, 0); seat 1 holds every coin ------------------------
# Seat 1: all ten coins and 4h 4s; seat 2: nine hearts and 3s 2s As; seat 0: the other six
# swords and six batons; the monte: the four low batons (no units).
A0 = "Ks Qs Js 7s 6s 5s 3c 2c Ac Kc Qc Jc"
A1 = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 4h 4s"
A2 = "3h 2h Ah Kh Qh Jh 7h 6h 5h 3s 2s As"
A_MONTE = "7c 6c 5c 4c"


def deal_a(rules: cb.Ruleset = cb.CALABRESELLA, dealer: int = 0) -> cb.State:
    return cb.deal_from(rules, [P(A0), P(A1), P(A2)], P(A_MONTE), dealer=dealer)


def deal_a_four(rules: cb.Ruleset) -> cb.State:
    """DEAL_A at a table of four: dealer 0 sits out, seat 3 holds DEAL_A's seat 0 cards."""
    return cb.deal_from(rules, [P(""), P(A1), P(A2), P(A0)], P(A_MONTE), dealer=0)


def a_chiamo_called(rules: cb.Ruleset = cb.CALABRESELLA) -> cb.State:
    """Seat 1 bids chiamo (2 and 0 pass) and calls 3h, which seat 2 holds."""
    return apply_all(deal_a(rules), [CHIAMO, PASS, PASS, call("3h")])


# Seat 1 calls 3h (seat 2 hands it over), takes the monte 7c 6c 5c 4c (17 cards), gives 4s
# back to seat 2 and discards the four batons: the new monte is 7c 6c 5c 4c, no units.
A_EXCHANGE: list[cb.Action] = [
    CHIAMO, PASS, PASS, call("3h"), give("4s"), *discards("7c 6c 5c 4c")
]
# Seat 1 (the declarer) leads every trick: ten coins (seats 2 and 0 have none), then 3h
# (the best heart), then 4h, which seat 2's Ah wins. Order in each trick: seat 1, 2, 0.
A_PLAY = plays(
    "3d 3s Ks "  # T1  seat 1: 1 + 1 + 1 = 3
    "2d 2s Qs "  # T2  seat 1: 3
    "Ad As Js "  # T3  seat 1: 3 + 3 + 1 = 7
    "Kd 4s 7s "  # T4  seat 1: 1
    "Qd 7h 6s "  # T5  seat 1: 1
    "Jd 6h 5s "  # T6  seat 1: 1
    "7d 5h 3c "  # T7  seat 1: 1
    "6d Jh 2c "  # T8  seat 1: 2
    "5d Qh Kc "  # T9  seat 1: 2
    "4d Kh Qc "  # T10 seat 1: 2
    "3h 2h Jc "  # T11 seat 1: 3  (3h beats 2h; seat 0 has no heart)
    "4h Ah Ac"  # T12 seat 2: Ah beats 4h; 3 + 3 = 6, plus the monte (0) and the last trick (3)
)


# --- DEAL_B: dealer 0; seat 2 holds four top coins and nothing else of use -------------------
B0 = "3h 2h Ah Kh Qh Jh 3s 2s As Ks Qs Js"
B1 = "Qd Jd 7d 6d 5d 4d 3c 2c Ac Kc Qc Jc"
B2 = "3d 2d Ad Kd 7h 6h 5h 4h 7s 6s 5s 4s"
B_MONTE = "7c 6c 5c 4c"


def deal_b(rules: cb.Ruleset = cb.CALABRESELLA, monte: str = B_MONTE, seat2: str = B2) -> cb.State:
    return cb.deal_from(rules, [P(B0), P(B1), P(seat2)], P(monte), dealer=0)


def deal_b_four(rules: cb.Ruleset) -> cb.State:
    """DEAL_B at a table of four: dealer 0 sits out, seat 3 holds DEAL_B's seat 0 cards."""
    return cb.deal_from(rules, [P(""), P(B1), P(B2), P(B0)], P(B_MONTE), dealer=0)


def b_solissimo(rules: cb.Ruleset = cb.CALABRESELLA) -> cb.State:
    """Seat 1 passes, seat 2 bids solissimo: the first adversary is seat 0, the second seat 1."""
    return apply_all(deal_b(rules), [PASS, SOLISSIMO])


# Scegliete: seat 0 takes 7c and 6c, seat 1 is given the rest (5c 4c); seat 0 discards Qs Js,
# seat 1 discards 4d 4c. The new monte: Qs Js 4d 4c, 2 units.
B_EXCHANGE: list[cb.Action] = [
    PASS, SOLISSIMO, SCEGLIETE, take("7c"), take("6c"), DONE, *discards("Qs Js 4d 4c"),
]
# The declarer (seat 2) leads his four coins and wins them; then he has only low hearts and
# swords, and the adversaries win every trick.
B_PLAY = plays(
    "3d 7c 5d "  # T1  seat 2 (order 2, 0, 1): 1
    "2d 6c 7d "  # T2  seat 2: 1
    "Ad Ks 6d "  # T3  seat 2: 3 + 1 = 4
    "Kd 2s Jd "  # T4  seat 2: Kd beats Jd; 1 + 1 + 1 = 3
    "7h 3h Qd "  # T5  seat 0: 3h; 1 + 1 = 2  (seat 1 has no heart)
    "2h 5c 6h "  # T6  seat 0 leads (order 0, 1, 2): 1
    "Ah Jc 5h "  # T7  seat 0: 3 + 1 = 4
    "Kh Qc 4h "  # T8  seat 0: 2
    "Qh Kc 7s "  # T9  seat 0: 2
    "Jh Ac 6s "  # T10 seat 0: 1 + 3 = 4
    "3s 2c 5s "  # T11 seat 0: 2
    "As 3c 4s"  # T12 seat 0: 3 + 1 = 4, plus the monte (2) and the last trick (3)
)


# --- DEAL_C: dealer 0; seat 0 (the dealer) holds every coin, 3h 2h; the monte Ah Kh 4s 4c -----
C0 = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 2h"
C1 = "Qh Jh 7h 6h 5h 4h 3s 2s As Ks Qs Js"
C2 = "7s 6s 5s 3c 2c Ac Kc Qc Jc 7c 6c 5c"
C_MONTE = "Ah Kh 4s 4c"
# the same deal with the declarer's 2h and the monte's Ah swapped
C0_SWAPPED = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h Ah"
C_MONTE_SWAPPED = "2h Kh 4s 4c"


def deal_c(
    rules: cb.Ruleset = cb.CALABRESELLA, seat0: str = C0, monte: str = C_MONTE
) -> cb.State:
    return cb.deal_from(rules, [P(seat0), P(C1), P(C2)], P(monte), dealer=0)


# Seats 1 and 2 pass, seat 0 bids solo, takes Ah Kh 4s 4c and discards Jd 4d 4s 4c: the new
# monte holds 1 unit (Jd), which comes back to him with the last trick.
C_EXCHANGE: list[cb.Action] = [PASS, PASS, SOLO, *discards("Jd 4d 4s 4c")]
# Seat 0 leads the four top hearts (seat 2 has none), then the eight coins (nobody else has
# one): twelve tricks, every card unit but the monte's Jd (31) in them.
C_PLAY = plays(
    "3h 4h 7s  2h 5h 6s  Ah 6h 5s  Kh 7h 5c "
    "3d 3s 3c  2d 2s 2c  Ad As Ac  Kd Ks Kc  Qd Qs Qc  5d Js Jc  7d Qh 7c  6d Jh 6c"
)


# --- DEAL_D: dealer 0; seat 1 holds every coin, 3h and the 4s; stramazzo at each threshold ----
D0 = "3s 2s As Ks Qs Js 7s 6s 5s Qc Jc 4c"
D1 = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 4s"
D2 = "Kh Qh Jh 7h 6h 5h 4h 3c 2c Ac Kc 5c"
D_MONTE = "2h Ah 7c 6c"
# Seat 1 bids solo (2 and 0 pass), takes 2h Ah 7c 6c, discards 7c 6c 5d 4d (no units).
D_EXCHANGE: list[cb.Action] = [SOLO, PASS, PASS, *discards("7c 6c 5d 4d")]
# Seat 1 leads all twelve tricks: eight coins, 3h 2h Ah (seat 2 follows with Kh Qh Jh), and
# last the 4s, which seat 0 wins with the sword he kept (seat 2 has no sword).
D1_PLAYS = "3d 2d Ad Kd Qd Jd 7d 6d 3h 2h Ah 4s"


def deal_d(rules: cb.Ruleset) -> cb.State:
    return cb.deal_from(rules, [P(D0), P(D1), P(D2)], P(D_MONTE), dealer=0)


def interleave(*seats: str) -> list[cb.Play]:
    """The plays of twelve tricks, given each seat's twelve cards in trick order, in seat order."""
    columns = [s.split() for s in seats]
    assert all(len(c) == 12 for c in columns)
    return [play(code) for trick in zip(*columns) for code in trick]


# --- DEAL_E: dealer 2 (turn order 0, 1, 2); chiamo of a monte card ---------------------------
E0 = "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 4s 5s"
E1 = "3h 2h Ah Kh Qh Jh 7h 6h 3s 2s As Ks"
E2 = "Qs Js 7s 6s 3c 2c Ac Kc Qc Jc 7c 6c"
E_MONTE = "5h 4h 5c 4c"


def deal_e(rules: cb.Ruleset = cb.CALABRESELLA) -> cb.State:
    return cb.deal_from(rules, [P(E0), P(E1), P(E2)], P(E_MONTE), dealer=2)


# --- DEAL_F: dealer 0; the declarer (seat 1) holds only 7s to 4s of three suits --------------
F0 = "3s 2s As Ks Qs Js 3c 2c Ac Kc Qc Jc"
F1 = "7d 6d 5d 4d 7h 6h 5h 4h 7s 6s 5s 4s"
F2 = "3d 2d Ad Kd Qd Jd 3h 2h Ah Kh Qh Jh"
F_MONTE = "7c 6c 5c 4c"
# Seat 1 leads 7d; seat 2 wins with 3d and leads every other trick: his coins, then his
# hearts; seat 1 follows low or throws, seat 0 throws batons, then swords.
F_PLAY = plays(
    "7d 3d Jc "  # T1  seat 2 (order 1, 2, 0): 1 + 1 = 2
    "2d Qc 6d "  # T2  seat 2 leads (order 2, 0, 1): 2
    "Ad Kc 5d "  # T3  seat 2: 4
    "Kd Ac 4d "  # T4  seat 2: 4
    "Qd 2c 7h "  # T5  seat 2: 2
    "Jd 3c 6h "  # T6  seat 2: 2
    "3h 3s 5h "  # T7  seat 2: 2
    "2h 2s 4h "  # T8  seat 2: 2
    "Ah As 7s "  # T9  seat 2: 6
    "Kh Ks 6s "  # T10 seat 2: 2
    "Qh Qs 5s "  # T11 seat 2: 2
    "Jh Js 4s"  # T12 seat 2: 2; all 32 card units, the monte (0) and the last trick (3)
)


# --- DEAL_G: dealer 0; the solissimo declarer (seat 1) wins one trick with 2 card units -------
G0 = "3s 2s As Ks Qs Js 3c 2c Ac Kc Qc Jc"
G1 = "3d 7h 6h 5h 4h 7s 6s 5s 4s 7c 6c 5c"
G2 = "2d Ad Kd Jd 7d 6d 3h 2h Ah Kh Qh Jh"
G_MONTE = "Qd 5d 4d 4c"
G_PLAY = plays(
    "3d 7d Js "  # T1  seat 1 (order 1, 2, 0): 3d is the best coin; 1 + 1 = 2
    "4h 3h Jc "  # T2  seat 2: 3h; 1 + 1 = 2
    "2d Qc 7h "  # T3  seat 2 leads (order 2, 0, 1); nobody else has a coin: 2
    "Ad Kc 6h "  # T4  seat 2: 4
    "Kd Ac 5h "  # T5  seat 2: 4
    "Jd 2c 7s "  # T6  seat 2: 2
    "6d 3c 6s "  # T7  seat 2: 1
    "2h Qs 5s "  # T8  seat 2: nobody else has a heart: 2
    "Ah Ks 4s "  # T9  seat 2: 4
    "Kh As 7c "  # T10 seat 2: 4
    "Qh 2s 6c "  # T11 seat 2: 2
    "Jh 3s 5c"  # T12 seat 2: 2, plus the monte Qd 5d 4d 4c (1) and the last trick (3)
)


# --- threes_then_twos deals (as in Cavendish) ------------------------------------------------
T0 = "Ks Qs Js 7s 6s 5s 4s 2c Ac Kc Qc Jc"
T1 = "3d 3h 3s 3c 2d Ad Kd Qd Jd 7d 6d 5d"  # all four 3s and 2d
T2 = "2h Ah Kh Qh Jh 7h 6h 5h 4h 4d 2s As"
TT0 = "5h 4h Ks Qs Js 7s 6s 5s 4s Kc Qc Jc"
TT1 = "3d 3h 3s 3c 2d 2h 2s 2c Ad Ah As Ac"  # all four 3s and all four 2s
TT2 = "Kd Qd Jd 7d 6d 5d 4d Kh Qh Jh 7h 6h"
LOW_BATONS = "7c 6c 5c 4c"


# ============================================================================================
# Rule 1: bids and raises
# ============================================================================================


def test_rule1_bids_chiamo_solo_solissimo_lowest_to_highest() -> None:
    """Rule 1: the bids, lowest to highest, are chiamo, solo, solissimo; stand is not one."""
    state = deal_a()
    assert set(cb.legal_actions(state)) == {PASS, CHIAMO, SOLO, SOLISSIMO}
    assert_illegal(state, cb.Bid(cb.Contract.STAND))
    after_chiamo = cb.apply(state, CHIAMO)
    assert set(cb.legal_actions(after_chiamo)) == {PASS, SOLO, SOLISSIMO}
    after_solo = cb.apply(after_chiamo, SOLO)
    assert set(cb.legal_actions(after_solo)) == {PASS, SOLISSIMO}


def test_rule1_raises_are_not_bids_and_do_not_outbid_solissimo() -> None:
    """Rule 1: dividete and scegliete are not bids: nobody may say them in the auction."""
    state = deal_a()
    assert_illegal(state, DIVIDETE)
    assert_illegal(state, SCEGLIETE)
    # seat 1 bids solissimo: the auction ends; seat 2 never gets to "outbid" it with a raise
    state = cb.apply(state, SOLISSIMO)
    assert state.phase is cb.Phase.RAISING
    assert state.declarer == 1
    assert state.to_move == 1
    assert [seat for seat, _ in state.history] == [1]


def test_rule1_solissimo_declarer_may_raise_once() -> None:
    """Rule 1: the solissimo declarer may raise with one declaration, dividete or scegliete."""
    state = b_solissimo()
    assert state.phase is cb.Phase.RAISING
    assert state.to_move == 2
    assert set(cb.legal_actions(state)) == {PASS, DIVIDETE, SCEGLIETE}
    raised = cb.apply(state, SCEGLIETE)
    assert raised.modifier is cb.Modifier.SCEGLIETE
    # one declaration only: the next decision is the first adversary's take
    assert raised.to_move == 0
    assert_illegal(raised, DIVIDETE)
    assert_illegal(raised, SCEGLIETE)


def test_rule1_no_raise_after_chiamo_or_solo() -> None:
    """Rule 1: only a solissimo may be raised; after chiamo or solo a raise is illegal."""
    chiamo = apply_all(deal_a(), [CHIAMO, PASS, PASS])
    assert chiamo.phase is cb.Phase.CALLING
    assert_illegal(chiamo, DIVIDETE)
    solo = apply_all(deal_a(), [SOLO, PASS, PASS])
    assert solo.phase is cb.Phase.DISCARDING
    assert_illegal(solo, SCEGLIETE)


@pytest.mark.parametrize(
    ("exchange", "base", "value", "payments"),
    [
        # solissimo, no raise: stake 4; cappotto against him x2 = 8 to each
        ([PASS], 4, 8, (8, -16, 8)),
        # dividete: seat 2 draws 7c 6c, seat 0 gets 5c 4c; each discards what he drew, so
        # the hands and the play are DEAL_F's: stake 8, x2 = 16 to each
        ([DIVIDETE, draw("7c 6c"), *discards("7c 6c 5c 4c")], 8, 16, (16, -32, 16)),
        # scegliete: seat 2 takes nothing, seat 0 is given all four and discards them:
        # stake 16, x2 = 32 to each
        ([SCEGLIETE, DONE, *discards("7c 6c 5c 4c")], 16, 32, (32, -64, 32)),
    ],
    ids=["solissimo-4", "dividete-8", "scegliete-16"],
)
def test_rule1_solissimo_stakes_4_dividete_8_scegliete_16(
    exchange: list[cb.Action], base: int, value: int, payments: tuple[int, ...]
) -> None:
    """Rule 1 / 7: stakes solissimo 4, dividete 8, scegliete 16 (here doubled by a cappotto)."""
    state = apply_all(cb.deal_from(cb.CALABRESELLA, [P(F0), P(F1), P(F2)], P(F_MONTE)),
                      [SOLISSIMO, *exchange])
    assert state.phase is cb.Phase.PLAYING
    assert state.hands == (P(F0), P(F1), P(F2))
    assert state.stock == P(F_MONTE)
    result = finished(apply_all(state, F_PLAY))
    assert result.base == base
    assert result.multiplier == 2
    assert result.bonus is cb.Bonus.CAPPOTTO
    assert result.value == value
    assert result.payments == payments


# ============================================================================================
# Rule 2: the auction
# ============================================================================================


def test_rule2_eldest_hand_speaks_first() -> None:
    """Rule 2: the eldest hand (the seat after the dealer) speaks first."""
    for dealer, eldest in ((0, 1), (1, 2), (2, 0)):
        state = deal_a(dealer=dealer)
        assert state.phase is cb.Phase.BIDDING
        assert state.to_move == eldest


def test_rule2_single_round_is_the_default() -> None:
    """Rule 2: the default auction is single_round."""
    assert cb.CALABRESELLA.auction == "single_round"


def test_rule2_single_round_each_seat_speaks_once_highest_bid_wins() -> None:
    """Rule 2, auction=single_round: each seat speaks once; the highest bid wins."""
    # seat 1 chiamo, seat 2 solo, seat 0 passes: seat 1 does not speak again; seat 2 plays solo
    state = apply_all(deal_a(), [CHIAMO, SOLO, PASS])
    assert state.phase is not cb.Phase.BIDDING
    assert state.declarer == 2
    assert state.contract is cb.Contract.SOLO
    assert [seat for seat, _ in state.history] == [1, 2, 0]


def test_rule2_single_round_an_early_high_bid_stands() -> None:
    """Rule 2, auction=single_round: a bid nobody outbids wins, even the eldest's."""
    state = apply_all(deal_a(), [SOLO, PASS, PASS])
    assert state.declarer == 1
    assert state.contract is cb.Contract.SOLO
    state = apply_all(deal_a(), [PASS, CHIAMO, PASS])
    assert state.declarer == 2
    assert state.contract is cb.Contract.CHIAMO


def test_rule2_single_round_bids_strictly_higher() -> None:
    """Rule 2, auction=single_round: each bid must be higher than every earlier bid."""
    state = apply_all(deal_a(), [PASS, SOLO])
    assert state.to_move == 0
    assert set(cb.legal_actions(state)) == {PASS, SOLISSIMO}
    assert_illegal(state, CHIAMO)
    assert_illegal(state, SOLO)
    state = cb.apply(state, SOLISSIMO)
    assert state.declarer == 0
    assert state.contract is cb.Contract.SOLISSIMO


def test_rule2_single_round_solissimo_ends_the_auction_at_once() -> None:
    """Rule 2, auction=single_round: the library ends the auction at once on solissimo."""
    state = apply_all(deal_a(), [PASS, SOLISSIMO])
    # the dealer (seat 0) has not spoken and never will
    assert state.phase is cb.Phase.RAISING
    assert state.declarer == 2
    assert [seat for seat, _ in state.history] == [1, 2]


def test_rule2_single_round_all_pass_void() -> None:
    """Rule 2, auction=single_round: all pass: the deal is void, nobody pays."""
    state = apply_all(deal_a(), [PASS, PASS, PASS])
    result = finished(state)
    assert result.void
    assert result.declarer is None
    assert result.contract is None
    assert result.payments == (0, 0, 0)
    assert cb.legal_actions(state) == ()


UNTIL_TWO_PASS = cb.Calabresella(auction="until_two_pass")


def test_rule2_until_two_pass_bidding_goes_round() -> None:
    """Rule 2, auction=until_two_pass: bidding goes round until two have passed."""
    state = apply_all(deal_a(UNTIL_TWO_PASS), [CHIAMO, SOLO, PASS])
    # one pass only: the round goes on, and seat 1 speaks again; he may outbid solo or pass
    assert state.phase is cb.Phase.BIDDING
    assert state.to_move == 1
    assert set(cb.legal_actions(state)) == {PASS, SOLISSIMO}
    assert_illegal(state, CHIAMO)
    assert_illegal(state, SOLO)
    state = cb.apply(state, PASS)
    # two have passed (0 and 1): seat 2's solo wins
    assert state.phase is not cb.Phase.BIDDING
    assert state.declarer == 2
    assert state.contract is cb.Contract.SOLO
    assert [seat for seat, _ in state.history] == [1, 2, 0, 1]


def test_rule2_until_two_pass_a_passed_seat_is_out() -> None:
    """Rule 2, auction=until_two_pass: a seat that passed never speaks again."""
    state = apply_all(deal_a(UNTIL_TWO_PASS), [PASS, CHIAMO, SOLO])
    # after seat 0 comes seat 1, but he passed: seat 2 speaks
    assert state.to_move == 2
    state = cb.apply(state, PASS)
    assert state.declarer == 0
    assert state.contract is cb.Contract.SOLO
    assert [seat for seat, _ in state.history] == [1, 2, 0, 2]


def test_rule2_until_two_pass_goes_on_for_several_rounds() -> None:
    """Rule 2, auction=until_two_pass: with one pass the two others keep outbidding each other."""
    state = apply_all(deal_a(UNTIL_TWO_PASS), [CHIAMO, PASS, SOLO])
    # seat 2 passed: after seat 0 comes seat 1 again
    assert state.to_move == 1
    state = cb.apply(state, SOLISSIMO)
    # solissimo ends it at once
    assert state.phase is cb.Phase.RAISING
    assert state.declarer == 1
    assert [seat for seat, _ in state.history] == [1, 2, 0, 1]


def test_rule2_until_two_pass_solissimo_ends_at_once() -> None:
    """Rule 2, auction=until_two_pass: a solissimo ends the auction at once."""
    state = apply_all(deal_a(UNTIL_TWO_PASS), [CHIAMO, SOLISSIMO])
    assert state.phase is cb.Phase.RAISING
    assert state.declarer == 2
    assert state.contract is cb.Contract.SOLISSIMO
    assert [seat for seat, _ in state.history] == [1, 2]


def test_rule2_until_two_pass_last_seat_may_bid_after_two_passes() -> None:
    """Rule 2, auction=until_two_pass: two passes before any bid leave the third seat to speak."""
    state = apply_all(deal_a(UNTIL_TWO_PASS), [PASS, PASS])
    assert state.phase is cb.Phase.BIDDING
    assert state.to_move == 0
    state = cb.apply(state, CHIAMO)
    # two have passed and there is a bid: the dealer plays chiamo
    assert state.declarer == 0
    assert state.contract is cb.Contract.CHIAMO
    assert state.phase is cb.Phase.CALLING


def test_rule2_until_two_pass_all_pass_void() -> None:
    """Rule 2, auction=until_two_pass: all pass: the deal is void."""
    result = finished(apply_all(deal_a(UNTIL_TWO_PASS), [PASS, PASS, PASS]))
    assert result.void
    assert result.payments == (0, 0, 0)


# ============================================================================================
# Rule 3: chiamo
# ============================================================================================


def test_rule3_callable_any_unheld_is_the_default() -> None:
    """Rule 3, callable=any_unheld (default): the declarer may call any card he does not hold."""
    assert cb.CALABRESELLA.callable == "any_unheld"
    state = apply_all(deal_a(), [CHIAMO, PASS, PASS])
    assert state.phase is cb.Phase.CALLING
    assert state.to_move == 1
    # the 28 cards of seats 2 and 0 and of the monte
    unheld = P(A2) | P(A0) | P(A_MONTE)
    assert len(unheld) == 28
    assert set(cb.legal_actions(state)) == {cb.Call(c) for c in unheld}


def test_rule3_callable_threes_then_twos_asks_for_a_three() -> None:
    """Rule 3, callable=threes_then_twos: only a 3 he does not hold."""
    state = apply_all(deal_a(cb.Calabresella(callable="threes_then_twos")), [CHIAMO, PASS, PASS])
    # seat 1 holds 3d: 3h (seat 2), 3s (seat 2), 3c (seat 0)
    assert set(cb.legal_actions(state)) == {call("3h"), call("3s"), call("3c")}
    assert_illegal(state, call("2h"))
    assert_illegal(state, call("As"))
    assert_illegal(state, call("7c"))  # a monte card, but not a 3


def test_rule3_callable_threes_then_twos_a_two_when_holding_all_threes() -> None:
    """Rule 3, callable=threes_then_twos: holding all four 3s, a 2 he does not hold."""
    rules = cb.Calabresella(callable="threes_then_twos")
    state = cb.deal_from(rules, [P(T0), P(T1), P(T2)], P(LOW_BATONS), dealer=0)
    state = apply_all(state, [CHIAMO, PASS, PASS])
    # 2h (seat 2), 2s (seat 2), 2c (seat 0)
    assert set(cb.legal_actions(state)) == {call("2h"), call("2s"), call("2c")}
    assert_illegal(state, call("Ah"))


def test_rule3_callable_threes_then_twos_nothing_to_call() -> None:
    """Rule 3, callable=threes_then_twos: holding every 3 and 2 he calls nothing and takes the monte."""
    rules = cb.Calabresella(callable="threes_then_twos")
    state = cb.deal_from(rules, [P(TT0), P(TT1), P(TT2)], P(LOW_BATONS), dealer=0)
    state = apply_all(state, [CHIAMO, PASS, PASS])
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1
    assert state.called is None
    assert state.giver is None
    assert state.hand(1) == P(TT1) | P(LOW_BATONS)
    assert_illegal(state, call("Kd"))


def test_rule3_chiamo_called_card_must_not_be_held() -> None:
    """Rule 3: the declarer calls a card he does not hold."""
    state = apply_all(deal_a(), [CHIAMO, PASS, PASS])
    for code in ("3d", "4d", "4h", "4s"):
        assert_illegal(state, call(code), code.lower())


def test_rule3_chiamo_holder_passes_the_called_card_face_up() -> None:
    """Rule 3: the holder of the called card passes it to the declarer, face up for all."""
    state = a_chiamo_called()
    assert state.called == card("3h")
    assert state.giver == 2
    assert card("3h") in state.hand(1)
    assert card("3h") not in state.hand(2)
    assert len(state.hand(2)) == 11
    for seat in range(3):
        view = state.view(seat)
        assert view.called == card("3h")
        assert view.giver == 2
        assert view.declarer == 1
        assert view.contract is cb.Contract.CHIAMO
        assert (1, call("3h")) in history_of(view)


def test_rule3_chiamo_monte_exposed_to_all_and_taken() -> None:
    """Rule 3: the monte is turned face up for all and all four go into the declarer's hand."""
    state = a_chiamo_called()
    assert state.phase is cb.Phase.GIVING_BACK
    assert state.to_move == 1
    # 12 + the called card + the four monte cards
    assert state.hand(1) == P(A1) | P("3h") | P(A_MONTE)
    assert len(state.hand(1)) == 17
    assert state.stock == cb.CardSet()
    for seat in range(3):
        assert state.view(seat).exposed == P(A_MONTE)
        assert state.view(seat).stock_size == 0


def test_rule3_chiamo_gives_one_card_back_to_the_giver() -> None:
    """Rule 3: the declarer passes one card back to the giver (any but the called card)."""
    state = a_chiamo_called()
    # any of his 17 cards but 3h, monte cards included
    expected = P(A1) | P(A_MONTE)
    assert set(cb.legal_actions(state)) == {cb.GiveBack(c) for c in expected}
    assert_illegal(state, give("3h"), "called")
    gave = cb.apply(state, give("7c"))  # a card that came from the monte
    assert card("7c") in gave.hand(2)
    assert len(gave.hand(2)) == 12
    assert len(gave.hand(1)) == 16  # he now discards four
    assert gave.hand(0) == P(A0)
    assert gave.phase is cb.Phase.DISCARDING
    assert gave.to_move == 1


def test_rule3_chiamo_monte_card_call_satisfied_by_taking_the_monte() -> None:
    """Rule 3: a called card in the monte is his when he takes the monte: no giver, no give-back."""
    # DEAL_E: seat 0 (eldest, dealer 2) bids chiamo and calls 4h, a monte card
    state = apply_all(deal_e(), [CHIAMO, PASS, PASS, call("4h")])
    assert state.called == card("4h")
    assert state.giver is None
    assert state.phase is cb.Phase.DISCARDING  # straight to the discard
    assert state.to_move == 0
    assert state.hand(0) == P(E0) | P(E_MONTE)
    assert len(state.hand(0)) == 16
    assert state.hand(1) == P(E1)
    assert state.hand(2) == P(E2)
    assert not any(isinstance(a, cb.GiveBack) for a in cb.legal_actions(state))
    for seat in range(3):
        view = state.view(seat)
        assert view.exposed == P(E_MONTE)
        assert view.giver is None
        assert view.given_back is None


def test_rule3_chiamo_discards_four_face_down_as_the_new_monte() -> None:
    """Rule 3: he discards four face down; they are the new monte."""
    state = apply_all(a_chiamo_called(), [give("4s")])
    for n, code in enumerate(("7c", "6c", "5c")):
        assert state.phase is cb.Phase.DISCARDING
        assert DONE not in cb.legal_actions(state)
        assert_illegal(state, DONE, "at least")
        assert len(state.hand(1)) == 16 - n
        state = cb.apply(state, cb.Discard(card(code)))
    state = cb.apply(state, cb.Discard(card("4h")))
    # the fourth discard ends the exchange: the play begins
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P("7c 6c 5c 4h")
    assert state.hand(1) == P("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 4c")
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert state.view(1).discards == P("7c 6c 5c 4h")
    for seat in (0, 2):
        view = state.view(seat)
        assert view.discards == cb.CardSet()
        assert view.stock_size == 4
        assert history_of(view)[-4:] == [(1, cb.Hidden("discard", "discarded a card face down"))] * 4


def test_rule3_chiamo_discards_face_down_adversaries_cannot_tell() -> None:
    """Rule 3: the discards are face down: the adversaries' views do not tell which they were."""
    gave = apply_all(a_chiamo_called(), [give("4s")])
    a = apply_all(gave, discards("7c 6c 5c 4c"))
    b = apply_all(gave, discards("7c 6c 5c 5d"))
    for seat in (0, 2):
        assert a.view(seat) == b.view(seat)
    assert a.view(1) != b.view(1)


def test_rule3_give_back_face_up_is_the_default_and_seen_by_all() -> None:
    """Rule 3, give_back=face_up (default): every seat sees the card given back."""
    assert cb.CALABRESELLA.give_back == "face_up"
    state = apply_all(a_chiamo_called(), [give("4s")])
    for seat in range(3):
        view = state.view(seat)
        assert view.given_back == card("4s")
        assert (1, give("4s")) in history_of(view)
    # so the other adversary (seat 0) can tell 4s from 4h
    other = apply_all(a_chiamo_called(), [give("4h")])
    assert state.view(0) != other.view(0)


def test_rule3_give_back_face_down_seen_by_declarer_and_giver_only() -> None:
    """Rule 3, give_back=face_down: only the declarer and the giver see the card given back."""
    rules = cb.Calabresella(give_back="face_down")
    called = a_chiamo_called(rules)
    state = cb.apply(called, give("4s"))
    for seat in (1, 2):  # the declarer and the giver
        view = state.view(seat)
        assert view.given_back == card("4s")
        assert (1, give("4s")) in history_of(view)
    third = state.view(0)
    assert third.given_back is None
    assert (1, cb.Hidden("give_back", "gave a card back face down")) in history_of(third)
    assert not any(isinstance(a, cb.GiveBack) for _, a in third.history)
    # the other adversary cannot tell 4s from 4h
    other = cb.apply(called, give("4h"))
    assert state.view(0) == other.view(0)
    assert state.view(2) != other.view(2)


# ============================================================================================
# Rule 4: solo
# ============================================================================================


def test_rule4_solo_no_call_monte_taken() -> None:
    """Rule 4: solo calls no card; the declarer takes the monte into his hand."""
    state = apply_all(deal_c(), [PASS, PASS, SOLO])
    assert state.declarer == 0
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 0
    assert state.called is None
    assert state.giver is None
    assert state.hand(0) == P(C0) | P(C_MONTE)
    assert len(state.hand(0)) == 16
    assert state.hands[1:] == (P(C1), P(C2))
    assert state.stock == cb.CardSet()
    assert_illegal(state, call("Qh"))
    assert set(cb.legal_actions(state)) == {cb.Discard(c) for c in P(C0) | P(C_MONTE)}


def test_rule4_solo_discards_four_face_down_as_the_new_monte() -> None:
    """Rule 4: the solo declarer discards four face down as the new monte."""
    state = apply_all(deal_c(), [PASS, PASS, SOLO])
    for code in ("5d", "4d", "4s"):
        assert_illegal(state, DONE, "at least")
        state = cb.apply(state, cb.Discard(card(code)))
    assert state.phase is cb.Phase.DISCARDING
    state = cb.apply(state, cb.Discard(card("4c")))
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P("5d 4d 4s 4c")
    assert state.hand(0) == P("3d 2d Ad Kd Qd Jd 7d 6d 3h 2h Ah Kh")
    for seat in (1, 2):
        assert history_of(state.view(seat))[-4:] == [(0, cb.Hidden("discard", "discarded a card face down"))] * 4


def test_rule4_solo_monte_exposed_true_is_the_default() -> None:
    """Rule 4, solo_monte_exposed=True (default): the monte is turned face up for all."""
    assert cb.CALABRESELLA.solo_monte_exposed is True
    state = apply_all(deal_c(), [PASS, PASS, SOLO])
    for seat in range(3):
        assert state.view(seat).exposed == P(C_MONTE)
    # the adversaries can tell which cards the monte held
    swapped = apply_all(deal_c(seat0=C0_SWAPPED, monte=C_MONTE_SWAPPED), [PASS, PASS, SOLO])
    assert swapped.hand(0) == state.hand(0)
    assert swapped.view(1) != state.view(1)


def test_rule4_solo_monte_exposed_false_nobody_else_sees_it() -> None:
    """Rule 4, solo_monte_exposed=False: the monte is taken unseen by the adversaries."""
    rules = cb.Calabresella(solo_monte_exposed=False)
    state = apply_all(deal_c(rules), [PASS, PASS, SOLO])
    assert state.hand(0) == P(C0) | P(C_MONTE)
    for seat in range(3):
        assert state.view(seat).exposed == cb.CardSet()
    # Ah in the monte and 2h in his hand, or the other way round: the adversaries can't tell
    swapped = apply_all(
        deal_c(rules, seat0=C0_SWAPPED, monte=C_MONTE_SWAPPED), [PASS, PASS, SOLO]
    )
    for seat in (1, 2):
        assert swapped.view(seat) == state.view(seat)
    finished_deal = apply_all(state, [*C_EXCHANGE[3:], *C_PLAY])
    assert finished(finished_deal).payments == (8, -4, -4)


# ============================================================================================
# Rule 5: solissimo, dividete, scegliete
# ============================================================================================


def test_rule5_solissimo_no_call_no_exchange() -> None:
    """Rule 5: solissimo: no call, no exchange; the monte stays face down and untouched."""
    state = cb.apply(b_solissimo(), PASS)
    assert state.phase is cb.Phase.PLAYING
    assert state.contract is cb.Contract.SOLISSIMO
    assert state.modifier is None
    assert state.called is None
    assert state.hands == (P(B0), P(B1), P(B2))
    assert state.stock == P(B_MONTE)
    for seat in range(3):
        view = state.view(seat)
        assert view.exposed == cb.CardSet()
        assert view.stock_size == 4
        assert view.final_stock is None


def test_rule5_solissimo_monte_goes_to_the_last_trick_winner() -> None:
    """Rule 5: the solissimo monte is seen only at the end, by the winner of the last trick."""
    # DEAL_G: the adversaries win the last trick and the monte Qd 5d 4d 4c (1 unit)
    state = apply_all(cb.deal_from(cb.CALABRESELLA, [P(G0), P(G1), P(G2)], P(G_MONTE)),
                      [SOLISSIMO, PASS])
    before_last = apply_all(state, G_PLAY[:-1])
    for seat in range(3):
        assert before_last.view(seat).final_stock is None
    state = cb.apply(before_last, G_PLAY[-1])
    result = finished(state)
    for seat in range(3):
        assert state.view(seat).final_stock == P(G_MONTE)
    assert state.card_units_won == (0, 2, 29)
    # adversaries: 29 + 1 (monte) + 3 (last trick) = 33
    assert (result.declarer_units, result.adversary_units) == (2, 33)


def test_rule5_dividete_is_a_chance_node_of_six_draws() -> None:
    """Rule 5, dividete: the first adversary's unseen draw of 2 of the 4 monte cards is chance."""
    state = cb.apply(b_solissimo(), DIVIDETE)
    assert state.modifier is cb.Modifier.DIVIDETE
    assert state.is_chance
    assert state.phase is cb.Phase.DRAWING
    assert state.to_move is None
    expected = {
        P("7c 6c"), P("7c 5c"), P("7c 4c"), P("6c 5c"), P("6c 4c"), P("5c 4c")
    }
    outcomes = cb.chance_outcomes(state)
    assert len(outcomes) == 6
    assert {o.cards for o in outcomes} == expected
    assert set(cb.legal_actions(state)) == set(outcomes)
    assert cb.sample_chance(state, random.Random(3)) in outcomes
    for seat in range(3):
        assert state.view(seat).legal_actions == ()


def test_rule5_dividete_second_adversary_gets_the_other_two() -> None:
    """Rule 5, dividete: the first adversary draws two, the second gets the other two at once."""
    state = apply_all(b_solissimo(), [DIVIDETE, draw("7c 5c")])
    # seat 0 (after the declarer, seat 2) drew 7c 5c; seat 1 has 6c 4c
    assert state.hand(0) == P(B0) | P("7c 5c")
    assert state.hand(1) == P(B1) | P("6c 4c")
    assert state.hand(2) == P(B2)
    assert state.stock == cb.CardSet()
    assert not state.is_chance
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 0


def test_rule5_dividete_each_adversary_discards_two_in_turn_order() -> None:
    """Rule 5, dividete: each adversary discards two face down, the first adversary first."""
    state = apply_all(b_solissimo(), [DIVIDETE, draw("7c 5c")])
    assert state.to_move == 0
    assert set(cb.legal_actions(state)) == {cb.Discard(c) for c in P(B0) | P("7c 5c")}
    assert_illegal(state, DONE)
    state = cb.apply(state, cb.Discard(card("Js")))
    assert state.to_move == 0
    assert_illegal(state, DONE)
    state = cb.apply(state, cb.Discard(card("7c")))
    # then the second adversary, seat 1
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1
    state = apply_all(state, discards("6c 4d"))
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P("Js 7c 6c 4d")
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert state.to_move == 2  # the solissimo declarer leads


def test_rule5_dividete_views_show_each_adversary_only_his_own_draw() -> None:
    """Rule 5, dividete: each adversary sees his own draw only; the others see a hidden draw."""
    state = apply_all(b_solissimo(), [DIVIDETE, draw("7c 5c")])
    assert state.view(0).drawn == P("7c 5c")
    assert state.view(1).drawn == P("6c 4c")
    assert state.view(2).drawn == cb.CardSet()
    assert (0, draw("7c 5c")) in history_of(state.view(0))
    for seat in (1, 2):
        history = history_of(state.view(seat))
        assert (0, cb.Hidden("draw", "drew 2 cards from the monte unseen")) in history
        assert not any(isinstance(a, cb.Draw) for _, a in history)
    # a world where the monte held 7h instead of 6c (and the declarer 6c instead of 7h):
    # seat 0 drew the same 7c 5c and cannot tell the difference
    other = apply_all(
        cb.deal_from(
            cb.CALABRESELLA,
            [P(B0), P(B1), P("3d 2d Ad Kd 6c 6h 5h 4h 7s 6s 5s 4s")],
            P("7c 7h 5c 4c"),
            dealer=0,
        ),
        [PASS, SOLISSIMO, DIVIDETE, draw("7c 5c")],
    )
    assert other.view(1).drawn == P("7h 4c")
    assert other.view(0) == state.view(0)


def test_rule5_dividete_discards_are_face_down() -> None:
    """Rule 5, dividete: the adversaries' discards are face down: only the discarder sees his."""
    drawn = apply_all(b_solissimo(), [DIVIDETE, draw("7c 5c")])
    a = apply_all(drawn, discards("7c 5c 6c 4c"))
    b = apply_all(drawn, discards("Js Qs Qc Jc"))
    assert a.view(0).discards == P("7c 5c")
    assert a.view(1).discards == P("6c 4c")
    assert a.view(2).discards == cb.CardSet()
    assert history_of(a.view(2))[-4:] == [
        (0, cb.Hidden("discard", "discarded a card face down")), (0, cb.Hidden("discard", "discarded a card face down")),
        (1, cb.Hidden("discard", "discarded a card face down")), (1, cb.Hidden("discard", "discarded a card face down")),
    ]
    assert history_of(a.view(1))[-4:-2] == [(0, cb.Hidden("discard", "discarded a card face down"))] * 2
    assert history_of(a.view(0))[-2:] == [(1, cb.Hidden("discard", "discarded a card face down"))] * 2
    # the declarer cannot tell which cards were laid down
    assert a.view(2) == b.view(2)


def test_rule5_scegliete_monte_face_up_first_adversary_takes_one_at_a_time() -> None:
    """Rule 5, scegliete: the monte is face up; the first adversary takes cards one at a time."""
    state = cb.apply(b_solissimo(), SCEGLIETE)
    for seat in range(3):
        assert state.view(seat).exposed == P(B_MONTE)
    assert state.phase is cb.Phase.TAKING
    assert state.to_move == 0  # the seat after the declarer
    assert set(cb.legal_actions(state)) == {DONE, take("7c"), take("6c"), take("5c"), take("4c")}
    state = cb.apply(state, take("6c"))
    assert state.to_move == 0
    assert state.hand(0) == P(B0) | P("6c")
    assert set(cb.legal_actions(state)) == {DONE, take("7c"), take("5c"), take("4c")}
    # the takes are public
    for seat in range(3):
        assert (0, take("6c")) in history_of(state.view(seat))


# The first adversary (seat 0) takes 0, 2 or 4 of the monte 7c 6c 5c 4c; the second (seat 1)
# is given the rest without a decision; each then discards as many as he took.
# (first's actions, the rest seat 1 is given, seat 0's discards, seat 1's discards)
SCEGLIETE_SPLITS: dict[str, tuple[list[cb.Action], str, str, str]] = {
    # 0 + 4: seat 0 stops at once; seat 1 gets all four and lays down four
    "0-4": ([DONE], "7c 6c 5c 4c", "", "4d 5d 6d 7d"),
    # 2 + 2: seat 0 takes 7c 6c and stops; seat 1 gets 5c 4c
    "2-2": ([take("7c"), take("6c"), DONE], "5c 4c", "Qs Js", "4d 5d"),
    # 4 + 0: seat 0 takes all four (the step ends by itself); seat 1 gets nothing
    "4-0": ([take(c) for c in B_MONTE.split()], "", "Qs Js 7c 6c", ""),
}


@pytest.mark.parametrize("split", list(SCEGLIETE_SPLITS))
def test_rule5_scegliete_whole_monte_shared_the_second_gets_the_rest(split: str) -> None:
    """Rule 5, scegliete: any split 0-4, 2-2, 4-0; the second adversary's share is forced,
    each discards as many as he took, and the four discards are the new monte."""
    firsts, rest, discard0, discard1 = SCEGLIETE_SPLITS[split]
    state = apply_all(b_solissimo(), [SCEGLIETE, *firsts])
    took0 = P(B_MONTE) - P(rest)
    # the whole monte is in the adversaries' hands: nothing is left in it
    assert state.stock == cb.CardSet()
    assert state.hand(0) == P(B0) | took0
    assert state.hand(1) == P(B1) | P(rest)
    # seat 1's share is a forced move, made right after seat 0's last decision, seen by all
    at = len(state.history)
    assert state.forced_moves == tuple((at, 1, cb.Take(c)) for c in P(rest))
    for seat in range(3):
        assert state.view(seat).forced_moves == state.forced_moves
    assert not any(s == 1 and type(a) is cb.Take for s, a in state.history)
    # seat 0 discards first, exactly as many as he took (none: he is skipped)
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == (0 if discard0 else 1)
    state = apply_all(state, discards(discard0))
    if discard0 and discard1:
        assert state.phase is cb.Phase.DISCARDING
        assert state.to_move == 1
    state = apply_all(state, discards(discard1))
    if not discard1:  # seat 1 took nothing: the play begins after seat 0's discards
        assert state.history[-1] == (0, cb.Discard(card(discard0.split()[-1])))
    # the new monte is the four discards; everyone holds twelve again
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P(discard0) | P(discard1)
    assert len(state.stock) == 4
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert state.view(0).discards == P(discard0)
    assert state.view(1).discards == P(discard1)


def test_rule5_scegliete_each_discards_exactly_as_many_as_he_took() -> None:
    """Rule 5, scegliete: 1 + 3: each adversary discards exactly as many as he took, face down."""
    state = apply_all(b_solissimo(), [SCEGLIETE, take("7c"), DONE])
    # seat 1 was given 6c 5c 4c
    assert state.hand(1) == P(B1) | P("6c 5c 4c")
    # seat 0 took one: he discards exactly one
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 0
    assert_illegal(state, DONE)
    state = cb.apply(state, cb.Discard(card("Js")))
    # seat 1 took three: he discards exactly three
    assert state.to_move == 1
    for code in ("4d", "5d"):
        assert_illegal(state, DONE)
        state = cb.apply(state, cb.Discard(card(code)))
        assert state.to_move == 1
    state = cb.apply(state, cb.Discard(card("6d")))
    assert state.phase is cb.Phase.PLAYING
    assert state.stock == P("Js 4d 5d 6d")
    assert [len(h) for h in state.hands] == [12, 12, 12]
    assert state.view(2).discards == cb.CardSet()
    assert history_of(state.view(2))[-4:] == [
        (0, cb.Hidden("discard", "discarded a card face down")), *[(1, cb.Hidden("discard", "discarded a card face down"))] * 3,
    ]


def test_rule5_scegliete_no_card_may_be_left_in_the_monte() -> None:
    """Rule 5, scegliete: all four are taken: after the first adversary stops, the second may
    not stop too (he is given the rest; the old reading that left the monte is gone)."""
    state = apply_all(b_solissimo(), [SCEGLIETE, DONE])
    assert state.phase is cb.Phase.DISCARDING
    assert state.to_move == 1
    assert state.stock == cb.CardSet()
    assert_illegal(state, DONE, "at least")
    assert_illegal(state, take("7c"))


# ============================================================================================
# Rule 6: the first lead
# ============================================================================================

# DEAL_A with seat 2 (not the eldest) as declarer
SEAT2_CHIAMO: list[cb.Action] = [
    PASS, CHIAMO, PASS, call("3d"), give("5h"), *discards("7c 6c 5c 4c")
]
SEAT2_SOLO: list[cb.Action] = [PASS, SOLO, PASS, *discards("7c 6c 5c 4c")]


def test_rule6_first_lead_declarer_is_the_default() -> None:
    """Rule 6, first_lead=declarer (default): the declarer leads to the first trick."""
    assert cb.CALABRESELLA.first_lead == "declarer"
    for exchange in (SEAT2_CHIAMO, SEAT2_SOLO):
        state = apply_all(deal_a(), exchange)
        assert state.phase is cb.Phase.PLAYING
        assert state.declarer == 2
        assert state.to_move == 2
        assert state.leader == 2


def test_rule6_first_lead_eldest_except_solissimo_chiamo_and_solo() -> None:
    """Rule 6, first_lead=eldest_except_solissimo: after chiamo or solo the eldest hand leads."""
    rules = cb.Calabresella(first_lead="eldest_except_solissimo")
    for exchange in (SEAT2_CHIAMO, SEAT2_SOLO):
        state = apply_all(deal_a(rules), exchange)
        assert state.phase is cb.Phase.PLAYING
        assert state.declarer == 2
        assert state.to_move == 1  # the eldest hand, not the declarer


@pytest.mark.parametrize("first_lead", ["declarer", "eldest_except_solissimo"])
@pytest.mark.parametrize(
    "exchange",
    [
        [PASS],
        [DIVIDETE, draw("7c 6c"), *discards("7c 6c 5c 4c")],
        [SCEGLIETE, DONE, *discards("7c 6c 5c 4c")],
    ],
    ids=["plain", "dividete", "scegliete"],
)
def test_rule6_solissimo_declarer_always_leads(
    first_lead: str, exchange: list[cb.Action]
) -> None:
    """Rule 6: under either first_lead option the solissimo declarer leads (seat 2, not eldest 1)."""
    rules = cb.Calabresella(first_lead=cast(Any, first_lead))
    state = apply_all(b_solissimo(rules), exchange)
    assert state.phase is cb.Phase.PLAYING
    assert state.to_move == 2
    assert state.leader == 2


# ============================================================================================
# Rule 7: scoring, with known-answer whole deals
# ============================================================================================


def test_rule7_known_answer_chiamo_won_plus_1_from_each() -> None:
    """Rule 7 (a): a chiamo won 26-9: +1 from each adversary."""
    state = apply_all(deal_a(), A_EXCHANGE)
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(1) == P("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 4h")
    assert state.hand(2) == P("2h Ah Kh Qh Jh 7h 6h 5h 3s 2s As 4s")
    assert state.stock == P(A_MONTE)
    assert state.to_move == 1
    state = apply_all(state, A_PLAY)
    result = finished(state)
    assert state.tricks_won == (0, 11, 1)
    assert state.card_units_won == (0, 26, 6)
    # declarer 26; adversaries 6 + the monte 0 + the last trick 3 = 9
    assert (result.declarer_units, result.adversary_units) == (26, 9)
    assert (result.declarer_points, result.adversary_points) == (8, 3)
    assert result.winner is cb.Side.DECLARER
    assert result.contract is cb.Contract.CHIAMO
    assert result.base == 1
    # the adversaries' trick holds 6 units: no stramazzo
    assert result.multiplier == 1
    assert result.bonus is None
    assert result.value == 1
    assert result.payments == (-1, 2, -1)
    assert not any("cappotto" in n or "stramazzo" in n for n in result.notes)


def test_rule7_known_answer_solissimo_scegliete_lost_pays_16_to_each() -> None:
    """Rule 7 (b): a solissimo with scegliete lost 9-26: the declarer pays 16 to each."""
    state = apply_all(deal_b(), B_EXCHANGE)
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(0) == P("3h 2h Ah Kh Qh Jh 3s 2s As Ks 7c 6c")
    assert state.hand(1) == P("Qd Jd 7d 6d 5d 3c 2c Ac Kc Qc Jc 5c")
    assert state.stock == P("4c Qs Js 4d")  # 2 units
    state = apply_all(state, B_PLAY)
    result = finished(state)
    assert state.tricks_won == (8, 0, 4)
    assert state.card_units_won == (21, 0, 9)
    # adversaries 21 + monte 2 + last trick 3 = 26; declarer 9
    assert (result.declarer_units, result.adversary_units) == (9, 26)
    assert (result.declarer_points, result.adversary_points) == (3, 8)
    assert result.winner is cb.Side.ADVERSARIES
    assert result.modifier is cb.Modifier.SCEGLIETE
    assert result.base == 16
    # his tricks hold 9 units: no stramazzo
    assert result.bonus is None
    assert result.value == 16
    assert result.payments == (16, 16, -32)


def test_rule7_known_answer_solo_cappotto_plus_4_from_each() -> None:
    """Rule 7 (c): a solo with every trick (cappotto): 2 x 2 = 4 from each adversary."""
    state = apply_all(deal_c(), C_EXCHANGE)
    assert state.hand(0) == P("3d 2d Ad Kd Qd 7d 6d 5d 3h 2h Ah Kh")
    assert state.stock == P("Jd 4d 4s 4c")  # 1 unit
    assert state.to_move == 0
    state = apply_all(state, C_PLAY)
    result = finished(state)
    assert state.tricks_won == (12, 0, 0)
    assert state.card_units_won == (31, 0, 0)
    # 31 in his tricks + the monte 1 + the last trick 3 = 35
    assert (result.declarer_units, result.adversary_units) == (35, 0)
    assert (result.declarer_points, result.adversary_points) == (11, 0)
    assert result.base == 2
    assert result.multiplier == 2
    assert result.bonus is cb.Bonus.CAPPOTTO
    assert any("cappotto" in n for n in result.notes)
    assert result.value == 4
    assert result.payments == (8, -4, -4)


def test_rule7_cappotto_against_the_declarer_doubles_too() -> None:
    """Rule 7: cappotto x2 both ways: the adversaries take every trick of a solissimo: 8 to each."""
    state = apply_all(cb.deal_from(cb.CALABRESELLA, [P(F0), P(F1), P(F2)], P(F_MONTE)),
                      [SOLISSIMO, PASS, *F_PLAY])
    result = finished(state)
    assert state.tricks_won == (0, 0, 12)
    assert state.card_units_won == (0, 0, 32)
    assert (result.declarer_units, result.adversary_units) == (0, 35)
    assert (result.declarer_points, result.adversary_points) == (0, 11)
    assert result.winner is cb.Side.ADVERSARIES
    assert result.bonus is cb.Bonus.CAPPOTTO
    assert any("cappotto" in n for n in result.notes)
    assert result.value == 8
    assert result.payments == (8, -16, 8)


@pytest.mark.parametrize("stramazzo", ["under_a_point", "no_card_points", "no_points"])
def test_rule7_cappotto_and_stramazzo_never_both(stramazzo: str) -> None:
    """Rule 7: cappotto and stramazzo never both apply: a side with no trick is cappotto only."""
    rules = cb.Calabresella(stramazzo=cast(Any, stramazzo))
    # DEAL_C: the adversaries take no trick and no card unit: x2, never x3 or x6
    result = finished(apply_all(deal_c(rules), [*C_EXCHANGE, *C_PLAY]))
    assert result.bonus is cb.Bonus.CAPPOTTO
    assert result.multiplier == 2
    assert not any("stramazzo" in n for n in result.notes)
    # DEAL_F: the declarer takes no trick: x2 against him
    against = finished(
        apply_all(cb.deal_from(rules, [P(F0), P(F1), P(F2)], P(F_MONTE)),
                  [SOLISSIMO, PASS, *F_PLAY])
    )
    assert against.bonus is cb.Bonus.CAPPOTTO
    assert against.multiplier == 2


# DEAL_D's last trick in four versions: (seat 2's plays, seat 0's plays, the adversaries'
# card units, the sides' units, the sides' points). The declarer takes every card unit but
# those of the last trick (the monte has none); the adversaries add the last trick's 3.
D_VARIANTS: dict[str, tuple[str, str, int, tuple[int, int], tuple[int, int]]] = {
    # seat 2 keeps 5c, seat 0 keeps 7s: T12 = 4s 5c 7s, no card units: 32 against 0 + 3
    "0-units": ("3c 2c Ac Kc 7h 6h 5h 4h Kh Qh Jh 5c", "3s 2s As Ks Qs Js 6s 5s Qc Jc 4c 7s",
                0, (32, 3), (10, 1)),
    # seat 2 keeps 5c, seat 0 keeps Js: T12 = 4s 5c Js, 1 unit: 31 against 1 + 3
    "1-unit": ("3c 2c Ac Kc 7h 6h 5h 4h Kh Qh Jh 5c", "3s 2s As Ks Qs 7s 6s 5s Qc Jc 4c Js",
               1, (31, 4), (10, 1)),
    # seat 2 keeps Kc, seat 0 keeps Js: T12 = 4s Kc Js, 2 units: 30 against 2 + 3
    "2-units": ("3c 2c Ac 5c 7h 6h 5h 4h Kh Qh Jh Kc", "3s 2s As Ks Qs 7s 6s 5s Qc Jc 4c Js",
                2, (30, 5), (10, 1)),
    # seat 2 keeps 5c, seat 0 keeps As: T12 = 4s 5c As, 3 units: 29 against 3 + 3
    "3-units": ("3c 2c Ac Kc 7h 6h 5h 4h Kh Qh Jh 5c", "3s 2s Ks Qs Js 7s 6s 5s Qc Jc 4c As",
                3, (29, 6), (9, 2)),
}


@pytest.mark.parametrize(
    ("variant", "stramazzo", "multiplier"),
    [
        # under a point (default): the tricks' card units only, 0, 1 or 2 of them
        ("0-units", "under_a_point", 3),
        ("1-unit", "under_a_point", 3),
        ("2-units", "under_a_point", 3),
        ("3-units", "under_a_point", 1),
        # no card points: the trick's card units plus the monte (0 units here), none at all
        ("0-units", "no_card_points", 3),
        ("1-unit", "no_card_points", 1),
        ("2-units", "no_card_points", 1),
        ("3-units", "no_card_points", 1),
        # no points: the adversaries won the last trick, 3 units: never under a point
        ("0-units", "no_points", 1),
        ("1-unit", "no_points", 1),
        ("2-units", "no_points", 1),
        ("3-units", "no_points", 1),
    ],
)
def test_rule7_known_answer_stramazzo_at_each_threshold(
    variant: str, stramazzo: str, multiplier: int
) -> None:
    """Rule 7 (d): stramazzo x3 by each reading, the losers having won only the last trick."""
    seat2, seat0, adversary_cards, units, points = D_VARIANTS[variant]
    rules = cb.Calabresella(stramazzo=cast(Any, stramazzo))
    state = apply_all(deal_d(rules), D_EXCHANGE)
    assert state.hand(1) == P(D1_PLAYS)
    assert state.stock == P("7c 6c 5d 4d")  # no units
    state = apply_all(state, interleave(D1_PLAYS, seat2, seat0))
    result = finished(state)
    # the declarer wins the first eleven tricks; seat 0 the last (the 4s)
    assert state.tricks_won == (1, 11, 0)
    assert state.card_units_won == (adversary_cards, units[0], 0)
    # the last trick (3) and the monte never count for stramazzo: only the trick's card units
    assert (result.declarer_units, result.adversary_units) == units
    assert (result.declarer_points, result.adversary_points) == points
    assert result.winner is cb.Side.DECLARER
    assert result.base == 2
    assert result.multiplier == multiplier
    assert result.value == 2 * multiplier
    assert result.payments == (-2 * multiplier, 4 * multiplier, -2 * multiplier)
    if multiplier == 3:
        assert result.bonus is cb.Bonus.STRAMAZZO
        assert any("stramazzo" in n for n in result.notes)
    else:
        assert result.bonus is None
        assert not any("stramazzo" in n for n in result.notes)


@pytest.mark.parametrize(
    ("stramazzo", "bonus", "value"),
    [
        ("under_a_point", cb.Bonus.STRAMAZZO, 12),  # 2 card units in his trick: under 3
        ("no_card_points", None, 4),  # he captured 2 card units: not none
        ("no_points", cb.Bonus.STRAMAZZO, 12),  # his whole score is 2 units: under 3
    ],
)
def test_rule7_stramazzo_against_the_declarer(
    stramazzo: str, bonus: cb.Bonus | None, value: int
) -> None:
    """Rule 7: stramazzo x3 both ways: a solissimo lost with one trick of 2 card units pays 12 each."""
    rules = cb.Calabresella(stramazzo=cast(Any, stramazzo))
    state = apply_all(cb.deal_from(rules, [P(G0), P(G1), P(G2)], P(G_MONTE)),
                      [SOLISSIMO, PASS, *G_PLAY])
    result = finished(state)
    assert state.tricks_won == (0, 1, 11)
    assert state.card_units_won == (0, 2, 29)
    # declarer 2; adversaries 29 + monte 1 + last trick 3 = 33
    assert (result.declarer_units, result.adversary_units) == (2, 33)
    assert (result.declarer_points, result.adversary_points) == (0, 11)
    assert result.winner is cb.Side.ADVERSARIES
    assert result.base == 4
    # 2 card units, not the last trick: under a point (in his tricks and in all), not none
    assert result.bonus is bonus
    assert result.value == value
    assert result.payments == (value, -2 * value, value)


# DEAL_E: seat 0 calls the monte's 4h, discards four and leads: eight coins, then the 4s
# (lost to seat 1's As), and seat 1 wins the last three tricks (3h 2h Ah) with the monte.
def e_play(coin6: str) -> list[cb.Play]:
    return plays(
        "3d Kh Js "  # T1  seat 0 (order 0, 1, 2): 3
        "2d Qh 7s "  # T2  seat 0: 2
        "Ad Jh 6s "  # T3  seat 0: 4
        "Kd 7h 2c "  # T4  seat 0: 2
        "Qd 6h Qc "  # T5  seat 0: 2
        f"{coin6} 3s Jc "  # T6  seat 0: Jd 3 units; 5d 2 units
        "7d 2s 7c "  # T7  seat 0: 1
        "6d Ks 6c "  # T8  seat 0: 1
        "4s As Qs "  # T9  seat 1: As beats Qs; 3 + 1 = 4
        "3h 3c 5h "  # T10 seat 1 leads (order 1, 2, 0): 2
        "2h Kc 4h "  # T11 seat 1: 2
        "Ah Ac 4c"  # T12 seat 1: 6, plus the monte and the last trick (3)
    )


@pytest.mark.parametrize(
    ("discard", "coin6", "units", "points", "payments"),
    [
        # discards 5d 4d 5s 5c (no units): coin tricks 3+2+4+2+2+3+1+1 = 18 for him;
        # adversaries 4+2+2+6 = 14 + monte 0 + 3 = 17
        ("5d 4d 5s 5c", "Jd", (18, 17), (6, 5), (2, -1, -1)),
        # discards Jd instead of 5d and plays 5d in T6: 17 for him; the monte (Jd, 1 unit)
        # goes with the last trick: 14 + 1 + 3 = 18
        ("Jd 4d 5s 5c", "5d", (17, 18), (5, 6), (-2, 1, 1)),
    ],
    ids=["18-17-wins", "17-18-loses"],
)
def test_rule7_known_answer_18_units_win_6_points_to_5(
    discard: str,
    coin6: str,
    units: tuple[int, int],
    points: tuple[int, int],
    payments: tuple[int, ...],
) -> None:
    """Rule 7 (e): the declarer needs 18 units (6 points): 18-17 wins 6 to 5, 17-18 loses 5 to 6."""
    state = apply_all(deal_e(), [CHIAMO, PASS, PASS, call("4h"), *discards(discard)])
    assert state.phase is cb.Phase.PLAYING
    assert state.to_move == 0
    state = apply_all(state, e_play(coin6))
    result = finished(state)
    assert state.tricks_won == (8, 4, 0)
    assert (result.declarer_units, result.adversary_units) == units
    assert (result.declarer_points, result.adversary_points) == points
    assert result.declarer_won is (units[0] >= 18)
    assert result.base == 1
    assert result.bonus is None
    assert result.value == 1
    assert result.payments == payments


def test_rule7_points_are_units_over_3_and_sum_to_11() -> None:
    """Rule 7 / common: a side's points are units // 3, and the two always add to 11."""
    deals = [
        (apply_all(deal_a(), [*A_EXCHANGE, *A_PLAY]), (26, 9), (8, 3)),
        (apply_all(deal_b(), [*B_EXCHANGE, *B_PLAY]), (9, 26), (3, 8)),
        (apply_all(deal_c(), [*C_EXCHANGE, *C_PLAY]), (35, 0), (11, 0)),
    ]
    for state, units, points in deals:
        result = finished(state)
        assert (result.declarer_units, result.adversary_units) == units
        assert (result.declarer_points, result.adversary_points) == points
        assert sum(points) == 11
        assert sum(result.payments) == 0


# ============================================================================================
# Rule 8 and the table: four players, dealer_shares, packets
# ============================================================================================


def test_rule8_four_players_dealer_sits_out() -> None:
    """Rule 8: at four the dealer takes no cards, never speaks and never plays."""
    rules = cb.Calabresella(players=4)
    deal = cb.shuffled_deal(rules, dealer=2, seed=5)
    assert [len(h) for h in deal.hands] == [12, 12, 0, 12]
    assert deal.eldest == 3
    state = deal_a_four(rules)
    assert state.to_move == 1
    actors: set[int] = set()
    for action in [*A_EXCHANGE, *A_PLAY]:
        assert state.to_move is not None
        actors.add(state.to_move)
        state = cb.apply(state, action)
    assert actors == {1, 2, 3}
    assert state.view(0).hand == cb.CardSet()
    assert finished(state).declarer == 1


def test_rule8_dealer_shares_false_is_the_default_dealer_pays_nothing() -> None:
    """Rule 8, dealer_shares=False (default): the sitting-out dealer takes no part in the settlement."""
    rules = cb.Calabresella(players=4)
    assert rules.dealer_shares is False
    won = finished(apply_all(deal_a_four(rules), [*A_EXCHANGE, *A_PLAY]))
    # DEAL_A's chiamo won: +1 from seats 2 and 3 only
    assert won.payments == (0, 2, -1, -1)
    lost = finished(apply_all(deal_b_four(rules), [*B_EXCHANGE, *B_PLAY]))
    # DEAL_B's scegliete lost: 16 to seats 1 and 3 only
    assert lost.payments == (0, 16, -32, 16)


def test_rule8_dealer_shares_true_dealer_pays_and_receives_like_an_adversary() -> None:
    """Rule 8, dealer_shares=True: the sitting-out dealer pays or receives like each adversary."""
    rules = cb.Calabresella(players=4, dealer_shares=True)
    won = finished(apply_all(deal_a_four(rules), [*A_EXCHANGE, *A_PLAY]))
    assert won.payments == (-1, 3, -1, -1)
    lost = finished(apply_all(deal_b_four(rules), [*B_EXCHANGE, *B_PLAY]))
    assert lost.payments == (16, 16, -48, 16)


def test_players_three_is_the_default() -> None:
    """Common: Calabresella seats three by default; every seat plays."""
    assert cb.CALABRESELLA.players == 3
    deal = cb.shuffled_deal(cb.CALABRESELLA, dealer=1, seed=5)
    assert [len(h) for h in deal.hands] == [12, 12, 12]
    assert deal.order == (2, 0, 1)


class _NoShuffle(random.Random):
    """A Random that leaves the pack in canonical order (to check how it is dealt)."""

    def shuffle(self, x: MutableSequence[Any], *args: Any, **kwargs: Any) -> None:
        return None


@pytest.mark.parametrize(
    ("players", "dealer", "packet", "hands"),
    [
        # packets of four from the eldest (seat 0), dealer 3 sitting out:
        # seat 0 cards 0-3, seat 1 4-7, seat 2 8-11, seat 0 12-15, ...
        (4, 3, 4, ("3d 2d Ad Kd Ah Kh Qh Jh Qs Js 7s 6s",
                   "Qd Jd 7d 6d 7h 6h 5h 4h 5s 4s 3c 2c",
                   "5d 4d 3h 2h 3s 2s As Ks Ac Kc Qc Jc",
                   "")),
        # packets of two: seat 0 cards 0-1, seat 1 2-3, seat 2 4-5, seat 0 6-7, ...
        (4, 3, 2, ("3d 2d 7d 6d Ah Kh 5h 4h Qs Js 3c 2c",
                   "Ad Kd 5d 4d Qh Jh 3s 2s 7s 6s Ac Kc",
                   "Qd Jd 3h 2h 7h 6h As Ks 5s 4s Qc Jc",
                   "")),
        # three at the table, dealer 1: eldest 2, then 0, then 1, packets of two
        (3, 1, 2, ("Ad Kd 5d 4d Qh Jh 3s 2s 7s 6s Ac Kc",
                   "Qd Jd 3h 2h 7h 6h As Ks 5s 4s Qc Jc",
                   "3d 2d 7d 6d Ah Kh 5h 4h Qs Js 3c 2c")),
    ],
    ids=["four-packet-4", "four-packet-2", "three-packet-2"],
)
def test_packet_sizes_map_the_shuffled_order_onto_hands(
    players: int, dealer: int, packet: int, hands: tuple[str, ...]
) -> None:
    """Common: the packet size (4 by default, or 2) only maps a shuffled order onto the hands."""
    assert cb.CALABRESELLA.packet == 4
    rules = cb.Calabresella(players=players, packet=packet)
    deal = cb.shuffled_deal(rules, dealer=dealer, seed=_NoShuffle())
    assert deal.hands == tuple(P(h) for h in hands)
    assert deal.stock == P("7c 6c 5c 4c")


# ============================================================================================
# Illegal moves: a clear error, and the state is left as it was
# ============================================================================================


@pytest.mark.parametrize("auction", ["single_round", "until_two_pass"])
def test_illegal_bid_not_higher_than_the_last(auction: str) -> None:
    """Illegal: a bid equal to or lower than an earlier bid."""
    rules = cb.Calabresella(auction=cast(Any, auction))
    state = apply_all(deal_a(rules), [CHIAMO])
    assert_illegal(state, CHIAMO)
    state = cb.apply(state, SOLO)
    assert_illegal(state, CHIAMO)
    assert_illegal(state, SOLO)


def test_illegal_call_of_a_held_card() -> None:
    """Illegal: a Call of a card the declarer holds."""
    state = apply_all(deal_a(), [CHIAMO, PASS, PASS])
    assert_illegal(state, call("Ad"), "ad")


def test_illegal_give_back_of_the_called_card() -> None:
    """Illegal: a GiveBack of the called card (or of a card he does not hold)."""
    state = a_chiamo_called()
    assert_illegal(state, give("3h"), "called")
    assert_illegal(state, give("Ks"), "ks")


@pytest.mark.parametrize(
    "actions",
    [
        [CHIAMO, PASS, PASS, call("3h"), give("4s")],  # chiamo: discarding
        [CHIAMO, PASS, PASS, call("3h")],  # chiamo: giving back
        [*A_EXCHANGE],  # the play
    ],
    ids=["chiamo-discard", "chiamo-give-back", "play"],
)
def test_illegal_take_when_not_taking(actions: list[cb.Action]) -> None:
    """Illegal: a Take outside a take from the exposed monte."""
    state = apply_all(deal_a(), actions)
    assert_illegal(state, take("7c"))
    assert_illegal(state, take("Ks"))


def test_illegal_take_in_scegliete_discard_and_after_taken() -> None:
    """Illegal: a Take once the scegliete takes are over, or of a card already taken."""
    state = apply_all(b_solissimo(), [SCEGLIETE, take("7c")])
    assert_illegal(state, take("7c"), "stock")
    state = cb.apply(state, DONE)  # seat 1 is given the rest
    assert state.phase is cb.Phase.DISCARDING
    assert_illegal(state, take("6c"))


def test_illegal_done_before_discarding_four() -> None:
    """Illegal: Done before the chiamo or solo declarer has discarded four."""
    state = apply_all(a_chiamo_called(), [give("4s")])
    for code in ("7c", "6c", "5c"):
        assert_illegal(state, DONE, "at least")
        state = cb.apply(state, cb.Discard(card(code)))
    assert_illegal(state, DONE, "at least")
    solo = apply_all(deal_c(), [PASS, PASS, SOLO, cb.Discard(card("4c"))])
    assert_illegal(solo, DONE, "at least")


def test_illegal_draw_of_cards_not_in_the_monte() -> None:
    """Illegal: a Draw naming a card that is not in the monte."""
    state = apply_all(b_solissimo(), [DIVIDETE])
    assert_illegal(state, draw("7c Ks"), "stock")
    assert_illegal(state, draw("Qs Js"), "stock")


def test_illegal_draw_of_the_wrong_count() -> None:
    """Illegal: a Draw of other than two monte cards."""
    state = apply_all(b_solissimo(), [DIVIDETE])
    for codes in ("7c", "7c 6c 5c", "7c 6c 5c 4c", ""):
        assert_illegal(state, draw(codes), "2")


def test_illegal_draw_outside_a_chance_node() -> None:
    """Illegal: a Draw where chance does not move (scegliete's take, the play)."""
    assert_illegal(cb.apply(b_solissimo(), SCEGLIETE), draw("7c 6c"))
    assert_illegal(cb.apply(b_solissimo(), PASS), draw("7c 6c"))


def test_illegal_play_out_of_turn() -> None:
    """Illegal: playing a card when another seat is to play (or before the play)."""
    state = apply_all(deal_a(), A_EXCHANGE)
    assert state.to_move == 1
    assert_illegal(state, play("Ks"), "ks")  # seat 0's card
    assert_illegal(state, play("Ah"), "ah")  # seat 2's card
    state = cb.apply(state, play("3d"))
    assert state.to_move == 2
    assert_illegal(state, play("Ks"), "ks")  # seat 0 plays after seat 2
    assert_illegal(state, play("2d"), "2d")  # the leader's own card
    assert_illegal(deal_a(), play("3d"))  # nobody plays during the auction
    assert_illegal(apply_all(deal_a(), [CHIAMO, PASS, PASS]), play("3d"))


def test_illegal_not_following_suit() -> None:
    """Illegal: not following suit when able."""
    state = apply_all(deal_b(), [*B_EXCHANGE, *B_PLAY[:2]])
    # seat 2 led 3d, seat 0 (no coins) threw 7c; seat 1 holds coins and must play one
    assert state.to_move == 1
    assert set(cb.legal_actions(state)) == set(plays("Qd Jd 7d 6d 5d"))
    assert_illegal(state, play("3c"), "follow")
    assert_illegal(state, play("5c"), "follow")


def test_illegal_anything_after_the_deal_is_over() -> None:
    """Illegal: any action once the twelve tricks are played."""
    state = apply_all(deal_a(), [*A_EXCHANGE, *A_PLAY])
    assert cb.legal_actions(state) == ()
    assert_illegal(state, PASS, "over")
    assert_illegal(state, play("4h"), "over")
