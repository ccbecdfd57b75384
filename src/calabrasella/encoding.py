"""Numbers for learning programs: integer actions, legal masks and observation vectors.

Pure Python; NumPy is used only when it is asked for (``numpy=True``) and
installed. Nothing here imports NumPy at import time.

**Actions.** Every built-in player action has one fixed id, the same in every
ruleset (the table below); :func:`num_actions` is 208 for a ruleset that
forbids irregularities and 413 in table mode (``irregularities="record"``),
whose irregular actions take the ids from 208 on.

| Ids | Action |
| --- | --- |
| 0 | `Pass()` |
| 1 | `Done()` |
| 2-5 | `Bid(contract)`: stand, chiamo, solo, solissimo |
| 6-7 | `Raise(modifier)`: dividete, scegliete |
| 8-47 | `Call(card)`, ``8 + card.index`` |
| 48-87 | `GiveBack(card)` |
| 88-127 | `Discard(card)` |
| 128-167 | `Take(card)` |
| 168-207 | `Play(card)` |
| 208-247 | `Revoke(card)` (table mode) |
| 248-251 | `TurnStock(seat)` (table mode) |
| 252 | `Abandon()` (table mode) |
| 253-412 | `OutOfTurn(seat, card)`, ``253 + 40 * seat + card.index`` (table mode) |

A chance outcome (:class:`~calabrasella.Draw`) is not a player's action and
has no id here (an environment numbers a chance node's outcomes itself), and
a variant's own kind of action (:class:`~calabrasella.CustomAction`) has no
fixed place in a fixed space: both raise
:class:`~calabrasella.IllegalActionError`, and so does
:func:`legal_mask` where such an action is legal. Each kind's ids are
declared with it (:class:`~calabrasella.actions.ActionKind`), so a kind
declared like the built-in ones has ids of its own, from 413 on, and the
action space of a ruleset whose steps list it reaches them.

**Observations.** :func:`observation` turns a :class:`~calabrasella.View`
into a flat vector of floats of a fixed length for its ruleset
(:func:`observation_size`): the parts every ruleset shares
(:data:`OBSERVATION_LAYOUT`), then the highest bid, the auction's calls in
order and the moves each seat made after it as the view's seat saw them
(:func:`observation_parts` lists them all, :func:`observation_layout` gives
each part's slice); seats are absolute (0 to 3; a three-seat table leaves
seat 3's entries at zero). With ``recall=True`` it is the information state:
every move after the auction follows, in order.

**What a view tells.** :func:`cards_played`, :func:`unseen_cards`,
:func:`known_voids`, :func:`winning_seat`, :func:`partner` and
:func:`tricks_left` work out what the vector holds beyond the view's
fields; a :class:`~calabrasella.View` offers each as a property of the same
name (``view.cards_played``...).

Example:
    >>> import calabrasella as cb
    >>> from calabrasella import encoding
    >>> state = cb.new_deal(cb.CAVENDISH, seed=7)
    >>> view = state.view(state.to_move)
    >>> [encoding.action_id(a) for a in view.legal_actions]
    [0, 2]
    >>> encoding.action_of(2, view)
    Bid(contract=<Contract.STAND: 'stand'>)
    >>> mask = encoding.legal_mask(view)
    >>> len(mask), sum(mask)
    (208, 2)
    >>> len(encoding.observation(view)) == encoding.observation_size(cb.CAVENDISH)
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Union

from ._action_kinds import IRREGULAR_CLASSES, declared, watch_kinds
from ._encoding_moves import exchange_classes
from ._encoding_observation import (
    OBSERVATION_LAYOUT,
    OBSERVATION_VERSION,
    observation,
    observation_layout,
    observation_parts,
    observation_size,
)
from ._encoding_views import (
    cards_played,
    known_voids,
    partner,
    tricks_left,
    unseen_cards,
    winning_seat,
)
from ._memo import keep
from .actions import Action, CustomAction
from .errors import IllegalActionError, StateError
from .rulesets.base import PLAY_TABLE, Ruleset
from .state import State
from .views import View

__all__ = [
    "NUM_REGULAR_ACTIONS",
    "NUM_TABLE_ACTIONS",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_VERSION",
    "action_among",
    "action_at",
    "action_id",
    "action_ids",
    "action_of",
    "cards_played",
    "known_voids",
    "legal_ids",
    "legal_mask",
    "num_actions",
    "observation",
    "observation_layout",
    "observation_parts",
    "observation_size",
    "partner",
    "tricks_left",
    "unseen_cards",
    "winning_seat",
]


# Each built-in kind's place in the action space is declared with it (its
# ``ActionKind.action_id``): the ids of its actions follow one another from there.
# The tables below follow the declared kinds.

#: Every action by id (the shared instances), ``None`` where no kind has the id.
_BY_ID: list[Any] = []
#: The id of each of those instances, by identity (they live as long as their kind
#: is declared): the legal actions the engine lists are these, and need no look at
#: their fields.
_ID_OF: dict[int, int] = {}
#: The same, by value (an action the engine did not make).
_ID_BY_VALUE: dict[Any, int] = {}
#: The end of the ids of each kind a ruleset's exchange may bring beyond the
#: built-in space, by class.
_ENDS: dict[type, int] = {}
#: The declared classes that have no id, with the reason.
_NO_ID: dict[type, str] = {}


def _id_tables() -> None:
    by_id: dict[int, Any] = {}
    _ENDS.clear()
    _NO_ID.clear()
    for d in declared():
        base = d.kind.action_id
        if base is None or d.instances is None:
            _NO_ID[d.cls] = (
                "a chance outcome, not a player's action" if d.kind.chance else "not in the fixed action space"
            )
            continue
        for i, action in enumerate(d.instances):
            by_id[base + i] = action
        _ENDS[d.cls] = base + len(d.instances)
    size = max(by_id, default=-1) + 1
    _BY_ID[:] = [by_id.get(i) for i in range(size)]
    _ID_BY_VALUE.clear()
    _ID_BY_VALUE.update({action: i for i, action in by_id.items()})
    _ID_OF.clear()
    _ID_OF.update({id(action): i for i, action in by_id.items()})
    _SIZES.clear()


# The size of each ruleset's action space met so far, by id (each ruleset kept).
_SIZES: dict[int, tuple[Ruleset, int]] = {}
watch_kinds(_id_tables)

#: The size of the action space of a ruleset that forbids irregularities (208).
NUM_REGULAR_ACTIONS = max(end for cls, end in _ENDS.items() if cls not in IRREGULAR_CLASSES)
#: The size of the action space in table mode (``irregularities="record"``; 413).
NUM_TABLE_ACTIONS = max(_ENDS.values())


def num_actions(rules: Ruleset) -> int:
    """Return the size of ``rules``' action space: 208, or 413 in table mode.

    Example:
        >>> import attrs, calabrasella as cb
        >>> num_actions(cb.CALABRESELLA), num_actions(attrs.evolve(cb.CAVENDISH, irregularities="record"))
        (208, 413)
    """
    known = _SIZES.get(id(rules))
    if known is not None and known[0] is rules:
        return known[1]
    size = NUM_TABLE_ACTIONS if rules._play == PLAY_TABLE else NUM_REGULAR_ACTIONS
    for cls in exchange_classes(rules):
        size = max(size, _ENDS.get(cls, 0))
    return keep(_SIZES, id(rules), (rules, size), 64)[1]


def action_id(action: Action) -> int:
    """Return the fixed id of a player's action (see the module's table).

    Raises:
        IllegalActionError: ``action`` is a chance outcome (:class:`Draw`), a
            variant's own kind (:class:`CustomAction`) or not an action.

    Example:
        >>> import calabrasella as cb
        >>> action_id(cb.Play("3d")), action_id(cb.Play("4c")), action_id(cb.Bid("solo"))
        (168, 207, 4)
    """
    known = _ID_OF.get(id(action))
    if known is not None:
        return known
    try:
        known = _ID_BY_VALUE.get(action)
    except TypeError:  # not hashable: no action
        known = None
    if known is not None:
        return known
    reason = _NO_ID.get(action.__class__)
    if reason is not None:
        raise IllegalActionError(action, f"{reason}: it has no action id")
    if isinstance(action, CustomAction):
        raise IllegalActionError(
            action,
            f"a variant's own kind of action ({type(action).kind!r}) has no action id: "
            "the fixed action space numbers the built-in actions only",
        )
    raise IllegalActionError(action, "not an action: it has no action id")


def action_at(action_id: int) -> Action:
    """Return the action numbered ``action_id``, legal anywhere or not (for display).

    Raises:
        IllegalActionError: ``action_id`` is not an id (0 to 412).

    Example:
        >>> action_at(168), action_at(252)
        (Play(card=Card.parse('3d')), Abandon())
    """
    if type(action_id) is not int or not 0 <= action_id < len(_BY_ID) or _BY_ID[action_id] is None:
        raise IllegalActionError(action_id, f"not an action id (0 to {NUM_TABLE_ACTIONS - 1})")
    return _BY_ID[action_id]  # type: ignore[no-any-return]


def _legal(state_or_view: Union[State, View]) -> tuple[Action, ...]:
    if isinstance(state_or_view, View):
        return state_or_view.legal_actions
    if isinstance(state_or_view, State):
        return state_or_view.legal_actions()
    raise StateError(f"expected a State or a View, not {state_or_view!r}")


def action_of(action_id: int, state_or_view: Union[State, View]) -> Action:
    """Return the legal action numbered ``action_id`` in a state or a view.

    The inverse of :func:`action_id` over the legal actions: the action
    returned is the one ``legal_actions`` lists (the same instance).

    Raises:
        IllegalActionError: ``action_id`` is not an id of the ruleset's action
            space, or its action is not legal there.
        StateError: ``state_or_view`` is neither a state nor a view.

    Example:
        >>> import calabrasella as cb
        >>> view = cb.new_deal(cb.CALABRESELLA, seed=3).view(1)
        >>> action_of(0, view)
        Pass()
        >>> action_of(168, view)
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action 168: action id 168 (play 3d) is not legal here
    """
    legal = _legal(state_or_view)
    return _pick(action_id, legal, num_actions(state_or_view.rules))


def action_among(action_id: Any, actions: Sequence[Action], rules: Ruleset) -> Action:
    """Return the action of ``actions`` numbered ``action_id`` in ``rules``' action space.

    :func:`action_of` for a program that already holds the legal actions (an
    environment that lists them once a state): the action returned is the
    one ``actions`` holds (the same instance).

    Raises:
        IllegalActionError: ``action_id`` is not an id of the ruleset's action
            space, or its action is not among ``actions``.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CALABRESELLA, seed=3)
        >>> action_among(0, state.legal_actions(), state.rules)
        Pass()
    """
    return _pick(action_id, actions, num_actions(rules))


def _pick(action_id: Any, legal: Sequence[Action], size: int) -> Action:
    """Return the action of ``legal`` numbered ``action_id`` in a space of ``size`` ids.

    Raises:
        IllegalActionError: As :func:`action_of`.
    """
    if type(action_id) is not int:
        try:
            action_id = int(action_id.__index__())  # a NumPy integer, say
        except (AttributeError, TypeError):
            raise IllegalActionError(action_id, "not an action id (an int)") from None
    if not 0 <= action_id < size:
        raise IllegalActionError(action_id, f"not an action id of this ruleset (0 to {size - 1})")
    wanted: Action | None = _BY_ID[action_id] if action_id < len(_BY_ID) else None
    if wanted is None:
        raise IllegalActionError(action_id, f"not an action id of this ruleset (0 to {size - 1})")
    for action in legal:
        if action is wanted:  # the engine's own instance, mostly
            return action
    for action in legal:
        if action == wanted:
            return action
    raise IllegalActionError(action_id, f"action id {action_id} ({wanted}) is not legal here")


def action_ids(actions: Sequence[Action]) -> list[int]:
    """Return the ids of ``actions``, in order (:func:`legal_ids` for a program that
    already holds the legal actions).

    Raises:
        IllegalActionError: An action has no id (a variant's own kind, or a
            chance outcome).

    Example:
        >>> import calabrasella as cb
        >>> action_ids([cb.Pass(), cb.Play("3d")])
        [0, 168]
    """
    return _ids_of(actions)


def _ids_of(legal: Sequence[Action]) -> list[int]:
    """Return the ids of ``legal`` (see :func:`action_ids`)."""
    ids = list(map(_ID_OF.get, map(id, legal)))
    if None in ids:  # an action that is not one of the shared instances
        ids = [action_id(a) for a in legal]
    return ids  # type: ignore[return-value]


def legal_ids(state_or_view: Union[State, View]) -> list[int]:
    """Return the ids of the legal actions, in ``legal_actions``' order.

    Raises:
        IllegalActionError: A legal action has no id (a variant's own kind, or
            the state is a chance node: its outcomes are no player's).
        StateError: ``state_or_view`` is neither a state nor a view.
    """
    return _ids_of(_legal(state_or_view))


def legal_mask(state_or_view: Union[State, View], *, numpy: bool = False) -> Any:
    """Return a 0/1 vector over the action space: 1 where the action is legal.

    A list of ints, or with ``numpy=True`` a NumPy ``int8`` array. Given a
    view, the seat's own legal actions (none when it is not to act); given a
    state, every legal action (in table mode, every seat's irregular ones too).

    Raises:
        IllegalActionError: As :func:`legal_ids`.
        StateError: ``state_or_view`` is neither a state nor a view.
        ImportError: ``numpy=True`` and NumPy is not installed.
    """
    ids = legal_ids(state_or_view)
    size = num_actions(state_or_view.rules)
    if numpy:
        import numpy as np

        raw = bytearray(size)
        for i in ids:
            raw[i] = 1
        return np.frombuffer(raw, dtype=np.int8)  # (writable: it owns a bytearray)
    mask = [0] * size
    for i in ids:
        mask[i] = 1
    return mask
