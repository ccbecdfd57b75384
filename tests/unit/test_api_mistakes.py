"""Mistakes a new user makes with the API get a clear, documented error, or just work.

Bots without ``choose``, a bot asked for a seat that is not to act, a bot that
breaks the rules (named, with its deal), ``Match(rules)`` by position,
``encoding.observation`` of something that is not a view, and the modules
``cb.deal``, ``cb.state`` and ``cb.legal`` called as if they were functions.
"""

from __future__ import annotations

import collections
import random
import re
from typing import Any

import pytest

import calabrasella as cb
from calabrasella.bots import (
    Bot,
    BotFactory,
    HeuristicBot,
    RandomBot,
    SamplingBot,
    play_deal,
    replay_deal,
)
from calabrasella.errors import BotError


class CheatBot:
    """Plays the ace of coins whatever it is asked (at the auction: illegal)."""

    def __init__(self, rng: random.Random) -> None:
        pass

    def choose(self, view: cb.View) -> cb.Action:
        return cb.Play(cb.Card.parse("Ad"))


def test_play_deal_refuses_a_bot_without_choose_before_dealing() -> None:
    """An object with no choose method: BotError naming the seat and its class, not AttributeError."""
    bots: list[Any] = [RandomBot(1), collections.OrderedDict(), RandomBot(2)]
    with pytest.raises(BotError, match=r"seat 1, collections.OrderedDict, has no choose\(view\) method"):
        play_deal(cb.CAVENDISH, bots, 7)


def test_play_deal_names_the_bot_that_broke_the_rules() -> None:
    """The IllegalActionError names the action, the reason, the seat, the bot's class and the seed."""
    bots: list[Bot] = [RandomBot(1), CheatBot(random.Random()), RandomBot(2)]
    with pytest.raises(cb.IllegalActionError) as info:
        play_deal(cb.CAVENDISH, bots, 7)  # dealer 0: seat 1 speaks first
    text = str(info.value)
    assert text.startswith("illegal action Play(card=Card.parse('Ad')): seat 1 is to bid or pass")
    assert "the bot of seat 1, test_api_mistakes.CheatBot, as action 1 of the deal" in text
    assert "the deal seeded 7" in text
    assert info.value.action == cb.Play(cb.Card.parse("Ad"))


def test_replay_deal_names_the_deal_of_the_simulation() -> None:
    """In a simulation the error says which deal (number and master seed) and which player."""
    factories: list[BotFactory] = [RandomBot, CheatBot, RandomBot]
    with pytest.raises(cb.IllegalActionError) as info:
        replay_deal(cb.CAVENDISH, factories, seed=4, index=3)
    text = str(info.value)
    assert re.search(r"deal 3 of the simulation with seed 4, player 1's bot", text), text
    assert "replay_deal(rules, bots, seed=4, index=3) plays that deal alone" in text


@pytest.mark.parametrize("bot", [HeuristicBot, RandomBot, SamplingBot])
def test_a_bot_asked_for_a_seat_not_to_act_says_so(bot: type) -> None:
    """Seat 0 is not to act at the start of the auction (seat 1 is): BotError, not Pass()."""
    state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
    assert state.to_move == 1
    with pytest.raises(BotError, match=r"seat 0 is not to act \(seat 1 is\)"):
        bot(random.Random(1)).choose(state.view(0))


def test_a_bot_asked_after_the_deal_is_over_says_so() -> None:
    final = play_deal(cb.CALABRESELLA, [RandomBot(s) for s in range(3)], 3)
    with pytest.raises(BotError, match=r"seat 2 is not to act \(the deal is over\)"):
        HeuristicBot(random.Random(1)).choose(final.view(2))


def test_a_match_takes_its_ruleset_by_position() -> None:
    """Match(cb.CAVENDISH) is Match(rules=cb.CAVENDISH): player p in seat p, seat 0 deals."""
    match = cb.Match(cb.CAVENDISH)
    assert match == cb.Match(rules=cb.CAVENDISH)
    assert (match.seating, match.dealer, match.deals, match.totals) == ((0, 1, 2), 0, None, (0, 0, 0))
    assert cb.Match(cb.CALABRESELLA, deals=3).deals == 3
    with pytest.raises(TypeError):
        cb.Match(cb.CAVENDISH, (0, 1, 2))  # type: ignore[call-arg]  # the rest only by name
    with pytest.raises(cb.RulesetError, match=re.escape("cb.find_ruleset('cavendish')")):
        cb.Match("cavendish")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "words"),
    [
        (cb.new_deal(cb.CAVENDISH, seed=7), "takes a View, what one seat may know, not a State"),
        ("x", "takes a View (state.view(seat)), not str 'x'"),
        (None, "not NoneType None"),
    ],
)
def test_observation_of_something_not_a_view_is_a_state_error(given: object, words: str) -> None:
    """encoding.observation(state) or ("x"): StateError saying what to pass, not AttributeError."""
    from calabrasella import encoding

    for numpy in (False, True) if _has_numpy() else (False,):
        with pytest.raises(cb.StateError, match=re.escape(words)):
            encoding.observation(given, numpy=numpy)  # type: ignore[arg-type]


def _has_numpy() -> bool:
    import importlib.util

    return importlib.util.find_spec("numpy") is not None
