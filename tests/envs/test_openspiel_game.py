"""The OpenSpiel games pass OpenSpiel's random_sim_test (with serialisation), and its
IS-MCTS and MCTS bots play whole deals on them."""

from __future__ import annotations

import random
from typing import Any

import pytest

import calabrasella as cb
from calabrasella import encoding

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.bots import uniform_random  # noqa: E402

from calabrasella.envs import openspiel  # noqa: E402

GAMES = [
    pytest.param("python_calabrasella", {}, id="calabrasella"),
    pytest.param("python_calabresella", {}, id="calabresella"),
    pytest.param("python_calabrasella", {"irregularities": "record", "players": 4, "dealer": 2}, id="calabrasella-table-4"),
    pytest.param("python_calabresella", {"follow_suit": False, "give_back": "face_down", "auction": "until_two_pass"}, id="calabresella-options"),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_random_sim_test_passes_with_serialisation(name: str, params: dict[str, object]) -> None:
    """OpenSpiel's own random simulation test, states serialised and read back."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def _play_to(game: Any, rng: random.Random, stop: int) -> Any:
    """A state after ``stop`` player decisions (or at the end), chance drawn by its probabilities."""
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < stop:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return state


@pytest.mark.parametrize("name", ["python_calabrasella", "python_calabresella"])
def test_the_game_is_the_library_deal(name: str) -> None:
    """Legal actions are the encoding's ids of the library's legal actions, the tensors its
    observation of the view, and the returns the result's payments."""
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    state = _play_to(game, rng, 10**6)
    assert state.is_terminal()
    lib = state.state
    assert state.returns() == [float(p) for p in lib.result.payments]
    mid = _play_to(game, random.Random(8), 12)
    player = mid.current_player()
    view = mid.state.view(player)
    assert mid.legal_actions() == sorted(encoding.action_id(a) for a in view.legal_actions)
    assert list(mid.observation_tensor(player)) == pytest.approx(encoding.observation(view))
    assert list(mid.information_state_tensor(player)) == pytest.approx(
        encoding.observation(view, recall=True)
    )
    assert game.observation_tensor_shape() == [encoding.observation_size(mid.state.rules)]
    assert game.information_state_tensor_shape() == [
        encoding.observation_size(mid.state.rules, recall=True)
    ]
    assert game.num_distinct_actions() == encoding.num_actions(mid.state.rules)


@pytest.mark.parametrize("name", ["python_calabrasella", "python_calabresella"])
def test_resampling_keeps_the_information_state(name: str) -> None:
    """Worlds drawn from an information state give the player the same string and tensor,
    and are different deals (the sampler hides what it should)."""
    game = pyspiel.load_game(name)
    state = _play_to(game, random.Random(3), 14)
    player = state.current_player()
    key = state.information_state_string(player)
    tensor = state.information_state_tensor(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    deals = set()
    for _ in range(10):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == key
        assert world.information_state_tensor(player) == tensor
        assert world.legal_actions() == state.legal_actions()
        deals.add(tuple(world.history()[:40]))
    assert len(deals) > 1


def _branching_walk(game: Any, states: int, seed: int) -> Any:
    """``states`` states of random playouts, each deal played out again from states met
    before (one before the play half the time, the deal's chance nodes included): the same
    cards along other lines."""
    rng = random.Random(seed)
    seen = 0
    while seen < states:
        met = [game.new_initial_state()]
        for _ in range(30):
            early = [m for m in met if m.state is None or m.state.phase.name != "PLAYING"]
            state = rng.choice(early if early and rng.random() < 0.5 else met).clone()
            while not state.is_terminal():
                if state.is_chance_node():
                    actions, probs = zip(*state.chance_outcomes())
                    state.apply_action(rng.choices(actions, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                met.append(state.clone())
                yield state
                seen += 1


@pytest.mark.parametrize(
    ("name", "params", "states"),
    [
        pytest.param("python_calabrasella", {}, 10_000, id="calabrasella"),
        pytest.param("python_calabresella", {}, 10_000, id="calabresella", marks=pytest.mark.slow),
        pytest.param(
            "python_calabresella", {"auction": "until_two_pass", "give_back": "face_down"}, 10_000,
            id="calabresella-until-two-pass",
        ),
    ],
)  # fmt: skip
def test_the_information_state_tensor_tells_every_information_state_apart(
    name: str, params: dict[str, object], states: int
) -> None:
    """Over 10,000 states of each game, every player's information-state tensor is a
    function the string can be read back from: two tensors alike, two strings alike."""
    game = pyspiel.load_game(name, params)
    strings: dict[bytes, str] = {}
    for state in _branching_walk(game, states, seed=5):
        for player in range(game.num_players()):
            tensor = np.asarray(state.information_state_tensor(player), np.float32).tobytes()
            key = state.information_state_string(player)
            assert strings.setdefault(tensor, key) == key, key
    assert len(set(strings.values())) > states


@pytest.mark.parametrize("name", ["python_calabrasella", "python_calabresella"])
def test_is_mcts_and_mcts_play_whole_deals(name: str) -> None:
    """OpenSpiel's IS-MCTS, MCTS and a random bot play two deals to the end (small searches)."""
    game = pyspiel.load_game(name)
    rs = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rs),
        mcts.MCTSBot(game, 2.0, 10, evaluator, random_state=rs),
        uniform_random.UniformRandomBot(2, rs),
    ]
    for seed in (1, 2):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        assert len(returns) == 3 and sum(returns) == 0


def test_parameters_are_the_ruleset_options() -> None:
    """Game parameters build the ruleset; the table-mode action space is the larger one."""
    game = pyspiel.load_game("python_calabrasella", {"irregularities": "record", "first_lead": "after_declarer"})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.state.rules == cb.Cavendish(irregularities="record", first_lead="after_declarer")
    assert game.num_distinct_actions() == encoding.NUM_TABLE_ACTIONS
    assert openspiel.game_name(cb.CALABRESELLA) == "python_calabresella"
    with pytest.raises(Exception, match="dealer"):
        pyspiel.load_game("python_calabresella", {"dealer": 5})


def _base_legal(state: Any, player: int | None) -> Any:
    """OpenSpiel's own answer (through C++), or the type of error it raises."""
    try:
        if player is None:
            return pyspiel.State.legal_actions(state)
        return pyspiel.State.legal_actions(state, player)
    except pyspiel.SpielError as error:
        return type(error), str(error)


def _own_legal(state: Any, player: int | None) -> Any:
    try:
        return state.legal_actions() if player is None else state.legal_actions(player)
    except pyspiel.SpielError as error:
        return type(error), str(error)


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_the_python_queries_answer_as_openspiel_does(name: str, params: dict[str, object]) -> None:
    """``legal_actions`` (any player, chance and terminal nodes included) and ``is_chance_node``,
    answered in Python, equal OpenSpiel's own at every node of a few random deals."""
    game = pyspiel.load_game(name, params)
    players = game.num_players()
    rng = random.Random(4)
    nodes = 0
    for _ in range(3):
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            for player in (None, -1, *range(players), players):
                assert _own_legal(state, player) == _base_legal(state, player)
            listed = state.legal_actions()
            listed.append(-99)  # the caller's own list: the state's is untouched
            assert -99 not in state.legal_actions()
            nodes += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(pyspiel.State.legal_actions(state)))
    assert nodes > 150
