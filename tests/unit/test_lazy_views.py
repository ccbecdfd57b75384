"""Views of the play fill their hand, hand sizes, trick and history when first read: the same values,
and nothing of the state held meanwhile."""

from __future__ import annotations

import gc
import pickle
import random

import pytest

import calabrasella as cb
from calabrasella.actions import Discard

_RULES = (cb.CAVENDISH, cb.CALABRESELLA, cb.Cavendish(players=4), cb.Calabresella(follow_suit=False))


def play_states(rules: cb.Ruleset, deals: int, seed: int) -> list[cb.State]:
    rng = random.Random(seed)
    out = []
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % rules.players, seed=rng)
        while not state.is_over:
            if state.phase is cb.Phase.PLAYING:
                out.append(state)
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        if state.exchange is not None:
            out.append(state)
    return out


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through containers (not through classes)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


@pytest.mark.parametrize("rules", _RULES, ids=lambda r: repr(r)[:40])
def test_a_view_read_late_equals_one_read_at_once(rules: cb.Ruleset) -> None:
    """Whichever field is read first, a play view has the same hand, hand sizes, trick, history,
    equality, hash, repr, pickle and plain data."""
    for state in play_states(rules, 6, 11):
        for seat in state.deal.order:
            first_hand, first_trick = state.view(seat), state.view(seat)
            hand, trick = first_hand.hand, first_trick.trick  # fill each by another field
            assert first_hand.trick == trick and first_trick.hand == hand
            assert hand == state.hand(seat)
            assert state.view(seat).hand_sizes == tuple(h.bit_count() for h in state.hand_masks)
            seats = [state.leader]
            for _ in state.trick[1:]:
                seats.append(state.deal.next_seat[seats[-1]])
            assert trick == tuple(zip(seats, state.trick))
            assert first_hand.history == first_trick.history
            late = state.view(seat)
            assert late == first_hand and hash(late) == hash(first_hand)
            assert repr(state.view(seat)) == repr(first_hand)
            assert pickle.loads(pickle.dumps(state.view(seat))) == first_hand
            assert cb.to_data(state.view(seat)) == cb.to_data(first_hand)


@pytest.mark.parametrize("rules", _RULES[:2], ids=lambda r: repr(r)[:40])
def test_a_view_not_yet_read_holds_no_hidden_card(rules: cb.Ruleset) -> None:
    """Before any field is read, a view reaches no state, no other seat's hand and no
    other seat's face-down discard."""
    for state in play_states(rules, 4, 5):
        for seat in state.deal.order:
            view = state.view(seat)
            objects = reachable(view)
            assert not any(isinstance(o, cb.State) for o in objects)
            others = {m for s, m in enumerate(state.hand_masks) if s != seat and m.bit_count() > 4}
            assert not any(type(o) is int and o in others for o in objects)
            if others:
                assert not any(type(o) is tuple and o == state.hand_masks for o in objects)
            assert not any(
                type(o) is tuple and len(o) == 2 and o[0] != seat and isinstance(o[1], Discard)
                for o in objects
            ), "another seat's face-down discard reached the view"


def test_an_unknown_attribute_of_a_view_is_an_attribute_error() -> None:
    """A view of the play still raises AttributeError for a name it has not."""
    state = play_states(cb.CAVENDISH, 1, 3)[0]
    view = state.view(0)
    with pytest.raises(AttributeError, match="no attribute 'hands'"):
        view.hands  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(view, "stock")


def test_a_view_filled_twice_as_racing_threads_would_still_answers() -> None:
    """Two threads may both miss ``hand`` and enter the filling; the one that comes
    second finds the fields in place and the pending data gone, and still answers."""
    state = play_states(cb.CAVENDISH, 1, 3)[0]
    view = state.view(0)
    first = view.hand
    fill = type(view).__getattr__  # type: ignore[attr-defined]  # (hidden from type checkers)
    assert fill(view, "hand") == first == state.hand(0)
    assert fill(view, "history") == view.history


def test_what_a_seat_was_told_is_worked_out_once_for_a_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The exchange as one seat was told it is worked out once for every view of its play,
    when the first is built; reading the views' histories works out nothing more."""
    import calabrasella._hidden as hidden

    calls: list[int] = []
    real = hidden._redact

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(hidden, "_redact", counted)
    states = play_states(cb.CAVENDISH, 1, 3)
    seat = states[0].deal.order[1]
    built = [state.view(seat) for state in states]
    assert len(calls) == 1
    for view in built:
        assert any(isinstance(action, cb.Hidden) for _, action in view.history)
    assert len(calls) == 1


@pytest.mark.parametrize("rules", _RULES, ids=lambda r: repr(r)[:40])
def test_the_exchange_as_told_is_the_same_whichever_field_is_read_first(rules: cb.Ruleset) -> None:
    """Views of the exchange and of the play: reading the history, the card given back,
    the forced moves or the moves first gives the same view."""
    rng = random.Random(8)
    for i in range(6):
        state = cb.new_deal(rules, dealer=i % rules.players, seed=rng)
        while not state.is_over:
            if state.exchange is not None:
                for seat in state.deal.order:
                    views = [state.view(seat) for _ in range(4)]
                    firsts = (
                        views[0].history, views[1].given_back, views[2].forced_moves, views[3].moves
                    )
                    assert firsts == (
                        views[1].history, views[2].given_back, views[3].forced_moves, views[0].moves
                    )
                    assert views[0] == views[1] == views[2] == views[3]
                    assert pickle.loads(pickle.dumps(state.view(seat))) == views[0]
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))


def test_a_view_holds_what_it_shows_and_nothing_that_reaches_the_state() -> None:
    """Nothing reachable from a view (its fields, what its lazy fields are made from) is
    a state, an exchange record or a working copy: a view holds what it shows."""
    from calabrasella.rulesets.steps import Exchange, Work

    def reachable(view: cb.View) -> list[object]:
        seen: set[int] = set()
        out: list[object] = []
        todo: list[object] = [view.__dict__]
        while todo:
            obj = todo.pop()
            if id(obj) in seen or isinstance(obj, (int, str, bytes, float, type(None))):
                continue
            seen.add(id(obj))
            out.append(obj)
            if isinstance(obj, (cb.Ruleset, type)):
                continue  # (the ruleset is public, and a class is no data of the deal)
            if isinstance(obj, dict):
                todo += list(obj.values())
            elif isinstance(obj, (tuple, list, frozenset)):
                todo += list(obj)
            elif hasattr(obj, "__dict__"):
                todo += list(vars(obj).values())
        return out

    rng = random.Random(4)
    checked = 0
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        for d in range(6):
            state = cb.new_deal(rules, seed=100 + d)
            while not state.is_over:
                for seat in state.deal.order:
                    view = state.view(seat)
                    found = reachable(view)
                    assert not any(isinstance(o, (cb.State, Exchange, Work)) for o in found)
                    checked += 1
                if state.is_chance:
                    state = cb.apply(state, cb.sample_chance(state, rng))
                else:
                    state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    assert checked > 300
