"""A bot class where a bot belongs, or a bot where a factory belongs: a BotError that says which each function wants."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

import calabrasella as cb
from calabrasella import bots
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.errors import BotError


def test_play_deal_given_bot_classes_says_it_wants_bots() -> None:
    classes: list[Any] = [bots.RandomBot, bots.RandomBot, bots.RandomBot]
    with pytest.raises(BotError) as refused:
        bots.play_deal(cb.CAVENDISH, classes, 1)
    assert str(refused.value) == (
        "the bot of seat 0 is the class RandomBot, not a bot: play_deal wants bot objects, "
        "e.g. RandomBot(rng) (simulate is the one that takes classes, to build fresh bots for each deal)"
    )
    with pytest.raises(BotError, match=r"^the bot of seat 2 is the class HeuristicBot, not a bot"):
        bots.play_deal(cb.CAVENDISH, [bots.RandomBot(0), bots.RandomBot(1), HeuristicBot], 1)  # type: ignore[list-item]


@pytest.mark.parametrize("call", ["simulate", "replay_deal"])
def test_simulate_given_bots_says_it_wants_factories(call: str) -> None:
    players: list[Any] = [bots.RandomBot, HeuristicBot(random.Random(1)), bots.RandomBot]
    run = functools.partial(bots.simulate, deals=3) if call == "simulate" else functools.partial(bots.replay_deal, index=0)
    with pytest.raises(BotError) as refused:
        run(cb.CAVENDISH, players)
    assert str(refused.value) == (
        f"player 1's factory is a HeuristicBot object, a bot, not a factory: {call} wants a factory "
        "per player, called with a random.Random to build a fresh bot for each deal: the class "
        "itself (HeuristicBot), or a function rng -> bot (play_deal is the one that takes bot objects)"
    )
    with pytest.raises(BotError, match=r"^player 0's factory is 'random', not callable: simulate wants"):
        bots.simulate(cb.CAVENDISH, ["random", bots.RandomBot, bots.RandomBot], 3)  # type: ignore[list-item]


def test_simulate_s_seed_defaults_to_1_as_the_command_s_does() -> None:
    default = bots.simulate(cb.CALABRESELLA, [bots.RandomBot] * 3, 6)
    assert default == bots.simulate(cb.CALABRESELLA, [bots.RandomBot] * 3, 6, seed=1)
    assert default.seed == 1
    other = bots.simulate(cb.CALABRESELLA, [bots.RandomBot] * 3, 6, seed=2)
    assert other != default
    final, seats = bots.replay_deal(cb.CALABRESELLA, [bots.RandomBot] * 3, index=3)
    assert (final, seats) == bots.replay_deal(cb.CALABRESELLA, [bots.RandomBot] * 3, seed=1, index=3)
