"""The sampler's reading of exchange steps of a variant's own: their recorded moves.

Private to :mod:`calabrasella.bots._worlds`. A step of its own moves cards with
``Work.move``; each move is in the view (:attr:`calabrasella.View.moves`) with its
cards where the seat saw them, and the sampler follows it from hand to hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import calabrasella as cb

from ._hand import bits

if TYPE_CHECKING:
    from ._worlds import _Pass

_PLAYS = (cb.Play, cb.Revoke)
_SILENT = (cb.Pass, cb.Bid, cb.Raise, cb.Done, cb.TurnStock, cb.Abandon)
_KNOWN = (*_PLAYS, *_SILENT, cb.Discard, cb.Take, cb.Draw, cb.GiveBack, cb.Call, cb.OutOfTurn)
_KNOWN_HIDDEN = ("discard", "give_back", "draw", "take")


def _is_own(action: object) -> bool:
    """Whether an entry is an action of a variant's own kind (or one shown face down)."""
    if type(action) is cb.Hidden:
        return action.kind not in _KNOWN_HIDDEN
    return type(action) not in _KNOWN


def _moves_of(
    own: dict[tuple[int, int], list[cb.places.Move]], rank: int, index: int
) -> list[cb.places.Move]:
    return own.get((index, -1) if rank else (-1, index), [])


def _own_moves(view: cb.View) -> dict[tuple[int, int], list[cb.places.Move]]:
    """The moves of actions of a variant's own kinds, by ``(entry, forced)``."""
    out: dict[tuple[int, int], list[cb.places.Move]] = {}
    for move in view.moves:
        if move.target.where is cb.places.Where.TRICK or move.source.where is cb.places.Where.TRICK:
            continue
        out.setdefault((move.entry, move.forced), []).append(move)
    return out


_HAND_CODES = range(4)


def _own_move(fwd: _Pass, move: cb.places.Move, entry: int) -> None:
    """Follow a move an exchange step of a variant's own made: from hand to hand only."""
    src, dst = move.source.code, move.target.code
    if src not in _HAND_CODES or dst not in _HAND_CODES:
        raise cb.RulesetError(
            f"{fwd.view.rules.name}: the sampler follows a step of its own only when it moves "
            f"cards from hand to hand, not from {move.source} to {move.target}"
        )
    fwd.exact = False
    if move.cards is not None:
        for card in bits(move.cards.mask):
            fwd.move(card, src, dst)
    else:  # any card that may be in the source may now be in the target
        fwd.poss[dst] |= fwd.poss[src]
        fwd.widened = True


