"""The engine's public functions: apply an action, list the legal ones, resolve chance.

Nothing here mutates anything or draws a random number by itself: a deal
comes from :mod:`calabrasella.deal`; dividete's unseen draw is a chance node
whose outcome you pass to :func:`apply` (or draw with :func:`sample_chance`).
"""

# Inside: apply sends each action to its phase, one module each: the auction
# (its positions in _auction, a call applied here), the exchange (_exchange
# drives the ruleset's steps, which own every exchange rule), the play (the
# rule in _tricks: legal_actions asks it; apply's hot path checks a card and
# finds the trick's winner inline, held to that rule by a property test), the
# end of the deal (_end) and table mode's irregular actions (_table).

from __future__ import annotations

import random
from typing import Union

from . import _legal
from ._action_kinds import ACTION_CLASSES
from ._auction import _PASS_KEY, position_of
from ._end import finish
from ._exchange import apply_exchange, begin_exchange
from ._tricks import legal_plays as _legal_plays
from ._tricks import refuses, third_wins
from .actions import ACTION_TYPES, IRREGULAR, PLAYS, Action, Bid, Draw, Pass, Play
from .cards import DECK
from .deal import as_random
from .errors import IllegalActionError, NotAnActionError, SeatError, StateError
from .phases import BIDDING, DRAWING, OVER, PLAYING
from .rulesets.base import PLAY_TABLE
from .rulesets.steps import describe
from .state import State, make_state
from .views import View

__all__ = [
    "apply",
    "chance_outcomes",
    "check",
    "is_legal",
    "legal_actions",
    "sample_chance",
    "view",
]

_new = object.__new__
# Shared values the play's hot path hands out instead of building them: the
# history entry (seat, Play) for each seat and card (of the shared Play actions),
# and the trick after its first card and after its second.
_PLAY_ENTRIES = tuple(tuple((seat, play) for play in PLAYS) for seat in range(4))
_LEADS = tuple((c,) for c in range(40))
_ACTION_CLASSES = ACTION_CLASSES  # the declared kinds (a variant's own are subclasses: isinstance)
_SECONDS = tuple(tuple((c0, c1) for c1 in range(40)) for c0 in range(40))


# --- queries -------------------------------------------------------------------


def legal_actions(state: State | View) -> tuple[Action, ...]:
    """Return the legal actions in ``state``, in a fixed order.

    This is the main spelling. ``state.legal_actions()`` is the same call as
    a method, and a :class:`View` carries its seat's legal actions as
    ``view.legal_actions`` so that a bot handed only a view can choose.

    The order: a "no" (``Pass``, ``Done``) first when allowed, then bids from
    the lowest, raises dividete then scegliete, cards in canonical order
    (suit by suit, coins first, the strongest rank first), and chance
    outcomes by their cards. At a chance node the actions are the possible
    outcomes, equally likely; when the deal is over there are none. Given a
    :class:`View`, it returns the view's own ``legal_actions`` (empty when
    that seat is not to act).

    Raises:
        StateError: ``state`` is neither a :class:`State` nor a :class:`View`.

    Example:
        >>> import calabrasella as cb
        >>> cb.legal_actions(cb.new_deal(cb.CAVENDISH, seed=7))
        (Pass(), Bid(contract=<Contract.STAND: 'stand'>))
    """
    if state.__class__ is State:
        phase = state._phase
        if phase is PLAYING and not state._rules._play:  # the play (follow suit): the kernel's rule
            return _legal_plays(state._hand_masks[state._to_move], state._trick_cards, True)  # type: ignore[index]
        if phase is BIDDING:
            return (state._auction or position_of(state)).legal
        ex = state._exchange
        if (  # the exchange (table mode adds its stock turns)
            ex is not None
            and phase is not PLAYING
            and phase is not OVER
            and state._rules._play != PLAY_TABLE
        ):
            return ex.legal  # listed by the running step when the state was built
        return _legal.legal_actions(state)  # the play under other rules, table mode, the end
    if isinstance(state, View):
        return state.legal_actions
    raise _not_a_state(state, "legal_actions")


def view(state: State, seat: int) -> View:
    """Return what ``seat`` may know of ``state`` (the same as ``state.view(seat)``).

    Raises:
        SeatError: ``seat`` is not a seat at this table.
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.view(s, 0).hand == s.hand(0)
        True
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "view")
    return state.view(seat)


def _not_a_state(obj: object, function: str) -> StateError:
    if isinstance(obj, View):
        return StateError(
            f"{function}() was given a View: a view is what one seat may know, "
            "not the state of the deal; pass the State"
        )
    return StateError(f"{function}() needs a State, not {obj!r}")


# --- applying ------------------------------------------------------------------


def apply(state: State, action: Action, *, seat: int | None = None) -> State:
    """Return the state after ``action``; ``state`` itself never changes.

    A server that applies what a client sent passes that client's ``seat``:
    the action is then refused unless it is that seat's to make (the seat to
    move, or the seat an irregular table-mode action names; a chance action
    is no seat's). Without ``seat`` the action is taken as the mover's.

    Raises:
        IllegalActionError: ``action`` is not legal in ``state``, or not
            ``seat``'s to make; the message names it and says why.
        NotAnActionError: ``action`` is not an action at all (text, say: read
            it with :func:`~calabrasella.parse_action`); an ``IllegalActionError``
            and a ``TypeError``.
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is not a :class:`State` (a view, say).

    Example:
        >>> import calabrasella as cb
        >>> s0 = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> s1 = cb.apply(s0, cb.Pass())
        >>> s0.to_move, s1.to_move, len(s0.history), len(s1.history)
        (1, 2, 0, 1)
        >>> cb.apply(s1, cb.Pass(), seat=0)
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action Pass(): sent by seat 0, but it is seat 2's to make
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "apply")
    if seat is not None:
        _legal.check_sender(state, action, seat)
    phase = state._phase
    if phase is PLAYING and action.__class__ is Play:  # the hot path, inline
        card = action.card.index
        mover: int = state._to_move  # type: ignore[assignment]
        hands = state._hand_masks
        hand = hands[mover]
        bit = 1 << card
        if not hand & bit:
            raise IllegalActionError(action, f"seat {mover} does not hold {DECK[card]}")
        trick = state._trick_cards
        if trick and state._rules.follow_suit and refuses(hand, card, trick[0]):
            raise IllegalActionError(
                action, f"seat {mover} must follow suit: {DECK[trick[0]].suit.name.lower()} was led"
            )
        if len(hands) == 3:  # one new tuple
            if mover == 0:
                new_hands = (hand ^ bit, hands[1], hands[2])
            elif mover == 1:
                new_hands = (hands[0], hand ^ bit, hands[2])
            else:
                new_hands = (hands[0], hands[1], hand ^ bit)
        else:
            held = list(hands)
            held[mover] = hand ^ bit
            new_hands = tuple(held)  # type: ignore[assignment]
        entry = _PLAY_ENTRIES[mover][card]
        if entry[1] is not action:  # not the shared instance legal_actions lists
            entry = (mover, action)
        deal = state._deal
        new = _new(State)
        new._rules = state._rules
        new._deal = deal
        new._phase = PLAYING
        new._hand_masks = new_hands
        new._stock_mask = state._stock_mask
        new._exchange = state._exchange
        new._history = state._history + (entry,)
        new._result = None
        new._auction = None  # (its _tally slot left unset: the play has none)
        if len(trick) < 2:
            new._to_move = deal.next_seat[mover]
            new._trick_cards = _LEADS[card] if not trick else _SECONDS[trick[0]][card]
            new._leader = state._leader
            new._card_units_won = state._card_units_won
            new._tricks_won = state._tricks_won
            return new
        c0, c1 = trick  # the third card: the play kernel says who wins
        where = third_wins(c0, c1, card)
        leader = state._leader
        winner = leader if where == 0 else deal.next_seat[leader] if where == 1 else mover
        won = list(state._card_units_won)
        units = state._rules._numbers.units
        won[winner] += units[c0] + units[c1] + units[card]
        tricks = list(state._tricks_won)
        tricks[winner] += 1
        new._to_move = winner
        new._trick_cards = ()
        new._leader = winner
        new._card_units_won = tuple(won)
        new._tricks_won = tuple(tricks)
        if new_hands[winner]:
            return new
        return finish(new, winner)
    if action.__class__ not in _ACTION_CLASSES and not isinstance(action, ACTION_TYPES):
        raise NotAnActionError(action)
    if action.__class__ in IRREGULAR:  # table mode's (refused under the default rules)
        from ._table import apply_irregular  # (loaded on first use: most programs never do)

        return apply_irregular(state, action)
    if phase is BIDDING:
        return _apply_bidding(state, action)
    if phase is PLAYING:
        raise _wrong_kind(state, action, "play a card")
    if phase is OVER:
        raise IllegalActionError(action, "the deal is over")
    return apply_exchange(state, action)


def check(state: State, action: Action, *, seat: int | None = None) -> None:
    """Raise :class:`IllegalActionError` if ``action`` is not legal in ``state``.

    The short name is kept on purpose (renaming it would break callers for
    little gain): spelled with the package, as the docs spell it,
    ``cb.check(state, action)`` reads plainly beside ``cb.is_legal`` and
    ``cb.apply`` as the one that says why. Imported bare it is ambiguous (a
    "check" of what?); import it under a longer name then:
    ``from calabrasella import check as check_action``.

    Raises:
        IllegalActionError: ``action`` is not legal, or not ``seat``'s to
            make (see :func:`apply`); the message says why.
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> cb.check(cb.new_deal(cb.CAVENDISH, seed=7), cb.Play(cb.Card.parse("Ad")))
        Traceback (most recent call last):
        ...
        calabrasella.errors.IllegalActionError: illegal action Play(card=Card.parse('Ad')): seat 1 is to bid or pass, not to play a card
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "check")
    apply(state, action, seat=seat)


def is_legal(state: State | View, action: Action, *, seat: int | None = None) -> bool:
    """Tell whether ``action`` is legal in ``state`` (and ``seat``'s to make, if given).

    Given a :class:`View`, it tells whether the view's seat may take
    ``action`` now (whether it is among the view's ``legal_actions``).

    Raises:
        SeatError: ``seat`` is not a seat of this table.
        StateError: ``state`` is neither a :class:`State` nor a :class:`View`.

    Example:
        >>> import calabrasella as cb
        >>> s = cb.new_deal(cb.CAVENDISH, seed=7)
        >>> cb.is_legal(s, cb.Pass()), cb.is_legal(s, cb.Done())
        (True, False)
        >>> cb.is_legal(s.view(1), cb.Pass()), cb.is_legal(s.view(0), cb.Pass())
        (True, False)
    """
    if state.__class__ is not State:
        if isinstance(state, View):
            if seat is not None:
                if type(seat) is not int or not 0 <= seat < len(state.hand_sizes):
                    raise SeatError(seat, len(state.hand_sizes))
                if seat != state.seat:
                    return False
            try:
                return action in state.legal_actions
            except TypeError:  # an unhashable non-action compared with actions
                return False
        raise _not_a_state(state, "is_legal")
    if seat is not None:
        players = len(state._hand_masks)
        if type(seat) is not int or not 0 <= seat < players:
            raise SeatError(seat, players)
    try:
        apply(state, action, seat=seat)
    except IllegalActionError:
        return False
    return True


def _wrong_kind(state: State, action: object, expected: str) -> IllegalActionError:
    return IllegalActionError(
        action, f"seat {state._to_move} is to {expected}, not to {describe(action)}"
    )


# --- the auction -----------------------------------------------------------------


def _apply_bidding(state: State, action: Action) -> State:
    """Return the state after a call of the auction (the position tree says what follows)."""
    seat: int = state._to_move  # type: ignore[assignment]
    cls = action.__class__
    if cls is not Pass and cls is not Bid:
        raise _wrong_kind(state, action, "bid or pass")
    here = state._auction or position_of(state)  # (a state rebuilt from a pickle has none)
    if cls is Bid and action.contract not in here.allowed:  # type: ignore[union-attr]
        allowed = ", ".join(c.value for c in here.allowed) or "nothing"
        raise IllegalActionError(action, f"seat {seat} may bid {allowed} or pass")
    after = here.children.get(_PASS_KEY if cls is Pass else id(action.contract))  # type: ignore[union-attr]
    if after is None:
        after = here.after(action)
    history = state._history + ((seat, action),)
    if after.seat is None and after.won is not None:
        return begin_exchange(state, after, history)
    return make_state(
        rules=state._rules,
        deal=state._deal,
        phase=BIDDING if after.seat is not None else OVER,
        to_move=after.seat,
        hand_masks=state._hand_masks,
        stock_mask=state._stock_mask,
        leader=state._leader,
        card_units_won=state._card_units_won,
        tricks_won=state._tricks_won,
        history=history,
        result=after.void,
        auction=after if after.seat is not None else None,
    )


# --- chance ------------------------------------------------------------------------


def chance_outcomes(state: State) -> tuple[Draw, ...]:
    """Return the equally likely outcomes of the chance node ``state`` (none elsewhere).

    Raises:
        StateError: ``state`` is not a :class:`State`.

    Example:
        >>> import calabrasella as cb
        >>> cb.chance_outcomes(cb.new_deal(cb.CAVENDISH, seed=7))
        ()
    """
    if state.__class__ is not State:
        raise _not_a_state(state, "chance_outcomes")
    if state._phase is not DRAWING:
        return ()
    return _legal.legal_actions(state)  # type: ignore[return-value]


def sample_chance(state: State, rng: Union[random.Random, int]) -> Draw:
    """Draw one outcome of the chance node ``state`` with ``rng`` (or a seed for one).

    Raises:
        IllegalActionError: ``state`` is not a chance node.
        StateError: ``state`` is not a :class:`State`.
        SeedError: ``rng`` is neither a ``random.Random`` nor an int (also a TypeError).
    """
    outcomes = chance_outcomes(state)
    pick = as_random(rng, "rng")
    if not outcomes:
        who = "the deal is over" if state.is_over else f"seat {state.to_move} is to act"
        raise IllegalActionError(None, f"no chance outcome to draw: {who}")
    return outcomes[pick.randrange(len(outcomes))]
