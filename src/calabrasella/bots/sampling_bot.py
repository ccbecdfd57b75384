"""A sampling bot: perfect-information search over worlds drawn from its view.

:class:`SamplingBot` plays a card the way a strong player reasons at the
table: "whatever the others hold, what does each of my cards get me?" For
a decision in the play, it draws worlds (whole deals consistent with its
view, each equally likely, from a :class:`~calabrasella.bots.sampling.Sampler`),
solves each world with every hand open (each of its legal plays' value:
the declarer's units after it, all three then playing perfectly, as
:func:`~calabrasella.bots.solver.action_values` gives), turns the units
into what the deal would pay, and plays the card whose average is best:
the highest as the declarer, the lowest as an adversary. This is
"perfect-information Monte Carlo" search; its known weakness is that in
each world it plays as if it would know the hidden cards from then on.

**Budget.** By default the bot searches every decision of the play, from
the first trick, in :data:`WORLDS` worlds (32): it solves one world after
another, each world's search starting from the mean values of the worlds
before it (a close first guess). The budget is a count of worlds, so the bot
is deterministic given its seed, on any machine and under any load. With
the compiled search (:data:`calabrasella.bots.solver.COMPILED`) a whole
deal's world costs a few tens of milliseconds at the median, so the
default costs about a second at the first trick and less at each trick
after. The pure-Python search is about twenty times slower: without the
compiled search the bot searches the last :data:`CLASSIC_SEARCH_FROM`
tricks by default (:data:`SEARCH_FROM`), and so plays differently, and the
first such bot says so (a ``RuntimeWarning``, once a process);
``search_from=12`` asks for every trick, as the compiled install plays, at
tens of seconds a decision early in the play. ``time_limit``
(seconds) and ``nodes`` (positions searched, summed over a decision's
worlds) are optional budgets besides the count: the search stops at the
first one spent, dropping the world it was solving, and plays its
fallback's choice (the :class:`~calabrasella.bots.heuristic.HeuristicBot`)
if no world was solved. ``nodes`` keeps the bot deterministic;
``time_limit`` makes its play depend on the machine's speed and load.

The bot of earlier releases, which searched only the last
:data:`CLASSIC_SEARCH_FROM` tricks with :data:`CLASSIC_WORLDS` worlds and
no clock, is :meth:`SamplingBot.classic` (``worlds=20, time_limit=None,
search_from=7``); in that mode a world's search is never cut short.

**What it pays for.** Under Cavendish the deal pays the difference of the
sides' units (70 at 35-0), so it averages that; under a game with a stake
(Calabresella) winning is what pays, so a world counts :data:`WIN_WEIGHT`
for the declarer's win (18 units or more) or minus it for his loss, plus
his units to choose among equal outcomes (more units for the winner also
keeps him from stramazzo and towards cappotto). With ``win_only=True`` it
counts the win or the loss alone, which the solver answers with one
null-window test a card instead of the card's exact units: in Calabresella
each world then costs several times less in the early tricks.

**The exchange.** With ``exchange_nodes`` set, under a game with a stake
(Calabresella), the declarer's discard after taking the monte is searched
too: a few candidate sets of cards to lay down (the fallback bot's set
first, then the cheapest other sets by the heuristic's own measure of what
a card is worth in hand) are each solved in the same sampled worlds (the
whole play, every hand open) and the set with the best average
:func:`utility` is laid down, card by card (ties: the earlier set). Off by
default: a whole-deal solve costs thousands of positions or more, so the
search needs a budget of its own, in nodes only (about five seconds in
pure Python at 200,000).

**Other decisions** (the auction, the call, giving back, Cavendish's
exchange) go to the fallback bot: judging a bid by search would mean
solving whole deals of twelve tricks, seconds each, for every world.

**Any ruleset.** Under a ruleset with exchange steps of its own, which the
exact sampler does not model, the worlds come from a
:class:`~calabrasella.bots.sampling.ReplaySampler` (dealt at random,
replayed, kept when they give the bot's view). Where that finds no world in
its bound, the bot plays its fallback bot's choice for that decision, and
says so once (``warnings.warn``, a ``UserWarning``; once per bot, not per
decision).
"""

from __future__ import annotations

import itertools
import math
import random
import time
import warnings
from collections.abc import Callable
from typing import Optional, Union

import calabrasella as cb

from ._hand import discard_loss
from .base import Bot, BotError, _choices, as_rng, regular_actions
from .heuristic import HeuristicBot
from .sampling import ReplaySampler, Sampler
from .solver import (
    COMPILED,
    WHY_PURE,
    SearchLimitError,
    _action_values,
    _action_wins,
    _value,
    solves,
)  # fmt: skip

__all__ = [
    "CLASSIC_SEARCH_FROM",
    "CLASSIC_WORLDS",
    "PURE_WARNING",
    "SEARCH_FROM",
    "TIME_LIMIT",
    "WIN_WEIGHT",
    "WORLDS",
    "SamplingBot",
    "utility",
]

#: The worlds solved for each decision, by default (about a second at the first
#: trick with the compiled search).
WORLDS = 32
#: Seconds of search for each decision, by default: no clock (the budget is
#: :data:`WORLDS`, so the bot is deterministic given its seed).
TIME_LIMIT: Optional[float] = None
#: :meth:`SamplingBot.classic`'s worlds a decision (the default of earlier releases).
CLASSIC_WORLDS = 20
#: :meth:`SamplingBot.classic`'s ``search_from`` (the default of earlier releases).
CLASSIC_SEARCH_FROM = 7
#: The bot searches a decision only when at most this many tricks are left
#: (the current one included); earlier, its fallback plays. By default every
#: trick (12) with the compiled search; without it the last
#: :data:`CLASSIC_SEARCH_FROM`, where the pure-Python search costs about what
#: the compiled one does from the first trick.
SEARCH_FROM = 12 if COMPILED else CLASSIC_SEARCH_FROM
#: What a bot with the default ``search_from`` says once when the search is pure Python.
PURE_WARNING = (
    f"SamplingBot: the solver's search is pure Python ({WHY_PURE}), so by default the bot "
    f"searches only the last {CLASSIC_SEARCH_FROM} tricks instead of all 12 and plays "
    "differently from a compiled install. For the compiled search, install calabrasella "
    "from a platform wheel or where a C compiler works (`calabrasella --version` names the "
    "search in use); search_from=12 plays as a compiled install does, tens of times slower."
)
#: Whether this process has given :data:`PURE_WARNING`.
_warned_pure = [False]
#: Under a ruleset with a stake, what a world's win (or loss) counts beside
#: the declarer's units (0 to the deal's units), which only choose among equal outcomes.
WIN_WEIGHT = 100
#: The exchange search's candidate discards: sets of this many of the cards the
#: heuristic's measure would miss least (C(6, 4) = 15 sets when four are laid down) ...
_EXCHANGE_POOL = 6
#: ... of which the cheapest this many by that measure are solved, beside the
#: fallback bot's own set.
_EXCHANGE_SETS = 3
#: One solve in the exchange search may examine at most this share of
#: ``exchange_nodes``; a world where one passes it is left out, for every set.
_EXCHANGE_SOLVE_SHARE = 16
#: The cards each hand holds when the play begins.
_PLAY_HAND = 12
#: The least ``exchange_nodes`` accepted.
_EXCHANGE_MIN_NODES = 1000


def utility(rules: cb.Ruleset, units: int) -> int:
    """Return what ``units`` for the declarer are worth to him, to average over worlds.

    What the ruleset says each adversary pays him for them
    (:meth:`~calabrasella.Ruleset.units_payment`: under Cavendish the
    difference of the sides' units, doubled when one side has them all).
    Under a ruleset whose payment hangs on more than the units (a stake),
    winning is what the deal pays for: plus or minus :data:`WIN_WEIGHT` as
    he reaches the ruleset's :attr:`~calabrasella.Ruleset.winning_units` or
    not, plus his units.

    Args:
        rules: The deal's ruleset.
        units: The declarer's units at the end of the deal, 0 to the
            ruleset's :attr:`~calabrasella.Ruleset.deal_units`.

    Example:
        >>> import calabrasella as cb
        >>> utility(cb.CAVENDISH, 23), utility(cb.CAVENDISH, 35)
        (11, 70)
        >>> utility(cb.CALABRESELLA, 17), utility(cb.CALABRESELLA, 18)
        (-83, 118)
    """
    paid = rules.units_payment(units)
    if paid is not None:
        return paid
    return (WIN_WEIGHT if units >= rules.winning_units else -WIN_WEIGHT) + units


class SamplingBot:
    """A bot that plays the card with the best average over sampled, solved worlds.

    In the play, when it has more than one card to choose from and at most
    ``search_from`` tricks are left, it draws up to ``worlds`` worlds of its
    view, finds in each what every legal card gets the declarer under
    perfect play, and plays the card whose average :func:`utility` is best
    for its side. It stops drawing when ``time_limit`` seconds or ``nodes``
    positions searched are spent, dropping the world it was solving; if no
    world was solved, or no world could be drawn, it plays the fallback
    bot's choice. Cards equally good on average are decided by the fallback
    bot's choice if it is among them, else by the order of
    ``view.legal_actions``. Every other decision goes to the fallback bot,
    except the declarer's discard in Calabresella when ``exchange_nodes``
    is set.
    It never chooses table mode's irregular actions and sees no state but
    the worlds it draws. Deterministic given ``rng`` when ``time_limit`` is
    ``None`` (the default); with a time limit its play depends on the
    machine's speed.

    Args:
        rng: A ``random.Random`` (used, and advanced, as is) or an int seed;
            it draws the worlds and seeds the fallback bot.
        worlds: The most worlds drawn for one decision (at least 1; default
            ``WORLDS``, 32); ``None`` for no limit but the others.
        time_limit: Seconds for one decision's search; ``None`` (the
            default, ``TIME_LIMIT``) for none.
        nodes: The most positions searched for one decision, over its worlds
            (a budget that does not depend on the machine); ``None`` (the
            default) for none.
        search_from: Search only when at most this many tricks are left
            (1..12); ``None`` (the default): ``SEARCH_FROM``, 12, every card
            of the play, with the compiled search; 7 without it, and then the
            first such bot of the process warns (:data:`PURE_WARNING`).
        win_only: Under a ruleset with a stake (Calabresella), count a world
            only as won or lost for the declarer (:data:`WIN_WEIGHT` or minus
            it), not by his units too: one null-window test a card per world
            instead of its exact value, about three times cheaper with eight
            or nine tricks left, so more worlds fit the budget; but nothing
            then tells a card that wins by more, or loses by less, and
            stramazzo and cappotto are not weighed. No effect under
            Cavendish, where the payment is the units. Default ``False``.
        exchange_nodes: Under a ruleset with a stake (Calabresella), search
            the declarer's discard too, with at most this many positions
            over its worlds and sets (at least 1000; ``time_limit`` does not
            apply; see the module docstring). ``None`` (the default): the
            fallback bot discards. No effect under Cavendish, whose discard
            comes before the stock is seen.
        fallback: A bot factory (called once with a ``random.Random``) for
            the decisions it does not search.

    Raises:
        SeedError: ``rng`` is neither an int nor a ``random.Random``.
        BotError: ``worlds``, ``time_limit``, ``nodes``, ``search_from``,
            ``win_only`` or ``exchange_nodes`` is out of range or of the
            wrong type, or there is no budget at all.

    Example:
        >>> import calabrasella as cb
        >>> from calabrasella.bots.play import play_deal
        >>> bots = [SamplingBot(1, worlds=4, search_from=3), HeuristicBot(2), HeuristicBot(3)]
        >>> play_deal(cb.CAVENDISH, bots, 7).is_over
        True
        >>> SamplingBot.classic(1)
        SamplingBot(<rng>, worlds=20, time_limit=None, nodes=None, search_from=7)
    """

    #: The bot's name in a simulation's table.
    name = "sampling"

    def __init__(
        self,
        rng: Union[random.Random, int],
        *,
        worlds: Optional[int] = WORLDS,
        time_limit: Optional[float] = TIME_LIMIT,
        nodes: Optional[int] = None,
        search_from: Optional[int] = None,
        fallback: Callable[[random.Random], Bot] = HeuristicBot,
        win_only: bool = False,
        exchange_nodes: Optional[int] = None,
    ) -> None:
        self.rng = as_rng(rng)
        if search_from is None:
            search_from = SEARCH_FROM
            if not COMPILED and not _warned_pure[0]:
                _warned_pure[0] = True
                warnings.warn(PURE_WARNING, RuntimeWarning, stacklevel=2)
        if worlds is not None and (type(worlds) is not int or worlds < 1):
            raise BotError(f"worlds={worlds!r}: expected an int of at least 1, or None")
        if time_limit is not None and (
            isinstance(time_limit, bool)
            or not isinstance(time_limit, (int, float))
            or not math.isfinite(time_limit)
            or time_limit <= 0
        ):
            raise BotError(f"time_limit={time_limit!r}: expected a positive number of seconds")
        if nodes is not None and (type(nodes) is not int or nodes < 1):
            raise BotError(f"nodes={nodes!r}: expected an int of at least 1, or None")
        if worlds is None and time_limit is None and nodes is None:
            raise BotError("no budget: give worlds, time_limit, nodes, or more than one")
        if type(search_from) is not int or not 1 <= search_from <= 12:
            raise BotError(f"search_from={search_from!r}: expected an int from 1 to 12")
        if type(win_only) is not bool:
            raise BotError(f"win_only={win_only!r}: expected True or False")
        if exchange_nodes is not None and (
            type(exchange_nodes) is not int or exchange_nodes < _EXCHANGE_MIN_NODES
        ):
            raise BotError(
                f"exchange_nodes={exchange_nodes!r}: expected an int of at least "
                f"{_EXCHANGE_MIN_NODES}, or None"
            )
        self.worlds = worlds
        self.time_limit = time_limit
        self.nodes = nodes
        self.search_from = search_from
        self.win_only = win_only
        self.exchange_nodes = exchange_nodes
        self.fallback = fallback(random.Random(self.rng.getrandbits(64)))
        # The searched discard's cards still to lay down, and the hand they are for.
        self._plan: tuple[cb.Card, ...] = ()
        self._plan_hand = 0
        #: Whether the bot has warned that its sampler cannot follow the ruleset.
        self.warned = False

    @classmethod
    def classic(
        cls,
        rng: Union[random.Random, int],
        *,
        fallback: Callable[[random.Random], Bot] = HeuristicBot,
    ) -> SamplingBot:
        """The sampling bot with the defaults of earlier releases: 20 worlds, no clock, and
        only the last 7 tricks searched (deterministic given ``rng``). A bot factory."""
        return cls(
            rng,
            worlds=CLASSIC_WORLDS,
            time_limit=None,
            search_from=CLASSIC_SEARCH_FROM,
            fallback=fallback,
        )

    def __repr__(self) -> str:
        return (
            f"SamplingBot(<rng>, worlds={self.worlds!r}, time_limit={self.time_limit!r}, "
            f"nodes={self.nodes!r}, search_from={self.search_from!r}"
            + (", win_only=True" if self.win_only else "")
            + ("" if self.exchange_nodes is None else f", exchange_nodes={self.exchange_nodes!r}")
            + ")"
        )

    def choose(self, view: cb.View) -> cb.Action:
        """Return the searched card in the play's last tricks, else the fallback's choice.

        Raises:
            BotError: The view's seat is not to act (it has no action to choose).
        """
        actions = _choices(view)
        if len(actions) == 1:
            return actions[0]
        if view.phase is cb.Phase.DISCARDING and self.exchange_nodes is not None:
            return self._discard(view, actions)
        if view.phase is not cb.Phase.PLAYING or len(view.hand) > self.search_from:
            return self._fallback(view, actions)
        if not solves(view.rules):  # cards counted otherwise than the search counts them
            if not self.warned:
                self.warned = True
                warnings.warn("SamplingBot plays its fallback bot's choice: the search does "
                              "not count the cards as these rules do", stacklevel=2)  # fmt: skip
            return self._fallback(view, actions)
        return self._search(view, actions)

    def _fallback(self, view: cb.View, actions: tuple[cb.Action, ...]) -> cb.Action:
        """The fallback bot's choice, checked to be one of ``actions``."""
        action = self.fallback.choose(view)
        if action not in actions:
            raise BotError(f"the fallback bot chose {action!r}, not a regular legal action")
        return action

    def _first_world(
        self, view: cb.View, stacklevel: int
    ) -> Optional[tuple[Union[Sampler, ReplaySampler], cb.State]]:
        """A sampler of ``view`` and its first world; None (and a warning, once, at
        ``stacklevel`` from here: the caller of :meth:`choose`) if none is found."""
        try:
            try:
                sampler: Union[Sampler, ReplaySampler] = Sampler(view)
            except cb.RulesetError:  # steps of its own: worlds by replay and rejection
                sampler = ReplaySampler(view)
            return sampler, sampler.sample(self.rng)
        except cb.RulesetError as exc:  # no world found: no search
            if not self.warned:
                self.warned = True
                warnings.warn(
                    f"SamplingBot plays its fallback bot's choice: {exc}", stacklevel=stacklevel
                )
            return None

    def _discard(self, view: cb.View, actions: tuple[cb.Action, ...]) -> cb.Action:
        """The next card of the searched discard (planned at the first), else the fallback's."""
        plan, self._plan = self._plan, ()
        if plan and view.hand.mask == self._plan_hand and cb.Discard(plan[0]) in actions:
            self._plan = plan[1:]
        elif (
            isinstance(view.rules, cb.Cavendish)
            or view.seat != view.declarer
            or not all(isinstance(action, cb.Discard) for action in actions)
        ):
            return self._fallback(view, actions)
        else:
            plan = self._plan_discard(view, len(view.hand) - _PLAY_HAND)
            if not plan:
                return self._fallback(view, actions)
            self._plan = plan[1:]
        self._plan_hand = view.hand.mask & ~(1 << plan[0].index)
        return cb.Discard(plan[0])

    def _plan_discard(self, view: cb.View, count: int) -> tuple[cb.Card, ...]:
        """The set of ``count`` cards to discard with the best average utility over sampled
        worlds (see the module docstring); empty if no world is found, or if the play does
        not follow the fallback's discard."""
        first = self._first_world(view, 5)  # _first_world, _plan_discard, _discard, choose
        if first is None or count < 1:
            return ()
        sampler, world = first
        seat = view.seat
        own: list[cb.Card] = []
        after = world
        for _ in range(count):
            action = self._fallback(after.view(seat), regular_actions(after.view(seat)))
            if not isinstance(action, cb.Discard):
                return ()
            own.append(action.card)
            after = cb.apply(after, action)
        if after.phase is not cb.Phase.PLAYING:
            return ()
        hand = view.hand.mask
        cards = sorted(view.hand, key=lambda card: discard_loss(hand, card.index))
        sets = sorted(
            itertools.combinations(cards[: max(count, _EXCHANGE_POOL)], count),
            key=lambda cs: sum(discard_loss(hand, card.index) for card in cs),
        )
        candidates = [tuple(own)]
        for cs in sets:
            if len(candidates) > _EXCHANGE_SETS:
                break
            if set(cs) != set(own):
                candidates.append(cs)
        totals = [0] * len(candidates)
        left = self.exchange_nodes or 0
        cap = max(1, left // _EXCHANGE_SOLVE_SHARE)
        drawn = 0
        while left > 0 and (self.worlds is None or drawn < self.worlds):
            row: list[int] = []
            for cs in candidates:
                if left <= 0:  # the budget ran out in this world: drop it
                    break
                state = world
                for card in cs:
                    state = cb.apply(state, cb.Discard(card))
                try:  # the first set's value is a close guess for the others'
                    units, used = _value(
                        state, "SamplingBot", min(cap, left), row[0] if row else None
                    )
                except SearchLimitError:  # a hard world: left out for every set
                    left -= min(cap, left)
                    break
                left -= used
                row.append(units)
            if len(row) == len(candidates):
                drawn += 1
                totals = [total + utility(view.rules, units) for total, units in zip(totals, row)]
            if left <= 0:
                break
            try:
                world = sampler.sample(self.rng)
            except cb.RulesetError:
                break
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def _search(self, view: cb.View, actions: tuple[cb.Action, ...]) -> cb.Action:
        """Average each card's utility over sampled worlds and return the best card."""
        plays = [a for a in actions if isinstance(a, cb.Play)]
        totals = dict.fromkeys(plays, 0)
        rules = view.rules
        wins_only = self.win_only and not isinstance(rules, cb.Cavendish)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        first = self._first_world(view, 4)  # _first_world, _search, choose
        if first is None:
            return self._fallback(view, actions)
        sampler, world = first
        drawn = 0
        left = self.nodes
        # each play's mean value over the worlds solved so far: the next world's first
        # guesses, each moved by how far this world's plays solved before it came out
        # from theirs (solver._action_values(shift=True)); the values do not depend on it
        sums = dict.fromkeys(plays, 0)
        guesses: Optional[dict[cb.Play, float]] = None
        while self.worlds is None or drawn < self.worlds:
            if drawn:
                if deadline is not None and time.perf_counter() >= deadline:
                    break
                try:
                    world = sampler.sample(self.rng)
                except cb.RulesetError:  # the generic path found no more: search what it found
                    break
            try:
                if wins_only:
                    wins, used = _action_wins(
                        world, "SamplingBot", world.rules.winning_units, left, deadline or 0.0
                    )
                    for play in plays:
                        totals[play] += WIN_WEIGHT if wins[play] else -WIN_WEIGHT
                else:
                    values, used = _action_values(  # True: the guesses shifted
                        world, "SamplingBot", left, deadline or 0.0, guesses, True
                    )
                    for play in plays:
                        totals[play] += utility(rules, values[play])
                        sums[play] += values[play]
                    guesses = {play: sums[play] / (drawn + 1) for play in plays}
            except SearchLimitError:  # the budget ran out in this world: drop it
                break
            drawn += 1
            if left is not None:
                left -= used
                if left <= 0:
                    break
        if not drawn:
            return self._fallback(view, actions)
        sign = 1 if view.seat == view.declarer else -1
        best = max(sign * total for total in totals.values())
        ties = [play for play in plays if sign * totals[play] == best]
        if len(ties) == 1:
            return ties[0]
        preferred = self.fallback.choose(view)
        return preferred if preferred in ties else ties[0]
