"""Matches: the cut for seats, the deal passing to the left, void deals, misdeals, the ledger."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import calabrasella as cb

TABLES = (cb.CAVENDISH, cb.CALABRESELLA, cb.Cavendish(players=4), cb.Calabresella(players=4))


def play_out(state: cb.State, rng: random.Random) -> cb.State:
    """Play ``state`` to its end with random legal actions (chance drawn with ``sample_chance``)."""
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    return state


def passed_out(state: cb.State) -> cb.State:
    """Everybody passes: the deal is void."""
    while not state.is_over:
        state = cb.apply(state, cb.Pass())
    return state


def played(match: cb.Match, rng: random.Random) -> cb.Match:
    """Play the match's next deal at random and record it."""
    return match.record(play_out(match.next_deal(seed=rng), rng))


def a_won_deal(match: cb.Match, seed: int = 0) -> cb.State:
    """A final state of the match's next deal that someone won (nonzero payments)."""
    rng = random.Random(seed)
    while True:
        state = play_out(match.next_deal(seed=rng), rng)
        assert state.result is not None
        if any(state.result.payments):
            return state


# --- the cut ---------------------------------------------------------------------


def test_the_cut_is_the_same_for_the_same_seed() -> None:
    """An int seed and a random.Random seeded alike give the same cut, and the same match."""
    assert cb.cut_for_seats(3, 11) == cb.cut_for_seats(3, random.Random(11))
    assert cb.Match.start(cb.CAVENDISH, seed=11) == cb.Match.start(cb.CAVENDISH, seed=11)


@given(seed=st.integers(0, 2**32), players=st.sampled_from((3, 4)))
def test_the_lowest_card_deals_first_and_ties_cut_again(seed: int, players: int) -> None:
    """The 4 is the lowest card; the players are seated lowest first; only tied players re-cut."""
    cut = cb.cut_for_seats(players, seed)
    assert sorted(cut.order) == list(range(players))
    first = dict(cut.rounds[0])
    assert sorted(first) == list(range(players))
    assert len(set(first.values())) == players  # cut from one pack: distinct cards
    ranks = [first[p].rank for p in cut.order]
    assert ranks == sorted(ranks)  # lowest rank first, by the game's order
    assert first[cut.first_dealer].rank == min(c.rank for c in first.values())
    for again in cut.rounds[1:]:
        assert len(again) >= 2
        assert len({first[p].rank for p, _ in again}) == 1  # they had tied in the first round
    if len({c.rank for c in first.values()}) == players:
        assert len(cut.rounds) == 1
    match = cb.Match.start(cb.Cavendish(players=players), seed=seed)
    assert match.seating == cut.order and match.cut == cut
    assert match.dealer == 0 and match.dealer_player == cut.first_dealer


def test_a_tie_for_lowest_is_cut_again() -> None:
    """Two 4s tie for lowest; they cut again and the lower of the second cards deals."""
    cut = cb.cut_for_seats(3, 6)
    assert [[str(c) for _, c in r] for r in cut.rounds] == [["4c", "4h", "Kc"], ["Qd", "Jd"]]
    assert cut.order == (1, 0, 2)


def test_the_cut_rank_order_puts_the_four_lowest_and_the_three_highest() -> None:
    """A 3 cut against a 4 and a king: the 4 deals, the 3 sits last (rank, not pack order)."""
    for seed in range(200):
        cut = cb.cut_for_seats(3, seed)
        codes = {p: str(c) for p, c in cut.rounds[0]}
        if len(cut.rounds) == 1 and any(c[0] == "4" for c in codes.values()):
            assert codes[cut.order[0]][0] == "4"
        if len(cut.rounds) == 1 and any(c[0] == "3" for c in codes.values()):
            assert codes[cut.order[-1]][0] == "3"


@pytest.mark.parametrize("players", [2, 5, True, "3"])
def test_the_cut_needs_three_or_four_players(players: object) -> None:
    """A table seats 3 or 4."""
    with pytest.raises(cb.RulesetError, match="seats 3 or 4"):
        cb.cut_for_seats(players, 1)  # type: ignore[arg-type]


def test_a_bad_seed_is_refused() -> None:
    """The cut's seed is an int or a random.Random."""
    with pytest.raises(cb.SeedError):
        cb.Match.start(cb.CAVENDISH, seed="7")  # type: ignore[arg-type]


# --- dealing on ------------------------------------------------------------------


def test_the_deal_passes_to_the_left() -> None:
    """After each deal the next seat deals: 0, 1, 2, 0; each deal's eldest hand deals next."""
    rng = random.Random(1)
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    dealers = []
    for _ in range(4):
        state = match.next_deal(seed=rng)
        dealers.append(state.dealer)
        after = match.record(play_out(state, rng))
        assert after.dealer == state.deal.eldest == (match.dealer + 1) % 3
        match = after
    assert dealers == [0, 1, 2, 0]
    assert match.deals_played == 4 and match.first_dealer == 0


def test_a_void_deal_passes_the_deal_on_and_changes_no_total() -> None:
    """If all three pass, the deal is void and passes to the next player on the left."""
    match = played(cb.Match.start(cb.CAVENDISH, seed=2), random.Random(3))
    void = passed_out(match.next_deal(seed=5))
    assert void.result is not None and void.result.void
    after = match.record(void)
    assert after.dealer == (match.dealer + 1) % 3
    assert after.totals == match.totals
    assert after.history == (*match.history, match.totals)
    assert after.payments[-1] == (0, 0, 0)
    assert after.deals_played == match.deals_played + 1


def test_a_misdeal_keeps_the_dealer_without_penalty() -> None:
    """After a misdeal the same dealer deals again; the match is unchanged."""
    match = played(cb.Match.start(cb.CAVENDISH, seed=4), random.Random(4))
    before = (match.dealer, match.totals, match.history)
    spoiled = match.next_deal(seed=1)
    again = match.redeal(seed=2)
    assert again.dealer == spoiled.dealer == match.dealer
    assert again != spoiled
    assert (match.dealer, match.totals, match.history) == before
    assert match.record(play_out(again, random.Random(0))).dealer == (match.dealer + 1) % 3


def test_next_deal_deals_from_the_seed() -> None:
    """The next deal is new_deal with the match's rules, dealer and seed."""
    match = cb.Match(rules=cb.CALABRESELLA, first_dealer=1)
    assert match.next_deal(seed=9) == cb.new_deal(cb.CALABRESELLA, dealer=1, seed=9)


def test_a_match_ends_after_the_agreed_deals() -> None:
    """The match is over after the agreed number of deals; then no deal is dealt or recorded."""
    rng = random.Random(8)
    match = cb.Match.start(cb.CAVENDISH, seed=8, deals=3)
    states = []
    while not match.is_over:
        states.append(play_out(match.next_deal(seed=rng), rng))
        match = match.record(states[-1])
    assert match.deals_played == 3 and match.finished == tuple(states)
    with pytest.raises(cb.MatchError, match="the match is over"):
        match.next_deal(seed=1)
    with pytest.raises(cb.MatchError, match="the match is over"):
        match.redeal(seed=1)
    with pytest.raises(cb.MatchError, match="the match is over"):
        match.record(states[0])


def test_an_open_match_never_ends() -> None:
    """With no agreed number of deals the match is never over."""
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    for _ in range(4):
        match = match.record(passed_out(match.next_deal(seed=1 + match.deals_played)))
    assert match.deals is None and not match.is_over


# --- the ledger ------------------------------------------------------------------


@st.composite
def random_matches(draw: st.DrawFn) -> cb.Match:
    """A match of 3 to 9 deals under some table, every deal played by random legal actions."""
    rules = draw(st.sampled_from(TABLES))
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    match = cb.Match.start(rules, seed=rng, deals=draw(st.integers(3, 9)))
    while not match.is_over:
        match = played(match, rng)
    return match


@given(match=random_matches())
def test_the_ledger_always_sums_to_zero_and_follows_the_deals(match: cb.Match) -> None:
    """Each deal's payments reach the players in those seats; every running total sums to 0."""
    totals = [0] * match.players
    assert len(match.history) == len(match.finished) == match.deals
    for number, (state, row) in enumerate(zip(match.finished, match.history)):
        assert state.dealer == number % match.players
        assert state.result is not None
        for seat, paid in enumerate(state.result.payments):
            totals[match.seating[seat]] += paid
        assert row == tuple(totals)
        assert sum(row) == 0
    assert match.totals == tuple(totals)
    assert tuple(map(sum, zip(*match.payments))) == match.totals


@given(match=random_matches())
def test_the_settlement_realises_the_totals(match: cb.Match) -> None:
    """The transfers leave each player exactly his total, in at most players - 1 payments."""
    net = [0] * match.players
    transfers = match.settlement()
    for t in transfers:
        assert t.amount > 0 and t.payer != t.payee
        assert match.totals[t.payer] < 0 < match.totals[t.payee]
        net[t.payer] -= t.amount
        net[t.payee] += t.amount
    assert tuple(net) == match.totals
    assert len(transfers) <= match.players - 1
    assert match.settlement() == transfers


def test_a_settlement_pays_in_player_order() -> None:
    """Totals (-30, 10, 20): player 0 pays 10 to player 1 and 20 to player 2."""
    rng = random.Random(0)
    for seed in range(100):
        match = played(cb.Match.start(cb.CAVENDISH, seed=seed), rng)
        if match.totals[0] < 0 < min(match.totals[1:]):
            a, b = match.totals[1:]
            assert match.settlement() == (cb.Transfer(0, 1, a), cb.Transfer(0, 2, b))
            return
    pytest.fail("no match with player 0 paying both others")  # pragma: no cover


def test_the_leaders_have_the_highest_total() -> None:
    """The winners of the match are the players with the highest total."""
    match = played(cb.Match.start(cb.CAVENDISH, seed=3), random.Random(3))
    best = max(match.totals)
    assert match.leaders() == tuple(p for p in range(3) if match.totals[p] == best)
    assert match.seat_of(match.dealer_player) == match.dealer


def test_the_seating_maps_seats_to_players() -> None:
    """A seat's payment goes to the player sitting there, not to the player of that number."""
    match = cb.Match(rules=cb.CAVENDISH, seating=(2, 0, 1))
    state = a_won_deal(match)
    assert state.result is not None
    after = match.record(state)
    paid = state.result.payments
    assert after.totals == (paid[1], paid[2], paid[0])


# --- four at the table -----------------------------------------------------------


def test_four_at_the_table_the_dealer_sits_out() -> None:
    """With four, the dealer takes no cards, the deal passes round four seats, four totals."""
    rules = cb.Cavendish(players=4)
    rng = random.Random(6)
    match = cb.Match.start(rules, seed=6, deals=8)
    dealers = []
    while not match.is_over:
        state = match.next_deal(seed=rng)
        assert len(state.hand(state.dealer)) == 0
        dealers.append(state.dealer)
        match = match.record(play_out(state, rng))
    assert dealers == [0, 1, 2, 3, 0, 1, 2, 3]
    assert len(match.totals) == 4 and sum(match.totals) == 0
    assert sorted(match.seating) == [0, 1, 2, 3]


# --- what does not belong --------------------------------------------------------


def refused(match: cb.Match, state: object, message: str) -> None:
    """Recording ``state`` raises MatchError naming ``message``; the match is unchanged."""
    before = (match.dealer, match.totals, match.history, match.finished)
    with pytest.raises(cb.MatchError, match=message) as caught:
        match.record(state)  # type: ignore[arg-type]
    assert isinstance(caught.value, cb.RecordError) and isinstance(caught.value, ValueError)
    assert (match.dealer, match.totals, match.history, match.finished) == before


def test_a_deal_not_over_is_refused() -> None:
    """A deal still being played cannot be recorded."""
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    refused(match, match.next_deal(seed=2), "deal 1 is not over")


def test_a_deal_under_other_rules_is_refused() -> None:
    """A deal from a match under another ruleset (or table size) does not belong."""
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    other = cb.Match.start(cb.Cavendish(players=4), seed=1)
    refused(match, play_out(other.next_deal(seed=2), random.Random(2)), "was played under")
    refused(match, passed_out(cb.new_deal(cb.CALABRESELLA, seed=2)), "was played under")


def test_a_deal_by_the_wrong_dealer_is_refused() -> None:
    """The deal must be dealt by the seat whose turn it is to deal."""
    match = played(cb.Match.start(cb.CAVENDISH, seed=1), random.Random(1))
    wrong = passed_out(cb.new_deal(cb.CAVENDISH, dealer=0, seed=3))
    refused(match, wrong, "dealt by seat 0, but seat 1 deals it")
    refused(match, match.finished[0], "dealt by seat 0, but seat 1 deals it")


def test_a_non_state_is_refused() -> None:
    """Only a State can be recorded (not a view, not a result)."""
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    state = passed_out(match.next_deal(seed=2))
    refused(match, state.result, "not a State")
    refused(match, state.view(0), "not a State")


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"seating": (0, 1, 1)}, "permutation"),
        ({"seating": [0, 1, 2]}, "permutation"),
        ({"seating": (0, 1, 2, 3)}, "permutation"),
        ({"deals": 0}, "positive int"),
        ({"deals": True}, "positive int"),
        ({"first_dealer": 3}, "first_dealer"),
        ({"finished": [1]}, "tuple of states"),
        ({"cut": "lowest"}, "a Cut or None"),
    ],
)
def test_a_match_is_checked_when_built(changes: dict[str, object], message: str) -> None:
    """The constructor refuses a seating, deal count, dealer or history that cannot be."""
    with pytest.raises(cb.MatchError, match=message):
        cb.Match(rules=cb.CAVENDISH, **changes)  # type: ignore[arg-type]


def test_a_match_built_with_finished_deals_checks_them() -> None:
    """Finished deals given to the constructor are checked like recorded ones."""
    state = passed_out(cb.new_deal(cb.CAVENDISH, dealer=1, seed=1))
    with pytest.raises(cb.MatchError, match="dealt by seat 1, but seat 0"):
        cb.Match(rules=cb.CAVENDISH, finished=(state,))
    match = cb.Match(rules=cb.CAVENDISH, first_dealer=1, finished=(state,))
    assert match.dealer == 2 and match.history == ((0, 0, 0),)
    second = passed_out(cb.new_deal(cb.CAVENDISH, dealer=2, seed=1))
    with pytest.raises(cb.MatchError, match="2 deals played of 1 agreed"):
        cb.Match(rules=cb.CAVENDISH, deals=1, first_dealer=1, finished=(state, second))
    with pytest.raises(cb.RulesetError):
        cb.Match(rules="cavendish")  # type: ignore[arg-type]


def test_a_match_is_immutable() -> None:
    """Recording returns a new match; the old one and its fields cannot change."""
    match = cb.Match.start(cb.CAVENDISH, seed=1)
    after = match.record(passed_out(match.next_deal(seed=1)))
    assert match.deals_played == 0 and after.deals_played == 1 and after != match
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        match.dealer = 2  # type: ignore[misc]
    assert hash(after) == hash(match.record(passed_out(match.next_deal(seed=1))))
    assert "dealer=1" in repr(after)


def test_seat_of_refuses_a_stranger() -> None:
    """A player number outside the table is a MatchError."""
    with pytest.raises(cb.MatchError, match="player 3"):
        cb.Match(rules=cb.CAVENDISH).seat_of(3)
