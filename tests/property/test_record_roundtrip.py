"""Records and JSON over random deals: everything loads back equal, and a view's JSON leaks nothing.

Deals come from :func:`strategies.playouts` (either ruleset, any options,
any dealer, random legal play), cut at a random step, so states of every
phase are written and read. A view's JSON is checked the way views are
(``test_invariants.py``): it names no card outside
:func:`~calabrasella.testing.cards_seat_may_know`, and two deals that differ
only in cards the seat cannot know give it the same JSON, character for
character.
"""

from __future__ import annotations

import json
import re

from hypothesis import given, reject, settings
from hypothesis import strategies as st
from strategies import Playout, playouts

import calabrasella as cb
from calabrasella.testing import cards_seat_may_know, relabel_action, relabel_cards

# the round trips replay whole deals: under a big profile (fuzz) they stop at 2,000 examples
_CAPPED = settings(max_examples=min(settings().max_examples, 2_000))
# a card code standing alone in a string: "Ad" in "play Ad", not in a longer word
_CARD = re.compile(r"(?<![A-Za-z0-9])([32AKQJ7654][dhsc])(?![A-Za-z0-9])")

_TAG_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True).filter(
    lambda name: name not in ("ruleset", "version", "options", "dealer")
)
_TAG_VALUES = st.text(
    st.characters(min_codepoint=32, blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30
)


def _step(data: st.DataObject, playout: Playout) -> int:
    return data.draw(st.integers(min_value=0, max_value=len(playout.actions)), label="step")


@_CAPPED
@given(playouts(), st.data())
def test_state_json_loads_back_equal_in_every_phase(playout: Playout, data: st.DataObject) -> None:
    """from_json(to_json(state), State) == state, whatever the phase, ruleset and options."""
    state = playout.states[_step(data, playout)]
    assert cb.from_json(cb.to_json(state), cb.State) == state


@_CAPPED
@given(playouts(), st.data(), st.dictionaries(_TAG_NAMES, _TAG_VALUES, max_size=4))
def test_record_json_and_text_load_back_equal(
    playout: Playout, data: st.DataObject, tags: dict[str, str]
) -> None:
    """A record of a deal cut anywhere, with any tags, reads back equal from JSON and from text."""
    state = playout.states[_step(data, playout)]
    record = cb.Record.from_state(state, tags=tags)
    assert record.replay() == state
    assert cb.from_json(cb.to_json(record), cb.Record) == record
    assert cb.Record.from_text(record.to_text()) == record


@_CAPPED
@given(playouts(), st.data())
def test_view_and_result_json_load_back_equal(playout: Playout, data: st.DataObject) -> None:
    """Each seat's view at a random step, and the final result, load back equal."""
    state = playout.states[_step(data, playout)]
    for seat in range(playout.rules.players):
        view = state.view(seat)
        assert cb.from_json(cb.to_json(view), cb.View) == view
    result = playout.final.result
    assert result is not None
    assert cb.from_json(cb.to_json(result), cb.Result) == result


def _cards_named(document: object, *, skip_calls: bool) -> set[str]:
    """Every card code in the strings of a JSON document."""
    found: set[str] = set()
    todo = [document]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if not (skip_calls and key == "legal_actions"):
                    todo.append(value)
                else:  # the calls a declarer may make name cards by the rules, not by where they lie
                    todo.extend(a for a in value if not a.startswith("call "))
        elif isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, str):
            found.update(_CARD.findall(node))
    return found


@_CAPPED
@given(playouts(), st.data())
def test_view_json_names_no_card_the_seat_may_not_know(playout: Playout, data: st.DataObject) -> None:
    """Every card in a view's JSON is one the seat may know (the conformance kit's account)."""
    k = _step(data, playout)
    state = playout.states[k]
    for seat in range(playout.rules.players):
        document = json.loads(cb.to_json(state.view(seat)))
        known = {card.code for card in cards_seat_may_know(state, seat)}
        leaked = _cards_named(document, skip_calls=True) - known
        assert not leaked, f"seat {seat} at step {k} is sent {sorted(leaked)}"


@_CAPPED
@given(playouts(), st.data())
def test_view_json_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    playout: Playout, data: st.DataObject
) -> None:
    """Swap the cards a seat cannot know for others of their suit: its views' JSON stays the same text."""
    k = _step(data, playout)
    seat = data.draw(st.integers(min_value=0, max_value=playout.rules.players - 1), label="seat")
    unknown = cb.CardSet.all() - cards_seat_may_know(playout.states[k], seat)
    perm = list(range(40))  # card i becomes card perm[i]
    for suit in cb.Suit:
        group = [card.index for card in unknown.suit(suit)]
        for src, dst in zip(group, data.draw(st.permutations(group)), strict=True):
            perm[src] = dst
    deal = playout.states[0].deal
    world = cb.deal_from(
        playout.rules,
        [relabel_cards(hand, perm) for hand in deal.hands],
        relabel_cards(deal.stock, perm),
        dealer=deal.dealer,
    )
    states = [world]
    for action, recorded in zip(playout.actions[:k], playout.states[1:], strict=False):
        try:
            world = cb.apply(world, relabel_action(action, perm))
        except cb.IllegalActionError:
            reject()  # the seat saw something this world contradicts
        if (world.phase, world.to_move) != (recorded.phase, recorded.to_move):
            reject()
        states.append(world)
    for step, (mine, theirs) in enumerate(zip(playout.states, states, strict=False)):
        assert cb.to_json(mine.view(seat)) == cb.to_json(theirs.view(seat)), f"seat {seat}, step {step}"
