"""The ledger: every move of cards, the play's included, replays the deal.

Replaying ``places.records(state)`` from the dealt hands and stock gives
every place's cards; replaying a view's from what its seat was dealt gives
what that seat may know (its own hand, every place's card count, the cards
it saw move). Random states of both games, table mode, four at the table
and both example variants (the swap, the blind draw) are tried. A :class:`Work` keeps its tally of the
moves up to date as steps move cards: it is held to the tally worked out
afresh from the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from support import load_example

import calabrasella as cb
from calabrasella import places
from calabrasella._exchange import work_of
from calabrasella.places import CODE_COUNT, STOCK_CODE, WON_CODE
from calabrasella.rulesets._books import books

swap = load_example("swap_variant")
blind = load_example("blind_draw_variant")

RULES = [
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(irregularities="record"),
    cb.Cavendish(players=4),
    cb.Calabresella(players=4),
]


@pytest.fixture
def registered() -> Iterator[None]:
    with cb.registered_ruleset(swap.SwapCavendish), cb.registered_action(swap.Swap):
        yield


def random_states(rules: cb.Ruleset, deals: int, seed: int) -> Iterator[cb.State]:
    """Every state of ``deals`` random deals (irregular actions chosen too where legal)."""
    rng = random.Random(seed)
    for d in range(deals):
        state = cb.new_deal(rules, dealer=d % rules.players, seed=seed * 1000 + d)
        yield state
        while not state.is_over:
            action: cb.Action = (
                cb.sample_chance(state, rng) if state.is_chance else rng.choice(state.legal_actions())
            )
            state = cb.apply(state, action)
            yield state


def replay(dealt: list[int], records: tuple[places.MoveRecord, ...]) -> list[int]:
    """Move the cards of each record from its source to its target (codes index ``dealt``)."""
    where = list(dealt)
    for _, _, _, cards, src, dst, _, _ in records:
        if src == dst:
            continue
        assert cards > 0, "a state's moves have every card"
        assert where[src] & cards == cards, f"{cards:#x} not all in place {src}"
        where[src] &= ~cards
        where[dst] |= cards
    return where


def dealt_places(state: cb.State) -> list[int]:
    where = [0] * CODE_COUNT
    for seat, hand in enumerate(state.deal.hands):
        where[seat] = hand.mask
    where[STOCK_CODE] = state.deal.stock.mask
    return where


def check_state(state: cb.State) -> None:
    where = replay(dealt_places(state), places.records(state))
    assert tuple(where[: state.players]) == state.hand_masks
    laid = 0
    for seat in range(4):
        laid |= where[places.LAID_ASIDE_CODE + seat]
    assert where[STOCK_CODE] | laid == state.stock_mask
    assert where[places.TRICK_CODE] == sum(1 << c for c in state.trick_cards)
    won = [where[WON_CODE + s].bit_count() // 3 for s in range(state.players)]
    assert tuple(won) == state.tricks_won
    # each seat's view: its own hand, every count, and no card it did not see
    for seat in range(state.players):
        view = state.view(seat)
        counts = [0] * CODE_COUNT
        known = [0] * CODE_COUNT
        counts[seat] = known[seat] = state.deal.hands[seat].mask.bit_count()
        known[seat] = state.deal.hands[seat].mask
        for s in range(state.players):
            counts[s] = state.deal.hands[s].mask.bit_count()
        counts[STOCK_CODE] = state.deal.stock.mask.bit_count()
        for _, _, _, cards, src, dst, _, _ in places.records(view):
            if src == dst:
                if cards > 0:
                    known[src] |= cards
                continue
            n = cards.bit_count() if cards > 0 else -cards
            counts[src] -= n
            counts[dst] += n
            if cards > 0:
                known[src] &= ~cards
                known[dst] |= cards
        assert known[seat] == view.hand.mask
        assert tuple(counts[: state.players]) == view.hand_sizes
        assert sum(counts[STOCK_CODE:places.TRICK_CODE]) == view.stock_size
        may_know = cb.testing.cards_seat_may_know(state, seat).mask
        for code in range(CODE_COUNT):
            assert known[code] & ~may_know == 0, f"seat {seat} knows too much of place {code}"


@pytest.mark.parametrize("rules", RULES, ids=repr)
def test_replaying_the_moves_gives_every_place(rules: cb.Ruleset) -> None:
    for state in random_states(rules, 8, 11):
        check_state(state)


def test_replaying_the_moves_of_the_swap_variant(registered: None) -> None:
    for state in random_states(swap.SwapCavendish(), 8, 12):
        check_state(state)


def test_replaying_the_moves_of_the_blind_draw_variant() -> None:
    """A stock card drawn unseen by the others, then one laid aside: the ledger has both."""
    for state in random_states(blind.BlindDrawCavendish(), 8, 14):
        check_state(state)


def test_the_play_is_in_the_ledger() -> None:
    """A whole deal: 36 cards reach the trick, 12 tricks reach their winners."""
    state = list(random_states(cb.CAVENDISH, 1, 3))[-1]
    assert state.tricks_played == 12
    played = [m for m in state.moves if m.target == places.TRICK]
    won = [m for m in state.moves if m.source == places.TRICK]
    assert len(played) == 36
    assert len(won) == 12
    assert [t.winner for t in places.tricks(state)] == [m.seat for m in won]
    assert all(m.seen_by == frozenset(range(3)) for m in played + won)


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=repr)
def test_a_works_kept_tally_is_the_tally_of_its_moves(rules: cb.Ruleset) -> None:
    """The tally a work keeps up to date is the one worked out afresh: started from the
    state before's (shared, counted on when read) or made by the work itself (each move
    counted as it is made, where no action is needed to tell what it adds)."""
    tried = 0
    for state in random_states(rules, 30, 13):
        if state.exchange is None or state.phase in (cb.Phase.PLAYING, cb.Phase.OVER):
            continue
        if state.is_chance:
            continue
        action = random.Random(tried).choice(state.legal_actions())
        for own in (False, True):
            work = work_of(state)
            if own:
                work._tally = None  # made now, by this work: its moves counted as made
            work.laid_down()
            work.plan[work.step].apply(work, action)
            assert work.books() == books(work.moves, work.action_of, len(work.hands))
        tried += 1
    assert tried > 50


def test_a_view_read_back_from_json_or_evolved_keeps_its_moves() -> None:
    """The moves travel with a view: through JSON (as a server sends it), a pickle and
    ``attrs.evolve``; the sampler counts the same worlds from each."""
    import pickle

    import attrs

    from calabrasella import bots

    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    for text in ("bid stand", "call 3c", "give back 5c", "discard 6c"):
        state = cb.apply(state, cb.parse_action(text))
    view = state.view(0)
    assert len(places.records(view)) == 3
    copies = [
        cb.from_json(cb.to_json(view), cb.View),
        pickle.loads(pickle.dumps(view)),
        attrs.evolve(view, legal_actions=()),
    ]
    for copy in copies:
        assert places.records(copy) == places.records(view)
        assert repr(bots.Sampler(copy)).split(", ")[-1] == repr(bots.Sampler(view)).split(", ")[-1]
