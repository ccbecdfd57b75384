"""The invariant checks the conformance kit and the property tests share.

Public through :mod:`calabrasella.testing`, which re-exports each of them;
import them from there.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterable, Sequence
from typing import Any, cast

import attrs

from . import _pickle
from ._action_json import action_data, custom_action
from ._action_kinds import registered_class
from .actions import (
    Abandon,
    Action,
    Call,
    CustomAction,
    Discard,
    Draw,
    GiveBack,
    OutOfTurn,
    Play,
    Revoke,
    Take,
    TurnStock,
    parse_action,
)
from .cards import DECK, Card, CardSet
from .engine import apply, legal_actions, sample_chance
from .phases import Phase
from .rulesets.steps import Step
from .state import State
from .views import View

__all__ = [
    "action_cards",
    "cards_seat_may_know",
    "encoding_problem",
    "history_diff",
    "played_cards",
    "recount_tricks",
    "relabel_action",
    "relabel_cards",
    "revoke_penalty",
    "same_contents",
    "state_contents",
    "table_mode_problem",
    "the_loop",
    "view_diff",
    "world_permutation",
]

_FULL = (1 << 40) - 1
# The actions of the play (a revoke and a card out of turn are shown to all).
_PLAY_KINDS = (Play, Revoke, OutOfTurn, Abandon)


def state_contents(state: State) -> tuple[object, ...]:
    """Return the values a state holds, field by field (independent of ``State.__eq__``).

    Every field is an immutable value, so a state was changed in place
    exactly when one of these is no longer the same object: compare two
    snapshots with ``is``, element by element (see :func:`same_contents`).

    Example:
        >>> from calabrasella import CAVENDISH, new_deal
        >>> s = new_deal(CAVENDISH, seed=1)
        >>> same_contents(state_contents(s), state_contents(s))
        True
    """
    return (
        state.rules,
        state.deal,
        state.phase,
        state.to_move,
        state.hand_masks,
        state.stock_mask,
        state.exchange,
        state.trick_cards,
        state.leader,
        state.card_units_won,
        state.tricks_won,
        state.history,
        state.result,
    )


def same_contents(before: tuple[object, ...], after: tuple[object, ...]) -> bool:
    """Tell whether two :func:`state_contents` snapshots hold the very same objects."""
    return len(before) == len(after) and all(a is b for a, b in zip(before, after))


def played_cards(state: State) -> list[tuple[int, Card]]:
    """Return the cards played so far as ``(seat, card)``, in order, read from the history."""
    return [
        (who, action.card) for who, action in state.history if isinstance(action, (Play, Revoke))
    ]


def recount_tricks(state: State) -> tuple[int, int, int, int]:
    """Recount a played-out deal from its history, without the engine's tricks or scoring.

    Each trick of the ``Play`` entries goes to the highest card of the suit
    led; the winner of the last trick also takes 3 units and the stock.

    Returns:
        The declarer's units, the adversaries' units, the declarer's tricks
        and the adversaries' tricks (the order of :class:`~calabrasella.Result`).

    Raises:
        ValueError: Not 36 cards were played, nobody declared, or a trick was
            led by a seat that did not win the one before.
    """
    plays = played_cards(state)
    declarer = state.declarer
    if declarer is None or len(plays) != 36:
        raise ValueError(f"{len(plays)} cards played (declarer {declarer}): not a played-out deal")
    units = [0] * state.players
    tricks = [0] * state.players
    last = -1
    for t in range(0, 36, 3):
        trick = plays[t : t + 3]
        leader, led = trick[0]
        if last >= 0 and leader != last:
            raise ValueError(f"trick {t // 3 + 1} was led by seat {leader}, not by {last}")
        _, last = max((card.rank, who) for who, card in trick if card.suit == led.suit)
        units[last] += sum(card.units for _, card in trick)
        tricks[last] += 1
    units[last] += 3 + state.stock.units  # the last trick, and the stock with it
    du, dt = units[declarer], tricks[declarer]
    return du, sum(units) - du, dt, sum(tricks) - dt


# --- alternative worlds ----------------------------------------------------------


def cards_seat_may_know(state: State, seat: int) -> CardSet:
    """Return the cards ``seat`` may know in ``state``, worked out without the views.

    Its hand as dealt and as now; the stock cards turned face up; the cards
    of every action and forced move of the deal (its own always), except
    those whose moves this seat did not see (the exchange's move records,
    :meth:`calabrasella.rulesets.steps.Work.move`); and, once a played
    deal is over, the final stock (a void deal is thrown in unseen). A view
    may show this seat these cards and no others.

    Example:
        >>> from calabrasella import CAVENDISH, new_deal
        >>> s = new_deal(CAVENDISH, seed=1)
        >>> cards_seat_may_know(s, 0) == s.hand(0)
        True
    """
    deal = state.deal
    known = deal.hands[seat].mask | state.hand_masks[seat]
    ex = state.exchange
    if ex is not None:
        known |= ex.books(state.history, state.players).exposed & deal.stock.mask
        for j, (_at, _k, who, action) in enumerate(ex.forced):
            if ex.told(-1, j, who, seat, action) is None:
                known |= action_cards(action)
    for i, (who, action) in enumerate(state.history):
        if (
            ex is not None
            and type(action) not in _PLAY_KINDS
            and ex.told(i, -1, who, seat, action) is not None
        ):
            continue
        known |= action_cards(action)
    if state.is_over and ex is not None:
        known |= state.stock_mask
    return CardSet(known)


def action_cards(action: Action) -> int:
    """Return the mask of the cards an action names (for a custom kind, its attrs fields
    that hold a card or a set of cards)."""
    if isinstance(action, Draw):
        return action.cards.mask
    if isinstance(action, CustomAction):
        mask = 0
        for value in _custom_fields(action).values():
            mask |= value.mask if isinstance(value, CardSet) else 1 << value.index
        return mask
    card = getattr(action, "card", None)
    return 0 if card is None else 1 << card.index


def _custom_fields(action: CustomAction) -> dict[str, Any]:
    """Return the init fields of an attrs custom action that hold a card or a set of
    cards, by their ``__init__`` name (none for a class that is not an attrs class)."""
    cls = type(action)
    if not attrs.has(cls):
        return {}
    out = {}
    for field in attrs.fields(cls):
        value = getattr(action, field.name)
        if field.init and isinstance(value, (Card, CardSet)):
            out[field.alias] = value
    return out


def world_permutation(state: State, seat: int, rng: random.Random) -> list[int] | None:
    """Return a random suit-keeping permutation of the cards ``seat`` cannot know.

    ``None`` when no such permutation moves a card.
    """
    unknown = _FULL & ~cards_seat_may_know(state, seat).mask
    perm = list(range(40))
    groups = [[i for i in range(40) if unknown >> i & 1 and DECK[i].suit == s] for s in range(4)]
    if all(len(g) < 2 for g in groups):
        return None
    while perm == list(range(40)):
        for group in groups:
            shuffled = group[:]
            rng.shuffle(shuffled)
            for src, dst in zip(group, shuffled, strict=True):
                perm[src] = dst
    return perm


def _relabel_mask(mask: int, perm: Sequence[int]) -> int:
    out = 0
    for i in range(40):
        if mask >> i & 1:
            out |= 1 << perm[i]
    return out


def relabel_cards(cards: CardSet, perm: Sequence[int]) -> CardSet:
    """Return ``cards`` relabelled: card ``i`` becomes ``perm[i]``."""
    return CardSet(_relabel_mask(cards.mask, perm))


def relabel_action(action: Action, perm: Sequence[int]) -> Action:
    """Return ``action`` with its cards relabelled: card ``i`` becomes ``perm[i]``.

    Example:
        >>> from calabrasella import Play
        >>> perm = list(range(40)); perm[0], perm[1] = 1, 0
        >>> relabel_action(Play("3d"), perm)
        Play(card=Card.parse('2d'))
    """
    if isinstance(action, Draw):
        return Draw(relabel_cards(action.cards, perm))
    if isinstance(action, (Play, Revoke, Discard, Take, Call, GiveBack)):
        return type(action)(DECK[perm[action.card.index]])
    if isinstance(action, OutOfTurn):
        return OutOfTurn(action.seat, DECK[perm[action.card.index]])
    if isinstance(action, CustomAction):
        fields = _custom_fields(action)
        if fields:
            changes = {
                name: relabel_cards(v, perm) if isinstance(v, CardSet) else DECK[perm[v.index]]
                for name, v in fields.items()
            }
            return attrs.evolve(cast(Any, action), **changes)  # type: ignore[no-any-return]
    return action


def encoding_problem(action: Action, step: Step | None = None) -> str | None:
    """Say why ``action`` does not read back equal from its text, its JSON or its pickle.

    Its text (``str``) through :func:`~calabrasella.parse_action`, its JSON
    as records write it, and the codes a pickled state keeps it as. An action
    of a custom kind must also be of a registered class
    (:func:`~calabrasella.register_action`), write one line that starts with
    its kind, and, when the exchange step ``step`` listed it, be of a class
    that step declares in its ``actions`` class attribute.

    Returns:
        What is wrong, or ``None`` when all is well.

    Example:
        >>> from calabrasella import Play
        >>> encoding_problem(Play("Ad")) is None
        True
    """
    text = str(action)
    if isinstance(action, CustomAction):
        cls = type(action)
        name, kind = cls.__qualname__, cls.kind
        if step is not None and cls not in step.actions:
            return f"{type(step).__name__} lists {text} but does not declare {name} in its actions"
        if registered_class(kind) is not cls:
            return f"the action kind {kind!r} of {name} is not registered (see register_action)"
        if not text.isprintable() or text.split(" ", 1)[0].lower() != kind:
            return f"{text!r} is not one line starting with its kind {kind!r}"
    try:
        back = parse_action(text)
    except Exception as error:  # a kind's own parser may raise anything
        return f"{text!r} does not read back from its text: {error!r}"
    if back != action:
        return f"{text} reads back from its text as {back!r}"
    try:
        data = json.dumps(action_data(action, "action"))
        read = json.loads(data)
        back = custom_action(read, "action") if type(read) is dict else parse_action(read)
    except Exception as error:
        return f"{text} does not read back from its JSON: {error!r}"
    if back != action:
        return f"{text} reads back from its JSON {data} as {back!r}"
    try:
        kept = pickle.loads(pickle.dumps(_pickle.encode_actions([action])))
        back = _pickle.decode_actions(*kept)[0]
    except Exception as error:
        return f"{text} does not read back from its pickle: {error!r}"
    if back != action:
        return f"{text} reads back from its pickle as {back!r}"
    return None


def new_encoding_problem(state: State, legal: tuple[Action, ...], seen: set[Action]) -> str | None:
    """Run :func:`encoding_problem` on each action of ``legal`` not in ``seen`` (then add it
    there), with the exchange step listing it; return the first problem."""
    ex = state.exchange
    step = ex.plan[ex.step] if ex and Phase.BIDDING < state.phase < Phase.PLAYING else None
    for action in legal:
        if action not in seen:
            problem = encoding_problem(action, step)
            if problem is not None:
                return problem
            seen.add(action)
    return None


def revoke_penalty(state: State, du: int, au: int) -> int:
    """Return the units table mode's revokes move to the declarer (negative: away).

    Recounted from the history: 9 units per revoke from the offending side,
    the sides' revokes set against each other, neither side below 0 given
    the sides' units ``du`` and ``au`` before the penalty.
    """
    net = 0
    for who, action in state.history:
        if isinstance(action, Revoke):
            net += -9 if who == state.declarer else 9
    return min(net, au) if net > 0 else -min(-net, du)


def table_mode_problem(state: State) -> str | None:
    """Check the end of a deal that an irregularity ended (table mode); ``None``: all well.

    After an :class:`Abandon`: 35 units, the adversaries' card units of the
    tricks completed before the error, the rest to the single player (revokes
    settled). After a :class:`TurnStock` by the single player: void, he pays
    35 to each adversary.
    """
    result, declarer = state.result, state.declarer
    if result is None or declarer is None:
        return "the deal is over but has no result or no single player"
    if sum(result.payments) != 0:
        return f"the payments {result.payments} do not add up to 0"
    who, action = state.history[-1]
    if isinstance(action, TurnStock):
        others = [p for seat, p in enumerate(result.payments) if seat != declarer]
        if not result.void or who != declarer or any(p not in (0, 35) for p in others):
            return "a stock turned early by the single player must void the deal, 35 to each"
        return None
    got = (result.declarer_units, result.adversary_units)
    au = sum(u for seat, u in enumerate(state.card_units_won) if seat != declarer)
    penalty = revoke_penalty(state, 35 - au, au)
    if got != (35 - au + penalty, au - penalty):
        return f"the sides' units are {got} after an abandon"
    return None


def the_loop(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end the plain way, as :func:`calabrasella.rollout` promises to.

    While the deal is not over: at a chance node apply
    ``sample_chance(state, rng)``, else ``rng.choice(legal_actions(state))``.

    Example:
        >>> import calabrasella as cb
        >>> start = cb.new_deal(cb.CAVENDISH, seed=4)
        >>> the_loop(start, random.Random(9)) == cb.rollout(start, random.Random(9))
        True
    """
    while not state.is_over:
        if state.is_chance:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    return state


def history_diff(mine: State, theirs: State) -> str:
    """Say where two states of the same deal part: the first history entry that differs.

    Example:
        >>> import calabrasella as cb
        >>> start = cb.new_deal(cb.CAVENDISH, seed=4)
        >>> history_diff(cb.apply(start, cb.Pass()), start)
        '1 history entries, not 0'
    """
    for at, (a, b) in enumerate(zip(mine.history, theirs.history)):
        if a != b:
            return f"entry {at} is {a[1]} by seat {a[0]}, not {b[1]} by seat {b[0]}"
    if len(mine.history) != len(theirs.history):
        return f"{len(mine.history)} history entries, not {len(theirs.history)}"
    return f"the same history, but {mine.result!r}, not {theirs.result!r}"


def view_diff(mine: View, theirs: View) -> str:
    """Say how two views differ: the first three fields that differ, with both values."""
    names: Iterable[str] = (f.name for f in attrs.fields(type(mine)))
    parts = [
        f"{name} {getattr(mine, name)!r} != {getattr(theirs, name)!r}"
        for name in names
        if getattr(mine, name) != getattr(theirs, name)
    ]
    return "; ".join(parts[:3]) or "the views differ"
