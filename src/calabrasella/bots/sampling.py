"""Sample hidden cards: draw a full state consistent with what one seat knows.

A bot is handed a :class:`~calabrasella.View`; a search over perfect
information needs a :class:`~calabrasella.State`. :func:`sample_state` (or a
:class:`Sampler`, to draw many) makes one: a genuine state, dealt and
replayed through the public API, whose view for that seat is the view given.

**Worlds.** A *world* of a view is a whole deal as the engine would have
played it: the cards dealt to every seat and to the stock, and the cards of
every move the seat did not see (each hidden discard, in its order; a
give-back, a draw, a pass it did not see), such that replaying the view's
history with those cards filled in (the engine making its forced moves by
itself) gives back the same view. So a world agrees with everything the seat
knows: its own cards and moves, every move it saw and the number of cards of
every move it did not, every hand size, every card played, the suits a seat
showed out of (where suit must be followed), what a call tells, its legal
actions now and, at the end, the final stock and the result. Two worlds that
reach the same cards now by different hidden routes are different worlds.

**Uniform.** The sampler draws every world with the same probability, and
counts them exactly (:attr:`Sampler.count`). It reads the view's moves
(:attr:`calabrasella.View.moves`), not the steps that made them, so this
holds for both games, every option, four at the table, table mode, and any
variant whose steps move cards with ``Work.move``, moves of the stock unseen
included. Only two things it knows beyond the moves: what a call tells (a
called card nobody handed over lies in the stock, and is not given back; the
ruleset's rule of what may be called, recognised by asking its
``callable_cards``), and which suits a show-out rules out. A rule it cannot
read from the moves (a rule of calling of the ruleset's own, a step that
chooses cards by itself, a revoke) is left out: the sampler then counts a
superset, and draws from it until the replay accepts a world (at most
:data:`TRIES`; uniform still, as rejection keeps it). A view no deal could
give raises :class:`InconsistentViewError`, a
:class:`~calabrasella.RecordError`, never a hang.

:class:`ReplaySampler` is the last resort, for a view the sampler cannot
follow: it deals at random, replays and rejects; its worlds are genuine but
not equally likely, and not counted.
"""

from __future__ import annotations

import random
from typing import Union, cast

import calabrasella as cb
from calabrasella import places

from ._hand import bits
from ._replay import TRIES, ReplaySampler, _as_rng, _named
from ._worlds import InconsistentViewError, Model, analyse

__all__ = ["TRIES", "InconsistentViewError", "ReplaySampler", "Sampler", "sample_state"]



class Sampler:
    """Draw states consistent with one seat's view, each of its worlds equally likely.

    Building a sampler works out, once, where every card may have gone and
    how many worlds there are; each :meth:`sample` then costs a walk over
    the cards and a replay through :func:`calabrasella.apply`. Build one per
    decision and draw as many worlds as the search wants.

    Attributes:
        view: The view the worlds agree with.

    Raises:
        StateError: ``view`` is not a :class:`~calabrasella.View` (a
            :class:`~calabrasella.State` included: pass ``state.view(seat)``).
        InconsistentViewError: No deal and actions give this view (a view
            edited by hand, say); a :class:`~calabrasella.RecordError`.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CAVENDISH, dealer=0, seed=7)
        >>> view = state.view(1)
        >>> sampler = Sampler(view)
        >>> from math import comb
        >>> sampler.count == comb(28, 12) * comb(16, 12)   # any split of the 28 cards unseen
        True
        >>> world = sampler.sample(random.Random(1))
        >>> world.view(1) == view, world.hand(1) == state.hand(1)
        (True, True)
    """

    __slots__ = ("_model", "_named", "_replay", "view")

    def __init__(self, view: cb.View) -> None:
        if not isinstance(view, cb.View):
            hint = ": pass state.view(seat)" if isinstance(view, cb.State) else ""
            raise cb.StateError(f"expected a View, got {type(view).__name__}{hint}")
        try:
            model = analyse(view)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
            if isinstance(exc, cb.CalabrasellaError):
                raise
            raise InconsistentViewError(f"not a well-formed view ({exc!r})") from exc
        self.view = view
        self._model = model
        self._replay = tuple(cast(cb.Action, action) for _, action in view.history)
        self._named: dict[tuple[int, int], cb.Action] = {}  # (entry, cards): the action

    @property
    def count(self) -> int:
        """The number of worlds of the view (see the module docstring), at least 1; where
        a rule is left out of the model, of a superset of them.

        Example:
            >>> import calabrasella as cb
            >>> Sampler(cb.new_deal(cb.CALABRESELLA, seed=3).view(0)).count > 10**10
            True
        """
        return self._model.worlds

    def sample(self, rng: Union[random.Random, int]) -> cb.State:
        """Draw one world and return its state now, every world equally likely.

        The same view and seed (or a ``random.Random`` in the same state) give
        the same state; its view for the seat is checked to equal :attr:`view`.

        Args:
            rng: A ``random.Random`` (which advances) or an int seed for one.

        Raises:
            SeedError: ``rng`` is neither an int nor a ``random.Random``.
            InconsistentViewError: The view's legal actions or result do not
                follow from its cards (a view edited by hand).
            RulesetError: Where a rule is left out, no world of :data:`TRIES` fits.

        Example:
            >>> import calabrasella as cb
            >>> view = cb.new_deal(cb.CAVENDISH, seed=7).view(0)
            >>> Sampler(view).sample(5) == Sampler(view).sample(random.Random(5))
            True
        """
        pick, model = _as_rng(rng), self._model
        if model.exact:
            return self._draw(model, pick)
        for _ in range(TRIES):  # a superset of the worlds, drawn uniformly: keep one that fits
            try:
                return self._draw(model, pick)
            except InconsistentViewError:
                pass
        raise cb.RulesetError(f"{self.view.rules.name}: no world of {TRIES} drawn fits its rules")

    def __repr__(self) -> str:
        """``Sampler(seat 1 of cavendish, playing, 4,200 worlds)``: whose view, its phase,
        how many worlds (at most, where a rule of the ruleset's own is checked by replay)."""
        view, model = self.view, self._model
        worlds = f"{'' if model.exact else 'at most '}{model.worlds:,} worlds"
        return f"Sampler(seat {view.seat} of {view.rules.name}, {view.phase_name}, {worlds})"

    def _draw(self, model: Model, pick: random.Random) -> cb.State:
        """Draw one world of the model: each card's path, then the folded runs' cards."""
        where, moved = list(model.dealt), list(model.moved)
        table, s = model.table, model.start
        for i, card in enumerate(model.cards):
            r, after = pick.randrange(table[i][s]), table[i + 1]
            for d, paths in model.options[i]:
                w = after.get(s + d, 0)
                if r < w * len(paths):
                    s += d
                    origin, taken = paths[r // w]
                    where[origin] |= 1 << card
                    for j in bits(taken) if taken else ():
                        moved[j] |= 1 << card
                    break
                r -= w * len(paths)
        if model.tail:  # the rest of the room, shared out at random
            rest, at = list(model.tail), 0
            pick.shuffle(rest)
            for counter, (origin, taken) in model.tail_paths:
                stride, radix, target = model.limits[counter]
                need, chunk = target - s // stride % radix, 0
                for card in rest[at : at + need]:
                    chunk |= 1 << card
                where[origin] |= chunk
                for j in bits(taken):
                    moved[j] |= chunk
                at += need
        for j, gone in reversed(model.folded):  # which cards where the run went came by it
            run = model.runs[j]
            for card in pick.sample(bits(where[run.dst] & ~gone), run.number):
                moved[j] |= 1 << card
            where[run.dst] &= ~moved[j]
            where[run.src] |= moved[j]
        fills: dict[int, int] = {}
        for run, cards in zip(model.runs, moved):
            if run.parts[0][0] >= 0:  # a decision's (or chance's) cards, in any order
                order, at = bits(cards), 0
                if len(run.parts) > 1:
                    pick.shuffle(order)
                for entry, n in run.parts:
                    for card in order[at : at + n]:
                        fills[entry] = fills.get(entry, 0) | 1 << card
                    at += n
        return self._replay_world(where, fills)

    def _replay_world(self, where: list[int], fills: dict[int, int]) -> cb.State:
        """Deal the world and replay the history, each face-down entry by the legal action
        naming its cards; check the seat's view of it is the view."""
        view, rules = self.view, self.view.rules
        hands = tuple(cb.CardSet(where[seat]) for seat in range(rules.players))
        try:
            state = cb.start(rules, cb.Deal(view.dealer, hands, cb.CardSet(where[places.STOCK_CODE])))
            apply = cb.apply
            for i, action in enumerate(self._replay):
                if (cards := fills.get(i)) is not None:  # a face-down entry: the action naming them
                    key = (i, cards)
                    action = self._named.get(key) or self._named.setdefault(key, _naming(state, cards))
                state = apply(state, action)
        except cb.CalabrasellaError as exc:
            raise InconsistentViewError(f"the view's history cannot be replayed: {exc}") from exc
        if state.view(view.seat) != view:
            raise InconsistentViewError("the view's legal actions, result or counts do not follow")
        return state


def _naming(state: cb.State, cards: int) -> cb.Action:
    """The first legal action that names exactly ``cards`` (a face-down entry's)."""
    for action in cb.legal_actions(state):
        if _named(action) == cards:
            return action
    raise InconsistentViewError(f"no legal action moves {cb.CardSet(cards)} face down here")


_CACHE: dict[cb.View, Sampler] = {}
_CACHE_SIZE = 16


def sample_state(view: cb.View, rng: Union[random.Random, int]) -> cb.State:
    """Return a state drawn uniformly from the worlds of ``view`` (see :class:`Sampler`).

    The same view and seed give the same state. The last few views' samplers
    are kept, so drawing many worlds of one view in a row works them out once.

    Args:
        view: What one seat knows.
        rng: A ``random.Random`` (which advances) or an int seed for one.

    Raises:
        StateError: ``view`` is not a :class:`~calabrasella.View`.
        SeedError: ``rng`` is neither an int nor a ``random.Random``.
        InconsistentViewError: No deal and actions give this view.
        RulesetError: Where a rule is left out, no world of :data:`TRIES` fits.

    Example:
        >>> import calabrasella as cb
        >>> state = cb.new_deal(cb.CALABRESELLA, dealer=0, seed=7)
        >>> for action in ("bid chiamo", "pass", "pass", "call 3d"):
        ...     state = cb.apply(state, cb.parse_action(action))
        >>> view = state.view(2)
        >>> world = sample_state(view, 11)
        >>> world.view(2) == view, world.hand(2) == state.hand(2)
        (True, True)
        >>> world.stock == state.stock                 # the monte was shown to all
        True
    """
    try:
        sampler = _CACHE.get(view)
    except TypeError:  # a view edited by hand to hold something unhashable: no caching
        return Sampler(view).sample(rng)
    if sampler is None:
        sampler = Sampler(view)
        if len(_CACHE) >= _CACHE_SIZE:  # the oldest goes first
            del _CACHE[next(iter(_CACHE))]
        _CACHE[view] = sampler
    return sampler.sample(rng)
