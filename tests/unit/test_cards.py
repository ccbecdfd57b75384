"""Cards, suits, ranks, card units, notation and card sets (RULES.md, "Common to every ruleset").

Every expected value here is written out by hand from RULES.md (or from the
documented notation), never computed with the code under test.
"""

from __future__ import annotations

import copy
import pickle

import pytest

import calabrasella as cb

Card = cb.Card
CardSet = cb.CardSet
Rank = cb.Rank
Suit = cb.Suit

#: The 40 canonical codes in the library's fixed card order: coins, cups,
#: swords, batons, each suit from the strongest rank (3) to the weakest (4).
CANONICAL_CODES = [rank + suit for suit in "dhsc" for rank in "32AKQJ7654"]

#: Ranks from the strongest to the weakest, with their characters and units.
RANKS_HIGH_TO_LOW = (
    (Rank.THREE, "3", 1),
    (Rank.TWO, "2", 1),
    (Rank.ACE, "A", 3),
    (Rank.KING, "K", 1),
    (Rank.QUEEN, "Q", 1),
    (Rank.JACK, "J", 1),
    (Rank.SEVEN, "7", 0),
    (Rank.SIX, "6", 0),
    (Rank.FIVE, "5", 0),
    (Rank.FOUR, "4", 0),
)

SUITS = (
    # suit, letter, symbol, English (Italian pack), Italian, Spanish, French-pack English
    (Suit.COINS, "d", "♦", "coins", "denari", "oros", "diamonds"),
    (Suit.CUPS, "h", "♥", "cups", "coppe", "copas", "hearts"),
    (Suit.SWORDS, "s", "♠", "swords", "spade", "espadas", "spades"),
    (Suit.BATONS, "c", "♣", "batons", "bastoni", "bastos", "clubs"),
)

RANK_NAMES = {
    # rank char: (English, Italian, Spanish)
    "3": ("three", "tre", "tres"),
    "2": ("two", "due", "dos"),
    "A": ("ace", "asso", "as"),
    "K": ("king", "re", "rey"),
    "Q": ("queen", "cavallo", "caballo"),
    "J": ("jack", "fante", "sota"),
    "7": ("seven", "sette", "siete"),
    "6": ("six", "sei", "seis"),
    "5": ("five", "cinque", "cinco"),
    "4": ("four", "quattro", "cuatro"),
}


def _card(code: str) -> Card:
    return Card.parse(code)


# --- the deck -------------------------------------------------------------


def test_deck_has_forty_distinct_cards_four_suits_of_ten_ranks() -> None:
    """The pack is 40 cards: 4 suits x 10 ranks, each card once."""
    assert len(cb.DECK) == 40
    assert len(set(cb.DECK)) == 40
    assert len(Suit) == 4
    assert len(Rank) == 10
    for suit, *_ in SUITS:
        assert sum(1 for card in cb.DECK if card.suit is suit) == 10
    for rank, _, _ in RANKS_HIGH_TO_LOW:
        assert sum(1 for card in cb.DECK if card.rank is rank) == 4


def test_deck_is_in_the_documented_canonical_order() -> None:
    """DECK lists coins, cups, swords, batons, each from the 3 down to the 4."""
    assert [card.code for card in cb.DECK] == CANONICAL_CODES


def test_card_index_is_its_place_in_the_deck() -> None:
    """DECK[i].index == i and Card.from_index(i) is DECK[i]."""
    for i, code in enumerate(CANONICAL_CODES):
        assert cb.DECK[i].index == i
        assert Card.from_index(i) == _card(code)


def test_no_tens_nines_or_eights_in_the_pack() -> None:
    """The 40-card pack has no 10s, 9s or 8s."""
    for text in ("10d", "9h", "8s", "Tc", "10 of coins", "nine of cups", "otto di spade"):
        with pytest.raises(cb.NotationError):
            Card.parse(text)


# --- rank order -------------------------------------------------------------


def test_rank_order_is_3_2_A_K_Q_J_7_6_5_4() -> None:
    """Rank order high to low: 3 2 A K Q J 7 6 5 4 (RULES.md, Deck)."""
    ranks = [rank for rank, _, _ in RANKS_HIGH_TO_LOW]
    for i in range(9):
        assert ranks[i] > ranks[i + 1]
    assert sorted(Rank, reverse=True) == ranks
    assert "".join(rank.char for rank in sorted(Rank, reverse=True)) == "32AKQJ7654"


@pytest.mark.parametrize(("rank", "char", "units"), RANKS_HIGH_TO_LOW)
def test_rank_character(rank: Rank, char: str, units: int) -> None:
    """Each rank has its one-character code."""
    assert rank.char == char
    assert Rank.parse(char) is rank


def test_higher_card_of_same_suit_beats_lower() -> None:
    """The same order decides tricks: within a suit the higher rank wins."""
    assert _card("3s").beats(_card("2s"))
    assert _card("2s").beats(_card("As"))
    assert _card("As").beats(_card("Ks"))
    assert _card("Ks").beats(_card("Qs"))
    assert _card("Qs").beats(_card("Js"))
    assert _card("Js").beats(_card("7s"))
    assert _card("7s").beats(_card("6s"))
    assert _card("6s").beats(_card("5s"))
    assert _card("5s").beats(_card("4s"))
    assert not _card("4s").beats(_card("5s"))
    assert not _card("As").beats(_card("2s"))
    assert not _card("Ks").beats(_card("Ks"))


def test_no_trumps_a_card_of_another_suit_never_beats() -> None:
    """Suits are equal, there are no trumps: another suit never beats the card led."""
    for high in ("3d", "3h", "3s", "3c"):
        for led in ("4d", "4h", "4s", "4c"):
            if high[1] != led[1]:
                assert not _card(high).beats(_card(led))


# --- units --------------------------------------------------------------------


@pytest.mark.parametrize(("rank", "char", "units"), RANKS_HIGH_TO_LOW)
def test_units_per_rank(rank: Rank, char: str, units: int) -> None:
    """Card points in thirds: ace 3; 3, 2, K, Q, J 1; 7, 6, 5, 4 0."""
    assert rank.units == units
    for letter in "dhsc":
        assert _card(char + letter).units == units


def test_pack_totals_32_units_and_8_per_suit() -> None:
    """The cards total 32 units (8 per suit: 3 + 5 x 1)."""
    assert CardSet.all().units == 32
    for suit, *_ in SUITS:
        assert CardSet.all().suit(suit).units == 8
    assert sum(card.units for card in cb.DECK) == 32


def test_cardset_units_adds_card_units() -> None:
    """A set's units are the sum of its cards' units."""
    assert CardSet.parse("Ad As Ac Ah").units == 12
    assert CardSet.parse("3d 2h Ks Qc Jd").units == 5
    assert CardSet.parse("7d 6h 5s 4c").units == 0
    assert CardSet.parse("Ad 3d 7d").units == 4
    assert CardSet().units == 0


# --- suits --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("suit", "letter", "symbol", "english", "italian", "spanish", "french"), SUITS
)
def test_suit_notation(
    suit: Suit, letter: str, symbol: str, english: str, italian: str, spanish: str, french: str
) -> None:
    """A suit has a letter, a Unicode symbol and an Italian name, and parses from each name."""
    assert suit.letter == letter
    assert suit.symbol == symbol
    assert suit.italian == italian
    spellings = (letter, symbol, english, italian, spanish, french, english.upper(), f" {italian} ")
    for text in spellings:
        assert Suit.parse(text) is suit


def test_suit_values_follow_canonical_order() -> None:
    """Suit values are coins 0, cups 1, swords 2, batons 3."""
    assert [int(s) for s in (Suit.COINS, Suit.CUPS, Suit.SWORDS, Suit.BATONS)] == [0, 1, 2, 3]


@pytest.mark.parametrize("char", list(RANK_NAMES))
def test_rank_parses_english_italian_spanish(char: str) -> None:
    """A rank parses from its character and its English, Italian and Spanish names."""
    expected = next(rank for rank, c, _ in RANKS_HIGH_TO_LOW if c == char)
    for name in (char, *RANK_NAMES[char]):
        assert Rank.parse(name) is expected
        assert Rank.parse(name.upper()) is expected


# --- card notation ------------------------------------------------------------


def test_canonical_code_str_and_repr() -> None:
    """A card's canonical code is rank then suit letter ("Ad"); str gives it, repr pastes."""
    ace = Card(Suit.COINS, Rank.ACE)
    assert ace.code == "Ad"
    assert str(ace) == "Ad"
    assert repr(ace) == "Card.parse('Ad')"
    assert ace.symbol == "A♦"
    assert ace.name == "ace of coins"
    assert ace.italian == "asso di denari"
    assert str(Card(Suit.BATONS, Rank.QUEEN)) == "Qc"
    assert Card(Suit.BATONS, Rank.QUEEN).italian == "cavallo di bastoni"
    assert Card(Suit.SWORDS, Rank.JACK).name == "jack of swords"


@pytest.mark.parametrize(
    "text",
    [
        "Ad",
        "ad",
        "AD",
        " Ad ",
        "A♦",
        "a♦",
        "ace of coins",
        "Ace Of Coins",
        "asso di denari",
        "as de oros",
        "A-coins",
        "ace of diamonds",
        "ace_of_coins",
    ],
)
def test_every_accepted_spelling_of_the_ace_of_coins(text: str) -> None:
    """Card.parse reads the code, symbols, English, Italian and Spanish names."""
    assert Card.parse(text) == Card(Suit.COINS, Rank.ACE)


@pytest.mark.parametrize("code", CANONICAL_CODES)
def test_round_trip_of_every_card(code: str) -> None:
    """For all 40 cards, str/parse, symbol, English/Italian/Spanish names and repr round-trip."""
    card = Card.parse(code)
    assert str(card) == code
    assert Card.parse(str(card)) == card
    assert Card.parse(card.symbol) == card
    assert Card.parse(card.name) == card
    assert Card.parse(card.italian) == card
    rank_names = RANK_NAMES[code[0]]
    suit_row = next(row for row in SUITS if row[1] == code[1])
    assert card.name == f"{rank_names[0]} of {suit_row[3]}"
    assert card.italian == f"{rank_names[1]} di {suit_row[4]}"
    assert Card.parse(f"{rank_names[2]} de {suit_row[5]}") == card
    assert card.symbol == code[0] + suit_row[2]
    assert eval(repr(card), {"Card": Card}) == card
    assert pickle.loads(pickle.dumps(card)) == card
    assert copy.deepcopy(card) == card


def test_cards_compare_and_hash_by_value() -> None:
    """Equal cards compare and hash equal; a card is not equal to its code string."""
    assert Card(Suit.CUPS, Rank.KING) == Card.parse("Kh")
    assert hash(Card(Suit.CUPS, Rank.KING)) == hash(Card.parse("Kh"))
    assert Card.parse("Kh") != Card.parse("Ks")
    assert Card.parse("Kh") != "Kh"
    assert len({Card.parse("Kh"), Card.parse("king of cups"), Card.parse("K♥")}) == 1


def test_cards_sort_in_canonical_order() -> None:
    """Cards order in canonical (display) order: coins first, the strongest rank first."""
    shuffled = [Card.parse(c) for c in ("4c", "3d", "Ah", "2d", "Ks", "3c")]
    assert [c.code for c in sorted(shuffled)] == ["3d", "2d", "Ah", "Ks", "3c", "4c"]
    assert Card.parse("4d") < Card.parse("3h")


def test_cards_are_immutable() -> None:
    """A card is a frozen value."""
    card = Card.parse("Ad")
    with pytest.raises(AttributeError):
        card.rank = Rank.TWO  # type: ignore[misc]
    assert card == Card.parse("Ad")


# --- malformed card notation --------------------------------------------------

MALFORMED_CARD_TEXT = [
    "10h",
    "",
    " ",
    "A",
    "d",
    "Ax",
    "9h",
    "8s",
    "Zd",
    "AdKd",
    "Ad Kd",
    "Ad,",
    "3dd",
    "AA",
    "dd",
    "♦A",
    "♦♦",
    "ace of",
    "of coins",
    "ace of trumps",
    "ace coins hearts",
    "tre di",
    "\x00",
    "x" * 500,
]


@pytest.mark.parametrize("text", MALFORMED_CARD_TEXT)
def test_malformed_card_text_raises_notation_error(text: str) -> None:
    """Text that names no card raises NotationError (a ValueError), quoting the input."""
    with pytest.raises(cb.NotationError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, cb.CalabrasellaError)
    assert repr(text)[:40] in str(info.value)


@pytest.mark.parametrize(
    "value", [None, 3, 3.0, b"Ad", ["Ad"], ("A", "d"), {"Ad": 1}, object(), Suit.COINS]
)
def test_card_parse_of_a_non_string_raises_notation_error(value: object) -> None:
    """Card.parse of a non-string raises NotationError, never TypeError/KeyError."""
    with pytest.raises(cb.NotationError):
        Card.parse(value)  # type: ignore[arg-type]


def test_card_parse_of_a_card_raises_notation_error() -> None:
    """Card.parse expects text: a Card argument raises NotationError."""
    with pytest.raises(cb.NotationError):
        Card.parse(Card.parse("Ad"))  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [-1, 40, 41, "1", 1.0, True, None, 2**64])
def test_card_from_bad_index_raises_notation_error(value: object) -> None:
    """Card.from_index accepts only an int 0..39."""
    with pytest.raises(cb.NotationError):
        Card.from_index(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("suit", "rank"),
    [(0, Rank.ACE), (Suit.COINS, 7), ("d", "A"), (None, None), (Rank.ACE, Suit.COINS)],
)
def test_card_constructor_rejects_non_enum_fields(suit: object, rank: object) -> None:
    """Card(suit, rank) validates its fields with NotationError."""
    with pytest.raises(cb.NotationError):
        Card(suit, rank)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["", "x", "10", "eight", "trumps", None, 1, 2.5, b"d"])
def test_malformed_suit_raises_notation_error(value: object) -> None:
    """Suit.parse of anything that names no suit raises NotationError."""
    with pytest.raises(cb.NotationError):
        Suit.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["", "x", "10", "9", "8", "eight", "T", None, 1, 2.5, b"A"])
def test_malformed_rank_raises_notation_error(value: object) -> None:
    """Rank.parse of anything that names no rank of the 40-card pack raises NotationError."""
    with pytest.raises(cb.NotationError):
        Rank.parse(value)  # type: ignore[arg-type]


# --- card sets ----------------------------------------------------------------


def test_cardset_iterates_in_fixed_canonical_order() -> None:
    """A CardSet iterates in canonical order whatever order it was built in."""
    a = CardSet.parse("Kc 3s Ad As 4d 2h")
    b = CardSet.of([Card.parse(c) for c in ("2h", "4d", "As", "Ad", "3s", "Kc")])
    assert [c.code for c in a] == ["Ad", "4d", "2h", "3s", "As", "Kc"]
    assert list(a) == list(b)
    assert str(a) == "Ad 4d 2h 3s As Kc"
    assert a.to_codes() == ["Ad", "4d", "2h", "3s", "As", "Kc"]
    assert [c.code for c in CardSet.all()] == CANONICAL_CODES


def test_cardset_len_bool_and_membership() -> None:
    """len counts the cards, an empty set is falsy, `in` tests a card."""
    hand = CardSet.parse("Ad 3s As Kc")
    assert len(hand) == 4
    assert bool(hand)
    assert not CardSet()
    assert len(CardSet()) == 0
    assert len(CardSet.all()) == 40
    assert Card.parse("3s") in hand
    assert Card.parse("3d") not in hand


def test_cardset_set_operations() -> None:
    """Union, intersection, difference and symmetric difference behave as for sets."""
    a = CardSet.parse("Ad Kd 3s")
    b = CardSet.parse("Kd 3s 4c")
    assert a | b == CardSet.parse("Ad Kd 3s 4c")
    assert a & b == CardSet.parse("Kd 3s")
    assert a - b == CardSet.parse("Ad")
    assert b - a == CardSet.parse("4c")
    assert a ^ b == CardSet.parse("Ad 4c")
    assert a.isdisjoint(CardSet.parse("4c 5c"))
    assert not a.isdisjoint(b)
    assert CardSet.all() - a == CardSet.all() ^ a


def test_cardset_subset_comparisons() -> None:
    """<= and >= are subset/superset; < and > are proper."""
    small = CardSet.parse("Ad")
    big = CardSet.parse("Ad Kd")
    assert small <= big
    assert small < big
    assert big >= small
    assert big > small
    assert big <= big
    assert not big < big
    assert not big <= small
    assert not CardSet.parse("Kd 4c") <= big


def test_cardset_suit_and_with_card() -> None:
    """suit() keeps one suit's cards; with_card() adds one card and leaves the set unchanged."""
    hand = CardSet.parse("Ad 3s As Kc 7s")
    assert hand.suit(Suit.SWORDS) == CardSet.parse("3s As 7s")
    assert hand.suit(Suit.CUPS) == CardSet()
    bigger = hand.with_card(Card.parse("4h"))
    assert bigger == CardSet.parse("Ad 3s As Kc 7s 4h")
    assert hand == CardSet.parse("Ad 3s As Kc 7s")


def test_cardset_equal_and_hash_by_value() -> None:
    """Card sets are values: equal contents compare and hash equal."""
    a = CardSet.parse("Ad 3s")
    b = CardSet.parse("ace of coins, tre di spade")
    c = CardSet.of(["3s", Card.parse("Ad")])
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert a != CardSet.parse("Ad 2s")
    assert len({a, b, c}) == 1


def test_cardset_parse_separators_and_duplicates() -> None:
    """CardSet.parse takes spaces or commas (commas with names); a repeated card is an error."""
    assert CardSet.parse("Ad, 3s") == CardSet.parse("Ad 3s")
    assert CardSet.parse("A♦ 3♠") == CardSet.parse("Ad 3s")
    assert CardSet.parse("asso di denari, tre di spade") == CardSet.parse("Ad 3s")
    assert CardSet.parse("") == CardSet()
    assert CardSet.parse("   ") == CardSet()
    with pytest.raises(cb.NotationError, match="Ad is written twice"):
        CardSet.parse("asso di denari, as de oros")
    with pytest.raises(cb.NotationError, match="Ad is written twice"):
        CardSet.parse("Ad Ad")


def test_cardset_str_parse_and_repr_round_trip() -> None:
    """str/parse and repr round-trip a card set, including the empty and the full set."""
    for text in ("", "Ad", "Kc 3s Ad As", " ".join(CANONICAL_CODES), "4c 4s 4h 4d"):
        cards = CardSet.parse(text)
        assert CardSet.parse(str(cards)) == cards
        assert eval(repr(cards), {"CardSet": CardSet}) == cards
        assert pickle.loads(pickle.dumps(cards)) == cards
    assert str(CardSet.parse("4c 4s 4h 4d")) == "4d 4h 4s 4c"
    assert repr(CardSet()) == "CardSet.parse('')"


def test_cardset_mask_is_bit_per_card_index() -> None:
    """CardSet.mask has bit i for DECK[i]."""
    assert CardSet.parse("3d").mask == 1
    assert CardSet.parse("2d").mask == 2
    assert CardSet.parse("3h").mask == 1 << 10
    assert CardSet.parse("4c").mask == 1 << 39
    assert CardSet(1 | 1 << 39) == CardSet.parse("3d 4c")
    assert CardSet.all().mask == 2**40 - 1


@pytest.mark.parametrize("value", [-1, 2**40, 2**41 + 1, "3", 1.5, True, None, [1]])
def test_cardset_rejects_a_bad_mask(value: object) -> None:
    """CardSet(mask) accepts only an int 0..2**40-1; anything else raises NotationError."""
    with pytest.raises(cb.NotationError):
        CardSet(value)  # type: ignore[arg-type]


def test_cardset_is_immutable() -> None:
    """A CardSet is a frozen value: its mask cannot be reassigned."""
    cards = CardSet.parse("Ad")
    with pytest.raises(AttributeError):
        cards.mask = 3  # type: ignore[misc]
    assert cards == CardSet.parse("Ad")


@pytest.mark.parametrize("text", ["Ad Xx", "Ad, 10h", "Ad,Kd Qd", "3d 9d", "ace of coins, of"])
def test_cardset_parse_of_malformed_text_raises_notation_error(text: str) -> None:
    """CardSet.parse raises NotationError when a part names no card."""
    with pytest.raises(cb.NotationError):
        CardSet.parse(text)


@pytest.mark.parametrize("value", [None, 5, ["Ad"], b"Ad", 1.5])
def test_cardset_parse_of_a_non_string_raises_notation_error(value: object) -> None:
    """CardSet.parse of a non-string raises NotationError, never TypeError."""
    with pytest.raises(cb.NotationError):
        CardSet.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("items", [[None], ["Ad", 3], [1], [b"Ad"], ["Ad", "10h"], [Suit.COINS]])
def test_cardset_of_bad_items_raises_notation_error(items: list[object]) -> None:
    """CardSet.of raises NotationError when an item is not a card."""
    with pytest.raises(cb.NotationError):
        CardSet.of(items)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 5, 1.5])
def test_cardset_of_a_non_collection_raises_notation_error(value: object) -> None:
    """CardSet.of of a non-collection raises NotationError, not TypeError."""
    with pytest.raises(cb.NotationError):
        CardSet.of(value)  # type: ignore[arg-type]


def test_the_units_table_sums_each_masks_positions() -> None:
    """_bits' table of units per 10-bit suit mask, built by doubling, is the plain sum of each mask's positions."""
    from calabrasella import _bits

    direct = tuple(
        sum(_bits.POSITION_UNITS[p] for p in range(10) if m >> p & 1) for m in range(1024)
    )
    assert direct == _bits._SUIT_UNITS
    assert _bits.units(_bits.FULL) == 4 * sum(_bits.POSITION_UNITS)
