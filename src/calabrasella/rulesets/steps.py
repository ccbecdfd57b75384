"""Exchange steps: everything between the auction and the play, one kind per class.

A ruleset's :meth:`~calabrasella.Ruleset.exchange_plan` returns a tuple of
steps. The engine runs them in order on a :class:`Work` (a mutable working
copy of the deal, private to one call of :func:`calabrasella.apply`): each
step **starts** (resolves what needs no decision, or asks a seat or chance
to act), lists its **legal actions**, **applies** one action, names the
**phase** it waits in, and says which of its actions are **hidden** from
other seats. The engine keeps only the driver, the auction and the play, so
a variant that needs a new kind of step writes a :class:`Step` subclass in
its own file (see the variants page of the docs).

The built-in kinds:

| Step | What happens |
|---|---|
| `CallStep()` | the declarer calls a card; its holder hands it over |
| `GiveBackStep(face_up)` | the declarer returns a card to the seat that gave |
| `DiscardStep(role, min_count, max_count, as_taken)` | a seat lays cards face down into the stock |
| `ExposeStep()` | the stock is turned face up for all |
| `TakeStep(role, count)` | a seat takes cards from the stock |
| `RaiseStep(choices)` | the declarer may raise (solissimo) |
| `DrawStep(role, count)` | chance: a seat draws `count` stock cards unseen |
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any, ClassVar, Literal

import attrs

from .. import _bits
from ..actions import (
    CALLS,
    DISCARDS,
    DONE,
    GIVE_BACKS,
    PASS,
    RAISES,
    TAKES,
    Action,
    Call,
    Contract,
    Discard,
    Done,
    Draw,
    GiveBack,
    Modifier,
    Pass,
    Raise,
    Take,
)
from ..cards import DECK, CardSet, _cardset
from ..errors import IllegalActionError, RulesetError
from ..phases import Phase
from .protocol import (
    _DECLARER,
    Exchange,
    ForcedEntry,
    Role,
    Step,
    Work,
    card_actions,
    describe,
    put,
    wrong_kind,
)

__all__ = [
    "CallStep",
    "DiscardStep",
    "DrawStep",
    "Exchange",
    "ExposeStep",
    "ForcedEntry",
    "GiveBackStep",
    "RaiseStep",
    "Role",
    "Step",
    "TakeStep",
    "Work",
    "card_actions",
    "describe",
    "put",
    "wrong_kind",
]


# --- validators ------------------------------------------------------------------


def _role(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, Role):
        raise RulesetError(f"{attribute.name}={value!r}: expected a Role")


def _cards(instance: Any, attribute: Any, value: Any) -> None:
    if type(value) is not int or not 0 <= value <= 4:
        raise RulesetError(f"{attribute.name}={value!r}: expected a number of cards 0..4")


def _bool(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, bool):
        raise RulesetError(f"{attribute.name}={value!r}: expected True or False")


_TAKE_COUNTS = ("as_discarded", "all", "any")


def _take_count(instance: Any, attribute: Any, value: Any) -> None:
    if value not in _TAKE_COUNTS:
        raise RulesetError(
            f"{attribute.name}={value!r}: expected one of {', '.join(map(repr, _TAKE_COUNTS))}"
        )


def _choices(instance: Any, attribute: Any, value: Any) -> None:
    if (
        not isinstance(value, tuple)
        or not value
        or not all(isinstance(m, Modifier) for m in value)
        or len(set(value)) != len(value)
    ):
        raise RulesetError(f"{attribute.name}={value!r}: expected a tuple of distinct Modifier")


# --- the built-in kinds ----------------------------------------------------------

_DONE_FIRST: tuple[Action, ...] = (DONE,)


# The ruleset's answers of ``callable_cards`` by ruleset, contract and hand: a
# ruleset is a value and its hooks functions of what they are given (the engine
# remembers the auction's answers the same way), and a call asks three times,
# when it starts, for its legal actions and when it applies. A few thousand,
# then started afresh; the conformance kit clears it (``forget_callable``).
_CALLABLE: dict[tuple[int, Contract, int], tuple[Any, int]] = {}
_CALLABLE_SIZE = 4096


def _callable(work: Work) -> int:
    """The cards the declarer may call now: the ruleset's, less those he holds."""
    hand = work.hands[work.declarer]
    rules = work.rules
    key = (id(rules), work.contract, hand)
    known = _CALLABLE.get(key)
    if known is not None and known[0] is rules:
        return known[1]
    allowed = rules.callable_cards(_cardset(hand), work.contract).mask & ~hand & _bits.FULL
    if len(_CALLABLE) >= _CALLABLE_SIZE:
        _CALLABLE.clear()
    _CALLABLE[key] = (rules, allowed)
    return allowed


def forget_callable() -> None:
    """Drop the remembered answers of ``callable_cards`` (the next call asks the hook)."""
    _CALLABLE.clear()


_DONE_DRAWN = -1
_NOTHING = -2


def _random_card(
    work: Work, seat: int, cards: int, done_first: bool, below: Callable[[int], int], decided: int
) -> int:
    """Make one random decision among ``Done`` (first, if ``done_first``) and one action per
    card of ``cards``, drawn as the loop draws (``below(n)``, the order of ``legal_actions``).

    Return the card drawn, or :data:`_DONE_DRAWN` (``Done`` is recorded for
    ``seat``), or :data:`_NOTHING` when there is no legal action (nothing is
    drawn: the loop stops there with its own error). ``decided`` is how many
    decisions the step made before this one in the same rollout call.
    """
    n = cards.bit_count() + done_first
    if not n:
        return _NOTHING
    work.history_length += decided > 0  # each decision after the first is one entry later
    r = below(n)
    if done_first:
        if not r:
            work.record(seat, DONE)
            return _DONE_DRAWN
        r -= 1
    return _bits.nth(cards, r)


@attrs.frozen
class CallStep(Step):
    """The declarer calls one card from :meth:`Ruleset.callable_cards`.

    An adversary holding it hands it to the declarer; a card in the stock
    stays there. Skipped when nothing can be called.
    """

    phase: ClassVar[Phase] = Phase.CALLING

    def start(self, work: Work) -> bool:
        """Ask the declarer, unless nothing can be called."""
        return bool(_callable(work)) and work.ask(work.declarer, Phase.CALLING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """One ``Call`` per callable card."""
        return card_actions(CALLS, _callable(work))

    def apply(self, work: Work, action: Action) -> bool:
        """The called card's holder hands it over (none if it is in the stock)."""
        if type(action) is not Call:
            raise wrong_kind(work, action, "call a card")
        card = action.card.index
        declarer = work.declarer
        if work.hands[declarer] >> card & 1:
            raise IllegalActionError(action, f"seat {declarer} holds {DECK[card]} already")
        allowed = _callable(work)
        if not allowed >> card & 1:
            raise IllegalActionError(
                action, f"{work.rules.name} lets seat {declarer} call only {CardSet(allowed)}"
            )
        self._call(work, card, action)
        return True

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """A random call, on masks (see :meth:`Step.rollout`)."""
        allowed = _callable(work)
        if not allowed:
            return None
        card = _bits.nth(allowed, below(allowed.bit_count()))
        self._call(work, card, CALLS[card])
        return True

    @staticmethod
    def _call(work: Work, card: int, action: Action) -> None:
        """The called ``card``'s holder hands it over; the call is recorded."""
        bit = 1 << card
        hands = work.hands
        declarer = work.declarer
        for seat, hand in enumerate(hands):
            if hand & bit:
                work.giver = seat
                hands[seat] = hand & ~bit
                hands[declarer] |= bit
                break
        work.called = card
        work.entries.append((declarer, action))


@attrs.frozen
class GiveBackStep(Step):
    """The declarer gives one card (not the called one) to the seat that gave.

    Skipped when nobody gave. Seen by all when ``face_up``, else only by the two.
    """

    phase: ClassVar[Phase] = Phase.GIVING_BACK

    face_up: bool = attrs.field(default=False, validator=_bool)

    def start(self, work: Work) -> bool:
        """Ask the declarer, if a seat gave him the called card."""
        return work.giver >= 0 and work.ask(work.declarer, Phase.GIVING_BACK)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """One ``GiveBack`` per card in the declarer's hand but the called one."""
        return card_actions(GIVE_BACKS, self._givable(work))

    @staticmethod
    def _givable(work: Work) -> int:
        called = work.called
        return work.hands[work.declarer] & ~(1 << called if called >= 0 else 0)

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes to the giver."""
        if type(action) is not GiveBack:
            raise wrong_kind(work, action, "give a card back")
        card = action.card.index
        declarer = work.declarer
        if not work.hands[declarer] >> card & 1:
            raise IllegalActionError(action, f"seat {declarer} does not hold {DECK[card]}")
        if card == work.called:
            raise IllegalActionError(action, "the called card may not be given back")
        self._give(work, card, action)
        return True

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """A random give-back, on masks (see :meth:`Step.rollout`)."""
        cards = self._givable(work)
        if not cards:
            return None
        card = _bits.nth(cards, below(cards.bit_count()))
        self._give(work, card, GIVE_BACKS[card])
        return True

    @staticmethod
    def _give(work: Work, card: int, action: Action) -> None:
        """``card`` goes from the declarer to the giver; the give-back is recorded."""
        work.hands[work.declarer] &= ~(1 << card)
        work.hands[work.giver] |= 1 << card
        work.gave_back = card
        work.entries.append((work.declarer, action))

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """Face down, only the declarer and the giver see the card."""
        if self.face_up or viewer == seat or viewer == exchange.giver:
            return None
        return "give_back"


@attrs.frozen
class DiscardStep(Step):
    """A seat discards ``min_count`` to ``max_count`` cards face down, one at a time.

    With ``as_taken`` it discards exactly as many as it took in this deal
    (skipped when it took none), and the counts are ignored. ``Done`` ends
    the discard once ``min_count`` cards are down, where fewer than
    ``max_count`` are allowed.
    """

    phase: ClassVar[Phase] = Phase.DISCARDING

    role: Role = attrs.field(validator=_role)
    min_count: int = attrs.field(default=0, validator=_cards)
    max_count: int = attrs.field(default=0, validator=_cards)
    as_taken: bool = attrs.field(default=False, validator=_bool, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if self.min_count > self.max_count:
            raise RulesetError(
                f"DiscardStep: min_count={self.min_count} is more than max_count={self.max_count}"
            )
        if not self.as_taken and self.max_count == 0:
            raise RulesetError("DiscardStep: max_count=0 discards nothing (give 1..4, or as_taken)")

    def bounds(self, work: Work, seat: int) -> tuple[int, int]:
        """Return the least and the most cards ``seat`` (the seat discarding) must discard."""
        if self.as_taken:
            n = work.taken[seat].bit_count()
            return n, n
        return self.min_count, self.max_count

    def start(self, work: Work) -> bool:
        """Ask the seat; with ``as_taken``, only if it took cards."""
        seat = work.seat(self.role)
        return bool(self.bounds(work, seat)[1]) and work.ask(seat, Phase.DISCARDING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """``Done`` first once enough cards are down, then one ``Discard`` per card held."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        cards = card_actions(DISCARDS, work.hands[seat])
        return _DONE_FIRST + cards if work.moved >= self.bounds(work, seat)[0] else cards

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes face down into the stock; done at ``max_count`` or on ``Done``."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        low, high = self.bounds(work, seat)
        cls = action.__class__
        if cls is Discard:
            card = action.card.index  # type: ignore[union-attr]
            if not work.hands[seat] >> card & 1:
                raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
            self._put(work, seat, card, action)
            return work.moved >= high
        if cls is Done:
            if work.moved < low:
                raise IllegalActionError(
                    action, f"seat {seat} must discard at least {low} (has discarded {work.moved})"
                )
            work.entries.append((seat, action))
            return True
        raise wrong_kind(work, action, "discard" + (" or stop" if work.moved >= low else ""))

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """The whole discard at random, on masks: what :meth:`legal_actions` and
        :meth:`apply` do, without listing the actions (see :meth:`Step.rollout`)."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        low, high = self.bounds(work, seat)
        decided = 0
        while True:
            card = _random_card(work, seat, work.hands[seat], work.moved >= low, below, decided)
            if card < 0:
                return True if card == _DONE_DRAWN else False if decided else None
            decided += 1
            self._put(work, seat, card, DISCARDS[card])
            if work.moved >= high:
                return True

    @staticmethod
    def _put(work: Work, seat: int, card: int, action: Action) -> None:
        """``card`` goes from ``seat``'s hand face down into the stock; the discard is recorded."""
        bit = 1 << card
        work.hands[seat] ^= bit
        work.stock |= bit
        work.discards = put(work.discards, seat, work.discards[seat] | bit)
        work.moved += 1
        work.entries.append((seat, action))

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """A discard is face down: only its seat sees the card."""
        return None if viewer == seat or type(action) is Done else "discard"


@attrs.frozen
class ExposeStep(Step):
    """The stock (monte) is turned face up: every seat sees its cards (discards stay down)."""

    def start(self, work: Work) -> bool:
        """Turn the stock face up; no decision."""
        work.exposed |= work.stock & ~work.laid_down()
        return False


@attrs.frozen
class TakeStep(Step):
    """A seat takes cards from the stock.

    ``count``: ``"as_discarded"`` exactly as many as it discarded, chosen one
    at a time (the rest taken at once when no choice is left, all of them
    when it discarded as many as the stock offers, none when it discarded
    none);
    ``"all"`` every card left in the stock at once, with no decision (the
    whole stock, or what an earlier take left: scegliete's second adversary;
    nothing when nothing is left); ``"any"`` any number, chosen one at a time
    and ended with ``Done``. Cards discarded in this deal are never taken.
    Cards taken with no decision are forced moves
    (:attr:`calabrasella.State.forced_moves`).
    """

    phase: ClassVar[Phase] = Phase.TAKING

    role: Role = attrs.field(validator=_role)
    count: Literal["as_discarded", "all", "any"] = attrs.field(validator=_take_count)

    def start(self, work: Work) -> bool:
        """Take everything at once (``"all"``, or ``"as_discarded"`` when every takeable
        card must be taken), or ask the seat if there is a choice to make."""
        seat = work.seat(self.role)
        takeable = work.stock & ~work.laid_down()
        cards = self._no_choice(work, seat, takeable)
        if cards is None:
            return work.ask(seat, Phase.TAKING)
        if cards:
            self._take_forced(work, seat, cards)
        return False

    def _no_choice(self, work: Work, seat: int, takeable: int) -> int | None:
        """Return the cards ``seat`` takes at once (maybe none) when there is no choice to
        make, ``None`` when it must be asked."""
        count = self.count
        if count == "all":
            return takeable
        if count == "as_discarded":
            left = work.discards[seat].bit_count() - work.taken[seat].bit_count()
            if left <= 0:  # it discarded nothing: it takes nothing
                return 0
            if left >= takeable.bit_count():  # it must take every card there is
                return takeable
            return None
        return None if takeable else 0

    @staticmethod
    def _take_forced(work: Work, seat: int, cards: int) -> None:
        work.move_to_hand(seat, cards)
        taken = list(work.taken)
        taken[seat] |= cards
        work.taken = tuple(taken)
        if cards:
            at, step = work.history_length, work.step
            work.forced += tuple([(at, step, seat, TAKES[i]) for i in _bits.indices(cards)])

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """``Done`` first for ``"any"``, then one ``Take`` per takeable stock card."""
        cards = card_actions(TAKES, work.stock & ~work.laid_down())
        return _DONE_FIRST + cards if self.count == "any" else cards

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes to the seat; done when the count is reached or nothing is left."""
        role = self.role
        seat = work.declarer if role is _DECLARER else work.seat(role)
        cls = action.__class__
        if cls is not Take:
            if cls is Done and self.count == "any":
                work.entries.append((seat, action))
                return True
            raise wrong_kind(work, action, "take a card from the stock")
        card = action.card.index  # type: ignore[union-attr]
        bit = 1 << card
        stock = work.stock
        if not stock & bit:
            raise IllegalActionError(action, f"{DECK[card]} is not in the stock")
        laid_down = work.laid_down()
        if laid_down & bit:
            raise IllegalActionError(action, f"{DECK[card]} was discarded: a discard is final")
        return self._take(work, seat, card, action, laid_down)

    def _take(self, work: Work, seat: int, card: int, action: Action, laid_down: int) -> bool:
        """``card`` goes from the stock to ``seat``, recorded, and the rest with it when no
        choice is left; return whether the take is over."""
        bit = 1 << card
        work.stock = stock = work.stock ^ bit
        work.hands[seat] |= bit
        work.taken = put(work.taken, seat, work.taken[seat] | bit)
        work.moved += 1
        work.entries.append((seat, action))
        takeable = stock & ~laid_down
        if self.count == "as_discarded":
            left = work.discards[seat].bit_count() - work.taken[seat].bit_count()
            if left and left == takeable.bit_count():  # forced: take the rest at once
                self._take_forced(work, seat, takeable)
                left = 0
            return left == 0
        return not takeable

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """The whole take at random, on masks: what :meth:`legal_actions` and
        :meth:`apply` do, without listing the actions (see :meth:`Step.rollout`)."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        free = self.count == "any"
        laid_down = work.laid_down()
        decided = 0
        while True:
            card = _random_card(work, seat, work.stock & ~laid_down, free, below, decided)
            if card < 0:
                return True if card == _DONE_DRAWN else False if decided else None
            decided += 1
            if self._take(work, seat, card, TAKES[card], laid_down):
                return True

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """A card taken from a stock that was not turned up is seen only by its taker."""
        if viewer == seat or type(action) is not Take:
            return None
        return None if exchange.exposed >> action.card.index & 1 else "take"


@attrs.frozen
class RaiseStep(Step):
    """The declarer may raise with one of ``choices`` (the ruleset's ``raise_plan`` then
    adds its steps), or pass."""

    phase: ClassVar[Phase] = Phase.RAISING

    choices: tuple[Modifier, ...] = attrs.field(validator=_choices)

    def start(self, work: Work) -> bool:
        """Ask the declarer."""
        return work.ask(work.declarer, Phase.RAISING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """``Pass``, then each raise in ``choices`` order."""
        return (PASS, *(RAISES[m] for m in self.choices))

    def apply(self, work: Work, action: Action) -> bool:
        """Record the raise and insert the ruleset's steps for it after this one."""
        cls = type(action)
        if cls is not Pass and cls is not Raise:
            raise wrong_kind(work, action, "raise or pass")
        if cls is Raise:
            modifier = action.modifier  # type: ignore[union-attr]
            if modifier not in self.choices:
                raise IllegalActionError(
                    action, f"{work.rules.name} does not allow {modifier.value}"
                )
            extra = work.rules.raise_plan(modifier)
            work.modifier = modifier
            i = work.step + 1
            work.plan = (*work.plan[:i], *extra, *work.plan[i:])
        work.entries.append((work.declarer, action))
        return True


# Draw outcomes by their cards' mask, made once (actions are values, shared as
# the engine shares its card actions); a few thousand at most, then started afresh.
_DRAWS: dict[int, Draw] = {}
_DRAWS_SIZE = 4096


def _draw(mask: int) -> Draw:
    known = _DRAWS.get(mask)
    if known is None:
        if len(_DRAWS) >= _DRAWS_SIZE:
            _DRAWS.clear()
        known = _DRAWS[mask] = Draw(_cardset(mask))
    return known


def _draw_outcomes(stock: int, count: int) -> tuple[Action, ...]:
    """Return every ``count`` cards of ``stock`` as a ``Draw``, ordered by their masks."""
    bits = [1 << i for i in _bits.indices(stock)]
    return tuple(map(_draw, sorted(map(sum, combinations(bits, count)))))


@attrs.frozen
class DrawStep(Step):
    """Chance: a seat draws ``count`` stock cards unseen (resolved at once if forced)."""

    phase: ClassVar[Phase] = Phase.DRAWING

    role: Role = attrs.field(validator=_role)
    count: int = attrs.field(validator=_cards)

    def start(self, work: Work) -> bool:
        """Deal the whole stock at once when no chance is left; else a chance node."""
        seat = work.seat(self.role)
        stock = work.stock
        if self.count >= stock.bit_count():
            work.move_to_hand(seat, stock)
            work.drawn = put(work.drawn, seat, work.drawn[seat] | stock)
            if stock:
                work.force(seat, _draw(stock))
            return False
        return self.count > 0 and work.ask(None, Phase.DRAWING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """Every ``count`` cards of the stock, equally likely, ordered by their masks."""
        return _draw_outcomes(work.stock, self.count)

    def apply(self, work: Work, action: Action) -> bool:
        """The drawn cards go to the seat."""
        if type(action) is not Draw:
            raise wrong_kind(work, action, "draw (a chance outcome)")
        cards = action.cards.mask
        if cards & ~work.stock or cards.bit_count() != self.count:
            raise IllegalActionError(
                action, f"a draw is {self.count} of the stock cards, not {CardSet(cards)}"
            )
        seat = work.seat(self.role)
        work.move_to_hand(seat, cards)
        work.drawn = put(work.drawn, seat, work.drawn[seat] | cards)
        work.entries.append((seat, action))
        return True

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """Only the seat that draws sees the cards."""
        return None if viewer == seat else "draw"
