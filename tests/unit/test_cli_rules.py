"""``calabrasella rules``: every registered ruleset with its options, defaults, values and sources.

The expected values come from the rules page's options table (docs/rules.md).
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

import attrs
import pytest

import calabrasella as cb
from calabrasella import cli
from calabrasella.rulesets import choice


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


# (ruleset, option, default, the other values, seeds cited), from docs/rules.md's table
TABLE = [
    ("cavendish", "players", 3, [4], ["000", "002"]),
    ("cavendish", "packet", 4, [1, 2, 3, 6, 12], ["000", "002"]),
    ("cavendish", "first_lead", "eldest", ["after_declarer"], ["000", "001", "002"]),
    ("cavendish", "dealer_shares", True, [False], ["000"]),
    ("cavendish", "irregularities", "forbid", ["record"], ["000"]),
    ("calabresella", "players", 3, [4], ["002"]),
    ("calabresella", "dealer_shares", False, [True], ["002"]),
    ("calabresella", "auction", "single_round", ["until_two_pass"], ["002", "003", "004"]),
    ("calabresella", "callable", "any_unheld", ["threes_then_twos"], ["003", "004", "002"]),
    ("calabresella", "give_back", "face_up", ["face_down"], ["003", "002"]),
    ("calabresella", "solo_monte_exposed", True, [False], ["002", "003", "004"]),
    ("calabresella", "first_lead", "declarer", ["eldest_except_solissimo"], ["003", "002", "004"]),
    ("calabresella", "stramazzo", "under_a_point", ["no_card_points", "no_points"], ["003", "002", "004"]),
    ("calabresella", "follow_suit", True, [False], ["002", "003", "004"]),
]


@pytest.mark.parametrize(("name", "option", "default", "others", "seeds"), TABLE)
def test_each_option_is_listed_with_its_default_values_and_sources(
    name: str,
    option: str,
    default: object,
    others: list[object],
    seeds: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    info = {o.name: o for o in cli.option_info(cb.find_ruleset(name))}[option]
    assert info.default == default
    assert [v for v in info.values if v != default] == others
    assert list(info.seeds) == seeds
    text = run(["rules", name], capsys)
    line = f"  {option}={default}  (or {', '.join(map(str, others))})\n"
    assert line in text
    if seeds:
        after = text.split(line, 1)[1].splitlines()[0]
        assert after.startswith("      ") and after.strip()


def test_every_registered_ruleset_and_option_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(["rules"], capsys)
    for name in cb.ruleset_names():
        rules = cb.find_ruleset(name)
        assert f"\n{name}: {rules.terms.title}, rules version {rules.version}\n" in text
        for option, value in rules.options().items():
            assert f"\n  {option}={value}" in text
    assert text.index("\ncalabresella:") < text.index("\ncavendish:")
    # the rule texts are named by author and year, never "seed 000" (a reader
    # takes "seed" for a random seed)
    for name, source in [("Foster 1897", "Foster's Complete Hoyle"), ("Rules page 2024", "Objective of Calabresella")]:
        assert f"\n  {name}: " in text and source in text
    assert re.search(r"\bseeds? \d{3}", text) is None
    assert text == cli.rules_text()


def test_a_ruleset_registered_by_a_user_is_listed_with_its_own_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    @attrs.frozen(kw_only=True)
    class House(cb.Cavendish):
        """House rules: Cavendish with a stake.

        Attributes:
            stake: ``"low"`` (default, the house's) or ``"high"`` (seed 001).
        """

        name: ClassVar[str] = "house"
        stake: Literal["low", "high"] = attrs.field(default="low", validator=choice("low", "high"))

    with cb.registered_ruleset(House):
        text = run(["rules", "house"], capsys)
    assert text.splitlines()[3:5] == [
        "house: Calabrasella (Cavendish), rules version 2",
        "  House rules: Cavendish with a stake.",
    ]
    assert '  stake=low  (or high)\n      "low" (default, the house\'s) or "high" (Denexa Games).\n' in text
    assert "  first_lead=eldest  (or after_declarer)\n" in text  # the inherited options too
    assert "  Denexa Games: the rules of Calabrasella by Denexa Games, a maker of playing cards (undated)\n" in text


@pytest.mark.parametrize("argv", [["rules", "skat"], ["rules", "cavendish", "scopa"]])
def test_an_unknown_name_exits_2_with_one_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines()[-1].startswith("calabrasella rules: error: no ruleset named ")
    assert "Traceback" not in err


def test_option_values_are_read_by_the_type_of_their_default() -> None:
    assert cli.parse_option_values(cb.CAVENDISH, ["players=4", "dealer_shares=off"]) == {
        "players": 4,
        "dealer_shares": False,
    }
    assert cli.parse_option_values(cb.CALABRESELLA, [" auction = until_two_pass "]) == {
        "auction": "until_two_pass"
    }
    assert cli.parse_option_values(cb.CAVENDISH, ["colour=red"]) == {"colour": "red"}
    for bad, message in [
        ("players", "expected KEY=VALUE"),
        ("=4", "expected KEY=VALUE"),
        ("players=", "players=: expected a whole number"),
        ("dealer_shares=maybe", "dealer_shares=maybe: expected true or false"),
    ]:
        with pytest.raises(cb.RulesetError, match=message):
            cli.parse_option_values(cb.CAVENDISH, [bad])
