"""The speed of ``calabrasella analyse`` on whole deals: seconds per 12-trick record.

Each round deals fresh deals (their seeds drawn from the system's random
source unless ``--seed`` is given; printed), has three ``HeuristicBot``
players bid, exchange and play them to the end (a deal all pass is dealt
again), saves each as a JSON record, then times, per record:

- ``command``: ``calabrasella analyse FILE`` run as a new process (Python's
  start, the import and the file's reading included), wall time;
- ``analyse()``: :func:`calabrasella.bots.analyse` in this process, every
  hand open (no sampled worlds), wall and CPU time; cold for the record (its
  searches start empty), though the process has analysed the records before;
- ``estimate`` (with ``--worlds N``): ``analyse(record, worlds=N)`` in this
  process, wall and CPU time: the open-hand values and, for every card play
  with a choice, the estimate over N worlds drawn from the mover's view.

It prints one row a record with ``--verbose``, then each round's medians
and max, then the medians over the rounds and, over every record of every
round, the median and the maximum. The header says whether the solver in
use is compiled (``calabrasella.bots.solver.COMPILED``): ``pip install -e .``
builds it in a checkout where a C compiler works.

usage: python benchmarks/analyse.py [--deals N] [--rounds R] [--rules R]
       [--seed S] [--worlds N] [--verbose]

The target: a 12-trick record analysed in under 2 s with every hand open,
compiled.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import calabrasella as cb
from calabrasella.bots import HeuristicBot, analyse, play_deal
from calabrasella.bots.solver import COMPILED


def played(rules: cb.Ruleset, seed: int) -> cb.Record:
    """A deal of ``seed`` played to its end by three heuristic bots (not all passing)."""
    while True:
        rng = random.Random(seed)
        final = play_deal(rules, [HeuristicBot(rng) for _ in range(3)], rng)
        if final.declarer is not None and final.tricks_played == 12:
            return cb.Record.from_state(final)
        seed += 1_000_003


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rules", choices=("cavendish", "calabresella"), default="cavendish")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--worlds", type=int, default=0, help="also time the estimate over N worlds")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    rules = cb.find_ruleset(args.rules)
    master = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"calabrasella analyse: {args.rules}, {args.deals} deals x {args.rounds} rounds, "
          f"seed {master}, solver {'compiled' if COMPILED else 'pure Python'}")  # fmt: skip
    print(f"command line: {' '.join(sys.argv)}")
    seeds = random.Random(master)
    names = ["command", "wall", "cpu"] + (["estimate wall", "estimate cpu"] if args.worlds else [])
    medians: dict[str, list[float]] = {name: [] for name in names}
    every: dict[str, list[float]] = {name: [] for name in names}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(1, args.rounds + 1):
            times: dict[str, list[float]] = {name: [] for name in names}
            for k in range(args.deals):
                seed = seeds.randrange(1 << 30)
                record = played(rules, seed)
                path = Path(folder) / f"deal-{round_}-{k}.json"
                path.write_text(cb.to_json(record), encoding="utf-8")
                start = time.perf_counter()
                subprocess.run(
                    [sys.executable, "-m", "calabrasella", "analyse", str(path)],
                    check=True,
                    stdout=subprocess.DEVNULL,
                )
                times["command"].append(time.perf_counter() - start)
                wall, cpu = time.perf_counter(), time.process_time()
                analysis = analyse(record)
                times["wall"].append(time.perf_counter() - wall)
                times["cpu"].append(time.process_time() - cpu)
                if args.worlds:
                    wall, cpu = time.perf_counter(), time.process_time()
                    analyse(record, worlds=args.worlds)
                    times["estimate wall"].append(time.perf_counter() - wall)
                    times["estimate cpu"].append(time.process_time() - cpu)
                if args.verbose:
                    worst = analysis.biggest
                    print(f"  deal seed {seed}: command {times['command'][-1]:.3f} s, analyse() "
                          f"{times['wall'][-1]:.3f} s wall {times['cpu'][-1]:.3f} s cpu, biggest "
                          f"loss {0 if worst is None else worst.lost}"
                          + (f", estimate {times['estimate cpu'][-1]:.3f} s cpu" if args.worlds
                             else ""))  # fmt: skip
            row = ", ".join(
                f"{name} median {statistics.median(v):.3f} s max {max(v):.3f} s"
                for name, v in times.items()
            )
            print(f"round {round_}: {row}")
            for name, v in times.items():
                medians[name].append(statistics.median(v))
                every[name].extend(v)
    print("medians of the rounds: " + ", ".join(
        f"{name} {', '.join(f'{m:.3f}' for m in v)} s" for name, v in medians.items()))  # fmt: skip
    print(f"every record ({len(every['command'])}): " + ", ".join(
        f"{name} median {statistics.median(v):.3f} s max {max(v):.3f} s"
        for name, v in every.items()))  # fmt: skip


if __name__ == "__main__":
    main()
