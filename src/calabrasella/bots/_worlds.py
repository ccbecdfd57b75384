"""What one seat's view says about the cards it cannot see: the model the sampler draws from.

Private to :mod:`calabrasella.bots.sampling`, which documents the model. A
forward pass over the view's history (with the forced moves in their places)
tracks, for each *place* a card can be in (each seat's hand, the original
stock, each seat's discards), the mask of cards that may be there; hidden
moves widen the masks, visible ones pin cards, a show-out narrows a hand.
What is left is an assignment problem: put every card not yet played into a
place, each card into a place its mask allows, each place holding exactly
the number of cards the view shows. :class:`Model` counts and samples these
assignments exactly with a dynamic programme over the cards, with weights
for the one hidden move whose past is not fixed by where the cards are now
(a give-back seen by neither this seat nor the other adversary).
"""

from __future__ import annotations

from math import comb, factorial
from typing import NamedTuple

import calabrasella as cb
from calabrasella.errors import InconsistentViewError
from calabrasella.rulesets import steps as st

from ._calling import callable_kind
from ._hand import bits
from ._own_steps import _is_own, _moves_of, _own_move, _own_moves

__all__ = ["InconsistentViewError", "Model", "analyse"]

FULL = (1 << 40) - 1
SUITS = tuple(1023 << (10 * s) for s in range(4))
THREES = sum(1 << (10 * s) for s in range(4))
TWOS = THREES << 1
#: Places: the hand of seat ``s`` is ``s`` (0..3), the original stock is
#: ``STOCK``, the discards of seat ``s`` are ``DISC + s``.
STOCK = 4
DISC = 5
PLACES = 9
_PLAYS = (cb.Play, cb.Revoke)
_SILENT = (cb.Pass, cb.Bid, cb.Raise, cb.Done, cb.TurnStock, cb.Abandon)


class Draw(NamedTuple):
    """A hidden move of ``number`` cards from the stock into ``seat``'s hand."""

    seat: int
    number: int
    #: History indices of the entry to fill with the drawn cards (none: a forced move).
    entry: int


class GiveBack(NamedTuple):
    """A give-back hidden from this seat: the declarer gave ``giver`` one card."""

    declarer: int
    giver: int
    #: Cards that can be in the giver's hand only as the card given back.
    only_as_given: int
    entry: int


class Model(NamedTuple):
    """Everything the sampler needs to know about a view, worked out once."""

    view: cb.View
    order: tuple[int, int, int]
    #: The places that receive cards, and how many each receives.
    bins: tuple[int, ...]
    sizes: tuple[int, ...]
    #: How a bin's fill is read from a state: ``state // stride % radix``.
    strides: tuple[int, ...]
    radices: tuple[int, ...]
    #: Cards placed one by one (not played, not pinned, not in the tail), and for
    #: each its bins (indices into ``bins``) and the state increments of the programme.
    cards: tuple[int, ...]
    choices: tuple[tuple[int, ...], ...]
    deltas: tuple[tuple[int, ...], ...]
    #: Cards with a single place, by place.
    pinned: tuple[int, ...]
    #: Interchangeable cards placed last, all at once, into the room left in their bins.
    tail: tuple[int, ...]
    tail_bins: tuple[int, ...]
    start: int
    #: Suffix counts: ``table[i][s]`` assignments of ``cards[i:]`` from state ``s``.
    table: tuple[dict[int, int], ...]
    played_by: tuple[int, ...]
    give_back: GiveBack | None
    draws: tuple[Draw, ...]
    #: Per seat, the history indices of its hidden discards.
    discards: tuple[tuple[int, ...], ...]
    #: Cards each seat handed to another or received, known without sampling.
    gave: tuple[int, ...]
    received: tuple[int, ...]
    #: Cards received from the stock, known (visible takes and draws).
    from_stock: int
    #: The number of worlds (with ``exact`` false, of a superset of them).
    worlds: int
    #: Whether every world of the model is a world of the view (else the replay rejects).
    exact: bool
    #: Whether the plan has exchange steps of a variant's own: the deal is then
    #: found by undoing the view's moves (:attr:`calabrasella.View.moves`).
    custom: bool = False


def fail(message: str) -> InconsistentViewError:
    return InconsistentViewError(f"no deal is consistent with this view: {message}")


def _events(view: cb.View) -> list[tuple[int, int, int, int, object]]:
    """The history entries and forced moves in the order they happened:
    ``(at, forced 0 / entry 1, index, seat, action)``."""
    events: list[tuple[int, int, int, int, object]] = []
    for i, (who, action) in enumerate(view.history):
        events.append((i, 1, i, who, action))
    for j, (at, who, action) in enumerate(view.forced_moves):
        events.append((at, 0, j, who, action))
    events.sort(key=lambda e: (e[0], e[1], e[2]))
    return events


def _card(action: object) -> int:
    return action.card.index  # type: ignore[attr-defined, no-any-return]


def _dealt_hand(
    view: cb.View,
    events: list[tuple[int, int, int, int, object]],
    own: dict[tuple[int, int], list[cb.places.Move]],
) -> int:
    """The seat's hand as dealt: its hand now with its own visible moves undone."""
    seat, declarer, giver = view.seat, view.declarer, view.giver
    hand = view.hand.mask

    def add(card: int) -> None:
        nonlocal hand
        if hand >> card & 1:
            raise fail(f"seat {seat} would have held {cb.DECK[card]} twice")
        hand |= 1 << card

    def add_all(mask: int) -> None:
        for card in bits(mask):
            add(card)

    def remove(mask: int) -> None:
        nonlocal hand
        if mask & ~hand:
            raise fail(f"seat {seat} received {cb.CardSet(mask & ~hand)} it does not hold")
        hand &= ~mask

    for _, rank, index, who, action in reversed(events):
        cls = type(action)
        if _is_own(action):
            for move in reversed(_moves_of(own, rank, index)):
                src, dst = move.source, move.target
                if move.cards is None:
                    if seat in (src.seat, dst.seat):
                        raise fail(f"a move of seat {seat}'s own cards is shown face down")
                    continue
                if dst.where is cb.places.Where.HAND and dst.seat == seat:
                    remove(move.cards.mask)
                if src.where is cb.places.Where.HAND and src.seat == seat:
                    add_all(move.cards.mask)
        elif cls is cb.Hidden:
            if who == seat:
                raise fail(f"seat {seat}'s own move is shown face down")
        elif cls in _PLAYS or cls is cb.Discard:
            if who == seat:
                add(_card(action))
        elif cls is cb.Take:
            if who == seat:
                remove(1 << _card(action))
        elif cls is cb.Draw:
            if who == seat:
                remove(action.cards.mask)  # type: ignore[attr-defined]
        elif cls is cb.GiveBack:
            if seat == declarer:
                add(_card(action))
            elif seat == giver:
                remove(1 << _card(action))
        elif cls is cb.Call and giver is not None:
            if seat == declarer:
                remove(1 << _card(action))
            elif seat == giver:
                add(_card(action))
    want = 12 if seat in _order(view) else 0
    if hand.bit_count() != want:
        raise fail(f"seat {seat} would have been dealt {hand.bit_count()} cards, not {want}")
    return hand


def _order(view: cb.View) -> tuple[int, int, int]:
    n, dealer = view.rules.players, view.dealer
    return ((dealer + 1) % n, (dealer + 2) % n, (dealer + 3) % n)


def built_in(step: st.Step) -> bool:
    """Whether ``step`` is one of the exchange steps of :mod:`calabrasella.rulesets.steps`.

    The model below knows what each of those does; a subclass, or a step
    written elsewhere, is not one of them.
    """
    name = type(step).__name__
    return name != "Step" and type(step) is getattr(st, name, None)


def _plan(view: cb.View) -> tuple[st.Step, ...]:
    """The exchange steps of the view's contract (with the raise's)."""
    if view.contract is None:
        return ()
    rules = view.rules
    plan = tuple(rules.exchange_plan(view.contract))
    if view.modifier is not None:
        plan = plan + tuple(rules.raise_plan(view.modifier))
    return plan


def _role_seat(role: st.Role, order: tuple[int, int, int], declarer: int) -> int:
    if role is st.Role.DECLARER:
        return declarer
    i = order.index(declarer)
    return order[(i + 1) % 3] if role is st.Role.FIRST else order[(i + 2) % 3]


class _Pass:
    """The forward pass: where each card may be, place by place."""

    def __init__(self, view: cb.View, order: tuple[int, int, int], dealt: int) -> None:
        self.view = view
        self.poss = [0] * PLACES
        exposed = view.exposed.mask
        if exposed & dealt:
            raise fail(f"seat {view.seat} was dealt a stock card ({cb.CardSet(exposed & dealt)})")
        unknown = FULL & ~dealt & ~exposed
        for seat in order:
            self.poss[seat] = dealt if seat == view.seat else unknown
        self.poss[STOCK] = exposed | (unknown if exposed.bit_count() < 4 else 0)
        self.stock = 4
        self.played_by = [0] * view.rules.players
        self.discards: list[list[int]] = [[] for _ in range(view.rules.players)]
        self.disc_count = [0] * view.rules.players
        self.draws: list[Draw] = []
        self.give_back: GiveBack | None = None
        self.gave = [0] * view.rules.players
        self.received = [0] * view.rules.players
        self.from_stock = 0
        #: False when the model leaves out a rule (a ruleset's own rule of calling):
        #: its worlds are then a superset, and the replay rejects those that do not fit.
        self.exact = True
        self.plays: list[tuple[int, int, int]] = []  # (event number, seat, card)
        self.revokes: list[tuple[int, int, int]] = []  # (event number, seat, suit led)
        self.led = 0
        #: Whether a hidden move of a step of a variant's own widened a hand.
        self.widened = False

    def move(self, card: int, src: int, dst: int | None) -> None:
        """``card`` was in ``src``; now it is in ``dst`` (``None``: played)."""
        bit = 1 << card
        poss = self.poss
        if not poss[src] & bit:
            where = "the stock" if src == STOCK else f"seat {src}'s hand"
            raise fail(f"{cb.DECK[card]} cannot be in {where} when it moves")
        for p in range(PLACES):
            poss[p] &= ~bit
        if dst is not None:
            poss[dst] |= bit

    def from_the_stock(self, seat: int, cards: int) -> None:
        for card in bits(cards):
            self.move(card, STOCK, seat)
        self.stock -= cards.bit_count()
        if self.stock < 0:
            raise fail("more cards left the stock than it held")
        if not self.stock:
            self.poss[STOCK] = 0
        self.received[seat] |= cards
        self.from_stock |= cards

    def hidden_draw(self, seat: int, count: int, entry: int) -> None:
        poss = self.poss
        if not 0 < count <= self.stock:
            raise fail(f"seat {seat} draws {count} of {self.stock} stock cards")
        if poss[seat] != poss[STOCK] or any(d.seat == seat for d in self.draws):
            raise cb.RulesetError(
                f"{self.view.rules.name}: the sampler cannot follow this unseen draw"
            )
        poss[seat] |= poss[STOCK]
        self.stock -= count
        if not self.stock:
            poss[STOCK] = 0
        self.draws.append(Draw(seat, count, entry))

    def hidden_give_back(self, who: int, entry: int) -> None:
        view = self.view
        declarer, giver = view.declarer, view.giver
        if who != declarer or giver is None or view.called is None or self.give_back:
            raise fail("a card was given back, but nobody gave the declarer the called card")
        called = 1 << view.called.index
        pre_d, pre_g = self.poss[declarer], self.poss[giver]
        if pre_g & ~pre_d:
            raise cb.RulesetError(f"{view.rules.name}: the sampler cannot follow this give-back")
        self.poss[giver] |= pre_d & ~called
        self.give_back = GiveBack(declarer, giver, pre_d & ~pre_g & ~called, entry)

    def play(self, number: int, who: int, action: object) -> None:
        card = _card(action)
        self.move(card, who, None)
        self.played_by[who] |= 1 << card
        trick = len(self.plays) % 3  # every card to a trick is a Play or a Revoke
        self.plays.append((number, who, card))
        if trick == 0:
            self.led = card // 10
        elif card // 10 != self.led and type(action) is cb.Revoke:
            self.revokes.append((number, who, self.led))


def analyse(view: cb.View) -> Model:
    """Work out the model of ``view`` (see the module docstring)."""
    rules = view.rules
    if not isinstance(rules, cb.Ruleset):
        raise fail(f"rules={rules!r} is not a ruleset")
    order = _order(view)
    seat, declarer, giver, called = view.seat, view.declarer, view.giver, view.called
    players = rules.players
    if not 0 <= seat < players or len(view.hand_sizes) != players:
        raise fail(f"seat {seat} at a table of {players} with {len(view.hand_sizes)} hands")
    events = _events(view)
    plan = _plan(view)
    custom = not all(built_in(step) for step in plan)
    own = _own_moves(view) if custom else {}
    dealt = _dealt_hand(view, events, own)
    fwd = _Pass(view, order, dealt)
    if custom:
        fwd.exact = False  # a step of its own may have rules the model leaves out
        for move in own.get((-1, -1), []):  # moves made with no entry to follow them by
            if move.source != move.target:
                _own_move(fwd, move, -1)
    poss = fwd.poss
    not_all = 0
    kind = None
    if (
        declarer is not None
        and seat != declarer
        and view.contract is not None
        and any(step.phase is cb.Phase.CALLING for step in plan)
    ):
        kind = callable_kind(rules, view.contract)
        # the call step passed with no call: nothing was callable (an early turn of the
        # stock by the declarer ends the deal before anyone can tell)
        passed = any(
            type(e[4]) not in (cb.Pass, cb.Bid, cb.TurnStock) and not _is_own(e[4]) for e in events
        )
        # a step of the variant's own before the call may wait in a phase of its own
        call_at = next(k for k, step in enumerate(plan) if step.phase is cb.Phase.CALLING)
        before = {step.phase for step in plan[:call_at] if not built_in(step)}
        passed = passed or view.phase not in (cb.Phase.CALLING, cb.Phase.OVER, *before)
        if kind is None:
            # a rule of its own: the model leaves the call out, the replay checks it
            fwd.exact = False
        elif called is None and view.phase is cb.Phase.CALLING and kind == "threes_then_twos":
            not_all = THREES | TWOS  # something is callable: he does not hold them all
        elif called is None and passed:
            if kind != "threes_then_twos":
                raise fail("the declarer called nothing although he could")
            for card in bits(THREES | TWOS):  # nothing was callable: he held them all
                fwd.move(card, declarer, declarer)
    draw_counts: dict[int, int] = {}
    if declarer is not None:
        for step in plan:
            if isinstance(step, st.DrawStep):
                draw_counts[_role_seat(step.role, order, declarer)] = step.count
    i = 0
    while i < len(events):
        at, rank, index, who, action = events[i]
        cls = type(action)
        number = i
        i += 1
        if custom and _is_own(action):
            for move in _moves_of(own, rank, index):
                _own_move(fwd, move, index)
        elif cls is cb.Hidden:
            what = action.kind  # type: ignore[attr-defined]
            if what == "discard":
                poss[DISC + who] |= poss[who]
                fwd.disc_count[who] += 1
                fwd.discards[who].append(index)
            elif what == "give_back" and rank and custom:  # the deal is found by undoing moves
                for move in _moves_of(own, rank, index):
                    _own_move(fwd, move, index)
            elif what == "give_back" and rank:
                fwd.hidden_give_back(who, index)
            elif what == "draw":
                count = fwd.stock if not rank else draw_counts.get(who, 0)
                fwd.hidden_draw(who, count, index if rank else -1)
            elif what == "take" and not rank:
                count = 1  # the engine's take of the whole (unseen) stock: one move a card
                while i < len(events) and events[i][:2] == (at, 0) and events[i][3] == who:
                    if events[i][4] != action:
                        break
                    count += 1
                    i += 1
                fwd.hidden_draw(who, count, -1)
            else:
                raise cb.RulesetError(f"{rules.name}: the sampler cannot follow a hidden {what}")
        elif cls in _PLAYS:
            fwd.play(number, who, action)
        elif cls is cb.Discard:
            fwd.move(_card(action), who, DISC + who)
            fwd.disc_count[who] += 1
        elif cls is cb.Take:
            fwd.from_the_stock(who, 1 << _card(action))
        elif cls is cb.Draw:
            fwd.from_the_stock(who, action.cards.mask)  # type: ignore[attr-defined]
        elif cls is cb.Call:
            card = _card(action)
            if declarer is None or who != declarer or called is None or called.index != card:
                raise fail(f"{action} does not match the declarer and the card called")
            if giver is None:
                fwd.move(card, STOCK, STOCK)
            else:
                fwd.move(card, giver, declarer)
                fwd.gave[giver] |= 1 << card
                fwd.received[declarer] |= 1 << card
            if kind == "threes_then_twos" and seat != declarer and card % 10 == 1:
                for three in bits(THREES):  # he asked for a 2: he held every 3
                    fwd.move(three, declarer, declarer)
        elif cls is cb.GiveBack:
            card = _card(action)
            if declarer is None or giver is None or who != declarer:
                raise fail(f"{action}, but nobody gave the declarer the called card")
            fwd.move(card, declarer, giver)
            fwd.gave[declarer] |= 1 << card
            fwd.received[giver] |= 1 << card
        elif cls is cb.OutOfTurn:
            offender = action.seat  # type: ignore[attr-defined]
            fwd.move(_card(action), offender, offender)  # he held it
        elif cls not in _SILENT:
            raise fail(f"{action!r} is not an action")
    return _finish(view, order, fwd, not_all)._replace(custom=custom)


def _finish(view: cb.View, order: tuple[int, int, int], fwd: _Pass, not_all: int) -> Model:
    """Check the pass against the view's counts and build the counting programme."""
    poss = fwd.poss
    seat, players = view.seat, view.rules.players
    for who, shown_out in enumerate(view.known_voids):  # the view's own reading of the play
        for void in shown_out:
            poss[who] &= ~SUITS[void.value]
    if view.final_stock is not None:
        shown = view.final_stock.mask
        for p in range(PLACES):
            poss[p] &= shown if p == STOCK or p >= DISC else ~shown
    if poss[seat] != view.hand.mask or poss[DISC + seat] != view.discards.mask:
        raise fail(f"seat {seat}'s hand or discards do not follow from its own moves")
    sizes = [0] * PLACES
    for s in order:
        sizes[s] = view.hand_sizes[s]
    for s in range(players):
        sizes[DISC + s] = fwd.disc_count[s]
        if s not in order and view.hand_sizes[s]:
            raise fail(f"the dealer sitting out holds {view.hand_sizes[s]} cards")
    sizes[STOCK] = fwd.stock
    if view.stock_size != fwd.stock + sum(fwd.disc_count):
        raise fail(
            f"the stock holds {view.stock_size} cards, not {fwd.stock + sum(fwd.disc_count)}"
        )
    played = 0
    for mask in fwd.played_by:
        played |= mask
    gb = fwd.give_back
    if gb is not None and fwd.disc_count[gb.giver]:
        raise cb.RulesetError(f"{view.rules.name}: the sampler cannot follow this give-back")
    # a revoke proves its seat held the suit led: if it has played none of it since, it holds one
    needs: list[tuple[int, int, int]] = []  # (place, cards, least number of them there)
    for number, who, suit in fwd.revokes:
        if not any(n > number and w == who and c // 10 == suit for n, w, c in fwd.plays):
            needs.append((who, SUITS[suit], 1))
    left = [c for c in range(40) if not played >> c & 1]
    if sum(sizes) != len(left):
        raise fail(f"{len(left)} cards are not played but the places hold {sum(sizes)}")
    return build(view, order, fwd, sizes, left, not_all, needs)


def build(
    view: cb.View,
    order: tuple[int, int, int],
    fwd: _Pass,
    sizes: list[int],
    left: list[int],
    not_all: int,
    needs: list[tuple[int, int, int]],
) -> Model:
    """Build and solve the counting programme over the cards not yet played."""
    poss = fwd.poss
    bins = tuple(p for p in range(PLACES) if sizes[p])
    where = {p: b for b, p in enumerate(bins)}
    # the state: each bin's fill, then the counters
    radices = [sizes[p] + 2 for p in bins]
    counters: list[tuple[int, int]] = []  # (bin, cards counted there)
    gb = fwd.give_back
    if gb is not None:
        counters.append((where.get(gb.giver, -1), gb.only_as_given))
    if not_all:
        counters.append((where.get(view.declarer, -1), not_all))  # type: ignore[arg-type]
    for place, mask, _ in needs:
        counters.append((where.get(place, -1), mask))
    radices += [mask.bit_count() + 1 for _, mask in counters]
    strides = []
    stride = 1
    for r in radices:
        strides.append(stride)
        stride *= r
    nbins = len(bins)
    pinned = [0] * PLACES
    start = 0
    # cards with the same bins and increments are interchangeable: group them
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for card in left:
        allowed = tuple(b for b, p in enumerate(bins) if poss[p] >> card & 1)
        if not allowed:
            raise fail(f"{cb.DECK[card]} fits nowhere")
        increments = []
        for b in allowed:
            d = strides[b]
            for k, (counted_bin, mask) in enumerate(counters):
                if counted_bin == b and mask >> card & 1:
                    d += strides[nbins + k]
            increments.append(d)
        if len(allowed) == 1:
            pinned[bins[allowed[0]]] |= 1 << card
            start += increments[0]
        else:
            groups.setdefault((allowed, tuple(increments)), []).append(card)
    for p in bins:
        if pinned[p].bit_count() > sizes[p]:
            raise fail(
                f"place {p} must hold {sizes[p]} cards but {pinned[p].bit_count()} are known there"
            )
    # the largest group that moves no counter is counted in closed form, last
    pure = [key for key in groups if all(d == strides[b] for b, d in zip(*key))]
    tail_key = max(pure, key=lambda key: (len(groups[key]), key), default=None)
    tail = groups.pop(tail_key) if tail_key is not None else []
    tail_bins = tail_key[0] if tail_key is not None else ()
    cards: list[int] = []
    choices: list[tuple[int, ...]] = []
    deltas: list[tuple[int, ...]] = []
    for (allowed, steps), members in sorted(groups.items(), key=lambda kv: (len(kv[0][0]), kv[0])):
        for card in members:
            cards.append(card)
            choices.append(allowed)
            deltas.append(steps)
    base_given = 0 if gb is None else (gb.only_as_given & fwd.played_by[gb.giver]).bit_count()
    stuff_g = 0 if gb is None else sizes[gb.giver] + fwd.played_by[gb.giver].bit_count()
    least = [n for _, _, n in needs]
    bin_sizes = [sizes[p] for p in bins]
    tail_ways_all = factorial(len(tail))

    def weight(s: int) -> int:
        """The worlds from a placement of all but the tail: the tail's ways, times the
        give-backs it allows, if its counters are met."""
        ways = tail_ways_all
        for b in range(nbins):
            need = bin_sizes[b] - s // strides[b] % radices[b]
            if need:
                if need < 0 or b not in tail_bins:
                    return 0
                ways //= factorial(need)
        k = 0
        if gb is not None:
            n = base_given + s // strides[nbins] % radices[nbins]
            ways *= stuff_g if n == 0 else 1 if n == 1 else 0
            k = 1
        if not_all:
            if s // strides[nbins + k] % radices[nbins + k] == not_all.bit_count():
                return 0
            k += 1
        for j, n in enumerate(least):
            if s // strides[nbins + k + j] % radices[nbins + k + j] < n:
                return 0
        return ways

    levels: list[set[int]] = [{start}]
    for i in range(len(cards)):
        nxt: set[int] = set()
        for s in levels[i]:
            for b, d in zip(choices[i], deltas[i]):
                if s // strides[b] % radices[b] < bin_sizes[b]:
                    nxt.add(s + d)
        levels.append(nxt)
    table: list[dict[int, int]] = [{} for _ in levels]
    table[-1] = {s: w for s in levels[-1] if (w := weight(s))}
    for i in range(len(cards) - 1, -1, -1):
        after = table[i + 1]
        here = table[i]
        for s in levels[i]:
            t = 0
            for d in deltas[i]:
                t += after.get(s + d, 0)
            if t:
                here[s] = t
    total = table[0].get(start, 0)
    if not total:
        raise fail("no placement of the unseen cards fits every count and show-out")
    for draw in fwd.draws:
        through = sizes[draw.seat] + sizes[DISC + draw.seat] + fwd.played_by[draw.seat].bit_count()
        total *= comb(through, draw.number)
    for entries in fwd.discards:
        total *= factorial(len(entries))
    return Model(
        view=view,
        order=order,
        bins=bins,
        sizes=tuple(bin_sizes),
        strides=tuple(strides[:nbins]),
        radices=tuple(radices[:nbins]),
        cards=tuple(cards),
        choices=tuple(choices),
        deltas=tuple(deltas),
        pinned=tuple(pinned),
        tail=tuple(tail),
        tail_bins=tail_bins,
        start=start,
        table=tuple(table),
        played_by=tuple(fwd.played_by),
        give_back=gb,
        draws=tuple(fwd.draws),
        discards=tuple(tuple(e) for e in fwd.discards),
        gave=tuple(fwd.gave),
        received=tuple(fwd.received),
        from_stock=fwd.from_stock,
        worlds=total,
        exact=fwd.exact,
    )
