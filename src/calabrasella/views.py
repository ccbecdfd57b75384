"""Per-seat views: what one seat may know, and nothing more.

A server or a bot loop hands out views, never states. A view holds the seat's
own hand and its own private moves (its discards, the card it gave or got
back, its unseen draw), every public action and played card, the stock cards
that were shown to all, and, once the deal is over, the final stock and the
result. Actions others made face down appear in its history as
:class:`Hidden`. Two states that differ only in cards the seat cannot know
give it equal views.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

import attrs

from . import legal
from .actions import (
    Abandon,
    Action,
    Contract,
    GiveBack,
    Modifier,
    OutOfTurn,
    Play,
    Revoke,
    TurnStock,
)
from .cards import DECK, Card, CardSet, _cardset
from .phases import Phase
from .rulesets.base import PLAY_TABLE, Ruleset
from .rulesets.steps import Exchange, GiveBackStep
from .scoring import Result

if TYPE_CHECKING:
    from .state import State

__all__ = ["Hidden", "View", "build_view"]


@attrs.frozen
class Hidden:
    """Stands in a view's history for a face-down action of another seat.

    Attributes:
        kind: What kind of move it was, as the exchange step that made it
            says: ``"discard"``, ``"give_back"``, ``"draw"`` or ``"take"``
            for the built-in steps.
    """

    kind: str

    def __str__(self) -> str:
        return f"{self.kind.replace('_', ' ')} (face down)"


_HIDDEN: dict[str, Hidden] = {}


def _hidden(kind: str) -> Hidden:
    known = _HIDDEN.get(kind)
    if known is None:
        known = _HIDDEN[kind] = Hidden(kind)
    return known


@attrs.frozen(kw_only=True, slots=False, repr=False)
class View:
    """What one seat may know of a deal: hand it to that seat's player or bot.

    Attributes:
        rules: The ruleset.
        seat: Whose view this is.
        dealer: The dealer's seat.
        phase: The phase of the deal.
        to_move: The seat to act (``None`` at chance and at the end).
        hand: This seat's cards.
        hand_sizes: How many cards each seat holds.
        stock_size: How many cards the stock (monte) holds.
        declarer: The declarer, once known.
        contract: The winning bid, once known.
        modifier: Solissimo's raise, if made.
        called: The card called (asked for), if any.
        giver: The seat that handed over the called card, if any.
        given_back: The card returned to the giver, if this seat saw it.
        exposed: The stock cards that were shown to every seat.
        discards: This seat's own discards.
        drawn: The cards this seat drew unseen (dividete).
        trick: The current trick as (seat, card) pairs, from the leader's.
        leader: The seat that leads (led) the current trick.
        tricks_won: Tricks won by each seat.
        card_units_won: Card units in each seat's tricks.
        history: Every action as (seat, action), others' face-down ones as :class:`Hidden`.
        forced_moves: The moves the engine made by itself as ``(at, seat, action)``
            (see :attr:`calabrasella.State.forced_moves`), others' face-down
            ones as :class:`Hidden`.
        legal_actions: This seat's legal actions when it is to act, else empty.
        final_stock: The stock shown at the end of the deal (``None`` before).
        result: The result, once the deal is over.

    Example:
        >>> import calabrasella as cb
        >>> v = cb.new_deal(cb.CAVENDISH, seed=7).view(1)
        >>> v.seat, len(v.hand), v.legal_actions
        (1, 12, (Pass(), Bid(contract=<Contract.STAND: 'stand'>)))
    """

    rules: Ruleset
    seat: int
    dealer: int
    phase: Phase
    to_move: int | None
    hand: CardSet
    hand_sizes: tuple[int, ...]
    stock_size: int
    declarer: int | None
    contract: Contract | None
    modifier: Modifier | None
    called: Card | None
    giver: int | None
    given_back: Card | None
    exposed: CardSet
    discards: CardSet
    drawn: CardSet
    trick: tuple[tuple[int, Card], ...]
    leader: int
    tricks_won: tuple[int, ...]
    card_units_won: tuple[int, ...]
    history: tuple[tuple[int, Union[Action, Hidden]], ...]
    forced_moves: tuple[tuple[int, int, Union[Action, Hidden]], ...]
    legal_actions: tuple[Action, ...]
    final_stock: CardSet | None
    result: Result | None

    @property
    def is_over(self) -> bool:
        """Whether the deal is over."""
        return self.phase == Phase.OVER

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.to_move == self.seat

    def __repr__(self) -> str:
        return f"<View seat={self.seat} {self.phase.name.lower()} hand={self.hand}>"


def build_view(state: State, seat: int) -> View:
    """Return what ``seat`` may know of ``state`` (the caller checked both).

    The public entry points are :meth:`calabrasella.State.view` and
    :func:`calabrasella.view`.
    """
    hands = state._hand_masks
    ex = state._exchange
    history = state._history
    trick = state._trick_cards
    phase = state._phase
    over = phase is Phase.OVER
    d: dict[str, Any] = {
        "rules": state._rules,
        "seat": seat,
        "dealer": state._deal.dealer,
        "phase": phase,
        "to_move": state._to_move,
        "hand": _cardset(hands[seat]),
        "hand_sizes": tuple([h.bit_count() for h in hands]),
        "stock_size": state._stock_mask.bit_count(),
        "leader": state._leader,
        "tricks_won": state._tricks_won,
        "card_units_won": state._card_units_won,
        "legal_actions": state.legal_actions() if state._to_move == seat else (),
        "result": state._result,
    }
    record = state._rules._play == PLAY_TABLE
    if record and ex is not None and not over:  # table mode: each seat's irregular actions too
        d["legal_actions"] = _legal_for(state, seat)
    if trick:
        nxt = state._deal.next_seat
        s = state._leader
        pairs = []
        for c in trick:
            pairs.append((s, DECK[c]))
            s = nxt[s]
        d["trick"] = tuple(pairs)
    else:
        d["trick"] = ()
    if ex is None:
        d.update(_NO_EXCHANGE)
        d["history"] = history
    else:
        plays = 3 * sum(state._tricks_won) + len(trick)
        if record:  # table mode: irregular entries in the play
            plays = 0
            while plays < len(history) and history[-1 - plays][1].__class__ in _PLAY_KINDS:
                plays += 1
        cut = len(history) - plays
        fixed = _exchange_part(ex, seat, history, cut, phase >= Phase.PLAYING)
        d.update(fixed[0])
        d["history"] = fixed[1] + history[cut:] if plays else fixed[1]
        d["final_stock"] = _cardset(state._stock_mask) if over else None
    new = _new(View)
    _set(new, "__dict__", d)
    return new


def _legal_for(state: State, seat: int) -> tuple[Action, ...]:
    """The legal actions ``seat`` may take in table mode's play: its irregular ones too."""
    return tuple(a for a in state.legal_actions() if legal.actor(state, a) == seat)


_PLAY_KINDS = (Play, Revoke, OutOfTurn, Abandon)
_EMPTY = CardSet()
_NO_EXCHANGE: dict[str, Any] = {
    "declarer": None,
    "contract": None,
    "modifier": None,
    "called": None,
    "giver": None,
    "given_back": None,
    "exposed": _EMPTY,
    "discards": _EMPTY,
    "drawn": _EMPTY,
    "forced_moves": (),
    "final_stock": None,
}
_new = object.__new__
_set = object.__setattr__

_Entries = tuple[tuple[int, Union[Action, Hidden]], ...]
_Part = tuple[dict[str, Any], _Entries]

# Once the play has begun the exchange never changes, and every state of the
# play shares one exchange record: each seat's part of the view is memoized
# here, keyed by the record's id (the record is kept alive by the entry, so
# the id cannot be reused while it is cached). Oldest entries go first.
_MEMO: dict[int, tuple[Exchange, dict[int, _Part]]] = {}
_MEMO_SIZE = 256


def _exchange_part(
    ex: Exchange,
    seat: int,
    history: tuple[tuple[int, Action], ...],
    cut: int,
    settled: bool,
) -> _Part:
    """Return the view fields the exchange decides for ``seat``, and the redacted
    history before the play."""
    cache: dict[int, _Part] | None = None
    if settled:
        entry = _MEMO.get(id(ex))
        if entry is not None and entry[0] is ex:
            cache = entry[1]
            part = cache.get(seat)
            if part is not None:
                return part
    entries = redacted_history(ex, history[:cut], seat)
    given_back = None
    gave_back = ex.gave_back
    if gave_back >= 0:  # shown when the give-back step's entry is shown
        for i in range(ex.starts[0], len(entries)):
            action = entries[i][1]
            if (
                type(action) is GiveBack
                and action.card.index == gave_back
                and type(ex.plan[ex.step_of(i)]) is GiveBackStep
            ):
                given_back = action.card
    fields = {
        "declarer": ex.declarer,
        "contract": ex.contract,
        "modifier": ex.modifier,
        "called": DECK[ex.called] if ex.called >= 0 else None,
        "giver": ex.giver if ex.giver >= 0 else None,
        "given_back": given_back,
        "exposed": _cardset(ex.exposed),
        "discards": _cardset(ex.discards[seat]),
        "drawn": _cardset(ex.drawn[seat]),
        "forced_moves": redacted_forced(ex, seat) if ex.forced else (),
    }
    part = (fields, entries)
    if settled:
        if cache is None:
            if len(_MEMO) >= _MEMO_SIZE:
                del _MEMO[next(iter(_MEMO))]
            cache = {}
            _MEMO[id(ex)] = (ex, cache)
        cache[seat] = part
    return part


def redacted_history(
    ex: Exchange, entries: tuple[tuple[int, Action], ...], seat: int
) -> _Entries:
    """Return ``entries`` (a history up to the play) as ``seat`` sees it.

    Each exchange entry is shown to ``seat`` unless the step that made it
    says it is hidden (:meth:`~calabrasella.rulesets.Step.hidden_from`).
    """
    plan, starts = ex.plan, ex.starts
    first = starts[0] if starts else len(entries)
    out: list[tuple[int, Union[Action, Hidden]]] = list(entries[:first])
    k = 0
    last = len(starts) - 1
    for i in range(first, len(entries)):
        while k < last and starts[k + 1] <= i:
            k += 1
        entry = entries[i]
        who, action = entry
        if who == seat or type(action) is TurnStock:  # its own moves; a stock turned before all
            out.append(entry)
            continue
        kind = plan[k].hidden_from(who, seat, action, ex)
        out.append(entry if kind is None else (who, _hidden(kind)))
    return tuple(out)


def redacted_forced(ex: Exchange, seat: int) -> tuple[tuple[int, int, Union[Action, Hidden]], ...]:
    """Return the exchange's forced moves as ``seat`` sees them: ``(at, seat, action)``."""
    plan = ex.plan
    out: list[tuple[int, int, Union[Action, Hidden]]] = []
    for at, k, who, action in ex.forced:
        kind = None if who == seat else plan[k].hidden_from(who, seat, action, ex)
        out.append((at, who, action if kind is None else _hidden(kind)))
    return tuple(out)
