"""The limited API's cost: the compiled search built for abi3 against the full C API.

Loads two builds of the extension module (``--limited`` and ``--full``: the
paths of the ``_solver_native`` files, e.g. built with
``python setup.py build_ext --build-lib DIR``, the second with
``CALABRASELLA_LIMITED_API=0``) and solves each deal (dealt from its seed and
taken through a seeded random exchange, as ``benchmarks/solver.py
--exchange random``) with one, then the other, the order alternating from
deal to deal; prints the CPU seconds of each build and their ratio. Both
builds must give the same values.

usage: python benchmarks/native_abi.py --limited PATH --full PATH [--deals N] [--seed S]
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import calabrasella as cb
from calabrasella.bots import _solver_core, solver

sys.path.insert(0, str(Path(__file__).resolve().parent))
from solver import play_state  # benchmarks/solver.py


def load(path: str) -> ModuleType:
    """The extension module at ``path``, loaded under its own name."""
    name = "calabrasella.bots._solver_native"
    loader = importlib.machinery.ExtensionFileLoader(name, path)
    spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def timed(module: ModuleType, state: cb.State) -> tuple[float, int]:
    """CPU seconds and value of one solve of ``state`` with ``module``'s search."""
    saved = _solver_core.NATIVE
    _solver_core.NATIVE = module
    try:
        start = time.process_time()
        value = solver.solve(state).declarer_units
        return time.process_time() - start, value
    finally:
        _solver_core.NATIVE = saved


def main() -> None:
    """Run the A/B and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limited", required=True, help="the abi3 build's module file")
    parser.add_argument("--full", required=True, help="the full C API build's module file")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=930000)
    args = parser.parse_args()
    if not solver.COMPILED:
        raise SystemExit("the compiled search is not in use: its tables are not set up")
    builds = {"limited": load(args.limited), "full": load(args.full)}
    cpu = dict.fromkeys(builds, 0.0)
    for i in range(args.deals):
        rules = (cb.CAVENDISH, cb.CALABRESELLA)[i % 2]
        state = play_state(rules, args.seed + i, "random")
        order = list(builds) if i % 2 == 0 else list(reversed(builds))
        values = set()
        for name in order:
            seconds, value = timed(builds[name], state)
            cpu[name] += seconds
            values.add(value)
        if len(values) != 1:
            raise SystemExit(f"deal {args.seed + i}: the builds disagree: {values}")
    print(
        f"{args.deals} deals from seed {args.seed}: limited {cpu['limited']:.2f} s, "
        f"full {cpu['full']:.2f} s CPU; limited / full = {cpu['limited'] / cpu['full']:.3f}"
    )


if __name__ == "__main__":
    main()
