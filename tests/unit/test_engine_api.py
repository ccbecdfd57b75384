"""The reducer API: apply, legal_actions, is_legal/check, views, errors, lookup, exports.

These pin the public contract of DESIGN.md ("Reducer core", "Errors",
"Rulesets are values") and RULES.md's "What is always true": applying an
action never changes the state it was applied to; an illegal action raises a
clear error naming the action and the reason, and nothing else happens; the
same deal and the same actions always give the same result.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator
from typing import Any, cast

import pytest

import calabrasella as cb

P = cb.CardSet.parse
PASS = cb.Pass()
DONE = cb.Done()
STAND = cb.Bid(cb.Contract.STAND)
CHIAMO = cb.Bid(cb.Contract.CHIAMO)
SOLO = cb.Bid(cb.Contract.SOLO)
SOLISSIMO = cb.Bid(cb.Contract.SOLISSIMO)

RULESETS = [
    cb.CAVENDISH,
    cb.Cavendish(first_lead="after_declarer"),
    cb.Cavendish(players=4),
    cb.CALABRESELLA,
    cb.Calabresella(auction="until_two_pass", give_back="face_down", stramazzo="no_card_points"),
    cb.Calabresella(
        callable="threes_then_twos", solo_monte_exposed=False, first_lead="eldest_except_solissimo"
    ),
]
RULES_IDS = [
    "cavendish",
    "cavendish-after-declarer",
    "cavendish-four",
    "calabresella",
    "calabresella-variant-1",
    "calabresella-variant-2",
]

#: Every decision action of both games (chance outcomes are added per state).
UNIVERSE: tuple[cb.Action, ...] = (
    PASS,
    DONE,
    *(cb.Bid(c) for c in cb.Contract),
    *(cb.Raise(m) for m in cb.Modifier),
    *(kind(c) for kind in (cb.Call, cb.GiveBack, cb.Discard, cb.Take, cb.Play) for c in cb.DECK),
)

GARBAGE: list[object] = [
    "Ad",
    "pass",
    "",
    None,
    0,
    3,
    1.5,
    object(),
    [],
    (),
    {},
    cb.Pass,
    cb.Play,
    cb.Card.parse("Ad"),
    cb.CardSet.parse("Ad Kd"),
    cb.Contract.STAND,
    cb.Modifier.DIVIDETE,
]


def random_states(rules: cb.Ruleset, seed: int) -> Iterator[cb.State]:
    """Yield every state of one random legal deal (bidding a contract when one is open)."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    while True:
        yield state
        if state.is_over:
            return
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        if state.phase is cb.Phase.BIDDING:
            # pass or bid, mostly the lowest bid open, so every contract comes up
            roll = rng.random()
            action = actions[0] if roll < 0.4 else actions[1] if roll < 0.8 else actions[-1]
        else:
            action = rng.choice(actions)
        state = cb.apply(state, action)


def phase_samples(rules: cb.Ruleset, seeds: range) -> dict[cb.Phase, cb.State]:
    """One state of each phase reached in random deals under ``rules``."""
    found: dict[cb.Phase, cb.State] = {}
    for seed in seeds:
        for state in random_states(rules, seed):
            found.setdefault(state.phase, state)
    return found


def assert_unchanged_after_error(state: cb.State, action: object) -> cb.IllegalActionError:
    before = copy.deepcopy(state)
    digest = hash(state)
    with pytest.raises(cb.IllegalActionError) as info:
        cb.apply(state, cast(cb.Action, action))
    assert state == before
    assert hash(state) == digest
    return info.value


# --- apply never mutates ------------------------------------------------------------


@pytest.mark.parametrize("rules", RULESETS, ids=RULES_IDS)
def test_apply_never_mutates_its_input(rules: cb.Ruleset) -> None:
    """Applying any legal action never changes the state it was applied to (value and hash)."""
    for seed in range(6):
        states = list(random_states(rules, seed))
        for state, following in itertools.pairwise(states):
            before = copy.deepcopy(state)
            digest = hash(state)
            hands, history, phase = state.hands, state.history, state.phase
            for action in cb.legal_actions(state):
                cb.apply(state, action)
            cb.legal_actions(state)
            for seat in range(state.players):
                state.view(seat)
            assert state == before
            assert hash(state) == digest
            assert (state.hands, state.history, state.phase) == (hands, history, phase)
            assert following != state


def test_apply_returns_a_new_state_and_old_stays_usable() -> None:
    """apply returns a new state; the old one can be applied to again (branching)."""
    s0 = cb.new_deal(cb.CAVENDISH, seed=7)
    hand_before = s0.hand(s0.to_move or 0)
    s1 = cb.apply(s0, PASS)
    s2 = cb.apply(s0, STAND)
    assert s1 is not s0
    assert s1 != s0
    assert s1 != s2
    assert s0.phase is cb.Phase.BIDDING
    assert s0.history == ()
    assert s0.hand(s0.to_move or 0) == hand_before
    assert len(s1.history) == 1
    assert len(s2.history) == 1


# --- determinism and value semantics ---------------------------------------------------


@pytest.mark.parametrize("rules", RULESETS, ids=RULES_IDS)
def test_same_deal_same_actions_same_result(rules: cb.Ruleset) -> None:
    """The same deal and the same actions always give the same states and result."""
    for seed in range(6):
        states = list(random_states(rules, seed))
        actions = [action for _, action in states[-1].history]
        replay = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
        for action in actions:
            replay = cb.apply(replay, action)
        assert replay == states[-1]
        assert replay.result == states[-1].result


def test_states_are_hashable_and_equal_by_value() -> None:
    """States compare and hash by value: equal deals and histories are equal states."""
    deal = cb.shuffled_deal(cb.CAVENDISH, dealer=1, seed=3)
    a = cb.deal_from(cb.CAVENDISH, deal.hands, deal.stock, dealer=1)
    b = cb.deal_from(
        cb.CAVENDISH, [str(h) for h in deal.hands], str(deal.stock), dealer=1
    )
    assert a is not b
    assert a == b
    assert hash(a) == hash(b)
    assert a == cb.new_deal(cb.CAVENDISH, dealer=1, seed=3)
    assert len({a, b}) == 1
    table = {a: "start"}
    assert table[b] == "start"
    a1, b1 = cb.apply(a, PASS), cb.apply(b, PASS)
    assert a1 == b1
    assert hash(a1) == hash(b1)
    assert a1 != a
    assert cb.apply(a, STAND) != a1
    # another ruleset over the same cards is another state
    variant = cb.Cavendish(first_lead="after_declarer")
    other = cb.deal_from(variant, deal.hands, deal.stock, dealer=1)
    assert other != a


def test_states_are_immutable() -> None:
    """A state's attributes cannot be reassigned."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    with pytest.raises(AttributeError):
        state.phase = cb.Phase.OVER  # type: ignore[misc]
    assert state.phase is cb.Phase.BIDDING


# --- legal_actions order ----------------------------------------------------------------


def test_legal_order_cavendish_bidding_pass_then_stand() -> None:
    """legal_actions: a "no" first, then the bid: (Pass, Bid(STAND))."""
    assert cb.legal_actions(cb.new_deal(cb.CAVENDISH, seed=7)) == (PASS, STAND)


def test_legal_order_calabresella_bids_from_the_lowest() -> None:
    """legal_actions: Pass first, then bids from the lowest: chiamo, solo, solissimo."""
    state = cb.new_deal(cb.CALABRESELLA, seed=3)
    assert cb.legal_actions(state) == (PASS, CHIAMO, SOLO, SOLISSIMO)
    state = cb.apply(state, CHIAMO)
    assert cb.legal_actions(state) == (PASS, SOLO, SOLISSIMO)
    state = cb.apply(state, SOLO)
    assert cb.legal_actions(state) == (PASS, SOLISSIMO)


def test_legal_order_raises_pass_dividete_scegliete() -> None:
    """legal_actions: after a solissimo, Pass, then dividete, then scegliete."""
    state = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=3), SOLISSIMO)
    assert state.phase is cb.Phase.RAISING
    assert cb.legal_actions(state) == (
        PASS,
        cb.Raise(cb.Modifier.DIVIDETE),
        cb.Raise(cb.Modifier.SCEGLIETE),
    )


def test_legal_order_calls_in_canonical_card_order() -> None:
    """legal_actions: a chiamo call lists every unheld card in canonical order."""
    state = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=3), CHIAMO)
    state = cb.apply(cb.apply(state, PASS), PASS)
    assert state.phase is cb.Phase.CALLING
    assert state.to_move is not None
    held = state.hand(state.to_move)
    expected = tuple(cb.Call(c) for c in cb.DECK if c not in held)
    assert len(expected) == 28
    assert cb.legal_actions(state) == expected


def test_legal_order_done_first_then_discards_in_card_order() -> None:
    """legal_actions: once the count allows it, Done first, then the discards in card order."""
    state = cb.apply(cb.new_deal(cb.CAVENDISH, seed=7), STAND)
    while state.phase is not cb.Phase.DISCARDING:
        state = cb.apply(state, cb.legal_actions(state)[0])
    assert state.to_move is not None
    first = cb.legal_actions(state)
    assert first == tuple(cb.Discard(c) for c in state.hand(state.to_move))
    seat = state.to_move
    state = cb.apply(state, first[-1])
    assert cb.legal_actions(state) == (DONE, *(cb.Discard(c) for c in state.hand(seat)))


def test_legal_order_take_any_done_first_then_cards() -> None:
    """legal_actions: scegliete's free take lists Done first, then the monte in card order."""
    state = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=3), SOLISSIMO)
    state = cb.apply(state, cb.Raise(cb.Modifier.SCEGLIETE))
    assert state.phase is cb.Phase.TAKING
    assert cb.legal_actions(state) == (DONE, *(cb.Take(c) for c in state.stock))


def test_legal_order_plays_in_canonical_card_order() -> None:
    """legal_actions: plays are listed in canonical card order."""
    for state in random_states(cb.CAVENDISH, 1):
        if state.phase is cb.Phase.PLAYING and not state.trick:
            assert state.to_move is not None
            hand = state.hand(state.to_move)
            assert cb.legal_actions(state) == tuple(cb.Play(c) for c in hand)


def test_legal_order_chance_outcomes_are_the_equally_likely_draws() -> None:
    """legal_actions at a chance node: the possible draws (2 of the 4 monte cards), fixed."""
    state = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=3), SOLISSIMO)
    state = cb.apply(state, cb.Raise(cb.Modifier.DIVIDETE))
    assert state.is_chance
    assert state.to_move is None
    outcomes = cb.legal_actions(state)
    assert outcomes == cb.chance_outcomes(state)
    assert outcomes == cb.legal_actions(state)
    monte = list(state.stock)
    expected = {
        cb.Draw(cb.CardSet.of([monte[i], monte[j]])) for i in range(4) for j in range(i + 1, 4)
    }
    assert len(outcomes) == 6
    assert set(outcomes) == expected
    assert cb.sample_chance(state, random.Random(1)) in expected


@pytest.mark.parametrize("rules", RULESETS, ids=RULES_IDS)
def test_legal_order_documented_everywhere(rules: cb.Ruleset) -> None:
    """legal_actions order in every state: a "no" first, bids from the lowest, cards in order."""
    levels = {cb.Contract.STAND: 1, cb.Contract.CHIAMO: 1, cb.Contract.SOLO: 2,
              cb.Contract.SOLISSIMO: 3}
    for seed in range(6):
        for state in random_states(rules, seed):
            actions = cb.legal_actions(state)
            if state.is_over:
                assert actions == ()
                continue
            assert actions, state
            assert len(set(actions)) == len(actions)
            noes = [i for i, a in enumerate(actions) if isinstance(a, (cb.Pass, cb.Done))]
            assert noes in ([], [0])
            bids = [a.contract for a in actions if isinstance(a, cb.Bid)]
            assert [levels[c] for c in bids] == sorted(levels[c] for c in bids)
            raises = [a.modifier for a in actions if isinstance(a, cb.Raise)]
            assert raises in ([], [cb.Modifier.DIVIDETE, cb.Modifier.SCEGLIETE])
            card_actions = [
                a for a in actions
                if isinstance(a, (cb.Call, cb.GiveBack, cb.Discard, cb.Take, cb.Play))
            ]
            indices = [a.card.index for a in card_actions]
            assert indices == sorted(indices)


# --- is_legal / check agree with legal_actions ----------------------------------------------


@pytest.mark.parametrize("rules", RULESETS, ids=RULES_IDS)
def test_is_legal_and_check_agree_with_legal_actions(rules: cb.Ruleset) -> None:
    """is_legal(s, a) is True exactly for legal_actions(s); check raises exactly for the rest."""
    for seed in range(6):
        for state in random_states(rules, seed):
            legal = set(cb.legal_actions(state))
            candidates = set(UNIVERSE) | legal
            if state.is_chance:
                candidates.add(cb.Draw(state.stock))  # all four: never a legal draw
                candidates.add(cb.Draw(cb.CardSet()))
            for action in candidates:
                ok = cb.is_legal(state, action)
                assert ok == (action in legal), (state, action)
                if ok:
                    cb.check(state, action)  # does not raise
                else:
                    with pytest.raises(cb.IllegalActionError):
                        cb.check(state, action)


def test_every_legal_action_applies() -> None:
    """Every action legal_actions lists can be applied without error."""
    for rules in RULESETS:
        for state in random_states(rules, 5):
            for action in cb.legal_actions(state):
                cb.apply(state, action)


# --- garbage and wrong-phase actions ---------------------------------------------------------


@pytest.mark.parametrize("rules", RULESETS, ids=RULES_IDS)
def test_garbage_actions_raise_illegal_action_error_in_every_phase(rules: cb.Ruleset) -> None:
    """Strings, None, ints and other non-actions raise IllegalActionError, never TypeError."""
    for phase, state in phase_samples(rules, range(6)).items():
        for garbage in GARBAGE:
            error = assert_unchanged_after_error(state, garbage)
            assert error.action is garbage, phase
            assert error.reason
            assert repr(garbage) in str(error)
            assert not cb.is_legal(state, cast(cb.Action, garbage))


def test_wrong_phase_actions_raise_illegal_action_error() -> None:
    """An action of another phase raises IllegalActionError that names it and says why."""
    ad = cb.Card.parse("Ad")
    cases: list[tuple[cb.State, cb.Action]] = []
    bidding = cb.new_deal(cb.CAVENDISH, seed=7)
    cases += [(bidding, a) for a in (cb.Play(ad), cb.Discard(ad), cb.Take(ad), cb.Call(ad),
                                     cb.GiveBack(ad), DONE, cb.Raise(cb.Modifier.DIVIDETE),
                                     cb.Draw(P("Ad Kd")))]
    samples = phase_samples(cb.CAVENDISH, range(10))
    playing = samples[cb.Phase.PLAYING]
    cases += [(playing, a) for a in (PASS, STAND, DONE, cb.Discard(ad), cb.Take(ad), cb.Call(ad),
                                     cb.Draw(P("Ad Kd")))]
    discarding = samples[cb.Phase.DISCARDING]
    cases += [(discarding, a) for a in (STAND, cb.Play(ad), cb.Take(ad), cb.Call(ad))]
    raising = cb.apply(cb.new_deal(cb.CALABRESELLA, seed=3), SOLISSIMO)
    cases += [(raising, a) for a in (SOLO, DONE, cb.Play(ad), cb.Discard(ad))]
    for state, action in cases:
        error = assert_unchanged_after_error(state, action)
        assert error.action == action
        assert repr(action) in str(error)
        assert error.reason in str(error)


def test_play_after_the_deal_is_over_raises() -> None:
    """A Play (or anything) after the deal is over raises IllegalActionError: the deal is over."""
    *_, over = random_states(cb.CAVENDISH, 2)
    assert over.is_over
    assert cb.legal_actions(over) == ()
    for card in cb.DECK:
        error = assert_unchanged_after_error(over, cb.Play(card))
        assert "over" in error.reason
    for action in (PASS, STAND, DONE, "Ad", None):
        assert_unchanged_after_error(over, action)


def test_illegal_action_error_is_a_value_error_with_action_and_reason() -> None:
    """IllegalActionError is a CalabrasellaError and a ValueError; it carries action and reason."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    action = cb.Play(cb.Card.parse("Ad"))
    with pytest.raises(ValueError, match="illegal action") as info:
        cb.apply(state, action)
    error = info.value
    assert isinstance(error, cb.IllegalActionError)
    assert isinstance(error, cb.CalabrasellaError)
    assert error.action == action
    assert "Play(card=Card.parse('Ad'))" in str(error)
    assert error.reason in str(error)


def test_sample_chance_outside_a_chance_node_raises() -> None:
    """sample_chance raises IllegalActionError where chance does not move; no outcomes there."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    assert cb.chance_outcomes(state) == ()
    with pytest.raises(cb.IllegalActionError):
        cb.sample_chance(state, random.Random(0))


# --- views ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, 4, 100, None, "0", "1", 1.0, [0]])
def test_view_of_a_bad_seat_raises(seat: object) -> None:
    """view(seat) of something that is not a seat at the table raises SeatError."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    with pytest.raises(cb.SeatError, match="at a table of 3"):
        state.view(seat)  # type: ignore[arg-type]
    with pytest.raises(cb.SeatError, match="at a table of 3"):
        cb.view(state, seat)  # type: ignore[arg-type]


def test_view_of_a_bad_seat_at_four() -> None:
    """At a table of four, seats 0..3 have views and seat 4 does not."""
    state = cb.new_deal(cb.Cavendish(players=4), dealer=3, seed=7)
    for seat in range(4):
        assert state.view(seat).seat == seat
    assert state.view(3).hand == cb.CardSet()
    with pytest.raises(cb.SeatError, match=r"seat 4: expected 0\.\.3 at a table of 4"):
        state.view(4)


def test_view_shows_own_hand_and_legal_actions_only_to_the_mover() -> None:
    """A view holds the seat's own hand; only the seat to move gets legal actions."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    for seat in range(3):
        view = state.view(seat)
        assert view.hand == state.hand(seat)
        assert view.hand_sizes == (12, 12, 12)
        if seat == state.to_move:
            assert view.legal_actions == cb.legal_actions(state)
            assert view.is_my_turn
        else:
            assert view.legal_actions == ()
            assert not view.is_my_turn


# --- rulesets: lookup and options --------------------------------------------------------------


def test_find_ruleset_by_name() -> None:
    """find_ruleset finds the presets by name; options give a variant equal to the class's."""
    assert cb.find_ruleset("cavendish") == cb.CAVENDISH
    assert cb.find_ruleset("calabresella") == cb.CALABRESELLA
    assert isinstance(cb.find_ruleset("cavendish"), cb.Cavendish)
    assert isinstance(cb.find_ruleset("calabresella"), cb.Calabresella)
    variant = cb.find_ruleset("cavendish", first_lead="after_declarer", players=4)
    assert variant == cb.Cavendish(first_lead="after_declarer", players=4)
    assert variant != cb.CAVENDISH
    assert cb.find_ruleset("calabresella", auction="until_two_pass") == cb.Calabresella(
        auction="until_two_pass"
    )
    assert cb.ruleset_names() == ("calabresella", "cavendish")


@pytest.mark.parametrize("name", ["skat", "", "cavendishx", "calabrasella", None, 3])
def test_find_ruleset_unknown_name_raises_ruleset_error(name: object) -> None:
    """find_ruleset of an unknown name raises RulesetError (a ValueError)."""
    with pytest.raises(cb.RulesetError) as info:
        cb.find_ruleset(name)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("cavendish", {"first_lead": "left"}),
        ("cavendish", {"first_lead": "declarer"}),
        ("cavendish", {"players": 5}),
        ("cavendish", {"players": 2}),
        ("cavendish", {"packet": 5}),
        ("cavendish", {"dealer_shares": "yes"}),
        ("calabresella", {"auction": "forever"}),
        ("calabresella", {"callable": "anything"}),
        ("calabresella", {"give_back": "sideways"}),
        ("calabresella", {"solo_monte_exposed": "no"}),
        ("calabresella", {"first_lead": "eldest"}),
        ("calabresella", {"stramazzo_below": 2}),
        ("calabresella", {"stramazzo_below": "3"}),
        ("calabresella", {"stramazzo_below": 1}),  # refused: it matches no source
        ("calabresella", {"stramazzo": 3}),
        ("calabresella", {"stramazzo": "none"}),
        ("calabresella", {"follow_suit": "no"}),
    ],
)
def test_invalid_ruleset_options_raise_ruleset_error(name: str, options: dict[str, object]) -> None:
    """An unknown or invalid option raises RulesetError, by name or from the class."""
    with pytest.raises(cb.RulesetError):
        cb.find_ruleset(name, **options)
    cls = cb.Cavendish if name == "cavendish" else cb.Calabresella
    with pytest.raises(cb.RulesetError):
        cls(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("cavendish", {"bogus": 1}),
        ("cavendish", {"auction": "single_round"}),  # a Calabresella option
        ("calabresella", {"bogus": True}),
        ("calabresella", {"first_lead": "after_declarer"}),  # a Cavendish value
    ],
)
def test_find_ruleset_unknown_option_raises_ruleset_error(
    name: str, options: dict[str, object]
) -> None:
    """find_ruleset with an option the ruleset does not have raises RulesetError."""
    with pytest.raises(cb.RulesetError):
        cb.find_ruleset(name, **options)


def test_rulesets_are_frozen_values() -> None:
    """Rulesets are values: equal options compare and hash equal, and cannot be changed."""
    assert cb.Cavendish() == cb.CAVENDISH
    assert hash(cb.Cavendish()) == hash(cb.CAVENDISH)
    assert cb.Calabresella(stramazzo="no_points") != cb.CALABRESELLA
    with pytest.raises(AttributeError):
        cb.CAVENDISH.first_lead = "after_declarer"  # type: ignore[misc]
    assert cb.CAVENDISH.first_lead == "eldest"


def test_deal_from_ruleset_table_size_must_match() -> None:
    """deal_from: three hands for a four-seat ruleset raise RecordError."""
    deal = cb.shuffled_deal(cb.CAVENDISH, seed=1)
    with pytest.raises(cb.RecordError):
        cb.deal_from(cb.Cavendish(players=4), deal.hands, deal.stock, dealer=0)


# --- the public surface ---------------------------------------------------------------------

#: The public names, in the order of ruff's RUF022 (isort-style): constants, classes, functions.
EXPECTED_ALL = [
    "CALABRESELLA",
    "CAVENDISH",
    "DECK",
    "Abandon",
    "Action",
    "Bid",
    "Bonus",
    "CalabrasellaError",
    "Calabresella",
    "Call",
    "Card",
    "CardSet",
    "Cavendish",
    "Contract",
    "CustomAction",
    "Cut",
    "Deal",
    "Discard",
    "Done",
    "Draw",
    "GiveBack",
    "Hidden",
    "IllegalActionError",
    "Match",
    "MatchError",
    "Modifier",
    "NotAnActionError",
    "NotationError",
    "OutOfTurn",
    "Pass",
    "Phase",
    "Play",
    "Raise",
    "Rank",
    "Record",
    "RecordError",
    "Result",
    "Revoke",
    "Ruleset",
    "RulesetError",
    "RulesetOptionError",
    "SeatError",
    "SeedError",
    "Side",
    "State",
    "StateError",
    "Suit",
    "Take",
    "Tally",
    "Transfer",
    "TurnStock",
    "View",
    "action_kinds",
    "apply",
    "chance_outcomes",
    "check",
    "cut_for_seats",
    "deal_from",
    "find_ruleset",
    "from_data",
    "from_json",
    "is_legal",
    "legal_actions",
    "new_deal",
    "parse_action",
    "register_action",
    "register_ruleset",
    "registered_action",
    "registered_ruleset",
    "result_of",
    "rollout",
    "ruleset_names",
    "sample_chance",
    "settle",
    "shuffled_deal",
    "start",
    "to_data",
    "to_json",
    "unregister_action",
    "unregister_ruleset",
    "view",
]


def test_all_is_pinned() -> None:
    """__all__ holds exactly the pinned public names, once each, and each exists."""
    assert len(cb.__all__) == len(set(cb.__all__))
    assert set(cb.__all__) == set(EXPECTED_ALL)
    for name in cb.__all__:
        assert hasattr(cb, name), name


def test_nothing_public_leaks_outside_all() -> None:
    """Every public non-module attribute of the package is in __all__."""
    import types

    public = {
        name
        for name in dir(cb)
        if not name.startswith("_") and not isinstance(getattr(cb, name), types.ModuleType)
    }
    assert public == set(EXPECTED_ALL)


def test_all_is_sorted() -> None:
    """__all__ is sorted (isort-style, as ruff's RUF022 checks: CONSTANTS, Classes, functions)."""

    def key(name: str) -> tuple[int, str]:
        group = 0 if name.isupper() else 1 if name[0].isupper() else 2
        return group, name

    assert sorted(EXPECTED_ALL, key=key) == EXPECTED_ALL  # the pin itself is sorted
    assert cb.__all__ == EXPECTED_ALL


def test_apply_to_a_view_raises_state_error_naming_the_view() -> None:
    """A View cannot be advanced: apply raises StateError (a TypeError), not AttributeError."""
    state = cb.new_deal(cb.CAVENDISH, seed=1)
    with pytest.raises(cb.StateError, match=r"apply\(\) was given a View"):
        cb.apply(state.view(1), cb.Pass())  # type: ignore[arg-type]
    with pytest.raises(cb.StateError, match=r"apply\(\) needs a State, not None"):
        cb.apply(None, cb.Pass())  # type: ignore[arg-type]
    assert isinstance(cb.StateError("x"), TypeError)
    with pytest.raises(cb.StateError, match=r"is_legal\(\) needs a State"):
        cb.is_legal(None, cb.Pass())  # type: ignore[arg-type]


def test_legal_actions_of_a_view_are_the_views_own() -> None:
    """legal_actions(view) returns the view's legal actions; of a non-state it raises StateError."""
    state = cb.new_deal(cb.CAVENDISH, seed=1)
    assert cb.legal_actions(state.view(state.to_move)) == cb.legal_actions(state)  # type: ignore[arg-type]
    assert cb.legal_actions(state.view((state.to_move + 1) % 3)) == ()  # type: ignore[operator]
    with pytest.raises(cb.StateError):
        cb.legal_actions("state")  # type: ignore[arg-type]


def test_action_constructors_read_notation() -> None:
    """Play('Ad'), Bid('solo'), Raise('scegliete'), Draw('5d Jh') equal the typed forms."""
    ad = cb.Card(cb.Suit.COINS, cb.Rank.ACE)
    assert cb.Play("Ad") == cb.Play(ad)
    assert cb.Discard("asso di denari") == cb.Discard(ad)
    assert cb.Bid("SOLO") == cb.Bid(cb.Contract.SOLO)
    assert cb.Raise("scegliete") == cb.Raise(cb.Modifier.SCEGLIETE)
    assert cb.Draw("5d Jh").cards == cb.CardSet.of([cb.Card.parse("5d"), cb.Card.parse("Jh")])


@pytest.mark.parametrize(
    "make",
    [
        lambda: cb.Play(3),  # type: ignore[arg-type]
        lambda: cb.Play("10h"),
        lambda: cb.Bid("grand"),
        lambda: cb.Bid(None),  # type: ignore[arg-type]
        lambda: cb.Raise("solo"),
        lambda: cb.Draw(5),  # type: ignore[arg-type]
        lambda: cb.Call(None),  # type: ignore[arg-type]
    ],
)
def test_action_constructors_reject_bad_fields_with_notation_error(make: Any) -> None:
    """A malformed action field raises NotationError (a ValueError), never TypeError."""
    with pytest.raises(cb.NotationError):
        make()
