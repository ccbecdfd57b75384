"""Hidden-card sampling: µs to build a sampler and µs per sampled world, at points of a deal.

Plays seeded random deals of each game, stops at a few points (the auction,
the first trick, six tricks played, ten tricks played), and for the
declarer's view and an adversary's view builds a
:class:`calabrasella.bots.sampling.Sampler` and draws worlds from it. Prints
the median µs of building one, and of one :meth:`~Sampler.sample` (which
deals the world and replays its history through the public API, then checks
its view), over the deals.

With ``--memory N`` it measures memory instead: one
:class:`~calabrasella.bots.sampling_bot.SamplingBot` (its default settings,
or the keyword arguments of ``--bot-options``, JSON) plays N deals against
two heuristic bots in one process, seats and games rotated, and the peak
resident set size (``ru_maxrss``) is printed every 25 deals.

usage: python benchmarks/sampling.py [--deals N] [--worlds W] [--seed S]
       python benchmarks/sampling.py --memory N [--bot-options JSON] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

import calabrasella as cb
from calabrasella.bots.sampling import Sampler

POINTS: dict[str, Callable[[cb.State], bool]] = {
    "auction": lambda s: s.phase is cb.Phase.BIDDING,
    "first trick": lambda s: s.phase is cb.Phase.PLAYING and s.tricks_played == 0,
    "6 tricks played": lambda s: s.phase is cb.Phase.PLAYING and s.tricks_played == 6,
    "10 tricks played": lambda s: s.phase is cb.Phase.PLAYING and s.tricks_played == 10,
}
GAMES: dict[str, tuple[cb.Ruleset, tuple[str, ...]]] = {
    "cavendish stand": (cb.CAVENDISH, ("bid stand",)),
    "calabresella chiamo": (cb.CALABRESELLA, ("bid chiamo", "pass", "pass")),
    "calabresella solissimo dividete": (cb.CALABRESELLA, ("bid solissimo", "raise dividete")),
}


def deal_states(rules: cb.Ruleset, script: tuple[str, ...], seed: int) -> list[cb.State]:
    """One random deal that follows ``script`` then random legal moves; every state."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=0, seed=seed)
    states = [state]
    for text in script:
        state = cb.apply(state, cb.parse_action(text))
        states.append(state)
    while not state.is_over:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        states.append(state)
    return states


def measure(
    deals: int, worlds: int, seed: int
) -> dict[tuple[str, str, str], tuple[list[float], list[float]]]:
    """Return, per (game, point, whose view), the µs of each build and the µs per world."""
    out: dict[tuple[str, str, str], tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    clock = time.perf_counter
    rng = random.Random(seed)
    for game, (rules, script) in GAMES.items():
        for i in range(deals):
            states = deal_states(rules, script, seed * 1000 + i)
            declarer = states[-1].declarer
            for point, at in POINTS.items():
                state = next((s for s in states if at(s)), None)
                if state is None:
                    continue
                seats = (
                    {"eldest": 1}
                    if declarer is None or point == "auction"
                    else {
                        "declarer": declarer,
                        "adversary": (declarer + 1) % 3,
                    }
                )
                for who, seat in seats.items():
                    view = state.view(seat)
                    t0 = clock()
                    sampler = Sampler(view)
                    t1 = clock()
                    for _ in range(worlds):
                        sampler.sample(rng)
                    t2 = clock()
                    builds, draws = out[(game, point, who)]
                    builds.append((t1 - t0) * 1e6)
                    draws.append((t2 - t1) * 1e6 / worlds)
    return out


def memory(deals: int, options: dict[str, object], seed: int) -> None:
    """Play ``deals`` deals, one sampling bot against two heuristic bots; print peak RSS."""
    from calabrasella.bots.heuristic import HeuristicBot
    from calabrasella.bots.play import play_deal
    from calabrasella.bots.sampling_bot import SamplingBot

    t0 = time.perf_counter()
    for i in range(deals):
        rules = (cb.CAVENDISH, cb.CALABRESELLA)[i % 2]
        bots: list[object] = [HeuristicBot(seed * 7919 + i * 3 + k) for k in range(3)]
        bots[i % 3] = SamplingBot(seed * 7919 + i, **options)  # type: ignore[arg-type]
        play_deal(rules, bots, seed * 1000 + i)  # type: ignore[arg-type]
        if (i + 1) % 25 == 0 or i + 1 == deals:
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
            print(
                f"{i + 1:4} deals, {time.perf_counter() - t0:7.1f} s: peak RSS {peak:6.1f} MiB",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per game (default 20)")
    parser.add_argument("--worlds", type=int, default=100, help="worlds per view (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory", type=int, default=0, help="deals of the memory run")
    parser.add_argument("--bot-options", default="{}", help="the sampling bot's, as JSON")
    args = parser.parse_args()
    if args.memory:
        memory(args.memory, json.loads(args.bot_options), args.seed)
        return
    results = measure(args.deals, args.worlds, args.seed)
    print(f"{'game':34} {'point':17} {'view':10} {'views':>5} {'build µs':>9} {'µs/world':>9}")
    for (game, point, who), (builds, draws) in results.items():
        print(
            f"{game:34} {point:17} {who:10} {len(builds):5} "
            f"{statistics.median(builds):9.0f} {statistics.median(draws):9.0f}"
        )


if __name__ == "__main__":
    main()
