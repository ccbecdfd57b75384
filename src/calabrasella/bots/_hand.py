"""The heuristic bot's arithmetic: card masks, a hand's value, and a reading of a view.

Cards are their indices 0..39 (``suit * 10 + position``, position 0 for the 3
and 9 for the 4, so a lower index ranks higher within a suit) and sets of
cards are int masks, as inside the engine; only the public API is used to
read them (``Card.index``, ``CardSet.mask``).

A hand's *value* is a rough count of the units its holder can expect to win
in tricks: each card's chance of winning a trick (sure for a top card, less
for each higher card missing, far less when it is not guarded by as many
lower cards), times its units plus one for what the trick brings, and a
bonus for length beyond three cards (long suits make tricks once the high
cards are gone). It is additive over suits, so it is a table lookup per suit.
"""

from __future__ import annotations

from typing import NamedTuple

import calabrasella as cb

__all__ = [
    "FULL",
    "STOCK_SHARE",
    "SUIT_MASKS",
    "UNITS",
    "Reading",
    "above",
    "bits",
    "card_loss",
    "discard_loss",
    "hand_value",
    "least_missed",
    "read_view",
    "suit_length",
]

FULL = (1 << 40) - 1
SUIT_MASKS = tuple(0x3FF << (10 * s) for s in range(4))
#: Each card's units in the standard count (the hand's value weighs the cards by
#: them; the play reads the ruleset's own, :attr:`Reading.units`).
UNITS = cb.CAVENDISH.units_by_card
_POSITION_UNITS = UNITS[:10]


def bits(mask: int) -> list[int]:
    """Return the card indices in ``mask``, highest rank of the first suit first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def above(index: int) -> int:
    """Return the mask of the cards of ``index``'s suit that rank above it."""
    base = index - index % 10
    return ((1 << index) - 1) & ~((1 << base) - 1)


def suit_length(mask: int, suit: int) -> int:
    """Return how many cards of ``suit`` are in ``mask``."""
    return (mask & SUIT_MASKS[suit]).bit_count()


def _suit_value(held: int) -> float:
    """The value of the cards of one suit, ``held`` a 10-bit mask by position."""
    positions = [p for p in range(10) if held >> p & 1]
    length = len(positions)
    value = 0.0
    for k, p in enumerate(positions):
        missing = p - k  # higher cards this hand does not hold
        guards = length - 1 - k  # lower cards to play while they fall
        if missing == 0:
            chance = 1.0
        elif guards >= missing:
            chance = 0.55**missing
        else:
            chance = 0.2**missing
        value += chance * (_POSITION_UNITS[p] + 1.0)
    if length > 3:
        value += 0.8 * (length - 3)
    return value


_SUIT_VALUES = tuple(_suit_value(held) for held in range(1024))


def hand_value(mask: int) -> float:
    """Return the value of the hand ``mask``: the units its holder may expect to win."""
    table = _SUIT_VALUES
    return (
        table[mask & 0x3FF]
        + table[mask >> 10 & 0x3FF]
        + table[mask >> 20 & 0x3FF]
        + table[mask >> 30 & 0x3FF]
    )


#: How much a card laid in the stock is worth to its owner's side, per unit:
#: the stock goes with the last trick, which either side may win.
STOCK_SHARE = 0.5


def _least_missed(held: int) -> tuple[float, int]:
    """The cheapest card of one suit to lay in the stock: (its discard loss, its position)."""
    return min(
        (
            _SUIT_VALUES[held] - _SUIT_VALUES[held & ~(1 << p)] - STOCK_SHARE * _POSITION_UNITS[p],
            p,
        )
        for p in range(10)
        if held >> p & 1
    )


_LEAST_MISSED = ((0.0, -1), *(_least_missed(held) for held in range(1, 1024)))


def least_missed(mask: int) -> int:
    """Return the card of the (non-empty) hand ``mask`` that costs least to lay in the stock.

    The cost is :func:`discard_loss`; of equal costs, the lowest index.
    """
    best = (1e9, 99)
    for shift in (0, 10, 20, 30):
        held = mask >> shift & 0x3FF
        if held:
            loss, position = _LEAST_MISSED[held]
            if loss < best[0]:
                best = (loss, shift + position)
    return best[1]


def discard_loss(mask: int, index: int) -> float:
    """What laying ``index`` in the stock costs: its worth in hand less its share of the stock."""
    return card_loss(mask, index) - STOCK_SHARE * UNITS[index]


def card_loss(mask: int, index: int) -> float:
    """Return how much the hand ``mask`` loses in value without the card ``index``."""
    shift = index - index % 10
    held = mask >> shift & 0x3FF
    return _SUIT_VALUES[held] - _SUIT_VALUES[held & ~(1 << (index - shift))]


class Reading(NamedTuple):
    """What a seat can tell of a deal in play from its view.

    Attributes:
        me: The seat.
        declarer: The declarer's seat.
        partner: The other adversary, or -1 for the declarer.
        hand: The seat's cards.
        played: Every card played so far, the current trick's included.
        unseen: The cards that may be in another seat's hand: neither in
            this hand, nor played, nor known to lie in the stock.
        voids: For each seat, a 4-bit mask of the suits it has shown out of.
        trick: The current trick as (seat, card index), from the leader's.
        after: The seats still to play to this trick after this one.
        tricks_left: Tricks still to play, the current one included.
        follow: Whether the rules make a seat follow suit.
        winning: The (seat, card index) winning the current trick so far, from the
            view (:attr:`calabrasella.View.winning_seat`); ``None`` with no card in it.
        units: Each card's units, by card index, as the ruleset counts them
            (:attr:`calabrasella.Ruleset.units_by_card`).
    """

    me: int
    declarer: int
    partner: int
    hand: int
    played: int
    unseen: int
    voids: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    after: tuple[int, ...]
    tricks_left: int
    follow: bool
    winning: tuple[int, int] | None = None
    units: tuple[int, ...] = UNITS


def active_order(view: cb.View) -> tuple[int, int, int]:
    """Return the three active seats in turn order from the eldest hand."""
    n, d = view.rules.players, view.dealer
    return ((d + 1) % n, (d + 2) % n, (d + 3) % n)


def _known_stock(view: cb.View) -> int:
    """The stock cards this seat knows: its own discards, and the stock's cards face up."""
    known = 0
    for spot in cb.places.layout(view):
        if spot.place.where in (cb.places.Where.STOCK, cb.places.Where.LAID_ASIDE):
            known |= spot.shown.mask
    return known


def read_view(view: cb.View) -> Reading:
    """Return what ``view`` tells of the deal (call it in the play only).

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CALABRESELLA, seed=3)
        >>> s = cb.apply(s, cb.Bid(cb.Contract.SOLISSIMO))
        >>> s = cb.apply(s, cb.Pass())
        >>> r = read_view(s.view(2))
        >>> r.declarer, r.partner, r.tricks_left, r.unseen.bit_count()
        (1, 0, 12, 28)
    """
    me = view.seat
    declarer = view.declarer if view.declarer is not None else -1
    order = active_order(view)
    partner = -1 if me == declarer else next(s for s in order if s not in (me, declarer))
    follow = bool(view.rules.options().get("follow_suit", True))
    # the cards played and the suits each seat showed out of: the view's own reading
    played = 0
    for cards in view.cards_played:
        played |= cards.mask
    voids = [sum(1 << suit.value for suit in shown_out) for shown_out in view.known_voids]
    nxt = {order[k]: order[(k + 1) % 3] for k in range(3)}
    trick = tuple((seat, card.index) for seat, card in view.trick)
    hand = view.hand.mask
    outstanding = FULL & ~hand & ~played & ~_known_stock(view)
    after: list[int] = []
    seat = nxt[me]
    while len(trick) + 1 + len(after) < 3:
        after.append(seat)
        seat = nxt[seat]
    return Reading(
        me=me,
        declarer=declarer,
        partner=partner,
        hand=hand,
        played=played,
        unseen=outstanding,
        voids=tuple(voids),
        trick=trick,
        after=tuple(after),
        tricks_left=hand.bit_count(),
        follow=follow,
        winning=_winning(view),
        units=view.rules.units_by_card,
    )


def _winning(view: cb.View) -> tuple[int, int] | None:
    """The (seat, card index) winning the current trick, as the view reads it."""
    seat = view.winning_seat
    if seat is None:
        return None
    return next((s, card.index) for s, card in view.trick if s == seat)
