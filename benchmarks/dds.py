"""Bridge's double-dummy solver (DDS, through endplay) beside this library's solver, in one run.

DDS is the reference for solving card play with every hand open: bridge,
four hands of 13 cards, tricks counted. It gets random bridge deals
(shuffled from the seed), one strain (no trumps: this library's games have
none), one leader (West) and one best card asked for
(``SolveMode.OptimalOne``). This library's :func:`~calabrasella.bots.solver.solve`
gets its own deals as ``solver.py`` makes them: the whole play (12 tricks),
after a random exchange and after the heuristic bots' exchange, Cavendish
and Calabresella alternating, one best action (the default). The solvers
take turns deal by deal, so a load on the machine weighs on all alike.
Prints the median and max CPU seconds (process time) a solve for each, and
the ratio of each median to DDS's; the header says whether this library's
search is the compiled one.

The problems differ: DDS counts tricks over 52 cards and four hands, this
library's solver card units (which card wins each trick matters, not only
how many) over 36 cards and three hands. The ratio says how far the search
is from a mature compiled one, not which is the better program.

endplay is an optional dependency of this benchmark, not of the package::

    pip install -r benchmarks/requirements-dds.txt

Without it the script says so and exits.

usage: python benchmarks/dds.py [--deals N] [--seed S] [--verbose]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from solver import play_state

import calabrasella as cb
from calabrasella.bots.solver import COMPILED, solve

RANKS = "AKQJT98765432"


def bridge_pbn(seed: int) -> str:
    """A random bridge deal in PBN (North first), shuffled from ``seed``."""
    cards = [(suit, rank) for suit in range(4) for rank in range(13)]
    random.Random(seed).shuffle(cards)
    hands = []
    for seat in range(4):
        held = cards[13 * seat : 13 * seat + 13]
        hands.append(
            ".".join(
                "".join(RANKS[r] for r in sorted(r for s, r in held if s == suit))
                for suit in range(4)
            )
        )
    return "N:" + " ".join(hands)


def load_dds() -> Callable[[str], Any] | None:
    """``solve(pbn)``: DDS's one best card of West's lead at no trumps; None without endplay."""
    try:
        types = importlib.import_module("endplay.types")
        dds = importlib.import_module("endplay.dds")
        modes = importlib.import_module("endplay.dds.solve")
    except ImportError:
        return None

    def solve_bridge(pbn: str) -> Any:
        deal = types.Deal(pbn, first=types.Player.west, trump=types.Denom.nt)
        return list(dds.solve_board(deal, modes.SolveMode.OptimalOne))

    return solve_bridge


def timed(run: Callable[[Any], object], arg: Any) -> float:
    """CPU seconds of ``run(arg)``."""
    gc.collect()
    cpu = time.process_time()
    run(arg)
    return time.process_time() - cpu


def main() -> None:
    """Parse the command line, run, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=50, help="deals of each kind (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args()
    solve_bridge = load_dds()
    if solve_bridge is None:
        print(
            "dds.py: endplay is not installed, nothing measured "
            "(pip install -r benchmarks/requirements-dds.txt)"
        )
        return
    # one solve each before the clock runs: DDS sets up its memory, Python its caches
    solve_bridge(bridge_pbn(-1))
    solve(play_state(cb.CAVENDISH, 10**9, "random"))
    games = (cb.CAVENDISH, cb.CALABRESELLA)
    kinds = ("DDS, bridge", "ours, random exchange", "ours, heuristic exchange")
    cpus: dict[str, list[float]] = {kind: [] for kind in kinds}
    for i in range(args.deals):
        seed = args.seed + i
        rules = games[i % 2]
        # the deals are made before the clock starts: only the solves are timed
        pbn = bridge_pbn(seed)
        states = [play_state(rules, seed, exchange) for exchange in ("random", "heuristic")]
        row = [timed(solve_bridge, pbn), timed(solve, states[0]), timed(solve, states[1])]
        for kind, cpu in zip(kinds, row):
            cpus[kind].append(cpu)
        if args.verbose:
            print(
                f"  seed {seed:<7} {rules.name:<13} " + "  ".join(f"{cpu:7.4f} s" for cpu in row),
                flush=True,
            )
    built = "compiled" if COMPILED else "pure Python"
    print(
        f"{args.deals} deals of each kind (seeds {args.seed}..), CPU seconds a solve; "
        f"this library's search: {built}"
    )
    print(f"{'solver and deals':<26} {'median':>8} {'max':>8} {'median / DDS':>13}")
    base = statistics.median(cpus[kinds[0]])
    for kind in kinds:
        median = statistics.median(cpus[kind])
        print(f"{kind:<26} {median:>8.4f} {max(cpus[kind]):>8.3f} {median / base:>13.2f}")


if __name__ == "__main__":
    main()
