"""The solver's cashing bounds against a plain minimax on card masks.

``bounds`` (in ``calabrasella.bots._solver_moves``) bounds the units the
declarer collects from a trick boundary. The minimax here is written from
the rules alone (follow suit, the highest card of the suit led wins, the
last trick's winner takes the bonus) over the public ``Card`` numbering,
sharing no code with the solver. Positions: 0 the declarer, 1 and 2 the
adversaries, in turn order.
"""

from __future__ import annotations

import functools
import random

import calabrasella as cb
from calabrasella.bots import _solver_core as core
from calabrasella.bots import _solver_moves as moves

UNITS = tuple(card.units for card in cb.DECK)


def code(text: str) -> int:
    """The mask of the cards named in ``text`` (codes separated by spaces)."""
    mask = 0
    for part in text.split():
        mask |= 1 << next(card.index for card in cb.DECK if card.code == part)
    return mask


@functools.cache
def exact(h0: int, h1: int, h2: int, lead: int, bonus: int, follow: bool) -> int:
    """The declarer's units from a trick boundary on, all three playing perfectly."""
    hands = (h0, h1, h2)
    order = (lead, (lead + 1) % 3, (lead + 2) % 3)

    def legal(hand: int, suit: int) -> list[int]:
        cards = [c for c in range(40) if hand >> c & 1]
        same = [c for c in cards if c // 10 == suit]
        return same if follow and suit >= 0 and same else cards

    def play(trick: tuple[int, ...], left: tuple[int, ...]) -> int:
        if len(trick) == 3:
            suit = trick[0] // 10
            won = min(c for c in trick if c // 10 == suit)  # a lower index is stronger
            winner = order[trick.index(won)]
            units = sum(UNITS[c] for c in trick)
            if not any(left):
                return units + bonus if winner == 0 else 0
            later = exact(left[0], left[1], left[2], winner, bonus, follow)
            return later + units if winner == 0 else later
        mover = order[len(trick)]
        values = [
            play((*trick, c), tuple(h & ~(1 << c) if i == mover else h for i, h in enumerate(left)))
            for c in legal(left[mover], trick[0] // 10 if trick else -1)
        ]
        return max(values) if mover == 0 else min(values)

    best = play((), hands)
    return best


def bound(h0: int, h1: int, h2: int, lead: int, bonus: int, follow: bool) -> tuple[int, int]:
    """``bounds`` for a position, its suits described by ``suit_info``."""
    bit = 1 << 30 if follow else 0
    infos = tuple(
        moves.suit_info(h0 >> sh & 1023 | (h1 >> sh & 1023) << 10 | (h2 >> sh & 1023) << 20 | bit)
        for sh in (0, 10, 20, 30)
    )
    total = moves.units(h0 | h1 | h2) + bonus
    return moves.bounds(infos, (h0, h1, h2), lead, total)


def test_cheapest_counts_the_fewest_units() -> None:
    """The fewest units of n cards: the 7 6 5 4 first, then 3 2 K Q J, then aces."""
    assert moves.cheapest(code("7h 4s 3c"), 2) == 0
    assert moves.cheapest(code("7h 4s 3c"), 3) == 1
    assert moves.cheapest(code("Ah Ks 3c"), 2) == 2
    assert moves.cheapest(code("Ah Ad Qc"), 2) == 4
    assert moves.cheapest(code("5h Ad"), 1) == 0


def test_each_adversary_gives_his_cheapest_cards_to_the_tricks_cashed() -> None:
    """The declarer cashes 3h (the adversaries have no heart) and loses the 4s: each
    adversary must throw a card worth 1 to the 3h, so the declarer surely has 3 units,
    exactly his value (following alone would promise him only the 3h's unit)."""
    hands = (code("3h 4s"), code("Ks Qc"), code("Jc Ad"))
    lo, hi = bound(*hands, 0, 3, True)
    assert lo == exact(*hands, 0, 3, True) == 3
    assert hi >= 3


def test_no_more_than_the_cheapest_when_the_adversaries_can_throw_nothing() -> None:
    """As above, but each adversary holds a card worth nothing to throw: the bound stays
    at the 3h's one unit, the declarer's value."""
    hands = (code("3h 4s"), code("Ks 5c"), code("Jc 6d"))
    lo, _ = bound(*hands, 0, 3, True)
    assert lo == exact(*hands, 0, 3, True) == 1


def test_the_declarer_gives_his_cheapest_cards_to_the_adversaries_cash() -> None:
    """The first adversary leads and cashes the 3s and 2s (the declarer has no spade):
    the declarer throws the Ah and the Kd or Qd, so he keeps at most the rest."""
    hands = (code("Ah Kd Qd"), code("3s 2s 4c"), code("5s 6s 3d"))
    lo, hi = bound(*hands, 1, 3, True)
    value = exact(*hands, 1, 3, True)
    assert lo <= value <= hi
    total = moves.units(hands[0] | hands[1] | hands[2]) + 3
    assert hi <= total - (1 + 1 + 1 + 1)  # his 3s 2s, and at least Qd and Kd of the declarer's


def test_bounds_hold_on_random_endings() -> None:
    """On random two- to four-trick positions, either rule of following, the bounds
    enclose the exact value."""
    rng = random.Random(11)
    cut = 0
    for _ in range(300):
        tricks = rng.choice((2, 3, 3, 4))
        cards = rng.sample(range(40), 3 * tricks)
        h0, h1, h2 = (sum(1 << c for c in cards[i::3]) for i in range(3))
        lead, bonus, follow = rng.randrange(3), rng.randint(3, 9), rng.random() < 0.8
        lo, hi = bound(h0, h1, h2, lead, bonus, follow)
        value = exact(h0, h1, h2, lead, bonus, follow)
        assert lo <= value <= hi, (h0, h1, h2, lead, bonus, follow)
        cut += lo > 0 or hi < moves.units(h0 | h1 | h2) + bonus
    assert cut > 75  # the bounds say something on many of them


def _searches(bonus: int, follow: bool) -> list[core.Search]:
    """A fresh pure search, and a fresh compiled one when it is built."""
    found = [core.Search(bonus, follow)]
    if core.NATIVE is not None:
        found.append(core.NativeSearch(bonus, follow))
    return found


def test_probes_are_fail_soft_bounds_of_the_exact_value() -> None:
    """Every probe's answer bounds the exact value on the side of its threshold (at least
    it when it reaches the threshold, at most it when not), in both searches, for every
    threshold, one search reused for all of them as MTD(f) does."""
    rng = random.Random(29)
    above = 0
    for _ in range(120):
        tricks = rng.choice((2, 3, 4, 4))
        cards = rng.sample(range(40), 3 * tricks)
        h0, h1, h2 = (sum(1 << c for c in cards[i::3]) for i in range(3))
        lead, bonus, follow = rng.randrange(3), rng.randint(3, 9), rng.random() < 0.8
        value = exact(h0, h1, h2, lead, bonus, follow)
        rest = moves.units(h0 | h1 | h2)
        for search in _searches(bonus, follow):
            for t in range(1, rest + bonus + 2):
                got = search.probe(h0, h1, h2, lead, rest, t)
                if got >= t:
                    assert got <= value, (h0, h1, h2, lead, bonus, follow, t, got)
                    above += got > t
                else:
                    assert got >= value, (h0, h1, h2, lead, bonus, follow, t, got)
    assert above > 100  # many answers say more than their threshold
