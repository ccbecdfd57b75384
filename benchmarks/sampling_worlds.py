"""Worlds a second: what the sampling bot's search costs at the first trick of the play.

For each of ``--deals`` fresh seeded deals (both games alternating, bid and
exchanged by heuristic bots as in ``benchmarks/solver.py``) it takes the
first decision of the play (``--card 1``: the opening lead; 2 and 3: the
second and third cards of the first trick, after heuristic plays), draws
``--worlds`` worlds from the mover's view with a :class:`Sampler` and
solves each the way :class:`SamplingBot` does (each legal play's exact
value, ``solver._action_values``, each world starting from the previous
world's values; ``--win-only``: ``solver._action_wins`` under
Calabresella). Prints the worlds solved per CPU second (process time) over
all decisions, and the median and the slowest world's CPU milliseconds,
for the build in use (``solver.COMPILED``; ``CALABRASELLA_PURE_SOLVER=1``
for the pure search, with few deals).

usage: python benchmarks/sampling_worlds.py [--deals N] [--worlds W] [--seed S] [--card 1|2|3]
       [--rules cavendish|calabresella|both] [--win-only] [--guesses mean|previous] [--verbose]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from solver import RULES, heuristic_state

import calabrasella as cb
from calabrasella.bots import solver
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling import Sampler
from calabrasella.bots.sampling_bot import WIN_WEIGHT, utility


def first_trick(rules: cb.Ruleset, seed: int, card: int) -> cb.State:
    """The deal of ``seed`` at its ``card``-th card of the first trick (heuristic plays before)."""
    state = heuristic_state(rules, seed)
    bot = HeuristicBot(random.Random(seed))
    while len(state.trick_cards) < card - 1:
        seat = state.to_move
        assert seat is not None
        state = cb.apply(state, bot.choose(state.view(seat)))
    return state


def decide(
    state: cb.State, worlds: int, rng: random.Random, win_only: bool, previous: bool
) -> tuple[list[float], cb.Play]:
    """Solve ``worlds`` worlds of the mover's view as the bot does; return each world's CPU
    seconds and the play the averages choose."""
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    rules = view.rules
    sampler = Sampler(view)
    plays = [a for a in cb.legal_actions(state) if isinstance(a, cb.Play)]
    totals = dict.fromkeys(plays, 0)
    wins_only = win_only and not isinstance(rules, cb.Cavendish)
    guesses: dict[cb.Play, float] | None = None
    sums = dict.fromkeys(plays, 0)
    spent: list[float] = []
    for _ in range(worlds):
        world = sampler.sample(rng)
        start = time.process_time()
        if wins_only:
            wins, _nodes = solver._action_wins(world, "bench", rules.winning_units, None, 0.0)
            spent.append(time.process_time() - start)
            for play in plays:
                totals[play] += WIN_WEIGHT if wins[play] else -WIN_WEIGHT
        else:
            values, _nodes = solver._action_values(
                world, "bench", None, 0.0, guesses, shift=not previous
            )
            spent.append(time.process_time() - start)
            for play in plays:
                totals[play] += utility(rules, values[play])
                sums[play] += values[play]
            n = len(spent)
            guesses = dict(values) if previous else {p: sums[p] / n for p in plays}
    sign = 1 if seat == view.declarer else -1
    return spent, max(plays, key=lambda p: sign * totals[p])


def main() -> None:
    """Parse the command line, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20, help="decisions (default 20)")
    parser.add_argument("--worlds", type=int, default=32, help="worlds a decision (default 32)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--card", type=int, choices=(1, 2, 3), default=1, help="card of trick 1")
    parser.add_argument("--rules", choices=sorted(RULES), default="both")
    parser.add_argument("--win-only", action="store_true", help="Calabresella: wins only")
    parser.add_argument(
        "--guesses", choices=("mean", "previous"), default="mean", help="first guesses (mean)"
    )
    parser.add_argument("--verbose", action="store_true", help="one line a decision")
    args = parser.parse_args()
    rules = RULES[args.rules]
    every: list[float] = []
    for i in range(args.deals):
        seed = args.seed + i
        ruleset = rules[i % len(rules)]
        state = first_trick(ruleset, seed, args.card)
        spent, play = decide(
            state, args.worlds, random.Random(seed), args.win_only, args.guesses == "previous"
        )
        every += spent
        if args.verbose:
            print(
                f"  {ruleset.name:<13} seed {seed:<7} {args.worlds} worlds {sum(spent):7.3f} s cpu, "
                f"{args.worlds / sum(spent):7.1f} worlds/s, plays {play}",
                flush=True,
            )
    build = "compiled" if solver.COMPILED else "pure"
    print(
        f"sampling worlds ({build}, {args.rules}, card {args.card} of trick 1, seeds {args.seed}.., "
        f"{args.deals} decisions x {args.worlds} worlds, guesses {args.guesses}"
        f"{', win only' if args.win_only else ''}):"
    )
    print(
        f"  {len(every) / sum(every):.1f} worlds per CPU second; a world: median "
        f"{statistics.median(every) * 1000:.1f} ms, max {max(every) * 1000:.0f} ms CPU"
    )


if __name__ == "__main__":
    main()
