"""What one seat's view says about the cards it cannot see: the model the sampler draws from.

Private to :mod:`calabrasella.bots.sampling`, which documents the model. It
reads nothing of any step or action kind: only the view's moves
(:func:`calabrasella.places.records`), its counts, its own hand, the suits
shown out of, the final stock, and what a call tells (:mod:`._calling`).

Each card has a *path*: the place it was dealt to, and the hidden moves it
took (a seen move takes exactly its cards, from where they were). A world is
one path per card such that every hidden move carries its number of cards and
every place holds, now, as many cards as the view shows. Consecutive hidden
moves from one place to another are one *run* (a decision's cards may go in
any order: a multinomial factor). A run between two places that nothing
before told apart (a draw from an untouched stock, a pass between untouched
hands) is *folded*: the cards are counted where they went, times the ways to
choose which of them came by the run. The rest is an exact count over the
cards by a dynamic programme on counters (each place's fill now, each run's
cards, each count a call rules out); the largest group of interchangeable
cards is counted in closed form.
"""

from __future__ import annotations

from math import comb, factorial
from typing import NamedTuple

import calabrasella as cb
from calabrasella import places
from calabrasella.errors import InconsistentViewError
from calabrasella.rulesets.steps import Step

from ._calling import Facts, call_facts
from ._hand import bits

__all__ = ["InconsistentViewError", "Model", "Run", "analyse"]

DECK = len(cb.DECK)
FULL = (1 << DECK) - 1
CODES = places.CODE_COUNT
SUITS = tuple(sum(1 << c.index for c in cb.DECK if c.suit is s) for s in cb.Suit)


Records = tuple[places.MoveRecord, ...]
#: What happens to a card: ``(time, 0, src, dst)`` a seen move, ``(time, 1, run, 0)`` a run,
#: ``(time, -1, places, 0)`` a call's pin (a mask of place codes).
Event = tuple[int, int, int, int]


class Run(NamedTuple):
    """Consecutive hidden moves of ``number`` cards from ``src`` to ``dst``."""

    src: int
    dst: int
    number: int
    #: Its moves: ``(entry, number)``, entry -1 for the engine's own (forced) moves.
    parts: tuple[tuple[int, int], ...]
    #: The moves' position among the view's records.
    at: int


class Model(NamedTuple):
    """Everything the sampler needs to know about a view, worked out once."""

    #: The runs; the folded ones (with the cards seen leaving where they went before them)
    #: are undone after the draw, last first.
    runs: tuple[Run, ...]
    folded: tuple[tuple[int, int], ...]
    #: Per card with a choice: its options (state increment, paths with it).
    cards: tuple[int, ...]
    options: tuple[tuple[tuple[int, tuple[tuple[int, int], ...]], ...], ...]
    #: Where the cards with one path were dealt, by place, and the runs they took.
    dealt: tuple[int, ...]
    moved: tuple[int, ...]
    #: Interchangeable cards placed last into the room left: each counter's path.
    tail: tuple[int, ...]
    tail_paths: tuple[tuple[int, tuple[int, int]], ...]
    #: Per counter ``(stride, radix, target)``: its fill in a state is ``s // stride % radix``.
    limits: tuple[tuple[int, int, int], ...]
    start: int
    #: Suffix counts: ``table[i][s]`` ways to finish ``cards[i:]`` from state ``s``.
    table: tuple[dict[int, int], ...]
    worlds: int
    #: Whether every world of the model is a world of the view (else the replay rejects).
    exact: bool


def fail(message: str) -> InconsistentViewError:
    return InconsistentViewError(f"no deal is consistent with this view: {message}")


def analyse(view: cb.View) -> Model:
    """Work out the model of ``view`` (see the module docstring)."""
    rules = view.rules
    if not isinstance(rules, cb.Ruleset):
        raise fail(f"rules={rules!r} is not a ruleset")
    players, seat = rules.players, view.seat
    if not 0 <= seat < players or len(view.hand_sizes) != players:
        raise fail(f"seat {seat} at a table of {players} with {len(view.hand_sizes)} hands")
    recs = places.records(view)
    recorded = {r[0] for r in recs if r[3] < 0}
    for i, (_, action) in enumerate(view.history):
        if isinstance(action, cb.Hidden) and i not in recorded:
            plan = rules.exchange_plan(view.contract) if view.contract else ()
            if any(type(step).hidden_from is not Step.hidden_from for step in plan):
                raise cb.RulesetError(f"{rules.name}: the face-down entry {i} records no move")
            raise fail(f"its face-down entry {i} records no move")
    dealt, now = _counts(view, recs)
    facts = call_facts(view, recs)
    runs, hidden_at = _runs(recs)
    exact = _engine_takes_all(recs, dealt)
    folded, factor = _fold(recs, runs, hidden_at, facts, dealt)
    holding = sum(1 << p for p in range(CODES) if now[p])
    ends = [end & holding for end in _ends(view)]
    seen: list[list[Event]] = [[] for _ in range(DECK)]
    for i, record in enumerate(recs):
        if record[3] >= 0:
            for card in bits(record[3]):
                seen[card].append((i, 0, record[4], record[5]))
    steps = [(run.at, 1, j, 0) for j, run in enumerate(runs) if j not in dict(folded)]
    free: dict[int, list[tuple[int, int, int]]] = {}  # the paths of a card seen nowhere
    bound = 0  # the cards a call's fact names
    for mask in [pin[1] for pin in facts.pins] + [1 << f[1] for f in facts.forbid]:
        bound |= mask
    paths = []
    for card in range(DECK):
        alone = not seen[card] and not bound >> card & 1
        if alone and ends[card] in free:
            paths.append(free[ends[card]])
            continue
        paths.append(_paths(card, seen[card] + steps, runs, facts, dealt, ends[card]))
        if alone:
            free[ends[card]] = paths[-1]
    model = _count(view, recs, runs, folded, paths, now, facts, factor)
    return model if exact else model._replace(exact=False)


def _counts(view: cb.View, recs: Records) -> tuple[list[int], list[int]]:
    """Each place's cards as dealt and now, from the view's counts and its moves."""
    net = [0] * CODES
    for record in recs:
        cards, src, dst = record[3], record[4], record[5]
        if src != dst:
            n = cards.bit_count() if cards >= 0 else -cards
            net[src] -= n
            net[dst] += n
    now = list(view.hand_sizes) + [0] * (places.STOCK_CODE - len(view.hand_sizes)) + net[places.STOCK_CODE :]
    laid = net[places.LAID_ASIDE_CODE : places.TRICK_CODE]
    now[places.STOCK_CODE] = view.stock_size - sum(laid)
    dealt = [now[p] - net[p] for p in range(CODES)]
    if min(dealt) < 0 or min(now) < 0 or sum(dealt) != DECK:
        raise fail(f"the counts {now} do not follow from a deal of {DECK} cards and the moves")
    if now[places.TRICK_CODE] != len(view.trick):
        raise fail(f"the trick holds {len(view.trick)} cards, not {now[places.TRICK_CODE]}")
    return dealt, now


def _engine_takes_all(recs: Records, dealt: list[int]) -> bool:
    """Whether each of the engine's own moves (made with no decision) took every card of
    its place: else it chose which by a rule of its step's own, left out of the model."""
    count = list(dealt)
    have, was = -1, (-1, -1)
    for entry, _, _, cards, src, dst, _, _ in recs:
        if src == dst:
            continue
        n = cards.bit_count() if cards >= 0 else -cards
        if entry < 0 and was != (src, dst):
            if have > 0:
                return False
            have = count[src]
        was = (src, dst) if entry < 0 else (-1, -1)
        have -= n if entry < 0 else 0
        count[src] -= n
        count[dst] += n
    return have <= 0


def _runs(recs: Records) -> tuple[list[Run], dict[int, int]]:
    """The hidden moves as runs, and each hidden record's run."""
    runs: list[Run] = []
    at: dict[int, int] = {}
    last = -2
    for i, (entry, forced, _, cards, src, dst, _, _) in enumerate(recs):
        if cards >= 0 or src == dst:  # seen, or cards turned up unseen (nothing moves)
            continue
        part = (-1 if forced >= 0 else entry, -cards)
        if runs and last == i - 1:
            run = runs[-1]
            if (run.src, run.dst) == (src, dst) and (run.parts[0][0] < 0) == (part[0] < 0):
                runs[-1] = run._replace(number=run.number - cards, parts=(*run.parts, part))
                at[i], last = len(runs) - 1, i
                continue
        runs.append(Run(src, dst, -cards, (part,), i))
        at[i], last = len(runs) - 1, i
    return runs, at


def _fold(
    recs: Records, runs: list[Run], hidden_at: dict[int, int], facts: Facts, dealt: list[int]
) -> tuple[tuple[tuple[int, int], ...], int]:
    """Fold every run between two places that nothing before told apart (but the cards
    it may not carry); move the dealt counts to where its cards went. Returns the folded
    runs, each with the cards seen leaving where it went before it, and the ways they add."""
    poss = [FULL if n else 0 for n in dealt]
    count = list(dealt)
    left = [0] * CODES  # the cards seen leaving each place so far
    touched = 0  # places a run not folded has touched
    folded: dict[int, int] = {}
    factor = 1
    pins = sorted(facts.pins)
    k = 0
    last = runs[-1].at + 1 if runs else 0  # (nothing to fold after the last run)
    for i, (_, _, _, cards, src, dst, _, _) in enumerate(recs[:last]):
        while k < len(pins) and pins[k][0] <= i:
            _, mask, allowed = pins[k]
            for p in range(CODES):
                if not allowed >> p & 1:
                    poss[p] &= ~mask
            k += 1
        n = cards.bit_count() if cards >= 0 else -cards
        if cards >= 0:
            for p in range(CODES):
                poss[p] &= ~cards
            poss[dst] |= cards
            left[src] |= cards if src != dst else 0
        elif src != dst:
            j = hidden_at[i]
            run = runs[j]
            between = 1 << src | 1 << dst
            banned = sum(1 << f[1] for f in facts.forbid if f[2:] == (src, dst) and f[0] <= i)
            if run.at == i and not touched & between and poss[src] & ~banned == poss[dst]:
                folded[j] = left[dst]
                factor *= comb(count[dst] + run.number, run.number)
                dealt[src] -= run.number
                dealt[dst] += run.number
            if j not in folded:
                poss[dst] |= poss[src]
                touched |= between
        if src != dst:
            count[src] -= n
            count[dst] += n
    return tuple(folded.items()), factor


def _ends(view: cb.View) -> list[int]:
    """Per card, the places (as a mask of codes) it may be in now."""
    seat = view.seat
    ends = [~(1 << seat)] * DECK
    for card in bits(view.hand.mask):
        ends[card] = 1 << seat
    for who, voids in enumerate(view.known_voids):
        for suit in voids:
            for card in bits(SUITS[suit.value]):
                ends[card] &= ~(1 << who)
    final = view.final_stock
    if final is not None:
        stock = 1 << places.STOCK_CODE | 15 << places.LAID_ASIDE_CODE  # the stock, the discards
        for card in range(DECK):
            ends[card] &= stock if final.mask >> card & 1 else ~stock
    return ends


def _paths(
    card: int, events: list[Event], runs: list[Run], facts: Facts, dealt: list[int], end: int
) -> list[tuple[int, int, int]]:
    """Every path of ``card`` (its events: its seen moves and the runs; the call's pins are
    added here): ``(dealt place, runs taken as a mask, place now)``."""
    bit = 1 << card
    for at, mask, allowed in facts.pins:
        if mask & bit:
            events.append((at, -1, allowed, 0))
    if not events:  # (most cards: nothing seen of them, no hidden move)
        return [(p, 0, p) for p in range(CODES) if dealt[p] and end >> p & 1]
    if all(e[1] == 0 for e in events):  # only seen moves: one path at most
        origin = where = events[0][2]
        for _, _, a, b in events:
            if where != a:
                return []
            where = b
        return [(origin, 0, where)] if dealt[origin] and end >> where & 1 else []
    events.sort()
    banned = 0
    for at, forbidden, src, dst in facts.forbid:
        if forbidden == card:
            for j, run in enumerate(runs):
                if run.at >= at and (run.src, run.dst) == (src, dst):
                    banned |= 1 << j
    out: list[tuple[int, int, int]] = []
    first = events[0]
    starts = [first[2]] if first[1] == 0 else [p for p in range(CODES) if dealt[p]]
    stack = [(p, p, 0, 0) for p in starts if dealt[p]]
    while stack:
        origin, where, taken, k = stack.pop()
        while k < len(events):
            _, kind, a, b = events[k]
            k += 1
            if kind == 0:
                if where != a:
                    break
                where = b
            elif kind < 0:
                if not a >> where & 1:
                    break
            elif runs[a].src == where and not banned >> a & 1:
                stack.append((origin, runs[a].dst, taken | 1 << a, k))
        else:
            if end >> where & 1:
                out.append((origin, taken, where))
    return out


def _count(
    view: cb.View, recs: Records, runs: list[Run], folded: tuple[tuple[int, int], ...],
    paths: list[list[tuple[int, int, int]]], now: list[int], facts: Facts, factor: int,
) -> Model:  # fmt: skip
    """Build and solve the counting programme over the cards."""
    # a run is counted unless the places its cards end in say it (discards: where they lie)
    counted = []
    distinct = {id(ways): ways for ways in paths}.values()
    for j in range(len(runs)):
        if j in dict(folded):
            continue
        ends = {w for ways in distinct for _, t, w in ways if t >> j & 1}
        if any((t >> j & 1) != (w in ends) for ways in distinct for _, t, w in ways):
            counted.append(j)
    bins = [p for p in range(CODES) if now[p]]  # the places that hold cards now
    at, nb = {p: b for b, p in enumerate(bins)}, len(bins)
    targets = [now[p] for p in bins] + [runs[j].number for j in counted]
    targets += [mask.bit_count() for _, mask in facts.not_all]
    radices, strides = [t + 2 for t in targets], [1]
    for r in radices[:-1]:
        strides.append(strides[-1] * r)
    limits = list(zip(strides, radices, targets))
    start, dealt_to, moved = 0, [0] * CODES, [0] * len(runs)
    Key = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]
    groups: dict[Key, list[int]] = {}
    keys: dict[int, Key] = {}  # by the paths' list, where no call's count tells cards apart
    for card, ps in enumerate(paths):
        if not ps:
            raise fail(f"{cb.DECK[card]} fits nowhere")
        key = keys.get(id(ps)) if len(ps) > 1 and not facts.not_all else None
        if key is not None:
            groups[key].append(card)
            continue
        found: dict[int, list[tuple[int, int]]] = {}
        for origin, taken, where in ps:
            d = strides[at[where]]
            if taken:
                for c, j in enumerate(counted):
                    if taken >> j & 1:
                        d += strides[nb + c]
            for c, (place, mask) in enumerate(facts.not_all):
                if place == where and mask >> card & 1:
                    d += strides[nb + len(counted) + c]
            found.setdefault(d, []).append((origin, taken))
        if len(found) == 1 and len(ps) == 1:
            (d,) = found
            start += d
            dealt_to[ps[0][0]] |= 1 << card
            for j in bits(ps[0][1]):
                moved[j] |= 1 << card
            continue
        key = tuple(sorted((d, tuple(p)) for d, p in found.items()))
        groups.setdefault(key, []).append(card)
        keys[id(ps)] = key
    for c, (s, r, t) in enumerate(limits):
        if start // s % r > t:
            raise fail(f"{places.Place.of(bins[c]) if c < nb else c} holds too many known cards")
    singles = {strides[c]: c for c in range(nb)}
    pure = [k for k in groups if all(len(p) == 1 and d in singles for d, p in k)]
    tail_key = max(pure, key=lambda k: (len(groups[k]), k), default=None)
    tail = groups.pop(tail_key) if tail_key is not None else []
    tail_counters = {singles[d] for d, _ in tail_key} if tail_key is not None else set()
    tail_paths = tuple((singles[d], p[0]) for d, p in tail_key) if tail_key else ()
    cards: list[int] = []
    options: list[tuple[tuple[int, tuple[tuple[int, int], ...]], ...]] = []
    for key, members in sorted(groups.items(), key=lambda kv: (len(kv[0]), kv[0])):
        for card in members:
            cards.append(card)
            options.append(key)
    tail_all = factorial(len(tail))
    first_fact = nb + len(counted)

    def weight(s: int) -> int:
        ways = tail_all
        for c, (st, r, t) in enumerate(limits):
            fill = s // st % r
            if c >= first_fact:
                if fill == t:
                    return 0
            elif fill != t:
                if fill > t or c not in tail_counters:
                    return 0
                ways //= factorial(t - fill)
        return ways

    # each option's counters: (stride, radix, target), the fill it may not pass
    touches = [
        [tuple(lim for lim in limits if d // lim[0] % lim[1]) for d, _ in opts] for opts in options
    ]
    levels: list[set[int]] = [{start}]
    for i in range(len(cards)):
        nxt: set[int] = set()
        for d, lims in zip([d for d, _ in options[i]], touches[i]):
            if len(lims) == 1:
                ((st, r, t),) = lims
                nxt.update([s + d for s in levels[i] if s // st % r < t])
            else:
                nxt.update([s + d for s in levels[i] if all(s // st % r < t for st, r, t in lims)])
        levels.append(nxt)
    table: list[dict[int, int]] = [{} for _ in levels]
    table[-1] = {s: w for s in levels[-1] if (w := weight(s))}
    for i in range(len(cards) - 1, -1, -1):
        after, here = table[i + 1], table[i]
        for s in levels[i]:
            t = 0
            for d, ways in options[i]:
                t += len(ways) * after.get(s + d, 0)
            if t:
                here[s] = t
    total = table[0].get(start, 0)
    if not total:
        raise fail("no placement of the unseen cards fits every count and show-out")
    for run in runs:
        if run.parts[0][0] >= 0:  # a decision's cards may go in any order
            total *= factorial(run.number)
            for _, n in run.parts:
                total //= factorial(n)
    exact = facts.exact and _no_revoke(view, recs)
    return Model(
        tuple(runs), folded, tuple(cards), tuple(options), tuple(dealt_to), tuple(moved),
        tuple(tail), tail_paths, tuple(limits), start, tuple(table), total * factor, exact,
    )  # fmt: skip


def _no_revoke(view: cb.View, recs: Records) -> bool:
    """Whether every card played off the suit led is a show-out (else a revoke, or a
    play where suit need not be followed, may have rules the model leaves out)."""
    voids = view.known_voids
    led = None
    for record in recs:
        if record[5] == places.TRICK_CODE and record[4] != places.TRICK_CODE:
            suit = cb.DECK[record[3].bit_length() - 1].suit
            if led is None:
                led = suit
            elif suit is not led and led not in voids[record[2]]:
                return False
        elif record[4] == places.TRICK_CODE:
            led = None
    return True
