"""Cards, suits, ranks, their notation, and sets of cards.

The pack has 40 cards: four suits of ten ranks, ranking high to low
``3 2 A K Q J 7 6 5 4``. Suits are equal (there are no trumps).

The library names suits after the Italian pack (coins, cups, swords, batons)
and writes them with the letters of the French pack used in their place:
coins ``d`` (diamonds, ♦), cups ``h`` (hearts, ♥), swords ``s`` (spades, ♠),
batons ``c`` (clubs, ♣). No source fixes that mapping; it is display only.
Courts: K = re (king), Q = cavallo (knight, or donna), J = fante (knave).

A card's canonical code is its rank then its suit letter: ``"Ad"``, ``"3s"``.
:meth:`Card.parse` also reads Unicode suit symbols (``"A♦"``) and English,
Italian and Spanish names (``"ace of coins"``, ``"asso di denari"``,
``"as de oros"``, ``"A-coins"``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Union

import attrs

from . import _bits, _pictures
from .errors import NotationError
from .suits import (
    _FILLER,
    _LANGUAGES,
    _NAME_SPLIT,
    _RANK_ENGLISH,
    _RANK_ITALIAN,
    _RANK_WORDS,
    _SUIT_ENGLISH,
    _SUIT_ITALIAN,
    _SUIT_WORDS,
    Rank,
    Suit,
)

if TYPE_CHECKING:
    from typing_extensions import Self  # only in annotations: not loaded at run time

__all__ = ["DECK", "Card", "CardSet", "Rank", "Suit"]


def _suit_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, Suit):
        raise NotationError(f"not a suit: {value!r} (use Suit.COINS and so on)")


def _rank_validator(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, Rank):
        raise NotationError(f"not a rank: {value!r} (use Rank.ACE and so on)")


@functools.total_ordering
@attrs.frozen(eq=False, repr=False)
class Card:
    """A playing card of the 40-card pack: an immutable value.

    Construct one from its suit and rank, or parse its notation. The 40 cards
    exist once each in :data:`DECK`; equal cards compare and hash equal.
    Cards order in the canonical order (suit by suit, coins first, the
    strongest rank first), which is display order, not trick strength.

    Attributes:
        suit: The card's suit.
        rank: The card's rank.
        index: The card's number 0..39, ``suit * 10 + position`` with
            position 0 for the 3 and 9 for the 4.

    Example:
        >>> card = Card(Suit.COINS, Rank.ACE)
        >>> card, str(card), card.units
        (Card.parse('Ad'), 'Ad', 3)
        >>> Card.parse("asso di denari") == Card.parse("A♦") == card
        True
    """

    suit: Suit = attrs.field(validator=_suit_validator)
    rank: Rank = attrs.field(validator=_rank_validator)
    index: int = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "index", self.suit * 10 + 9 - self.rank)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card numbered ``index`` (0..39).

        Raises:
            NotationError: ``index`` is not an int in 0..39.

        Example:
            >>> Card.from_index(0), Card.from_index(39)
            (Card.parse('3d'), Card.parse('4c'))
        """
        if type(index) is int and 0 <= index < 40:
            return DECK[index]
        raise NotationError(f"not a card index: {index!r} (expected an int 0..39)")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card from its code, a code with a suit symbol, or its name.

        Accepted: ``"Ad"``, ``"ad"``, ``"A♦"``, ``"ace of coins"``,
        ``"asso di denari"``, ``"as de oros"``, ``"A-coins"``,
        ``"ace of diamonds"``; case and spacing do not matter.

        Raises:
            NotationError: ``text`` names no card of the 40-card pack, or
                several cards (read those with :meth:`CardSet.parse`). The
                message quotes ``text`` and says what was expected.

        Example:
            >>> Card.parse("re di bastoni"), Card.parse("3-cups"), Card.parse("7♠")
            (Card.parse('Kc'), Card.parse('3h'), Card.parse('7s'))
            >>> Card.parse("asso")
            Traceback (most recent call last):
            ...
            calabrasella.errors.NotationError: not a card: 'asso' (a rank alone; add a suit, e.g. 'asso di denari' or 'Ad')
        """
        if not isinstance(text, str):
            raise NotationError(f"not a card: {text!r} (expected a string such as 'Ad')")
        card = _PARSE_CACHE.get(text)
        if card is not None:
            return card
        card = _read_card(text)
        if card is not None:
            return card
        if _split_cards(text) is not None:
            raise NotationError(
                f"{text!r} is several cards; Card.parse reads one card"
                " (use CardSet.parse for several)"
            )
        raise NotationError(f"not a card: {text!r} ({_card_problem(text)})")

    @property
    def units(self) -> int:
        """The card's points in thirds (ace 3; 3, 2, K, Q, J 1; 7 6 5 4 0)."""
        return _bits.UNITS[self.index]

    @property
    def code(self) -> str:
        """The canonical short code, such as ``'Ad'``."""
        return self.rank.char + self.suit.letter

    @property
    def symbol(self) -> str:
        """The code with a Unicode suit symbol, such as ``'A♦'``."""
        return self.rank.char + self.suit.symbol

    @property
    def name(self) -> str:
        """The English name, such as ``'ace of coins'``."""
        return f"{_RANK_ENGLISH[9 - self.rank]} of {_SUIT_ENGLISH[self.suit]}"

    @property
    def italian(self) -> str:
        """The Italian name, such as ``'asso di denari'``."""
        return f"{_RANK_ITALIAN[9 - self.rank]} di {_SUIT_ITALIAN[self.suit]}"

    def beats(self, other: Card) -> bool:
        """Tell whether this card wins a trick against ``other`` led before it.

        It wins only when it is of the same suit and ranks higher.

        Example:
            >>> Card.parse("3s").beats(Card.parse("As")), Card.parse("3s").beats(Card.parse("4d"))
            (True, False)
        """
        return self.suit == other.suit and self.rank > other.rank

    def __eq__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.index == other.index
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if other.__class__ is Card:
            return self.index != other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    # <=, > and >= come from functools.total_ordering; sorted() needs only <.
    def __lt__(self, other: Card) -> bool:
        if other.__class__ is Card:
            return self.index < other.index
        return NotImplemented

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_index, (self.index,))

    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty


#: The 40 cards in canonical order; ``DECK[i].index == i``.
DECK: tuple[Card, ...] = tuple(Card(Suit(i // 10), Rank(9 - i % 10)) for i in range(40))

_PARSE_CACHE: dict[str, Card] = {}
for _card in DECK:
    for _text in (_card.code, _card.code.upper(), _card.code.lower(), _card.symbol):
        _PARSE_CACHE[_text] = _card


def _name_words(text: str) -> list[str]:
    """Split a card's name into lower-case words, without fillers such as 'of'."""
    return [w for w in _NAME_SPLIT.split(text.strip().lower()) if w and w not in _FILLER]


def _read_card(text: str) -> Card | None:
    """Return the card ``text`` names, or None (never raises)."""
    words = _name_words(text)
    if len(words) == 1 and len(words[0]) >= 2:
        # a code: rank characters then a suit letter or symbol
        word = words[0]
        words = [word[:-1], word[-1]]
    if len(words) == 2:
        rank = _RANK_WORDS.get(words[0])
        suit = _SUIT_WORDS.get(words[1])
        if rank is not None and suit is not None:
            return DECK[suit * 10 + 9 - rank]
    return None


def _split_cards(text: str) -> list[str] | None:
    """Return the cards ``text`` names one by one if it names two or more, else None.

    Commas separate cards; without commas, codes and names follow one another
    (``"ace of coins king of cups"`` gives ``["ace of coins", "king of cups"]``).
    """
    cards: list[str] = []
    if "," in text:
        for part in text.split(","):
            if _read_card(part) is not None:
                cards.append(part.strip())
            elif part.strip():
                split = _split_cards(part)
                if split is None:
                    return None
                cards.extend(split)
        return cards if len(cards) >= 2 else None
    tokens = text.split()
    i = 0
    while i < len(tokens):
        # the longest run of words from here that names a card: "as de oros", not "as"
        for j in range(min(len(tokens), i + 3), i, -1):
            name = " ".join(tokens[i:j])
            if _read_card(name) is not None:
                cards.append(name)
                i = j
                break
        else:
            # codes run together: "AdKd"
            token = tokens[i]
            codes = [token[k : k + 2] for k in range(0, len(token), 2)]
            if len(token) < 4 or any(_PARSE_CACHE.get(code) is None for code in codes):
                return None
            cards.extend(codes)
            i += 1
    return cards if len(cards) >= 2 else None


def _card_problem(text: str) -> str:
    """Say why ``text``, which names no card and not several, is not a card."""
    if "," in text:
        return "commas separate cards; Card.parse reads one card"
    words = _name_words(text)
    if len(words) == 1:
        word = words[0]
        rank = _RANK_WORDS.get(word)
        suit = _SUIT_WORDS.get(word)
        if rank is not None and suit is None:
            return f"a rank alone; add a suit, e.g. {_example(word, rank, Suit.COINS)}"
        if suit is not None and rank is None:
            return f"a suit alone; add a rank, e.g. {_example(word, Rank.ACE, suit)}"
        if len(word) >= 2:
            words = [word[:-1], word[-1]]
    if len(words) == 2:
        rank = _RANK_WORDS.get(words[0])
        if rank is None and words[0] not in _SUIT_WORDS:
            return f"no rank {words[0]!r} in a 40-card pack"
        if rank is not None and words[1] not in _SUIT_WORDS:
            return f"no suit {words[1]!r}"
    return "write a card as 'Ad', 'A♦' or 'ace of coins'"


def _example(word: str, rank: Rank, suit: Suit) -> str:
    """Write the card of ``rank`` and ``suit`` in the language of ``word``, and as a code."""
    card = DECK[suit * 10 + 9 - rank]
    if len(word) == 1 and word in _SUIT_WORDS:  # a suit letter or symbol: "A" + it
        return repr(card.rank.char + word)
    for ranks, suits, joiner in _LANGUAGES:
        if word in ranks or word in suits:
            name = f"{ranks[9 - rank]} {joiner} {suits[suit]}"
            return f"{name!r} or {card.code!r}"
    return repr(card.code)


CardLike = Union[Card, str]
#: What the set operators of :class:`CardSet` take besides a card set.
CardsLike = Union["CardSet", Card, str, Iterable[CardLike]]

_new = object.__new__
_set = object.__setattr__


def _cardset(mask: int) -> CardSet:
    """Return ``CardSet(mask)`` without validation (for masks the library made)."""
    cs = _new(CardSet)
    _set(cs, "mask", mask)
    return cs


def _to_index(card: object) -> int:
    if card.__class__ is Card:
        return card.index
    if isinstance(card, str):
        return Card.parse(card).index
    raise NotationError(f"not a card: {card!r}")


def _operand_mask(other: object) -> int | None:
    """Return the mask of a set operator's other operand, or None for a type it does not take.

    Raises:
        NotationError: ``other`` is text or a collection, but names no cards.
    """
    if isinstance(other, CardSet):
        return other.mask
    if isinstance(other, Card):
        return 1 << other.index
    if isinstance(other, str):
        return CardSet.parse(other).mask
    if isinstance(other, Iterable) and not isinstance(other, (bytes, bytearray, memoryview)):
        return CardSet.of(other).mask
    return None


def _mask_validator(instance: object, attribute: object, value: object) -> None:
    if type(value) is not int or value < 0 or value > _bits.FULL:
        raise NotationError(f"not a 40-bit card mask: {value!r}")


def _set_problem(text: str, part: str, commas: bool) -> str:
    """Say why ``text`` is not a set of cards, ``part`` being its first bad part."""
    if commas:
        if _split_cards(part) is not None:
            cards = _split_cards(text)
            rewritten = f": {', '.join(cards)!r}" if cards is not None else ""
            return (
                f"not a list of cards: {text!r} ({part.strip()!r} is several cards;"
                f" with commas, put a comma between every two cards{rewritten})"
            )
    else:
        if len(_name_words(text)) == 1:  # one word besides fillers: "tre di"
            part = text
        cards = _split_cards(text)
        if cards is not None:
            if any(" " in card for card in cards):
                advice = f"names of cards are separated by commas: {', '.join(cards)!r}"
            else:
                advice = f"separate the cards by spaces: {' '.join(cards)!r}"
            return f"not a list of cards: {text!r} ({advice})"
    where = "" if part.strip() == text.strip() else f" in {text!r}"
    return f"not a card: {part.strip()!r}{where} ({_card_problem(part)})"


def _written_twice(text: str, parts: list[str], card: Card) -> str:
    """Say that ``card`` is written twice in ``text``, with both spellings if they differ."""
    spellings = [
        part.strip() for part in parts if (_PARSE_CACHE.get(part) or _read_card(part)) is card
    ]
    if spellings[0] != spellings[1]:
        return f"{card} is written twice in {text!r} (as {spellings[0]!r} and {spellings[1]!r})"
    return f"{card} is written twice in {text!r}"


@attrs.frozen(repr=False, order=False)
class CardSet:
    """An immutable set of cards that iterates in canonical order.

    It is backed by a 40-bit int mask (bit ``card.index``) and supports the
    usual set operations: ``|``, ``&``, ``-``, ``^`` and the subset tests
    ``<=``, ``<``, ``>=``, ``>``, with another card set or with anything
    :meth:`of` or :meth:`parse` reads (notation text, a card, cards or codes),
    on either side; the result is a ``CardSet``. ``==`` compares card sets
    only. Build one from cards or card codes, or parse a space- or
    comma-separated list.

    Attributes:
        mask: The set as an int, bit ``i`` for ``DECK[i]``.

    Example:
        >>> hand = CardSet.parse("Kc 3s Ad As")
        >>> hand
        CardSet.parse('Ad 3s As Kc')
        >>> len(hand), Card.parse("3s") in hand, hand.units
        (4, True, 8)
        >>> hand - CardSet.parse("As") == CardSet.parse("Ad 3s Kc")
        True
        >>> hand - "As" | ["4c"]
        CardSet.parse('Ad 3s Kc 4c')
        >>> [c.code for c in hand.suit(Suit.SWORDS)]
        ['3s', 'As']
    """

    mask: int = attrs.field(default=0, validator=_mask_validator)

    @classmethod
    def of(cls, cards: Iterable[CardLike]) -> CardSet:
        """Return the set of ``cards`` (cards or card notation).

        It builds a set: a card given twice counts once, so compare ``len`` of
        the result with the number of items to find repeats. (Notation text
        is stricter: :meth:`parse` rejects a card written twice.)

        Raises:
            NotationError: An item is not a card.

        Example:
            >>> CardSet.of(["Ad", Card.parse("3s")])
            CardSet.parse('Ad 3s')
            >>> CardSet.of(["Ad", "Ad"])
            CardSet.parse('Ad')
        """
        if isinstance(cards, str):
            return cls.parse(cards)
        if isinstance(cards, CardSet):
            return cls(cards.mask)
        try:
            items = iter(cards)
        except TypeError:
            raise NotationError(f"not a collection of cards: {cards!r}") from None
        mask = 0
        for card in items:
            mask |= 1 << _to_index(card)
        return cls(mask)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read a set of cards from codes or names separated by spaces or commas.

        Without a comma, the cards are separated by spaces: codes such as
        ``"Ad 3s"``, or the name of one card (``"ace of coins"``). With a
        comma anywhere, commas alone separate the cards, so separate names by
        commas: ``"ace of coins, tre di spade"``.

        Raises:
            NotationError: A part names no card, or a card is written twice.
                The message quotes ``text`` and says what was expected.

        Example:
            >>> CardSet.parse("Ad, 3s") == CardSet.parse("ace of coins, tre di spade")
            True
            >>> CardSet.parse("")
            CardSet.parse('')
            >>> CardSet.parse("ace of coins tre di spade")
            Traceback (most recent call last):
            ...
            calabrasella.errors.NotationError: not a list of cards: 'ace of coins tre di spade' (names of cards are separated by commas: 'ace of coins, tre di spade')
            >>> CardSet.parse("Ad 3s Ad")
            Traceback (most recent call last):
            ...
            calabrasella.errors.NotationError: Ad is written twice in 'Ad 3s Ad'
        """
        if not isinstance(text, str):
            raise NotationError(f"not a list of cards: {text!r}")
        commas = "," in text
        parts = text.split(",") if commas else text.split()
        mask = 0
        for part in parts:
            card = _PARSE_CACHE.get(part)
            if card is None:
                card = _read_card(part)
                if card is None:
                    if not part.strip():
                        continue
                    whole = None if commas else _read_card(text)
                    if whole is not None:  # one card's name: "ace of coins"
                        return cls(1 << whole.index)
                    raise NotationError(_set_problem(text, part, commas))
            bit = 1 << card.index
            if mask & bit:
                raise NotationError(_written_twice(text, parts, card))
            mask |= bit
        return cls(mask)

    @classmethod
    def all(cls) -> CardSet:
        """Return the whole 40-card pack."""
        return cls(_bits.FULL)

    @property
    def units(self) -> int:
        """The card points of the set in thirds."""
        return _bits.units(self.mask)

    def suit(self, suit: Suit | str) -> CardSet:
        """Return the cards of ``suit`` (a :class:`Suit` or its notation) in this set.

        Raises:
            NotationError: ``suit`` is not a suit.
        """
        if not isinstance(suit, Suit):
            suit = Suit.parse(suit)
        return _cardset(self.mask & _bits.SUIT_MASKS[suit])

    def __contains__(self, card: object) -> bool:
        """Tell whether ``card`` (a :class:`Card` or its notation) is in the set."""
        if card.__class__ is Card:
            return bool(self.mask >> card.index & 1)
        if isinstance(card, str):
            try:
                return bool(self.mask >> Card.parse(card).index & 1)
            except NotationError:
                return False
        return False

    def __iter__(self) -> Iterator[Card]:
        deck = DECK
        for i in _bits.indices(self.mask):
            yield deck[i]

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    # The operators take a CardSet (the fast path, checked first) or anything
    # that names cards: a Card, notation text, or an iterable of cards or
    # codes. Other types get NotImplemented, hence TypeError.

    def __or__(self, other: CardsLike) -> CardSet:
        if type(other) is CardSet:
            return _cardset(self.mask | other.mask)
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return _cardset(self.mask | mask)

    __ror__ = __or__

    def __and__(self, other: CardsLike) -> CardSet:
        if type(other) is CardSet:
            return _cardset(self.mask & other.mask)
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return _cardset(self.mask & mask)

    __rand__ = __and__

    def __sub__(self, other: CardsLike) -> CardSet:
        if type(other) is CardSet:
            return _cardset(self.mask & ~other.mask)
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return _cardset(self.mask & ~mask)

    def __rsub__(self, other: CardsLike) -> CardSet:
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return _cardset(mask & ~self.mask)

    def __xor__(self, other: CardsLike) -> CardSet:
        if type(other) is CardSet:
            return _cardset(self.mask ^ other.mask)
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return _cardset(self.mask ^ mask)

    __rxor__ = __xor__

    def __le__(self, other: CardsLike) -> bool:
        if type(other) is CardSet:
            return self.mask & ~other.mask == 0
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return self.mask & ~mask == 0

    def __ge__(self, other: CardsLike) -> bool:
        if type(other) is CardSet:
            return other.mask & ~self.mask == 0
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return mask & ~self.mask == 0

    def __lt__(self, other: CardsLike) -> bool:
        if type(other) is CardSet:
            return self.mask != other.mask and self.mask & ~other.mask == 0
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return self.mask != mask and self.mask & ~mask == 0

    def __gt__(self, other: CardsLike) -> bool:
        if type(other) is CardSet:
            return self.mask != other.mask and other.mask & ~self.mask == 0
        mask = _operand_mask(other)
        if mask is None:
            return NotImplemented
        return self.mask != mask and mask & ~self.mask == 0

    def isdisjoint(self, other: Iterable[CardLike]) -> bool:
        """Tell whether the two collections share no card.

        Raises:
            NotationError: ``other`` is not a collection of cards.
        """
        return self.mask & CardSet.of(other).mask == 0

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"

    def __str__(self) -> str:
        return " ".join(card.code for card in self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (CardSet, (self.mask,))

    def to_codes(self) -> list[str]:
        """Return the card codes in canonical order (for JSON)."""
        return [card.code for card in self]

    def with_card(self, card: CardLike) -> Self:
        """Return the set with ``card`` (a :class:`Card` or its notation) added.

        Raises:
            NotationError: ``card`` is not a card.
        """
        return type(self)(self.mask | 1 << _to_index(card))

    _repr_svg_, _repr_pretty_ = _pictures.svg_of, _pictures.pretty
