"""Solissimo's steps: the declarer's raise, and chance's unseen draw (dividete)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

import attrs

from .. import _bits
from .._memo import LARGEST, keep
from ..actions import (
    PASS,
    RAISES,
    Action,
    Draw,
    Modifier,
    Pass,
    Raise,
)
from ..cards import CardSet, _cardset
from ..errors import IllegalActionError
from ..phases import Phase
from ..places import _STOCK
from ._step_tools import (
    _cards,
    _choices,
    _role,
)
from .protocol import Role, Step, Work, role_words, wrong_kind

if TYPE_CHECKING:
    from .base import Terms


def raised_plan(plan: tuple[Step, ...], at: int, extra: tuple[Step, ...]) -> tuple[Step, ...]:
    """Return ``plan`` with a raise's steps ``extra`` inserted at ``at`` (after the raise):
    what a raise does to the plan, and how a pickle finds a raised plan again."""
    return (*plan[:at], *extra, *plan[at:])


@attrs.frozen
class RaiseStep(Step):
    """The declarer may raise with one of ``choices`` (the ruleset's ``raise_plan`` then
    adds its steps), or pass."""

    phase: ClassVar[Phase] = Phase.RAISING

    choices: tuple[Modifier, ...] = attrs.field(validator=_choices)

    def summary(self, terms: Terms) -> str:
        """"raise or not"."""
        return "raise or not"

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
            work.modifier = modifier
            work.plan = raised_plan(work.plan, work.step + 1, work.rules.raise_plan(modifier))
        work.entries.append((work.declarer, action))
        return True


# Draw outcomes by their cards' mask, made once (actions are values, shared as
# the engine shares its card actions); the last 2,048, oldest dropped first.
_DRAWS: dict[int, Draw] = {}
_DRAWS_SIZE = LARGEST


def draw_outcome(mask: int) -> Draw:
    """Return the chance outcome of drawing the cards of ``mask``: one ``Draw`` a mask,
    shared, as the engine shares its card actions."""
    return _draw(mask)


def _draw(mask: int) -> Draw:
    known = _DRAWS.get(mask)
    if known is None:
        known = keep(_DRAWS, mask, Draw(_cardset(mask)), _DRAWS_SIZE)
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

    def summary(self, terms: Terms) -> str:
        """"1st adversary draws 2 unseen"."""
        return f"{role_words(self.role, terms)} draws {self.count} unseen"

    def start(self, work: Work) -> bool:
        """Deal the whole stock at once when no chance is left; else a chance node."""
        seat = work.seat(self.role)
        stock = work.stock
        if self.count >= stock.bit_count():
            if stock:
                work.force(seat, _draw(stock))
                work._move(stock, _STOCK, seat, 1 << seat, _drew(work, stock), seat, True)
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
        work.entries.append((seat, action))
        work._move(cards, _STOCK, seat, 1 << seat, _drew(work, cards), seat, False)
        return True


def _drew(work: Work, cards: int) -> str:
    """The words for a draw of ``cards``, for the seats that do not see them."""
    n = cards.bit_count()
    return f"drew {n} card{'' if n == 1 else 's'} from the {work.rules.terms.stock} unseen"
