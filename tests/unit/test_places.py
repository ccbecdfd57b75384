"""Places and moves: where every card is, who saw it move, and what a seat is told.

The known answers come from one Cavendish deal (seed 7, dealer 0), checked by
hand against its dealt hands: seat 1 stands, calls 3c (which seat 2 holds),
gives 5c back to seat 2 and discards; the moves and each seat's picture of
them follow from the rules of RULES.md (a give-back seen by the two seats
concerned, a discard by its seat only).
"""

from __future__ import annotations

import random
from typing import Literal

import pytest

import calabrasella as cb
from calabrasella import places
from calabrasella.places import STOCK, Where, hand, laid_aside, layout
from calabrasella.testing import cards_seat_may_know


def seven(*texts: str) -> cb.State:
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in texts:
        state = cb.apply(state, cb.parse_action(text))
    return state


def test_the_dealt_hands_behind_the_known_answers() -> None:
    """The facts the answers below rest on: seat 2 holds 3c and 5c is seat 1's."""
    state = seven()
    assert cb.Card.parse("3c") in state.hand(2)
    assert cb.Card.parse("5c") in state.hand(1)


def test_a_call_a_give_back_and_a_discard_are_three_moves_with_their_onlookers() -> None:
    state = seven("bid stand", "call 3c", "give back 5c", "discard 6c")
    moves = state.moves
    assert [(m.source, m.target, m.number) for m in moves] == [
        (hand(2), hand(1), 1),
        (hand(1), hand(2), 1),
        (hand(1), laid_aside(1), 1),
    ]
    assert [str(m.cards) for m in moves] == ["3c", "5c", "6c"]
    assert [m.seen_by for m in moves] == [
        frozenset({0, 1, 2}),
        frozenset({1, 2}),
        frozenset({1}),
    ]
    assert [m.entry for m in moves] == [1, 2, 3]  # the history entries that made them
    assert all(m.forced == -1 for m in moves)


def test_each_seat_sees_the_cards_of_the_moves_it_saw_and_the_words_of_the_rest() -> None:
    state = seven("bid stand", "call 3c", "give back 5c", "discard 6c")
    seat0 = state.view(0)
    assert [m.cards if m.cards is None else str(m.cards) for m in seat0.moves] == [
        "3c",
        None,
        None,
    ]
    assert [a for _, a in seat0.history[2:]] == [
        cb.Hidden("give_back", "gave a card back face down"),
        cb.Hidden("discard", "discarded a card face down"),
    ]
    assert str(seat0.history[2][1]) == "gave a card back face down"
    seat2 = state.view(2)  # the giver sees the card given back, not the discard
    assert [str(m.cards) if m.cards else None for m in seat2.moves] == ["3c", "5c", None]
    assert seat2.history[2][1] == cb.GiveBack(cb.Card.parse("5c"))


def test_the_layout_keeps_the_discards_apart_from_the_stock_they_count_with() -> None:
    state = seven(
        "bid stand",
        "call 3c",
        "give back 5c",
        "discard 6c",
        "discard Jc",
        "discard 3c",
        "discard 5s",
    )
    assert state.phase is cb.Phase.PLAYING  # the stock was shown and taken
    spots = {spot.place: spot for spot in layout(state)}
    assert str(spots[laid_aside(1)].shown) == "5s 3c Jc 6c"
    assert STOCK not in spots  # every stock card was taken
    seen_by_0 = {spot.place: spot for spot in layout(state.view(0))}
    assert seen_by_0[laid_aside(1)].shown == cb.CardSet()
    assert seen_by_0[laid_aside(1)].face_down == 4
    assert seen_by_0[hand(1)].face_down == 12


def test_the_stock_turned_up_is_public_until_taken() -> None:
    state = seven("bid stand", "call 3c", "give back 5c", "discard 6c", "discard Jc", "done")
    assert state.phase is cb.Phase.TAKING
    turned = [m for m in state.moves if m.source == m.target == STOCK]
    assert len(turned) == 1 and turned[0].seen_by == frozenset({0, 1, 2})
    for seat in range(3):
        spots = {spot.place: spot for spot in layout(state.view(seat))}
        assert spots[STOCK].public == turned[0].cards
        assert spots[STOCK].face_down == 0
        assert spots[laid_aside(1)].face_down == (0 if seat == 1 else 2)


def test_a_move_of_cards_not_in_its_source_is_refused() -> None:
    from calabrasella.rulesets.steps import Work

    state = seven("bid stand")
    work = Work(
        state.rules, list(state.hand_masks), state.stock_mask, state.exchange,  # type: ignore[arg-type]
        len(state.history) + 1,
    )  # fmt: skip
    not_his = next(iter(state.hand(2)))
    with pytest.raises(cb.RulesetError, match="not in hand 1"):
        work.move(not_his, hand(1), hand(0), seen_by="all", words="x")
    with pytest.raises(cb.RulesetError, match="moves no cards"):
        work.move(not_his, hand(2), places.TRICK, seen_by="all", words="x")
    assert work.moves == ()


def test_bad_places_are_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        hand(5)
    with pytest.raises(ValueError, match="no place has the code"):
        places.Place.of(14)
    assert places.Place.of(7) == laid_aside(2)
    assert places.won(1).where is Where.WON and str(places.won(1)) == "won by 1"


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", range(12))
def test_the_moves_a_view_shows_are_only_what_its_seat_may_know(
    rules: cb.Ruleset, seed: int
) -> None:
    """At every state of random deals: the cards of the moves a view shows are among those
    the seat may know (worked out by the conformance kit), the moves it cannot see carry
    words and no cards, and the state's layout holds each card not yet played once."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % 3, seed=seed)
    while True:
        for seat in range(3):
            view = state.view(seat)
            known = cards_seat_may_know(state, seat).mask
            for move in view.moves:
                if move.cards is None:
                    assert move.words and move.number > 0 and seat not in move.seen_by
                else:
                    assert move.cards.mask & ~known == 0
        held = 0
        count = 0
        for spot in layout(state):
            held |= spot.shown.mask
            count += len(spot.shown) + spot.face_down
        played = 0
        for _, action in state.history:
            if isinstance(action, cb.Play) and action.card.index not in state.trick_cards:
                played |= 1 << action.card.index
        assert held & played == 0 and held | played == (1 << 40) - 1
        assert count == 40 - played.bit_count()
        if state.is_over:
            break
        state = cb.apply(
            state,
            cb.sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions()),
        )


@pytest.mark.parametrize("seed", range(20))
def test_the_built_in_steps_fast_move_is_the_checked_move(seed: int) -> None:
    """The built-in steps call ``Work._move`` on codes and masks; ``Work.move`` (the
    public, checked path) leaves the same work and the same record for the same move."""
    from calabrasella.rulesets.steps import Work

    rng = random.Random(seed)
    state = cb.new_deal(cb.CAVENDISH, dealer=seed % 3, seed=seed)
    state = (
        cb.apply(state, cb.Bid(cb.Contract.STAND))
        if cb.Bid(cb.Contract.STAND) in state.legal_actions()
        else cb.apply(cb.apply(state, cb.Pass()), cb.Bid(cb.Contract.STAND))
    )
    ex = state.exchange
    assert ex is not None

    def fresh() -> Work:
        return Work(
            state.rules, list(state.hand_masks), state.stock_mask, ex, len(state.history) + 1
        )

    src_seat, dst_seat = rng.sample(range(3), 2)
    card = rng.choice(list(state.hand(src_seat)))
    onlookers = rng.choice([(src_seat,), (src_seat, dst_seat), None])
    seen: tuple[int, ...] | Literal["all"] = "all" if onlookers is None else onlookers
    mask_seen = 15 if onlookers is None else sum(1 << s for s in onlookers)
    for target in (hand(dst_seat), laid_aside(src_seat)):
        checked, fast = fresh(), fresh()
        checked.move(card, hand(src_seat), target, seen_by=seen, words="w")
        fast._move(1 << card.index, src_seat, target.code, mask_seen, "w", src_seat, False)
        for name in ("hands", "stock", "moves"):
            assert getattr(checked, name) == getattr(fast, name), name
        assert checked.books() == fast.books()


def test_the_table_server_shows_face_down_moves_in_the_steps_words() -> None:
    """The table's messages (a seat's view as data, and a spectator's) carry the words a
    seat is told of a move it did not see: the page prints them as the history."""
    from calabrasella.server import public_view_data

    state = seven("bid stand", "call 3c", "give back 5c", "discard 6c")
    words = {"hidden": "discard", "words": "discarded a card face down"}
    assert cb.to_data(state.view(0))["history"][-1] == [1, words]
    assert public_view_data(state)["history"][-1] == [1, words]
    assert public_view_data(state)["history"][2] == [
        1, {"hidden": "give_back", "words": "gave a card back face down"}
    ]  # fmt: skip


def _texts(picture: str) -> list[str]:
    import html
    import re

    return [html.unescape(t) for t in re.findall(r">([^<]+)</text>", picture)]


def test_a_picture_draws_the_discards_apart_from_the_stock_face_down() -> None:
    """After the exchange the declarer's four discards are his, face down: not "stock: 4
    cards (face up)"; while the stock lies turned up, it is drawn face up beside them."""
    from calabrasella import svg

    played = seven(
        "bid stand", "call 3c", "give back 5c", "discard 6c", "discard Jc", "discard 3c", "discard 5s"
    )
    for picture, label in ((svg.table(played), "seat 1 laid these face down"),  # a state shows them
                           (svg.table(played.view(0)), "seat 1's discards, face down")):  # fmt: skip
        texts = _texts(picture)
        assert label in texts
        assert not any(t.startswith("stock:") for t in texts)
    taking = seven("bid stand", "call 3c", "give back 5c", "discard 6c", "discard Jc", "done")
    assert {"stock: 4 cards (face up)", "seat 1's discards, face down"} <= set(
        _texts(svg.table(taking.view(2)))
    )
    assert "you laid these face down" in _texts(svg.table(taking.view(1)))


def test_a_picture_of_the_auction_shows_the_calls_so_far() -> None:
    from calabrasella import svg

    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=7)
    for text in ("bid chiamo", "pass"):
        state = cb.apply(state, cb.parse_action(text))
    assert "no contract yet · seat 1 chiamo, seat 2 pass" in _texts(svg.table(state.view(0)))
    assert "no contract yet · seat 1 chiamo, seat 2 pass" in _texts(svg.table(state))
