"""What a spectator may be shown: what every seat's view shows alike.

The library gives each seat its view; a spectator is no seat. Its view is
built as the common part of all the seats' views (as plain data): a field
every view shows alike is known to every seat, so it is public; a field the
views show differently (the hand, the legal actions, a seat's own
discards) is left out; a history entry some seat sees face down is shown
face down. Nothing can appear in it that some seat may not know.
"""

from __future__ import annotations

from typing import Any

import calabrasella as cb
from calabrasella import places

#: A face-down action whose kind no view names.
HIDDEN: dict[str, str] = {"hidden": "action"}


def _entry(entries: list[Any]) -> Any:
    """The common form of one history entry, or the entry face down."""
    first = entries[0]
    if all(entry == first for entry in entries):
        return first
    hidden = next(
        (entry[-1] for entry in entries if isinstance(entry[-1], dict) and "hidden" in entry[-1]),
        HIDDEN,
    )
    return [*first[:-1], hidden]


def public_view_data(state: cb.State) -> dict[str, Any]:
    """Return the spectator's view of ``state`` as plain data, shaped as a view's data.

    ``seat`` is ``None``, ``hand`` and ``legal_actions`` are empty, and any
    field the seats' views disagree on is ``None`` (or empty).

    Example:
        >>> import calabrasella as cb
        >>> data = public_view_data(cb.new_deal(cb.CAVENDISH, seed=7))
        >>> data["seat"], data["hand"], data["hand_sizes"], data["legal_actions"]
        (None, [], [12, 12, 12], [])
    """
    views = [cb.to_data(state.view(seat)) for seat in range(state.rules.players)]
    public: dict[str, Any] = {}
    for key, value in views[0].items():
        values = [view[key] for view in views]
        if key in ("history", "forced_moves"):
            public[key] = [_entry([v[n] for v in values]) for n in range(len(value))]
        elif all(other == value for other in values):
            public[key] = value
        else:
            public[key] = [] if isinstance(value, list) else None
    return public


def _spots(game: cb.State | cb.View) -> dict[tuple[str, int | None], tuple[list[str], int, list[str]]]:
    """The stock and each seat's laid-aside cards as ``places.layout`` gives them."""
    found = {}
    for spot in places.layout(game):
        where = spot.place.where
        if where in (places.Where.STOCK, places.Where.LAID_ASIDE):
            shown = [card.code for card in spot.shown]
            public = [card.code for card in spot.public]
            found[where.value, spot.place.seat] = (shown, spot.face_down, public)
    return found


def places_data(state: cb.State, seat: int | None) -> list[dict[str, Any]]:
    """What the stock and each seat's laid-aside cards hold, as ``seat`` may see them.

    Read from :func:`calabrasella.places.layout` of the seat's view: the
    stock is what is in it now (cards taken from it are gone from it; the
    discards that count with it are their own places, by who laid them
    aside). For a spectator (``seat=None``) a card is shown only where every
    seat's view shows it; the others are face down. Each place is
    ``{"where": "stock" or "laid aside", "seat": owner or None, "shown":
    [codes], "face_down": count, "public": [codes every seat has seen]}``.

    Example:
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> for text in ("bid stand", "call 3c", "give back 5c", "discard 6c"):
        ...     s = cb.apply(s, cb.parse_action(text))
        >>> for place in places_data(s, 1):
        ...     print(place)
        {'where': 'stock', 'seat': None, 'shown': [], 'face_down': 4, 'public': []}
        {'where': 'laid aside', 'seat': 1, 'shown': ['6c'], 'face_down': 0, 'public': []}
        >>> places_data(s, None)[1]["shown"], places_data(s, None)[1]["face_down"]
        ([], 1)
    """
    if seat is not None:
        found = _spots(state.view(seat))
    else:
        views = [_spots(state.view(s)) for s in range(state.rules.players)]
        found = {}
        for key, (shown, down, public) in views[0].items():
            common = [c for c in shown if all(c in v.get(key, ((), 0, ()))[0] for v in views[1:])]
            found[key] = (common, down + len(shown) - len(common), public)
    return [{"where": where, "seat": owner, "shown": shown, "face_down": down, "public": public}
            for (where, owner), (shown, down, public) in found.items()]  # fmt: skip
