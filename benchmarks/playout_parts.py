"""Where a random deal's time goes, part by part, beside the bare floor: µs a deal.

    python benchmarks/playout_parts.py [--deals N] [--rounds R]

Plays new random deals every round (a seed of their own, never met before),
the bot loop of the README (``legal_actions``, ``random.choice``,
``apply``), and times, per deal:

- ``new_deal`` alone;
- the auction and the exchange through the API (from the new deal to the
  first card of the play, or to the end of a deal nobody bid);
- the play through the API (from the first card to the end);
- ``rollout`` from the first decision of the exchange, and from the first
  card of the play (on states reached by the same loop, made outside the
  timing);
- the bare mutable floor (``shared/bench/floor.py``), interleaved.

Only the public API is used (``state.phase.name``), so the same script
measures an older checkout (``PYTHONPATH=<checkout>/src``) in an A/B.
Medians over rounds; the ratios are medians of each round's ratio to the
floor's deal in the same round (the floor runs first in every round).
"""

from __future__ import annotations

import argparse
import random
import runpy
import statistics
import time
from pathlib import Path

import calabrasella as cb

DEFAULT_FLOOR = Path(__file__).resolve().parents[2] / "shared" / "bench" / "floor.py"
#: The first seed of the rounds (round r draws from FRESH + 1000 r): new deals every round.
FRESH = 3_000_000


def _choose(state: cb.State, rng: random.Random) -> cb.Action:
    if state.is_chance:
        return cb.sample_chance(state, rng)
    return rng.choice(cb.legal_actions(state))


def api_parts(rules: cb.Ruleset, deals: int, seed: int) -> tuple[float, float, float]:
    """µs a deal of ``new_deal``, of the auction and exchange, and of the play (the loop)."""
    rng = random.Random(seed)
    clock = time.perf_counter
    dealt = before = play = 0.0
    for i in range(deals):
        t0 = clock()
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        t1 = clock()
        while not state.is_over and state.phase.name != "PLAYING":
            state = cb.apply(state, _choose(state, rng))
        t2 = clock()
        while not state.is_over:
            state = cb.apply(state, _choose(state, rng))
        t3 = clock()
        dealt += t1 - t0
        before += t2 - t1
        play += t3 - t2
    return dealt / deals * 1e6, before / deals * 1e6, play / deals * 1e6


def rollout_starts(
    rules: cb.Ruleset, deals: int, seed: int
) -> tuple[list[cb.State], list[cb.State]]:
    """The first state of the exchange and of the play of up to ``deals`` new deals that were bid."""
    rng = random.Random(seed)
    exchanges: list[cb.State] = []
    plays: list[cb.State] = []
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        while not state.is_over and state.phase.name == "BIDDING":
            state = cb.apply(state, _choose(state, rng))
        if state.is_over:
            continue
        exchanges.append(state)
        while not state.is_over and state.phase.name != "PLAYING":
            state = cb.apply(state, _choose(state, rng))
        if not state.is_over:
            plays.append(state)
    return exchanges, plays


def rollouts(states: list[cb.State], seed: int) -> float:
    """µs a state of ``rollout`` from each of ``states``."""
    rng = random.Random(seed)
    rollout = cb.rollout
    t0 = time.perf_counter()
    for state in states:
        rollout(state, rng)
    return (time.perf_counter() - t0) / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=7, help="rounds (default 7)")
    parser.add_argument("--floor", type=Path, default=DEFAULT_FLOOR)
    args = parser.parse_args()
    play_hand = runpy.run_path(str(args.floor))["play_hand"]
    rows: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)

    for r in range(args.rounds):
        seed = FRESH + 1000 * r
        rng = random.Random(seed)
        t0 = time.perf_counter()
        for i in range(args.deals):
            play_hand(rng, i % 3)
        add("floor: a whole deal", (time.perf_counter() - t0) / args.deals * 1e6)
        for rules in (cb.CAVENDISH, cb.CALABRESELLA):
            dealt, before, play = api_parts(rules, args.deals, seed + 1)
            add(f"{rules.name}: new_deal", dealt)
            add(f"{rules.name}: auction and exchange (API loop)", before)
            add(f"{rules.name}: play (API loop)", play)
            add(f"{rules.name}: whole deal (API loop)", dealt + before + play)
        exchanges, plays = rollout_starts(cb.CAVENDISH, args.deals, seed + 2)
        add("cavendish: rollout from the exchange's first decision", rollouts(exchanges, seed + 3))
        add("cavendish: rollout from the play's first card", rollouts(plays, seed + 4))
    print(f"calabrasella {cb.__version__}: {args.deals} new deals x {args.rounds} rounds, "
          "medians, µs a deal (wall clock)")  # fmt: skip
    floors = rows["floor: a whole deal"]
    for name, values in rows.items():
        ratio = statistics.median(v / f for v, f in zip(values, floors))
        print(f"  {name:56s} {statistics.median(values):7.1f}   {ratio:5.2f} x the floor's deal")


if __name__ == "__main__":
    main()
