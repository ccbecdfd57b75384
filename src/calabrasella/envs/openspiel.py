"""OpenSpiel games: ``python_calabrasella`` (Cavendish) and ``python_calabresella``.

Needs the extra: ``pip install 'calabrasella[openspiel]'`` (OpenSpiel 2.0.2,
Python 3.11 or later). Importing this module registers both games with
``pyspiel``; load one with ``pyspiel.load_game("python_calabresella")`` or with
options as game parameters, ``pyspiel.load_game("python_calabresella",
{"follow_suit": False})`` (every option of the ruleset, and ``dealer``).

- **Chance is explicit.** The deal is 40 chance nodes: the n-th deals one
  card, uniformly among those left, to the n-th place (twelve to each
  active seat from the eldest hand, then four to the stock); its outcomes are
  card indices. Dividete's unseen draw is one chance node whose outcomes
  are the places of :func:`calabrasella.chance_outcomes`' draws, all equally
  likely.
- **Actions** are :mod:`calabrasella.encoding`'s fixed ids
  (``num_distinct_actions`` is 208, or 413 in table mode). In table mode the
  player to act chooses among its own view's actions: another seat's
  irregular actions (a card out of turn) are not offered.
- **Information state and observation** strings and tensors come from the
  player's :class:`~calabrasella.View`: the observation tensor is
  :func:`calabrasella.encoding.observation`, the information-state tensor
  ``observation(view, recall=True)``, which holds the player's whole history
  as it saw it (the auction, the exchange, every trick in order and who
  led), so it differs wherever the information-state string does.
- ``resample_from_infostate`` draws a world with the library's uniform
  sampler (:class:`calabrasella.bots.Sampler`), which OpenSpiel's IS-MCTS uses.
- **Returns** are the result's payments in units (zero-sum).

Example:
    >>> import pyspiel
    >>> import calabrasella.envs.openspiel
    >>> game = pyspiel.load_game("python_calabresella")
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())
    (True, 40)
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Any

import numpy as np
import pyspiel

from .. import encoding
from ..actions import Action
from ..bots.sampling import Sampler
from ..deal import deal_from
from ..encoding import action_among, action_ids
from ..engine import apply, chance_outcomes
from ..rulesets import CALABRESELLA, CAVENDISH, Ruleset
from ..state import State
from ..views import View

__all__ = [
    "GAMES",
    "CalabrasellaGame",
    "CalabrasellaState",
    "CalabresellaGame",
    "CavendishGame",
    "game_name",
    "game_parameters",
]

#: The registered games: OpenSpiel name -> the preset whose options are the parameters.
GAMES: dict[str, Ruleset] = {
    "python_calabrasella": CAVENDISH,
    "python_calabresella": CALABRESELLA,
}
_MAX_UTILITY = 1000.0  # a bound, not a tight one: stakes x bonuses x payers, penalties
_MAX_GAME_LENGTH = 300
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)  # the deal's 40 chance nodes, the auction, the exchange, 36 cards


def game_name(rules: Ruleset) -> str:
    """Return the OpenSpiel name of ``rules``' game."""
    for name, preset in GAMES.items():
        if type(preset) is type(rules):
            return name
    raise ValueError(f"no OpenSpiel game for {type(rules).__name__}")


def game_parameters(rules: Ruleset, dealer: int = 0) -> dict[str, Any]:
    """Return the game parameters that load ``rules``: its options, and the dealer."""
    return {**rules.options(), "dealer": dealer}


def _game_type(name: str, preset: Ruleset) -> Any:
    return pyspiel.GameType(
        short_name=name,
        long_name=f"Python {preset.terms.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=3,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=game_parameters(preset),
    )


class CalabrasellaGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of a ruleset, as an OpenSpiel game (see the module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None, *, name: str) -> None:
        preset = GAMES[name]
        given = dict(params or {})
        options = {**preset.options(), **given}
        dealer = int(options.pop("dealer", 0))
        self.rules: Ruleset = type(preset)(**options)
        if not 0 <= dealer < self.rules.players:
            raise ValueError(f"dealer={dealer}: not a seat at a table of {self.rules.players}")
        self.dealer = dealer
        #: The number of action ids (:func:`calabrasella.encoding.num_actions`).
        self.size = encoding.num_actions(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.size,
            max_chance_outcomes=40,
            num_players=self.rules.players,
            min_utility=-_MAX_UTILITY,
            max_utility=_MAX_UTILITY,
            utility_sum=0.0,
            max_game_length=_MAX_GAME_LENGTH,
        )
        super().__init__(_TYPES[name], info, {**game_parameters(self.rules, dealer)})
        order = [(dealer + k) % self.rules.players for k in (1, 2, 3)]
        #: The seat each of the 40 dealt places goes to (-1: the stock).
        self.places: tuple[int, ...] = tuple([s for s in order for _ in range(12)] + [-1] * 4)

    def new_initial_state(self) -> CalabrasellaState:
        return CalabrasellaState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> CalabrasellaGame:
        """The game itself: it never changes, and a state's clone (a deep copy) shares it
        (a copy made by pickling would lack the ruleset and the deal's places)."""
        return self

    def replay_world(self, world: State) -> CalabrasellaState:
        """Return a new state that deals ``world``'s cards and replays its history."""
        where: dict[int, int] = {}
        for seat, hand in enumerate(world.deal.hands):
            for card in hand:
                where[card.index] = seat
        for card in world.deal.stock:
            where[card.index] = -1
        placed: dict[int, list[int]] = {}
        for index in sorted(where):
            placed.setdefault(where[index], []).append(index)
        new = self.new_initial_state()
        for place in self.places:
            new.apply_action(placed[place].pop(0))
        for _, action in world.history:
            assert new.state is not None
            if new.state.is_chance:
                new.apply_action(chance_outcomes(new.state).index(action))
            else:
                new.apply_action(encoding.action_id(action))
        return new

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"observation parameters are not supported: {params!r}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a player's own observation (private and public) is supported")
        return _Observer(self.rules, perfect_recall)


class CalabrasellaState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the 40 dealing chance nodes, then the library's :class:`State`."""

    def __init__(self, game: CalabrasellaGame) -> None:
        super().__init__(game)
        self._game = game
        self.dealt: list[int] = []  # the cards dealt so far, place by place
        self._left = list(range(40))  # the cards still to deal, in order
        self._player = _CHANCE
        self.state: State | None = None  # the library's state, once dealt
        # the legal actions of the state and their ids (sorted), once asked for
        self._actions: tuple[Action, ...] | None = None
        self._legal: list[int] | None = None

    # --- the deal ---------------------------------------------------------------------

    def _finish_deal(self) -> None:
        game = self._game
        hands: list[int] = [0] * game.rules.players
        stock = 0
        for place, card in zip(game.places, self.dealt):
            if place < 0:
                stock |= 1 << card
            else:
                hands[place] |= 1 << card
        from ..cards import CardSet

        self.state = deal_from(
            game.rules, [CardSet(h) for h in hands], CardSet(stock), dealer=game.dealer
        )

    # --- OpenSpiel's API --------------------------------------------------------------

    def current_player(self) -> int:
        return self._player  # (OpenSpiel asks often: kept up to date by _apply_action)

    # The three queries a Python caller makes at every node, answered here as OpenSpiel's
    # own would (tests/envs holds them to those): OpenSpiel's go through C++ and call
    # back into this class, twice for a list of actions.

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        current = self._player
        if current == _TERMINAL:
            return []
        if current == _CHANCE:  # the outcomes, whoever asks
            return [outcome for outcome, _ in self.chance_outcomes()]
        if player is None or player == current:
            return self._legal_actions(current)[:]
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def _update_player(self) -> None:
        state = self.state
        if state is None or state.is_chance:
            self._player = _CHANCE
        elif state.is_over:
            self._player = _TERMINAL
        else:
            self._player = state.to_move  # type: ignore[assignment]

    def view(self, player: int) -> View:
        """The library's view of ``player`` (after the deal)."""
        assert self.state is not None
        return self.state.view(player)

    def _legal_actions(self, player: int) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = sorted(action_ids(self._mover_actions()))
        return legal

    def _mover_actions(self) -> tuple[Action, ...]:
        """The legal actions of the player to act (worked out once per state)."""
        actions = self._actions
        if actions is None:
            state = self.state
            assert state is not None
            if state.rules.irregularities == "record":  # table mode: the player's own actions only
                actions = state.view(state.to_move).legal_actions  # type: ignore[arg-type]
            else:
                actions = state.legal_actions()
            self._actions = actions
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.state is None:
            left = self._left
            return list(zip(left, repeat(1.0 / len(left))))
        outcomes = chance_outcomes(self.state)
        return list(zip(range(len(outcomes)), repeat(1.0 / len(outcomes))))

    def _apply_action(self, action: int) -> None:
        action = int(action)
        state = self.state
        if state is None:
            try:
                self._left.remove(action)
            except ValueError:
                raise ValueError(f"card {action} cannot be dealt now") from None
            self.dealt.append(action)
            if not self._left:
                self._finish_deal()
                self._update_player()
            return
        if state.is_chance:
            chosen: Any = chance_outcomes(state)[action]
        else:
            chosen = action_among(action, self._mover_actions(), state.rules)
        self.state = apply(state, chosen)
        self._actions = None
        self._legal = None
        self._update_player()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.state is None:
                return f"deal {_card_text(action)}"
            return str(chance_outcomes(self.state)[action])
        return str(encoding.action_at(int(action)))

    def is_terminal(self) -> bool:
        return self.state is not None and self.state.is_over

    def returns(self) -> list[float]:
        state = self.state
        if state is None or state.result is None:
            return [0.0] * self._game.rules.players
        return [float(p) for p in state.result.payments]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CalabrasellaState:
        """Return a state ``player_id`` cannot tell from this one, drawn uniformly.

        The library's sampler draws the world; its deal and actions are
        replayed on a new state, so its history is a real one.
        """
        if self.state is None:
            raise ValueError("resampling is for the play after the deal")
        seed = int(float(probability_sampler()) * 2**53)
        world = Sampler(self.view(player_id)).sample(random.Random(seed))
        return self._game.replay_world(world)

    def __str__(self) -> str:
        if self.state is None:
            return "dealt: " + " ".join(_card_text(c) for c in self.dealt)
        state = self.state
        lines = [f"{state.phase.name.lower()}; to move: {state.to_move}"]
        lines += [f"seat {s}: {state.hand(s)}" for s in range(state.players)]
        lines.append(f"stock: {state.stock}")
        lines.append("history: " + "; ".join(f"{s} {a}" for s, a in state.history))
        if state.trick:
            lines.append("trick: " + " ".join(str(c) for c in state.trick))
        return "\n".join(lines)


def _card_text(index: int) -> str:
    from ..cards import DECK

    return str(DECK[index])


class _Observer:
    """OpenSpiel's observer: a player's view as a string and as the encoding's vector
    (with perfect recall, the information state: ``observation(view, recall=True)``)."""

    def __init__(self, rules: Ruleset, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = encoding.observation_size(rules, recall=perfect_recall)
        self.tensor = np.zeros(size, np.float32)
        layout = encoding.observation_layout(rules, recall=perfect_recall)
        self.dict = {name: self.tensor[part] for name, part in layout.items()}

    def set_from(self, state: CalabrasellaState, player: int) -> None:
        if state.state is None:  # the deal: the seat, its cards and how many each place got
            self.tensor.fill(0.0)
            self.dict["seat"][player] = 1.0
            sizes = self.dict["hand_sizes"]
            for place, card in zip(state._game.places, state.dealt):
                if place == player:
                    self.dict["hand"][card] = 1.0
                if place < 0:
                    self.dict["stock_size"][0] += 1.0
                else:
                    sizes[place] += 1.0
            return
        self.tensor[:] = encoding.observation(
            state.view(player), numpy=True, recall=self.perfect_recall
        )

    def string_from(self, state: CalabrasellaState, player: int) -> str:
        if state.state is None:
            # (in card order: the order they came in tells nothing, as no one acts between)
            mine = [
                _card_text(c)
                for c in sorted(c for p, c in zip(state._game.places, state.dealt) if p == player)
            ]
            return f"seat {player}; dealt {len(state.dealt)}; mine: {' '.join(mine)}"
        view = state.view(player)
        lines = [
            f"seat {player}; dealer {view.dealer}; {view.phase.name.lower()}; to move: {view.to_move}",
            f"hand: {view.hand}",
            f"declarer: {view.declarer}; contract: {view.contract and view.contract.value}; "
            f"raise: {view.modifier and view.modifier.value}; called: {view.called}",
            f"exposed: {view.exposed}; discards: {view.discards}; drawn: {view.drawn}; "
            f"given back: {view.given_back}",
            f"trick: {' '.join(f'{s}:{c}' for s, c in view.trick)}",
            f"tricks: {view.tricks_won}; units: {view.card_units_won}",
        ]
        if self.perfect_recall:
            lines.append("history: " + "; ".join(f"{s} {a}" for s, a in view.history))
            lines.append("forced: " + "; ".join(f"{at} {s} {a}" for at, s, a in view.forced_moves))
        else:
            played = encoding.cards_played(view)
            lines.append("played: " + "; ".join(str(p) for p in played))
        if view.final_stock is not None:
            lines.append(f"final stock: {view.final_stock}")
        return "\n".join(lines)


_TYPES = {name: _game_type(name, preset) for name, preset in GAMES.items()}


class CavendishGame(CalabrasellaGame):
    """``python_calabrasella``: Cavendish's Calabrasella."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, name="python_calabrasella")


class CalabresellaGame(CalabrasellaGame):
    """``python_calabresella``: Calabresella (Terziglio)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(params, name="python_calabresella")


# (registered by class, as OpenSpiel's own Python games are: a factory
# function kept in OpenSpiel's registry crashes the interpreter at exit)
for _name, _cls in (("python_calabrasella", CavendishGame), ("python_calabresella", CalabresellaGame)):
    if _name not in pyspiel.registered_names():
        pyspiel.register_game(_TYPES[_name], _cls)
