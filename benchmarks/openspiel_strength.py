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
seconds) as JSON; ``--combine FILE ...`` pools saved runs of one experiment
(the same game, opponent, options and simulations, each seed once) and
prints the mean and interval over all their deals.

usage: python benchmarks/openspiel_strength.py [--game calabresella] [--opponent heuristic|sampling]
                                               [--deals N] [--simulations S] [--seed N]
                                               [--opponent-options JSON] [--save FILE]
       python benchmarks/openspiel_strength.py --combine FILE [FILE ...]
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


def interval(payments: list[float]) -> tuple[float, float, float]:
    """The mean of ``payments`` and its 95% interval (normal approximation)."""
    mean = statistics.fmean(payments)
    half = 1.96 * statistics.stdev(payments) / math.sqrt(len(payments)) if len(payments) > 1 else math.inf
    return mean, mean - half, mean + half


def combine(paths: list[str]) -> None:
    """Pool saved runs of one experiment and print IS-MCTS's mean and interval."""
    keys = ("game", "opponent", "opponent_options", "simulations")
    first: dict[str, Any] = {}
    seeds: set[int] = set()
    payments: list[float] = []
    for path in paths:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
        if not first:
            first = data
        differ = [key for key in keys if data[key] != first[key]]
        if differ:
            raise SystemExit(f"{path}: not the same experiment ({differ[0]} differs)")
        if data["seed"] in seeds:
            raise SystemExit(f"{path}: seed {data['seed']} twice")
        seeds.add(data["seed"])
        payments.extend(data["payments"])
    mean, low, high = interval(payments)
    print(
        f"{first['game']}: IS-MCTS ({first['simulations']} simulations) vs {first['opponent']} "
        f"{json.dumps(first['opponent_options'])}, {len(payments)} deals, seeds {sorted(seeds)}"
    )
    print(f"  IS-MCTS        {mean:+7.2f} a deal  95% CI [{low:+.2f}, {high:+.2f}]")


def main() -> None:
    import sys

    if sys.argv[1:2] == ["--combine"]:
        combine(sys.argv[2:])
        return
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
