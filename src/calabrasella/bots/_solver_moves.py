"""Private: the tables, caches, bounds and move lists of the solver's search.

Cards are :attr:`calabrasella.Card.index` ints (``suit * 10 + position``,
position 0 the strongest rank: within a suit a lower index wins), sets of
cards 40-bit masks, one suit of a hand a 10-bit mask. Positions: 0 the
declarer, 1 the adversary after him in turn order, 2 the other. Every
function here depends on its arguments alone, so its results are cached
module-wide (:func:`trim_caches` bounds the caches).
"""

from __future__ import annotations

import calabrasella as cb

__all__ = [
    "CACHE_LIMIT",
    "POS_UNITS",
    "UNITS",
    "any_thirds",
    "bounds",
    "classes",
    "decode",
    "discards",
    "lead_part",
    "seconds",
    "suit_info",
    "thirds",
    "trim_caches",
    "units",
]

# --- tables, built once from the public Card API ---------------------------------

UNITS: tuple[int, ...] = tuple(card.units for card in cb.DECK)
if any(card.index != i for i, card in enumerate(cb.DECK)) or UNITS[10:] != UNITS[:10] * 3:
    raise ImportError("calabrasella.bots.solver: unexpected card numbering")  # pragma: no cover
#: Units of the ten positions of a suit, strongest first: 3 2 A K Q J 7 6 5 4.
POS_UNITS: tuple[int, ...] = UNITS[:10]
_SUIT_UNITS = tuple(sum(POS_UNITS[p] for p in range(10) if m >> p & 1) for m in range(1024))
#: Position of the strongest card of a 10-bit suit mask (10 if empty).
TOP = tuple((m & -m).bit_length() - 1 if m else 10 for m in range(1024))
#: Each units value's class (0 the fewest units): the relative key holds it in 2 bits.
_UNIT_CLASS = {u: k for k, u in enumerate(sorted(set(POS_UNITS)))}
if len(_UNIT_CLASS) > 3:  # cheapest() counts three classes
    raise ImportError("calabrasella.bots.solver: more than three values of card units")  # pragma: no cover
_FULL = (1 << 40) - 1


def units(mask: int) -> int:
    """Return the card units in a 40-bit card mask."""
    t = _SUIT_UNITS
    return t[mask & 1023] + t[mask >> 10 & 1023] + t[mask >> 20 & 1023] + t[mask >> 30 & 1023]


# The units of the three classes, the fewest first (a class may be empty), and the
# cards of the two cheaper classes.
_VALUES = sorted(_UNIT_CLASS)
_LOW, _MID, _HIGH = (_VALUES + _VALUES[-1:] * 2)[:3]
_ZERO = sum(1 << (10 * s + p) for s in range(4) for p in range(10) if POS_UNITS[p] == _LOW)
_ONE = sum(1 << (10 * s + p) for s in range(4) for p in range(10) if POS_UNITS[p] == _MID) & ~_ZERO


def cheapest(hand: int, count: int) -> int:
    """Return the fewest units ``count`` cards of a 40-bit hand mask can hold."""
    zero = (hand & _ZERO).bit_count()
    if count <= zero:
        return count * _LOW
    one = (hand & _ONE).bit_count()
    return zero * _LOW + min(count - zero, one) * _MID + _HIGH * max(0, count - zero - one)


# --- caches (module-wide: they depend on nothing but their keys) -------------------

_BLOCKS: dict[int, tuple[tuple[int, ...], ...]] = {}
SUITS: dict[int, tuple[int, ...]] = {}
LEADS: dict[int, tuple[int, ...]] = {}
SECONDS: dict[int, tuple[int, ...]] = {}
THIRDS: dict[int, tuple[int, ...]] = {}
_DISCARDS: dict[int, tuple[int, ...]] = {}
_WHOLE_DISCARDS: dict[int, tuple[int, ...]] = {}
_WHOLE_LIMIT = 1 << 15
_CACHES = (_WHOLE_DISCARDS, _BLOCKS, SUITS, LEADS, SECONDS, THIRDS, _DISCARDS)
#: Entries a cache may hold before :func:`trim_caches` empties it. The caches grow
#: by thousands of entries a deal searched (about 160 bytes each): at 1 << 18 a sampling
#: bot's run reached a peak of 240 MB in 50 deals; at 1 << 16 they hold some 60 MB.
CACHE_LIMIT = 1 << 16


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


def classes(cards: int, out: int) -> list[list[int]]:
    """Split a mask of one hand's cards into classes of equivalent cards (not cached).

    Two cards are equivalent when they are of one suit with no card of
    ``out`` (the other hands' cards and the trick's) between them, and have
    the same units: playing either leads to the same game. Each class runs
    from its strongest card.
    """
    found: list[list[int]] = []
    for s in range(4):
        mine = cards >> (10 * s) & 1023
        if not mine:
            continue
        others = out >> (10 * s) & 1023
        held: dict[int, list[int]] = {}
        for p in range(10):
            if others >> p & 1:
                held = {}
            elif mine >> p & 1:
                u = POS_UNITS[p]
                if u not in held:
                    held[u] = []
                    found.append(held[u])
                held[u].append(10 * s + p)
    return found


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


def _cash(
    mine: int, x: int, y: int, follow: int, partner: int = 0
) -> tuple[int, int, int, int, int]:
    """What a leader surely takes in one suit by leading it from the top.

    ``mine``, ``x`` and ``y`` are the 10-bit masks of the suit of the leader,
    the next hand and the last hand; ``partner`` is the leader's partner's
    mask (one of ``x`` and ``y``; 0 for the declarer). The leader's cards
    above all the others' win one trick each and keep the lead. When suit
    must be followed and they outnumber each opponent's cards of the suit,
    his smaller cards win too, if they are still above the partner's
    (the partner plays low; the opponents run out).

    Returns ``(tricks, every, alone, partner_next, partner_last)``: the
    tricks so taken, 1 if that is every card he holds in the suit, and the
    units his side surely gains in them: his cards and the least the others
    must follow with (``alone``: the declarer leading), or with the partner
    dumping the most he can follow with, as the next or the last hand.
    """
    top_other = TOP[x | y]
    run = [p for p in range(10) if mine >> p & 1 and p < top_other]
    tricks = len(run)
    held = mine.bit_count()
    if partner and mine.bit_length() - 1 < TOP[partner]:  # all his cards above the partner's
        opponents = (x | y) & ~partner
        longest = opponents.bit_count()
    else:
        longest = max(x.bit_count(), y.bit_count())
    if follow and tricks and tricks >= longest:
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


def suit_info(key: int) -> tuple[int, ...]:
    """Return what the search needs of one suit of a position.

    ``key`` packs the declarer's, the first and the second adversary's
    10-bit masks of the suit, and bit 30: whether suit must be followed.

    Returns ``(code, d_tricks, d_every, d_gain, a1_tricks, a1_every,
    a1_gain, a2_tricks, a2_every, a2_gain, owner, d_follow1, d_follow2,
    a1_follow0, a2_follow0)``.
    ``code`` is the relative form of the suit: the cards left, strongest
    first, each as its holder (2 bits) and its units class (2 bits), behind
    a leading 1. Then,
    for each position as the leader, :func:`_cash`'s tricks, every and
    gain for its side (the declarer alone; the first adversary's partner
    plays next, the second's last). ``owner`` is the position holding the
    suit's top card (-1 if nobody holds the suit). Last, the part of
    ``d_gain`` each adversary gives (the least units he can follow the
    declarer's cashed tricks with), and the part of each adversary's gain
    the declarer gives.
    """
    a, b, c, follow = key & 1023, key >> 10 & 1023, key >> 20 & 1023, key >> 30
    code = 1
    for p in range(10):
        bit = 1 << p
        if (a | b | c) & bit:
            who = 0 if a & bit else 1 if b & bit else 2
            code = code << 4 | who << 2 | _UNIT_CLASS[POS_UNITS[p]]
    top = TOP[a | b | c]
    owner = -1 if top == 10 else 0 if a >> top & 1 else 1 if b >> top & 1 else 2
    d = _cash(a, b, c, follow)
    a1 = _cash(b, c, a, follow, c)
    a2 = _cash(c, a, b, follow, b)
    follows = (
        _least(b, d[0]) if follow and d[0] else 0,
        _least(c, d[0]) if follow and d[0] else 0,
        _least(a, a1[0]) if follow and a1[0] else 0,
        _least(a, a2[0]) if follow and a2[0] else 0,
    )
    found = SUITS[key] = (
        code, d[0], d[1], d[2], a1[0], a1[1], a1[3], a2[0], a2[1], a2[4], owner, *follows,
    )  # fmt: skip
    return found


def bounds(
    infos: tuple[tuple[int, ...], ...], hands: tuple[int, int, int], lead: int, total: int
) -> tuple[int, int]:
    """Bound the units the declarer collects from a trick boundary, by cashing.

    The side on lead surely takes what its leader can cash. If every suit
    the leader holds has its top card in a hand of the other side, that
    side surely wins the first trick and then cashes what it can. To the
    tricks cashed each hand of the other side gives a card, so at least its
    cheapest cards, if that is more than the least it can follow suit with.
    """
    h0, h1, h2 = hands
    if lead == 0:
        gain = 0
        every = True
        owners = 0  # bit 1: the first adversary tops a suit he leads into, bit 2: the second
        tops = False
        cashed = follow1 = follow2 = 0
        for sh, info in zip((0, 10, 20, 30), infos):
            if h0 >> sh & 1023:
                gain += info[3]
                every = every and info[2] == 1
                if info[1]:
                    tops = True
                    cashed += info[1]
                    follow1 += info[11]
                    follow2 += info[12]
                else:
                    owners |= 1 << info[10]
        if every:
            return total, total
        if cashed:  # each adversary gives a card to each cashed trick: at least his cheapest
            gain += max(0, cheapest(h1, cashed) - follow1) + max(0, cheapest(h2, cashed) - follow2)
        if tops:
            return gain, total  # he holds a top card: no bound from above
        best = 0  # he leads the suit that leaves him most
        for owner, hand, at in ((1, h1, 4), (2, h2, 7)):
            if owners >> owner & 1:
                taken = cashed = follow0 = 0
                every = True
                for sh, info in zip((0, 10, 20, 30), infos):
                    if hand >> sh & 1023:
                        taken += info[at + 2]
                        every = every and info[at + 1] == 1
                        cashed += info[at]
                        follow0 += info[12 + owner]
                if cashed:  # the declarer gives a card to each: at least his cheapest
                    taken += max(0, cheapest(h0, cashed) - follow0)
                if not every and total - taken > best:
                    best = total - taken
        return gain, best
    at = 4 if lead == 1 else 7
    hand = h1 if lead == 1 else h2
    taken = cashed = follow0 = 0
    every = True
    topped = True  # every suit he holds is topped by the declarer
    for sh, info in zip((0, 10, 20, 30), infos):
        if hand >> sh & 1023:
            taken += info[at + 2]
            every = every and info[at + 1] == 1
            topped = topped and info[1] > 0
            cashed += info[at]
            follow0 += info[12 + lead]
    if every:
        return 0, 0
    if cashed:  # the declarer gives a card to each cashed trick: at least his cheapest
        taken += max(0, cheapest(h0, cashed) - follow0)
    if not topped:
        return 0, total - taken  # a lead the declarer cannot win
    gain = 0
    every = True
    cashed = follow1 = follow2 = 0
    for sh, info in zip((0, 10, 20, 30), infos):
        if h0 >> sh & 1023:
            gain += info[3]
            every = every and info[2] == 1
            cashed += info[1]
            follow1 += info[11]
            follow2 += info[12]
    if every:
        return total, total
    if cashed:  # as when he leads: each adversary gives at least his cheapest cards
        gain += max(0, cheapest(h1, cashed) - follow1) + max(0, cheapest(h2, cashed) - follow2)
    return gain, total - taken


# --- move lists in search order ------------------------------------------------------


def decode(keyed: list[int]) -> tuple[int, ...]:
    keyed.sort()
    return tuple([k & 63 for k in keyed])


def lead_part(key: int) -> tuple[int, ...]:
    """The leader's cards of one suit, scored for the search order (sort key << 6 | card).

    ``key`` packs the suit (2 bits), the leader's, the next and the last
    hand's masks of it (10 bits each) and the leader's role (2 bits): 0 the
    declarer, 1 an adversary whose partner plays next, 2 one whose partner
    plays last. Sure winners first, then (for an adversary) cards above all
    the declarer's, whose trick surely goes to his side (the most units
    first), then leads to the partner's top card, then the fewest units and
    the lowest card. A block
    whose trick surely goes to the leader's side (above all the other
    hands' cards, or for an adversary above all the declarer's) is led with
    its most units only.
    """
    suit, mine, o2, o3, role = (
        key & 3,
        key >> 2 & 1023,
        key >> 12 & 1023,
        key >> 22 & 1023,
        key >> 32,
    )
    partner, opponent = (o2, o3) if role == 1 else (o3, o2)
    top_other = TOP[o2 | o3]
    safe = TOP[opponent] if role else top_other  # below this the trick is the leader's side's
    cards: list[int] = []
    for block in _blocks(suit, mine, o2 | o3):
        if block[0] - 10 * suit < safe:
            cards.append(_pick(block, True))
        else:
            cards.extend(block)
    keyed = []
    for c in cards:
        pos = c - 10 * suit
        u = POS_UNITS[pos]
        if pos < top_other:
            score = 100 + 4 * u + (o2 != 0) + (o3 != 0)
        elif role and pos < safe:
            score = 80 + 4 * u
        elif role and partner and TOP[partner] < TOP[opponent]:
            score = 50 - 4 * u + pos // 3
        else:
            score = -4 * u + pos
        keyed.append((200 - score) << 6 | c)
    found = LEADS[key] = tuple(keyed)
    return found


def seconds(key: int) -> tuple[int, ...]:
    """The second hand's cards of the suit led, in search order.

    ``key`` packs the suit (2 bits), the hand's cards of it, the last
    hand's cards of it (10 bits each), the position of the card led
    (4 bits), where the declarer sits in the trick (2 bits: 0 he led, 1 he
    is this hand, 2 he plays last) and the leader's other cards of the suit
    (10 bits). If the partner's card wins whatever follows, the most units
    first; else cards sure to win the trick first (the most units, then the
    lowest such card: winning cheaply keeps the higher cards), then the
    fewest units and lowest cards. After the declarer's lead, when the last
    hand (the partner) can beat the card led, the cards that cannot win it
    come first, the most units first: the partner takes the trick and the
    hand keeps its winners. A block whose trick surely goes to one side is
    played with its most or fewest units only (:func:`_pick`).
    """
    suit, mine, o3, lead_pos, declarer, o1 = (
        key & 3, key >> 2 & 1023, key >> 12 & 1023, key >> 22 & 15, key >> 26 & 3, key >> 28
    )  # fmt: skip
    top3 = TOP[o3]
    partner_holds = declarer == 2 and lead_pos < top3
    cards = []
    for block in _blocks(suit, mine, o3 | o1 | 1 << lead_pos):
        pos = block[0] - 10 * suit
        if pos < lead_pos:  # it wins unless the last hand beats it
            settled = (
                pos < top3 or declarer == 0
            )  # (after the declarer's lead, both others are one side)
            own = True if pos < top3 else declarer == 0
        else:  # the leader's card wins unless the last hand beats it
            settled = lead_pos < top3 or declarer == 1
            own = declarer == 2 if lead_pos < top3 else False
        if settled:
            cards.append(_pick(block, own))
        else:
            cards.extend(block)
    keyed = []
    for c in cards:
        pos = c - 10 * suit
        u = POS_UNITS[pos]
        if partner_holds:
            score = 100 + 4 * u
        elif pos < lead_pos and pos < top3:
            score = 100 + 16 * u + pos
        elif declarer == 0 and top3 < lead_pos < pos:  # the partner can take it
            score = 150 + 4 * u - pos // 3
        else:
            score = -4 * u + pos // 3
        keyed.append((200 - score) << 6 | c)
    found = SECONDS[key] = decode(keyed)
    return found


def thirds(key: int) -> tuple[int, ...]:
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
    found = THIRDS[key] = decode(keyed)
    return found


def _discard_part(key: int) -> tuple[int, ...]:
    """A hand's cards of one suit when it does not follow suit, scored (sort key << 6 | card).

    ``key`` packs the suit (2 bits), the hand's and the other cards' masks
    of it (10 bits each) and the mode (2 bits): 0 the trick's winner is
    still open (every card of :func:`_blocks`, the fewest units first); 1
    it goes to the other side, 2 to the hand's own side (one card a block,
    :func:`_pick`; the fewest units first, or the most); 3 still open, but
    the hand's partner plays last and can take it (every card, ordered as
    for 2: the most units first). Among equals the
    lowest card comes first, and for the fewest units a singleton that is
    not a sure winner (its discard leaves a void). When the trick goes to
    the hand's own side, its sure winners (above all the other cards of
    their suit) come last: dropped on this trick, they win no trick later.
    """
    suit, mine, out, mode = key & 3, key >> 2 & 1023, key >> 12 & 1023, key >> 22
    blocks = _blocks(suit, mine, out)
    if mode in (1, 2):  # the trick's winner is settled: one card a block
        cards: tuple[int, ...] = tuple(_pick(block, mode == 2) for block in blocks)
    else:
        cards = tuple(c for block in blocks for c in block)
    top = TOP[out]  # the hand's cards above it are sure winners
    if mode >= 2:
        found = tuple(
            (64 - 16 * UNITS[c] - c % 10 + (80 if c % 10 < top else 0)) << 6 | c for c in cards
        )
    else:
        alone = mine.bit_count() == 1
        found = tuple(
            (16 * UNITS[c] + 30 - c % 10 - (8 if alone and c % 10 >= top else 0)) << 6 | c
            for c in cards
        )
    _DISCARDS[key] = found
    return found


def discards(hand: int, out: int, mode: int) -> tuple[int, ...]:
    """A hand's cards when it does not follow suit (``mode``: see :func:`_discard_part`)."""
    span = 0  # only the suits the hand holds matter
    if hand & 1023:
        span = 1023
    if hand >> 10 & 1023:
        span |= 1023 << 10
    if hand >> 20 & 1023:
        span |= 1023 << 20
    if hand >> 30:
        span |= 1023 << 30
    whole = hand | (out & span) << 40 | mode << 80
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
    if len(_WHOLE_DISCARDS) >= _WHOLE_LIMIT:  # many keys never come back: start afresh
        _WHOLE_DISCARDS.clear()
    found = _WHOLE_DISCARDS[whole] = decode(keyed)
    return found


def any_thirds(hand: int, out: int, best: int, winning: bool) -> tuple[int, ...]:
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
    return decode(keyed)
