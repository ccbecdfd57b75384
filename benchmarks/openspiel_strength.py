"""OpenSpiel's IS-MCTS against the library's HeuristicBot or SamplingBot, seats rotated.

Plays ``--deals`` deals of the OpenSpiel game (``calabrasella[openspiel]``):
IS-MCTS (random-rollout evaluator, ``--simulations`` a decision) in one seat,
the library's bot in the other two; IS-MCTS moves on one seat a deal and the
dealer every three deals, so it sits in every seat and position equally.
Prints IS-MCTS's mean payment a deal with a 95% confidence interval (and the
opponents' mean a seat). A benchmark, not a test: it takes minutes.

``--opponent-options`` passes keyword arguments to the opponents' bot, as
JSON (``null`` for None); ``--save FILE`` writes the run (its options, each
deal's payment to IS-MCTS, the mean, the interval and the CPU and wall
seconds) as JSON.

usage: python benchmarks/openspiel_strength.py [--game calabresella] [--opponent heuristic|sampling]
                                               [--deals N] [--simulations S] [--seed N]
                                               [--opponent-options JSON] [--save FILE]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import statistics
import time
from typing import Any

from calabrasella import encoding
from calabrasella.bots.base import Bot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling_bot import SamplingBot


def play(game: Any, searcher: Any, seat: int, opponents: dict[int, Bot], rng: random.Random) -> list[float]:
    """Play one deal; return the payments."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probabilities)[0])
        elif state.current_player() == seat:
            state.apply_action(searcher.step(state))
        else:
            player = state.current_player()
            action = opponents[player].choose(state.view(player))
            state.apply_action(encoding.action_id(action))
    return [float(x) for x in state.returns()]


def main() -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import calabrasella.envs.openspiel  # noqa: F401  (registers the games)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="calabresella", choices=("calabrasella", "calabresella"))
    parser.add_argument("--opponent", default="heuristic", choices=("heuristic", "sampling"))
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent-options", default="{}", help="JSON keyword arguments")
    parser.add_argument("--save", help="write the run as JSON to this file")
    args = parser.parse_args()
    options = json.loads(args.opponent_options)
    if not isinstance(options, dict):
        raise SystemExit(f"--opponent-options: expected a JSON object, got {args.opponent_options!r}")
    games = [pyspiel.load_game(f"python_{args.game}", {"dealer": d}) for d in range(3)]
    rng = random.Random(args.seed)
    rs = np.random.RandomState(args.seed)
    mine: list[float] = []
    theirs: list[float] = []
    started = time.perf_counter()
    cpu = time.process_time()
    for i in range(args.deals):
        seat, dealer = i % 3, (i // 3) % 3
        game = games[dealer]
        searcher = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), 2.0, args.simulations, random_state=rs
        )
        factory: Any = HeuristicBot if args.opponent == "heuristic" else SamplingBot
        if options:
            factory = functools.partial(factory, **options)
        opponents: dict[int, Bot] = {s: factory(rng.getrandbits(32)) for s in range(3) if s != seat}
        payments = play(game, searcher, seat, opponents, rng)
        mine.append(payments[seat])
        theirs.extend(payments[s] for s in opponents)
    mean = statistics.fmean(mine)
    half = 1.96 * statistics.stdev(mine) / math.sqrt(len(mine)) if len(mine) > 1 else math.inf
    print(
        f"{args.game}: IS-MCTS ({args.simulations} simulations) vs {args.opponent}, "
        f"{args.deals} deals, seats rotated, {time.perf_counter() - started:.0f}s"
    )
    print(f"  IS-MCTS        {mean:+7.2f} a deal  95% CI [{mean - half:+.2f}, {mean + half:+.2f}]")
    print(f"  {args.opponent:<14} {statistics.fmean(theirs):+7.2f} a deal a seat")
    if args.save:
        data = {
            "game": args.game,
            "opponent": args.opponent,
            "opponent_options": options,
            "simulations": args.simulations,
            "seed": args.seed,
            "deals": args.deals,
            "payments": mine,
            "mean": mean,
            "ci95": [mean - half, mean + half],
            "opponents_mean": statistics.fmean(theirs),
            "wall_seconds": round(time.perf_counter() - started, 1),
            "cpu_seconds": round(time.process_time() - cpu, 1),
        }
        with open(args.save, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)
            out.write("\n")


if __name__ == "__main__":
    main()
