"""Random playouts through the public API, interleaved with the bare floor: ratios and µs.

Plays random legal deals exactly as a bot loop would (deal from a seed, list
the legal actions, pick one at random, apply it, until over, read the
result), the same loop choosing from each mover's view, and ``rollout`` from
each deal's first state; runs ``shared/bench/floor.py`` (the bare mutable
playout) in the same process, interleaved round by round, and reports
medians of per-round ratios to it, with the issue's targets.

Every round draws new deals (a seed of its own: the engine never met them,
so no cache of it answers them), as a program playing deal after deal meets
them; "warm" figures beside them replay the same deals every round, for
comparison only. It also reports, on Cavendish states half-way through the
play of new deals, the µs to build the mover's view the first time (cold)
and again (warm); to build it and read its history (cold, on other new
deals: a view works out what its seat was told of the exchange when that
is first read); and of a pickle round trip; and µs an action by phase,
cold and warm, for both games.

usage: python benchmarks/playout.py [--deals N] [--rounds R] [--floor PATH] [--clock wall|cpu]
"""

from __future__ import annotations

import argparse
import os
import pickle
import random
import runpy
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pickle_size import mid_deal_states  # (the same states: half-way through the play)

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


def by_phase(rules: cb.Ruleset, deals: int, seed: int) -> dict[str, tuple[int, int, int]]:
    """Play ``deals`` random deals; return, by phase, the ns of ``legal_actions`` + ``apply``,
    the ns of the mover's ``view``, and the number of actions (chance outcomes left out)."""
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    legal_actions, apply = cb.legal_actions, cb.apply
    totals: dict[str, list[int]] = {}
    for i in range(deals):
        state = cb.new_deal(rules, dealer=i % 3, seed=rng)
        while not state.is_over:
            if state.is_chance:
                state = apply(state, cb.sample_chance(state, rng))
                continue
            seat: int = state.to_move  # type: ignore[assignment]
            t0 = clock()
            actions = legal_actions(state)
            t1 = clock()
            action = rng.choice(actions)
            t2 = clock()
            new = apply(state, action)
            t3 = clock()
            state.view(seat)
            t4 = clock()
            row = totals.get(state.phase.name)
            if row is None:
                row = totals[state.phase.name] = [0, 0, 0]
            row[0] += t1 - t0 + t3 - t2
            row[1] += t4 - t3
            row[2] += 1
            state = new
    return {name: (row[0], row[1], row[2]) for name, row in totals.items()}


def views_of(states: list[cb.State]) -> float:
    """Return the µs per state to build the mover's view of each of ``states``."""
    t0 = CLOCK[0]()
    for state in states:
        state.view(state.to_move)  # type: ignore[arg-type]
    return (CLOCK[0]() - t0) / len(states) * 1e6


def views_read(states: list[cb.State]) -> float:
    """Return the µs per state to build the mover's view of each of ``states`` and read its
    history (what the seat was told of the exchange is worked out when first read)."""
    t0 = CLOCK[0]()
    for state in states:
        state.view(state.to_move).history  # type: ignore[arg-type]  # noqa: B018
    return (CLOCK[0]() - t0) / len(states) * 1e6


def pickle_round_trips(states: list[cb.State]) -> float:
    """Return the µs per state of ``pickle.loads(pickle.dumps(state))`` over ``states``."""
    dumps, loads = pickle.dumps, pickle.loads
    t0 = CLOCK[0]()
    for state in states:
        loads(dumps(state))
    return (CLOCK[0]() - t0) / len(states) * 1e6


def rounds_of(
    fns: dict[str, Callable[[int], object]],
    deals: int,
    rounds: int,
    prepare: Callable[[int], None],
) -> dict[str, list[float]]:
    """Run each of ``fns`` once per round, interleaved, and return deals/s per round.

    Each function is given the round's seed, a new one every round: a
    contender that must play new deals draws them from it (one that replays
    the same deals on purpose, a "warm" one, ignores it). Interleaving puts
    each round of every contender in the same moment of a shared, noisy
    machine, so per-round ratios are fair even when the machine is busy.
    ``prepare`` runs before each round, untimed, with the round's seed.
    """
    rates: dict[str, list[float]] = {name: [] for name in fns}
    for r in range(rounds):
        seed = FRESH + 1000 * r
        prepare(seed)
        for name, fn in fns.items():
            t0 = CLOCK[0]()
            fn(seed)
            rates[name].append(deals / (CLOCK[0]() - t0))
    return rates


#: The clock of the rounds, the views and the pickles: the wall clock, or with
#: ``--clock cpu`` the process's CPU time (on a busy shared machine the time
#: the process waited for a core is then left out). The µs by phase are timed
#: on the wall clock either way (a CPU-time reading per action costs a system call).
CLOCK: list[Callable[[], float]] = [time.perf_counter]

#: The first seed of the fresh rounds (round r draws from FRESH + 1000 r + a few):
#: far from the warm contenders' seeds 1 to 9, which replay their deals every round.
FRESH = 1_000_000


def floor_runner(path: Path, deals: int) -> Callable[[int], object]:
    """Return a function that plays ``deals`` bare floor deals (``shared/bench/floor.py``)."""
    play_hand = runpy.run_path(str(path))["play_hand"]

    def run(seed: int) -> None:
        rng = random.Random(seed)
        for i in range(deals):
            play_hand(rng, i % 3)

    return run


def median_ratio(rates: dict[str, list[float]], top: str, bottom: str) -> float:
    """Return the median over rounds of ``rates[top] / rates[bottom]``."""
    return statistics.median(a / b for a, b in zip(rates[top], rates[bottom]))


PHASES = ("BIDDING", "CALLING", "GIVING_BACK", "DISCARDING", "TAKING", "RAISING", "PLAYING")


def phase_table(rules: cb.Ruleset, deals: int, rounds: int) -> None:
    """Print µs an action by phase, cold (new deals every round) and warm (the same deals)."""
    cold: dict[str, list[float]] = {}
    warm: dict[str, list[float]] = {}
    cold_views: dict[str, list[float]] = {}
    warm_views: dict[str, list[float]] = {}
    by_phase(rules, deals, 7)  # the warm deals, played once before the rounds
    for r in range(rounds):
        for seed, step, look in ((FRESH + 1000 * r + 7, cold, cold_views), (7, warm, warm_views)):
            for name, (ns, view_ns, n) in by_phase(rules, deals, seed).items():
                step.setdefault(name, []).append(ns / n / 1000)
                look.setdefault(name, []).append(view_ns / n / 1000)
    print(f"{rules.name}: µs an action by phase (legal_actions + apply; the mover's view)")
    print(f"  {'phase':12s} {'cold':>7s} {'warm':>7s}   {'view cold':>9s} {'view warm':>9s}")
    for name in PHASES:
        if name not in cold:
            continue
        print(
            f"  {name.lower():12s} {statistics.median(cold[name]):7.2f}"
            f" {statistics.median(warm.get(name, [0.0])):7.2f}"
            f"   {statistics.median(cold_views[name]):9.2f}"
            f" {statistics.median(warm_views.get(name, [0.0])):9.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per round (default 300)")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds (default 15)")
    parser.add_argument("--floor", type=Path, default=DEFAULT_FLOOR)
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall",
        help="time the rounds on the wall clock (default) or the process's CPU time",
    )
    args = parser.parse_args()
    deals, rounds = args.deals, args.rounds
    CLOCK[0] = time.perf_counter if args.clock == "wall" else time.process_time
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"calabrasella {cb.__version__}: {deals} deals x {rounds} interleaved rounds, medians,"
        f" {args.clock} clock; load average {load:.2f} at the start"
    )
    starts: list[cb.State] = []
    mids: list[cb.State] = []
    others: list[cb.State] = []

    def prepare(seed: int) -> None:
        starts[:] = first_states(cb.CAVENDISH, deals, seed + 3)
        mids[:] = mid_deal_states(cb.CAVENDISH, deals, seed + 8)
        others[:] = mid_deal_states(cb.CAVENDISH, deals, seed + 9)

    views: list[tuple[float, float]] = []
    read: list[float] = []
    pickles: list[tuple[float, float]] = []

    def views_and_pickles(_: int) -> None:  # (each twice: cold, then warm on the same states)
        views.append((views_of(mids), views_of(mids)))
        read.append(views_read(others))  # (cold, on states of other new deals)
        pickles.append((pickle_round_trips(mids), pickle_round_trips(mids)))

    fns: dict[str, Callable[[int], object]] = {}
    if args.floor.exists():
        fns["floor"] = floor_runner(args.floor, deals)
    fns["cavendish"] = lambda seed: playout(cb.CAVENDISH, deals, seed + 1)
    fns["cavendish_warm"] = lambda _: playout(cb.CAVENDISH, deals, 1)
    fns["calabresella"] = lambda seed: playout(cb.CALABRESELLA, deals, seed + 2)
    fns["calabresella_warm"] = lambda _: playout(cb.CALABRESELLA, deals, 2)
    fns["cavendish_views"] = lambda seed: playout_views(cb.CAVENDISH, deals, seed + 4)
    if hasattr(cb, "rollout"):  # (to measure a version from before it, too)
        fns["rollout"] = lambda _: rollouts(starts, 4)
        fns["deal_and_rollout"] = lambda seed: rollouts_with_deals(cb.CAVENDISH, deals, seed + 5)
    fns["views_and_pickles"] = views_and_pickles  # (its deals/s is not reported)
    playout(cb.CAVENDISH, deals, 1)  # the warm contenders' deals, played once before the rounds
    playout(cb.CALABRESELLA, deals, 2)
    rates = rounds_of(fns, deals, rounds, prepare)
    med = {name: statistics.median(r) for name, r in rates.items()}
    decisions = playout(cb.CAVENDISH, deals, 1) / deals
    cal_decisions = playout(cb.CALABRESELLA, deals, 2) / deals
    print("deals/s (new deals every round; warm: the same deals every round)")
    if "floor" in med:
        print(f"  floor (bare mutable playout)          {med['floor']:9.0f}")
    print(f"  cavendish: legal_actions + apply      {med['cavendish']:9.0f}"
          f"  warm {med['cavendish_warm']:7.0f}  ({decisions:.1f} decisions/deal)")
    print(f"  calabresella: same loop               {med['calabresella']:9.0f}"
          f"  warm {med['calabresella_warm']:7.0f}  ({cal_decisions:.1f} decisions/deal)")
    print(f"  cavendish: choosing from views        {med['cavendish_views']:9.0f}")
    if "rollout" in med:
        print(f"  cavendish: rollout from a new deal    {med['rollout']:9.0f}")
        print(f"  cavendish: new_deal + rollout         {med['deal_and_rollout']:9.0f}")
    if "floor" in med:
        print("ratios to the floor (median of per-round ratios)")
        for name, label, target in (
            ("cavendish", "cavendish / floor", ">= 0.35"),
            ("cavendish_warm", "cavendish warm / floor", ""),
            ("calabresella", "calabresella / floor", ">= 0.33"),
            ("calabresella_warm", "calabresella warm / floor", ""),
            ("rollout", "rollout from a new deal / floor", ">= 1.0"),
            ("deal_and_rollout", "new_deal + rollout / floor", ""),
        ):
            if name in rates:
                goal = f"  (target {target})" if target else ""
                print(f"  {label:35s} {median_ratio(rates, name, 'floor'):7.3f}{goal}")
    print(f"  {'views loop / states loop':35s} "
          f"{median_ratio(rates, 'cavendish_views', 'cavendish'):7.3f}  (target >= 0.5)")
    print(f"  {'cost calabresella / cavendish':35s} "
          f"{median_ratio(rates, 'cavendish', 'calabresella'):7.3f}  (target <= 1.1)")
    print("Cavendish states half-way through the play of new deals, µs a state")
    print(f"  the mover's view, built cold          {statistics.median(v[0] for v in views):7.2f}"
          f"  warm {statistics.median(v[1] for v in views):6.2f}  (target cold <= 10)")
    print(f"  the mover's view, built cold and its history read {statistics.median(read):6.2f}")
    print(f"  pickle.loads(pickle.dumps(state))     {statistics.median(p[0] for p in pickles):7.2f}"
          f"  warm {statistics.median(p[1] for p in pickles):6.2f}  (target cold <= 40)")
    for rules in (cb.CAVENDISH, cb.CALABRESELLA):
        phase_table(rules, deals, rounds)


if __name__ == "__main__":
    main()
