"""Worlds of any ruleset, by dealing at random and replaying: the sampler's last resort.

Private to :mod:`calabrasella.bots.sampling`, which re-exports :class:`ReplaySampler`.
It knows nothing of any step: it deals, replays through :func:`calabrasella.apply`,
and mends the deal where the replay refuses a move.
"""

from __future__ import annotations

import random
from typing import Union, cast

import calabrasella as cb
from calabrasella import places

from ._hand import bits
from ._worlds import SUITS

__all__ = ["TRIES", "ReplaySampler"]

#: The most deals replayed for one world (for :meth:`ReplaySampler.sample`, and for
#: :class:`~calabrasella.bots.sampling.Sampler` where it checks a world by replay).
TRIES = 200
#: Repairs (a card dealt elsewhere, the replay run again) tried for one world.
REPAIRS = 24
#: Times the face-down moves are drawn anew for one world, where no repair helps.
REDRAWS = 1


def _named(action: object) -> int:
    """The cards an action names (its ``card`` or ``cards``), as a mask."""
    card = getattr(action, "card", None)
    if isinstance(card, cb.Card):
        return 1 << card.index
    cards = getattr(action, "cards", None)
    return cards.mask if isinstance(cards, cb.CardSet) else 0


def _as_rng(rng: Union[random.Random, int]) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if type(rng) is int:
        return random.Random(rng)
    raise cb.SeedError(f"rng={rng!r}: expected an int or a random.Random")


class ReplaySampler:
    """Draw states consistent with one seat's view under any ruleset: deal, replay, reject.

    The last resort, for a view :class:`~calabrasella.bots.sampling.Sampler` cannot
    follow (a face-down entry that records no move). Each :meth:`sample` deals the
    cards the seat cannot place at random, replays the history (each face-down entry
    by a legal action shown the same way; a move the replay refuses has its cards
    dealt where it goes through), and keeps the world only if the seat's view of it
    is :attr:`view`. The worlds are genuine but not equally likely, and not counted;
    for a finished deal it often finds none.

    Attributes:
        view: The view the worlds agree with.
        attempts: Worlds tried so far (kept or rejected).

    Raises:
        StateError: ``view`` is not a :class:`~calabrasella.View`.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.apply(cb.new_deal(cb.CAVENDISH, seed=7), cb.Bid(cb.Contract.STAND))
        >>> world = ReplaySampler(state.view(2)).sample(random.Random(1))
        >>> world.view(2) == state.view(2), world.hand(2) == state.hand(2)
        (True, True)
    """

    def __init__(self, view: cb.View) -> None:
        if not isinstance(view, cb.View):
            hint = ": pass state.view(seat)" if isinstance(view, cb.State) else ""
            raise cb.StateError(f"expected a View, got {type(view).__name__}{hint}")
        self.view = view
        self.rules = rules = view.rules
        self.seat = seat = view.seat
        n = rules.players
        recs = places.records(view)
        fresh = cb.new_deal(rules, dealer=view.dealer, seed=0).view(seat)  # the deal's sizes
        self.places = n + 1  # each seat's hand, then the stock
        self.stock = n
        self.active = tuple(s for s in range(n) if fresh.hand_sizes[s])
        self.room = [*fresh.hand_sizes, fresh.stock_size]
        history = view.history
        self.entries = history
        #: The face-down entries.
        self.hidden = frozenset(i for i, (_, a) in enumerate(history) if isinstance(a, cb.Hidden))
        # each seat's cards played, the suits it showed out of (the view's reading)
        played = [cards.mask for cards in view.cards_played] + [0]  # (the stock plays nothing)
        voids = [sum(1 << suit.value for suit in v) for v in view.known_voids] + [0]
        self.played, self.voids = played, voids
        #: For each seat, the cards of the suits it showed out of (it got rid of them first).
        self.void_cards = [sum(SUITS[x] for x in range(len(SUITS)) if v >> x & 1) for v in voids]
        #: Cards seen moving in the exchange: their places are found by trying.
        self.moving = 0
        #: Cards seen leaving the stock (or shown in it): dealt to it, most likely.
        self.from_stock = 0
        #: The seat's own dealt hand: its hand now with its own seen moves undone.
        self.dealt = view.hand.mask
        for record in reversed(recs):
            cards, src, dst = record[3], record[4], record[5]
            if cards < 0 or src >= places.TRICK_CODE or dst >= places.TRICK_CODE:
                continue
            self.moving |= cards if src != dst else 0
            self.from_stock |= cards if src == places.STOCK_CODE else 0
            self.dealt = (self.dealt & ~cards if dst == seat else self.dealt) | (
                cards if src == seat else 0
            )
        self.dealt |= played[seat]
        #: For each entry, the cards later visible entries name (or the seat holds now).
        later = [0] * (len(history) + 1)
        later[-1] = view.hand.mask
        for i in range(len(history) - 1, -1, -1):
            later[i] = later[i + 1] | (0 if i in self.hidden else _named(history[i][1]))
        self.later = later
        self.attempts = 0
        self._records = recs

    def propose(self, rng: random.Random) -> list[int]:
        """A deal: what is known placed, the rest at random into the room left."""
        places = self.places
        deal = [0] * places
        placed = 0

        def put(place: int, mask: int) -> None:
            nonlocal placed
            mask &= ~placed
            free = self.room[place] - deal[place].bit_count()
            cards = bits(mask)
            if len(cards) > free:
                cards = rng.sample(cards, free)
            for card in cards:
                deal[place] |= 1 << card
                placed |= 1 << card

        put(self.stock, self.from_stock)
        put(self.seat, self.dealt)
        for s in range(self.rules.players):
            if s != self.seat:
                put(s, self.played[s])
        rest = [c for c in range(len(cb.DECK)) if not placed >> c & 1]
        rng.shuffle(rest)
        for card in rest:
            suit_bit = 1 << cb.DECK[card].suit.value
            rooms = [p for p in range(places) if deal[p].bit_count() < self.room[p]]
            good = [p for p in rooms if p == self.stock or not self.voids[p] & suit_bit]
            pool = good or rooms
            weights = [self.room[p] - deal[p].bit_count() for p in pool]
            place = rng.choices(pool, weights)[0]
            deal[place] |= 1 << card
        return deal

    def run(self, deal: list[int], seed: int) -> tuple[cb.State, int]:
        """Replay the history on ``deal``; return the state and the entries replayed.

        Face-down entries are filled with legal actions drawn from ``seed``
        (the same seed, the same choices) that the view shows the same way.
        """
        pick = random.Random(seed)
        seat = self.seat
        hands = tuple(cb.CardSet(deal[s]) for s in range(self.rules.players))
        state = cb.start(self.rules, cb.Deal(self.view.dealer, hands, cb.CardSet(deal[self.stock])))
        for i, (_, action) in enumerate(self.entries):
            if i in self.hidden:
                found = None
                choices = list(cb.legal_actions(state))
                pick.shuffle(choices)
                # a card a later move shows, last; one of a suit the seat shows out of
                # later, first, for an odd seed (an even seed, drawn anew, tries without)
                later, void = self.later[i], self.void_cards[self.entries[i][0]]
                void = void if seed & 1 else 0
                choices.sort(key=lambda a: (bool(_named(a) & later), not _named(a) & void))
                for choice in choices:
                    nxt = cb.apply(state, choice)
                    shown = nxt.view(seat).history
                    if len(shown) == i + 1 and shown[i] == self.entries[i]:
                        found = nxt
                        break
                if found is None:
                    return state, i
                state = found
            else:
                try:
                    state = cb.apply(state, cast(cb.Action, action))
                except cb.CalabrasellaError:
                    return state, i
        return state, len(self.entries)

    def world(self, rng: random.Random) -> cb.State | None:
        """One attempt: a proposal, repaired where the replay refuses a move; ``None`` if it fails."""
        deal = self.propose(rng)
        seed = rng.getrandbits(64) | 1
        fixed = 0  # cards placed by a repair: never moved again in this attempt
        redraws = 0
        n = len(self.entries)
        for _ in range(REPAIRS):
            state, done = self.run(deal, seed)
            if done == n:
                return state if state.view(self.seat) == self.view else None
            who, action = self.entries[done]
            if done in self.hidden:
                return None
            better = self.repair(deal, seed, done, who, action, fixed, rng)
            if better is None:  # the face-down moves may be what is wrong: draw them anew
                redraws += 1
                if redraws > REDRAWS:
                    return None
                seed = rng.getrandbits(64) & ~1 | (redraws + 1) & 1  # even, then odd
            else:
                deal, fixed = better
        return None

    def agrees(self, state: cb.State) -> bool:
        """Whether the moves so far, as the seat would know them, are the view's."""
        now = places.records(state.view(self.seat))
        return now == self._records[: len(now)]

    def repair(
        self, deal: list[int], seed: int, at: int, who: int, action: object, fixed: int,
        rng: random.Random,
    ) -> tuple[list[int], int] | None:  # fmt: skip
        """Deal the cards the refused move names (or the cards in its way) elsewhere."""
        named = _named(action) & ~fixed
        for i, (_, earlier) in enumerate(self.entries[:at]):  # the replay got past these
            if i not in self.hidden:
                fixed |= _named(earlier)
        order = [who, self.stock, *(s for s in self.active if s != who)]
        best: tuple[tuple[bool, int, float], list[int]] | None = None
        for place in order:  # where the cards let the replay go furthest, and agree
            if not self.room[place] or not named & ~deal[place]:
                continue
            new: list[int] | None = deal
            for card in bits(named & ~deal[place]):
                here = next(p for p in range(self.places) if deal[p] >> card & 1)
                new = self.swap(new, card, here, place, fixed | named, rng) if new else None
            if new is not None:
                state, reached = self.run(new, seed)
                if reached > at:
                    score = (self.agrees(state), reached, rng.random())
                    if best is None or score > best[0]:
                        best = (score, new)
        return None if best is None else (best[1], fixed | named)

    def swap(
        self, deal: list[int], card: int, here: int, place: int, fixed: int, rng: random.Random
    ) -> list[int] | None:
        """Move ``card`` from ``here`` to ``place``, in exchange for a card that may move."""
        moving = self.moving  # a card a move names may have come to a hand by that move
        keep = fixed | self.from_stock | self.dealt
        keep |= self.played[place] & ~moving
        if place == self.seat:
            keep |= self.view.hand.mask & ~self.moving
        pool = deal[place] & ~keep & ~(1 << card)
        first = pool & self.moving  # a card some move names: likely misplaced
        candidates = bits(first or pool)
        if not candidates:
            return None
        other, new = rng.choice(candidates), list(deal)
        new[here] ^= (1 << card) | (1 << other)
        new[place] ^= (1 << card) | (1 << other)
        return new

    def sample(self, rng: Union[random.Random, int], tries: int = TRIES) -> cb.State:
        """Return a world of the view found in at most ``tries`` attempts.

        Raises:
            SeedError: ``rng`` is neither an int nor a ``random.Random``.
            RulesetError: No world found in ``tries`` attempts.
        """
        pick = _as_rng(rng)
        for _ in range(tries):
            self.attempts += 1
            state = self.world(pick)
            if state is not None:
                return state
        raise cb.RulesetError(
            f"{self.view.rules.name}: no world of seat {self.view.seat}'s view "
            f"found in {tries} deals replayed"
        )
