"""Issue #8: the rules where the seeds disagree, one test per rule and option value.

- ``stramazzo`` (RULES.md, Ruleset 2 item 7): three readings, one per source, on
  hand-built tallies whose answers differ between the readings;
- the deprecated keyword ``stramazzo_below``;
- ``follow_suit`` (item 9): seed 004's "players are not required to follow suit".

(Scegliete's shared monte, item 5, is tested with whole deals in
``test_calabresella_rules.py``.) Every number is worked out by hand in the comments.
Card units: ace 3; 3, 2, K, Q, J 1; 7, 6, 5, 4 nothing; the last trick 3 more.
"""

from __future__ import annotations

import warnings
from typing import Any, cast

import attrs
import pytest
from support import assert_illegal, make_tally

import calabrasella as cb
from calabrasella.testing import check_ruleset

READINGS = ("under_a_point", "no_card_points", "no_points")


def tally(contract: cb.Contract, **counts: Any) -> cb.Tally:
    """Dealer 0, declarer seat 1, three at the table; the adversaries have the other card units."""
    return make_tally(contract=contract, **counts)


SOLISSIMO, SOLO = cb.Contract.SOLISSIMO, cb.Contract.SOLO

# (tally, whether the declarer won, the multiplier under each reading: under_a_point,
# no_card_points, no_points). The losing side always took a trick, so cappotto never applies.
STRAMAZZO_TALLIES: dict[str, tuple[cb.Tally, bool, tuple[int, int, int]]] = {
    # RULES.md's worked example: "solissimo lost, the declarer won 2 tricks that held no
    # counting card: stramazzo, he pays 12 to each (4 x 3)". Not the last trick: his tricks
    # hold 0 card units (< 3), he captured nothing (the monte's 4 went with the last trick to
    # the adversaries), and his whole score is 0 (< 3): stramazzo by every reading.
    "worked-example-2-empty-tricks": (
        tally(SOLISSIMO, declarer_cards=0, stock=4, declarer_last=False, declarer_tricks=2),
        False,
        (3, 3, 3),
    ),
    # The same two empty tricks, but one of them is the last and the monte holds no unit:
    # tricks 0 (< 3: stramazzo); captured 0 + monte 0 = 0 (stramazzo); whole score
    # 0 + 0 + 3 = 3, a point (none). He loses 3 to 32.
    "empty-tricks-with-the-last-empty-monte": (
        tally(SOLISSIMO, declarer_cards=0, stock=0, declarer_last=True, declarer_tricks=2),
        False,
        (3, 3, 1),
    ),
    # As above with a monte of 1 unit (a jack): tricks 0 (stramazzo); captured 0 + 1 = 1
    # (none); whole score 0 + 1 + 3 = 4 (none). He loses 4 to 31.
    "empty-tricks-with-the-last-monte-of-1": (
        tally(SOLISSIMO, declarer_cards=0, stock=1, declarer_last=True, declarer_tricks=2),
        False,
        (3, 1, 1),
    ),
    # His two tricks (not the last) hold 2 card units: tricks 2 (< 3, stramazzo); captured 2
    # (none); whole score 2 (< 3, stramazzo). He loses 2 to 33.
    "tricks-of-2-units-not-the-last": (
        tally(SOLISSIMO, declarer_cards=2, stock=4, declarer_last=False, declarer_tricks=2),
        False,
        (3, 1, 3),
    ),
    # His tricks hold 3 card units, a point: no reading gives stramazzo. He loses 3 to 32.
    "tricks-of-3-units": (
        tally(SOLISSIMO, declarer_cards=3, stock=4, declarer_last=False, declarer_tricks=2),
        False,
        (1, 1, 1),
    ),
    # Solo won; the adversaries took one trick, the last, with no counting card, and the
    # monte (2 units) with it: tricks 0 (stramazzo); captured 0 + 2 (none); whole score
    # 0 + 2 + 3 = 5 (none). The declarer wins 30 to 5.
    "adversaries-took-only-the-last-trick": (
        tally(SOLO, declarer_cards=30, stock=2, declarer_last=False, declarer_tricks=11),
        True,
        (3, 1, 1),
    ),
    # Solo won; the adversaries took one empty trick, not the last: 0 by every count, all 35
    # to the declarer without every trick (seed 004's own case): stramazzo by every reading.
    "adversaries-took-an-empty-trick": (
        tally(SOLO, declarer_cards=30, stock=2, declarer_last=True, declarer_tricks=11),
        True,
        (3, 3, 3),
    ),
}


@pytest.mark.parametrize("reading", READINGS)
@pytest.mark.parametrize("case", list(STRAMAZZO_TALLIES))
def test_stramazzo_readings_on_hand_built_tallies(case: str, reading: str) -> None:
    """Rule 7, option stramazzo: each reading gives x3 exactly where the comments say."""
    t, declarer_won, multipliers = STRAMAZZO_TALLIES[case]
    multiplier = multipliers[READINGS.index(reading)]
    rules = cb.Calabresella(stramazzo=cast(Any, reading))
    result = rules.score(t)
    stake = rules.stake(t.contract, None)
    assert result.declarer_won is declarer_won
    assert result.multiplier == multiplier
    assert result.bonus is (cb.Bonus.STRAMAZZO if multiplier == 3 else None)
    assert result.value == stake * multiplier
    sign = 1 if declarer_won else -1
    v = sign * result.value
    assert result.payments == (-v, 2 * v, -v)
    assert any("stramazzo" in note for note in result.notes) is (multiplier == 3)
    assert result.declarer_units + result.adversary_units == 35


def test_stramazzo_worked_example_pays_12_to_each() -> None:
    """RULES.md: solissimo lost with 2 empty tricks: stramazzo, he pays 12 to each (default)."""
    t = STRAMAZZO_TALLIES["worked-example-2-empty-tricks"][0]
    result = cb.CALABRESELLA.score(t)
    assert (result.base, result.multiplier, result.value) == (4, 3, 12)
    assert result.payments == (12, -24, 12)


def test_stramazzo_default_is_under_a_point() -> None:
    """Rule 7: the default reading is seed 003's "under a point" in the tricks."""
    assert cb.CALABRESELLA.stramazzo == "under_a_point"
    assert cb.CALABRESELLA.options()["stramazzo"] == "under_a_point"


@pytest.mark.parametrize("value", ["none", "under-a-point", 3, None, True])
def test_stramazzo_bad_value_names_the_allowed_values(value: object) -> None:
    """A bad stramazzo value is a RulesetError naming the three readings."""
    with pytest.raises(cb.RulesetError) as info:
        cb.Calabresella(stramazzo=cast(Any, value))
    for reading in READINGS:
        assert repr(reading) in str(info.value)


# --- the deprecated keyword stramazzo_below ---------------------------------------------------


def test_stramazzo_below_3_is_under_a_point_with_a_deprecation_warning() -> None:
    """``stramazzo_below=3`` (the old default) still builds, as "under_a_point", and warns."""
    with pytest.warns(DeprecationWarning, match="stramazzo='under_a_point'"):
        rules = cb.Calabresella(stramazzo_below=3)  # type: ignore[call-arg]
    assert rules == cb.CALABRESELLA
    with pytest.warns(DeprecationWarning, match="stramazzo_below=3"):
        assert cb.find_ruleset("calabresella", stramazzo_below=3) == cb.CALABRESELLA
    # the old keyword wins over the value evolve copies along
    with pytest.warns(DeprecationWarning, match="stramazzo_below=3"):
        evolved = attrs.evolve(cb.Calabresella(stramazzo="no_points"), stramazzo_below=3)  # type: ignore[call-arg]
    assert evolved.stramazzo == "under_a_point"


def test_stramazzo_below_read_warns() -> None:
    """Reading ``stramazzo_below`` warns; it is 3 for "under_a_point" and absent otherwise."""
    with pytest.warns(DeprecationWarning, match="read stramazzo"):
        assert cb.CALABRESELLA.stramazzo_below == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(AttributeError, match="no_points"):
            _ = cb.Calabresella(stramazzo="no_points").stramazzo_below


def test_stramazzo_below_1_is_refused_with_the_reason() -> None:
    """``stramazzo_below=1`` matched no source (it never counted the monte): refused, naming
    the readings that replace it."""
    with pytest.raises(cb.RulesetError, match="no_card_points") as info:
        cb.Calabresella(stramazzo_below=1)  # type: ignore[call-arg]
    assert "monte" in str(info.value) and "no_points" in str(info.value)
    for value in (2, "3", 3.0, None):
        with pytest.raises(cb.RulesetError, match="stramazzo"):
            cb.Calabresella(stramazzo_below=value)  # type: ignore[call-arg]


# --- follow_suit (RULES.md, Ruleset 2 item 9) ------------------------------------------------

P = cb.CardSet.parse
# Dealer 0 (turn order 1, 2, 0). Seat 1 bids solo, takes the monte (7c 6c 5c 4c, no units)
# and discards it again; then he leads 3d. Seat 2 holds 2d and Ad; seat 0 holds Kd.
H0 = "Kd 3s 2s As Ks Qs Js 7s 6s 5s 4s 3c"
H1 = "3d Qd Jd 7d 6d 5d 4d 3h 2h Ah Kh Qh"
H2 = "2d Ad Jh 7h 6h 5h 4h 2c Ac Kc Qc Jc"
H_MONTE = "7c 6c 5c 4c"
H_EXCHANGE: list[cb.Action] = [cb.Bid(cb.Contract.SOLO), cb.Pass(), cb.Pass(),
              *(cb.Discard(c) for c in P(H_MONTE))]


def h_after_lead(rules: cb.Ruleset) -> cb.State:
    """Seat 1 has led 3d; seat 2, holding 2d and Ad, is to play."""
    state = cb.deal_from(rules, [P(H0), P(H1), P(H2)], P(H_MONTE), dealer=0)
    for action in [*H_EXCHANGE, cb.Play(cb.Card.parse("3d"))]:
        state = cb.apply(state, action)
    assert state.to_move == 2
    return state


def test_follow_suit_true_is_the_default_and_refuses_a_revoke() -> None:
    """Rule 9, follow_suit=True (default, seeds 002, 003): holding coins, seat 2 must play one."""
    assert cb.CALABRESELLA.follow_suit is True and cb.CAVENDISH.follow_suit is True
    assert "follow_suit" not in cb.CAVENDISH.options()  # not a Cavendish option
    state = h_after_lead(cb.CALABRESELLA)
    assert cb.legal_actions(state) == (cb.Play("2d"), cb.Play("Ad"))
    assert state.legal_actions() == cb.legal_actions(state)
    assert_illegal(state, cb.Play("Jc"), "follow")


def test_follow_suit_false_any_card_held_may_be_played() -> None:
    """Rule 9, follow_suit=False (seed 004): seat 2 may throw Jc though he holds coins."""
    rules = cb.Calabresella(follow_suit=False)
    state = h_after_lead(rules)
    everything = tuple(cb.Play(c) for c in P(H2))
    assert cb.legal_actions(state) == everything  # every card held, in canonical order
    assert state.legal_actions() == everything
    assert state.view(2).legal_actions == everything
    assert cb.is_legal(state, cb.Play("Jc"))
    assert_illegal(state, cb.Play("Kd"), "does not hold")  # still only cards held


def test_follow_suit_false_trick_still_goes_to_the_highest_card_of_the_suit_led() -> None:
    """Rule 9: without the duty to follow, the highest coin still wins a coin-led trick.

    Seat 1 leads 3d; seat 2 throws Ac, holding coins (batons were not led); seat 0
    plays Kd. The 3d is the highest coin: seat 1 wins 1 + 3 + 1 = 5 units. Then seat 1 leads
    Qd; seat 2 plays 2d (the highest coin), seat 0 throws 3s: seat 2 wins 1 + 1 + 1 = 3.
    """
    rules = cb.Calabresella(follow_suit=False)
    state = h_after_lead(rules)
    for code in ("Ac", "Kd"):
        state = cb.apply(state, cb.Play(code))
    assert state.tricks_won == (0, 1, 0)
    assert state.card_units_won == (0, 5, 0)
    assert state.to_move == 1
    for code in ("Qd", "2d", "3s"):
        state = cb.apply(state, cb.Play(code))
    assert state.tricks_won == (0, 1, 1)
    assert state.card_units_won == (0, 5, 3)
    assert state.to_move == 2


def test_follow_suit_false_passes_check_ruleset() -> None:
    """The testing kit's invariants hold with follow_suit=False (revokes are listed, so not
    probed as illegal)."""
    report = check_ruleset(cb.Calabresella(follow_suit=False), deals=30, seed=8)
    assert report.deals == 30 and report.illegal_probes > 0


def test_follow_suit_must_be_a_bool() -> None:
    """A bad follow_suit is a RulesetError; Cavendish has no such option."""
    with pytest.raises(cb.RulesetError, match="follow_suit"):
        cb.Calabresella(follow_suit=cast(Any, "no"))
    with pytest.raises(cb.RulesetOptionError):
        cb.Cavendish(follow_suit=False)  # type: ignore[call-arg]
