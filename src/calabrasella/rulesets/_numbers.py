"""A ruleset's numbers, worked out once when it is built: what the hot paths read.

The ruleset's hooks say the numbers (:meth:`Ruleset.card_units`,
:attr:`Ruleset.last_trick_units`, :attr:`Ruleset.revoke_units`); the
engine, the play kernel, the scoring, the codecs, the searches and the
pictures read them from the ruleset's :class:`Numbers`, built by
:func:`numbers_of` as the ruleset is built (a ruleset is frozen, so once is
enough). Rulesets that count the cards alike share their tables.
"""

from __future__ import annotations

from typing import Any

from .._bits import subset_sums

__all__ = ["Numbers", "numbers_of"]


class Numbers:
    """A ruleset's numbers (private; the ruleset's ``_numbers``).

    Attributes:
        units: Each card's units, by card index (40 of them).
        suit_units: For each suit, the units of every 10-bit mask of it.
        cards: The units of all the cards.
        last_trick: The units for winning the last trick (the stock's cards aside).
        deal: The units of a deal: ``cards + last_trick``.
        revoke: The units a revoke moves from the offending side to the other.
        classes: Each card's class of units (cards of equal units share a
            class, the fewest units first), by card index.
    """

    __slots__ = ("cards", "classes", "deal", "last_trick", "revoke", "suit_units", "units")

    def __init__(self, units: tuple[int, ...], last_trick: int, revoke: int) -> None:
        self.units = units
        self.suit_units = _suit_tables(units)
        self.cards = sum(units)
        self.last_trick = last_trick
        self.deal = self.cards + last_trick
        self.revoke = revoke
        values = sorted(set(units))
        self.classes = tuple(values.index(u) for u in units)

    def of(self, mask: int) -> int:
        """Return the units of the cards in the 40-bit ``mask``."""
        t0, t1, t2, t3 = self.suit_units
        return t0[mask & 1023] + t1[mask >> 10 & 1023] + t2[mask >> 20 & 1023] + t3[mask >> 30 & 1023]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the three numbers it is built from (loading finds or builds the tables)."""
        return (_numbers, (self.units, self.last_trick, self.revoke))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Numbers):
            return NotImplemented
        return (self.units, self.last_trick, self.revoke) == (
            other.units, other.last_trick, other.revoke
        )  # fmt: skip

    def __hash__(self) -> int:
        return hash((self.units, self.last_trick, self.revoke))

    def __repr__(self) -> str:
        return f"Numbers(units={self.units!r}, last_trick={self.last_trick}, revoke={self.revoke})"


# The numbers of every ruleset built so far, by what they are built from: rulesets
# that count alike share one (few: one or two, usually).
_KNOWN: dict[tuple[tuple[int, ...], int, int], Numbers] = {}


def _numbers(units: tuple[int, ...], last_trick: int, revoke: int) -> Numbers:
    """Return the one :class:`Numbers` of these three."""
    key = (units, last_trick, revoke)
    found = _KNOWN.get(key)
    if found is None:
        found = _KNOWN[key] = Numbers(units, last_trick, revoke)
    return found


# The suit tables of each way of counting the cards met so far (few: one, usually).
_SUIT_TABLES: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _suit_tables(units: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    found = _SUIT_TABLES.get(units)
    if found is None:
        per_suit = [units[10 * s : 10 * s + 10] for s in range(4)]
        built: dict[tuple[int, ...], tuple[int, ...]] = {}
        found = _SUIT_TABLES[units] = tuple(
            built.setdefault(values, subset_sums(values)) for values in per_suit
        )
    return found


def numbers_of(rules: Any) -> Numbers:
    """Return the numbers ``rules`` says, asking its hooks once.

    Raises:
        RulesetError: A hook answers something that is not a whole number of
            units (a card's units below 0, or not an int).
    """
    from ..errors import RulesetError

    units = tuple(rules.card_units(card) for card in range(40))
    last = rules.last_trick_units
    revoke = rules.revoke_units
    for what, value in (("card_units", units), ("last_trick_units", (last,)), ("revoke_units", (revoke,))):
        if any(type(v) is not int or v < 0 for v in value):
            raise RulesetError(
                f"{type(rules).__qualname__}.{what} gives {value if len(value) > 1 else value[0]!r}: "
                "expected whole units, 0 or more"
            )
    return _numbers(units, last, revoke)
