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

from . import _bits, legal
from ._auction import position_of
from ._driver import begin_play, check_wait, close, finish, work_of
from .actions import CALLS, DISCARDS, DONE, GIVE_BACKS, TAKES, Action
from .cards import _cardset
from .deal import as_random
from .engine import _PLAY_ENTRIES, _not_a_state, apply, legal_actions, sample_chance
from .phases import Phase
from .rulesets.base import PLAY_FREE, PLAY_TABLE
from .rulesets.protocol import _DECLARER
from .rulesets.steps import (
    CallStep,
    DiscardStep,
    Exchange,
    ExposeStep,
    GiveBackStep,
    Step,
    TakeStep,
    Work,
)
from .state import State, make_state

__all__ = ["rollout"]

_Random = random.Random
_CHOICE = _Random.choice
_RANDRANGE = _Random.randrange
_SUIT_PLAYS = legal.SUIT_PLAYS
_UNITS = _bits.UNITS
_FULL = _bits.FULL
_PLAYING = Phase.PLAYING
_BIDDING = Phase.BIDDING
_OVER = Phase.OVER
_DRAWING = Phase.DRAWING
_CALLING = Phase.CALLING
_GIVING_BACK = Phase.GIVING_BACK
_DISCARDING = Phase.DISCARDING
_TAKING = Phase.TAKING
_tuple_new = tuple.__new__


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
    if state._phase is _OVER:
        return state
    if state._rules._play == PLAY_TABLE:  # table mode: the loop itself
        return _the_loop(state, rng)
    draws = _Draws(rng)
    history = list(state._history)
    phase = state._phase
    if phase is _BIDDING:
        return _auction(state, history, draws)
    if phase is _PLAYING:
        s = state
        return _play(
            s, s._exchange, list(s._hand_masks), s._stock_mask, s._to_move,  # type: ignore[arg-type]
            s._leader, list(s._trick_cards), list(s._card_units_won), list(s._tricks_won),
            history, draws,
        )  # fmt: skip
    work = work_of(state)
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
        n = len(seq)
        k = n.bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return seq[r]

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
            s._rules, s._deal, _OVER, None, s._hand_masks, s._stock_mask, None,
            (), s._leader, s._card_units_won, s._tricks_won, tuple(history), here.void,
        )  # fmt: skip
    declarer, contract = here.won
    zeros = (0,) * len(s._hand_masks)
    exchange: Exchange = _tuple_new(Exchange, (
        declarer, contract, None, here.plan, 0, 0, -1, -1, -1, 0,
        zeros, zeros, zeros, (), (), s._deal.order, (),
    ))  # fmt: skip
    work = Work(s._rules, list(s._hand_masks), s._stock_mask, exchange, len(history))
    _steps(work, history, draws)
    return _exchange(state, work, history, draws)


def _exchange(state: State, work: Work, history: list[tuple[int, Action]], draws: _Draws) -> State:
    """Run the exchange on one working copy, as the engine runs it on a fresh copy per action.

    ``work`` waits for a decision of its running step (or the play has begun).
    """
    plain = draws.plain
    getrandbits = draws.getrandbits
    while work.phase is not _PLAYING:
        step = work.plan[work.step]
        cls = step.__class__
        if plain and (
            (cls is DiscardStep and _discard(work, step, history, getrandbits))  # type: ignore[arg-type]
            or (cls is TakeStep and _take(work, step, history, getrandbits))  # type: ignore[arg-type]
        ):
            work.step += 1
            _steps(work, history, draws)
            continue
        actions = step.legal_actions(work)
        if not actions:  # the loop stops here with its own error: let it
            return _the_loop(close(state, work, tuple(history)), draws.rng)
        if plain:  # rng.choice and rng.randrange draw alike: getrandbits until below n
            n = len(actions)
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            action = actions[r]
        else:
            action = draws.outcome(actions) if work.to_move is None else draws.choice(actions)
        work.history_length = len(history) + 1
        work.entries = []
        done = step.apply(work, action)
        history.extend(work.entries)
        if done:
            work.step += 1
            _steps(work, history, draws)
    w = work
    record: Exchange = _tuple_new(Exchange, (
        w.declarer, w.contract, w.modifier, w.plan, w.step, w.moved, w.called, w.giver,
        w.gave_back, w.exposed, w.discards, w.taken, w.drawn, w.starts, w.forced, w.order, (),
    ))  # fmt: skip
    s = state
    leader: int = w.to_move  # type: ignore[assignment]
    return _play(
        s, record, w.hands, w.stock, leader, leader, [], list(s._card_units_won),
        list(s._tricks_won), history, draws,
    )  # fmt: skip


def _steps(work: Work, history: list[tuple[int, Action]], draws: _Draws) -> None:
    """Run the plan from ``work.step`` (not yet started) as :func:`advance` does, and the
    built-in steps' decisions too, until a step waits that the fast paths leave to the loop
    in :func:`_exchange`, or the play begins.
    """
    plain = draws.plain
    getrandbits = draws.getrandbits
    while True:
        plan = work.plan
        step_at = work.step
        if step_at >= len(plan):
            begin_play(work)
            return
        step = plan[step_at]
        work.moved = 0
        work.starts += (work.history_length,)  # one start per step, in order
        cls = step.__class__
        if plain:
            if cls is DiscardStep:
                role = step.role  # type: ignore[attr-defined]
                seat = work.declarer if role is _DECLARER else work.seat(role)
                if not step.as_taken or work.taken[seat]:  # type: ignore[attr-defined]
                    work.to_move, work.phase = seat, _DISCARDING
                    if not _discard(work, step, history, getrandbits):  # type: ignore[arg-type]
                        return
            elif cls is CallStep:
                if _call(work, history, getrandbits) is None:
                    return
            elif cls is GiveBackStep:
                if work.giver >= 0:
                    work.to_move, work.phase = work.declarer, _GIVING_BACK
                    if not _give_back(work, history, getrandbits):
                        return
            elif cls is TakeStep:
                seat = work.seat(step.role)  # type: ignore[attr-defined]
                takeable = work.stock & ~work.laid_down()
                cards = step._no_choice(work, seat, takeable)  # type: ignore[attr-defined]
                if cards is not None:
                    if cards:
                        TakeStep._take_forced(work, seat, cards)
                else:
                    work.to_move, work.phase = seat, _TAKING
                    if not _take(work, step, history, getrandbits):  # type: ignore[arg-type]
                        return
            elif cls is ExposeStep:
                work.exposed |= work.stock & ~work.laid_down()
            elif _started(work, step, history):
                return
        elif _started(work, step, history):
            return
        work.step += 1


def _started(work: Work, step: Step, history: list[tuple[int, Action]]) -> bool:
    """Start ``step`` as :func:`advance` does; tell whether it waits for a decision."""
    work.entries = []
    waits = step.start(work)
    history.extend(work.entries)
    if waits:
        check_wait(work, step)
    return waits


_DONE_PICKED = -1
_NOTHING = -2


def _pick(mask: int, done_first: bool, getrandbits: Any) -> int:
    """Draw as ``rng.choice`` would among ``[Done] * done_first`` and the cards of ``mask``.

    Return the card index, :data:`_DONE_PICKED` for ``Done``, or
    :data:`_NOTHING` (drawing nothing) when there is nothing to choose.
    """
    n = mask.bit_count() + done_first
    if not n:
        return _NOTHING
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    if done_first:
        if not r:
            return _DONE_PICKED
        r -= 1
    base = 0
    held = _PLACES[mask & 1023]
    while r >= len(held):
        r -= len(held)
        base += 10
        held = _PLACES[mask >> base & 1023]
    card: int = base + held[r]
    return card


def _call(work: Work, history: list[tuple[int, Action]], getrandbits: Any) -> bool | None:
    """Start and run a :class:`CallStep` as its ``start``, ``legal_actions`` and ``apply`` would.

    Its legal actions are one ``Call`` per callable card, in card order; it
    is skipped when nothing can be called. Return ``True`` when it called,
    ``False`` when it was skipped.
    """
    declarer = work.declarer
    hands = work.hands
    hand = hands[declarer]
    allowed = work.rules.callable_cards(_cardset(hand), work.contract).mask & ~hand & _FULL
    if not allowed:
        return False
    work.to_move, work.phase = declarer, _CALLING
    card = _pick(allowed, False, getrandbits)
    bit = 1 << card
    for seat, held in enumerate(hands):
        if held & bit:
            work.giver = seat
            hands[seat] = held ^ bit
            hands[declarer] |= bit
            break
    work.called = card
    history.append((declarer, CALLS[card]))
    work.history_length = len(history)
    return True


def _give_back(work: Work, history: list[tuple[int, Action]], getrandbits: Any) -> bool:
    """Run a :class:`GiveBackStep` (started) as its ``legal_actions`` and ``apply`` would.

    Its legal actions are one ``GiveBack`` per card of the declarer's but
    the called one, in card order. Return ``False``, having done nothing,
    when there would be no legal action.
    """
    declarer = work.declarer
    called = work.called
    hands = work.hands
    card = _pick(hands[declarer] & ~(1 << called if called >= 0 else 0), False, getrandbits)
    if card < 0:
        return False
    bit = 1 << card
    hands[declarer] ^= bit
    hands[work.giver] |= bit
    work.gave_back = card
    history.append((declarer, GIVE_BACKS[card]))
    work.history_length = len(history)
    return True


def _discard(
    work: Work, step: DiscardStep, history: list[tuple[int, Action]], getrandbits: Any
) -> bool:
    """Run a :class:`DiscardStep` (started) to its end, as its ``legal_actions`` and
    ``apply`` would.

    Its legal actions are ``Done`` (once enough cards are down) and then one
    ``Discard`` per card held, in card order: the r-th is found on the masks.
    Return ``False``, having done nothing, when there would be no legal action.
    """
    role = step.role
    seat = work.declarer if role is _DECLARER else work.seat(role)
    if step.as_taken:
        low = high = work.taken[seat].bit_count()
    else:
        low, high = step.min_count, step.max_count
    hands = work.hands
    discards = list(work.discards)
    while True:
        hand = hands[seat]
        card = _pick(hand, work.moved >= low, getrandbits)  # Done first once enough are down
        if card < 0:
            if card == _NOTHING:
                return False
            history.append((seat, DONE))
            break
        bit = 1 << card
        hands[seat] = hand ^ bit
        work.stock |= bit
        discards[seat] |= bit
        work.discards = tuple(discards)
        work.moved += 1
        history.append((seat, DISCARDS[card]))
        if work.moved >= high:
            break
    work.history_length = len(history)
    return True


def _take(work: Work, step: TakeStep, history: list[tuple[int, Action]], getrandbits: Any) -> bool:
    """Run a :class:`TakeStep` (started) to its end, as its ``legal_actions`` and ``apply`` would.

    Its legal actions are ``Done`` first when the number is free, then one
    ``Take`` per stock card not laid down, in card order. Return ``False``,
    having done nothing, when there would be no legal action.
    """
    role = step.role
    seat = work.declarer if role is _DECLARER else work.seat(role)
    free = step.count == "any"
    laid_down = work.laid_down()  # a take lays nothing down
    while True:
        takeable = work.stock & ~laid_down
        card = _pick(takeable, free, getrandbits)
        if card < 0:
            if card == _NOTHING:
                return False
            history.append((seat, DONE))
            break
        bit = 1 << card
        work.stock ^= bit
        work.hands[seat] |= bit
        taken = list(work.taken)
        taken[seat] = mine = taken[seat] | bit
        work.taken = tuple(taken)
        work.moved += 1
        history.append((seat, TAKES[card]))
        takeable ^= bit
        if free:
            if not takeable:
                break
            continue
        left = work.discards[seat].bit_count() - mine.bit_count()
        if left and left == takeable.bit_count():  # forced: the rest at once
            work.history_length = len(history)
            TakeStep._take_forced(work, seat, takeable)
            break
        if not left:
            break
    work.history_length = len(history)
    return True


def _the_loop(state: State, rng: random.Random) -> State:
    """The loop itself, for what the fast paths leave to it."""
    while state._phase is not _OVER:
        if state._phase is _DRAWING:
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
        sp0, sp1, sp2, sp3 = sp = _SUIT_PLAYS
        while True:
            hand = hands[mover]
            plays = None
            if trick and follow:
                suit = trick[0] // 10
                in_suit = hand >> (10 * suit) & 1023
                if in_suit:
                    plays = sp[suit][in_suit]
            if plays is None:
                plays = sp0[hand & 1023] + sp1[hand >> 10 & 1023] + sp2[hand >> 20 & 1023] + sp3[hand >> 30]
            card = choice(plays).card.index
            hands[mover] = hand ^ 1 << card
            append(entries[mover][card])
            if len(trick) < 2:
                trick.append(card)
                mover = next_seat[mover]
                continue
            c0, c1 = trick
            best, where = c0, 0
            suit = c0 // 10
            if c1 // 10 == suit and c1 < best:
                best, where = c1, 1
            if card // 10 == suit and card < best:
                where = 2
            winner = leader if where == 0 else next_seat[leader] if where == 1 else mover
            won[winner] += units[c0] + units[c1] + units[card]
            tricks[winner] += 1
            trick = []
            mover = leader = winner
            if not hands[winner]:
                break
    s = state
    last = make_state(
        s._rules, s._deal, _PLAYING, winner, tuple(hands), stock, exchange, (),
        winner, tuple(won), tuple(tricks), tuple(history), None,
    )  # fmt: skip
    return finish(last, winner)


# The positions held in each 10-bit suit mask, strongest first (the order of the
# legal actions), and the bit length of each count of legal actions.
_PLACES = tuple(tuple(p for p in range(10) if m >> p & 1) for m in range(1024))
_BIT_LENGTHS = tuple(n.bit_length() for n in range(41))
# For each 10-bit holding of the suit led: the positions that may follow, how
# many, and their count's bit length; with no duty to follow, none.
_FOLLOWS = tuple((p, len(p), len(p).bit_length()) for p in _PLACES)
_NO_FOLLOWS = (((), 0, 0),) * 1024
