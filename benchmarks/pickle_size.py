"""Pickled states: their size, and the µs to dump and load one, for process pools and caches.

Plays random deals, keeps a mid-deal state of each (a state of the play,
half-way through it) and reports the pickle's size (mean and largest), and
the median over rounds of the µs per state to ``pickle.dumps`` and to
``pickle.loads``: "one state of each deal" (each state from another deal,
as a pool handing out positions sees them) and "the states of one deal"
(every state of a deal in a row, which share their exchange record).

usage: python benchmarks/pickle_size.py [--deals N] [--rounds R]
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import time

import calabrasella as cb


def mid_deal_states(rules: cb.Ruleset, deals: int, seed: int) -> list[cb.State]:
    """Return a state half-way through the play of each of ``deals`` random deals played out."""
    rng = random.Random(seed)
    found: list[cb.State] = []
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % rules.players, seed=rng)
        play: list[cb.State] = []
        while not state.is_over:
            if state.phase is cb.Phase.PLAYING:
                play.append(state)
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))
        if play:
            found.append(play[len(play) // 2])
    return found


def one_deal(rules: cb.Ruleset, seed: int) -> list[cb.State]:
    """Return every state of one random deal that reaches the play."""
    rng = random.Random(seed)
    while True:
        state = cb.new_deal(rules, seed=rng)
        states = [state]
        while not state.is_over:
            state = cb.apply(state, rng.choice(cb.legal_actions(state)))
            states.append(state)
        if state.exchange is not None:
            return states


def timed(states: list[cb.State], rounds: int) -> tuple[float, float]:
    """Return the median µs per state to dump, and to load, over ``rounds`` rounds."""
    dumps: list[float] = []
    loads: list[float] = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        data = [pickle.dumps(s) for s in states]
        t1 = time.perf_counter()
        for d in data:
            pickle.loads(d)
        t2 = time.perf_counter()
        dumps.append((t1 - t0) / len(states) * 1e6)
        loads.append((t2 - t1) / len(states) * 1e6)
    return statistics.median(dumps), statistics.median(loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    print(f"calabrasella {cb.__version__}: pickle protocol {pickle.DEFAULT_PROTOCOL}")
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        states = mid_deal_states(rules, args.deals, 1)
        sizes = [len(pickle.dumps(s)) for s in states]
        for s in states:
            assert pickle.loads(pickle.dumps(s)) == s
        cold = timed(states, args.rounds)
        warm = timed(one_deal(rules, 2), args.rounds * 20)
        print(
            f"{rules.name:13s} mid-deal state: {statistics.mean(sizes):5.0f} bytes on average,"
            f" {max(sizes)} at most (target <= 800)"
        )
        print(
            f"{'':13s} one state of each deal: dump {cold[0]:5.1f} µs + load {cold[1]:5.1f} µs"
            f" = {sum(cold):5.1f} µs (target < 25)"
        )
        print(
            f"{'':13s} the states of one deal: dump {warm[0]:5.1f} µs + load {warm[1]:5.1f} µs"
            f" = {sum(warm):5.1f} µs"
        )


if __name__ == "__main__":
    main()
