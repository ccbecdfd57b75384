"""The sampling bot's exchange search (``SamplingBot(exchange_nodes=N)``) and the solver's
value of a state (``solver._value``) it rests on.

The search's choice is tested with a stand-in for the solver that values the
sets it is shown as the test decides, so each test knows which set must win;
the stand-in is also how the budget is counted. One test plays it for real.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from support import load_script
from test_solver import random_ending

import calabrasella as cb
from calabrasella.bots import sampling_bot
from calabrasella.bots.base import BotError, regular_actions
from calabrasella.bots.play import play_deal
from calabrasella.bots.sampling_bot import SamplingBot
from calabrasella.bots.solver import SearchLimitError, _value, solve

SCRIPT: Any = load_script("benchmarks", "exchange_search", "exchange_search_script")


def at_discard(seed: int) -> cb.State:
    """The first Calabresella deal from ``seed`` on at its declarer's first discard (chiamo
    or solo), heuristic bots bidding and calling (the benchmark's deals)."""
    found = (SCRIPT.at_discard(n) for n in range(seed, seed + 50))
    state: cb.State = next(state for state in found if state is not None)
    return state


def test_the_benchmarks_sign_test() -> None:
    """Two-sided exact sign test, by hand: 5 to 0 is 2 / 32; an even split is 1."""
    assert SCRIPT.sign_test(5, 0) == SCRIPT.sign_test(0, 5) == 2 / 32
    assert SCRIPT.sign_test(3, 3) == SCRIPT.sign_test(0, 0) == 1.0
    assert SCRIPT.sign_test(9, 1) == 2 * (1 + 10) / 1024


def lay_down(state: cb.State, bot: SamplingBot) -> tuple[cb.State, frozenset[cb.Card]]:
    """Let ``bot`` make every discard of the seat to move; the state after and its cards."""
    seat = state.to_move
    assert seat is not None
    cards = []
    while state.phase is cb.Phase.DISCARDING and state.to_move == seat:
        view = state.view(seat)
        action = bot.choose(view)
        assert action in regular_actions(view)
        assert isinstance(action, cb.Discard)
        cards.append(action.card)
        state = cb.apply(state, action)
    return state, frozenset(cards)


class Stand:
    """A stand-in for ``solver._value``: it records the set laid down in each state it is
    shown (the new monte) and values it by ``units(set, call)``."""

    def __init__(self, units: object, used: int = 1000) -> None:
        self.units = units
        self.used = used
        self.seen: list[frozenset[cb.Card]] = []

    def __call__(
        self, state: cb.State, function: str, max_nodes: int | None, guess: int | None
    ) -> tuple[int, int]:
        assert state.phase is cb.Phase.PLAYING and function == "SamplingBot"
        laid = frozenset(state.stock)
        self.seen.append(laid)
        value = self.units(laid, len(self.seen))  # type: ignore[operator]
        if value is None:
            raise SearchLimitError("a hard world")
        if max_nodes is not None and self.used > max_nodes:
            raise SearchLimitError("past the limit")
        return int(value), self.used


def bot(seed: int = 5, **options: object) -> SamplingBot:
    settings: dict[str, object] = {"time_limit": None, "nodes": 2000, "exchange_nodes": 100_000}
    settings.update(options)
    return SamplingBot(seed, **settings)  # type: ignore[arg-type]


# --- the choice --------------------------------------------------------------------------


def test_with_every_set_equal_it_lays_down_its_fallbacks_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ties go to the first set, the fallback's: the same cards as without the search."""
    for seed in (1, 2, 3):
        state = at_discard(seed)
        stand = Stand(lambda laid, call: 20)
        monkeypatch.setattr(sampling_bot, "_value", stand)
        _, searched = lay_down(state, bot(seed))
        _, plain = lay_down(state, bot(seed, exchange_nodes=None))
        assert searched == plain
        assert stand.seen[0] == plain  # the fallback's set is solved first
        assert len(set(stand.seen)) > 1  # and other sets beside it


@pytest.mark.parametrize("winner", [2, 3, 4])
def test_it_lays_down_the_set_with_the_best_average(
    monkeypatch: pytest.MonkeyPatch, winner: int
) -> None:
    """The ``winner``-th set it solves gives the declarer 18 units, every other set 17:
    that set is laid down, card by card, whatever the fallback would discard."""
    state = at_discard(4)
    order: list[frozenset[cb.Card]] = []

    def units(laid: frozenset[cb.Card], call: int) -> int:
        if laid not in order:
            order.append(laid)
        return 18 if order.index(laid) == winner - 1 else 17

    stand = Stand(units)
    monkeypatch.setattr(sampling_bot, "_value", stand)
    after, laid = lay_down(state, bot())
    assert laid == order[winner - 1]
    assert after.phase is cb.Phase.PLAYING and frozenset(after.stock) == laid
    _, plain = lay_down(state, bot(exchange_nodes=None))
    assert laid != plain


def test_a_world_too_hard_for_one_set_is_left_out_for_every_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In the first world the second set would win by far but the third set's solve passes
    its limit; that world is dropped, and in every later world the third set is best."""
    state = at_discard(4)
    order: list[frozenset[cb.Card]] = []

    def units(laid: frozenset[cb.Card], call: int) -> int | None:
        if laid not in order:
            order.append(laid)
        k = order.index(laid)
        if call <= 3:  # the first world
            return None if k == 2 else 35 if k == 1 else 0
        return 20 if k == 2 else 10

    monkeypatch.setattr(sampling_bot, "_value", Stand(units))
    _, laid = lay_down(state, bot(worlds=2))  # two worlds solved for every set
    assert laid == order[2]


def test_the_budget_and_the_worlds_bound_the_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Solves of 1,000 nodes each: a budget of 32,000 buys 32 of them (a solve may use a
    sixteenth of it); three worlds buy three solves a set."""
    state = at_discard(4)
    stand = Stand(lambda laid, call: 20)
    monkeypatch.setattr(sampling_bot, "_value", stand)
    lay_down(state, bot(exchange_nodes=32_000, worlds=None))
    assert len(stand.seen) == 32
    stand = Stand(lambda laid, call: 20)
    monkeypatch.setattr(sampling_bot, "_value", stand)
    lay_down(state, bot(worlds=3))
    sets = len(set(stand.seen))
    assert sets > 1 and len(stand.seen) == 3 * sets


def test_with_no_world_solved_it_lays_down_its_fallbacks_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = at_discard(6)
    monkeypatch.setattr(sampling_bot, "_value", Stand(lambda laid, call: None))
    _, searched = lay_down(state, bot(exchange_nodes=5000))
    _, plain = lay_down(state, bot(exchange_nodes=None))
    assert searched == plain


# --- where it applies ----------------------------------------------------------------------


def test_it_changes_nothing_under_cavendish(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cavendish's discard comes before the stock is seen: the fallback discards, the
    solver is never asked, and the deal is the same card for card."""

    def refuse(*arguments: object) -> None:
        raise AssertionError("the exchange search ran under Cavendish")

    monkeypatch.setattr(sampling_bot, "_value", refuse)
    histories = []
    for exchange_nodes in (None, 50_000):
        bots = [bot(30 + seat, worlds=2, search_from=3, exchange_nodes=exchange_nodes)
                for seat in range(3)]  # fmt: skip
        histories.append(play_deal(cb.CAVENDISH, bots, 30).history)
    assert histories[0] == histories[1]
    assert any(isinstance(action, cb.Discard) for _, action in histories[0])


def test_an_adversarys_discard_goes_to_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """After solissimo and dividete the adversaries discard: not searched."""

    def refuse(*arguments: object) -> None:
        raise AssertionError("an adversary's discard was searched")

    monkeypatch.setattr(sampling_bot, "_value", refuse)
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=8)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    while state.phase is not cb.Phase.DISCARDING:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, random.Random(0)))
            continue
        actions = cb.legal_actions(state)
        state = cb.apply(state, next((a for a in actions if isinstance(a, cb.Raise)), actions[0]))
    assert state.to_move != state.declarer
    _, laid = lay_down(state, bot())
    assert len(laid) == 2


def test_a_plan_for_another_hand_is_not_followed() -> None:
    """The plan made at one deal's first discard is dropped when the bot is asked about
    another deal's: it searches that one afresh and answers legally."""
    first, second = at_discard(1), at_discard(4)
    player = bot(worlds=1, exchange_nodes=2000)
    seat = first.to_move
    assert seat is not None
    player.choose(first.view(seat))
    assert player._plan  # three cards still to lay down
    other = second.to_move
    assert other is not None
    action = player.choose(second.view(other))
    assert action in regular_actions(second.view(other))
    # a new plan, made for the second hand: three more of its own cards
    hand = set(second.hand(other))
    assert isinstance(action, cb.Discard)
    assert len(player._plan) == 3 and set(player._plan) <= hand - {action.card}


@pytest.mark.slow
def test_a_real_search_is_legal_and_deterministic() -> None:
    """Without a stand-in: a whole Calabresella deal with the search, twice, the same."""
    histories = []
    for _ in range(2):
        bots = [bot(40 + seat, worlds=2, search_from=2, exchange_nodes=30_000) for seat in range(3)]
        histories.append(play_deal(cb.CALABRESELLA, bots, 41).history)
    assert histories[0] == histories[1]


@pytest.mark.parametrize("value", [0, 999, -1, 1.5, True, "10000"])
def test_a_bad_exchange_budget_raises_bot_error(value: object) -> None:
    with pytest.raises(BotError, match="exchange_nodes"):
        SamplingBot(1, exchange_nodes=value)  # type: ignore[arg-type]


def test_the_repr_shows_the_exchange_budget_when_set() -> None:
    assert "exchange_nodes" not in repr(SamplingBot(1))
    assert repr(SamplingBot(1, exchange_nodes=5000)).endswith(", exchange_nodes=5000)")


# --- the solver's value of a state ---------------------------------------------------------


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA], ids=repr)
def test_the_value_of_a_state_is_what_solve_reports(rules: cb.Ruleset) -> None:
    """Endings of four to eight tricks, mid-trick too; a guess changes the work, not the
    answer; and a node limit raises."""
    for seed in range(8):
        state = random_ending(rules, seed, cards_left=12 + 2 * seed)
        expected = solve(state, all_best=False).declarer_units
        for guess in (None, 0, expected, 35):
            units, nodes = _value(state, "test", None, guess)
            assert units == expected and nodes >= 0
    with pytest.raises(SearchLimitError):
        _value(random_ending(rules, 3, cards_left=30), "test", 1, None)
