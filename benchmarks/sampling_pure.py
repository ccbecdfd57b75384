"""What the default sampling bot's first decision of the play costs with each build of the search.

For each deal (dealt from its seed, bid and exchanged by heuristic bots,
the two games alternating), the seat on lead at the first trick chooses
its card with the default :class:`SamplingBot` searching every trick
(``SamplingBot(seed, search_from=12)``: what a compiled install plays),
once with the compiled search and once with the pure-Python one, in one
run; prints the CPU seconds of each, and whether the two chose the same
card (they must: the builds give the same values).

usage: python benchmarks/sampling_pure.py [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import calabrasella as cb
from calabrasella.bots import solver
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling_bot import SamplingBot


def first_lead(rules: cb.Ruleset, seed: int) -> cb.State:
    """The deal of ``seed`` at its first lead, bid and exchanged by heuristic bots."""
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(seed * 3 + seat)) for seat in range(rules.players)]
    state = cb.new_deal(rules, dealer=seed % 3, seed=seed)
    while not state.is_over and state.phase is not cb.Phase.PLAYING:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            seat = state.to_move
            assert seat is not None
            state = cb.apply(state, bots[seat].choose(state.view(seat)))
    return state


def main() -> None:
    """Time the first decisions and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--seed", type=int, default=100)
    args = parser.parse_args()
    if not solver.COMPILED:
        raise SystemExit("the compiled search is not in use: nothing to compare")
    cpu: dict[str, list[float]] = {"compiled": [], "pure": []}
    seed = args.seed
    while len(cpu["pure"]) < args.deals:
        rules = (cb.CAVENDISH, cb.CALABRESELLA)[len(cpu["pure"]) % 2]
        state = first_lead(rules, seed)
        seed += 1
        if state.is_over:
            continue  # everybody passed
        seat = state.to_move
        assert seat is not None
        chosen = {}
        for build in ("compiled", "pure"):
            solver._native = build == "compiled"
            start = time.process_time()
            chosen[build] = SamplingBot(seed, search_from=12).choose(state.view(seat))
            cpu[build].append(time.process_time() - start)
        solver._native = solver.COMPILED
        same = "same card" if chosen["compiled"] == chosen["pure"] else "DIFFERENT cards"
        print(
            f"{rules.name} seed {seed - 1}: compiled {cpu['compiled'][-1]:.2f} s, "
            f"pure {cpu['pure'][-1]:.2f} s CPU; {same}",
            flush=True,
        )
    print(
        f"median: compiled {statistics.median(cpu['compiled']):.2f} s, "
        f"pure {statistics.median(cpu['pure']):.2f} s CPU a first decision"
    )


if __name__ == "__main__":
    main()
