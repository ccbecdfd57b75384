"""Random playouts to the end of a deal, fast: :func:`rollout`.

A rollout is exactly the bot loop in which every seat chooses uniformly
among its legal actions and chance is drawn as :func:`sample_chance` draws
it, with the same ``random.Random``: the same draws, in the same order, give
the same final state, history included. Inside it keeps the auction's
position, one working copy of the exchange and the play's masks, and builds
no state until the end.
"""

from __future__ import annotations

import random
from typing import Any, Union

from . import _bits
from ._auction import position_of
from ._end import finish
from ._exchange import advance, close, work_of
from ._tricks import legal_plays, trick_winner
from .actions import Action
from .deal import as_random
from .engine import _PLAY_ENTRIES, _not_a_state, apply, legal_actions, sample_chance
from .phases import BIDDING, DRAWING, OVER, PLAYING
from .rulesets.base import PLAY_FREE, PLAY_TABLE
from .rulesets.steps import Exchange, Work
from .state import State, make_state

__all__ = ["rollout"]

_Random = random.Random
_UNITS = _bits.UNITS


def rollout(state: State, rng: Union[random.Random, int]) -> State:
    """Play ``state`` to the end with uniformly random legal actions; return the final state.

    It is exactly this loop, and returns the same final state (history
    included) for the same ``rng``, consuming the same draws in the same
    order, only faster::

        while not state.is_over:
            if state.is_chance:
                state = cb.apply(state, cb.sample_chance(state, rng))
            else:
                state = cb.apply(state, rng.choice(cb.legal_actions(state)))

    It builds no state on the way, so it is the one to call for Monte-Carlo
    simulations. Given an int, it plays with ``random.Random(rng)``.

    Raises:
        StateError: ``state`` is not a :class:`State`.
        SeedError: ``rng`` is neither a ``random.Random`` nor an int (also a TypeError).

    Example:
        >>> import random
        >>> import calabrasella as cb
        >>> start = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
        >>> end = cb.rollout(start, random.Random(1))
        >>> end.is_over, sum(end.result.payments)
        (True, 0)
        >>> loop, rng = start, random.Random(1)
        >>> while not loop.is_over:
        ...     loop = cb.apply(loop, rng.choice(cb.legal_actions(loop)))
        >>> loop == end
        True
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "rollout")
    rng = as_random(rng, "rng")
    if state._phase is OVER:
        return state
    if state._rules._play == PLAY_TABLE:  # table mode: the loop itself
        return _the_loop(state, rng)
    draws = _Draws(rng)
    history = list(state._history)
    phase = state._phase
    if phase is BIDDING:
        return _auction(state, history, draws)
    if phase is PLAYING:
        s = state
        return _play(
            s, s._exchange, list(s._hand_masks), s._stock_mask, s._to_move,  # type: ignore[arg-type]
            s._leader, list(s._trick_cards), list(s._card_units_won), list(s._tricks_won),
            history, draws,
        )  # fmt: skip
    work = work_of(state)
    work.history = history  # (the rollout's own list: the moves' entries are read from it)
    return _exchange(state, work, history, draws)


class _Draws:
    """The draws of the loop: ``rng.choice(seq)`` and ``rng.randrange(n)``.

    For a plain ``random.Random`` both are ``rng._randbelow(n)``, which is
    ``getrandbits(k)`` until below ``n``: done here without the calls.
    """

    __slots__ = ("getrandbits", "plain", "rng")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        own = rng.__dict__
        self.plain = (
            rng.__class__ is _Random
            and "choice" not in own
            and "randrange" not in own
            and "_randbelow" not in own
            and "getrandbits" not in own
        )
        self.getrandbits = rng.getrandbits

    def choice(self, seq: tuple[Any, ...]) -> Any:
        """``rng.choice(seq)``."""
        if not self.plain:
            return self.rng.choice(seq)
        return seq[self.below(len(seq))]

    def below(self, n: int) -> int:
        """``rng._randbelow(n)`` of a plain ``random.Random``: what ``rng.choice`` draws."""
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def outcome(self, outcomes: tuple[Any, ...]) -> Any:
        """``outcomes[rng.randrange(len(outcomes))]``, as :func:`sample_chance` draws."""
        if not self.plain:
            return outcomes[self.rng.randrange(len(outcomes))]
        return self.choice(outcomes)


def _auction(state: State, history: list[tuple[int, Action]], draws: _Draws) -> State:
    here = position_of(state)
    choice = draws.choice
    while here.seat is not None:
        seat = here.seat
        action = choice(here.legal)
        history.append((seat, action))
        here = here.after(action)
    s = state
    if here.won is None:
        return make_state(
            rules=s._rules, deal=s._deal, phase=OVER, to_move=None, hand_masks=s._hand_masks,
            stock_mask=s._stock_mask, leader=s._leader, card_units_won=s._card_units_won,
            tricks_won=s._tricks_won, history=tuple(history), result=here.void,
        )  # fmt: skip
    declarer, contract = here.won
    exchange = Exchange.begin(declarer, contract, here.plan, s._deal.order, len(s._hand_masks))
    work = Work(s._rules, list(s._hand_masks), s._stock_mask, exchange, len(history), history=history)
    advance(work)
    history.extend(work.entries)
    return _exchange(state, work, history, draws)


def _exchange(state: State, work: Work, history: list[tuple[int, Action]], draws: _Draws) -> State:
    """Run the exchange on one working copy, as the engine runs it on a fresh copy per action.

    ``work`` waits for a decision of its running step (or the play has begun):
    each decision is the running step's ``legal_actions`` and ``apply``, then
    the engine's :func:`~calabrasella._exchange.advance`, as in :func:`apply`.
    """
    below = draws.below if draws.plain else None
    while work.phase is not PLAYING:
        step = work.plan[work.step]
        if below is not None:  # the step's own fast way, if it has one
            work.history_length = len(history) + 1
            work.entries = []
            work.deciding = True
            over = step.rollout(work, below)
            if over is not None:
                if over:
                    work.step += 1
                    advance(work)
                history.extend(work.entries)
                continue
        actions = step.legal_actions(work)
        if not actions:  # the loop stops here with its own error: let it
            return _the_loop(close(state, work, tuple(history)), draws.rng)
        action = draws.outcome(actions) if work.to_move is None else draws.choice(actions)
        work.history_length = len(history) + 1
        work.entries = []
        work.deciding = True
        if step.apply(work, action):
            work.step += 1
            advance(work)
        history.extend(work.entries)
    leader: int = work.to_move  # type: ignore[assignment]
    return _play(
        state, work.exchange(), work.hands, work.stock, leader, leader, [],
        list(state._card_units_won), list(state._tricks_won), history, draws,
    )  # fmt: skip


def _the_loop(state: State, rng: random.Random) -> State:
    """The loop itself, for what the fast paths leave to it."""
    while state._phase is not OVER:
        if state._phase is DRAWING:
            state = apply(state, sample_chance(state, rng))
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    return state


def _play(
    state: State,
    exchange: Exchange,
    hands: list[int],
    stock: int,
    mover: int,
    leader: int,
    trick: list[int],
    won: list[int],
    tricks: list[int],
    history: list[tuple[int, Action]],
    draws: _Draws,
) -> State:
    """Play the tricks out on masks, choosing as ``rng.choice(legal_actions(state))`` would."""
    follow = state._rules._play != PLAY_FREE
    next_seat = state._deal.next_seat
    entries = _PLAY_ENTRIES
    units = _UNITS
    append = history.append
    if draws.plain:  # rng.choice inline: the r-th legal card, r drawn by getrandbits
        # Each hand as four 10-bit suit masks, and its number of cards: small ints,
        # which Python handles far faster than 40-bit masks.
        getrandbits = draws.getrandbits
        places = _PLACES
        bits = _BIT_LENGTHS
        held = [[h & 1023, h >> 10 & 1023, h >> 20 & 1023, h >> 30] for h in hands]
        left = [h.bit_count() for h in hands]
        follows = _FOLLOWS if follow else _NO_FOLLOWS
        # The trick so far: the suit led, the best position in it and its seat, the units.
        played = len(trick)
        if played:
            c0 = trick[0]
            led, best = divmod(c0, 10)
            winner, total = leader, units[c0]
            if played == 2:
                c1 = trick[1]
                total += units[c1]
                if c1 // 10 == led and c1 % 10 < best:
                    best, winner = c1 % 10, next_seat[leader]
        while True:
            if not played:  # the lead: the r-th card of the hand, suit by suit
                suits = held[mover]
                n = left[mover]
                left[mover] = n - 1
                k = bits[n]
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                led = 0
                cards = places[suits[0]]
                while r >= len(cards):
                    r -= len(cards)
                    led += 1
                    cards = places[suits[led]]
                best = cards[r]
                suits[led] ^= 1 << best
                card = 10 * led + best
                append(entries[mover][card])
                winner, total = mover, units[card]
                mover = next_seat[mover]
                played = 1
            while True:  # the cards after the lead
                suits = held[mover]
                cards, n, k = follows[suits[led]]
                if n:  # follow suit: the r-th card held of the suit led
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    position = cards[r]
                    suits[led] ^= 1 << position
                    card = 10 * led + position
                    if position < best:
                        best, winner = position, mover
                else:  # any card
                    n = left[mover]
                    k = bits[n]
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    suit = 0
                    cards = places[suits[0]]
                    while r >= len(cards):
                        r -= len(cards)
                        suit += 1
                        cards = places[suits[suit]]
                    position = cards[r]
                    suits[suit] ^= 1 << position
                    card = 10 * suit + position
                    if suit == led and position < best:  # (without following suit)
                        best, winner = position, mover
                left[mover] -= 1
                append(entries[mover][card])
                total += units[card]
                if played == 2:
                    break
                played = 2
                mover = next_seat[mover]
            won[winner] += total
            tricks[winner] += 1
            mover = leader = winner
            played = 0
            if not left[winner]:
                break
        hands = [s0 | s1 << 10 | s2 << 20 | s3 << 30 for s0, s1, s2, s3 in held]
    else:  # another generator: its own choice, from the legal actions themselves
        choice = draws.rng.choice
        while True:
            hand = hands[mover]
            card = choice(legal_plays(hand, tuple(trick), follow)).card.index
            hands[mover] = hand ^ 1 << card
            append(entries[mover][card])
            trick.append(card)
            if len(trick) < 3:
                mover = next_seat[mover]
                continue
            winner = trick_winner(tuple(trick), leader, next_seat)
            won[winner] += units[trick[0]] + units[trick[1]] + units[card]
            tricks[winner] += 1
            trick = []
            mover = leader = winner
            if not hands[winner]:
                break
    last = make_state(
        rules=state._rules, deal=state._deal, phase=PLAYING, to_move=winner,
        hand_masks=tuple(hands), stock_mask=stock, exchange=exchange, leader=winner,
        card_units_won=tuple(won), tricks_won=tuple(tricks), history=tuple(history),
    )  # fmt: skip
    return finish(last, winner)


# The positions held in each 10-bit suit mask, strongest first (the order of the
# legal actions), and the bit length of each count of legal actions.
_PLACES = _bits.PLACES
_BIT_LENGTHS = tuple(n.bit_length() for n in range(41))
# For each 10-bit holding of the suit led: the positions that may follow, how
# many, and their count's bit length; with no duty to follow, none.
_FOLLOWS = tuple((p, len(p), len(p).bit_length()) for p in _PLACES)
_NO_FOLLOWS = (((), 0, 0),) * 1024
