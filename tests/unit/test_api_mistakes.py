"""Mistakes a new user makes with the API get a clear, documented error, or just work.

Bots without ``choose``, a bot asked for a seat that is not to act, a bot that
breaks the rules (named, with its deal), ``Match(rules)`` by position,
``encoding.observation`` of something that is not a view, and the modules
``cb.deal`` and ``cb.state`` called as if they were functions.
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


# --- print(state), and the modules named like functions ------------------------------


def test_print_state_shows_the_table_and_repr_stays_one_line() -> None:
    """str(state) is the table (every hand, the stock, who acts); repr is the short line it was."""
    state = cb.deal_from(
        cb.CAVENDISH,
        ["3d 2d Ad Kd 3h 2h Ah Kh 3s 2s As Ks", "Qd Jd 7d 6d Qh Jh 7h 6h Qs Js 7s 6s",
         "5d 4d 5h 4h 5s 4s 3c 2c Ac Kc Qc Jc"],
        "7c 6c 5c 4c",
        dealer=0,
    )  # fmt: skip
    assert repr(state) == "<State cavendish bidding, seat 1 to act, history 0>"
    assert str(state).splitlines() == [
        "Calabrasella (Cavendish), ruleset cavendish: bidding, seat 1 to act",
        "  seat 0  dealer            d: 3 2 A K  h: 3 2 A K  s: 3 2 A K  c: -",
        "> seat 1  eldest            d: Q J 7 6  h: Q J 7 6  s: Q J 7 6  c: -",
        "  seat 2                    d: 5 4  h: 5 4  s: 5 4  c: 3 2 A K Q J",
        "  stock                     d: -  h: -  s: -  c: 7 6 5 4",
        "history: 0 actions",
    ]


def test_print_state_shows_the_contract_the_trick_and_the_result() -> None:
    """Stand by seat 1 (who calls no card), the first trick half played, then the end."""
    state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=3)
    rng = random.Random(5)
    while state.phase is not cb.Phase.PLAYING or len(state.trick) < 2:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    text = str(state)
    assert f"by seat {state.declarer} (declarer)" in text
    led = state.leader
    assert f"trick: seat {led} {state.trick[0].code}, seat " in text
    assert f"> seat {state.to_move} " in text
    while not state.is_over:
        state = cb.apply(state, rng.choice(cb.legal_actions(state)))
    last = str(state).splitlines()
    assert last[0] == "Calabresella (Terziglio), ruleset calabresella: over"
    assert last[-2].startswith("result: the ") and "payments seat 0 " in last[-2]
    assert last[-1] == f"history: {len(state.history)} actions"


@pytest.mark.parametrize(
    ("module", "words"),
    [
        (cb.deal, "calabrasella.deal is a module, not a function: to deal, call cb.new_deal("),
        (cb.state, "calabrasella.state is a module, not a function: a State comes from cb.new_deal("),
    ],
)
def test_a_module_called_like_a_function_names_the_function(module: Any, words: str) -> None:
    """cb.deal(...) says to call cb.new_deal, not "module object is not callable"; the module is
    unchanged otherwise."""
    with pytest.raises(TypeError, match="^" + re.escape(words)):
        module(cb.CAVENDISH, seed=7)
    import types

    assert isinstance(module, types.ModuleType)
    state = cb.deal.new_deal(cb.CAVENDISH, seed=7)
    assert state.legal_actions() == cb.legal_actions(state)
    assert not hasattr(cb, "legal")  # the legal-action queries are private: cb.legal_actions
    assert isinstance(state, cb.state.State)
    assert callable(cb.view) and cb.view(state, 1) == state.view(1)
