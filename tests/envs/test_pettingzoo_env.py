"""The PettingZoo environment passes PettingZoo's own api_test and seed_test on both games."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import calabrasella as cb
from calabrasella import encoding

pytest.importorskip("pettingzoo")
pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test

from calabrasella.envs.pettingzoo import CalabrasellaEnv

GAMES = [
    pytest.param("cavendish", {}, id="cavendish"),
    pytest.param("calabresella", {}, id="calabresella"),
    pytest.param("cavendish", {"irregularities": "record", "players": 4}, id="cavendish-table-4"),
    pytest.param("calabresella", {"follow_suit": False, "give_back": "face_down"}, id="calabresella-options"),
]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_api_test_passes(name: str, options: dict[str, object]) -> None:
    """PettingZoo's api_test over a few deals of each game (its warnings are about dict observations)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        api_test(CalabrasellaEnv(name, render_mode="ansi", **options), num_cycles=300)


@pytest.mark.parametrize("name", ["cavendish", "calabresella"])
def test_seed_test_passes(name: str) -> None:
    """PettingZoo's seed_test: two envs reset with one seed run alike."""
    seed_test(lambda: CalabrasellaEnv(name), num_cycles=300)


def _play(env: CalabrasellaEnv, seed: int, pick: random.Random) -> tuple[list[int], dict[str, float]]:
    env.reset(seed=seed)
    taken: list[int] = []
    totals: dict[str, float] = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        # the observation is the library's own encoding of the agent's view
        assert env.state is not None
        view = env.state.view(env.possible_agents.index(agent))
        assert obs["observation"].tolist() == pytest.approx(encoding.observation(view))
        assert obs["action_mask"].tolist() == encoding.legal_mask(view)
        action = pick.choice([i for i, bit in enumerate(obs["action_mask"]) if bit])
        taken.append(action)
        env.step(action)
    return taken, totals


@pytest.mark.parametrize("name", ["cavendish", "calabresella"])
def test_the_seed_fixes_the_deal_and_rewards_are_the_payments(name: str) -> None:
    """Same seed and actions, same deal and rewards; another seed, another deal; the rewards
    are the result's payments (they sum to zero)."""
    env = CalabrasellaEnv(name)
    first, totals = _play(env, 5, random.Random(1))
    assert env.state is not None and env.state.result is not None
    payments = env.state.result.payments
    assert [totals[f"seat_{s}"] for s in range(3)] == [float(p) for p in payments]
    assert sum(totals.values()) == 0
    deal = env.state.deal
    again, _ = _play(env, 5, random.Random(1))
    assert again == first and env.state.deal == deal
    _play(env, 6, random.Random(1))
    assert env.state.deal != deal


def test_an_illegal_action_is_refused_and_render_shows_the_hands() -> None:
    env = CalabrasellaEnv(cb.CALABRESELLA, render_mode="ansi")
    env.reset(seed=2, options={"dealer": 1})
    assert env.state is not None and env.state.dealer == 1
    with pytest.raises(cb.IllegalActionError):
        env.step(encoding.action_id(cb.Play("Ad")))
    text = env.render()
    assert text is not None
    for seat in range(3):
        assert str(env.state.hand(seat)) in text
    with pytest.raises(ValueError, match="render_mode"):
        CalabrasellaEnv("cavendish", render_mode="human")


def test_render_svg_draws_the_table_of_the_state() -> None:
    """``render_mode="svg"`` returns the library's picture of the whole table (every hand)."""
    import xml.etree.ElementTree as ET

    from calabrasella import svg

    env = CalabrasellaEnv("cavendish", render_mode="svg")
    env.reset(seed=3)
    picture = env.render()
    assert picture is not None and env.state is not None
    assert picture == svg.table(env.state)
    assert ET.fromstring(picture).tag.endswith("svg")
    _play(env, 5, random.Random(2))
    assert env.render() == svg.table(env.state)


@pytest.mark.parametrize(
    ("call", "word"),
    [
        (lambda env: env.step(0), "step"),
        (lambda env: env.last(), "last"),
        (lambda env: env.observe("seat_0"), "observe"),
        (lambda env: next(iter(env.agent_iter())), "agent_iter"),
    ],
)
def test_before_reset_the_env_says_reset_first(call: Any, word: str) -> None:
    """As PettingZoo's own environments: "reset() needs to be called before step." and so on."""
    env = CalabrasellaEnv("cavendish")
    with pytest.raises(AssertionError, match=rf"^reset\(\) needs to be called before {word}"):
        call(env)
    env.reset(seed=1)  # and then it works
    assert env.last()[1] == 0.0


def test_each_game_has_its_own_name() -> None:
    """PettingZoo names an env "<name>_v<version>": the two games are not both "calabrasella_v1"."""
    assert CalabrasellaEnv("cavendish").metadata["name"] == "cavendish_v1"
    assert CalabrasellaEnv("calabresella").metadata["name"] == "calabresella_v1"
    assert CalabrasellaEnv.metadata["name"] == "calabrasella_v1"  # the class's own is left alone
