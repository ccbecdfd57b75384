"""One action per card of a mask, from a table of one action per card: the steps' legal actions."""

from __future__ import annotations

from .._memo import keep
from ..actions import Action

__all__ = ["card_actions"]


# One entry per table: the table itself (kept so its id is not reused while
# cached) and its holdings, suit by suit (1,024 per suit); a few tables at
# most, oldest dropped first.
_SUIT_TABLES: dict[int, tuple[tuple[Action, ...], tuple[tuple[Action, ...], ...]]] = {}
_SUIT_TABLES_SIZE = 32


def card_actions(table: tuple[Action, ...], mask: int) -> tuple[Action, ...]:
    """Return ``table[i]`` for every card ``i`` in ``mask``, in card order.

    ``table`` holds one action per card (such as ``actions.DISCARDS``);
    build it once, at module level. The tuples for each suit's 1,024
    possible holdings are built the first time a table is used, so this is
    four tuple lookups.
    """
    entry = _SUIT_TABLES.get(id(table))
    if entry is None or entry[0] is not table:
        entry = _suit_table(table)
    parts = entry[1]
    return (
        parts[mask & 1023]
        + parts[1024 | mask >> 10 & 1023]
        + parts[2048 | mask >> 20 & 1023]
        + parts[3072 | mask >> 30 & 1023]
    )


def _suit_table(
    table: tuple[Action, ...],
) -> tuple[tuple[Action, ...], tuple[tuple[Action, ...], ...]]:
    parts = tuple(
        tuple(table[10 * s + p] for p in range(10) if m >> p & 1)
        for s in range(4)
        for m in range(1024)
    )
    return keep(_SUIT_TABLES, id(table), (table, parts), _SUIT_TABLES_SIZE)


