"""Random playouts through the public API, interleaved with the bare floor: ratios and µs.

Plays random legal deals exactly as a bot loop would (deal from a seed, list
the legal actions, pick one at random, apply it, until over, read the
result), the same loop choosing from each mover's view, and ``rollout`` from
each deal's first state; runs ``shared/bench/floor.py`` (the bare mutable
playout) in the same process, interleaved round by round, and reports
medians of per-round ratios to it, with the issue's targets.

usage: python benchmarks/playout.py [--deals N] [--rounds R] [--floor PATH]
"""

from __future__ import annotations

import argparse
import random
import runpy
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import calabrasella as cb

DEFAULT_FLOOR = Path(__file__).resolve().parents[2] / "shared" / "bench" / "floor.py"


def playout(rules: cb.Ruleset, deals: int, seed: int) -> int:
    """Play ``deals`` random deals; return the number of decisions made."""
    rng = random.Random(seed)
    choice = rng.choice
    legal_actions, apply = cb.legal_actions, cb.apply
    decisions = 0
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = apply(state, cb.sample_chance(state, rng))
                continue
            state = apply(state, choice(legal_actions(state)))
            decisions += 1
        assert state.result is not None
    return decisions


def playout_views(rules: cb.Ruleset, deals: int, seed: int) -> int:
    """Like :func:`playout`, but each decision is made from the mover's view."""
    rng = random.Random(seed)
    decisions = 0
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
                continue
            view = state.view(state.to_move)  # type: ignore[arg-type]
            state = cb.apply(state, rng.choice(view.legal_actions))
            decisions += 1
    return decisions


def first_states(rules: cb.Ruleset, deals: int, seed: int) -> list[cb.State]:
    """Return the first state of ``deals`` deals (made outside the timed rollouts)."""
    rng = random.Random(seed)
    return [cb.new_deal(rules, dealer=i % 3, seed=rng) for i in range(deals)]


def rollouts(states: list[cb.State], seed: int) -> None:
    """Play each of ``states`` to the end with :func:`calabrasella.rollout`."""
    rng = random.Random(seed)
    rollout = cb.rollout
    for state in states:
        rollout(state, rng)


def rollouts_with_deals(rules: cb.Ruleset, deals: int, seed: int) -> None:
    """Deal from a seed and roll out, ``deals`` times (the floor's own work: it deals too)."""
    rng = random.Random(seed)
    rollout, new_deal = cb.rollout, cb.new_deal
    for i in range(deals):
        rollout(new_deal(rules, dealer=i % 3, seed=rng), rng)


def per_decision_us(rules: cb.Ruleset, deals: int, seed: int) -> tuple[float, float]:
    """Return the median µs of ``legal_actions`` + ``apply``, and of ``view``, per decision."""
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    step: list[int] = []
    looks: list[int] = []
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
                continue
            seat: int = state.to_move  # type: ignore[assignment]
            t0 = clock()
            actions = cb.legal_actions(state)
            t1 = clock()
            action = rng.choice(actions)
            t2 = clock()
            new = cb.apply(state, action)
            t3 = clock()
            state.view(seat)
            t4 = clock()
            step.append(t1 - t0 + t3 - t2)
            looks.append(t4 - t3)
            state = new
    return statistics.median(step) / 1000, statistics.median(looks) / 1000


def rounds_of(
    fns: dict[str, Callable[[], object]], deals: int, rounds: int, prepare: Callable[[], None]
) -> dict[str, list[float]]:
    """Run each of ``fns`` once per round, interleaved, and return deals/s per round.

    Interleaving puts each round of every contender in the same moment of a
    shared, noisy machine, so per-round ratios are fair even when the machine
    is busy. ``prepare`` runs before each round, untimed.
    """
    rates: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        prepare()
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            rates[name].append(deals / (time.perf_counter() - t0))
    return rates


def floor_runner(path: Path, deals: int) -> Callable[[], object]:
    """Return a function that plays ``deals`` bare floor deals (``shared/bench/floor.py``)."""
    play_hand = runpy.run_path(str(path))["play_hand"]

    def run() -> None:
        rng = random.Random(1)
        for i in range(deals):
            play_hand(rng, i % 3)

    return run


def median_ratio(rates: dict[str, list[float]], top: str, bottom: str) -> float:
    """Return the median over rounds of ``rates[top] / rates[bottom]``."""
    return statistics.median(a / b for a, b in zip(rates[top], rates[bottom]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per round (default 300)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    parser.add_argument("--floor", type=Path, default=DEFAULT_FLOOR)
    args = parser.parse_args()
    deals, rounds = args.deals, args.rounds
    print(f"calabrasella {cb.__version__}: {deals} deals x {rounds} interleaved rounds, medians")
    starts: list[cb.State] = []

    def prepare() -> None:
        starts[:] = first_states(cb.CAVENDISH, deals, 3)

    fns: dict[str, Callable[[], object]] = {}
    if args.floor.exists():
        fns["floor"] = floor_runner(args.floor, deals)
    fns["cavendish"] = lambda: playout(cb.CAVENDISH, deals, 1)
    fns["calabresella"] = lambda: playout(cb.CALABRESELLA, deals, 1)
    fns["cavendish_views"] = lambda: playout_views(cb.CAVENDISH, deals, 1)
    if hasattr(cb, "rollout"):  # (to measure a version from before it, too)
        fns["rollout"] = lambda: rollouts(starts, 4)
        fns["deal_and_rollout"] = lambda: rollouts_with_deals(cb.CAVENDISH, deals, 5)
    rates = rounds_of(fns, deals, rounds, prepare)
    med = {name: statistics.median(r) for name, r in rates.items()}
    decisions = playout(cb.CAVENDISH, deals, 1) / deals
    cal_decisions = playout(cb.CALABRESELLA, deals, 1) / deals
    step_cav, view_cav = per_decision_us(cb.CAVENDISH, deals, 2)
    step_cal, view_cal = per_decision_us(cb.CALABRESELLA, deals, 2)
    if "floor" in med:
        print(f"floor (bare mutable playout)        {med['floor']:9.0f} deals/s")
    print(f"cavendish: legal_actions + apply    {med['cavendish']:9.0f} deals/s"
          f"  ({decisions:.1f} decisions/deal)")
    print(f"calabresella: same loop             {med['calabresella']:9.0f} deals/s"
          f"  ({cal_decisions:.1f} decisions/deal)")
    print(f"cavendish: choosing from views      {med['cavendish_views']:9.0f} deals/s")
    if "rollout" in med:
        print(f"cavendish: rollout from first state {med['rollout']:9.0f} deals/s")
        print(f"cavendish: new_deal + rollout       {med['deal_and_rollout']:9.0f} deals/s")
    print(f"per decision, cavendish:    legal_actions + apply {step_cav:.2f} µs,"
          f" view {view_cav:.2f} µs (target <= 2)")
    print(f"per decision, calabresella: legal_actions + apply {step_cal:.2f} µs,"
          f" view {view_cal:.2f} µs")
    if "floor" in med:
        for name, label, target in (
            ("cavendish", "ratio cavendish / floor", ">= 0.35"),
            ("calabresella", "ratio calabresella / floor", ">= 0.33"),
            ("rollout", "ratio rollout / floor", ">= 1.0"),
            ("deal_and_rollout", "ratio new_deal + rollout / floor", "(no target)"),
        ):
            if name in rates:
                print(f"{label:35s} {median_ratio(rates, name, 'floor'):9.3f}  (target {target})")
    print(f"{'ratio views loop / states loop':35s} "
          f"{median_ratio(rates, 'cavendish_views', 'cavendish'):9.3f}  (target >= 0.5)")
    print(f"{'cost calabresella / cavendish':35s} "
          f"{median_ratio(rates, 'cavendish', 'calabresella'):9.3f}  (target <= 1.1)")


if __name__ == "__main__":
    main()
