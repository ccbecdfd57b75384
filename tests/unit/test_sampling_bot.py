"""The sampling bot: legal and deterministic choices, the searched card where one is best.

The hand-built ending is argued from the rules of the play, not from the
solver: in every world of the seat's view one card is at least as good as
the other, and strictly better in some.
"""

from __future__ import annotations

import random
import warnings
from typing import ClassVar

import pytest
from support import load_example

import calabrasella as cb
from calabrasella.bots import sampling_bot, solver
from calabrasella.bots.base import BotError, regular_actions
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.play import play_deal
from calabrasella.bots.sampling import TRIES, ReplaySampler, Sampler
from calabrasella.bots.sampling_bot import SamplingBot, utility

# A Calabresella deal, dealer 0: seat 1 (eldest) bids solissimo and leads. He
# holds all ten diamonds; the monte (unseen by everyone) is four hearts.
HANDS = (
    "7h 6h Jh 7s 6s 5s 4s Jc 7c 6c 5c 4c",  # seat 0, adversary
    "3d 2d Ad Kd Qd Jd 7d 6d 5d 4d 4h 3s",  # seat 1, the declarer
    "Ah 5h 2s As Ks Qs Js 3c 2c Ac Kc Qc",  # seat 2, adversary (plays right after him)
)
MONTE = "3h 2h Kh Qh"
# Ten tricks, each (seat 1, seat 2, seat 0): his 3s, then his diamonds; they
# throw spades and clubs (and seat 0 the Jh), keeping hearts only.
PLAYED = (
    "3s 3d 2d Kd Qd Jd 7d 6d 5d 4d",  # seat 1
    "2s As Ks Qs Js 3c 2c Ac Kc Qc",  # seat 2
    "7s 6s 5s 4s Jc 7c 6c 5c 4c Jh",  # seat 0
)
TRICKS = list(zip(*(cards.split() for cards in PLAYED)))


def two_tricks_left() -> cb.State:
    """The ending: seat 1 holds Ad 4h and leads; seat 2 Ah 5h, seat 0 7h 6h."""
    state = cb.deal_from(cb.CALABRESELLA, list(HANDS), MONTE)
    state = cb.apply(state, cb.Bid(cb.Contract.SOLISSIMO))
    state = cb.apply(state, cb.Pass())  # no raise
    for trick in TRICKS:
        for card in trick:
            state = cb.apply(state, cb.Play(cb.Card.parse(card)))
    assert state.hand(1) == cb.CardSet.parse("Ad 4h")
    return state


def play(text: str) -> cb.Play:
    return cb.Play(cb.Card.parse(text))


@pytest.mark.parametrize("worlds", [1, 8])
def test_the_declarer_cashes_his_master_before_his_losing_heart(worlds: int) -> None:
    """Every card he cannot see is a heart above his 4h, so 4h loses both tricks; Ad wins one.

    Leading Ad wins that trick (nobody else holds a diamond) and loses the
    last; leading 4h loses it, and the heart led back makes him throw the Ad
    too. The heuristic keeps its one master for the last trick, and is wrong here.
    """
    view = two_tricks_left().view(1)
    assert HeuristicBot(0).choose(view) == play("4h")  # the fallback would not find it
    assert SamplingBot(3, worlds=worlds).choose(view) == play("Ad")


def test_an_adversary_keeps_his_ace_when_the_declarer_cashes_a_winner() -> None:
    """On the declarer's Ad, playing the Ah gives him 3 units; keeping it never costs.

    Kept, the Ah wins the last trick whenever the declarer's last card is a
    lower heart (in most worlds), and otherwise falls to him either way.
    """
    state = cb.apply(two_tricks_left(), play("Ad"))
    view = state.view(2)
    assert SamplingBot(5, worlds=8).choose(view) == play("5h")


def test_utility_pays_the_difference_in_cavendish_and_the_win_under_a_stake() -> None:
    """Cavendish: 23-12 pays 11 each, 35-0 pays 70; Calabresella: 18 units win, 17 lose."""
    assert utility(cb.CAVENDISH, 23) == 11
    assert utility(cb.CAVENDISH, 16) == -3
    assert utility(cb.CAVENDISH, 0) == -70
    assert utility(cb.CALABRESELLA, 18) > 0 > utility(cb.CALABRESELLA, 17)
    assert utility(cb.CALABRESELLA, 35) > utility(cb.CALABRESELLA, 18)


class Checked:
    """Wraps a bot: every choice must be one of the view's regular legal actions."""

    def __init__(self, bot: SamplingBot) -> None:
        self.bot = bot
        self.searched = 0

    def choose(self, view: cb.View) -> cb.Action:
        action = self.bot.choose(view)
        assert action in regular_actions(view), (str(action), view.legal_actions)
        if view.phase is cb.Phase.PLAYING and len(regular_actions(view)) > 1:
            self.searched += len(view.hand) <= self.bot.search_from
        return action


RULESETS = [
    cb.CAVENDISH,
    cb.CALABRESELLA,
    cb.Cavendish(irregularities="record"),
    cb.Calabresella(follow_suit=False),
]


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_legal_and_deterministic_over_random_deals(rules: cb.Ruleset) -> None:
    """Two runs from the same seeds play the same deals, every choice legal and regular."""
    histories = []
    searched = 0
    for _ in range(2):
        runs = []
        for seed in range(3):
            bots = [
                Checked(
                    SamplingBot(
                        random.Random(seed * 3 + seat), worlds=3, time_limit=None, search_from=5
                    )
                )
                for seat in range(3)
            ]
            final = play_deal(rules, bots, seed)
            assert final.is_over
            runs.append(final.history)
            searched += sum(b.searched for b in bots)
        histories.append(runs)
    assert histories[0] == histories[1]
    assert searched > 0  # some of the deals reached the searched tricks


def test_a_time_limit_stops_the_search_and_still_chooses_a_legal_card() -> None:
    """With no world budget, the clock alone ends the search (the ending's first world is
    solved before the clock is read)."""
    state = cb.apply(two_tricks_left(), play("Ad"))
    view = state.view(2)
    assert SamplingBot(1, worlds=None, time_limit=0.001).choose(view) == play("5h")


class Recorder:
    """A fallback that records the phases it is asked in and picks the last legal action."""

    phases: ClassVar[list[cb.Phase]] = []

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: cb.View) -> cb.Action:
        Recorder.phases.append(view.phase)
        return regular_actions(view)[-1]


def test_the_auction_and_the_tricks_before_the_search_go_to_the_fallback() -> None:
    """The fallback bids and plays the early cards; the bot returns its choices unchanged."""
    Recorder.phases = []
    bot = SamplingBot(0, worlds=2, search_from=1, fallback=Recorder)
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=4)
    view = state.view(1)
    assert bot.choose(view) == regular_actions(view)[-1]
    assert Recorder.phases == [cb.Phase.BIDDING]
    final = play_deal(cb.CALABRESELLA, [bot, HeuristicBot(1), HeuristicBot(2)], 4)
    assert final.result is not None and not final.result.void  # the deal was played
    assert cb.Phase.PLAYING in Recorder.phases


@pytest.mark.parametrize(
    "options",
    [
        {"worlds": 0},
        {"worlds": 2.0},
        {"worlds": True},
        {"time_limit": 0},
        {"time_limit": -1.0},
        {"time_limit": float("nan")},
        {"time_limit": "1"},
        {"worlds": None, "time_limit": None},
        {"nodes": 0},
        {"nodes": 10.0},
        {"nodes": True},
        {"search_from": 0},
        {"search_from": 13},
        {"win_only": 1},
        {"win_only": "yes"},
    ],
)
def test_a_bad_budget_raises_bot_error(options: dict[str, object]) -> None:
    """Worlds at least 1 (or None with another budget), a positive finite time, nodes at
    least 1, 1..12 tricks."""
    with pytest.raises(BotError):
        SamplingBot(0, **options)  # type: ignore[arg-type]


def test_a_seed_that_is_not_an_int_or_random_raises_seed_error() -> None:
    with pytest.raises(cb.SeedError):
        SamplingBot("7")  # type: ignore[arg-type]


@pytest.mark.slow
def test_it_plays_whole_deals_of_a_variant_with_its_own_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The swap variant of the examples (an exchange step of its own, which the sampler
    follows through its recorded moves): sampling bots with the default settings play
    five deals to the end, searching worlds the sampler draws, with no warning."""
    swap = load_example("swap_variant")
    rules = swap.SwapCavendish()
    drawn: list[cb.State] = []
    honest = Sampler.sample

    def spy(self: Sampler, rng: random.Random | int) -> cb.State:
        world = honest(self, rng)
        drawn.append(world)
        assert world.view(self.view.seat) == self.view
        return world

    monkeypatch.setattr(Sampler, "sample", spy)
    bots = [SamplingBot.classic(seat) for seat in range(3)]
    finals = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # every warning issued is recorded
        for seed in range(5):
            finals.append(play_deal(rules, bots, seed))
    for final in finals:
        assert final.is_over and final.result is not None
        assert sum(final.result.payments) == 0
    assert sum(not final.result.void for final in finals if final.result) >= 3
    assert len(drawn) > 100  # the bots searched
    assert [str(w.message) for w in caught] == []


def test_where_no_world_is_found_it_warns_once_and_plays_its_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A generic sampler that finds no world: each bot warns once, not once a decision,
    and plays its fallback bot's choices to the end of every deal."""
    swap = load_example("swap_variant")

    def none_found(self: ReplaySampler, rng: random.Random, tries: int = TRIES) -> cb.State:
        raise cb.RulesetError(f"no world found in {tries} deals replayed")

    def refused(self: Sampler, view: cb.View) -> None:
        raise cb.RulesetError("a step the sampler cannot follow")

    monkeypatch.setattr(Sampler, "__init__", refused)
    monkeypatch.setattr(ReplaySampler, "sample", none_found)
    bots = [SamplingBot.classic(seat) for seat in range(3)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        finals = [play_deal(swap.SwapCavendish(), bots, seed) for seed in range(5)]
    assert all(final.is_over for final in finals)
    messages = [str(w.message) for w in caught]
    assert len(messages) == 3, messages
    assert all("plays its fallback bot's choice" in m and "no world" in m for m in messages)


def test_a_node_budget_keeps_a_whole_deal_search_deterministic() -> None:
    """Searching from the first trick with a budget in nodes (no clock): two runs from the
    same seeds play the same deal, every choice legal."""
    histories = []
    for _ in range(2):
        bots = [
            Checked(SamplingBot(random.Random(11 + seat), worlds=3, time_limit=None, nodes=400))
            for seat in range(3)
        ]
        final = play_deal(cb.CAVENDISH, bots, 11)
        assert final.is_over
        histories.append(final.history)
    assert histories[0] == histories[1]


def test_with_no_world_solved_in_the_budget_it_plays_the_fallbacks_choice() -> None:
    """A budget of one node cannot solve a whole deal's world: the first card of the play
    is the fallback's, asked in the play phase."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=4)
    rng = random.Random(4)
    state = cb.apply(state, next(a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)))
    while state.phase is not cb.Phase.PLAYING:
        assert not state.is_over
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            seat = state.to_move
            assert seat is not None
            state = cb.apply(state, regular_actions(state.view(seat))[0])
    assert state.to_move is not None
    view = state.view(state.to_move)
    assert len(regular_actions(view)) > 1
    Recorder.phases = []
    bot = SamplingBot(0, worlds=5, time_limit=None, nodes=1, fallback=Recorder)
    assert bot.choose(view) == regular_actions(view)[-1]
    assert Recorder.phases == [cb.Phase.PLAYING]


class LastAction:
    """A fallback bot that plays the last regular legal action."""

    def __init__(self, rng: random.Random) -> None:
        del rng

    def choose(self, view: cb.View) -> cb.Action:
        return regular_actions(view)[-1]


def test_win_only_changes_nothing_under_cavendish(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cavendish pays the units, so counting wins only does not apply: the threshold search
    is never asked, and the deal is the same, card for card, with a budget in nodes."""

    def refuse(*arguments: object) -> None:
        raise AssertionError("win_only asked the threshold search under Cavendish")

    monkeypatch.setattr(sampling_bot, "_action_wins", refuse)
    histories = []
    for win_only in (False, True):
        bots = [
            Checked(SamplingBot(random.Random(21 + seat), worlds=4, time_limit=None, nodes=3000,
                                search_from=6, win_only=win_only))
            for seat in range(3)
        ]  # fmt: skip
        histories.append(play_deal(cb.CAVENDISH, bots, 21).history)
    assert histories[0] == histories[1]


class WonEnding:
    """A heuristic bot that keeps the first view it gets, in the play, with four tricks or
    fewer left, a choice of cards, and the declarer already at 18 units."""

    def __init__(self, rng: random.Random) -> None:
        self.bot = HeuristicBot(rng)
        self.view: cb.View | None = None

    def choose(self, view: cb.View) -> cb.Action:
        if (
            self.view is None
            and view.phase is cb.Phase.PLAYING
            and len(view.hand) <= 4
            and view.card_units_won[view.declarer or 0] >= 18
            and len(regular_actions(view)) > 1
        ):
            self.view = view
        return self.bot.choose(view)


def test_win_only_counts_wins_so_a_won_deal_leaves_the_choice_to_the_fallback() -> None:
    """Under Calabresella, once the declarer has 18 units every card wins in every world:
    with win_only the cards tie and the fallback's choice is played, where counting the
    units (the default) picks the card that takes the most."""
    found = 0
    for seed in range(200):
        watchers = [WonEnding(random.Random(seed * 3 + seat)) for seat in range(3)]
        play_deal(cb.CALABRESELLA, watchers, seed, dealer=seed % 3)
        view = next((w.view for w in watchers if w.view is not None), None)
        if view is None:
            continue
        options = {"worlds": 6, "time_limit": None, "fallback": LastAction}
        by_units = SamplingBot(seed, **options).choose(view)  # type: ignore[arg-type]
        by_wins = SamplingBot(seed, win_only=True, **options).choose(view)  # type: ignore[arg-type]
        assert by_wins == regular_actions(view)[-1]
        found += by_units != by_wins
        if found == 3:
            break
    assert found == 3


def test_the_repr_shows_win_only_when_set() -> None:
    assert repr(SamplingBot(1, win_only=True, search_from=12)).endswith(
        "search_from=12, win_only=True)"
    )
    assert "win_only" not in repr(SamplingBot(1))


def first_trick_view(seed: int) -> cb.View:
    """The view of the first seat to play a card in a Cavendish deal bid and exchanged by
    each seat's first regular action (a choice of twelve cards)."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=seed)
    rng = random.Random(seed)
    state = cb.apply(state, next(a for a in cb.legal_actions(state) if isinstance(a, cb.Bid)))
    while state.phase is not cb.Phase.PLAYING:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            assert state.to_move is not None
            state = cb.apply(state, regular_actions(state.view(state.to_move))[0])
    assert state.to_move is not None
    view = state.view(state.to_move)
    assert len(view.hand) == 12
    return view


def test_the_default_budget_is_32_worlds_from_the_first_trick_on_no_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """By default the bot searches the first trick too, in exactly 32 worlds, with no
    clock: two bots of one seed solve the same worlds (each world's solve is counted, and
    answered at once, so the count is the budget's and not the machine's)."""
    solved: list[cb.State] = []

    def instant(world: cb.State, *arguments: object) -> tuple[dict[cb.Play, int], int]:
        solved.append(world)
        plays = [a for a in cb.legal_actions(world) if isinstance(a, cb.Play)]
        return {play: 18 for play in plays}, 1

    monkeypatch.setattr(sampling_bot, "_action_values", instant)
    view = first_trick_view(5)
    runs = []
    for _ in range(2):
        solved.clear()
        bot = SamplingBot(9, search_from=12)  # (the default without the compiled search: 7)
        assert bot.time_limit is None and bot.nodes is None and bot.worlds == 32
        bot.choose(view)
        runs.append([world.hand(seat) for world in solved for seat in range(3)])
    assert len(runs[0]) == 32 * 3
    assert runs[0] == runs[1]
    assert len({tuple(runs[0][k : k + 3]) for k in range(0, len(runs[0]), 3)}) > 1


def test_the_default_searches_every_trick_only_with_the_compiled_search() -> None:
    """With the compiled search the default searches from the first trick; the pure-Python
    search, some twenty times slower, searches the classic last seven tricks by default."""
    assert SamplingBot(1).search_from == (12 if solver.COMPILED else 7)
    assert SamplingBot(1).search_from == sampling_bot.SEARCH_FROM


@pytest.mark.parametrize("rules", [cb.CAVENDISH, cb.CALABRESELLA])
def test_the_choice_is_the_best_average_of_exact_values_over_its_worlds(
    monkeypatch: pytest.MonkeyPatch, rules: cb.Ruleset
) -> None:
    """Each world's search starts from guesses (the plays' mean values so far, shifted by
    the world), which only save work: the bot plays the card whose utility, averaged over
    the worlds it drew, is best by each world's exact action_values (as the declarer the
    highest, as an adversary the lowest), ties to the fallback's choice."""
    worlds: list[cb.State] = []
    solve_world = solver._action_values

    def recorded(world: cb.State, *arguments: object) -> tuple[dict[cb.Play, int], int]:
        worlds.append(world)
        return solve_world(world, *arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(sampling_bot, "_action_values", recorded)
    checked = 0
    for seed in range(6):
        state = cb.new_deal(rules, dealer=seed % 3, seed=100 + seed)
        bots = [HeuristicBot(seed * 3 + seat) for seat in range(3)]
        while not state.is_over and (
            state.phase is not cb.Phase.PLAYING or state.tricks_played < 7
        ):
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, random.Random(seed)))
            else:
                assert state.to_move is not None
                state = cb.apply(state, bots[state.to_move].choose(state.view(state.to_move)))
        if state.is_over:
            continue
        assert state.to_move is not None
        view = state.view(state.to_move)
        worlds.clear()
        bot = SamplingBot(seed, worlds=6, search_from=12)
        chosen = bot.choose(view)
        assert len(worlds) == 6
        totals: dict[cb.Play, int] = {}
        for world in worlds:
            for play, units in solver.action_values(world).items():
                totals[play] = totals.get(play, 0) + utility(rules, units)
        sign = 1 if view.seat == view.declarer else -1
        best = max(sign * total for total in totals.values())
        ties = [play for play, total in totals.items() if sign * total == best]
        assert chosen in ties
        if len(ties) < len(totals):  # not every play as good: the values chose
            checked += 1
    assert checked >= 3
