"""Simulation: seeds per deal, seat rotation, the summary's arithmetic, executors."""

from __future__ import annotations

import concurrent.futures
import functools
import io
import itertools
import math
import statistics
from collections import Counter

import attrs
import pytest

import calabrasella as cb
from calabrasella.bots.base import BotError, RandomBot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.simulate import (
    PlayerStats,
    ProgressBar,
    Summary,
    bot_name,
    deal_seed,
    replay_deal,
    seating,
    simulate,
)

MIXED = (HeuristicBot, RandomBot, RandomBot)


def test_serial_and_a_process_pool_give_the_same_summary() -> None:
    """Two worker processes, chunks finishing in any order: the very same Summary."""
    serial = simulate(cb.CALABRESELLA, MIXED, 24, seed=5, chunk_size=3)
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as pool:
        pooled = simulate(cb.CALABRESELLA, MIXED, 24, seed=5, chunk_size=3, executor=pool)
    assert pooled == serial
    assert serial.deals == 24


def test_the_summary_does_not_depend_on_the_chunk_size() -> None:
    """Deal i is played from its own seed, so chunking changes nothing."""
    one = simulate(cb.CAVENDISH, [RandomBot] * 3, 20, seed=3, chunk_size=1)
    assert simulate(cb.CAVENDISH, [RandomBot] * 3, 20, seed=3, chunk_size=7) == one
    assert simulate(cb.CAVENDISH, [RandomBot] * 3, 20, seed=3) == one
    assert simulate(cb.CAVENDISH, [RandomBot] * 3, 20, seed=4) != one


def test_a_longer_run_begins_with_the_deals_of_a_shorter_one() -> None:
    """Deal seeds do not depend on N: the first 10 deals of 20 are the 10 deals of 10."""
    assert [deal_seed(9, i) for i in range(10)] == [deal_seed(9, i) for i in range(20)][:10]
    assert len({deal_seed(9, i) for i in range(1000)}) == 1000
    assert deal_seed(9, 0) != deal_seed(10, 0)


def test_replay_deal_plays_a_deal_of_a_run_alone() -> None:
    """Summing the replayed deals' payments per player gives the summary's totals."""
    summary = simulate(cb.CAVENDISH, MIXED, 12, seed=8)
    totals = [0, 0, 0]
    for index in range(12):
        final, seats = replay_deal(cb.CAVENDISH, MIXED, seed=8, index=index)
        assert final.result is not None
        for seat, payment in enumerate(final.result.payments):
            totals[seats[seat]] += payment
    assert totals == [p.total for p in summary.players]


def test_every_player_sits_in_every_seat_and_deals_equally_often() -> None:
    """Over 3 x 3! = 18 deals each player has each seat 6 times and deals 6 times."""
    at: Counter[tuple[int, int]] = Counter()
    deals: Counter[int] = Counter()
    pairs: Counter[tuple[int, int]] = Counter()
    for index in range(18):
        dealer, seats = seating(index, 3)
        assert sorted(seats) == [0, 1, 2]
        deals[seats[dealer]] += 1
        for seat, player in enumerate(seats):
            at[player, seat] += 1
            pairs[player, seats[(seat + 1) % 3]] += 1  # who sits on his left
    assert set(at.values()) == {6} and len(at) == 9
    assert set(deals.values()) == {6}
    assert set(pairs.values()) == {9}  # each player has each other on his left half the time


def test_without_rotation_players_keep_their_seats_and_the_deal_moves_on() -> None:
    """rotate=False: player p sits in seat p; the dealer still changes every deal."""
    assert [seating(i, 3, rotate=False) for i in range(4)] == [
        (0, (0, 1, 2)),
        (1, (0, 1, 2)),
        (2, (0, 1, 2)),
        (0, (0, 1, 2)),
    ]
    orders = {seating(i, 4)[1] for i in range(96)}
    assert len(orders) == 24  # all orders of four players


def test_the_summary_adds_up() -> None:
    """Payments sum to 0; contracts and void deals sum to the deals; declared to the contracts."""
    summary = simulate(cb.CALABRESELLA, MIXED, 60, seed=2)
    assert sum(p.total for p in summary.players) == 0
    played = sum(c.deals for c in summary.contracts)
    assert played + summary.void_deals == 60
    assert sum(p.declared for p in summary.players) == played
    assert sum(p.declarer_wins for p in summary.players) == sum(
        c.declarer_wins for c in summary.contracts
    )
    names = [c.name for c in summary.contracts]
    bids = ["chiamo", "solo", "solissimo"]
    assert names == sorted(names, key=lambda n: (bids.index(n.split()[0]), n))
    assert {name for name, _ in summary.bonuses} <= {"cappotto", "stramazzo"}


def test_a_table_of_four_counts_the_sitting_out_dealer_as_a_player() -> None:
    """Cavendish at four: four players, the dealer shares the adversaries' fortunes."""
    summary = simulate(cb.Cavendish(players=4), [RandomBot] * 4, 16, seed=1)
    assert len(summary.players) == 4
    assert sum(p.total for p in summary.players) == 0


def test_mean_and_confidence_interval_are_the_textbook_ones() -> None:
    """Mean, sample standard deviation, and mean +- 1.96 s / sqrt(n), checked by statistics."""
    payments = [3, -6, 0, 12, -1, 4, 0, -6]
    stats = PlayerStats(
        name="x",
        deals=len(payments),
        total=sum(payments),
        squares=sum(p * p for p in payments),
        declared=0,
        declarer_wins=0,
    )
    assert stats.mean == pytest.approx(statistics.mean(payments))
    assert stats.stdev == pytest.approx(statistics.stdev(payments))
    half = 1.959964 * statistics.stdev(payments) / math.sqrt(len(payments))
    low, high = stats.ci95
    assert low == pytest.approx(statistics.mean(payments) - half, rel=1e-5)
    assert high == pytest.approx(statistics.mean(payments) + half, rel=1e-5)
    one = PlayerStats(name="x", deals=1, total=5, squares=25, declared=0, declarer_wins=0)
    assert math.isnan(one.stdev)


def test_the_table_shows_players_contracts_multipliers_and_void_deals() -> None:
    """The text table names each player, each contract and the multipliers."""
    summary = simulate(cb.CALABRESELLA, MIXED, 30, seed=4)
    text = summary.table()
    assert text.startswith("calabresella: 30 deals, seed 4, seats rotated")
    for k, name in enumerate(["heuristic", "random", "random"]):
        assert f"{k} {name}" in text
    for contract in summary.contracts:
        assert contract.name in text
    assert "multipliers:" in text and "void deals:" in text


def test_progress_is_reported_after_each_chunk_up_to_the_total() -> None:
    """progress(done, total) rises to total, once per chunk."""
    calls: list[tuple[int, int]] = []
    simulate(
        cb.CAVENDISH,
        [RandomBot] * 3,
        10,
        seed=1,
        chunk_size=4,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert calls == [(4, 10), (8, 10), (10, 10)]


def test_the_progress_bar_draws_one_line() -> None:
    """ProgressBar redraws with a carriage return and ends with a newline."""
    out = io.StringIO()
    bar = ProgressBar(out, width=4)
    bar(1, 4)
    bar(4, 4)
    assert out.getvalue() == "\r[#...] 1/4 deals\r[####] 4/4 deals\n"


def test_names_default_to_the_bots_names() -> None:
    """A class's name attribute, a partial's function, or a function's __name__."""

    def my_bot(rng: object) -> RandomBot:
        return RandomBot(0)

    assert bot_name(HeuristicBot) == "heuristic"
    assert bot_name(functools.partial(HeuristicBot)) == "heuristic"
    assert bot_name(my_bot) == "my_bot"
    summary = simulate(cb.CAVENDISH, MIXED, 3, seed=1, names=["a", "b", "c"])
    assert [p.name for p in summary.players] == ["a", "b", "c"]


@pytest.mark.parametrize(
    ("factories", "deals", "words"),
    [
        ([RandomBot] * 2, 5, "3 bot factories"),
        ([RandomBot] * 3, 0, "deals=0"),
        ([RandomBot] * 3, -4, "deals=-4"),
    ],
)
def test_bad_simulation_arguments_are_refused(
    factories: list[type[RandomBot]], deals: int, words: str
) -> None:
    """A wrong number of factories or deals is a BotError naming it."""
    with pytest.raises(BotError, match=words):
        simulate(cb.CAVENDISH, factories, deals, seed=1)


def test_a_seed_must_be_an_int_and_names_and_chunks_must_fit() -> None:
    """seed='1' is a SeedError; two names for three players or chunk_size=0 a BotError."""
    with pytest.raises(cb.SeedError):
        simulate(cb.CAVENDISH, [RandomBot] * 3, 3, seed="1")  # type: ignore[arg-type]
    with pytest.raises(BotError, match="names"):
        simulate(cb.CAVENDISH, [RandomBot] * 3, 3, seed=1, names=["a", "b"])
    with pytest.raises(BotError, match="chunk_size"):
        simulate(cb.CAVENDISH, [RandomBot] * 3, 3, seed=1, chunk_size=0)


def test_a_summary_is_a_comparable_value() -> None:
    """Summaries compare by value (and so can be checked for equality across runs)."""
    a = simulate(cb.CAVENDISH, [RandomBot] * 3, 4, seed=2)
    b = simulate(cb.CAVENDISH, [RandomBot] * 3, 4, seed=2)
    assert isinstance(a, Summary) and a == b


# --- runs in parts -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=lambda r: r.name)
@pytest.mark.parametrize("factories", [(RandomBot,) * 3, MIXED], ids=["random", "mixed"])
def test_two_parts_add_up_to_one_run_over_both(
    rules: cb.Ruleset, factories: tuple[type[RandomBot], ...]
) -> None:
    """Deals 0-4 plus deals 5-11, in either order, are field for field deals 0-11."""
    whole = simulate(rules, factories, 12, seed=6)
    head = simulate(rules, factories, 5, seed=6)
    tail = simulate(rules, factories, 7, seed=6, first=5)
    assert (head.spans, tail.spans, whole.spans) == (((0, 5),), ((5, 12),), ((0, 12),))
    assert head + tail == whole
    assert tail + head == whole
    assert head != whole and tail != whole


def test_parts_that_do_not_touch_add_up_in_any_order() -> None:
    """Deals 0-2, 7-11 and 3-6 added in every order give the one run; two alone keep a gap."""
    whole = simulate(cb.CALABRESELLA, MIXED, 12, seed=3, chunk_size=4)
    parts = [
        simulate(cb.CALABRESELLA, MIXED, 3, seed=3),
        simulate(cb.CALABRESELLA, MIXED, 5, seed=3, first=7, chunk_size=2),
        simulate(cb.CALABRESELLA, MIXED, 4, seed=3, first=3),
    ]
    gapped = parts[0] + parts[1]
    assert gapped.spans == ((0, 3), (7, 12)) and gapped.deals == 8
    for a, b, c in itertools.permutations(parts):
        assert (a + b) + c == whole
        assert a + (b + c) == whole


def test_a_part_plays_the_deals_a_long_run_plays_under_those_numbers() -> None:
    """first=9: the payments are those of deals 9-11 replayed alone (seeds and seats)."""
    part = simulate(cb.CAVENDISH, MIXED, 3, seed=8, first=9)
    totals = [0, 0, 0]
    for index in range(9, 12):
        final, seats = replay_deal(cb.CAVENDISH, MIXED, seed=8, index=index)
        assert final.result is not None
        for seat, payment in enumerate(final.result.payments):
            totals[seats[seat]] += payment
    assert [p.total for p in part.players] == totals
    assert part.deals == 3 and part.spans == ((9, 12),)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"seed": 4}, "seed"),
        ({"rotate": False}, "rotate"),
        ({"names": ["x", "random", "random"]}, "player names"),
        ({"rules": cb.CAVENDISH}, "rules"),
        ({"first": 2}, "deal 2 is in both"),
        ({"first": 0}, "deal 0 is in both"),
    ],
)
def test_summaries_of_different_runs_or_the_same_deals_do_not_add(
    change: dict[str, object], words: str
) -> None:
    """A different seed, rotation, names or rules, or a deal in both: BotError naming it."""
    base: dict[str, object] = {"rules": cb.CALABRESELLA, "seed": 3, "first": 5}
    first = simulate(cb.CALABRESELLA, MIXED, 5, seed=3)
    other = {**base, **change}
    second = simulate(
        other.pop("rules"),  # type: ignore[arg-type]
        MIXED,
        4,
        **other,  # type: ignore[arg-type]
    )
    with pytest.raises(BotError, match=words):
        first + second
    with pytest.raises(BotError, match=words):
        second + first


def test_only_summaries_add_to_summaries() -> None:
    """Adding anything else is Python's TypeError for an unsupported operand."""
    summary = simulate(cb.CAVENDISH, [RandomBot] * 3, 2, seed=1)
    with pytest.raises(TypeError, match="unsupported operand"):
        summary + 1  # type: ignore[operator]


@pytest.mark.parametrize("first", [-1, 1.5, True, "3", None])
def test_first_must_be_a_deal_number(first: object) -> None:
    """first is an int at least 0, else a BotError naming it."""
    with pytest.raises(BotError, match="first="):
        simulate(cb.CAVENDISH, [RandomBot] * 3, 2, seed=1, first=first)  # type: ignore[arg-type]


def test_the_table_names_the_deals_unless_they_are_the_first_n() -> None:
    """The sum of parts prints as the one run; a gap or a late start lists the deal numbers."""
    whole = simulate(cb.CAVENDISH, MIXED, 8, seed=2)
    head = simulate(cb.CAVENDISH, MIXED, 3, seed=2)
    middle = simulate(cb.CAVENDISH, MIXED, 4, seed=2, first=3)
    last = simulate(cb.CAVENDISH, MIXED, 1, seed=2, first=7)
    assert (head + middle + last).table() == whole.table()
    assert whole.table().startswith("cavendish: 8 deals, seed 2, seats rotated\n")
    gapped = (head + last).table().splitlines()[0]
    assert gapped == "cavendish: 4 deals, nos. 0-2, 7, seed 2, seats rotated"
    assert middle.table().splitlines()[0] == "cavendish: 4 deals, nos. 3-6, seed 2, seats rotated"


@pytest.mark.parametrize(
    "spans",
    [
        ((0, 3), (3, 6)),  # adjacent, not joined
        ((3, 6), (0, 3)),  # not sorted
        ((0, 4), (2, 6)),  # overlapping
        ((0, 5),),  # 5 deals, not 6
        ((-1, 5),),
        ((0, 6, 9),),
        [(0, 6)],
        ((0, "6"),),
        ((4, 4), (0, 6)),
    ],
)
def test_a_summary_refuses_spans_that_are_not_its_deals(spans: object) -> None:
    """spans are sorted, joined, disjoint ranges counting the deals; else a BotError."""
    summary = simulate(cb.CAVENDISH, [RandomBot] * 3, 6, seed=1)
    assert attrs.evolve(summary, spans=((0, 6),)) == summary
    with pytest.raises(BotError, match="spans="):
        attrs.evolve(summary, spans=spans)  # type: ignore[arg-type]


def test_a_summary_made_without_spans_covers_deals_0_to_n() -> None:
    """Summary(...) without spans (as before spans existed) covers deals 0 to deals - 1."""
    summary = simulate(cb.CAVENDISH, [RandomBot] * 3, 5, seed=1)
    fields = attrs.asdict(summary, recurse=False)
    del fields["spans"]
    assert Summary(**fields).spans == ((0, 5),)
