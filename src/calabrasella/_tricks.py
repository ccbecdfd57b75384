"""The play rule, written once: which cards a hand may play to a trick, and who wins it.

Both rules work on card indices and 40-bit masks (see :mod:`calabrasella._bits`).
:func:`calabrasella.legal_actions`, :mod:`calabrasella._legal`, the views, table
mode's revoke and the rollout's generic loop call them. Their fast forms for one
card (:func:`refuses`, :func:`third_wins`) live here too, for
:func:`calabrasella.apply`'s hot path; ``tests/property/test_play_kernel.py``
holds them, and the rollout's own draws on suit masks, to the general rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._bits import SUIT_MASKS
from .actions import PLAYS, Play

__all__ = ["SUIT_PLAYS", "legal_plays", "refuses", "third_wins", "trick_winner", "winning_play"]

#: ``Play`` actions for every within-suit 10-bit mask, per suit: the legal
#: plays are one or four tuple lookups.
def _holdings(plays: tuple[Play, ...]) -> tuple[tuple[Play, ...], ...]:
    """Every subset of ten plays, indexed by its 10-bit mask (built by doubling)."""
    out: list[tuple[Play, ...]] = [()]
    for play in plays:
        out += [held + (play,) for held in out]
    return tuple(out)


SUIT_PLAYS: tuple[tuple[tuple[Play, ...], ...], ...] = tuple(
    _holdings(PLAYS[10 * s : 10 * s + 10]) for s in range(4)
)


def legal_plays(hand: int, trick: tuple[int, ...], follow: bool) -> tuple[Play, ...]:
    """Return the cards ``hand`` may play to ``trick``, in canonical order.

    A hand holding the suit led must follow it when ``follow`` is set; a
    lead, or a hand void in the suit led, may play any card.
    """
    sp = SUIT_PLAYS
    if trick and follow:
        suit = trick[0] // 10
        in_suit = hand >> (10 * suit) & 1023
        if in_suit:
            return sp[suit][in_suit]
    return sp[0][hand & 1023] + sp[1][hand >> 10 & 1023] + sp[2][hand >> 20 & 1023] + sp[3][hand >> 30]


def winning_play(cards: Sequence[int]) -> int:
    """Return the place in ``cards`` (a trick so far, from the lead) of the card winning it.

    The highest card of the suit led wins: within a suit a lower index is a
    stronger card, and a card of another suit never wins.
    """
    suit = cards[0] // 10
    return min((c, i) for i, c in enumerate(cards) if c // 10 == suit)[1]


def trick_winner(cards: tuple[int, ...], leader: int, next_seat: tuple[int, ...]) -> int:
    """Return the seat that wins the complete trick ``cards`` led by ``leader``."""
    winner = leader
    for _ in range(winning_play(cards)):
        winner = next_seat[winner]
    return winner


def refuses(hand: int, card: int, lead: int) -> bool:
    """Whether following suit refuses ``card`` (held in ``hand``) to a trick led by ``lead``.

    The fast form of :func:`legal_plays` for one card: refused when it is not
    of the suit led and the hand holds that suit.
    """
    led = SUIT_MASKS[lead // 10]
    return not led >> card & 1 and hand & led != 0


def third_wins(c0: int, c1: int, c2: int) -> int:
    """Return the place (0, 1 or 2) of the card winning the trick ``c0, c1, c2``.

    The fast form of :func:`winning_play` for a complete trick of three.
    """
    suit = c0 // 10
    if c1 // 10 == suit and c1 < c0:
        return 2 if c2 // 10 == suit and c2 < c1 else 1
    return 2 if c2 // 10 == suit and c2 < c0 else 0
