"""A PettingZoo AEC environment: one deal per episode, each seat an agent.

Needs the extra: ``pip install 'calabrasella[pettingzoo]'`` (PettingZoo,
Gymnasium and NumPy).

- **Agents** ``"seat_0"``, ``"seat_1"``, ``"seat_2"`` (and ``"seat_3"`` at a
  four-seat table, whose dealer sits out and never acts).
- **Actions**: :mod:`calabrasella.encoding`'s fixed ids,
  ``Discrete(encoding.num_actions(rules))``.
- **Observations**: a dict ``{"observation": encoding.observation(view),
  "action_mask": encoding.legal_mask(view)}`` from the agent's own view
  (``float32`` and ``int8`` arrays, ``encoding.observation_size(rules)`` and
  ``encoding.num_actions(rules)`` long); the mask is all zero for an agent
  not to act.
- **Chance** (the shuffle and dividete's unseen draw) is resolved inside the
  env with a ``random.Random`` seeded by ``reset(seed=...)``: the same seed
  and the same actions give the same deal and the same observations.
- **Rewards**: 0 until the deal ends, then each seat's payment
  (``result.payments``, units won or lost); every agent then terminates.
- ``reset(options={"dealer": seat})`` fixes the dealer; otherwise it is drawn
  from the seed. Other keys of ``options`` are ignored. ``step``, ``last``,
  ``observe`` or ``agent_iter`` before the first ``reset()`` raise
  ``AssertionError("reset() needs to be called before step.")`` (``last``,
  ``observe``...), as PettingZoo's own environments do.
- In table mode (``irregularities="record"``) an agent chooses among its own
  view's legal actions when it is to act (its revokes, its stock turn); the
  irregular actions of a seat not to act (a card out of turn, the
  declarer's abandon after it) are not offered, as an AEC env gives one
  agent the turn at a time.

Example:
    >>> from calabrasella.envs.pettingzoo import CalabrasellaEnv
    >>> env = CalabrasellaEnv("calabresella", render_mode="ansi")
    >>> env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs), int(obs["action_mask"].sum()) > 0
    (['action_mask', 'observation'], True)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .. import encoding
from ..deal import new_deal
from ..encoding import action_among, action_ids
from ..engine import apply, sample_chance
from ..rulesets import Ruleset, find_ruleset
from ..state import State
from ..views import View

__all__ = ["CalabrasellaEnv", "env", "raw_env"]

#: The highest value any observation entry takes (card units, stakes, counts).
OBSERVATION_HIGH = 64.0


class CalabrasellaEnv(AECEnv):  # type: ignore[misc]
    """One deal of Calabrasella or Calabresella as a PettingZoo AEC environment.

    Args:
        rules: A :class:`~calabrasella.Ruleset`, or a ruleset's name
            (``"cavendish"``, ``"calabresella"``).
        render_mode: ``None``, ``"ansi"`` (:meth:`render` returns text) or
            ``"svg"`` (:meth:`render` returns the table as an SVG picture, every
            hand face up: :func:`calabrasella.svg.table` of the state).
        **options: Options for a ruleset given by name (``follow_suit=False``...).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "svg"], "name": "calabrasella_v1", "is_parallelizable": False}

    def __init__(
        self,
        rules: Union[Ruleset, str] = "cavendish",
        *,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if isinstance(rules, str):
            rules = find_ruleset(rules)
            if options:
                rules = type(rules)(**{**rules.options(), **options})
        elif options:
            rules = type(rules)(**{**rules.options(), **options})
        if render_mode not in (None, "ansi", "svg"):
            raise ValueError(f"render_mode={render_mode!r}: expected None, 'ansi' or 'svg'")
        self.rules: Ruleset = rules
        # each game its own name (PettingZoo's "<name>_v<version>"): cavendish_v1,
        # calabresella_v1 (v1: the observation holds the auction and the moves after
        # it); the instance's own copy, the class's left as it is
        self.__dict__["metadata"] = {**type(self).metadata, "name": f"{rules.name}_v1"}
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(rules.players)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._size = size = encoding.num_actions(rules)
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0.0, OBSERVATION_HIGH, (encoding.observation_size(rules),), np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._rng = random.Random()
        self.state: State | None = None
        self._viewed: tuple[int, View] | None = None

    # --- spaces ---------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    # --- the episode -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        dealer = (options or {}).get("dealer")
        if dealer is None:
            dealer = self._rng.randrange(self.rules.players)
        state = new_deal(self.rules, dealer=dealer, seed=self._rng.getrandbits(64))
        self.state = self._resolve_chance(state)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._viewed = None
        self.agent_selection = self.possible_agents[self.state.to_move]  # type: ignore[index]

    def _resolve_chance(self, state: State) -> State:
        while state.is_chance:
            state = apply(state, sample_chance(state, self._rng))
        return state

    def _view(self, seat: int) -> View:
        # the latest view asked for is kept until the next step: observe() and the
        # step that follows it read one view
        viewed = self._viewed
        if viewed is not None and viewed[0] == seat:
            return viewed[1]
        assert self.state is not None
        view = self.state.view(seat)
        self._viewed = (seat, view)
        return view

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise AssertionError("reset() needs to be called before last.")
        return super().last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if self.state is None:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, Any]:
        if self.state is None:
            EnvLogger.error_observe_before_reset()
        view = self._view(self._seat[agent])
        legal = view.legal_actions
        mask = bytearray(self._size)
        if legal:
            for i in action_ids(legal):
                mask[i] = 1
        return {
            "observation": encoding.observation(view, numpy=True),
            "action_mask": np.frombuffer(mask, np.int8),  # (writable: it owns the bytearray)
        }

    def step(self, action: Any) -> None:
        if self.state is None:
            EnvLogger.error_step_before_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        chosen = action_among(action, self._view(self._seat[agent]).legal_actions, self.rules)
        state = apply(self.state, chosen)
        if state.is_chance:
            state = self._resolve_chance(state)
        self.state = state
        self._viewed = None
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            payments = state.result.payments  # type: ignore[union-attr]
            for a in self.agents:
                self.rewards[a] = float(payments[self._seat[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
        else:  # (every reward is 0 until the end: nothing to accumulate)
            self.agent_selection = self.possible_agents[state.to_move]  # type: ignore[index]

    def render(self) -> str | None:
        """Return the deal as text (``render_mode="ansi"``: every hand, the trick, the score)
        or as an SVG picture of the table (``render_mode="svg"``)."""
        if self.render_mode is None or self.state is None:
            return None
        state = self.state
        if self.render_mode == "svg":
            from .. import svg

            return svg.table(state)
        lines = [f"{self.rules.name} · {state.phase.name.lower()} · to move: {state.to_move}"]
        for seat in range(state.players):
            lines.append(f"seat {seat}: {state.hand(seat)}  (tricks {state.tricks_won[seat]})")
        lines.append(f"stock: {state.stock}")
        if state.trick:
            lines.append("trick: " + " ".join(str(c) for c in state.trick))
        if state.result is not None:
            lines.append(f"payments: {state.result.payments}")
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release."""


def raw_env(rules: Union[Ruleset, str] = "cavendish", **kwargs: Any) -> CalabrasellaEnv:
    """Return the environment (PettingZoo's ``raw_env`` convention)."""
    return CalabrasellaEnv(rules, **kwargs)


def env(rules: Union[Ruleset, str] = "cavendish", **kwargs: Any) -> CalabrasellaEnv:
    """Return the environment (PettingZoo's ``env`` convention; no wrappers: the env
    checks its own actions and raises ``IllegalActionError`` for an illegal one)."""
    return CalabrasellaEnv(rules, **kwargs)
