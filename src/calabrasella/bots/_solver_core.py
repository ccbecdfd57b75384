"""Private: the search behind :mod:`calabrasella.bots.solver`, on masks and plain ints.

Seats are *positions* here: 0 is the declarer, 1 the adversary after him in
turn order, 2 the other adversary; play goes 0, 1, 2, 0, ... A hand is a
40-bit mask over :attr:`calabrasella.Card.index` (``suit * 10 + position``,
position 0 the strongest rank), so within a suit a lower index wins.

The search answers one question at a time: can the declarer collect at least
``t`` of the units still to be won (the cards left in the hands, plus the
last-trick bonus: the ruleset's and the stock's units)? It is a null-window alpha-beta
over whole tricks, fail-soft (the value returned bounds the true value on
the side of ``t`` it falls), with:

- a transposition table keyed at trick boundaries on the remaining cards in
  *relative* form: within each suit only the order of the cards left, who
  holds each and their units matter, and the four suits are interchangeable
  (there are no trumps); it keeps a lower and an upper bound of the units
  still to come, and the lead that last refuted or proved;
- equivalent cards searched once: cards of one hand and suit, with no card
  of another hand (or of the trick) between them and the same units;
- bounds from *cashing*: the side on lead surely takes the tricks its leader
  can cash from the top; when every suit the leader holds is topped by the
  other side, the other side surely wins the first trick and then cashes;
  each hand of the other side gives at least its cheapest cards to them;
- move ordering: the stored lead first, then the last two leads that decided
  a position of the same kind (killers), then, with six tricks or more left,
  the leads that decided the most (and the largest) subtrees for the same
  role so far (history), then sure winners, low cards; second and third
  hands by what the trick brings their side.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from time import perf_counter
from types import ModuleType
from typing import Any

import calabrasella as cb

from ._solver_moves import (
    LEADS,
    SECONDS,
    SUITS,
    THIRDS,
    TOP,
    UNITS,
    any_thirds,
    bounds,
    decode,
    discards,
    lead_part,
    seconds,
    suit_info,
    thirds,
    units,
)

__all__ = ["NATIVE", "NativeSearch", "NodeLimit", "Search", "native_tables"]


# --- the search ---------------------------------------------------------------------


#: Leads are ordered by their history (every node that decided counts) at nodes with
#: this many tricks left or more:
#: over the 50 deals of benchmarks/solver.py (both games, --one-best), 8% fewer
#: nodes after a random exchange and 4% fewer after the heuristic one (the medians
#: 20% and 17% fewer); at every node, the same totals but a worse median for the
#: heuristic exchange, and a sort at every node costs time.
HISTORY_FROM = 6
#: What deciding a node with ``n`` tricks left adds to its lead's history: 2 ** n.
_WEIGHT = tuple(1 << n for n in range(13))


class NodeLimit(Exception):
    """Raised by the probe when a search passes its node limit or its deadline."""


class Search:
    """One solve's search: its bonus, its rules of play and its transposition table.

    Attributes:
        bonus: Units for the last trick: the ruleset's ``last_trick_units`` plus the stock's units.
        follow: Whether a player must follow suit.
        table: Relative key of a position (the four suits' codes, sorted, and the
            leader, packed in one int) -> [lower bound, upper bound, best lead].
        exact_table: Whether positions are also found by their exact hands
            (``exact``: the same entries as ``table``); on in Python, off compiled.
        history: Whether leads are also ordered by their history (see
            ``HISTORY_FROM``); off only to compare (the value is the same).
        probe: ``probe(h0, h1, h2, lead, rest, t)``: at a trick boundary
            (``rest`` the card units left in the hands), a bound on the
            units the declarer collects from here: at most the true value
            (a lower bound) if it is ``>= t``, at least it (an upper bound)
            if it is ``< t``.
    """

    def __init__(
        self,
        bonus: int,
        follow: bool,
        exact_table: bool = True,
        limit: int = -1,
        history: bool = True,
    ) -> None:
        self.bonus = bonus
        self.follow = follow
        self.history = history
        # The exact hands save working out the relative key on most probes.
        self.exact_table = exact_table
        self.table: dict[int, list[int]] = {}
        # The exact hands and leader (packed in one int) -> the same entry as in table.
        self.exact: dict[int, list[int]] = {}
        # (leader's role, tricks left) -> the last lead that decided such a node; | 512: the one before
        self.killers: dict[int, int] = {}
        # (leader's role << 6 | card) -> the sum of 2 ** tricks left over the nodes
        # that this lead decided (its history)
        self.scores: dict[int, int] = {}
        # The probe counts nodes here, not on self: a closure that referred to
        # self would keep the search and its tables alive until the cyclic
        # garbage collector ran (see release).
        self._count = [0]
        # The most nodes the search may examine (-1: no limit), and a perf_counter()
        # deadline (0.0: none, read every 1024 nodes); past either, NodeLimit.
        self._limit = [limit]
        self._deadline = [0.0]
        self.probe: Callable[[int, int, int, int, int, int], int] = self._build()

    @property
    def nodes(self) -> int:
        """Positions searched (not settled by the table or the bounds)."""
        return self._count[0]

    @property
    def limit(self) -> int:
        """The most positions the search may examine before raising NodeLimit (-1: no limit)."""
        return self._limit[0]

    @limit.setter
    def limit(self, value: int) -> None:
        self._limit[0] = value if value < 0 or value > self._count[0] else self._count[0] + 1

    @property
    def deadline(self) -> float:
        """The ``time.perf_counter()`` past which the search raises NodeLimit (0.0: none)."""
        return self._deadline[0]

    @deadline.setter
    def deadline(self, value: float) -> None:
        self._deadline[0] = value

    def release(self) -> None:
        """Empty the tables: their memory is freed at once, the search stays usable."""
        self.table.clear()
        self.exact.clear()
        self.killers.clear()
        self.scores.clear()

    def value(self, h0: int, h1: int, h2: int, lead: int, guess: int | None = None) -> int:
        """Return the exact units the declarer collects from a trick boundary on (MTD(f))."""
        rest = units(h0 | h1 | h2)
        lo, hi = 0, rest + self.bonus
        probe = self.probe
        g = lo + 1 if guess is None else guess
        while lo < hi:
            g = max(lo + 1, min(g, hi))
            v = probe(h0, h1, h2, lead, rest, g)
            if v >= g:
                lo = v
                g = v + 1
            else:
                hi = v
                g = v
        return lo

    def candidates(
        self, hands: tuple[int, int, int], lead: int, trick: tuple[int, ...]
    ) -> tuple[int, ...]:
        """The cards the search tries for the mover, in its order (equivalent and dominated
        cards left out); ``hands`` are after the cards of ``trick``, which has 0 to 2 cards."""
        p1 = lead
        p2, p3 = (lead + 1) % 3, (lead + 2) % 3
        declarer_at = 0 if p1 == 0 else 1 if p2 == 0 else 2
        if not trick:
            a1, a2, a3 = hands[p1], hands[p2], hands[p3]
            role = 0 if p1 == 0 else 1 if p2 else 2
            keyed: list[int] = []
            for s in range(4):
                sh = 10 * s
                mine = a1 >> sh & 1023
                if mine:
                    k = (
                        s
                        | mine << 2
                        | (a2 >> sh & 1023) << 12
                        | (a3 >> sh & 1023) << 22
                        | role << 32
                    )
                    keyed += LEADS.get(k) or lead_part(k)
            return decode(keyed)
        c1 = trick[0]
        sh = c1 - c1 % 10
        n1 = hands[p1]
        a1 = n1 | 1 << c1
        if len(trick) == 1:
            a2, a3 = hands[p2], hands[p3]
            o3 = a3 >> sh & 1023
            mine2 = a2 >> sh & 1023
            if self.follow and mine2:
                k = sh // 10 | mine2 << 2 | o3 << 12 | (c1 - sh) << 22 | declarer_at << 26
                return SECONDS.get(k | (n1 >> sh & 1023) << 28) or seconds(
                    k | (n1 >> sh & 1023) << 28
                )
            if not self.follow:
                mode = 0
            elif declarer_at == 1:
                mode = 1
            elif c1 - sh < TOP[o3]:
                mode = 2 if declarer_at == 2 else 1
            else:
                mode = 3 if declarer_at == 0 else 0
            return discards(a2, (a3 | a1) & ~(1023 << sh) if self.follow else a3 | a1, mode)
        c2 = trick[1]
        n2, a3 = hands[p2], hands[p3]
        a2 = n2 | 1 << c2
        best, wpos = (c2, p2) if sh <= c2 < c1 else (c1, p1)
        winning = (wpos == 0) == (p3 == 0)
        mine3 = a3 >> sh & 1023
        if self.follow and mine3:
            k = (
                sh // 10 | mine3 << 2 | ((a1 | a2) >> sh & 1023) << 12
                | (best - sh) << 22 | winning << 26
            )  # fmt: skip
            return THIRDS.get(k) or thirds(k)
        if self.follow:
            return discards(a3, (n1 | n2) & ~(1023 << sh), 2 if winning else 1)
        return any_thirds(a3, a1 | a2, best, winning)

    def after(self, hands: tuple[int, int, int], lead: int, trick: tuple[int, ...], t: int) -> int:
        """Bound (fail-soft, around ``t``) the declarer's units from within a trick on.

        ``hands`` are after the cards of ``trick`` (1 to 3 cards, led by
        ``lead``); the value counts this trick's units and all that follows.
        """
        if len(trick) == 3:
            low = trick[0] - trick[0] % 10
            won = min(c for c in trick if low <= c < low + 10)
            winner = (lead + trick.index(won)) % 3
            u = UNITS[trick[0]] + UNITS[trick[1]] + UNITS[trick[2]]
            h0, h1, h2 = hands
            if not (h0 | h1 | h2):  # that was the last trick
                return u + self.bonus if winner == 0 else 0
            rest = units(h0 | h1 | h2)
            if winner == 0:
                return self.probe(h0, h1, h2, 0, rest, t - u) + u
            return self.probe(h0, h1, h2, winner, rest, t)
        mover = (lead + len(trick)) % 3
        value = -1 if mover == 0 else 99
        for card in self.candidates(hands, lead, trick):
            after = tuple(h ^ (1 << card) if i == mover else h for i, h in enumerate(hands))
            v = self.after(after, lead, (*trick, card), t)  # type: ignore[arg-type]
            if mover == 0:
                if v > value:
                    value = v
                    if v >= t:
                        break
            elif v < value:
                value = v
                if v < t:
                    break
        return value

    def _build(self) -> Callable[[int, int, int, int, int, int], int]:
        bonus = self.bonus
        follow = self.follow
        table = self.table
        exact = self.exact
        exact_get = exact.get
        table_get = table.get
        units_of = UNITS
        top = TOP
        suits_get = SUITS.get
        leads_get = LEADS.get
        seconds_get = SECONDS.get
        thirds_get = THIRDS.get
        follow_bit = 1 << 30 if follow else 0
        count = self._count
        limit = self._limit
        deadline = self._deadline
        use_exact = self.exact_table
        killers = self.killers
        killers_get = killers.get
        scores = self.scores
        scores_get = scores.get
        history_from = HISTORY_FROM if self.history else 99
        weight = _WEIGHT

        def probe(h0: int, h1: int, h2: int, lead: int, rest: int, t: int) -> int:
            if t <= 0:
                return 0
            total = rest + bonus
            if t > total:
                return total
            if use_exact:
                exact_key = h0 | h1 << 40 | h2 << 80 | lead << 120
                entry = exact_get(exact_key)
            else:
                exact_key, entry = -1, None
            if entry is None:
                k0 = h0 & 1023 | (h1 & 1023) << 10 | (h2 & 1023) << 20 | follow_bit
                k1 = (
                    h0 >> 10 & 1023 | (h1 >> 10 & 1023) << 10 | (h2 >> 10 & 1023) << 20 | follow_bit
                )
                k2 = (
                    h0 >> 20 & 1023 | (h1 >> 20 & 1023) << 10 | (h2 >> 20 & 1023) << 20 | follow_bit
                )
                k3 = h0 >> 30 | (h1 >> 30) << 10 | (h2 >> 30) << 20 | follow_bit
                i0 = suits_get(k0) or suit_info(k0)
                i1 = suits_get(k1) or suit_info(k1)
                i2 = suits_get(k2) or suit_info(k2)
                i3 = suits_get(k3) or suit_info(k3)
                c0, c1, c2, c3 = i0[0], i1[0], i2[0], i3[0]
                # the four suits are interchangeable: sort their codes
                if c0 > c1:
                    c0, c1 = c1, c0
                if c2 > c3:
                    c2, c3 = c3, c2
                if c0 > c2:
                    c0, c2 = c2, c0
                if c1 > c3:
                    c1, c3 = c3, c1
                if c1 > c2:
                    c1, c2 = c2, c1
                key = c0 | c1 << 41 | c2 << 82 | c3 << 123 | lead << 164
                entry = table_get(key)
                if entry is None:
                    lo, hi = bounds((i0, i1, i2, i3), (h0, h1, h2), lead, total)
                    entry = table[key] = [lo, hi, -1]
                if use_exact:
                    exact[exact_key] = entry
            if entry[0] >= t:
                return entry[0]
            if entry[1] < t:
                return entry[1]
            count[0] += 1
            if count[0] == limit[0]:
                raise NodeLimit(count[0])
            if not count[0] & 1023 and deadline[0] and perf_counter() > deadline[0]:
                raise NodeLimit(count[0])
            if lead == 0:
                a1, a2, a3, p2, p3 = h0, h1, h2, 1, 2
            elif lead == 1:
                a1, a2, a3, p2, p3 = h1, h2, h0, 2, 0
            else:
                a1, a2, a3, p2, p3 = h2, h0, h1, 0, 1
            p1 = lead
            max1 = p1 == 0
            max2 = p2 == 0
            max3 = p3 == 0
            tricks_left = a1.bit_count()
            # the leader's cards, sure winners first (the stored lead before all)
            role = 0 if max1 else 1 if p2 else 2
            keyed: list[int] = []
            for s in (0, 1, 2, 3):
                sh = 10 * s
                mine = a1 >> sh & 1023
                if mine:
                    k = (
                        s
                        | mine << 2
                        | (a2 >> sh & 1023) << 12
                        | (a3 >> sh & 1023) << 22
                        | role << 32
                    )
                    keyed += leads_get(k) or lead_part(k)
            m1 = decode(keyed)
            if tricks_left >= history_from and len(m1) > 1:
                # the leads that decided most for this role first (a stable sort: ties
                # keep their order)
                base = role << 6
                m1 = tuple(sorted(m1, key=lambda c: -scores_get(base | c, 0)))
            # the lead that last decided a node of this kind, then this position's own
            kind = role << 4 | tricks_left
            killer2 = killers_get(kind | 512, -1)
            if killer2 >= 0 and m1[0] != killer2 and killer2 in m1:
                m1 = (killer2, *[c for c in m1 if c != killer2])
            killer = killers_get(kind, -1)
            if killer >= 0 and m1[0] != killer and killer in m1:
                m1 = (killer, *[c for c in m1 if c != killer])
            hint = entry[2]
            if hint >= 0 and m1[0] != hint and hint in m1:
                m1 = (hint, *[c for c in m1 if c != hint])
            v1 = -1 if max1 else 99
            best1 = -1
            partner_led = not (max1 or max2)
            declarer_at = (0 if max1 else 1 if max2 else 2) << 26
            for c1 in m1:
                sh = c1 - c1 % 10
                b1 = 1 << c1
                n1 = a1 ^ b1
                v2 = -1 if max2 else 99
                o3 = a3 >> sh & 1023
                mine2 = a2 >> sh & 1023
                if follow and mine2:
                    k = (
                        sh // 10 | mine2 << 2 | o3 << 12 | (c1 - sh) << 22 | declarer_at
                        | (n1 >> sh & 1023) << 28
                    )  # fmt: skip
                    m2 = seconds_get(k) or seconds(k)
                else:
                    if not follow:
                        mode = 0
                    elif max2:  # the declarer cannot win it: the adversaries' trick
                        mode = 1
                    elif c1 - sh < top[o3]:  # the leader's card wins it
                        mode = 2 if partner_led else 1
                    else:  # the last hand can beat it: the partner, after the declarer's lead
                        mode = 3 if max1 else 0
                    m2 = discards(a2, (a3 | a1) & ~(1023 << sh) if follow else a3 | a1, mode)
                for c2 in m2:
                    n2 = a2 ^ 1 << c2
                    if sh <= c2 < c1:
                        best, wpos = c2, p2
                    else:
                        best, wpos = c1, p1
                    v3 = -1 if max3 else 99
                    u12 = units_of[c1] + units_of[c2]
                    mine3 = a3 >> sh & 1023
                    winning = (wpos == 0) == max3
                    if follow and mine3:
                        k = (
                            sh // 10 | mine3 << 2 | ((a1 | a2) >> sh & 1023) << 12
                            | (best - sh) << 22 | winning << 26
                        )  # fmt: skip
                        m3 = thirds_get(k) or thirds(k)
                    elif follow:
                        m3 = discards(a3, (n1 | n2) & ~(1023 << sh), 2 if winning else 1)
                    else:
                        m3 = any_thirds(a3, a1 | a2, best, winning)
                    for c3 in m3:
                        w = p3 if sh <= c3 < best else wpos
                        u = u12 + units_of[c3]
                        n3 = a3 ^ 1 << c3
                        if tricks_left == 1:  # the last trick
                            r = u + bonus if w == 0 else 0
                        elif tricks_left == 2:  # the last trick is forced: play it here
                            x1 = n1.bit_length() - 1
                            x2 = n2.bit_length() - 1
                            x3 = n3.bit_length() - 1
                            led = x1 if w == p1 else x2 if w == p2 else x3
                            low = led - led % 10
                            top_card = led
                            if low <= x1 < top_card:
                                top_card = x1
                            if low <= x2 < top_card:
                                top_card = x2
                            if low <= x3 < top_card:
                                top_card = x3
                            mine_last = x1 if max1 else x2 if max2 else x3
                            r = (
                                units_of[x1] + units_of[x2] + units_of[x3] + bonus
                                if top_card == mine_last
                                else 0
                            )
                            if w == 0:
                                r += u
                        elif w == 0:
                            if t <= u:
                                r = u
                            elif p1 == 0:
                                r = probe(n1, n2, n3, 0, rest - u, t - u) + u
                            elif p1 == 1:
                                r = probe(n3, n1, n2, 0, rest - u, t - u) + u
                            else:
                                r = probe(n2, n3, n1, 0, rest - u, t - u) + u
                        elif p1 == 0:
                            r = probe(n1, n2, n3, w, rest - u, t)
                        elif p1 == 1:
                            r = probe(n3, n1, n2, w, rest - u, t)
                        else:
                            r = probe(n2, n3, n1, w, rest - u, t)
                        if max3:
                            if r > v3:
                                v3 = r
                                if r >= t:
                                    break
                        elif r < v3:
                            v3 = r
                            if r < t:
                                break
                    if max2:
                        if v3 > v2:
                            v2 = v3
                            if v3 >= t:
                                break
                    elif v3 < v2:
                        v2 = v3
                        if v3 < t:
                            break
                if max1:
                    if v2 > v1:
                        v1 = v2
                        if v2 >= t:
                            best1 = c1
                            scores[role << 6 | c1] = (
                                scores_get(role << 6 | c1, 0) + weight[tricks_left]
                            )
                            if killers_get(kind) != c1:
                                killers[kind | 512] = killers_get(kind, -1)
                                killers[kind] = c1
                            break
                elif v2 < v1:
                    v1 = v2
                    if v2 < t:
                        best1 = c1
                        scores[role << 6 | c1] = scores_get(role << 6 | c1, 0) + weight[tricks_left]
                        if killers_get(kind) != c1:
                            killers[kind | 512] = killers_get(kind, -1)
                            killers[kind] = c1
                        break
            if v1 >= t:
                if v1 > entry[0]:
                    entry[0] = v1
            elif v1 < entry[1]:
                entry[1] = v1
            if best1 >= 0:
                entry[2] = best1
            return v1

        return probe


# --- the compiled search ---------------------------------------------------------------


def native_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """What the compiled search takes of the rules, from the engine's cards; None if it cannot.

    Returns ``(suits, units, classes)``: the four suits as 40-bit card masks,
    each card's units, and each card's class of units (cards of equal units
    share a class). The compiled search assumes a card beats another exactly
    when both are of one suit and its index is the lower: this checks that
    against :meth:`calabrasella.Card.beats` for every pair of cards, and
    returns None (the pure search is used) if it does not hold, or if the
    units take more than four values.
    """
    deck = cb.DECK
    suits = tuple(sum(1 << c.index for c in deck if c.suit == s) for s in sorted({c.suit for c in deck}))
    for a in deck:
        for b in deck:
            if a.beats(b) != (a.suit == b.suit and a.index < b.index):
                return None  # pragma: no cover (the engine's numbering changed)
    values = sorted({c.units for c in deck})
    if len(suits) != 4 or len(values) > 4 or [c.index for c in deck] != list(range(40)):
        return None  # pragma: no cover
    units_of = tuple(c.units for c in deck)
    return suits, units_of, tuple(values.index(u) for u in units_of)


def _load() -> tuple[ModuleType | None, str]:
    """The compiled search's module if it is built and not turned off, else None and why."""
    if os.environ.get("CALABRASELLA_PURE_SOLVER", "") not in ("", "0"):
        return None, "turned off by CALABRASELLA_PURE_SOLVER=1"
    if importlib.util.find_spec(f"{__package__}._solver_native") is None:
        return None, (
            "installed without the compiled module: no working C compiler at "
            "install time, or CALABRASELLA_NATIVE=0"
        )
    try:
        from . import _solver_native  # type: ignore[attr-defined]
    except ImportError as error:  # pragma: no cover (a module built for another Python)
        return None, f"its module failed to load ({error})"
    if native_tables() is None:
        return None, "the engine's cards are not as it assumes"  # pragma: no cover
    module: ModuleType = _solver_native
    return module, ""


#: The compiled search's extension module (``_solver_native``), or None when it is
#: not built or ``CALABRASELLA_PURE_SOLVER=1`` turned it off; and, when None, why.
NATIVE, WHY_PURE = _load()
_TABLES = native_tables() if NATIVE is not None else None
#: log2 of the most entries the compiled search's transposition table grows to: the
#: positions of six tricks or fewer (most of them) in entries of 16 bytes (16 MiB), the
#: others in a table of a quarter as many entries of 32 bytes (8 MiB). Each starts at
#: 4,096 entries and grows fourfold when half full up to 2**19 entries of 16 bytes
#: (2**18 of 32: 8 MiB), then when seven eighths full: only the slowest deals (a
#: million nodes or more) grow it further, and they search half as many nodes with it.
TABLE_BITS = 20


class NativeSearch(Search):
    """A :class:`Search` whose probe is the compiled one (the rest, in Python, the same).

    The probe answers the same question with the same fail-soft contract;
    its table is in native memory (growing up to ``2 ** TABLE_BITS`` entries) and is
    freed by :meth:`release`.
    """

    def __init__(
        self, bonus: int, follow: bool, limit: int = -1, module: ModuleType | None = None,
        units: tuple[int, ...] | None = None,
    ) -> None:  # fmt: skip
        found = module if module is not None else NATIVE
        if found is None or _TABLES is None:
            raise RuntimeError("the compiled search is not available")
        suits, units_of, classes = _TABLES
        if units is not None and units != units_of:  # the ruleset's (40; at most 4 values)
            values = sorted(set(units))
            units_of, classes = units, tuple(values.index(u) for u in units)
        self._core: Any = found.Core(
            bonus, follow, suits, units_of, classes, perf_counter, NodeLimit, TABLE_BITS
        )
        super().__init__(bonus, follow, exact_table=False, limit=limit)
        self._core.limit = limit
        self.probe = self._core.probe

    def _build(self) -> Callable[[int, int, int, int, int, int], int]:
        return lambda *args: 0  # replaced by the compiled probe in __init__

    @property
    def nodes(self) -> int:
        """Positions searched (not settled by the table or the bounds)."""
        return int(self._core.nodes)

    @property
    def limit(self) -> int:
        """The most positions the search may examine before raising NodeLimit (-1: no limit)."""
        return int(self._core.limit)

    @limit.setter
    def limit(self, value: int) -> None:
        core = getattr(self, "_core", None)
        if core is not None:
            core.limit = value if value < 0 or value > core.nodes else core.nodes + 1

    @property
    def deadline(self) -> float:
        """The ``time.perf_counter()`` past which the search raises NodeLimit (0.0: none)."""
        return float(self._core.deadline)

    @deadline.setter
    def deadline(self, value: float) -> None:
        self._core.deadline = value

    def release(self) -> None:
        """Free the table: the search stays usable (a new table on the next probe)."""
        super().release()
        self._core.release()
