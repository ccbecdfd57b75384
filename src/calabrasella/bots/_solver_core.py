"""Private: the search behind :mod:`calabrasella.bots.solver`, on masks and plain ints.

Seats are *positions* here: 0 is the declarer, 1 the adversary after him in
turn order, 2 the other adversary; play goes 0, 1, 2, 0, ... A hand is a
40-bit mask over :attr:`calabrasella.Card.index` (``suit * 10 + position``,
position 0 the strongest rank), so within a suit a lower index wins.

The search answers one question at a time: can the declarer collect at least
``t`` of the units still to be won (the cards left in the hands, plus the
last-trick bonus: 3 and the stock's units)? It is a null-window alpha-beta
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
- move ordering: the stored lead first, then sure winners, low cards;
  second and third hands by what the trick brings their side.
"""

from __future__ import annotations

from collections.abc import Callable

import calabrasella as cb

__all__ = ["CACHE_LIMIT", "POS_UNITS", "UNITS", "Search", "trim_caches", "units"]

# --- tables, built once from the public Card API ---------------------------------

UNITS: tuple[int, ...] = tuple(card.units for card in cb.DECK)
if any(card.index != i for i, card in enumerate(cb.DECK)) or UNITS[10:] != UNITS[:10] * 3:
    raise ImportError("calabrasella.bots.solver: unexpected card numbering")  # pragma: no cover
#: Units of the ten positions of a suit, strongest first: 3 2 A K Q J 7 6 5 4.
POS_UNITS: tuple[int, ...] = UNITS[:10]
_SUIT_UNITS = tuple(sum(POS_UNITS[p] for p in range(10) if m >> p & 1) for m in range(1024))
#: Position of the strongest card of a 10-bit suit mask (10 if empty).
_TOP = tuple((m & -m).bit_length() - 1 if m else 10 for m in range(1024))
_UNIT_CLASS = {0: 0, 1: 1, 3: 2}
_FULL = (1 << 40) - 1


def units(mask: int) -> int:
    """Return the card units in a 40-bit card mask."""
    t = _SUIT_UNITS
    return t[mask & 1023] + t[mask >> 10 & 1023] + t[mask >> 20 & 1023] + t[mask >> 30 & 1023]


# --- caches (module-wide: they depend on nothing but their keys) -------------------

_BLOCKS: dict[int, tuple[tuple[int, ...], ...]] = {}
_SUITS: dict[int, tuple[int, ...]] = {}
_LEADS: dict[int, tuple[int, ...]] = {}
_SECONDS: dict[int, tuple[int, ...]] = {}
_THIRDS: dict[int, tuple[int, ...]] = {}
_DISCARDS: dict[int, tuple[int, ...]] = {}
_WHOLE_DISCARDS: dict[int, tuple[int, ...]] = {}
_CACHES = (_WHOLE_DISCARDS, _BLOCKS, _SUITS, _LEADS, _SECONDS, _THIRDS, _DISCARDS)
#: Entries a cache may hold before :func:`trim_caches` empties it.
CACHE_LIMIT = 1 << 20


def trim_caches() -> None:
    """Empty the move and key caches that have grown past :data:`CACHE_LIMIT`."""
    for cache in _CACHES:
        if len(cache) > CACHE_LIMIT:
            cache.clear()


# --- equivalent cards ------------------------------------------------------------


def _blocks(suit: int, mine: int, out: int) -> tuple[tuple[int, ...], ...]:
    """Return the cards of ``mine`` in ``suit`` worth searching, block by block, strongest first.

    ``mine`` and ``out`` are 10-bit masks of the suit: the hand's cards and
    the cards that still matter elsewhere (the other hands, the trick).
    Cards of ``mine`` with no card of ``out`` between them form a *block*:
    they win and lose the same tricks, only their units differ. Within a
    block, cards of equal units are equivalent: the weakest of each units
    stands for the rest.
    """
    key = suit << 20 | mine << 10 | out
    found = _BLOCKS.get(key)
    if found is not None:
        return found
    blocks: list[tuple[int, ...]] = []
    cards: list[int] = []
    held: dict[int, int] = {}  # units -> where the block's card of those units is in cards
    for p in range(11):
        if p == 10 or out >> p & 1:
            if cards:
                blocks.append(tuple(cards))
            cards = []
            held = {}
        elif mine >> p & 1:
            u = POS_UNITS[p]
            if u in held:
                cards[held[u]] = 10 * suit + p
            else:
                held[u] = len(cards)
                cards.append(10 * suit + p)
    result = _BLOCKS[key] = tuple(blocks)
    return result


def _reps(suit: int, mine: int, out: int) -> tuple[int, ...]:
    """Return every card of :func:`_blocks`, strongest first (the trick's winner is open)."""
    return tuple(c for block in _blocks(suit, mine, out) for c in block)


def _pick(block: tuple[int, ...], own_side_wins: bool) -> int:
    """Return the one card of a block worth playing when the trick's winner is settled.

    Playing card X now and keeping an equivalent Y is the same game as the
    other way round, but for where their units go: X's to this trick's
    winner, Y's to the winner of the trick Y is played to later. So with
    the trick going to the hand's own side the block's most units do at
    least as well, and with it going to the other side the fewest do.
    """
    if len(block) == 1:
        return block[0]
    units_of = [POS_UNITS[c % 10] for c in block]
    want = max(units_of) if own_side_wins else min(units_of)
    return block[units_of.index(want)]


# --- one suit of a position: its key form and what can be cashed in it --------------


def _least(mask: int, count: int) -> int:
    """Return the fewest units ``count`` cards of a 10-bit suit mask can hold (all if fewer)."""
    return sum(sorted(POS_UNITS[p] for p in range(10) if mask >> p & 1)[:count])


def _most(mask: int, count: int) -> int:
    """Return the most units ``count`` cards of a 10-bit suit mask can hold (all if fewer)."""
    return sum(sorted((POS_UNITS[p] for p in range(10) if mask >> p & 1), reverse=True)[:count])


def _cash(mine: int, x: int, y: int, follow: int) -> tuple[int, int, int, int, int]:
    """What a leader surely takes in one suit by leading it from the top.

    ``mine``, ``x`` and ``y`` are the 10-bit masks of the suit of the leader,
    the next hand and the last hand. The leader's cards above all the
    others' win one trick each and keep the lead; when suit must be
    followed and they outnumber each other hand's cards of the suit, his
    smaller cards win too.

    Returns ``(tricks, every, alone, partner_next, partner_last)``: the
    tricks so taken, 1 if that is every card he holds in the suit, and the
    units his side surely gains in them: his cards and the least the others
    must follow with (``alone``: the declarer leading), or with the partner
    dumping the most he can follow with, as the next or the last hand.
    """
    top_other = _TOP[x | y]
    run = [p for p in range(10) if mine >> p & 1 and p < top_other]
    tricks = len(run)
    held = mine.bit_count()
    if follow and tricks >= max(x.bit_count(), y.bit_count()):
        tricks = held
        own = _SUIT_UNITS[mine]
    else:
        own = sum(POS_UNITS[p] for p in run)
    if not (follow and tricks):
        return tricks, int(tricks == held), own, own, own
    least_x, least_y = _least(x, tricks), _least(y, tricks)
    return (
        tricks,
        int(tricks == held),
        own + least_x + least_y,
        own + _most(x, tricks) + least_y,
        own + least_x + _most(y, tricks),
    )


def _suit(key: int) -> tuple[int, ...]:
    """Return what the search needs of one suit of a position.

    ``key`` packs the declarer's, the first and the second adversary's
    10-bit masks of the suit, and bit 30: whether suit must be followed.

    Returns ``(code, d_tricks, d_every, d_gain, a1_tricks, a1_every,
    a1_gain, a2_tricks, a2_every, a2_gain, owner)``. ``code`` is the
    relative form of the suit: the cards left, strongest first, each as its
    holder (2 bits) and its units class (2 bits), behind a leading 1. Then,
    for each position as the leader, :func:`_cash`'s tricks, every and
    gain for its side (the declarer alone; the first adversary's partner
    plays next, the second's last). ``owner`` is the position holding the
    suit's top card (-1 if nobody holds the suit).
    """
    a, b, c, follow = key & 1023, key >> 10 & 1023, key >> 20 & 1023, key >> 30
    code = 1
    for p in range(10):
        bit = 1 << p
        if (a | b | c) & bit:
            who = 0 if a & bit else 1 if b & bit else 2
            code = code << 4 | who << 2 | _UNIT_CLASS[POS_UNITS[p]]
    top = _TOP[a | b | c]
    owner = -1 if top == 10 else 0 if a >> top & 1 else 1 if b >> top & 1 else 2
    d = _cash(a, b, c, follow)
    a1 = _cash(b, c, a, follow)
    a2 = _cash(c, a, b, follow)
    found = _SUITS[key] = (
        code, d[0], d[1], d[2], a1[0], a1[1], a1[3], a2[0], a2[1], a2[4], owner,
    )  # fmt: skip
    return found


def _bounds(
    infos: tuple[tuple[int, ...], ...], hands: tuple[int, int, int], lead: int, total: int
) -> tuple[int, int]:
    """Bound the units the declarer collects from a trick boundary, by cashing.

    The side on lead surely takes what its leader can cash. If every suit
    the leader holds has its top card in a hand of the other side, that
    side surely wins the first trick and then cashes what it can.
    """
    held = [[info for sh, info in zip((0, 10, 20, 30), infos) if h >> sh & 1023] for h in hands]
    if lead == 0:
        gain = sum(info[3] for info in held[0])
        if all(info[2] for info in held[0]):
            return total, total
        if any(info[1] for info in held[0]):
            return gain, total  # he holds a top card: no bound from above
        best = 0  # he leads the suit that leaves him most
        for owner in {info[10] for info in held[0]}:
            at = 4 if owner == 1 else 7
            if not all(info[at + 1] for info in held[owner]):
                best = max(best, total - sum(info[at + 2] for info in held[owner]))
        return gain, best
    at = 4 if lead == 1 else 7
    mine = held[lead]
    if all(info[at + 1] for info in mine):
        return 0, 0
    high = total - sum(info[at + 2] for info in mine)
    if not all(info[1] for info in mine):
        return 0, high  # a lead the declarer cannot win
    if all(info[2] for info in held[0]):
        return total, total
    return sum(info[3] for info in held[0]), high


# --- move lists in search order ------------------------------------------------------


def _decode(keyed: list[int]) -> tuple[int, ...]:
    keyed.sort()
    return tuple(k & 63 for k in keyed)


def _lead_part(key: int) -> tuple[int, ...]:
    """The leader's cards of one suit, scored for :func:`_leads` (sort key << 6 | card).

    ``key`` packs the suit (2 bits), the leader's, the next and the last
    hand's masks of it (10 bits each) and the leader's role (2 bits): 0 the
    declarer, 1 an adversary whose partner plays next, 2 one whose partner
    plays last. Sure winners first, then (for an adversary) leads to the
    partner's top card, then the fewest units and lowest cards.
    """
    suit, mine, o2, o3, role = (
        key & 3,
        key >> 2 & 1023,
        key >> 12 & 1023,
        key >> 22 & 1023,
        key >> 32,
    )
    partner, opponent = (o2, o3) if role == 1 else (o3, o2)
    keyed = []
    blocks = _blocks(suit, mine, o2 | o3)
    if blocks[0][0] - 10 * suit < _TOP[o2 | o3]:  # sure winners: the trick is his side's
        blocks = ((_pick(blocks[0], True),), *blocks[1:])
    for c in (c for block in blocks for c in block):
        pos = c - 10 * suit
        u = POS_UNITS[pos]
        if pos < _TOP[o2 | o3]:
            score = 100 + 4 * u + (o2 != 0) + (o3 != 0)
        elif role and partner and _TOP[partner] < _TOP[opponent]:
            score = 50 - 4 * u + pos // 3
        else:
            score = -4 * u + pos // 3
        keyed.append((200 - score) << 6 | c)
    found = _LEADS[key] = tuple(keyed)
    return found


def _seconds(key: int) -> tuple[int, ...]:
    """The second hand's cards of the suit led, in search order.

    ``key`` packs the suit (2 bits), the hand's cards of it, the last
    hand's cards of it (10 bits each), the position of the card led
    (4 bits), whether the second hand's partner led it (1 bit) and the
    leader's other cards of the suit (10 bits). If the partner's card wins
    whatever follows, the most units first; else cards sure to win the
    trick first, then the fewest units and lowest cards.
    """
    suit, mine, o3, lead_pos, partner_led, o1 = (
        key & 3, key >> 2 & 1023, key >> 12 & 1023, key >> 22 & 15, key >> 26 & 1, key >> 27
    )  # fmt: skip
    top3 = _TOP[o3]
    partner_holds = partner_led and lead_pos < top3
    keyed = []
    cards = []
    for block in _blocks(suit, mine, o3 | o1 | 1 << lead_pos):
        beats = block[0] - 10 * suit < lead_pos
        if min(block[0] - 10 * suit, lead_pos) < top3:  # the trick's winner is settled
            cards.append(_pick(block, beats or bool(partner_led)))
        else:
            cards.extend(block)
    for c in cards:
        pos = c - 10 * suit
        u = POS_UNITS[pos]
        if partner_holds:
            score = 100 + 4 * u
        elif pos < lead_pos and pos < top3:
            score = 100 + u
        else:
            score = -4 * u + pos // 3
        keyed.append((200 - score) << 6 | c)
    found = _SECONDS[key] = _decode(keyed)
    return found


def _thirds(key: int) -> tuple[int, ...]:
    """The last hand's cards of the suit led, what they bring its side now first.

    ``key`` packs the suit (2 bits), the hand's cards of it and the other
    cards of it still out or in the trick (10 bits each), the position of
    the winning card so far (4 bits) and whether the hand's side is winning
    the trick (1 bit). Ties go to the lowest card.
    """
    suit, mine, out, best_pos, winning = (
        key & 3, key >> 2 & 1023, key >> 12 & 1023, key >> 22 & 15, key >> 26
    )  # fmt: skip
    keyed = []
    cards = [
        _pick(b, bool(winning) or b[0] - 10 * suit < best_pos) for b in _blocks(suit, mine, out)
    ]
    for c in cards:
        pos = c - 10 * suit
        if winning or pos < best_pos:
            score = 64 + 4 * POS_UNITS[pos] + pos
        else:
            score = 32 - 4 * POS_UNITS[pos] + pos
        keyed.append((200 - score) << 6 | c)
    found = _THIRDS[key] = _decode(keyed)
    return found


def _discard_part(key: int) -> tuple[int, ...]:
    """A hand's cards of one suit when it does not follow suit, scored (sort key << 6 | card).

    ``key`` packs the suit (2 bits), the hand's and the other cards' masks
    of it (10 bits each) and the mode (2 bits): 0 the trick's winner is
    still open (every card of :func:`_blocks`, the fewest units first); 1
    it goes to the other side, 2 to the hand's own side (one card a block,
    :func:`_pick`; the fewest units first, or the most). Among equals the
    lowest card comes first.
    """
    suit, mine, out, mode = key & 3, key >> 2 & 1023, key >> 12 & 1023, key >> 22
    blocks = _blocks(suit, mine, out)
    if mode:
        cards: tuple[int, ...] = tuple(_pick(block, mode == 2) for block in blocks)
    else:
        cards = tuple(c for block in blocks for c in block)
    if mode == 2:
        found = tuple((64 - 16 * UNITS[c] - c % 10) << 6 | c for c in cards)
    else:
        found = tuple((16 * UNITS[c] + 10 - c % 10) << 6 | c for c in cards)
    _DISCARDS[key] = found
    return found


def _discards(hand: int, out: int, mode: int) -> tuple[int, ...]:
    """A hand's cards when it does not follow suit (``mode``: see :func:`_discard_part`)."""
    whole = hand | out << 40 | mode << 80
    found = _WHOLE_DISCARDS.get(whole)
    if found is not None:
        return found
    keyed: list[int] = []
    get = _DISCARDS.get
    for s in range(4):
        mine = hand >> (10 * s) & 1023
        if mine:
            k = s | mine << 2 | (out >> (10 * s) & 1023) << 12 | mode << 22
            keyed += get(k) or _discard_part(k)
    found = _WHOLE_DISCARDS[whole] = _decode(keyed)
    return found


def _any_thirds(hand: int, out: int, best: int, winning: bool) -> tuple[int, ...]:
    """The last hand's cards when it need not follow suit (not cached)."""
    sh = best - best % 10
    keyed = []
    for s in range(4):
        mine = hand >> (10 * s) & 1023
        if mine:
            for c in _reps(s, mine, out >> (10 * s) & 1023):
                if winning or sh <= c < best:
                    score = 64 + 4 * UNITS[c] + c % 10
                else:
                    score = 32 - 4 * UNITS[c] + c % 10
                keyed.append((200 - score) << 6 | c)
    return _decode(keyed)


# --- the search ---------------------------------------------------------------------


class Search:
    """One solve's search: its bonus, its rules of play and its transposition table.

    Attributes:
        bonus: Units for the last trick: 3 plus the stock's units.
        follow: Whether a player must follow suit.
        table: Relative key of a position -> [lower bound, upper bound, best lead].
        nodes: Positions searched (not settled by the table or the bounds).
        probe: ``probe(h0, h1, h2, lead, rest, t)``: at a trick boundary
            (``rest`` the card units left in the hands), a bound on the
            units the declarer collects from here: at least the true value
            if it is ``>= t``, at most it if it is ``< t``.
    """

    def __init__(self, bonus: int, follow: bool) -> None:
        self.bonus = bonus
        self.follow = follow
        self.table: dict[tuple[int, ...], list[int]] = {}
        self.nodes = 0
        self.probe: Callable[[int, int, int, int, int, int], int] = self._build()

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

    def _build(self) -> Callable[[int, int, int, int, int, int], int]:
        bonus = self.bonus
        follow = self.follow
        table = self.table
        exact: dict[tuple[int, int, int, int], list[int]] = {}
        exact_get = exact.get
        table_get = table.get
        units_of = UNITS
        top = _TOP
        suits_get = _SUITS.get
        leads_get = _LEADS.get
        seconds_get = _SECONDS.get
        thirds_get = _THIRDS.get
        follow_bit = 1 << 30 if follow else 0
        search = self

        def probe(h0: int, h1: int, h2: int, lead: int, rest: int, t: int) -> int:
            if t <= 0:
                return 0
            total = rest + bonus
            if t > total:
                return total
            exact_key = (h0, h1, h2, lead)
            entry = exact_get(exact_key)
            if entry is None:
                k0 = h0 & 1023 | (h1 & 1023) << 10 | (h2 & 1023) << 20 | follow_bit
                k1 = (
                    h0 >> 10 & 1023 | (h1 >> 10 & 1023) << 10 | (h2 >> 10 & 1023) << 20 | follow_bit
                )
                k2 = (
                    h0 >> 20 & 1023 | (h1 >> 20 & 1023) << 10 | (h2 >> 20 & 1023) << 20 | follow_bit
                )
                k3 = h0 >> 30 | (h1 >> 30) << 10 | (h2 >> 30) << 20 | follow_bit
                i0 = suits_get(k0) or _suit(k0)
                i1 = suits_get(k1) or _suit(k1)
                i2 = suits_get(k2) or _suit(k2)
                i3 = suits_get(k3) or _suit(k3)
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
                key = (c0, c1, c2, c3, lead)
                entry = table_get(key)
                if entry is None:
                    lo, hi = _bounds((i0, i1, i2, i3), (h0, h1, h2), lead, total)
                    entry = table[key] = [lo, hi, -1]
                exact[exact_key] = entry
            if entry[0] >= t:
                return entry[0]
            if entry[1] < t:
                return entry[1]
            search.nodes += 1
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
                    keyed += leads_get(k) or _lead_part(k)
            m1 = _decode(keyed)
            hint = entry[2]
            if hint >= 0 and m1[0] != hint and hint in m1:
                m1 = (hint, *[c for c in m1 if c != hint])
            v1 = -1 if max1 else 99
            best1 = -1
            partner_led = 0 if max1 or max2 else 1 << 26
            for c1 in m1:
                sh = c1 - c1 % 10
                b1 = 1 << c1
                n1 = a1 ^ b1
                v2 = -1 if max2 else 99
                o3 = a3 >> sh & 1023
                mine2 = a2 >> sh & 1023
                if follow and mine2:
                    k = (
                        sh // 10 | mine2 << 2 | o3 << 12 | (c1 - sh) << 22 | partner_led
                        | (n1 >> sh & 1023) << 27
                    )  # fmt: skip
                    m2 = seconds_get(k) or _seconds(k)
                else:
                    m2 = _discards(
                        a2,
                        a3 | a1,
                        (2 if partner_led else 1) if follow and c1 - sh < top[o3] else 0,
                    )
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
                        m3 = thirds_get(k) or _thirds(k)
                    elif follow:
                        m3 = _discards(a3, n1 | n2, 2 if winning else 1)
                    else:
                        m3 = _any_thirds(a3, a1 | a2, best, winning)
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
                            break
                elif v2 < v1:
                    v1 = v2
                    if v2 < t:
                        best1 = c1
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
