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

from .actions import Action, Contract, Discard, Draw, GiveBack, Modifier
from .cards import DECK, Card, CardSet, _cardset
from .errors import IllegalActionError, StateError
from .rulesets.base import GiveBackStep, Ruleset
from .scoring import Result
from .state import Exchange, Phase

if TYPE_CHECKING:
    from .state import State

__all__ = ["Hidden", "View", "view"]


@attrs.frozen
class Hidden:
    """Stands in a view's history for a face-down action of another seat.

    Attributes:
        kind: ``"discard"``, ``"give_back"`` or ``"draw"``.
    """

    kind: str

    def __str__(self) -> str:
        return f"{self.kind.replace('_', ' ')} (face down)"


_HIDDEN_DISCARD = Hidden("discard")
_HIDDEN_GIVE_BACK = Hidden("give_back")
_HIDDEN_DRAW = Hidden("draw")


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


def view(state: State, seat: int) -> View:
    """Return what ``seat`` may know of ``state``.

    Raises:
        IllegalActionError: ``seat`` is not a seat at this table.
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.view(s, 0).hand == s.hand(0)
        True
    """
    if state.__class__.__name__ != "State":
        raise StateError(f"not a state: {state!r}")
    hands = state.hand_masks
    if type(seat) is not int or not 0 <= seat < len(hands):
        raise IllegalActionError(seat, f"not a seat at a table of {len(hands)}")
    ex = state.exchange
    history = state.history
    trick = state.trick_cards
    over = state.phase is Phase.OVER
    d: dict[str, Any] = {
        "rules": state.rules,
        "seat": seat,
        "dealer": state.deal.dealer,
        "phase": state.phase,
        "to_move": state.to_move,
        "hand": _cardset(hands[seat]),
        "hand_sizes": tuple([h.bit_count() for h in hands]),
        "stock_size": state.stock_mask.bit_count(),
        "leader": state.leader,
        "tricks_won": state.tricks_won,
        "card_units_won": state.card_units_won,
        "legal_actions": _legal_actions(state) if state.to_move == seat else (),
        "result": state.result,
    }
    if trick:
        nxt = state.deal.next_seat
        s = state.leader
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
        plays = 3 * sum(state.tricks_won) + len(trick)
        cut = len(history) - plays
        fixed = _exchange_part(ex, seat, history, cut, state.phase >= Phase.PLAYING)
        d.update(fixed[0])
        d["history"] = fixed[1] + history[cut:] if plays else fixed[1]
        d["final_stock"] = _cardset(state.stock_mask) if over else None
    new = _new(View)
    _set(new, "__dict__", d)
    return new


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
    "final_stock": None,
}
_new = object.__new__
_set = object.__setattr__


def _legal_actions(state: State) -> tuple[Action, ...]:
    global _legal_actions
    from .engine import legal_actions

    _legal_actions = legal_actions
    return legal_actions(state)


_Part = tuple[dict[str, Any], tuple[tuple[int, Union[Action, Hidden]], ...]]


def _exchange_part(
    ex: Exchange,
    seat: int,
    history: tuple[tuple[int, Action], ...],
    cut: int,
    settled: bool,
) -> _Part:
    """Return the view fields the exchange decides for ``seat``, and the redacted
    history before the play.

    Once the play has begun the exchange never changes, and all the states
    of the play share one exchange record: the answer is memoized on it
    (outside its attrs fields, so equality, hashing and repr ignore it).
    """
    cache: dict[int, _Part] | None = ex.__dict__.get("_view_memo") if settled else None
    if cache is not None:
        part = cache.get(seat)
        if part is not None:
            return part
    declarer, giver = ex.declarer, ex.giver
    sees_give_back = _gives_back_face_up(ex.plan) or seat in (declarer, giver)
    fields = {
        "declarer": declarer,
        "contract": ex.contract,
        "modifier": ex.modifier,
        "called": DECK[ex.called] if ex.called >= 0 else None,
        "giver": giver if giver >= 0 else None,
        "given_back": DECK[ex.gave_back] if ex.gave_back >= 0 and sees_give_back else None,
        "exposed": _cardset(ex.exposed),
        "discards": _cardset(ex.discards[seat]),
        "drawn": _cardset(ex.drawn[seat]),
    }
    part = (fields, _redact(history[:cut], seat, sees_give_back))
    if settled:
        if cache is None:
            cache = {}
            _set(ex, "_view_memo", cache)
        cache[seat] = part
    return part


def _gives_back_face_up(plan: tuple[object, ...]) -> bool:
    for step in plan:
        if type(step) is GiveBackStep:
            return step.face_up
    return False


def _redact(
    entries: tuple[tuple[int, Action], ...], seat: int, sees_give_back: bool
) -> tuple[tuple[int, Union[Action, Hidden]], ...]:
    out: list[tuple[int, Union[Action, Hidden]]] = []
    for entry in entries:
        who, action = entry
        cls = type(action)
        if who != seat and cls is Discard:
            out.append((who, _HIDDEN_DISCARD))
        elif who != seat and cls is Draw:
            out.append((who, _HIDDEN_DRAW))
        elif cls is GiveBack and not sees_give_back:
            out.append((who, _HIDDEN_GIVE_BACK))
        else:
            out.append(entry)
    return tuple(out)


