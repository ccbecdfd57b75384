"""apply(..., seat=): an action is refused unless it is the sending seat's to make."""

from __future__ import annotations

import pytest

import calabrasella as cb
from calabrasella.testing import same_contents, state_contents


def _first_states() -> tuple[cb.State, cb.State]:
    s0 = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    return s0, cb.apply(s0, cb.Pass())


def test_the_mover_may_send_its_action() -> None:
    """seat= the seat to move: the same state as apply without a seat."""
    s0, s1 = _first_states()
    assert cb.apply(s0, cb.Pass(), seat=1) == s1
    assert cb.is_legal(s0, cb.Pass(), seat=1)
    cb.check(s0, cb.Pass(), seat=1)


@pytest.mark.parametrize("sender", [0, 2])
def test_another_seat_is_refused_naming_both_seats(sender: int) -> None:
    """Seat 1 is to move: what seat 0 or 2 sends is refused, the message names both, nothing changes."""
    s0, _ = _first_states()
    before = state_contents(s0)
    with pytest.raises(cb.IllegalActionError) as info:
        cb.apply(s0, cb.Pass(), seat=sender)
    assert f"sent by seat {sender}" in info.value.reason
    assert "seat 1's to make" in info.value.reason
    assert same_contents(before, state_contents(s0))
    assert not cb.is_legal(s0, cb.Pass(), seat=sender)
    with pytest.raises(cb.IllegalActionError):
        cb.check(s0, cb.Pass(), seat=sender)


@pytest.mark.parametrize("seat", [3, -1, "1", None.__class__, 1.0, True])
def test_a_bad_seat_is_a_seat_error(seat: object) -> None:
    """A seat outside the table (or not an int) is a SeatError, before anything is applied."""
    s0, _ = _first_states()
    with pytest.raises(cb.SeatError):
        cb.apply(s0, cb.Pass(), seat=seat)  # type: ignore[arg-type]
    with pytest.raises(cb.SeatError):
        cb.is_legal(s0, cb.Pass(), seat=seat)  # type: ignore[arg-type]


def test_chance_is_no_seats_to_send() -> None:
    """A dividete draw is chance's: no seat may send it."""
    rng_state = cb.new_deal(cb.CALABRESELLA, seed=3)
    state = rng_state
    # Bid solissimo and raise dividete with whoever is to move, to reach the draw.
    state = cb.apply(state, cb.Bid("solissimo"))
    while state.phase is cb.Phase.BIDDING:
        state = cb.apply(state, cb.Pass())
    state = cb.apply(state, cb.Raise("dividete"))
    assert state.is_chance
    draw = cb.chance_outcomes(state)[0]
    for seat in range(3):
        with pytest.raises(cb.IllegalActionError, match="chance's"):
            cb.apply(state, draw, seat=seat)
    cb.apply(state, draw)  # without a seat it is applied as chance


def test_a_view_answers_only_for_its_own_seat() -> None:
    """is_legal(view, a, seat=s) is False for a seat other than the view's."""
    s0, _ = _first_states()
    view = s0.view(1)
    assert cb.is_legal(view, cb.Pass(), seat=1)
    assert not cb.is_legal(view, cb.Pass(), seat=2)
    with pytest.raises(cb.SeatError):
        cb.is_legal(view, cb.Pass(), seat=7)


def test_table_mode_actions_belong_to_the_seat_they_name() -> None:
    """OutOfTurn(seat, card) is that seat's to send, not the mover's."""
    rules = cb.Cavendish(irregularities="record")
    state = cb.new_deal(rules, dealer=0, seed=7)
    while state.phase is not cb.Phase.PLAYING:
        state = cb.apply(state, cb.legal_actions(state)[-1] if state.phase is cb.Phase.BIDDING else cb.legal_actions(state)[0])
    assert state.to_move is not None
    offenders = [a for a in cb.legal_actions(state) if isinstance(a, cb.OutOfTurn)]
    assert offenders
    action = offenders[0]
    cb.apply(state, action, seat=action.seat)
    with pytest.raises(cb.IllegalActionError, match=f"seat {action.seat}'s to make"):
        cb.apply(state, action, seat=state.to_move)
