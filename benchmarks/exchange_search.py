"""The sampling bot's exchange search against its fallback's discard, judged with every hand open.

Deals seeded Calabresella deals, bid and exchanged by three heuristic bots up
to the declarer's first discard (deals that nobody bids, or bid solissimo,
are skipped). There two sampling bots of the same seed lay down their four
cards: one with ``exchange_nodes`` (the searched discard), one without (its
fallback bot's discard, the heuristic's; the two share a seed, so the
fallback's set is the one the search starts from). Each discard is then
judged on the deal itself, with every hand open: the declarer's units under
perfect play (one exact solve). That is a paired, low-noise measure of the
discard alone (it is not the bot's strength in play: the adversaries see
every card, so the declarer wins less often than at a table).

Prints, per deal with ``--verbose``, both sets and both values; then how
often the sets differ, the mean gain in the declarer's units (with a 95%
interval), how often each discard wins the open deal (18 units or more), the
deals only one of them wins (with a two-sided sign test over them), and the
median and max CPU time of the searched decision.

usage: python benchmarks/exchange_search.py [--deals N] [--first N] [--nodes N] [--verbose]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import calabrasella as cb
from calabrasella.bots.heuristic import HeuristicBot
from calabrasella.bots.sampling_bot import SamplingBot
from calabrasella.bots.solver import _value


def at_discard(seed: int) -> cb.State | None:
    """Deal ``seed`` at the declarer's first discard, heuristic bots bidding (None: none)."""
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(seed * 3 + seat)) for seat in range(3)]
    state = cb.new_deal(cb.CALABRESELLA, dealer=seed % 3, seed=seed)
    while not state.is_over and state.phase is not cb.Phase.PLAYING:
        if state.is_chance:
            state = cb.apply(state, cb.sample_chance(state, rng))
        elif state.phase is cb.Phase.DISCARDING and state.to_move == state.declarer:
            return state
        else:
            seat = state.to_move
            assert seat is not None
            state = cb.apply(state, bots[seat].choose(state.view(seat)))
    return None


def discard(state: cb.State, bot: SamplingBot) -> tuple[cb.State, tuple[cb.Card, ...], float]:
    """Let ``bot`` lay down its cards; the state after, its cards and its CPU seconds."""
    seat = state.to_move
    assert seat is not None
    cards: list[cb.Card] = []
    start = time.process_time()
    while state.phase is cb.Phase.DISCARDING and state.to_move == seat:
        action = bot.choose(state.view(seat))
        assert isinstance(action, cb.Discard)
        cards.append(action.card)
        state = cb.apply(state, action)
    return state, tuple(cards), time.process_time() - start


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign test: the chance of a split at least this uneven of a + b."""
    n, k = a + b, min(a, b)
    if not n:
        return 1.0
    tail: float = sum(math.comb(n, i) for i in range(k + 1)) / float(2**n)
    return min(1.0, 2 * tail)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40, help="seeds to try (default 40)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--nodes", type=int, default=200_000, help="exchange_nodes (200,000)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    counts = {"deals": 0, "differ": 0, "searched": 0, "fallback": 0, "only_s": 0, "only_f": 0}
    seconds: list[float] = []
    gains: list[int] = []
    for seed in range(args.first, args.first + args.deals):
        state = at_discard(seed)
        if state is None:
            continue
        plain = SamplingBot(seed, time_limit=None, nodes=40_000)
        searching = SamplingBot(seed, time_limit=None, nodes=40_000, exchange_nodes=args.nodes)
        after_f, cards_f, _ = discard(state, plain)
        after_s, cards_s, cpu = discard(state, searching)
        seconds.append(cpu)
        units_f = _value(after_f, "exchange_search", None, None)[0]
        same = set(cards_s) == set(cards_f)
        units_s = units_f if same else _value(after_s, "exchange_search", None, None)[0]
        gains.append(units_s - units_f)
        win = after_f.rules.winning_units
        won_f, won_s = units_f >= win, units_s >= win
        counts["deals"] += 1
        counts["differ"] += not same
        counts["searched"] += won_s
        counts["fallback"] += won_f
        counts["only_s"] += won_s and not won_f
        counts["only_f"] += won_f and not won_s
        if args.verbose:
            print(
                f"seed {seed:4d} {state.contract.value if state.contract else '?':9s} "
                f"fallback {' '.join(map(str, cards_f))} {units_f:2d}; "
                f"searched {' '.join(map(str, cards_s))} {units_s:2d} "
                f"({cpu:.1f} s)",
                flush=True,
            )
    n = counts["deals"]
    if not n:
        print("no deal reached a discard")
        return
    print(f"exchange_nodes={args.nodes}, seeds {args.first}..{args.first + args.deals - 1}")
    print(f"deals with a declarer's discard: {n}; sets differ in {counts['differ']}")
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else math.inf
    print(
        f"declarer's units, open deal, searched minus fallback: mean {mean:+.2f} "
        f"[{mean - half:+.2f}, {mean + half:+.2f}]"
    )
    print(
        f"open deal won after the fallback's discard: {counts['fallback']} "
        f"({counts['fallback'] / n:.1%}); after the searched one: {counts['searched']} "
        f"({counts['searched'] / n:.1%})"
    )
    print(
        f"won by one only: searched {counts['only_s']}, fallback {counts['only_f']} "
        f"(sign test p = {sign_test(counts['only_s'], counts['only_f']):.3f})"
    )
    print(
        f"CPU of the searched discard: median {statistics.median(seconds):.2f} s, "
        f"max {max(seconds):.2f} s"
    )


if __name__ == "__main__":
    main()
