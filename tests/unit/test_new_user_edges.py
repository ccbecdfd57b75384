"""Rough edges a new user met (issue 22): what prints, what is read, what an error says."""

from __future__ import annotations

import pytest

import calabrasella as cb


def test_enums_print_as_the_words_of_the_game() -> None:
    """print(state.phase) says the phase, not 7; a contract and a raise print their word."""
    state = cb.new_deal(cb.CAVENDISH, seed=7)
    assert str(state.phase) == "bidding"
    assert str(cb.Phase.GIVING_BACK) == "giving back"
    assert str(cb.Contract.SOLO) == "solo" == str(cb.Bid("solo")).split()[-1]
    assert str(cb.Modifier.SCEGLIETE) == "scegliete"
    assert int(cb.Phase.PLAYING) == 7 and cb.Phase.BIDDING < cb.Phase.OVER  # still an IntEnum


@pytest.mark.parametrize(
    ("text", "code"),
    [("the three of cups", "3h"), ("The King of Swords", "Ks"), ("il tre di coppe", "3h"), ("el rey de oros", "Kd")],
)
def test_a_card_name_may_carry_its_article(text: str, code: str) -> None:
    """An article before a card's name reads as the name without it."""
    assert cb.Card.parse(text) == cb.Card.parse(code)


def test_text_given_as_an_action_says_how_to_read_it() -> None:
    """apply(state, "bid stand") points to parse_action; the error is also a TypeError."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    with pytest.raises(cb.NotAnActionError, match=r"cb\.parse_action\('bid stand'\)") as info:
        cb.apply(state, "bid stand")  # type: ignore[arg-type]
    assert isinstance(info.value, cb.IllegalActionError) and isinstance(info.value, TypeError)
    assert not cb.is_legal(state, "bid stand")  # type: ignore[arg-type]
    with pytest.raises(cb.NotAnActionError, match="NoneType is not an action"):
        cb.apply(state, None)  # type: ignore[arg-type]
    assert cb.apply(state, cb.parse_action("bid stand")) == cb.apply(state, cb.Bid("stand"))


def test_a_ruleset_named_by_a_string_suggests_find_ruleset() -> None:
    """new_deal("cavendish", ...) says how to get the ruleset from its name."""
    with pytest.raises(cb.RulesetError, match=r"cb\.find_ruleset\('cavendish'\)"):
        cb.new_deal("cavendish", seed=1)  # type: ignore[arg-type]
    with pytest.raises(cb.RulesetError, match=r"cb\.find_ruleset\('cavendish'\)"):
        cb.deal_from("cavendish", [], [])  # type: ignore[arg-type]
