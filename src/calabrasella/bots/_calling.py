"""The rule of what a declarer may call, found by asking a ruleset's ``callable_cards``.

Private to the sampler (:mod:`calabrasella.bots._worlds`): a call tells the
other seats something about the declarer's hand only through the rule, so
the sampler models the rules it knows exactly and leaves any other out.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache

import calabrasella as cb
from calabrasella.rulesets.cavendish import threes_then_twos

from ._hand import bits

__all__ = ["callable_kind"]

FULL = (1 << 40) - 1
THREES = sum(1 << (10 * s) for s in range(4))
TWOS = THREES << 1


def _probe_hands() -> tuple[int, ...]:
    """Hands to ask a rule of calling about: the corners of the built-in rules, and others."""
    hands = [0, THREES, THREES | TWOS, FULL & ~(THREES | TWOS)]
    for card in bits(THREES | TWOS):
        hands += [1 << card, THREES | (1 << card), (THREES | TWOS) & ~(1 << card)]
    rng = random.Random(2026)
    for _ in range(40):
        hand = 0
        for card in rng.sample(range(40), 12):
            hand |= 1 << card
        hands += [hand, hand | THREES]
    return tuple(hands)


_PROBES = _probe_hands()
_RULES_OF_CALLING: dict[str, Callable[[int], int]] = {
    # the rulesets' own rules, asked about the same hands
    "threes_then_twos": lambda hand: threes_then_twos(cb.CardSet(hand)).mask,
    "any_unheld": lambda hand: FULL & ~hand,
}


def callable_kind(rules: cb.Ruleset, contract: cb.Contract) -> str | None:
    """Which rule of calling the ruleset's ``callable_cards`` follows, or ``None`` (its own).

    The hook is asked about a fixed set of hands (the corners of the known
    rules, and seeded random ones) and its answers, less the cards held, are
    compared with each known rule's. A rule of its own is still sampled, by
    rejection (see ``Model.exact`` in :mod:`calabrasella.bots._worlds`).
    """
    try:
        return _callable_kind(rules, contract)
    except TypeError:  # a ruleset that cannot be hashed: asked afresh
        return _callable_kind.__wrapped__(rules, contract)


@lru_cache(maxsize=64)
def _callable_kind(rules: cb.Ruleset, contract: cb.Contract) -> str | None:
    answers = []
    for hand in _PROBES:
        try:
            cards = rules.callable_cards(cb.CardSet(hand), contract).mask
        except Exception:  # a hook that cannot answer every hand is a rule of its own
            return None
        answers.append(cards & ~hand & FULL)
    for kind, rule in _RULES_OF_CALLING.items():
        if all(answer == rule(hand) for hand, answer in zip(_PROBES, answers)):
            return kind
    return None
