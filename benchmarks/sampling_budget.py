"""What a sampling bot's second buys: solver nodes and worlds per decision under a time budget.

Plays seeded deals of both games with one :class:`SamplingBot` (its default
settings, or ``--time-limit``) and two heuristic bots, and counts the solver
nodes each searched decision spent in the worlds it finished (a world cut
short by the clock is dropped, and so are its nodes). Prints, for the
decisions that used their whole budget, the median and quartiles of the
nodes: the node budget (``SamplingBot(nodes=N, time_limit=None)``) that
stands for the time budget on this machine, which makes a long strength run
deterministic and splittable into parts. Then, by tricks left, the median
nodes and the median worlds solved a decision (a decision on few worlds
rests on few samples of the hidden cards).

``--worlds N --no-clock`` measures the bot's default budget instead, a
count of worlds with no clock (``SamplingBot(worlds=N, time_limit=None)``):
the CPU seconds each decision took, by tricks left, and the worlds solved
per CPU second of search.

With ``--win-only`` the sampling bot counts Calabresella's worlds as won or
lost only (``SamplingBot(win_only=True)``: one null-window test a card
instead of its exact value); it changes nothing under Cavendish, so compare
the two with ``--rules calabresella``.

usage: python benchmarks/sampling_budget.py [--deals N] [--time-limit S] [--seed S] [--win-only]
       [--rules cavendish|calabresella|both] [--worlds N] [--no-clock]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any, ClassVar

import calabrasella as cb
from calabrasella.bots import sampling_bot
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.play import play_deal


class _Counting(sampling_bot.SamplingBot):
    """A sampling bot that records (tricks left, nodes, worlds, seconds) for each searched
    decision: wall seconds, or CPU seconds when ``cpu`` is set."""

    spent: ClassVar[list[int]] = [0, 0]  # nodes, worlds
    decisions: ClassVar[list[tuple[int, int, int, float]]] = []
    cpu: ClassVar[bool] = False

    def _search(self, view: cb.View, actions: tuple[cb.Action, ...]) -> cb.Action:
        self.spent[:] = [0, 0]
        clock = time.process_time if self.cpu else time.perf_counter
        start = clock()
        action = super()._search(view, actions)
        nodes, worlds = self.spent
        self.decisions.append((len(view.hand), nodes, worlds, clock() - start))
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4, help="deals of each game (default 4)")
    parser.add_argument("--time-limit", type=float, default=1.0, help="seconds (default 1)")
    parser.add_argument("--worlds", type=int, default=200, help="worlds a decision (default 200)")
    parser.add_argument("--no-clock", action="store_true", help="no time limit: --worlds only")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--win-only", action="store_true", help="SamplingBot(win_only=True)")
    parser.add_argument("--rules", choices=("cavendish", "calabresella", "both"), default="both")
    args = parser.parse_args()
    _Counting.cpu = args.no_clock
    for name in ("_action_values", "_action_wins"):  # each world's solve, counted
        solve_world = getattr(sampling_bot, name)

        def counted(*arguments: Any, solve_world: Any = solve_world) -> tuple[Any, int]:
            answers, used = solve_world(*arguments)
            _Counting.spent[0] += used
            _Counting.spent[1] += 1
            return answers, used

        setattr(sampling_bot, name, counted)  # the bot's module reads it at each call
    for i in range(args.deals):
        seed = args.seed + i
        for rules in (cb.CAVENDISH, cb.CALABRESELLA):
            if args.rules not in ("both", rules.name):
                continue
            seat = seed % 3  # the sampling bot changes seat deal by deal
            players: list[Any] = [HeuristicBot(seed * 3 + k) for k in range(3)]
            players[seat] = _Counting(
                seed,
                worlds=args.worlds,
                time_limit=None if args.no_clock else args.time_limit,
                win_only=args.win_only,
            )
            play_deal(rules, players, random.Random(seed), dealer=seed % 3)
    decisions = _Counting.decisions
    if args.no_clock:
        print(f"{len(decisions)} searched decisions, {args.worlds} worlds each, no clock")
        print(f"{'tricks left':>11} {'decisions':>9} {'median CPU s':>12} {'max s':>7} {'worlds/s':>9}")
        for left in range(12, 0, -1):
            here = [(worlds, seconds) for hand, _, worlds, seconds in decisions if hand == left]
            if here:
                seconds = [s for _, s in here]
                rate = sum(w for w, _ in here) / max(sum(seconds), 1e-9)
                print(
                    f"{left:>11} {len(here):>9} {statistics.median(seconds):>12.3f} "
                    f"{max(seconds):>7.3f} {rate:>9.0f}"
                )
        total = sum(seconds for *_, seconds in decisions)
        deals = args.deals * (2 if args.rules == "both" else 1)
        print(f"search CPU seconds a deal (the sampling bot's seat): {total / deals:.2f}")
        return
    whole = [nodes for _, nodes, _, seconds in decisions if seconds >= 0.9 * args.time_limit]
    print(f"{len(decisions)} searched decisions, {len(whole)} used their whole {args.time_limit} s")
    if len(whole) >= 2:
        q1, q2, q3 = statistics.quantiles(whole, n=4)
        print(f"nodes in a whole budget: median {q2:,.0f}, quartiles {q1:,.0f} and {q3:,.0f}")
    print(f"{'tricks left':>11} {'decisions':>9} {'median nodes':>12} {'median worlds':>13}")
    for left in range(12, 0, -1):
        here = [(nodes, worlds) for hand, nodes, worlds, _ in decisions if hand == left]
        if here:
            nodes = statistics.median(n for n, _ in here)
            worlds = statistics.median(w for _, w in here)
            print(f"{left:>11} {len(here):>9} {nodes:>12,.0f} {worlds:>13,.0f}")


if __name__ == "__main__":
    main()
