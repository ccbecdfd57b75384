"""Bad input and rough edges (issue #7): each test failed before its fix."""

from __future__ import annotations

import copy
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import attrs
import pytest

import calabrasella as cb
import calabrasella.actions
import calabrasella.scoring
from calabrasella.errors import RulesetOptionError
from calabrasella.rulesets import choice

SEAT_5_OF_3 = "seat 5: expected 0..2 at a table of 3"
SEAT_5_OF_4 = "seat 5: expected 0..3 at a table of 4"


def _cavendish() -> cb.State:
    return cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)


def _dividete_draw() -> cb.State:
    """A Calabresella deal at dividete's draw: the eldest bids solissimo, it is raised."""
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=1)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    state = cb.apply(state, cb.Raise(cb.Modifier.DIVIDETE))
    assert state.phase is cb.Phase.DRAWING
    assert state.to_move is None
    return state


# --- item 1: a View where a State is needed --------------------------------------------


def test_is_legal_answers_for_a_view() -> None:
    state = _cavendish()
    to_move = state.to_move
    assert to_move is not None
    assert cb.is_legal(state, cb.Pass())
    assert cb.is_legal(state.view(to_move), cb.Pass())
    for seat in range(state.players):
        if seat != to_move:
            assert not cb.is_legal(state.view(seat), cb.Pass())
    assert not cb.is_legal(state.view(to_move), cb.Done())
    assert not cb.is_legal(state.view(to_move), cast(cb.Action, ["not", "hashable"]))


@pytest.mark.parametrize(
    ("function", "call"),
    [
        ("check", lambda v: cb.check(v, cb.Pass())),
        ("apply", lambda v: cb.apply(v, cb.Pass())),
        ("legal_actions", lambda v: cb.legal_actions(cast(Any, "junk"))),
        ("chance_outcomes", lambda v: cb.chance_outcomes(cast(Any, None))),
        ("view", lambda v: cb.view(v, 0)),
    ],
)
def test_state_error_names_the_function(function: str, call: Any) -> None:
    state = _cavendish()
    with pytest.raises(cb.StateError, match=rf"^{function}\(\)") as info:
        call(state.view(0))
    assert isinstance(info.value, TypeError)


def test_check_and_apply_on_a_view_say_it_is_a_view() -> None:
    view = _cavendish().view(1)
    for name, fn in (("check", cb.check), ("apply", cb.apply)):
        with pytest.raises(cb.StateError, match="given a View") as info:
            fn(cast(Any, view), cb.Pass())
        assert str(info.value).startswith(f"{name}()")


# --- item 1: seats -----------------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 3, 7])
def test_state_hand_rejects_a_seat_not_at_the_table(seat: int) -> None:
    state = _cavendish()
    with pytest.raises(cb.SeatError, match=rf"^seat {seat}: expected 0\.\.2 at a table of 3$"):
        state.hand(seat)


def test_every_seat_check_has_the_same_wording() -> None:
    state = _cavendish()
    deal = cb.shuffled_deal(cb.CAVENDISH, seed=3)
    calls: list[Callable[[], object]] = [
        lambda: state.hand(5),
        lambda: state.view(5),
        lambda: cb.view(state, 5),
        lambda: cb.new_deal(cb.CAVENDISH, dealer=5, seed=1),
        lambda: cb.deal_from(cb.CAVENDISH, deal.hands, deal.stock, dealer=5),
    ]
    for call in calls:
        with pytest.raises(cb.SeatError) as info:
            call()
        assert str(info.value) == SEAT_5_OF_3
        assert isinstance(info.value, IndexError)
        assert isinstance(info.value, ValueError)


def test_seat_wording_at_a_table_of_four() -> None:
    four = cb.Cavendish(players=4)
    with pytest.raises(cb.SeatError) as info:
        cb.new_deal(four, dealer=5, seed=1)
    assert str(info.value) == SEAT_5_OF_4
    state = cb.new_deal(four, dealer=0, seed=1)
    with pytest.raises(cb.SeatError) as info:
        state.hand(5)
    assert str(info.value) == SEAT_5_OF_4


# --- item 1: chance ----------------------------------------------------------------------


def test_sample_chance_takes_an_int_seed() -> None:
    state = _dividete_draw()
    draw = cb.sample_chance(state, 1)
    assert draw in cb.chance_outcomes(state)
    assert draw == cb.sample_chance(state, random.Random(1))
    assert cb.apply(state, draw).history[-1][1] == draw


@pytest.mark.parametrize("seed", ["x", 1.5, None, True])
def test_sample_chance_rejects_a_seed_that_is_not_one(seed: object) -> None:
    with pytest.raises(cb.SeedError) as info:
        cb.sample_chance(_dividete_draw(), cast(Any, seed))
    assert isinstance(info.value, TypeError)


def test_sample_chance_outside_a_chance_node_says_why() -> None:
    state = _cavendish()
    with pytest.raises(cb.IllegalActionError) as info:
        cb.sample_chance(state, 1)
    assert "no chance outcome" in info.value.reason
    assert f"seat {state.to_move} is to act" in info.value.reason


# --- item 2: a ruleset built with a wrong option -------------------------------------------


@attrs.frozen(kw_only=True)
class _Strict(cb.Cavendish):
    """A variant defined outside the package, with an option that has no default."""

    name = "strict"
    house: str = attrs.field(validator=choice("a", "b"))


def _build(cls: type[cb.Ruleset], *args: object, **options: object) -> cb.Ruleset:
    return cast(Any, cls)(*args, **options)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (lambda: _build(cb.Calabresella, bogus_option=1), ["Calabresella()", "'bogus_option'"]),
        (lambda: _build(cb.Cavendish, auction="single_round"), ["Cavendish()", "'auction'"]),
        (lambda: _build(cb.Cavendish, 3), ["Cavendish()", "by keyword"]),
        (lambda: _build(_Strict), ["_Strict()", "needs 'house'"]),
        (lambda: _build(_Strict, house="a", nope=1, nah=2), ["_Strict()", "options 'nope', 'nah'"]),
    ],
)
def test_unknown_or_missing_option_is_a_ruleset_error_and_a_type_error(
    build: Callable[[], object], words: list[str]
) -> None:
    with pytest.raises(cb.RulesetError) as info:
        build()
    assert isinstance(info.value, TypeError)
    assert isinstance(info.value, RulesetOptionError)
    for word in words:
        assert word in str(info.value)
    assert "its options: players, packet" in str(info.value)


def test_a_variant_still_builds_copies_and_pickles() -> None:
    strict = _Strict(house="b")
    assert strict.house == "b"
    assert pickle.loads(pickle.dumps(cb.CALABRESELLA)) == cb.CALABRESELLA
    assert copy.deepcopy(strict) == strict
    assert attrs.evolve(strict, house="a").house == "a"
    with pytest.raises(cb.RulesetError, match="expected one of"):
        _Strict(house="c")
    with pytest.raises(TypeError, match="abstract"):
        cb.Ruleset()  # type: ignore[abstract]


def test_find_ruleset_unknown_option_names_the_options() -> None:
    with pytest.raises(cb.RulesetError, match=r"has no option 'nope' \(its options: players"):
        cb.find_ruleset("calabresella", nope=1)


# --- item 3: names kept ----------------------------------------------------------------------


def test_callable_option_keeps_its_name_in_records() -> None:
    rules = cb.Calabresella(callable="threes_then_twos")
    assert rules.options()["callable"] == "threes_then_twos"
    assert cb.find_ruleset("calabresella", **rules.options()) == rules
    assert "callable" in (cb.Calabresella.__doc__ or "")
    assert "check_action" in (cb.check.__doc__ or "")


# --- item 4: the surface ---------------------------------------------------------------------


def test_scoring_helpers_are_top_level() -> None:
    assert cb.result_of is calabrasella.scoring.result_of
    assert cb.settle is calabrasella.scoring.settle
    assert {"result_of", "settle"} <= set(cb.__all__)
    assert not hasattr(calabrasella.actions, "play_of")


def test_api_page_lists_the_public_names() -> None:
    docs = Path(__file__).parents[2] / "docs"
    page = "".join(p.read_text(encoding="utf-8") for p in [docs / "api.md", *sorted((docs / "reference").glob("*.md"))])
    listed = set(re.findall(r"^\s+- (\w+)$", page, flags=re.MULTILINE))
    wanted = {
        "result_of", "settle", "start", "view", "Terms", "Calls", "choice", "flag",
        "Step", "Role", "Exchange", "registered_ruleset", "CallStep", "GiveBackStep",
        "DiscardStep", "ExposeStep", "TakeStep", "RaiseStep", "DrawStep",
    }  # fmt: skip
    assert wanted <= listed, wanted - listed
    assert "::: calabrasella.rulesets.protocol.Work" in page
    assert "::: calabrasella.errors" in page  # SeatError, SeedError, RulesetOptionError


# --- item 5: one closing note, one pluraliser --------------------------------------------------


def test_result_of_writes_the_closing_note() -> None:
    tally = cb.Tally(
        players=3, dealer=0, declarer=1, contract=cb.Contract.STAND, modifier=None,
        declarer_card_units=10, adversary_card_units=22, stock_units=0,
        declarer_last=False, declarer_tricks=4, adversary_tricks=8,
    )  # fmt: skip
    lost = cb.result_of(
        tally,
        declarer_won=False,
        base=9,
        multiplier=2,
        notes=("why",),
        dealer_shares=True,
        who="he",
    )
    assert lost.notes == ("why", "he loses 18 to each")
    assert lost.payments == (18, -36, 18)
    plain = cb.result_of(tally, declarer_won=False, base=9, dealer_shares=True)
    assert plain.notes == ()
    assert cb.CAVENDISH.score(tally).notes[-1] == "he loses 15 to each"


def test_one_pluralising_helper() -> None:
    import calabrasella.rulesets.calabresella as calabresella_module

    assert calabrasella.scoring.plural(1, "card unit") == "1 card unit"
    assert calabrasella.scoring.plural(2, "card unit") == "2 card units"
    assert not hasattr(calabresella_module, "_count")


def test_shipped_docstrings_cite_the_docs_not_rules_md() -> None:
    """The package cites the docs' rules page, not RULES.md (which it does not ship)."""
    package = Path(cb.__file__).parent
    citing = [p.name for p in package.rglob("*.py") if "RULES.md" in p.read_text(encoding="utf-8")]
    assert citing == []
