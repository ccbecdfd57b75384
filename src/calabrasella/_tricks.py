"""The play rule, written once: which cards a hand may play to a trick, and who wins it.

Both rules work on card indices and 40-bit masks (see :mod:`calabrasella._bits`).
:func:`calabrasella.legal_actions`, :mod:`calabrasella._legal`, the views, table
mode's revoke and the rollout's generic loop call them; the two hot loops
(:func:`calabrasella.apply`'s check of a card and its trick's winner, and the
rollout's own draws) inline them, and ``tests/property/test_play_kernel.py``
holds each inlined copy to these.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import PLAYS, Play

__all__ = ["SUIT_PLAYS", "legal_plays", "trick_winner", "winning_play"]

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
