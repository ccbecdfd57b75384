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
