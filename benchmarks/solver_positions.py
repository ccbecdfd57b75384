"""The positions the solver searches, and how many would stay apart if some ranks were forgotten.

Solves seeded deals as ``solver.py`` makes them (``--exchange random`` by
default, twelve tricks, one best action) and records every position the
search *examines* (a node: not settled by its table or its bounds). For each
number of tricks left it prints the nodes, the distinct positions among them
(in the search's own relative form: each suit as the order of its cards
left, each by its holder and its units), and how many would remain distinct
if the positions were compared with less information:

- ``low x``: the ranks of the cards worth no units (7 6 5 4) forgotten, only
  who holds how many of them kept;
- ``top only``: in each suit only the top card kept in its place, the
  others as who holds which units, in no order;
- ``no ranks``: every rank forgotten, each suit as who holds which units.

Partition search (a table entry stands for every position that differs only
in what did not matter to its result) can merge at most the positions that
one of these comparisons merges; ``no ranks`` is its ceiling: a solver that
needed no rank at all. The fewer positions that ceiling leaves, the more such
a table could save.

How: the search's recursive probe calls itself through a closure cell; the
script puts a recording wrapper in that cell (nothing in the library
changes) and tells a node from a table hit by the search's node count.

usage: python benchmarks/solver_positions.py [--deals N] [--seed S] [--exchange first|random|heuristic]
       [--rules cavendish|calabresella|both] [--min-nodes N]
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from collections.abc import Callable

from solver import RULES, play_state

from calabrasella.bots import _solver_core as core
from calabrasella.bots import _solver_moves as moves
from calabrasella.bots.solver import solve

Position = tuple[int, int, int, int]
#: units 0, 1 and 3 as classes 0, 1 and 2
_CLASS = {0: 0, 1: 1, 3: 2}


def _suit(masks: tuple[int, int, int], how: str) -> tuple[object, ...]:
    """One suit of a position (the three hands' 10-bit masks), compared as ``how`` says."""
    cards = []
    for p in range(10):
        for who, mask in enumerate(masks):
            if mask >> p & 1:
                cards.append((who, _CLASS[moves.POS_UNITS[p]]))
    if how == "relative":
        return tuple(cards)
    if how == "low x":
        return tuple(c for c in cards if c[1]), tuple(sorted(c for c in cards if not c[1]))
    if how == "top only":
        return tuple(cards[:1]), tuple(sorted(cards[1:]))
    return tuple(sorted(cards))  # no ranks


def key(position: Position, how: str) -> tuple[object, ...]:
    """A position's key when compared as ``how`` says (the suits in sorted order, the leader)."""
    h0, h1, h2, lead = position
    suits = sorted(
        (_suit((h0 >> sh & 1023, h1 >> sh & 1023, h2 >> sh & 1023), how) for sh in (0, 10, 20, 30)),
        key=repr,
    )
    return (*suits, lead)


HOW = ("relative", "low x", "top only", "no ranks")


class Recorder:
    """Wraps each search's probe to record the positions it examines."""

    def __init__(self) -> None:
        self.nodes: list[Position] = []
        self._pending: tuple[Position, int] | None = None
        self._search: core.Search | None = None
        self._build = core.Search._build

    def _settle(self) -> None:
        """The last probe entered was a node if the count moved past its value at entry."""
        if self._pending is not None and self._search is not None:
            position, count = self._pending
            if self._search.nodes > count:
                self.nodes.append(position)
            self._pending = None

    def install(self) -> None:
        recorder = self
        build = self._build

        def _build(search: core.Search) -> Callable[[int, int, int, int, int, int], int]:
            probe = build(search)
            cells = dict(zip(probe.__code__.co_freevars, probe.__closure__ or ()))
            inner = cells["probe"]

            def recording(h0: int, h1: int, h2: int, lead: int, rest: int, t: int) -> int:
                recorder._settle()
                recorder._search = search
                recorder._pending = ((h0, h1, h2, lead), search.nodes)
                try:
                    return probe(h0, h1, h2, lead, rest, t)
                finally:
                    recorder._settle()

            inner.cell_contents = recording
            return recording

        setattr(core.Search, "_build", _build)  # noqa: B010 (a method, replaced on the class)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=4, help="deals (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    parser.add_argument("--exchange", choices=("first", "random", "heuristic"), default="random")
    parser.add_argument("--rules", choices=sorted(RULES), default="both")
    parser.add_argument("--min-nodes", type=int, default=500, help="rows with fewer are left out")
    args = parser.parse_args()
    if core.NATIVE is not None:
        raise SystemExit(
            "the compiled search cannot be wrapped: run this with CALABRASELLA_PURE_SOLVER=1"
        )
    recorder = Recorder()
    recorder.install()
    rules = RULES[args.rules]
    totals: dict[int, dict[str, set[tuple[object, ...]]]] = defaultdict(lambda: defaultdict(set))
    counts: dict[int, int] = defaultdict(int)
    for i in range(args.deals):
        seed = args.seed + i
        ruleset = rules[i % len(rules)]
        recorder.nodes = []
        solution = solve(play_state(ruleset, seed, args.exchange), all_best=False)
        if len(recorder.nodes) != solution.nodes:
            raise SystemExit(f"recorded {len(recorder.nodes)} nodes, the search counted {solution.nodes}")
        print(f"{ruleset.name} seed {seed}: {solution.declarer_units} units, {solution.nodes} nodes")
        for position in recorder.nodes:
            left = (position[0] | position[1] | position[2]).bit_count() // 3
            counts[left] += 1
            for how in HOW:  # distinct within each deal: keys carry the deal number
                totals[left][how].add((seed, *key(position, how)))
    print()
    print(f"{'tricks left':>11} {'nodes':>8} {'distinct':>9} " + " ".join(f"{h:>16}" for h in HOW[1:]))
    for left in sorted(counts, reverse=True):
        if counts[left] < args.min_nodes:
            continue
        distinct = len(totals[left]["relative"])
        cells = " ".join(
            f"{len(totals[left][h]):>9} ({len(totals[left][h]) / distinct:.2f})" for h in HOW[1:]
        )
        print(f"{left:>11} {counts[left]:>8} {distinct:>9} {cells}")


if __name__ == "__main__":
    main()
