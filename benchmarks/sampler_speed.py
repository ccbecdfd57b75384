"""Worlds a second: the hidden-card sampler on fresh deals, this build against another, interleaved.

For each sitting, ``--deals`` fresh seeded deals (both games alternating) are
played at random to a seeded point (the auction, the exchange or a trick of
the play); at each, the seat to move builds a :class:`Sampler` of its view
and draws ``--worlds`` worlds. A sitting prints the CPU seconds (process
time) to build the samplers and to draw the worlds, and the worlds drawn per
CPU second, build included. With ``--against SRC`` (the ``src`` directory of
another checkout, e.g. ``git archive <commit> src | tar -x -C /tmp/old``),
each sitting runs both builds in child processes, one after the other, in
alternating order, on the same deals.

usage: python benchmarks/sampler_speed.py [--deals N] [--worlds W] [--sittings S] [--seed S]
       [--against SRC]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def positions(seed: int, deals: int) -> list[Any]:
    """The views to sample: ``deals`` deals from ``seed``, each played to a seeded point."""
    import calabrasella as cb

    views: list[Any] = []
    for k in range(deals):
        rules = (cb.CAVENDISH, cb.CALABRESELLA)[k % 2]
        rng = random.Random(seed * 100_003 + k)
        state = cb.new_deal(rules, dealer=k % 3, seed=seed * 100_003 + k)
        stop = rng.randrange(40)
        for _ in range(stop):
            if state.is_over:
                break
            chance = state.is_chance
            state = cb.apply(state, cb.sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))
        seat = state.to_move if state.to_move is not None else k % 3
        views.append(state.view(seat))
    return views


def sitting(seed: int, deals: int, worlds: int) -> dict[str, float]:
    """Build a sampler of each view and draw ``worlds`` worlds; return the CPU seconds."""
    from calabrasella.bots.sampling import Sampler

    views = positions(seed, deals)
    build = draw = 0.0
    rng = random.Random(seed)
    for view in views:
        t0 = time.process_time()
        sampler = Sampler(view)
        t1 = time.process_time()
        for _ in range(worlds):
            sampler.sample(rng)
        t2 = time.process_time()
        build += t1 - t0
        draw += t2 - t1
    return {"build": build, "draw": draw, "worlds": float(deals * worlds)}


def child(src: str, seed: int, deals: int, worlds: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run(
        [sys.executable, __file__, "--child", "--seed", str(seed), "--deals", str(deals),
         "--worlds", str(worlds)],
        env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--sittings", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", help="the src directory of the build to compare with")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(sitting(args.seed, args.deals, args.worlds)))
        return
    this = str(Path(__file__).resolve().parent.parent / "src")
    builds = {"this": this} if not args.against else {"this": this, "other": args.against}
    rates: dict[str, list[float]] = {name: [] for name in builds}
    for k in range(args.sittings):
        names = list(builds) if k % 2 == 0 else list(reversed(builds))
        for name in names:  # the same fresh deals for both, in alternating order
            r = child(builds[name], args.seed + k, args.deals, args.worlds)
            rate = r["worlds"] / (r["build"] + r["draw"])
            rates[name].append(rate)
            print(
                f"sitting {k + 1} {name:>5}: build {r['build']:.2f}s, draw {r['draw']:.2f}s, "
                f"{rate:.0f} worlds per CPU second"
            )
    for name, values in rates.items():
        print(f"{name:>5}: median {statistics.median(values):.0f} worlds per CPU second")


if __name__ == "__main__":
    main()
