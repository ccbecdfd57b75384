"""The play rule is one kernel (``_tricks``); the hot paths that inline it agree with it.

``legal_actions`` asks the kernel; ``apply`` inlines the check of a card and
the trick's winner, and ``rollout`` draws its cards on suit masks: each is held here to
:func:`calabrasella._tricks.legal_plays` and
:func:`calabrasella._tricks.trick_winner`, over random deals of every
ruleset and option (table mode and ``follow_suit=False`` included).
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from strategies import Playout, playouts

import calabrasella as cb
from calabrasella._tricks import legal_plays, refuses, third_wins, trick_winner, winning_play


@given(playouts())
def test_the_legal_plays_are_the_kernels(playout: Playout) -> None:
    """In every state of the play, the regular legal actions are the kernel's plays."""
    for state in playout.states:
        if state.phase is not cb.Phase.PLAYING:
            continue
        seat = state.to_move
        assert seat is not None
        plays = legal_plays(state.hand_masks[seat], state.trick_cards, state.rules.follow_suit)
        regular = tuple(a for a in cb.legal_actions(state) if type(a) is cb.Play)
        assert regular == plays
        view = state.view(seat)
        assert tuple(a for a in view.legal_actions if type(a) is cb.Play) == plays


@given(playouts())
def test_each_trick_goes_to_the_kernels_winner(playout: Playout) -> None:
    """The seat that leads after a complete trick (and wins its units) is the kernel's winner."""
    for before, action, after in zip(playout.states, playout.actions, playout.states[1:]):
        if before.phase is not cb.Phase.PLAYING or len(before.trick_cards) != 2:
            continue
        if type(action) is not cb.Play and type(action) is not cb.Revoke:
            continue  # a card out of turn, or an abandon
        card = action.card.index
        cards = (*before.trick_cards, card)
        winner = trick_winner(cards, before.leader, before.deal.next_seat)
        assert after.tricks_won[winner] == before.tricks_won[winner] + 1
        if not after.is_over:
            assert after.leader == winner == after.to_move


def test_the_winner_is_the_highest_card_of_the_suit_led() -> None:
    """Hand-checked tricks: the 3 beats the ace of its suit; a card off suit never wins."""
    three, ace, king = 0, 2, 3  # coins: 3 2 A K ... are positions 0 1 2 3
    cups_three = 10
    next_seat = (1, 2, 0)
    assert trick_winner((ace, three, king), 0, next_seat) == 1
    assert trick_winner((king, cups_three, ace), 2, next_seat) == 1  # seat 2 led, seat 1 played the ace
    assert trick_winner((king, cups_three, 11), 0, next_seat) == 0  # nobody followed coins
    assert winning_play((king,)) == 0 and winning_play((king, ace)) == 1  # a trick so far
    assert winning_play((ace, cups_three)) == 0  # off suit, even a 3 does not win


@given(playouts(), st.integers(min_value=0, max_value=2**32))
def test_the_rollouts_play_is_the_loops(playout: Playout, seed: int) -> None:
    """From a state of the play, rollout (the draws on suit masks) ends where the loop ends."""
    states = [s for s in playout.states if s.phase is cb.Phase.PLAYING]
    if not states or states[0].rules.irregularities == "record":
        return
    start = states[len(states) // 2]
    rng = random.Random(seed)
    loop = start
    while not loop.is_over:
        loop = cb.apply(loop, rng.choice(cb.legal_actions(loop)))
    assert cb.rollout(start, random.Random(seed)) == loop


def test_the_kernels_tables_are_what_they_say() -> None:
    """The tables built by doubling hold, for every suit holding, its positions and plays."""
    from calabrasella._bits import PLACES
    from calabrasella._tricks import SUIT_PLAYS

    for mask in range(1024):
        assert PLACES[mask] == tuple(p for p in range(10) if mask >> p & 1)
        for suit in range(4):
            assert SUIT_PLAYS[suit][mask] == tuple(cb.Play(cb.DECK[10 * suit + p]) for p in PLACES[mask])


def test_the_fast_winner_of_three_cards_is_the_kernels() -> None:
    """``third_wins`` (apply's fast path) agrees with ``winning_play`` on every trick of three."""
    for c0 in range(40):
        for c1 in range(40):
            for c2 in range(40):
                if len({c0, c1, c2}) == 3:
                    assert third_wins(c0, c1, c2) == winning_play((c0, c1, c2)), (c0, c1, c2)


@given(st.integers(0, (1 << 40) - 1), st.integers(0, 39), st.integers(0, 39))
def test_the_fast_follow_check_is_the_kernels(hand: int, card: int, lead: int) -> None:
    """``refuses`` (apply's fast path) refuses exactly the cards ``legal_plays`` leaves out."""
    if lead == card:
        return  # the card led is on the table, in no hand
    hand = (hand | 1 << card) & ~(1 << lead)
    legal = {play.card.index for play in legal_plays(hand, (lead,), True)}
    assert refuses(hand, card, lead) == (card not in legal)
