"""Strength: one bot against another over many seeded deals with the seats rotated.

Plays each line-up under each ruleset with :func:`calabrasella.bots.simulate.simulate`
and prints the summary tables and, for each, the candidate's edge: the mean
payment per deal of the candidate player(s) with a 95% confidence interval.
The target for a stronger candidate is an interval above zero.

Line-ups: ``1v2`` seats one candidate with two baselines (the edge is the
candidate's mean payment); ``2v1`` seats two candidates with one baseline
(the edge is minus half the baseline's mean payment, the candidates' mean
each, with the baseline's interval).

Bots are named as ``module:attribute`` (a bot factory: called with a
``random.Random``, it returns a bot; the attribute may be dotted, as in
``calabrasella.bots.sampling_bot:SamplingBot.classic``), so any bot on the
path can be compared; ``--candidate-options`` and ``--baseline-options``
pass keyword arguments to the factory, as JSON (``null`` for None):

    python benchmarks/strength.py --deals 2000 --workers 2
    python benchmarks/strength.py --candidate calabrasella.bots.sampling_bot:SamplingBot \\
        --baseline calabrasella.bots.heuristic:HeuristicBot --lineups 1v2 2v1
    python benchmarks/strength.py --candidate calabrasella.bots.sampling_bot:SamplingBot \
        --candidate-options '{"nodes": 20000, "time_limit": null, "worlds": 40}' \
        --baseline calabrasella.bots.sampling_bot:SamplingBot.classic

usage: python benchmarks/strength.py [--deals N] [--seed S] [--workers W]
       [--rules NAME ...] [--candidate SPEC] [--baseline SPEC] [--lineups 1v2|2v1 ...]
       [--candidate-options JSON] [--baseline-options JSON]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import importlib
import json
import time
from typing import Optional

import calabrasella as cb
from calabrasella.bots.simulate import BotFactory, Summary, simulate


def load_factory(spec: str, options: str = "{}") -> BotFactory:
    """Return the bot factory ``module:attribute`` names (the attribute may be dotted),
    given the keyword arguments of ``options`` (a JSON object) if any."""
    module, _, attribute = spec.partition(":")
    if not attribute:
        raise SystemExit(f"--candidate/--baseline: expected module:attribute, got {spec!r}")
    found: object = importlib.import_module(module)
    for name in attribute.split("."):
        found = getattr(found, name)
    factory: BotFactory = found  # type: ignore[assignment]
    keywords = json.loads(options)
    if not isinstance(keywords, dict):
        raise SystemExit(f"--candidate-options/--baseline-options: expected a JSON object, got {options!r}")
    return functools.partial(factory, **keywords) if keywords else factory


def edge(summary: Summary, lineup: str) -> tuple[float, float, float]:
    """Return the candidate's mean payment per deal and its 95% interval."""
    if lineup == "1v2":
        player = summary.players[0]
        low, high = player.ci95
        return player.mean, low, high
    baseline = summary.players[-1]
    low, high = baseline.ci95
    return -baseline.mean / 2, -high / 2, -low / 2


def main(argv: Optional[list[str]] = None) -> None:
    """Run the line-ups and print the tables and the edges."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="process pool size; 0: serial")
    parser.add_argument("--rules", nargs="+", default=["cavendish", "calabresella"])
    parser.add_argument("--candidate", default="calabrasella.bots.heuristic:HeuristicBot")
    parser.add_argument("--baseline", default="calabrasella.bots.base:RandomBot")
    parser.add_argument("--candidate-options", default="{}", help="JSON keyword arguments")
    parser.add_argument("--baseline-options", default="{}", help="JSON keyword arguments")
    parser.add_argument("--lineups", nargs="+", default=["1v2"], choices=["1v2", "2v1"])
    args = parser.parse_args(argv)
    candidate = load_factory(args.candidate, args.candidate_options)
    baseline = load_factory(args.baseline, args.baseline_options)
    pool = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers else None
    edges = []
    try:
        for name in args.rules:
            rules = cb.find_ruleset(name)
            for lineup in args.lineups:
                seats = [candidate, baseline, baseline]
                if lineup == "2v1":
                    seats = [candidate, candidate, baseline]
                t0 = time.perf_counter()
                summary = simulate(rules, seats, args.deals, seed=args.seed, executor=pool)
                seconds = time.perf_counter() - t0
                print(summary.table())
                mean, low, high = edge(summary, lineup)
                print(f"({seconds:.1f} s)\n")
                edges.append((name, lineup, mean, low, high))
    finally:
        if pool is not None:
            pool.shutdown()
    print(
        f"candidate {args.candidate} {args.candidate_options} vs baseline {args.baseline} "
        f"{args.baseline_options}, {args.deals} deals each"
    )
    print(f"{'rules':<14} {'line-up':<8} {'edge':>8}   95% CI")
    for name, lineup, mean, low, high in edges:
        print(f"{name:<14} {lineup:<8} {mean:>+8.2f}   [{low:+.2f}, {high:+.2f}]")


if __name__ == "__main__":
    main()
