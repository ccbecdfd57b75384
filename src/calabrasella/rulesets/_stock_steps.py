"""The stock's steps: a discard face down into it, turning it up, and taking from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Literal

import attrs

from .. import _bits
from ..actions import (
    DISCARDS,
    TAKES,
    Action,
    Discard,
    Done,
    Take,
)
from ..cards import DECK
from ..errors import IllegalActionError, RulesetError
from ..phases import Phase
from ..places import _LAID, _STOCK, EVERYONE
from ._step_tools import (
    _DONE_DRAWN,
    _DONE_FIRST,
    _bool,
    _cards,
    _own_rule,
    _random_card,
    _role,
    _take_count,
)
from .protocol import _DECLARER, Role, Step, Work, card_actions, role_words, wrong_kind

if TYPE_CHECKING:
    from .base import Terms


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

    def summary(self, terms: Terms) -> str:
        """"single player discards 1-4" (or "as many as taken")."""
        lo, hi = self.min_count, self.max_count
        n = "as many as taken" if self.as_taken else f"{lo}" if lo == hi else f"{lo}-{hi}"
        return f"{role_words(self.role, terms)} discards {n}"

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
            n = work.taken(seat).bit_count()
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
        if not _own_rule(self, DiscardStep):
            return None
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
        work.entries.append((seat, action))
        work._move(1 << card, seat, _LAID + seat, 1 << seat, "discarded a card face down", seat, False)
        work.moved += 1


@attrs.frozen
class ExposeStep(Step):
    """The stock (monte) is turned face up: every seat sees its cards (discards stay down)."""

    def summary(self, terms: Terms) -> str:
        """"stock shown to all"."""
        return f"{terms.stock} shown to all"

    def start(self, work: Work) -> bool:
        """Turn the stock face up; no decision."""
        cards = work.stock & ~work.laid_down()
        if cards:
            words = f"turned the {work.rules.terms.stock} face up"
            work._move(cards, _STOCK, _STOCK, EVERYONE, words, work.declarer, False)
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

    def summary(self, terms: Terms) -> str:
        """"single player takes as many as discarded" (or "all", "any")."""
        count = "as many as discarded" if self.count == "as_discarded" else self.count
        return f"{role_words(self.role, terms)} takes {count}"

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
            left = work.laid_aside(seat).bit_count() - work.taken(seat).bit_count()
            if left <= 0:  # it discarded nothing: it takes nothing
                return 0
            if left >= takeable.bit_count():  # it must take every card there is
                return takeable
            return None
        return None if takeable else 0

    @staticmethod
    def _take_forced(work: Work, seat: int, cards: int) -> None:
        at, step, exposed = work.history_length, work.step, work.exposed
        words = f"took a card from the {work.rules.terms.stock}"
        for i in _bits.indices(cards):
            work.forced += ((at, step, seat, TAKES[i]),)
            seen = EVERYONE if exposed >> i & 1 else 1 << seat
            work._move(1 << i, _STOCK, seat, seen, words, seat, True)

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
        seen = EVERYONE if work.exposed & bit else 1 << seat
        work.entries.append((seat, action))
        work._move(bit, _STOCK, seat, seen, f"took a card from the {work.rules.terms.stock}", seat, False)
        stock = work.stock
        work.moved += 1
        takeable = stock & ~laid_down
        if self.count == "as_discarded":
            left = work.laid_aside(seat).bit_count() - work.taken(seat).bit_count()
            if left and left == takeable.bit_count():  # forced: take the rest at once
                self._take_forced(work, seat, takeable)
                left = 0
            return left == 0
        return not takeable

    def rollout(self, work: Work, below: Callable[[int], int]) -> bool | None:
        """The whole take at random, on masks: what :meth:`legal_actions` and
        :meth:`apply` do, without listing the actions (see :meth:`Step.rollout`)."""
        if not _own_rule(self, TakeStep):
            return None
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

