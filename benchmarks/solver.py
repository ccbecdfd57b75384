"""The perfect-information solver's speed: seconds and nodes per solve over seeded deals.

Each deal is dealt from its seed (dealer ``seed % 3``) and taken through a
real exchange: the eldest hand makes the lowest bid, the others pass, and
every exchange decision takes the first legal action (``--exchange
random``: a seeded random one). With ``--exchange heuristic`` three
``HeuristicBot`` players bid and exchange (the eldest bids the lowest if all
would pass): stronger declarers, closer deals, harder solves. With ``--tricks 12`` the solver then solves
the whole play; with fewer, seeded random plays come first until that many
tricks are left. Prints one row per deal with ``--verbose``, then a table:
median and max wall time and CPU time (process time: on a machine shared
with other work it is the fairer figure), median and max nodes; with
``--rules both``, a row for each game too. With ``--one-best`` it asks for
the value and one best action only (``solve(state, all_best=False)``, what
a bot needs) instead of every best action.

``--builds compiled pure`` solves each deal with both searches in one run
(the compiled one needs the extension built: ``pip install -e .`` with a C compiler),
cold: every solve starts from empty tables, on deals no solve met before in
the run; the pure search only the first ``--pure-deals`` of them (it is
slower). Several ``--exchange`` kinds are measured one after the other, each
on the same seeds. By default the build in use is measured (``COMPILED``).

usage: python benchmarks/solver.py [--deals N] [--tricks T ...] [--rules R]
       [--exchange first|random|heuristic ...] [--seed S] [--one-best]
       [--builds compiled|pure ...] [--pure-deals N] [--verbose]
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time

import calabrasella as cb
from calabrasella.bots import solver
from calabrasella.bots.solver import COMPILED, solve

RULES: dict[str, tuple[cb.Ruleset, ...]] = {
    "cavendish": (cb.CAVENDISH,),
    "calabresella": (cb.CALABRESELLA,),
    "both": (cb.CAVENDISH, cb.CALABRESELLA),
}


def play_state(rules: cb.Ruleset, seed: int, exchange: str) -> cb.State:
    """Return the deal of ``seed`` at the start of its play, after a real exchange."""
    if exchange == "heuristic":
        return heuristic_state(rules, seed)
    rng = random.Random(seed)
    state = cb.new_deal(rules, dealer=seed % 3, seed=seed)
    bid = False
    while not state.is_over and state.phase is not cb.Phase.PLAYING:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
            continue
        actions = cb.legal_actions(state)
        if state.phase is cb.Phase.BIDDING:
            bids = [a for a in actions if isinstance(a, cb.Bid)]
            action: cb.Action = bids[0] if bids and not bid else cb.Pass()
            bid = bid or isinstance(action, cb.Bid)
        else:
            regular = [a for a in actions if not isinstance(a, (cb.TurnStock, cb.Revoke))]
            action = regular[0] if exchange == "first" else rng.choice(regular)
        state = cb.apply(state, action)
    if state.is_over:  # pragma: no cover - the eldest always bids
        raise RuntimeError(f"deal {seed} ended before the play")
    return state


def heuristic_state(rules: cb.Ruleset, seed: int) -> cb.State:
    """Return the deal of ``seed`` at the start of its play, bid and exchanged by heuristic bots."""
    from calabrasella.bots import HeuristicBot

    rng = random.Random(seed)
    for force in (False, True):
        bots = [HeuristicBot(random.Random(seed * 3 + seat)) for seat in range(rules.players)]
        state = cb.new_deal(rules, dealer=seed % 3, seed=seed)
        if force:  # everybody passed: the eldest bids the lowest
            state = cb.apply(
                state, next(a for a in cb.legal_actions(state) if isinstance(a, cb.Bid))
            )
        while not state.is_over and state.phase is not cb.Phase.PLAYING:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                seat = state.to_move
                assert seat is not None
                state = cb.apply(state, bots[seat].choose(state.view(seat)))
        if not state.is_over:
            return state
    raise RuntimeError(f"deal {seed} ended before the play")  # pragma: no cover


def advance(state: cb.State, tricks_left: int, seed: int) -> cb.State:
    """Play seeded random legal cards until ``tricks_left`` tricks are left."""
    rng = random.Random(seed)
    while 12 - state.tricks_played > tricks_left or state.trick_cards:
        plays = [a for a in cb.legal_actions(state) if isinstance(a, cb.Play)]
        state = cb.apply(state, rng.choice(plays))
    return state


def summary(walls: list[float], cpus: list[float], nodes: list[int]) -> dict[str, float]:
    """The table's figures of a set of solves."""
    return {
        "deals": len(walls),
        "median wall": statistics.median(walls),
        "max wall": max(walls),
        "median cpu": statistics.median(cpus),
        "max cpu": max(cpus),
        "median nodes": statistics.median(nodes),
        "max nodes": max(nodes),
    }


def measure(
    deals: int,
    tricks: int,
    rules: tuple[cb.Ruleset, ...],
    exchange: str,
    first_seed: int,
    verbose: bool,
    all_best: bool = True,
    build: str | None = None,
) -> dict[str, dict[str, float]]:
    """Solve ``deals`` deals with ``tricks`` tricks left with the search ``build``
    (compiled or pure; None: the one in use); return the summary figures, for all
    deals ("all") and for each game by its name."""
    native = solver._native
    if build is not None:
        if build == "compiled" and not COMPILED:
            raise SystemExit("--builds compiled: the compiled search is not built")
        solver._native = build == "compiled"
    runs: dict[str, tuple[list[float], list[float], list[int]]] = {}
    try:
        for i in range(deals):
            seed = first_seed + i
            ruleset = rules[i % len(rules)]
            state = advance(play_state(ruleset, seed, exchange), tricks, seed)
            gc.collect()  # not the leftovers of the last solve's work
            wall, cpu = time.perf_counter(), time.process_time()
            solution = solve(state, all_best=all_best)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            for key in ("all", ruleset.name):
                walls, cpus, nodes = runs.setdefault(key, ([], [], []))
                walls.append(wall)
                cpus.append(cpu)
                nodes.append(solution.nodes)
            if verbose:
                print(
                    f"  {ruleset.name:<13} seed {seed:<5} {tricks:>2} tricks: "
                    f"{solution.declarer_units:>2} units, {solution.nodes:>8} nodes, "
                    f"{wall:8.3f} s wall, {cpu:8.3f} s cpu",
                    flush=True,
                )
    finally:
        solver._native = native
    return {key: summary(*lists) for key, lists in runs.items()}


def main() -> None:
    """Parse the command line, run, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="deals to solve (default 50)")
    parser.add_argument(
        "--tricks", type=int, nargs="+", default=[12, 6], help="tricks left when solving (12 6)"
    )
    parser.add_argument("--rules", choices=sorted(RULES), default="both", help="alternate both")
    parser.add_argument(
        "--exchange", choices=("first", "random", "heuristic"), nargs="+", default=["first"]
    )
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--one-best", action="store_true", help="solve(all_best=False)")
    parser.add_argument(
        "--builds", choices=("compiled", "pure"), nargs="+", help="searches to compare"
    )
    parser.add_argument(
        "--pure-deals", type=int, help="with --builds: the pure search's deals (default --deals)"
    )
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    builds: list[str | None] = list(args.builds) if args.builds else [None]
    rows = []
    for exchange in args.exchange:
        for tricks in args.tricks:
            if not 1 <= tricks <= 12:
                parser.error(f"--tricks {tricks}: expected 1..12")
            for build in builds:
                deals = args.deals
                if build == "pure" and args.pure_deals is not None:
                    deals = min(deals, args.pure_deals)
                found = measure(
                    deals,
                    tricks,
                    RULES[args.rules],
                    exchange,
                    args.seed,
                    args.verbose,
                    not args.one_best,
                    build,
                )
                name = build or ("compiled" if COMPILED else "pure")
                rows += [(exchange, tricks, name, key, r) for key, r in found.items()]
    print(
        f"solver, {args.deals} deals ({args.rules}, seeds {args.seed}.."
        f"{', one best action' if args.one_best else ', every best action'}), "
        f"CPU seconds a solve:"
    )
    print(
        f"{'exchange':<9} {'tricks':>6} {'build':<8} {'game':<12} {'deals':>5} {'median s':>9} "
        f"{'max s':>7} {'median cpu':>10} {'max cpu':>8} {'median nodes':>12} {'max nodes':>9}"
    )
    for exchange, tricks, name, key, r in rows:
        print(
            f"{exchange:<9} {tricks:>6} {name:<8} {key:<12} {r['deals']:>5.0f} "
            f"{r['median wall']:>9.4f} {r['max wall']:>7.3f} {r['median cpu']:>10.4f} "
            f"{r['max cpu']:>8.3f} {r['median nodes']:>12.0f} {r['max nodes']:>9.0f}"
        )


if __name__ == "__main__":
    main()
