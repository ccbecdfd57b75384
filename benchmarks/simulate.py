"""Simulation throughput: random bots, serially and on a process pool, in one run.

Plays the same seeded simulation (random bots, seats rotated) serially and on
a ``ProcessPoolExecutor`` of ``--workers`` processes, in interleaved rounds,
checks that both give the same summary, and prints deals/s for each and the
median ratio of the per-round rates (target: at least 1.7 with 2 workers).
The pool is started (and its workers warmed up) before the clock runs, as a
long simulation would amortise it.

On a busy machine the wall-clock ratio says more about the neighbours than
about the library, so the benchmark also counts CPU time: the serial run's,
and the pooled run's in the parent and in each chunk (the workers time their
own chunks). ``cpu bound`` is the speed-up an otherwise idle machine would
allow: serial CPU time over the larger of the parent's CPU time and the
workers' CPU time shared among the workers.

usage: python benchmarks/simulate.py [--deals N] [--rounds R] [--workers W] [--rules NAME]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import statistics
import time
from collections.abc import Callable
from typing import Any, Optional

import calabrasella as cb
from calabrasella.bots.base import RandomBot
from calabrasella.bots.simulate import Summary, simulate


def _measured(fn: Callable[..., Any], *args: Any) -> tuple[Any, float]:
    """Run ``fn(*args)`` in a worker; return its result and the CPU seconds it took."""
    t0 = time.process_time()
    result = fn(*args)
    return result, time.process_time() - t0


class CpuCounting(concurrent.futures.Executor):
    """An executor over another that adds up the CPU time of every task it ran."""

    def __init__(self, inner: concurrent.futures.Executor) -> None:
        self.inner = inner
        self.cpu = 0.0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        outer: concurrent.futures.Future[Any] = concurrent.futures.Future()

        def done(inner: concurrent.futures.Future[tuple[Any, float]]) -> None:
            error = inner.exception()
            if error is not None:
                outer.set_exception(error)
                return
            result, seconds = inner.result()
            self.cpu += seconds
            outer.set_result(result)

        self.inner.submit(_measured, fn, *args).add_done_callback(done)
        return outer


def timed(
    rules: cb.Ruleset, deals: int, pool: Optional[concurrent.futures.Executor]
) -> tuple[float, float, Summary]:
    """Return the deals per second of one simulation, the parent's CPU seconds, and its summary."""
    t0, c0 = time.perf_counter(), time.process_time()
    summary = simulate(rules, [RandomBot] * rules.players, deals, seed=1, executor=pool)
    return deals / (time.perf_counter() - t0), time.process_time() - c0, summary


def main(argv: Optional[list[str]] = None) -> None:
    """Run interleaved serial and pooled rounds; print the rates and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rules", default="cavendish")
    args = parser.parse_args(argv)
    rules = cb.find_ruleset(args.rules)
    serial_rates: list[float] = []
    pool_rates: list[float] = []
    bounds: list[float] = []
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        timed(rules, 4 * args.workers, pool)  # start the workers and import the library there
        for _ in range(args.rounds):
            rate, serial_cpu, serial = timed(rules, args.deals, None)
            serial_rates.append(rate)
            counting = CpuCounting(pool)
            rate, parent_cpu, pooled = timed(rules, args.deals, counting)
            pool_rates.append(rate)
            assert pooled == serial, "the pool gave another summary"
            bounds.append(serial_cpu / max(parent_cpu, counting.cpu / args.workers))
    ratios = [p / s for p, s in zip(pool_rates, serial_rates)]
    print(f"{args.rules}: {args.deals} deals of random bots, {args.rounds} rounds")
    print(f"serial:          {statistics.median(serial_rates):8.0f} deals/s")
    print(f"pool of {args.workers}:       {statistics.median(pool_rates):8.0f} deals/s")
    print(f"speed-up:        {statistics.median(ratios):8.2f}x  (target 1.7x with 2 workers)")
    print(f"cpu bound:       {statistics.median(bounds):8.2f}x  (what an idle machine allows)")


if __name__ == "__main__":
    main()
