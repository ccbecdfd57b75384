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

import abc
import enum
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple, Optional

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
    Bid,
    Call,
    Contract,
    Discard,
    Done,
    Draw,
    GiveBack,
    Modifier,
    Pass,
    Play,
    Raise,
    Take,
)
from ..cards import DECK, CardSet, _cardset
from ..errors import IllegalActionError, RulesetError
from ..phases import Phase

if TYPE_CHECKING:
    from .base import Ruleset

__all__ = [
    "CallStep",
    "DiscardStep",
    "DrawStep",
    "Exchange",
    "ExposeStep",
    "GiveBackStep",
    "RaiseStep",
    "Role",
    "Step",
    "TakeStep",
    "Work",
    "card_actions",
    "put",
]


class Role(enum.Enum):
    """A seat named by its part in the deal."""

    DECLARER = "declarer"
    #: The adversary next after the declarer in turn order.
    FIRST = "first"
    #: The other adversary.
    SECOND = "second"


_DECLARER = Role.DECLARER

#: A move the engine made by itself: (history length when it was made,
#: index of the step that made it, seat, action).
ForcedEntry = tuple[int, int, int, Action]


class Exchange(NamedTuple):
    """What the auction decided and what the exchange has done (a read-only record).

    Card fields are int masks (bit ``i`` is card ``i``) or card indices (-1
    for none); per-seat fields have one entry per seat. The public way to
    read them is through :class:`calabrasella.State` and
    :class:`calabrasella.View`; step authors read them in
    :meth:`Step.hidden_from`.

    Attributes:
        declarer: The declarer's seat.
        contract: The winning bid.
        modifier: Solissimo's raise, once made.
        plan: The exchange steps (a raise inserts its own after it).
        step: The index in ``plan`` of the step now running.
        moved: Cards moved so far by the running step.
        called: The card called (-1 for none).
        giver: The seat that handed over the called card (-1 for none).
        gave_back: The card given back to the giver (-1 for none).
        exposed: The stock cards turned face up.
        discards: Each seat's discards.
        taken: The stock cards each seat took.
        drawn: The stock cards each seat drew unseen.
        starts: The history length when each step of ``plan`` started.
        forced: The moves the engine made by itself (see
            :attr:`calabrasella.State.forced_moves`), with the step that made each.
    """

    declarer: int
    contract: Contract
    modifier: Optional[Modifier]
    plan: tuple[Step, ...]
    step: int
    moved: int
    called: int
    giver: int
    gave_back: int
    exposed: int
    discards: tuple[int, ...]
    taken: tuple[int, ...]
    drawn: tuple[int, ...]
    starts: tuple[int, ...]
    forced: tuple[ForcedEntry, ...]

    def step_of(self, entry: int) -> int:
        """Return the index in ``plan`` of the step during which history entry ``entry`` was made.

        -1 for an entry made before the exchange (the auction).
        """
        starts = self.starts
        k = len(starts) - 1
        while k >= 0 and starts[k] > entry:
            k -= 1
        return k


_tuple_new = tuple.__new__


class Work:
    """A mutable working copy of a deal while the engine applies one action.

    The engine copies a state into a :class:`Work`, lets the exchange steps
    change it, and builds the next state from it; the state it came from is
    never touched. Steps read and change its fields directly.

    Attributes:
        rules: The ruleset.
        order: The three active seats from the eldest hand.
        hands: Each seat's hand as a card mask.
        stock: The stock (monte) as a card mask.
        phase: The phase to wait in once a step asks for a decision.
        to_move: The seat asked to act (``None`` for chance).
        history_length: The length of the history, this action's entry included.
        entries: The history entries this action adds: ``(seat, action)``.
        declarer, contract, modifier, plan, step, moved, called, giver,
        gave_back, exposed: As in :class:`Exchange`.
        discards, taken, drawn, starts, forced: As in :class:`Exchange`
            (tuples: change them with :func:`put`).
    """

    __slots__ = (
        "called",
        "contract",
        "declarer",
        "discards",
        "drawn",
        "entries",
        "exposed",
        "forced",
        "gave_back",
        "giver",
        "hands",
        "history_length",
        "modifier",
        "moved",
        "order",
        "phase",
        "plan",
        "rules",
        "starts",
        "step",
        "stock",
        "taken",
        "to_move",
    )

    def __init__(
        self,
        rules: Ruleset,
        order: tuple[int, ...],
        hands: list[int],
        stock: int,
        exchange: Exchange,
        history_length: int,
        phase: Phase = Phase.PLAYING,
        to_move: int | None = None,
    ) -> None:
        self.rules = rules
        self.order = order
        self.hands = hands
        self.stock = stock
        self.phase = phase
        self.to_move = to_move
        self.history_length = history_length
        self.entries: list[tuple[int, Action]] = []
        (
            self.declarer,
            self.contract,
            self.modifier,
            self.plan,
            self.step,
            self.moved,
            self.called,
            self.giver,
            self.gave_back,
            self.exposed,
            discards,
            taken,
            drawn,
            starts,
            forced,
        ) = exchange
        self.discards: tuple[int, ...] = discards
        self.taken: tuple[int, ...] = taken
        self.drawn: tuple[int, ...] = drawn
        self.starts: tuple[int, ...] = starts
        self.forced: tuple[ForcedEntry, ...] = forced

    def exchange(self) -> Exchange:
        """Return the exchange record of the work as it is now."""
        return _tuple_new(
            Exchange,
            (
                self.declarer,
                self.contract,
                self.modifier,
                self.plan,
                self.step,
                self.moved,
                self.called,
                self.giver,
                self.gave_back,
                self.exposed,
                self.discards,
                self.taken,
                self.drawn,
                self.starts,
                self.forced,
            ),
        )

    # --- for steps -------------------------------------------------------------

    def seat(self, role: Role) -> int:
        """Return the seat playing ``role``."""
        if role is Role.DECLARER:
            return self.declarer
        order = self.order
        i = order.index(self.declarer)
        return order[(i + 1) % 3] if role is Role.FIRST else order[(i + 2) % 3]

    def ask(self, seat: int | None, phase: Phase) -> bool:
        """Wait for ``seat`` (``None``: chance) to act in ``phase``; return ``True``."""
        self.to_move = seat
        self.phase = phase
        return True

    def record(self, seat: int, action: Action) -> None:
        """Add ``(seat, action)`` to the history: the action a step just applied."""
        self.entries.append((seat, action))

    def force(self, seat: int, action: Action) -> None:
        """Note a move the engine made by itself for ``seat`` (no decision was needed)."""
        self.forced = (*self.forced, (self.history_length, self.step, seat, action))

    def laid_down(self) -> int:
        """Return every card discarded so far: face down in the stock, never shown or taken."""
        mask = 0
        for m in self.discards:
            mask |= m
        return mask

    def move_to_hand(self, seat: int, cards: int) -> None:
        """Move ``cards`` (a mask) from the stock into ``seat``'s hand."""
        self.stock &= ~cards
        self.hands[seat] |= cards


def put(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """Return ``values`` with item ``i`` replaced by ``value`` (for the per-seat fields of a work)."""
    return (*values[:i], value, *values[i + 1 :])


_SUIT_TABLES: dict[int, list[tuple[Any, ...]]] = {}


def card_actions(table: tuple[Action, ...], mask: int) -> tuple[Action, ...]:
    """Return ``table[i]`` for every card ``i`` in ``mask``, in card order.

    ``table`` holds one action per card (such as ``actions.DISCARDS``). The
    tuples for each suit's 1,024 possible holdings are built the first time
    a table is used, so this is four list lookups.
    """
    parts = _SUIT_TABLES.get(id(table))
    if parts is None:
        parts = _SUIT_TABLES[id(table)] = [
            tuple(table[10 * s + p] for p in range(10) if m >> p & 1)
            for s in range(4)
            for m in range(1024)
        ]
    return (
        parts[mask & 1023]
        + parts[1024 + (mask >> 10 & 1023)]
        + parts[2048 + (mask >> 20 & 1023)]
        + parts[3072 + (mask >> 30 & 1023)]
    )


def wrong_kind(work: Work, action: object, expected: str) -> IllegalActionError:
    """Return the error for an action of the wrong kind while ``work`` waits for ``expected``."""
    who = "chance" if work.to_move is None else f"seat {work.to_move}"
    return IllegalActionError(action, f"{who} is to {expected}, not to {describe(action)}")


_DESCRIPTIONS: dict[type, str] = {
    Pass: "pass",
    Bid: "bid",
    Play: "play a card",
    Done: "stop",
    Call: "call a card",
    GiveBack: "give back a card",
    Discard: "discard",
    Take: "take a card",
    Raise: "raise",
    Draw: "draw cards",
}


def describe(action: object) -> str:
    """Return what an action does, in a few words (``"discard"``, ``"play a card"``)."""
    known = _DESCRIPTIONS.get(type(action))
    if known is not None:
        return known
    return f"do {type(action).__name__!r} (not an action)"


# --- the protocol ----------------------------------------------------------------


class Step(abc.ABC):
    """One kind of exchange step: subclass it (as a frozen attrs class) for a new kind.

    The engine calls :meth:`start` when the step's turn comes. The step either
    does what needs no decision and returns ``False`` (the engine goes on to
    the next step), or asks a seat (or chance) with :meth:`Work.ask` and
    returns ``True``. While it waits, :meth:`legal_actions` lists the actions
    and :meth:`apply` takes one, returning ``True`` when the step is over.
    Before ``apply`` is called, the engine sets nothing: the step validates
    the action itself and raises :class:`~calabrasella.IllegalActionError`
    (leaving the work half changed is fine: it is thrown away).

    Attributes:
        phase: The phase the deal is in while this step waits.
    """

    phase: ClassVar[Phase] = Phase.DISCARDING

    @abc.abstractmethod
    def start(self, work: Work) -> bool:
        """Begin the step: resolve it, or ask for a decision and return ``True``."""

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """Return the legal actions while the step waits (in a fixed order)."""
        return ()

    def apply(self, work: Work, action: Action) -> bool:
        """Apply ``action``, recording it with :meth:`Work.record`; return ``True`` when done.

        Raises:
            IllegalActionError: ``action`` is not legal now.
        """
        raise IllegalActionError(action, f"{type(self).__name__} takes no decisions")

    def hidden_from(self, seat: int, viewer: int, action: Action, exchange: Exchange) -> str | None:
        """Say whether ``viewer`` may not see ``action``, made by ``seat`` in this step.

        Return ``None`` when it may see it, or the kind of face-down move it
        sees instead (``"discard"``, ``"give_back"``, ``"draw"``, ``"take"``):
        its view shows a :class:`~calabrasella.Hidden` of that kind. Forced
        moves (:meth:`Work.force`) are asked too.
        """
        return None


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


def _callable(work: Work) -> int:
    hand = work.hands[work.declarer]
    cards = work.rules.callable_cards(_cardset(hand), work.contract)
    return cards.mask & ~hand & _bits.FULL


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
        bit = 1 << card
        hands = work.hands
        for seat, hand in enumerate(hands):
            if hand & bit:
                work.giver = seat
                hands[seat] = hand & ~bit
                hands[declarer] |= bit
                break
        work.called = card
        work.entries.append((declarer, action))
        return True


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
        called = work.called
        hand = work.hands[work.declarer] & ~(1 << called if called >= 0 else 0)
        return card_actions(GIVE_BACKS, hand)

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
        work.hands[declarer] &= ~(1 << card)
        work.hands[work.giver] |= 1 << card
        work.gave_back = card
        work.entries.append((declarer, action))
        return True

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
        if self.as_taken and not work.taken[seat]:
            return False
        return work.ask(seat, Phase.DISCARDING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """``Done`` first once enough cards are down, then one ``Discard`` per card held."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        low, _ = self.bounds(work, seat)
        cards = card_actions(DISCARDS, work.hands[seat])
        return (DONE, *cards) if work.moved >= low else cards

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes face down into the stock; done at ``max_count`` or on ``Done``."""
        seat = work.declarer if self.role is _DECLARER else work.seat(self.role)
        low, high = self.bounds(work, seat)
        cls = type(action)
        if cls is Done:
            if work.moved < low:
                raise IllegalActionError(
                    action, f"seat {seat} must discard at least {low} (has discarded {work.moved})"
                )
            work.entries.append((seat, action))
            return True
        if cls is not Discard:
            raise wrong_kind(work, action, "discard" + (" or stop" if work.moved >= low else ""))
        card = action.card.index  # type: ignore[union-attr]
        bit = 1 << card
        if not work.hands[seat] & bit:
            raise IllegalActionError(action, f"seat {seat} does not hold {DECK[card]}")
        work.hands[seat] &= ~bit
        work.stock |= bit
        work.discards = put(work.discards, seat, work.discards[seat] | bit)
        work.moved += 1
        work.entries.append((seat, action))
        return work.moved >= high

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
    at a time (the rest taken at once when no choice is left);
    ``"all"`` every stock card at once; ``"any"`` any number, chosen one at
    a time and ended with ``Done``. Cards discarded in this deal are never taken.
    """

    phase: ClassVar[Phase] = Phase.TAKING

    role: Role = attrs.field(validator=_role)
    count: Literal["as_discarded", "all", "any"] = attrs.field(validator=_take_count)

    def start(self, work: Work) -> bool:
        """Take everything at once (``"all"``), or ask the seat if there is anything to take."""
        seat = work.seat(self.role)
        takeable = work.stock & ~work.laid_down()
        if self.count == "all":
            self._take_forced(work, seat, takeable)
            return False
        return bool(takeable) and work.ask(seat, Phase.TAKING)

    @staticmethod
    def _take_forced(work: Work, seat: int, cards: int) -> None:
        work.move_to_hand(seat, cards)
        work.taken = put(work.taken, seat, work.taken[seat] | cards)
        for i in _bits.indices(cards):
            work.force(seat, TAKES[i])

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """``Done`` first for ``"any"``, then one ``Take`` per takeable stock card."""
        cards = card_actions(TAKES, work.stock & ~work.laid_down())
        return (DONE, *cards) if self.count == "any" else cards

    def apply(self, work: Work, action: Action) -> bool:
        """The card goes to the seat; done when the count is reached or nothing is left."""
        seat = work.seat(self.role)
        cls = type(action)
        if cls is Done and self.count == "any":
            work.entries.append((seat, action))
            return True
        if cls is not Take:
            raise wrong_kind(work, action, "take a card from the stock")
        card = action.card.index  # type: ignore[union-attr]
        bit = 1 << card
        laid_down = work.laid_down()
        if not work.stock & bit:
            raise IllegalActionError(action, f"{DECK[card]} is not in the stock")
        if laid_down & bit:
            raise IllegalActionError(action, f"{DECK[card]} was discarded: a discard is final")
        work.move_to_hand(seat, bit)
        work.taken = put(work.taken, seat, work.taken[seat] | bit)
        work.moved += 1
        work.entries.append((seat, action))
        takeable = work.stock & ~laid_down
        if self.count == "as_discarded":
            left = work.discards[seat].bit_count() - work.taken[seat].bit_count()
            if left == takeable.bit_count():  # forced: take the rest at once
                self._take_forced(work, seat, takeable)
                left = 0
            return left == 0
        return not takeable

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
                work.force(seat, Draw(_cardset(stock)))
            return False
        return self.count > 0 and work.ask(None, Phase.DRAWING)

    def legal_actions(self, work: Work) -> tuple[Action, ...]:
        """Every ``count`` cards of the stock, equally likely, ordered by their masks."""
        masks = sorted(
            sum(1 << i for i in combo)
            for combo in combinations(_bits.indices(work.stock), self.count)
        )
        return tuple(Draw(_cardset(m)) for m in masks)

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
