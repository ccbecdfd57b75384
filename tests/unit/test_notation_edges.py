"""Rough edges of the notation and of card sets (issue #7, "Bad input and rough edges").

A card written twice, set operators given notation, parse errors that say
what was expected, and the actions module's documentation.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import pytest

import calabrasella as cb
import calabrasella.actions

Card = cb.Card
CardSet = cb.CardSet
P = CardSet.parse


def _message(call: Callable[[], object]) -> str:
    with pytest.raises(cb.NotationError) as info:
        call()
    assert isinstance(info.value, ValueError)
    return str(info.value)


# --- a card written twice -------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["Ad Ad", "Ad Kd Ad", "Ad, Ad", "Ad, ad", "A♦ Ad", "asso di denari, as de oros", "Ad,A-coins"],
)
def test_cardset_parse_rejects_a_card_written_twice(text: str) -> None:
    """A repeated card in notation raises NotationError naming the card and quoting the input."""
    message = _message(lambda: P(text))
    assert "Ad" in message
    assert "twice" in message
    assert repr(text) in message


def test_the_twice_message_shows_both_spellings() -> None:
    """When the two spellings differ, the message shows both."""
    message = _message(lambda: P("asso di denari, Kc, as de oros"))
    assert "'asso di denari'" in message
    assert "'as de oros'" in message


def test_draw_rejects_a_card_written_twice() -> None:
    """Draw("Ad Ad") and Draw(["Ad", "Ad"]) raise instead of drawing one card."""
    assert "Ad" in _message(lambda: cb.Draw("Ad Ad"))
    assert "Ad" in _message(lambda: cb.Draw(["Ad", "Ad"]))
    assert "Kd" in _message(lambda: cb.Draw(["Kd", Card.parse("Kd")]))
    assert "Kd" in _message(lambda: cb.Draw(iter(["Ad", "Kd", "king of coins"])))
    assert cb.Draw(["Ad", "Kd"]).cards == P("Ad Kd")
    assert cb.Draw(P("Ad Kd")).cards == P("Ad Kd")


def test_draw_of_bad_values_still_raises_notation_error() -> None:
    """The duplicate check keeps Draw's NotationError for non-collections and non-cards."""
    for value in (None, 5, ["Ad", 3], ["10h"]):
        with pytest.raises(cb.NotationError):
            cb.Draw(value)  # type: ignore[arg-type]


def test_cardset_of_counts_a_repeated_card_once() -> None:
    """CardSet.of builds a set: a card given twice counts once (deal_from relies on it)."""
    assert CardSet.of(["Ad", "Ad", Card.parse("Ad")]) == P("Ad")
    assert len(CardSet.of(["Ad", "Kd", "Ad"])) == 2


# --- set operators take notation ------------------------------------------------

BASE = "Ad Kd 3s"

#: Ways to write the cards Kd and 4c (or one card) that the operators accept.
OPERANDS: list[tuple[str, Callable[[], Any], str]] = [
    ("str", lambda: "Kd 4c", "Kd 4c"),
    ("names", lambda: "king of coins, quattro di bastoni", "Kd 4c"),
    ("one name", lambda: "king of coins", "Kd"),
    ("list of str", lambda: ["Kd", "4c"], "Kd 4c"),
    ("tuple of cards", lambda: (Card.parse("Kd"), Card.parse("4c")), "Kd 4c"),
    ("set of cards", lambda: {Card.parse("Kd"), Card.parse("4c")}, "Kd 4c"),
    ("frozenset", lambda: frozenset({Card.parse("Kd")}), "Kd"),
    ("generator", lambda: (c for c in ("Kd", "4c")), "Kd 4c"),
    ("card", lambda: Card.parse("Kd"), "Kd"),
    ("empty list", lambda: [], ""),
    ("empty str", lambda: "", ""),
]

SET_OPERATORS = [operator.or_, operator.and_, operator.sub, operator.xor]
COMPARISONS = [operator.le, operator.lt, operator.ge, operator.gt]


@pytest.mark.parametrize(("name", "make", "same"), OPERANDS, ids=[o[0] for o in OPERANDS])
@pytest.mark.parametrize("op", SET_OPERATORS, ids=lambda op: op.__name__)
def test_set_operators_take_notation(
    op: Callable[[Any, Any], Any], name: str, make: Callable[[], Any], same: str
) -> None:
    """cards | "Kd" and friends give what the same operator gives with a CardSet."""
    result = op(P(BASE), make())
    assert type(result) is CardSet
    assert result == op(P(BASE), P(same))


@pytest.mark.parametrize(("name", "make", "same"), OPERANDS, ids=[o[0] for o in OPERANDS])
@pytest.mark.parametrize("op", SET_OPERATORS, ids=lambda op: op.__name__)
def test_reflected_set_operators_take_notation(
    op: Callable[[Any, Any], Any], name: str, make: Callable[[], Any], same: str
) -> None:
    """"Kd" | cards and friends, with the notation on the left, also give a CardSet."""
    result = op(make(), P(BASE))
    assert type(result) is CardSet
    assert result == op(P(same), P(BASE))


@pytest.mark.parametrize(("name", "make", "same"), OPERANDS, ids=[o[0] for o in OPERANDS])
@pytest.mark.parametrize("op", COMPARISONS, ids=lambda op: op.__name__)
def test_subset_comparisons_take_notation(
    op: Callable[[Any, Any], Any], name: str, make: Callable[[], Any], same: str
) -> None:
    """<= < >= > compare with notation as with the CardSet it names, on either side."""
    for cards in (P(BASE), P(same), P("Kd"), CardSet(), CardSet.all()):
        assert op(cards, make()) is op(cards, P(same))
        assert op(make(), cards) is op(P(same), cards)


def test_operators_examples() -> None:
    """The examples of issue #7 work."""
    assert P("Ad") | "Kd" == P("Ad Kd")
    assert P("Ad") - ["Ad"] == CardSet()
    assert P("Ad Kd") & Card.parse("Kd") == P("Kd")
    assert P("Ad Kd") ^ "Kd 4c" == P("Ad 4c")
    assert P("Ad") <= "Ad Kd"
    assert "Kd" | P("Ad") == P("Ad Kd")
    assert ["Ad", "Kd"] - P("Ad") == P("Kd")


@pytest.mark.parametrize("value", [None, 5, 1.5, b"Ad", object(), cb.Suit.COINS, cb.Rank.ACE])
@pytest.mark.parametrize("op", SET_OPERATORS + COMPARISONS, ids=lambda op: op.__name__)
def test_operators_with_other_types_raise_type_error(
    op: Callable[[Any, Any], Any], value: object
) -> None:
    """Anything that is neither cards nor notation still raises TypeError, on either side."""
    with pytest.raises(TypeError):
        op(P(BASE), value)
    with pytest.raises(TypeError):
        op(value, P(BASE))


@pytest.mark.parametrize("op", SET_OPERATORS + COMPARISONS, ids=lambda op: op.__name__)
@pytest.mark.parametrize("value", ["Xd", "Ad 10h", ["Ad", 3], ["Ad", None]])
def test_operators_with_bad_notation_raise_notation_error(
    op: Callable[[Any, Any], Any], value: object
) -> None:
    """Notation that names no card raises NotationError, as CardSet.of and parse do."""
    with pytest.raises(cb.NotationError):
        op(P(BASE), value)


def test_equality_stays_between_card_sets() -> None:
    """== is not widened: a set of cards is not equal to its notation."""
    text: object = "Ad"
    codes: object = ["Ad"]
    assert P("Ad") != text
    assert P("Ad") != codes
    assert P("Ad") <= "Ad" and P("Ad") >= "Ad"


def test_a_subclass_of_cardset_still_combines() -> None:
    """A CardSet subclass on either side still works and gives a CardSet."""

    class Hand(CardSet):
        pass

    hand = Hand(P("Ad Kd").mask)
    assert P("Ad") | hand == P("Ad Kd")
    assert hand - P("Ad") == P("Kd")
    assert P("Ad") <= hand
    assert type(hand | P("4c")) is CardSet


# --- parse errors say what was expected -----------------------------------------


@pytest.mark.parametrize(
    "text", ["Ad Kd", "Ad, Kd", "ace of coins king of cups", "asso di denari, re di coppe", "3d 2d Ad"]
)
def test_card_parse_of_several_cards_says_so(text: str) -> None:
    """Card.parse of several cards says it reads one card and points to CardSet.parse."""
    message = _message(lambda: Card.parse(text))
    assert repr(text) in message
    assert "several cards" in message
    assert "CardSet.parse" in message
    assert "no rank" not in message


@pytest.mark.parametrize(
    ("text", "example", "code"),
    [
        ("asso", "asso di denari", "Ad"),
        ("Asso", "asso di denari", "Ad"),
        ("king", "king of coins", "Kd"),
        ("rey", "rey de oros", "Kd"),
        ("re", "re di denari", "Kd"),
        ("tre", "tre di denari", "3d"),
        ("tre di", "tre di denari", "3d"),
        ("ace of", "ace of coins", "Ad"),
        ("seven", "seven of coins", "7d"),
    ],
)
def test_card_parse_of_a_rank_alone_asks_for_a_suit(text: str, example: str, code: str) -> None:
    """A rank without a suit says so and shows the card with a suit, in the same language."""
    message = _message(lambda: Card.parse(text))
    assert f"not a card: {text!r}" in message
    assert "rank alone" in message
    assert repr(example) in message
    assert repr(code) in message
    assert Card.parse(example) == Card.parse(code)


@pytest.mark.parametrize("text", ["A", "K", "7", "donna", "deuce"])
def test_card_parse_of_a_rank_character_or_synonym_alone(text: str) -> None:
    """A rank character or synonym alone also asks for a suit, with a code as example."""
    message = _message(lambda: Card.parse(text))
    assert "rank alone" in message
    assert repr(text) in message


@pytest.mark.parametrize(
    ("text", "example"),
    [("denari", "asso di denari"), ("of coins", "ace of coins"), ("oros", "as de oros"), ("d", "Ad")],
)
def test_card_parse_of_a_suit_alone_asks_for_a_rank(text: str, example: str) -> None:
    """A suit without a rank says so and shows a card of that suit."""
    message = _message(lambda: Card.parse(text))
    assert "suit alone" in message
    assert repr(example) in message
    assert repr(text) in message


@pytest.mark.parametrize(
    ("text", "rewritten"),
    [
        ("ace of coins king of cups", "ace of coins, king of cups"),
        ("asso di denari re di coppe tre di spade", "asso di denari, re di coppe, tre di spade"),
        ("Ad king of cups", "Ad, king of cups"),
        ("as de oros 3s", "as de oros, 3s"),
    ],
)
def test_cardset_parse_of_names_without_commas_says_to_use_commas(text: str, rewritten: str) -> None:
    """Several names without commas: the message says names are separated by commas, and how."""
    message = _message(lambda: P(text))
    assert repr(text) in message
    assert f"names of cards are separated by commas: {rewritten!r}" in message
    assert "not a card: 'ace'" not in message
    P(rewritten)  # the advice is true: the rewritten text parses


@pytest.mark.parametrize(
    ("text", "rewritten"),
    [("Ad,Kd Qd", "Ad, Kd, Qd"), ("Ad Kd, 3s", "Ad, Kd, 3s"), ("ace of coins, Kd Qd", "ace of coins, Kd, Qd")],
)
def test_cardset_parse_with_commas_and_spaces_between_cards(text: str, rewritten: str) -> None:
    """With commas, every card is between commas: the message says so and shows how."""
    message = _message(lambda: P(text))
    assert repr(text) in message
    assert repr(rewritten) in message
    assert "comma" in message
    P(rewritten)


def test_cardset_parse_of_one_name_without_commas() -> None:
    """One card's name is a list of one card: no comma is needed."""
    assert P("ace of coins") == P("Ad")
    assert P(" asso di denari ") == P("Ad")
    assert P("as de oros") == P("Ad")


@pytest.mark.parametrize(
    ("text", "part", "words"),
    [
        ("Ad Xx", "Xx", "no rank"),
        ("3d 9d", "9d", "no rank '9'"),
        ("Ad, 10h", "10h", "no rank '10'"),
        ("Ad asso", "asso", "rank alone"),
        ("ace of coins, of", "of", ""),
        ("tre di", "tre di", "rank alone"),
        ("ace of", "ace of", "rank alone"),
        ("of coins", "of coins", "suit alone"),
    ],
)
def test_cardset_parse_names_the_bad_part(text: str, part: str, words: str) -> None:
    """A part that names no card is quoted with the whole input and the reason."""
    message = _message(lambda: P(text))
    assert repr(part) in message
    assert repr(text) in message
    assert words in message


@pytest.mark.parametrize(
    "text", ["asso", "Ad Kd Ad", "ace of coins king of cups", "tre di", "of coins", "d", "Ad,Kd Qd", "AdKd"]
)
@pytest.mark.parametrize("parse", [Card.parse, P], ids=["Card.parse", "CardSet.parse"])
def test_every_parse_error_quotes_its_input(text: str, parse: Callable[[str], object]) -> None:
    """Card.parse and CardSet.parse errors always quote the input text."""
    assert repr(text) in _message(lambda: parse(text))


# --- card ordering ---------------------------------------------------------------


def test_card_ordering_is_by_canonical_index_for_every_pair() -> None:
    """< <= > >= order cards by their index, for all 1600 pairs."""
    for a, b in itertools.product(cb.DECK, repeat=2):
        assert (a < b) is (a.index < b.index)
        assert (a <= b) is (a.index <= b.index)
        assert (a > b) is (a.index > b.index)
        assert (a >= b) is (a.index >= b.index)
        assert (a == b) is (a.index == b.index)
        assert (a != b) is (a.index != b.index)


@pytest.mark.parametrize("value", ["Ad", 3, None, cb.Suit.COINS, P("Ad")])
def test_card_compares_only_with_cards(value: object) -> None:
    """A card's comparisons return NotImplemented for anything but a card."""
    card = Card.parse("Ad")
    for name in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        assert getattr(card, name)(value) is NotImplemented
    assert card != value


@pytest.mark.parametrize("value", ["Ad", 3, None, cb.Suit.COINS])
def test_ordering_a_card_with_a_non_card_raises_type_error(value: Any) -> None:
    """Ordering a card against a string, a number or None raises TypeError."""
    for op in COMPARISONS:
        with pytest.raises(TypeError):
            op(Card.parse("Ad"), value)
        with pytest.raises(TypeError):
            op(value, Card.parse("Ad"))


def test_a_card_against_a_card_set_compares_as_a_one_card_set() -> None:
    """Card declines, so the card set's comparison answers: the card is a one-card set."""
    assert Card.parse("Ad") <= P("Ad Kd")
    assert Card.parse("Ad") < P("Ad Kd")
    assert not Card.parse("4c") <= P("Ad Kd")
    assert P("Ad Kd") > Card.parse("Kd")


# --- documentation of the actions module ------------------------------------------


def test_actions_module_doc_is_markdown_and_names_only_public_things() -> None:
    """The module docstring's table is a Markdown table; it names no private helper."""
    doc = calabrasella.actions.__doc__ or ""
    assert "=====" not in doc
    assert "| Action" in doc
    assert "| --- |" in doc or "|---|" in doc or "| ---" in doc
    assert "play_of" not in doc
    rows = [line for line in doc.splitlines() if line.startswith("| `")]
    names = {row.split("`")[1].split("(")[0] for row in rows}
    classes = {n for n in calabrasella.actions.__all__ if n[0].isupper() and not n.isupper()}  # classes, not tables
    assert names == classes - {"Action", "Contract", "Modifier", "JsonValue"}  # enums, type aliases
