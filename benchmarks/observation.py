"""The cost of an observation vector, on views of freshly dealt deals.

Each round deals new deals (seeds never used by an earlier round), plays them
out at random and takes every seat's view of every state, in deal order (the
order an environment asks for them). Then it times, over those views:
``encoding.observation(view)`` (a list), ``observation(view, numpy=True)``
and, where the library has it, the information-state vector
``observation(view, numpy=True, recall=True)``. Views are built outside the
clock; the encoder's reading of recent histories works as it does in an
environment (each view extends the one before it). It prints the median µs
per view over the rounds, and the vector sizes.

``--clock cpu`` times with the process's CPU time (a shared machine's waits left out).

usage: python benchmarks/observation.py [--game cavendish|calabresella] [--deals N] [--rounds R]
                                        [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import calabrasella as cb
from calabrasella import encoding


def deal_views(rules: cb.Ruleset, seed: int) -> list[cb.View]:
    """Every seat's view of every state of a random deal, in order."""
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % rules.players, seed=seed)
    views = []
    while True:
        views += [state.view(seat) for seat in range(rules.players)]
        if state.is_over:
            return views
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        else:
            state = cb.apply(state, rng.choice(state.legal_actions()))


def timed(views: list[cb.View], clock: Any, **kwargs: Any) -> float:
    """µs per view of ``encoding.observation(view, **kwargs)``."""
    observation = encoding.observation
    started = clock()
    for view in views:
        observation(view, **kwargs)
    return float(clock() - started) / len(views) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="calabresella", choices=("cavendish", "calabresella"))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--clock", default="wall", choices=("wall", "cpu"))
    args = parser.parse_args()
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    rules = cb.find_ruleset(args.game)
    try:
        import numpy  # noqa: F401
    except ImportError:
        numpy_ok = False
    else:
        numpy_ok = True
    recall = "recall" in encoding.observation.__code__.co_varnames
    kinds: dict[str, dict[str, Any]] = {"list": {}}
    if numpy_ok:
        kinds["numpy"] = {"numpy": True}
        if recall:
            kinds["numpy, recall"] = {"numpy": True, "recall": True}
    per: dict[str, list[float]] = {name: [] for name in kinds}
    count = 0
    for r in range(args.rounds):
        views = [v for i in range(args.deals) for v in deal_views(rules, 7919 * (r + 1) + i)]
        count += len(views)
        for name, kwargs in kinds.items():
            per[name].append(timed(views, clock, **kwargs))
    view = deal_views(rules, 1)[0]
    sizes = {"list": len(encoding.observation(view))}
    if recall:
        sizes["numpy, recall"] = len(encoding.observation(view, recall=True))
    print(f"{args.game}: {args.deals} fresh deals x {args.rounds} rounds, {count} views, {args.clock} clock")
    for name, times in per.items():
        size = sizes.get(name, sizes["list"])
        print(f"  {name:<14} {statistics.median(times):7.2f} µs/view  ({size} entries)")


if __name__ == "__main__":
    main()
