"""What a call tells the other seats: the sampler's own reading of the call.

Private to the sampler (:mod:`calabrasella.bots._worlds`). A call moves at
most one card (its holder hands it over, seen by all), but it tells more
than its move: a called card nobody handed over lies in the stock; the
declarer does not give the called card back; and the rule of what he may
call (found by asking the ruleset's ``callable_cards``) says something about
his hand. The sampler models the rules of calling it knows exactly and
leaves any other out (its worlds are then checked by replay).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import calabrasella as cb
from calabrasella import places
from calabrasella.errors import InconsistentViewError
from calabrasella.rulesets.cavendish import threes_then_twos

from ._hand import bits

__all__ = ["Facts", "call_facts", "callable_kind"]

FULL = (1 << len(cb.DECK)) - 1
THREES = sum(1 << c.index for c in cb.DECK if c.rank is cb.Rank.THREE)
TWOS = sum(1 << c.index for c in cb.DECK if c.rank is cb.Rank.TWO)


def _probe_hands() -> tuple[int, ...]:
    """Hands to ask a rule of calling about: the corners of the built-in rules, and others."""
    hands = [0, THREES, THREES | TWOS, FULL & ~(THREES | TWOS)]
    for card in bits(THREES | TWOS):
        hands += [1 << card, THREES | (1 << card), (THREES | TWOS) & ~(1 << card)]
    rng = random.Random(2026)
    for _ in range(40):
        hand = 0
        for card in rng.sample(range(len(cb.DECK)), 12):
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


class Facts(NamedTuple):
    """What the call tells, as the sampler's walk over the moves reads it.

    Times are positions among the view's move records (a fact at time ``t``
    holds just before record ``t``); places are codes (:mod:`calabrasella.places`).
    """

    #: ``(time, cards, places)``: the cards lay in one of the places (a mask of codes).
    pins: tuple[tuple[int, int, int], ...] = ()
    #: ``(time, card, src, dst)``: the card took no hidden move from src to dst after time.
    forbid: tuple[tuple[int, int, int, int], ...] = ()
    #: ``(place, cards)``: not all the cards lie in the place now.
    not_all: tuple[tuple[int, int], ...] = ()
    #: False under a rule of calling of the ruleset's own (left out of the model).
    exact: bool = True


def call_facts(view: cb.View, records: tuple[places.MoveRecord, ...]) -> Facts:
    """Return what the deal's call (or the want of one) tells ``view``'s seat."""
    declarer, contract = view.declarer, view.contract
    if declarer is None or contract is None:
        return Facts()
    rules = view.rules
    plan = tuple(rules.exchange_plan(contract))
    if view.modifier is not None:
        plan += tuple(rules.raise_plan(view.modifier))
    steps = [k for k, step in enumerate(plan) if step.phase is cb.Phase.CALLING]
    if not steps:
        return Facts()
    kind = callable_kind(rules, contract)
    others = view.seat != declarer
    hand = 1 << declarer  # the declarer's hand, as a mask of place codes
    call = next(
        ((i, a.card.index) for i, (_, a) in enumerate(view.history) if isinstance(a, cb.Call)),
        None,
    )
    if call is not None:
        entry, card = call
        forced = view.forced_moves
        at = next(
            (
                t
                for t, r in enumerate(records)
                if r[0] >= entry or (r[1] >= 0 and forced[r[1]][0] > entry)
            ),
            len(records),
        )
        handed = [r for r in records[at:] if r[0] == entry and r[3] >= 0 and r[3] >> card & 1]
        pins = [(at, 1 << card, 1 << places.STOCK_CODE)] if not handed else []
        if kind == "threes_then_twos" and others and TWOS >> card & 1:
            pins.append((at, THREES, hand))  # he asked for a 2: he held every 3
        forbid = ((at, card, declarer, handed[0][4]),) if handed else ()
        return Facts(tuple(pins), forbid, (), kind is not None or not others)
    if kind is None or not others:  # (the declarer knows his own hand)
        return Facts(exact=not others)
    before = {plan[k].phase for k in range(steps[0])}
    phase = view.phase
    if phase is cb.Phase.CALLING:  # he is asking: something is callable
        if kind == "threes_then_twos":
            return Facts(not_all=((declarer, THREES | TWOS),))
        return Facts()
    passed = phase not in (cb.Phase.BIDDING, cb.Phase.OVER, *before) or any(
        r[2] == declarer or r[4] >= places.TRICK_CODE for r in records
    )
    if not passed:
        return Facts()
    if kind != "threes_then_twos":
        raise InconsistentViewError(
            "no deal is consistent with this view: the declarer called nothing although he could"
        )
    # nothing was callable: he held every 3 and 2, until his hand first changed
    at = next((t for t, r in enumerate(records) if declarer in (r[4], r[5])), len(records))
    return Facts(pins=((at, THREES | TWOS, hand),))
