"""Two versions of the solver on the same deals in one run, deal by deal.

Sittings of ``solver.py`` taken hours apart on a shared machine can differ
by 20% or more; this pairs them instead. The old version is the solver's
three files (``bots/solver.py``, ``_solver_core.py``, ``_solver_moves.py``)
as git has them at ``--old`` (a commit, branch or tag), loaded beside the
installed package as pure Python; the new one is the installed package
(compiled, if it was built with mypyc: ``--old HEAD`` then measures what
compiling gains). Each deal (made
as ``solver.py`` makes it) is solved by both, in alternating order, and
their results must agree. Prints one line per deal, then the medians,
maxima and totals of CPU time and nodes.

With ``--one-best`` both solve for the value and one best action only
(``solve(state, all_best=False)``, what a bot asks); then only the values
must agree (either action may be named).

usage: python benchmarks/solver_ab.py --old REV [--deals N] [--tricks T]
       [--exchange first|random|heuristic] [--seed S] [--one-best]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from solver import advance, play_state

import calabrasella as cb
import calabrasella.bots.solver as new_solver

# each file, in import order, and the name it is loaded under
_FILES = {
    "_solver_moves": "_old_solver_moves",
    "_solver_core": "_old_solver_core",
    "solver": "_old_solver",
}
_IMPORTS = {
    "from ._solver_moves import": "from _old_solver_moves import",
    "from . import _solver_core as core": "import _old_solver_core as core",
    "from . import _solver_moves as moves": "import _old_solver_moves as moves",
}


def load_old(rev: str) -> Callable[..., Any]:
    """Return the ``solve`` of the solver's files at git revision ``rev``."""
    root = Path(__file__).resolve().parent.parent
    for name, loaded_as in _FILES.items():
        shown = subprocess.run(
            ["git", "show", f"{rev}:src/calabrasella/bots/{name}.py"],
            cwd=root,
            capture_output=True,
            text=True,
        )
        if shown.returncode:
            raise SystemExit(f"--old {rev}: git cannot show {name}.py: {shown.stderr.strip()}")
        text = shown.stdout
        for old, new in _IMPORTS.items():
            text = text.replace(old, new)
        module = types.ModuleType(loaded_as)
        module.__file__ = f"{rev}:{name}.py"
        sys.modules[module.__name__] = module
        exec(compile(text, module.__file__, "exec"), module.__dict__)
    solve: Callable[[cb.State], Any] = sys.modules["_old_solver"].solve
    return solve


def main() -> None:
    """Parse the command line, solve each deal with both versions, print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=True, help="the git revision of the old solver")
    parser.add_argument("--deals", type=int, default=50, help="deals to solve (default 50)")
    parser.add_argument("--tricks", type=int, default=12, help="tricks left when solving (12)")
    parser.add_argument("--exchange", choices=("first", "random", "heuristic"), default="first")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--one-best", action="store_true", help="solve(all_best=False)")
    args = parser.parse_args()
    solvers = {"old": load_old(args.old), "new": new_solver.solve}
    times: dict[str, list[float]] = {"old": [], "new": []}
    nodes: dict[str, list[int]] = {"old": [], "new": []}
    games = (cb.CAVENDISH, cb.CALABRESELLA)
    for i in range(args.deals):
        seed = args.seed + i
        state = advance(play_state(games[i % 2], seed, args.exchange), args.tricks, seed)
        found = {}
        for which in ("old", "new") if i % 2 else ("new", "old"):
            gc.collect()
            cpu = time.process_time()
            solution = solvers[which](state, all_best=not args.one_best)
            times[which].append(time.process_time() - cpu)
            nodes[which].append(solution.nodes)
            found[which] = (
                solution.declarer_units,
                [] if args.one_best else [str(a) for a in solution.best_actions],
            )
        if found["old"] != found["new"]:
            raise SystemExit(f"seed {seed}: the versions disagree: {found}")
        print(
            f"  seed {seed:<5} old {nodes['old'][-1]:>8} nodes {times['old'][-1]:7.3f} s   "
            f"new {nodes['new'][-1]:>8} nodes {times['new'][-1]:7.3f} s",
            flush=True,
        )
    built = "compiled" if new_solver.COMPILED else "pure Python"
    print(
        f"{args.deals} deals, {args.tricks} tricks, {args.exchange} exchange, "
        f"{'one best action, ' if args.one_best else ''}"
        f"old = {args.old} (pure Python), new = installed ({built}):"
    )
    print(
        f"{'':>4} {'median s':>9} {'max s':>7} {'total s':>8} {'over 5 s':>8} {'median nodes':>13}"
    )
    for which in ("old", "new"):
        t, n = times[which], nodes[which]
        print(
            f"{which:>4} {statistics.median(t):>9.3f} {max(t):>7.2f} {sum(t):>8.1f} "
            f"{sum(x > 5 for x in t):>8} {statistics.median(n):>13.0f}"
        )


if __name__ == "__main__":
    main()
