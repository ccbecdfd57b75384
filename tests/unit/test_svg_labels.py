"""The table picture says what it draws: who led the trick, whose cards lie where, which cards may be used."""

from __future__ import annotations

import html
import random
import re

import calabrasella as cb
from calabrasella import svg


def texts(picture: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r">([^<]+)</text>", picture)]


def ringed(picture: str) -> set[str]:
    """The cards drawn with the thick (3) ring of a highlight or a winner."""
    return set(re.findall(r"<title>(\w\w)</title><rect [^>]*stroke-width=\"3\"", picture))


def played(rules: cb.Ruleset, seed: int, until: int) -> cb.State:
    """A seeded random deal stopped at the first state of ``until`` history entries or more in the play."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    while not (state.phase is cb.Phase.PLAYING and len(state.history) >= until and state.trick):
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


def test_the_wide_table_says_who_led_the_trick_and_who_played_each_card() -> None:
    for rules in (cb.CAVENDISH, cb.CALABRESELLA, cb.Cavendish(players=4)):
        state = played(rules, 5, 30)
        leader = state.leader
        plays = state.view(0).trick  # (seat, card) from the leader's
        for picture in (svg.table(state), svg.table(state.view(0))):
            words = texts(picture)
            assert f"seat {leader} led" in words, (rules.name, words)
            assert all(f"seat {seat}" in words or f"seat {seat} led" in words for seat, _ in plays)


def test_a_state_does_not_call_the_discards_it_shows_face_down() -> None:
    """Cavendish seed 7: seat 1 stands, calls 3h, gives back 4h and discards 5s (docs/cli.md's deal)."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h", "give back 4h", "discard 5s", "done"]:
        state = cb.apply(state, cb.parse_action(text))
    words = texts(svg.table(state))
    assert "seat 1 laid these face down" in words and "seat 1's discards, face down" not in words
    assert "seat 1's discards, face down" in texts(svg.table(state.view(2)))  # backs: face down
    assert "you laid these face down" in texts(svg.table(state.view(1)))


def test_the_four_seat_table_writes_each_seat_whole() -> None:
    state = cb.new_deal(cb.Cavendish(players=4), dealer=0, seed=7)
    state = cb.apply(state, cb.parse_action("bid stand"))  # seat 1, the eldest, is the single player
    for picture in (svg.table(state), svg.table(state, narrow=True)):
        words = texts(picture)
        assert "seat 1 · eldest, single player" in words
        assert not [w for w in words if w.endswith("…")], words


def test_while_a_seat_discards_its_hand_is_ringed() -> None:
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ["bid stand", "call 3h", "give back 4h"]:
        state = cb.apply(state, cb.parse_action(text))
    assert state.phase is cb.Phase.DISCARDING and state.to_move == 1
    hand = {card.code for card in state.hand(1)}
    for picture in (svg.table(state), svg.table(state.view(1)), svg.table(state, narrow=True)):
        assert ringed(picture) == hand
    assert ringed(svg.table(state.view(0))) == set()  # not seat 0's turn
