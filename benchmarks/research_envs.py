"""Random legal play through the research interfaces, against the library's own view loop.

Interleaved rounds in one process: the library's view loop (deal, the mover's
view, a random legal action, apply), the PettingZoo env stepped with random
legal ids from its masks (``env.last()`` builds the observation dict, as a
learning loop reads it), and the OpenSpiel game stepped with random legal
actions (``legal_actions`` and ``apply_action``; chance outcomes drawn by
their probabilities). It prints µs per decision of each and the medians of
the per-round ratios to the view loop, with the issue's targets (PettingZoo
at most 2x, OpenSpiel at most 3x). A contender whose extra is not installed
is left out.

``--parts`` adds the env with its observation cut short, to show where a
step's time goes: left out (a constant array: the mask, ``agent_iter``,
``last`` and ``step`` remain), only the view's fields read (a play view
fills its hand, trick and history when first read), and the entries worked
out without the array made.

``--clock cpu`` times with the process's CPU time instead of the wall clock:
on a machine shared with other work, time spent waiting for a core is then
left out of every contender alike.

usage: python benchmarks/research_envs.py [--game cavendish|calabresella] [--deals N] [--rounds R]
                                          [--clock wall|cpu] [--parts]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

# The library's own loop, each decision from the mover's view: the playout benchmark's.
from playout import playout_views as view_loop

import calabrasella as cb


def pettingzoo_loop(rules: cb.Ruleset, deals: int, seed: int) -> int:
    """The PettingZoo env: ``last()`` (observation and mask), a random legal id, ``step``."""
    from calabrasella.envs.pettingzoo import CalabrasellaEnv  # the extra, installed

    rng = random.Random(seed)
    env = CalabrasellaEnv(rules)
    decisions = 0
    for i in range(deals):
        env.reset(seed=seed + i)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(obs["action_mask"].nonzero()[0]))
            decisions += 1
    return decisions


def openspiel_loop(rules: cb.Ruleset, deals: int, seed: int) -> int:
    """The OpenSpiel game: ``legal_actions``, a random one, ``apply_action``."""
    import pyspiel

    from calabrasella.envs import openspiel  # registers the games

    game = pyspiel.load_game(openspiel.game_name(rules), openspiel.game_parameters(rules))
    rng = random.Random(seed)
    decisions = 0
    for _ in range(deals):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probabilities)[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def cut_short(make: Callable[[Any], Any]) -> Callable[[cb.Ruleset, int, int], int]:
    """The PettingZoo loop with the env's observation replaced by ``make(view)``."""
    from calabrasella.envs import pettingzoo

    def short(view: Any, numpy: bool = True) -> Any:
        return make(view)

    def loop(rules: cb.Ruleset, deals: int, seed: int) -> int:
        real = getattr(pettingzoo, "observation")  # noqa: B009 (not an export of the module)
        setattr(pettingzoo, "observation", short)  # noqa: B010 (the env reads the module's name)
        try:
            return pettingzoo_loop(rules, deals, seed)
        finally:
            setattr(pettingzoo, "observation", real)  # noqa: B010

    return loop


def parts(rules: cb.Ruleset) -> dict[str, Callable[[cb.Ruleset, int, int], int]]:
    """The env with its observation cut short at three places (see ``--parts``)."""
    import numpy as np

    from calabrasella import _encoding_observation, encoding

    sized = getattr(encoding, "observation_size", None)  # (an older library: one size for all)
    size = sized(rules) if sized else getattr(encoding, "OBSERVATION_SIZE")  # noqa: B009
    constant = np.zeros(size, np.float32)

    def fields(view: Any) -> Any:
        return (view.hand, view.trick, view.history, constant)[-1]

    def entries(view: Any) -> Any:
        return (_encoding_observation._encode(view), constant)[-1]

    return {
        "pz-no-obs": cut_short(lambda view: constant),
        "pz-fields": cut_short(fields),
        "pz-entries": cut_short(entries),
    }


def available() -> dict[str, Callable[[cb.Ruleset, int, int], int]]:
    contenders: dict[str, Callable[[cb.Ruleset, int, int], int]] = {"views": view_loop}
    try:
        import calabrasella.envs.pettingzoo
    except ImportError:
        print("PettingZoo not installed: left out (pip install 'calabrasella[pettingzoo]')")
    else:
        contenders["pettingzoo"] = pettingzoo_loop
    try:
        import calabrasella.envs.openspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel not installed: left out (pip install 'calabrasella[openspiel]')")
    else:
        contenders["openspiel"] = openspiel_loop
    return contenders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="calabresella", choices=("cavendish", "calabresella"))
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--clock", default="wall", choices=("wall", "cpu"))
    parser.add_argument("--parts", action="store_true")
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    rules = cb.find_ruleset(args.game)
    contenders = available()
    if args.parts and "pettingzoo" in contenders:
        contenders.update(parts(rules))
    per: dict[str, list[float]] = {name: [] for name in contenders}
    for r in range(args.rounds):
        for name, loop in contenders.items():
            started = clock()
            decisions = loop(rules, args.deals, 1000 * r)
            per[name].append((clock() - started) / decisions * 1e6)
    targets: dict[str, Any] = {"pettingzoo": 2.0, "openspiel": 3.0}
    print(f"{args.game}: {args.deals} deals x {args.rounds} rounds, {args.clock} clock")
    for name, times in per.items():
        line = f"  {name:<11} {statistics.median(times):8.1f} µs/decision"
        if name != "views":
            ratio = statistics.median(t / v for t, v in zip(times, per["views"]))
            line += f"   x{ratio:.2f} the view loop"
            if name in targets:
                line += f" (target <= {targets[name]})"
        print(line)


if __name__ == "__main__":
    main()
