"""Suits and ranks of the 40-card pack, and the words that name them.

:class:`Suit` and :class:`Rank` are re-exported by :mod:`calabrasella.cards`
(and the package), which is where to import them from.
"""

from __future__ import annotations

import enum
import re

from . import _bits
from .errors import NotationError

__all__ = ["Rank", "Suit"]


class Suit(enum.IntEnum):
    """A suit; the value is the suit's place in the canonical card order.

    Example:
        >>> Suit.COINS.letter, Suit.COINS.symbol, Suit.COINS.italian
        ('d', '♦', 'denari')
    """

    COINS = 0
    CUPS = 1
    SWORDS = 2
    BATONS = 3

    @property
    def letter(self) -> str:
        """The suit's letter in card codes (French pack: d h s c)."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The French-pack Unicode symbol standing for the suit."""
        return _SUIT_SYMBOLS[self]

    @property
    def italian(self) -> str:
        """The suit's Italian name (denari, coppe, spade, bastoni)."""
        return _SUIT_ITALIAN[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from a letter, a symbol, or an English, Italian or Spanish name.

        Raises:
            NotationError: ``text`` names no suit.

        Example:
            >>> Suit.parse("bastoni"), Suit.parse("♠"), Suit.parse("hearts")
            (<Suit.BATONS: 3>, <Suit.SWORDS: 2>, <Suit.CUPS: 1>)
        """
        if isinstance(text, str):
            suit = _SUIT_WORDS.get(text.strip().lower())
            if suit is not None:
                return suit
        raise NotationError(f"not a suit: {text!r}")


class Rank(enum.IntEnum):
    """A rank; the value is its strength (a higher value wins the trick).

    Example:
        >>> Rank.THREE > Rank.ACE > Rank.KING > Rank.FOUR
        True
        >>> Rank.ACE.units, Rank.KING.units, Rank.SEVEN.units
        (3, 1, 0)
    """

    FOUR = 0
    FIVE = 1
    SIX = 2
    SEVEN = 3
    JACK = 4
    QUEEN = 5
    KING = 6
    ACE = 7
    TWO = 8
    THREE = 9

    @property
    def char(self) -> str:
        """The rank's character in card codes."""
        return _RANK_CHARS[9 - self]

    @property
    def units(self) -> int:
        """Card points of the rank in thirds: ace 3; 3, 2, K, Q, J 1; others 0."""
        return _bits.POSITION_UNITS[9 - self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank from its character or an English, Italian or Spanish name.

        Raises:
            NotationError: ``text`` names no rank of the 40-card pack.

        Example:
            >>> Rank.parse("cavallo"), Rank.parse("A"), Rank.parse("3")
            (<Rank.QUEEN: 5>, <Rank.ACE: 7>, <Rank.THREE: 9>)
        """
        if isinstance(text, str):
            rank = _RANK_WORDS.get(text.strip().lower())
            if rank is not None:
                return rank
        raise NotationError(f"not a rank: {text!r}")


_SUIT_LETTERS = "dhsc"
_SUIT_SYMBOLS = "♦♥♠♣"
_SUIT_ITALIAN = ("denari", "coppe", "spade", "bastoni")
_SUIT_ENGLISH = ("coins", "cups", "swords", "batons")
_SUIT_SPANISH = ("oros", "copas", "espadas", "bastos")
_RANK_CHARS = "32AKQJ7654"  # strongest first: position order
_RANK_ENGLISH = ("three", "two", "ace", "king", "queen", "jack", "seven", "six", "five", "four")
_RANK_ITALIAN = ("tre", "due", "asso", "re", "cavallo", "fante", "sette", "sei", "cinque", "quattro")
_RANK_SPANISH = ("tres", "dos", "as", "rey", "caballo", "sota", "siete", "seis", "cinco", "cuatro")
#: Each language's rank names, suit names and the word between them.
_LANGUAGES = (
    (_RANK_ENGLISH, _SUIT_ENGLISH, "of"),
    (_RANK_ITALIAN, _SUIT_ITALIAN, "di"),
    (_RANK_SPANISH, _SUIT_SPANISH, "de"),
)

_SUIT_WORDS: dict[str, Suit] = {}
for _suit, _words in zip(
    Suit,
    (
        "d ♦ ♢ coins coin denari denaro oros oro diamonds diamond",
        "h ♥ ♡ cups cup coppe coppa copas copa hearts heart",
        "s ♠ ♤ swords sword spade spada espadas espada spades",
        "c b ♣ ♧ batons baton bastoni bastone bastos basto clubs club",
    ),
):
    for _word in _words.split():
        _SUIT_WORDS[_word] = _suit

_RANK_WORDS: dict[str, Rank] = {}
for _pos, _words in enumerate(
    (
        "3 three tre tres",
        "2 two due dos deuce",
        "a ace asso as one 1",
        "k king re rey r",
        "q queen cavallo caballo donna knight horse c",
        "j jack fante sota knave f",
        "7 seven sette siete",
        "6 six sei seis",
        "5 five cinque cinco",
        "4 four quattro cuatro",
    )
):
    for _word in _words.split():
        _RANK_WORDS[_word] = Rank(9 - _pos)

_NAME_SPLIT = re.compile(r"[\s_\-]+")
# Words a card's name may hold that name nothing: "of", and the articles
# ("the three of cups", "il tre di coppe", "el tres de copas").
_FILLER = frozenset({"of", "di", "de", "del", "della", "dei", "delle", "the", "il", "lo", "la", "el"})
