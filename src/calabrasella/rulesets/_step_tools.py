"""What the built-in exchange steps share: their fields' validators and their random draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import _bits
from ..actions import (
    DONE,
    Action,
    Modifier,
)
from ..errors import RulesetError
from .protocol import Role, Step, Work

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


_DONE_FIRST: tuple[Action, ...] = (DONE,)


_DONE_DRAWN = -1
_NOTHING = -2


def _own_rule(step: Step, kind: type[Step]) -> bool:
    """Tell whether ``step`` lists and applies its actions as the built-in ``kind`` does.

    A subclass that lists or applies other actions (its own kind, say) must not
    inherit the built-in fast rollout, which stands for the built-in rule only.
    """
    cls = type(step)
    return cls.legal_actions is kind.legal_actions and cls.apply is kind.apply


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

