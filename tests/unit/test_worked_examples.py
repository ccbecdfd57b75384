"""RULES.md's worked examples as known-answer tests.

(a) The Cavendish and Calabresella examples at the scoring level, as tables:
each row is a ``cb.Tally`` built by hand, handed to the ruleset's ``score``,
and the values the result must have. Each row names the RULES.md worked
example it is (or says that it is not one, but a rule of RULES.md's text).
(b) Whole Cavendish deals built by hand and played through the engine, each
trick's winner and each side's units worked out in the comments.

RULES.md's revoke example (24-11 becoming 33-2) belongs to the irregularities
option and is not tested here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest
from support import cavendish_tally, make_tally

import calabrasella as cb

P = cb.CardSet.parse
STAND = cb.Bid(cb.Contract.STAND)
PASS = cb.Pass()
DONE = cb.Done()


def card(code: str) -> cb.Card:
    return cb.Card.parse(code)


def plays(codes: str) -> list[cb.Play]:
    return [cb.Play(card(c)) for c in codes.split()]


def apply_all(state: cb.State, actions: Iterable[cb.Action]) -> cb.State:
    for action in actions:
        state = cb.apply(state, action)
    return state


def take_all(state: cb.State, codes: str) -> cb.State:
    """Take the named stock cards (skipping any the engine took by itself)."""
    for code in codes.split():
        if state.phase is cb.Phase.TAKING:
            state = cb.apply(state, cb.Take(card(code)))
    return state


def _lost_trick_tally(adversary_cards: int) -> cb.Tally:
    """Solo won; the adversaries took one trick (not the last) holding ``adversary_cards``."""
    return make_tally(
        contract=cb.Contract.SOLO,
        declarer_cards=32 - 4 - adversary_cards,
        adversary_cards=adversary_cards,
        stock=4,
        declarer_last=True,
        declarer_tricks=11,
    )


def example(name: str, rules: cb.Ruleset, tally: cb.Tally, **expect: Any) -> Any:
    """One table row: ``rules.score(tally)`` must have each attribute of ``expect``."""
    return pytest.param(rules, tally, expect, id=name)


def assert_scores(rules: cb.Ruleset, tally: cb.Tally, expect: dict[str, Any]) -> None:
    """Score ``tally``; compare every expected attribute at once, so a failure shows them all."""
    result = rules.score(tally)
    assert {name: getattr(result, name) for name in expect} == expect
    # true of every finished deal (RULES.md, "What is always true")
    assert result.declarer_units + result.adversary_units == 35
    assert sum(result.payments) == 0


# --- (a) Cavendish at the scoring level -------------------------------------------

CAVENDISH_EXAMPLES = [
    # RULES.md: "single player 23, adversaries 12: he wins 11 from each (22 in all)"
    # 20 in his tricks + the last trick 3 (stock 0) = 23; adversaries 12
    example(
        "23-12-wins-11-from-each-22-in-all",
        cb.CAVENDISH,
        cavendish_tally(declarer_cards=20, adversary_cards=12, stock=0, declarer_last=True),
        declarer_units=23,
        adversary_units=12,
        declarer_won=True,
        value=11,
        payments=(-11, 22, -11),
    ),
    # RULES.md: "single player 16, adversaries 19: he loses 3 to each"
    # adversaries 14 + stock 2 + last 3 = 19
    example(
        "16-19-loses-3-to-each",
        cb.CAVENDISH,
        cavendish_tally(declarer_cards=16, adversary_cards=14, stock=2, declarer_last=False),
        declarer_units=16,
        adversary_units=19,
        declarer_won=False,
        value=3,
        payments=(3, -6, 3),
    ),
    # RULES.md: "18-17: +1 each"
    # 15 + last 3 = 18
    example(
        "18-17-plus-1-from-each",
        cb.CAVENDISH,
        cavendish_tally(declarer_cards=15, adversary_cards=17, stock=0, declarer_last=True),
        declarer_units=18,
        adversary_units=17,
        declarer_won=True,
        value=1,
        payments=(-1, 2, -1),
    ),
    # RULES.md: "17-18: -1 each"
    # adversaries 13 + stock 2 + last 3 = 18
    example(
        "17-18-minus-1-to-each",
        cb.CAVENDISH,
        cavendish_tally(declarer_cards=17, adversary_cards=13, stock=2, declarer_last=False),
        declarer_units=17,
        adversary_units=18,
        declarer_won=False,
        value=1,
        payments=(1, -2, 1),
    ),
    # RULES.md: "21-14: +7 each"
    # 16 + stock 2 + last 3 = 21
    example(
        "21-14-plus-7-from-each",
        cb.CAVENDISH,
        cavendish_tally(declarer_cards=16, adversary_cards=14, stock=2, declarer_last=True),
        declarer_units=21,
        adversary_units=14,
        value=7,
        payments=(-7, 14, -7),
    ),
    # RULES.md: "single player 11, adversaries 24: he pays 13 to each (26 in all)"
    # adversaries 19 + stock 2 + last 3 = 24; declarer at seat 2, dealer 1
    example(
        "11-24-pays-13-to-each-26-in-all",
        cb.CAVENDISH,
        cavendish_tally(
            declarer_cards=11,
            adversary_cards=19,
            stock=2,
            declarer_last=False,
            dealer=1,
            declarer=2,
        ),
        declarer_units=11,
        adversary_units=24,
        value=13,
        payments=(13, 13, -26),
    ),
    # RULES.md: "single player 19, adversaries 16: each adversary pays 3"
    # adversaries 10 + stock 3 + last 3 = 16; declarer at seat 0
    example(
        "19-16-each-adversary-pays-3",
        cb.CAVENDISH,
        cavendish_tally(
            declarer_cards=19, adversary_cards=10, stock=3, declarer_last=False, declarer=0
        ),
        declarer_units=19,
        adversary_units=16,
        declarer_won=True,
        value=3,
        payments=(6, -3, -3),
    ),
    # RULES.md: "35-0 either way: 70 to or from each adversary (140 in all)", for him
    example(
        "35-0-for-him-70-from-each-140-in-all",
        cb.CAVENDISH,
        cavendish_tally(
            declarer_cards=28, adversary_cards=0, stock=4, declarer_last=True, declarer_tricks=12
        ),
        declarer_units=35,
        adversary_units=0,
        base=35,
        multiplier=2,
        bonus=cb.Bonus.ALL_POINTS,
        value=70,
        payments=(-70, 140, -70),
    ),
    # RULES.md: "35-0 either way: 70 to or from each adversary (140 in all)", against him
    example(
        "0-35-against-him-70-to-each-140-in-all",
        cb.CAVENDISH,
        cavendish_tally(
            declarer_cards=0, adversary_cards=28, stock=4, declarer_last=False, declarer_tricks=0
        ),
        declarer_units=0,
        adversary_units=35,
        declarer_won=False,
        bonus=cb.Bonus.ALL_POINTS,
        value=70,
        payments=(70, -140, 70),
    ),
]


@pytest.mark.parametrize(("rules", "tally", "expect"), CAVENDISH_EXAMPLES)
def test_cavendish_worked_example(
    rules: cb.Ruleset, tally: cb.Tally, expect: dict[str, Any]
) -> None:
    """Each Cavendish worked example of RULES.md scores as the rules document says."""
    assert_scores(rules, tally, expect)


# --- (a) Calabresella at the scoring level ------------------------------------------------------

CALABRESELLA_EXAMPLES = [
    # RULES.md: "chiamo won: +1 from each adversary"
    # 17 + last 3 = 20 against 15 (adversaries' tricks hold 15: no stramazzo)
    example(
        "chiamo-won-plus-1-from-each",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.CHIAMO,
            declarer_cards=17,
            adversary_cards=15,
            stock=0,
            declarer_last=True,
            declarer_tricks=7,
        ),
        declarer_won=True,
        base=1,
        multiplier=1,
        bonus=None,
        value=1,
        payments=(-1, 2, -1),
    ),
    # RULES.md: "solissimo with scegliete lost: the declarer pays 16 to each"
    # 10 against 17 + monte 5 + last 3 = 25; his tricks hold 10, so no stramazzo
    example(
        "solissimo-scegliete-lost-pays-16-to-each",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.SOLISSIMO,
            modifier=cb.Modifier.SCEGLIETE,
            declarer_cards=10,
            adversary_cards=17,
            stock=5,
            declarer_last=False,
            declarer_tricks=4,
        ),
        declarer_won=False,
        base=16,
        bonus=None,
        value=16,
        payments=(16, -32, 16),
    ),
    # RULES.md: "solo won with every trick (cappotto): +4 from each" (2 x 2)
    example(
        "solo-won-every-trick-cappotto-plus-4-from-each",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.SOLO,
            declarer_cards=28,
            adversary_cards=0,
            stock=4,
            declarer_last=True,
            declarer_tricks=12,
        ),
        base=2,
        multiplier=2,
        bonus=cb.Bonus.CAPPOTTO,
        value=4,
        payments=(-4, 8, -4),
    ),
    # RULES.md: "solissimo lost, the declarer won 2 tricks that held no counting card:
    # stramazzo, he pays 12 to each (4 x 3)"
    example(
        "solissimo-lost-two-empty-tricks-stramazzo-pays-12-to-each",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.SOLISSIMO,
            declarer_cards=0,
            adversary_cards=28,
            stock=4,
            declarer_last=False,
            declarer_tricks=2,
        ),
        declarer_won=False,
        base=4,
        multiplier=3,
        bonus=cb.Bonus.STRAMAZZO,
        value=12,
        payments=(12, -24, 12),
    ),
    # RULES.md: "18 units vs 17 units is 6 points to 5"; the declarer wins with 6 points
    example(
        "18-vs-17-units-is-6-points-to-5",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.CHIAMO,
            declarer_cards=15,
            adversary_cards=17,
            stock=0,
            declarer_last=True,
            declarer_tricks=6,
        ),
        declarer_units=18,
        adversary_units=17,
        declarer_points=6,
        adversary_points=5,
        declarer_won=True,
        value=1,
    ),
    # not a worked example; RULES.md 7, stramazzo: "the last-trick bonus and the monte do not
    # count". The adversaries lose with 2 units in their tricks, though they took the last
    # trick and a monte of 1: 2 + 1 + 3 = 6 units, still stramazzo (declarer 29 wins)
    example(
        "stramazzo-ignores-last-trick-and-monte",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.CHIAMO,
            declarer_cards=29,
            adversary_cards=2,
            stock=1,
            declarer_last=False,
            declarer_tricks=10,
        ),
        declarer_units=29,
        adversary_units=6,
        declarer_won=True,
        bonus=cb.Bonus.STRAMAZZO,
        value=3,
    ),
    # not a worked example; RULES.md 7, cappotto: "one side takes every trick: stake x2",
    # here the adversaries, against a solissimo with dividete (8 x 2)
    example(
        "cappotto-against-the-declarer-dividete-16-to-each",
        cb.CALABRESELLA,
        make_tally(
            contract=cb.Contract.SOLISSIMO,
            modifier=cb.Modifier.DIVIDETE,
            declarer_cards=0,
            adversary_cards=28,
            stock=4,
            declarer_last=False,
            declarer_tricks=0,
        ),
        bonus=cb.Bonus.CAPPOTTO,
        value=16,
        payments=(16, -32, 16),
    ),
]


@pytest.mark.parametrize(("rules", "tally", "expect"), CALABRESELLA_EXAMPLES)
def test_calabresella_worked_example(
    rules: cb.Ruleset, tally: cb.Tally, expect: dict[str, Any]
) -> None:
    """Each Calabresella worked example of RULES.md scores as the rules document says."""
    assert_scores(rules, tally, expect)


@pytest.mark.parametrize(
    ("declarer_cards", "stock", "declarer_last", "units", "points"),
    [
        # 17 units: 5 points, loses
        pytest.param(14, 0, True, (17, 18), (5, 6), id="tricks-14-monte-0-his-last-17-18"),
        pytest.param(18, 3, True, (24, 11), (8, 3), id="tricks-18-monte-3-his-last-24-11"),
        pytest.param(11, 1, False, (11, 24), (3, 8), id="tricks-11-monte-1-their-last-11-24"),
        pytest.param(28, 4, True, (35, 0), (11, 0), id="tricks-28-monte-4-his-last-35-0"),
        pytest.param(19, 2, True, (24, 11), (8, 3), id="tricks-19-monte-2-his-last-24-11"),
        pytest.param(20, 0, False, (20, 15), (6, 5), id="tricks-20-monte-0-their-last-20-15"),
    ],
)
def test_calabresella_sides_points_always_add_to_11(
    declarer_cards: int,
    stock: int,
    declarer_last: bool,
    units: tuple[int, int],
    points: tuple[int, int],
) -> None:
    """RULES.md, common: a side's points are units // 3 and the two sides' points add to 11."""
    result = cb.CALABRESELLA.score(
        make_tally(
            contract=cb.Contract.SOLO,
            declarer_cards=declarer_cards,
            adversary_cards=32 - declarer_cards - stock,
            stock=stock,
            declarer_last=declarer_last,
            declarer_tricks=6,
        )
    )
    assert (result.declarer_units, result.adversary_units) == units
    assert (result.declarer_points, result.adversary_points) == points
    assert sum(points) == 11


def test_calabresella_stramazzo_under_a_point_by_default() -> None:
    """Stramazzo is read as seed 003's "under a point" in the tricks unless the option says otherwise."""
    assert cb.CALABRESELLA.stramazzo == "under_a_point"


STRICT_STRAMAZZO = cb.Calabresella(stramazzo="no_card_points")

STRAMAZZO_THRESHOLDS = [
    # not worked examples; RULES.md 7, the stramazzo option. Solo won (2); the adversaries
    # took one trick, not the last, holding the given units.
    # default, under a point (seed 003): 2 units is stramazzo, 3 units is not
    example(
        "under-a-point-default-2-units-stramazzo",
        cb.CALABRESELLA,
        _lost_trick_tally(2),
        bonus=cb.Bonus.STRAMAZZO,
        value=6,  # solo 2 x 3
    ),
    example(
        "under-a-point-default-3-units-none", cb.CALABRESELLA, _lost_trick_tally(3), bonus=None, value=2
    ),
    # no card points at all (seed 002): the monte went to the declarer with the last trick
    example("no-card-points-2-units-none", STRICT_STRAMAZZO, _lost_trick_tally(2), bonus=None, value=2),
    example("no-card-points-1-unit-none", STRICT_STRAMAZZO, _lost_trick_tally(1), bonus=None),
    example(
        "no-card-points-0-units-stramazzo",
        STRICT_STRAMAZZO,
        _lost_trick_tally(0),
        bonus=cb.Bonus.STRAMAZZO,
        value=6,
    ),
]


@pytest.mark.parametrize(("rules", "tally", "expect"), STRAMAZZO_THRESHOLDS)
def test_calabresella_stramazzo_threshold(
    rules: cb.Ruleset, tally: cb.Tally, expect: dict[str, Any]
) -> None:
    """Stramazzo applies when the losers' tricks hold fewer units than the option says."""
    assert_scores(rules, tally, expect)


# --- (b) Cavendish: whole deals played through the engine ------------------------------


def test_deal_35_0_single_player_takes_every_trick_70_from_each() -> None:
    """Whole deal: the single player takes all twelve tricks and all 35: 70 from each."""
    # Dealer 0, eldest seat 1. Seat 1 holds every coin and 3h 2h.
    state = cb.deal_from(
        cb.CAVENDISH,
        [
            P("3c 2c Ac Kc Qc Jc 7c 6c 5c 7h 6h 4h"),
            P("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 3h 2h"),
            P("3s 2s As Ks Qs Js 7s 6s 5s Kh Qh Jh"),
        ],
        P("Ah 5h 4s 4c"),
        dealer=0,
    )
    # Seat 1 stands; asks for 3s (seat 2 gives it) and gives 4d back; discards 5d, takes Ah.
    state = apply_all(
        state, [STAND, cb.Call(card("3s")), cb.GiveBack(card("4d")), cb.Discard(card("5d")), DONE]
    )
    state = take_all(state, "Ah")
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(1) == P("3d 2d Ad Kd Qd Jd 7d 6d 3h 2h 3s Ah")
    assert state.stock == P("5d 5h 4s 4c")
    # Seat 1 (eldest) leads every trick with the best card left of its suit:
    # eight coins (seat 2 follows 4d once, then nobody has a coin), then 3s, 3h, 2h, Ah.
    state = apply_all(
        state,
        plays(
            "3d 4d 5c  2d 5s 6c  Ad 6s 7c  Kd 7s Jc  Qd Js Qc  Jd Qs Kc  7d Ks Ac  6d As 2c "
            "3s 2s 3c  3h Jh 4h  2h Qh 6h  Ah Kh 7h"
        ),
    )
    assert state.is_over
    result = state.result
    assert result is not None
    assert state.tricks_won == (0, 12, 0)
    assert (result.declarer_units, result.adversary_units) == (35, 0)
    assert result.bonus is cb.Bonus.ALL_POINTS
    assert result.value == 70
    assert result.payments == (-70, 140, -70)


def test_deal_0_35_single_player_takes_nothing_pays_70_to_each() -> None:
    """Whole deal: the adversaries take every trick and all 35: the single player pays 70 each."""
    # Dealer 0 stands after seats 1 and 2 pass; he holds only 7s to 4s. Seats 1 and 2 hold
    # every 3, 2, A, K, Q, J but the 3c, which is in the stock (seat 2 has the 4c instead).
    state = cb.deal_from(
        cb.CAVENDISH,
        [
            P("7d 6d 5d 4d 7h 6h 5h 4h 7s 6s 5s 4s"),
            P("3d 2d Ad Kd Qd Jd 3h 2h Ah Kh Qh Jh"),
            P("3s 2s As Ks Qs Js 4c 2c Ac Kc Qc Jc"),
        ],
        P("3c 7c 6c 5c"),
        dealer=0,
    )
    # He asks for 3c: it is in the stock, nothing changes hands. He discards 7d and takes
    # 5c (not the 3c): the stock is 3c 7c 6c 7d, 1 unit.
    state = apply_all(state, [PASS, PASS, STAND, cb.Call(card("3c"))])
    assert state.phase is cb.Phase.DISCARDING
    state = apply_all(state, [cb.Discard(card("7d")), DONE])
    state = take_all(state, "5c")
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(0) == P("6d 5d 4d 7h 6h 5h 4h 7s 6s 5s 4s 5c")
    assert state.to_move == 1
    # Seat 1 leads his twelve honours and wins each (seat 2 is void in coins and hearts,
    # seat 0 follows low or throws a low card).
    state = apply_all(
        state,
        plays(
            "3d 4c 6d  2d 2c 5d  Ad Ac 4d  Kd Kc 5c  Qd Qc 7s  Jd Jc 6s "
            "3h 3s 7h  2h 2s 6h  Ah As 5h  Kh Ks 4h  Qh Qs 5s  Jh Js 4s"
        ),
    )
    assert state.is_over
    result = state.result
    assert result is not None
    assert state.tricks_won == (0, 12, 0)
    # adversaries: 31 in the tricks + the stock 1 + the last trick 3 = 35
    assert (result.declarer_units, result.adversary_units) == (0, 35)
    assert result.declarer == 0
    assert result.value == 70
    assert result.payments == (-140, 70, 70)


def test_deal_29_6_single_player_wins_23_from_each() -> None:
    """Whole deal: the single player makes 29 against 6 and wins 23 from each adversary."""
    # Dealer 2: eldest seat 0, then 1, then 2. Seat 0 passes, seat 1 stands.
    state = cb.deal_from(
        cb.CAVENDISH,
        [
            P("3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 7c 6c"),
            P("2h Ah Kh Qh Jh 7h 6h 5h 4h 3c 2c 5c"),
            P("3s 2s As Ks Qs Js 7s 6s 5s 4s 3h 4c"),
        ],
        P("Ac Kc Qc Jc"),
        dealer=2,
    )
    # He asks for 3h (seat 2), gives 5c back, discards 4h 5h, takes Ac Kc.
    state = apply_all(
        state,
        [PASS, STAND, cb.Call(card("3h")), cb.GiveBack(card("5c")),
         cb.Discard(card("4h")), cb.Discard(card("5h")), DONE],
    )
    state = take_all(state, "Ac Kc")
    assert state.phase is cb.Phase.PLAYING
    assert state.hand(1) == P("3h 2h Ah Kh Qh Jh 7h 6h 3c 2c Ac Kc")
    assert state.hand(2) == P("3s 2s As Ks Qs Js 7s 6s 5s 4s 4c 5c")
    assert state.stock == P("Qc Jc 4h 5h")  # 2 units
    assert state.to_move == 0  # the eldest leads
    state = apply_all(
        state,
        plays(
            "3d 6h 4s "  # T1  seat 0: 1
            "2d 7h 5s "  # T2  seat 0: 1
            "Ad Jh 6s "  # T3  seat 0: 4  (adversaries 6)
            "7c 3c 4c "  # T4  seat 1 (3c): 1
            "3h 7s 4d "  # T5  seat 1: 1
            "2h Js 5d "  # T6  seat 1: 2
            "Ah Qs 6d "  # T7  seat 1: 4
            "Kh Ks 7d "  # T8  seat 1: 2
            "Qh As Jd "  # T9  seat 1: 5
            "2c 5c 6c "  # T10 seat 1: 1
            "Ac 2s Qd "  # T11 seat 1: 5
            "Kc 3s Kd"  # T12 seat 1: 3, plus the stock 2 and the last trick 3
        ),
    )
    assert state.is_over
    result = state.result
    assert result is not None
    assert state.tricks_won == (3, 9, 0)
    assert state.card_units_won == (6, 24, 0)
    assert (result.declarer_units, result.adversary_units) == (29, 6)
    assert result.declarer_units + result.adversary_units == 35
    assert result.value == 23
    assert result.bonus is None
    assert result.payments == (-23, 46, -23)
    assert sum(result.payments) == 0
